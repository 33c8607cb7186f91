"""The board's "continue with PIMC": PIMC players on all three seats play on from the
position shown, and every card they play is judged double dummy, against the
double-dummy line from that position.

The PIMC cards are those of :func:`calasolve.play.players.play_out` with a
:class:`~calasolve.play.players.PimcPlayer` per seat: a decision's layouts are
a function of the seed and the number of cards played only, so playing the
line a few cards at a time (the page asks card by card, to show its progress)
gives the same cards as playing it in one go.
"""

from __future__ import annotations

from typing import Any

from ..deals.analysis import review_play
from ..game.cards import MAKE_THIRDS, card_name
from ..game.errors import CalasolveError
from ..game.state import PlayState
from ..play.players import PimcPlayer, play_choice
from ..records.dealfile import Record
from ..search.engines import CoreSolver
from ..search.solving import solve

__all__ = ["DEFAULT_BOARD_SAMPLES", "MAX_BOARD_SAMPLES", "continue_with_pimc"]

#: Layouts per PIMC decision when the page asks for none: a deal from mid-play in seconds.
DEFAULT_BOARD_SAMPLES = 10
#: The most layouts per decision the board plays (a first-lead decision solves each layout in full).
MAX_BOARD_SAMPLES = 1000


def _result(state: PlayState, record: Record) -> dict[str, Any] | None:
    """The score of a finished 12-trick deal (as the view's ``result``); None before the end."""
    if not state.is_over or state.total_tricks != 12:
        return None
    return state.result(record.contract, record.rules).to_dict()


def continue_with_pimc(record: Record, *, samples: int, seed: int, cards: int | None = None,
                       solver: CoreSolver, double_dummy: bool = True) -> dict[str, Any]:
    """Play on from ``record``'s ``played`` point with a PIMC player per seat (``samples`` layouts
    a decision, ``seed``), at most ``cards`` cards (None: to the end).

    The answer: ``cards`` (each card played, judged as ``calasolve analyse`` judges it,
    ``index`` counting from the first lead), ``played`` (every card from the first lead),
    ``over``, ``result`` (the finished deal's score) and ``double_dummy``: the soloist's
    final thirds under best play from the position asked about, and a best line with its
    score (None without ``double_dummy``: a page asking card by card needs it once).
    """
    if record.needs_exchange:
        raise CalasolveError("deal.exchange: the record's exchange is incomplete: give one (as /api/exchange finds it)")
    start = record.state()
    if start.is_over:
        raise CalasolveError("pimc: the deal is over: no card is left to play")
    players = [PimcPlayer(samples, seed, solver) for _ in range(3)]
    state = start.copy()
    new: list[Any] = []
    while not state.is_over and (cards is None or len(new) < cards):
        player = players[state.to_move]
        card = player.choose(record, state)
        play_choice(state, player, card)
        new.append(card)
    reviews = []
    for review in review_play(start.copy(), new, solver):
        judged = review.to_dict()
        judged["index"] += len(record.played)  # from the first lead, as the board's line counts
        reviews.append(judged)
    return {
        "samples": samples,
        "seed": seed,
        "start": len(record.played),
        "cards": reviews,
        "played": [card_name(c) for c in state.history],
        "over": state.is_over,
        "to_move": None if state.is_over else state.to_move,
        "result": _result(state, record),
        "double_dummy": _double_dummy(start, record, solver) if double_dummy else None,
    }


def _double_dummy(start: PlayState, record: Record, solver: CoreSolver) -> dict[str, Any]:
    """The soloist's thirds under best play from ``start``, a best line and its score."""
    best = solve(start.copy(), solver=solver)
    end = start.copy()
    for card in best.line:
        end.play(card)
    thirds = best.soloist_thirds or 0
    return {
        "soloist_thirds": thirds,
        "makes": thirds >= MAKE_THIRDS,
        "line": [card_name(c) for c in best.line],
        "result": _result(end, record),
    }
