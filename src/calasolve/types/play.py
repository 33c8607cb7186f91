"""A deal played out by card players (:class:`PlayedDeal`)."""

from __future__ import annotations

from dataclasses import dataclass
from .record import Record


@dataclass(frozen=True)
class PlayedDeal:
    """A record played out: the record with every card in ``played``, who played each seat, and the score."""

    record: Record
    players: tuple[str, str, str]
    seconds: float
