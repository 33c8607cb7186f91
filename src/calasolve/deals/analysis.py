"""The played-deal analyser: the double-dummy cost of every card played.

For each card of a record's ``played:`` line, :func:`analyse` gives the
double-dummy value (the soloist's final thirds under best play) before and
after it, its cost in thirds to the side that played it (0 for an optimal
card) and the optimal alternatives.  It sums the mistakes per player, finds
the cards where the contract's fate changed hands, and, for a partly played
deal, shows the best continuation.  One solver serves every position, so
its warm table makes the 36 solves of a deal cost a few plain solves.
"""

from __future__ import annotations

import time

from ..game.cards import Card
from ..types.record import Record, check_record
from ..game.exchange import Exchange
from ..exchange.search import best_exchange
from ..game.state import SOLOIST_EXCHANGE, PlayState
from ..game.limits import check_bool
from ..types.solution import CardValues
from ..search.solving import check_solver, default_solver, final_card_values
from ..search.engines import CoreSolver
from ..game.state import core_position
from ..search.position import Position, solve_position
from ..types.analysis import Analysis, CardReview, ExchangeReview


def review_play(state: PlayState, played: list[Card], solver: CoreSolver) -> list[CardReview]:
    """Judge each of ``played`` from ``state`` (which it advances to the end of ``played``)."""
    reviews = []
    for index, card in enumerate(played):
        seat = state.to_move
        values = final_card_values(solver, state)
        is_soloist = seat == state.soloist
        before = max(values.values()) if is_soloist else min(values.values())
        after = values[card]
        reviews.append(
            CardReview(
                index=index,
                trick=len(state.tricks) + 1,
                seat=seat,
                soloist=is_soloist,
                card=card,
                before=before,
                after=after,
                cost=before - after if is_soloist else after - before,
                best=tuple(c for c in sorted(values) if values[c] == before),
                values=CardValues.ordered(values, maximise=is_soloist),
            )
        )
        state.play(card)
    return reviews


def exchange_review(record: Record, actual: int, solver: CoreSolver) -> ExchangeReview | None:
    """The exchange actually made against the double-dummy-best one (docs/rules.md §9).

    Who chose decides what is searched: the soloist's call, return and
    discards (chiamo, solo); the defenders' discards after the blind draw
    (dividete: the draw is chance, so the record's takes are kept); the
    defenders' split and discards (scegliete).  ``cost`` is what the
    choosing side gave away, in the soloist's final thirds.
    """
    if record.contract == "solissimo":
        return None
    if record.contract == "dividete":
        open_ = Exchange(takes=record.exchange.takes)
    else:
        open_ = Exchange()
    found = best_exchange(record.with_(exchange=open_, played=()), solver=solver, top=1)
    soloist_chooses = record.contract in SOLOIST_EXCHANGE
    cost = found.value - actual if soloist_chooses else actual - found.value
    return ExchangeReview(
        chosen_by="soloist" if soloist_chooses else "defenders",
        actual=actual,
        best=found.value,
        best_exchange=found.text(),
        best_fields=found.exchange,
        cost=cost,
    )


def analyse(record: Record, *, solver: CoreSolver | None = None, exchange: bool = True) -> Analysis:
    """Analyse a record's ``played:`` cards (its exchange must be complete).

    With ``exchange`` (the default) an exchange contract's exchange is also
    judged against the double-dummy-best one (``exchange``); that
    search can take seconds (chiamo the longest).
    """
    check_record("record", record)
    check_solver("solver", solver)
    check_bool("exchange", exchange)
    solver = solver or default_solver()
    start = time.perf_counter()
    state = record.start_state()
    start_value = solver.value(*core_position(state))
    review = exchange_review(record, start_value, solver) if exchange else None
    reviews = review_play(state, list(record.played), solver)
    continuation = None
    if state.is_over:
        final_value = actual = state.captured[state.soloist]
    else:
        actual = None
        continuation = solve_position(Position(state, solver=solver))
        final_value = continuation.soloist_thirds or 0
    return Analysis(
        contract=record.contract,
        soloist=record.soloist,
        name=record.name,
        record=getattr(record, "index", None),
        start_value=start_value,
        reviews=tuple(reviews),
        complete=state.is_over,
        actual_thirds=actual,
        final_value=final_value,
        continuation=continuation,
        seconds=time.perf_counter() - start,
        exchange=review,
    )
