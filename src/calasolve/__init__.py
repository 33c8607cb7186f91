"""calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio).

>>> from calasolve import parse_hand, hand_name
>>> hand_name(parse_hand("kqj.-.-.3"))
'RCF.-.-.3'
"""

from __future__ import annotations

import importlib
from typing import Any as _Any

from .cards import card_name, cards_name, hand_name, parse_card, parse_cards, parse_hand
from .errors import CalasolveError, DealFileError, ExchangeError, IllegalPlayError, ParameterError, RuleError
from .game import DealResult, PlayState, score
from .rules import Rules
from .solving import CardValues, SolveResult, solve

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
    "Notation": ".text",
    "notation": ".text",
    "hand_diagram": ".text",
    "table_diagram": ".text",
}

__all__ = sorted([
    "CalasolveError", "DealFileError", "ExchangeError", "IllegalPlayError", "ParameterError", "RuleError",
    "CardValues", "DealResult", "PlayState", "Rules", "SolveResult",
    "card_name", "cards_name", "hand_name", "parse_card", "parse_cards", "parse_hand", "score", "solve",
    *_LAZY,
])


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'calasolve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
