"""calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio).

>>> from calasolve import parse_hand, hand_name
>>> hand_name(parse_hand("kqj.-.-.3"))
'RCF.-.-.3'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING
from typing import Any as _Any

from .cards import card_name, cards_name, hand_name, parse_card, parse_cards, parse_hand
from .errors import CalasolveError, DealFileError, ExchangeError, IllegalPlayError, ParameterError, RuleError
from .game import DealResult, PlayState, score
from .rules import Rules
from .solving import CardValues, SolveResult, solve

if TYPE_CHECKING:  # what the lazy names below are, for a type checker
    from ._core import Solver
    from .advisor import advise
    from .analysis import Analysis, analyse
    from .ddtable import DDTable, dd_table
    from .dealfile import Record, check_deal_file, parse_deal_text, read_deal_file
    from .exchange import Exchange
    from .exchange_search import ExchangeResult, best_exchange
    from .position import Position
    from .text import Notation, hand_diagram, notation, table_diagram

__version__ = "0.1.0"

# The C extension and the heavier modules load on first use, so that
# `import calasolve` stays cheap and works for the pure-Python parts.
_LAZY = {
    "Solver": "._core",
    "Position": ".position",
    "Record": ".dealfile",
    "read_deal_file": ".dealfile",
    "parse_deal_text": ".dealfile",
    "check_deal_file": ".dealfile",
    "Exchange": ".exchange",
    "ExchangeResult": ".exchange_search",
    "best_exchange": ".exchange_search",
    "Analysis": ".analysis",
    "analyse": ".analysis",
    "advise": ".advisor",
    "DDTable": ".ddtable",
    "dd_table": ".ddtable",
    "Notation": ".text",
    "notation": ".text",
    "hand_diagram": ".text",
    "table_diagram": ".text",
}

__all__ = [
    "Analysis", "CalasolveError", "CardValues", "DDTable", "DealFileError", "DealResult", "Exchange", "ExchangeError",
    "ExchangeResult", "IllegalPlayError", "Notation", "ParameterError", "PlayState", "Position", "Record",
    "RuleError", "Rules", "SolveResult", "Solver", "advise", "analyse", "best_exchange", "card_name", "cards_name",
    "check_deal_file", "dd_table", "hand_diagram", "hand_name", "notation", "parse_card", "parse_cards", "parse_deal_text",
    "parse_hand", "read_deal_file", "score", "solve", "table_diagram",
]


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'calasolve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
