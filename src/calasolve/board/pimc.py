"""The board's "continue with PIMC": PIMC players on all three seats play on from the
position shown, and every card they play is judged double dummy, against the
double-dummy line from that position.

The PIMC cards are those of :func:`calasolve.play.players.play_out` with a
:class:`~calasolve.play.players.PimcPlayer` per seat (both play with
:func:`~calasolve.play.players.play_on`): a decision's layouts are a function
of the seed and the number of cards played only, so playing the line a few
cards at a time (the page asks card by card, to show its progress) gives the
same cards as playing it in one go.  The answer is a :class:`PimcContinuation`;
the server writes its JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import islice
from typing import Any, Mapping

from ..types.analysis import CardReview
from ..deals.analysis import review_play
from ..game.cards import MAKE_THIRDS, Card, card_name, parse_card
from ..game.errors import CalasolveError
from ..game.state import DealResult, PlayState
from ..play.players import PimcPlayer, play_on
from ..types.record import Record
from ..search.engines import CoreSolver
from ..search.position import Position, solve_position

__all__ = ["DEFAULT_BOARD_SAMPLES", "MAX_BOARD_SAMPLES", "DoubleDummyLine", "PimcContinuation", "continue_with_pimc"]

#: Layouts per PIMC decision when the page asks for none: a deal from mid-play in seconds.
DEFAULT_BOARD_SAMPLES = 10
#: The most layouts per decision the board plays (a first-lead decision solves each layout in full).
MAX_BOARD_SAMPLES = 1000


@dataclass(frozen=True)
class DoubleDummyLine:
    """The soloist's final thirds under best play from a position, a best line and the score it ends with."""

    soloist_thirds: int
    line: tuple[Card, ...]
    #: the finished deal's score (None when the line does not end a 12-trick deal)
    result: DealResult | None

    @property
    def makes(self) -> bool:
        return self.soloist_thirds >= MAKE_THIRDS

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DoubleDummyLine":
        """The line of :meth:`to_dict`'s form: ``DoubleDummyLine.from_dict(x.to_dict()) == x``."""
        result = None if d["result"] is None else DealResult.from_dict(d["result"])
        return cls(d["soloist_thirds"], tuple(parse_card(c) for c in d["line"]), result)

    def to_dict(self) -> dict[str, Any]:
        return {
            "soloist_thirds": self.soloist_thirds,
            "makes": self.makes,
            "line": [card_name(c) for c in self.line],
            "result": None if self.result is None else self.result.to_dict(),
        }


@dataclass(frozen=True)
class PimcContinuation:
    """What :func:`continue_with_pimc` played: the cards, each judged, and where the deal stands."""

    samples: int
    seed: int
    #: the cards played before, from the first lead
    start: int
    #: each card played, judged as ``calasolve analyse`` judges it, ``index`` counting from the first lead
    cards: tuple[CardReview, ...]
    #: every card from the first lead
    played: tuple[Card, ...]
    over: bool
    to_move: int | None
    #: the finished deal's score (None before the end)
    result: DealResult | None
    #: best play from the position asked about (None when not asked for)
    double_dummy: DoubleDummyLine | None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "PimcContinuation":
        """The play of :meth:`to_dict`'s form: ``PimcContinuation.from_dict(x.to_dict()) == x``."""
        return cls(
            d["samples"], d["seed"], d["start"], tuple(CardReview.from_dict(c) for c in d["cards"]),
            tuple(parse_card(c) for c in d["played"]), d["over"], d["to_move"],
            None if d["result"] is None else DealResult.from_dict(d["result"]),
            None if d["double_dummy"] is None else DoubleDummyLine.from_dict(d["double_dummy"]),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "seed": self.seed,
            "start": self.start,
            "cards": [r.to_dict() for r in self.cards],
            "played": [card_name(c) for c in self.played],
            "over": self.over,
            "to_move": self.to_move,
            "result": None if self.result is None else self.result.to_dict(),
            "double_dummy": None if self.double_dummy is None else self.double_dummy.to_dict(),
        }


def _result(state: PlayState, record: Record) -> DealResult | None:
    """The score of a finished 12-trick deal (as the view's ``result``); None before the end."""
    if not state.is_over or state.total_tricks != 12:
        return None
    return state.result(record.contract, record.rules)


def continue_with_pimc(record: Record, *, samples: int, seed: int, cards: int | None = None,
                       solver: CoreSolver, double_dummy: bool = True) -> PimcContinuation:
    """Play on from ``record``'s ``played`` point with a PIMC player per seat (``samples`` layouts
    a decision, ``seed``), at most ``cards`` cards (None: to the end), with :func:`~calasolve.play.players.play_on`.

    Every card is judged double dummy; ``double_dummy`` is the best play from the position asked
    about (None without ``double_dummy``: a page asking card by card needs it once).
    """
    if record.needs_exchange:
        raise CalasolveError("deal.exchange: the record's exchange is incomplete: give one (as /api/exchange finds it)")
    start = record.state()
    if start.is_over:
        raise CalasolveError("pimc: the deal is over: no card is left to play")
    players = [PimcPlayer(samples, seed, solver) for _ in range(3)]
    new = list(islice(play_on(record, players), cards))
    state = start.copy()
    reviews = review_play(state, new, solver)  # judged from the start; the state ends after the new cards
    before = len(record.played)
    return PimcContinuation(
        samples=samples,
        seed=seed,
        start=before,
        cards=tuple(replace(r, index=r.index + before) for r in reviews),  # from the first lead, as the board counts
        played=tuple(state.history),
        over=state.is_over,
        to_move=None if state.is_over else state.to_move,
        result=_result(state, record),
        double_dummy=_double_dummy(start, record, solver) if double_dummy else None,
    )


def _double_dummy(start: PlayState, record: Record, solver: CoreSolver) -> DoubleDummyLine:
    """The soloist's thirds under best play from ``start``, a best line and its score."""
    best = solve_position(Position(start.copy(), solver=solver))
    end = start.copy()
    for card in best.line:
        end.play(card)
    return DoubleDummyLine(best.soloist_thirds or 0, best.line, _result(end, record))
