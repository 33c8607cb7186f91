"""calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio).

>>> from calasolve import parse_hand, hand_name
>>> hand_name(parse_hand("kqj.-.-.3"))
'RCF.-.-.3'
"""

from __future__ import annotations

from typing import Any

from .cards import card_name, cards_name, hand_name, parse_card, parse_cards, parse_hand
from .errors import CalasolveError, DealFileError, ExchangeError, IllegalPlayError, ParameterError, RuleError
from .game import PlayState, score
from .rules import Rules
from .solving import SolveResult, solve

__version__ = "0.1.0"

__all__ = [
    "CalasolveError",
    "DealFileError",
    "ExchangeError",
    "IllegalPlayError",
    "ParameterError",
    "PlayState",
    "Position",
    "Rules",
    "RuleError",
    "SolveResult",
    "Solver",
    "advise",
    "analyse",
    "best_exchange",
    "card_name",
    "cards_name",
    "hand_name",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "read_deal_file",
    "score",
    "solve",
]


def __getattr__(name: str) -> Any:
    # The C extension and the heavier modules load on first use, so that
    # `import calasolve` stays cheap and works for the pure-Python parts.
    if name == "Solver":
        from ._core import Solver

        return Solver
    if name == "Position":
        from .position import Position

        return Position
    if name == "advise":
        from .advisor import advise

        return advise
    if name == "analyse":
        from .analysis import analyse

        return analyse
    if name == "best_exchange":
        from .exchange_search import best_exchange

        return best_exchange
    if name == "read_deal_file":
        from .dealfile import read_deal_file

        return read_deal_file
    raise AttributeError(f"module 'calasolve' has no attribute {name!r}")
