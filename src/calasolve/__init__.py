"""calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio).

The public API, re-exported here from the subpackages, bottom up:
:mod:`~calasolve.game`, :mod:`~calasolve.records` and :mod:`~calasolve.scale`,
:mod:`~calasolve.search`, :mod:`~calasolve.exchange`, :mod:`~calasolve.advice`
and :mod:`~calasolve.deals`, :mod:`~calasolve.board`, :mod:`~calasolve.cli`
(docs/architecture.md: what each holds and may import).

>>> from calasolve import parse_hand, hand_name
>>> hand_name(parse_hand("kqj.-.-.3"))
'RCF.-.-.3'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING
from typing import Any as _Any

from .game.cards import card_name, cards_name, hand_name, parse_card, parse_cards, parse_hand
from .game.errors import CalasolveError, DealFileError, ExchangeError, IllegalPlayError, ParameterError, RuleError
from .game.state import DealResult, PlayState, score
from .game.rules import Rules
from .types.solution import CardValues, SolveResult

if TYPE_CHECKING:  # what the lazy names below are, for a type checker
    from .search._core import Solver
    from .advice.advisor import advise
    from .types.analysis import Analysis
    from .deals.analysis import analyse
    from .types.table import DDTable
    from .table.ddtable import dd_table
    from .table.batch import dd_tables
    from .types.record import Record
    from .records.dealfile import check_deal_file, parse_deal_text, read_deal_file
    from .game.exchange import Exchange
    from .types.exchange import ExchangeResult
    from .exchange.search import best_exchange
    from .exchange.solve import solve
    from .search.position import Position, solve_position
    from .game.notation import Notation, hand_diagram, notation, table_diagram
    from .play.learned import LearnedPlayer, play_out_many
    from .types.view import View, seat_view
    from .types.seat import SeatAdvice
    from .seat.advice import advise_view
    from .seat.layouts import posterior_layouts, view_layouts
    from .seat.bidding import BiddingModel
    from .seat.agent import TableAgent
    from .seat.policy import TensorPolicy

__version__ = "0.1.0"

# The C extension and the heavier modules load on first use, so that
# `import calasolve` stays cheap and works for the pure-Python parts.
_LAZY = {
    "Solver": ".search._core",
    "Position": ".search.position",
    "solve_position": ".search.position",
    "Record": ".types.record",
    "read_deal_file": ".records.dealfile",
    "parse_deal_text": ".records.dealfile",
    "check_deal_file": ".records.dealfile",
    "Exchange": ".game.exchange",
    "ExchangeResult": ".types.exchange",
    "best_exchange": ".exchange.search",
    "solve": ".exchange.solve",
    "Analysis": ".types.analysis",
    "analyse": ".deals.analysis",
    "DDTable": ".types.table",
    "dd_table": ".table.ddtable",
    "dd_tables": ".table.batch",
    "advise": ".advice.advisor",
    "LearnedPlayer": ".play.learned",
    "play_out_many": ".play.learned",
    "View": ".types.view",
    "seat_view": ".types.view",
    "SeatAdvice": ".types.seat",
    "advise_view": ".seat.advice",
    "posterior_layouts": ".seat.layouts",
    "view_layouts": ".seat.layouts",
    "BiddingModel": ".seat.bidding",
    "TableAgent": ".seat.agent",
    "TensorPolicy": ".seat.policy",
    "Notation": ".game.notation",
    "notation": ".game.notation",
    "hand_diagram": ".game.notation",
    "table_diagram": ".game.notation",
}

__all__ = [
    "Analysis", "BiddingModel", "CalasolveError", "CardValues", "DDTable", "DealFileError", "DealResult", "Exchange",
    "ExchangeError", "ExchangeResult", "IllegalPlayError", "LearnedPlayer", "Notation", "ParameterError", "PlayState",
    "Position", "Record", "RuleError", "Rules", "SeatAdvice", "SolveResult", "Solver", "TableAgent", "TensorPolicy", "View", "advise",
    "advise_view", "analyse", "best_exchange", "card_name", "cards_name", "check_deal_file", "dd_table", "dd_tables",
    "hand_diagram", "hand_name", "notation", "parse_card", "parse_cards", "parse_deal_text", "parse_hand",
    "play_out_many", "posterior_layouts", "read_deal_file", "score", "seat_view", "solve", "solve_position",
    "table_diagram", "view_layouts",
]


def __getattr__(name: str) -> _Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'calasolve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
