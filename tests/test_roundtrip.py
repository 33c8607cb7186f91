"""Every result that crosses a process or the HTTP edge comes back from its JSON: ``X.from_dict``
of ``x.to_dict()``, read back from the JSON text, equals ``x`` and writes the same JSON.

The instances are real: made by the functions that make them, on the examples.  The objects are
compared field by field, the fields left out of ``==`` included, so that a field the JSON or
``from_dict`` drops fails here; what the JSON cannot carry is named in each ``from_dict``'s
docstring and left out of the comparison below (``seconds`` are compared in the JSON, rounded).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any, Callable

import pytest

from calasolve.advice.advisor import advise
from calasolve.types.advice import Advice, ContractEstimate
from calasolve.board.pimc import DoubleDummyLine, PimcContinuation, continue_with_pimc
from calasolve.cli.play import PlayedResult, _play_one
from calasolve.types.analysis import Analysis, CardReview, ExchangeReview
from calasolve.deals.analysis import analyse
from calasolve.exchange.search import best_exchange
from calasolve.exchange.solve import solve
from calasolve.game.auction import AuctionResult
from calasolve.game.cards import cards_of
from calasolve.game.exchange import Exchange
from calasolve.game.match import DealRecord, Match
from calasolve.game.rules import Rules
from calasolve.game.state import DEFENDER_EXCHANGE, DealResult
from calasolve.types.record import Record
from calasolve.types.view import View, seat_view
from calasolve.records.dealfile import read_deal_file
from calasolve.types.jsonout import dumps
from calasolve.types.exchange import BestKnown, ExchangeResult
from calasolve.types.solution import SolveResult
from calasolve.search.engines import make_solver
from calasolve.types.table import DDTable, TableOutcome, TableEntry
from calasolve.table.ddtable import dd_table
from calasolve.types.table import Par

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: records whose exchange is searched: solo, chiamo (call given), dividete (draws and takes given), scegliete
EXCHANGES = ROOT / "tests" / "golden" / "exchanges.deal"


@pytest.fixture(scope="module")
def solver() -> Any:
    return make_solver(16)


def wire(obj: Any) -> Any:
    """``obj.to_dict()`` as the other side reads it: written as JSON text, read back."""
    return json.loads(dumps(obj.to_dict()))


def fields_of(x: Any, skip: frozenset[str]) -> Any:
    """Every field of ``x``, nested, the fields left out of ``==`` included (not those in ``skip``);
    a bound of None is the value (the JSON's ``bound``), NaN is "nan" (equal to itself)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        out = {f.name: fields_of(getattr(x, f.name), skip) for f in dataclasses.fields(x) if f.name not in skip}
        if out.get("bound", 0) is None and "value" in out:
            out["bound"] = out["value"]
        return out
    if isinstance(x, (tuple, list)):
        return [fields_of(v, skip) for v in x]
    if isinstance(x, dict):
        return {k: fields_of(v, skip) for k, v in x.items()}
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    return x


def assert_round_trip(x: Any, rebuild: Callable[[Any], Any], skip: tuple[str, ...] = ()) -> Any:
    """``rebuild`` (a ``from_dict``) of ``x``'s JSON equals ``x`` and writes the same JSON, in the same order."""
    d = wire(x)
    back = rebuild(d)
    assert dumps(back.to_dict()) == dumps(d)
    left_out = frozenset(("seconds", *skip))
    assert fields_of(back, left_out) == fields_of(x, left_out)
    return back


def test_a_dropped_field_fails_the_round_trip() -> None:
    """The comparison sees a field ``from_dict`` forgets, even one left out of ``==``."""
    record = read_deal_file(str(EXAMPLES / "played.deal"))[1]
    review = analyse(record, exchange=True)
    assert review.exchange is not None
    forgetful = lambda d: dataclasses.replace(Analysis.from_dict(d), exchange=None)  # noqa: E731
    with pytest.raises(AssertionError):
        assert_round_trip(review, forgetful)


# -- the game's and the records' --------------------------------------------------------

@pytest.mark.parametrize("path", ["example.deal", "played.deal", "table.deal"])
def test_records(path: str) -> None:
    for record in read_deal_file(str(EXAMPLES / path)):
        assert Record.from_dict(wire(record)) == record
        assert_round_trip(record, Record.from_dict, skip=("path", "line", "index", "key_lines"))


def test_views() -> None:
    """A seat's view at a few points of each played record, every seat."""
    for record in read_deal_file(str(EXAMPLES / "played.deal")) + read_deal_file(str(EXAMPLES / "example.deal")):
        for seat in range(3):
            for n in {0, len(record.played) // 2, len(record.played)}:
                view = seat_view(record, seat, n)
                assert View.from_dict(wire(view)) == view
                assert_round_trip(view, View.from_dict, skip=("path", "line", "index", "key_lines"))


def test_exchanges() -> None:
    for record in read_deal_file(str(EXAMPLES / "example.deal")) + read_deal_file(str(EXCHANGES)):
        assert Exchange.from_dict(wire(record.exchange)) == record.exchange


def test_deal_results() -> None:
    for record in read_deal_file(str(EXAMPLES / "played.deal"))[:2]:
        result = record.state().result(record.contract, record.rules)
        assert DealResult.from_dict(wire(result)) == result
        assert_round_trip(result, DealResult.from_dict)


def test_rules() -> None:
    for rules in (Rules(), Rules.parse(["auction=open", "void_redeal=same_dealer", "aggravations=bids", "first_lead=eldest",
                                        "stramazzo=off", "payment=plus", "match=target21"])):
        assert_round_trip(rules, Rules.from_dict)


def test_matches_and_their_deals() -> None:
    """A ledger read back is another ledger in the same state (a :class:`Match` compares by identity): the
    same fields and JSON, and it goes on as the first does."""
    results = [r.state().result(r.contract, r.rules) for r in read_deal_file(str(EXAMPLES / "played.deal"))[:2]]
    match = Match(players=4, rules=Rules(void_redeal="same_dealer"), dealer=3)
    for result in (results[0], None, results[1]):
        assert_round_trip(match.record(result), DealRecord.from_dict)  # a void deal's too
    back = Match.from_dict(wire(match))
    assert dumps(back.to_dict()) == dumps(wire(match)) and vars(back) == vars(match)
    while not match.is_over:  # to the session's end: the ledger read back goes on alike
        assert back.record(results[0]) == match.record(results[0])
    back = Match.from_dict(wire(match))
    assert vars(back) == vars(match) and back.winners == match.winners != ()


# -- the searches' -----------------------------------------------------------------------

def test_exchange_results(solver: Any) -> None:
    records = read_deal_file(str(EXCHANGES))
    for record in records:
        assert_round_trip(best_exchange(record, solver=solver, top=3), ExchangeResult.from_dict, skip=("hands", "monte", "stats"))
    # a chiamo's alternatives call cards from either defender and from the monte: the texts say where
    chiamo = best_exchange(records[1], solver=solver)
    calls = [next(cards_of(chiamo.hands[0])), next(cards_of(chiamo.hands[1])), next(cards_of(chiamo.monte))]
    found = dataclasses.replace(chiamo, alternatives=tuple((Exchange(call=c), 20) for c in calls))
    back = assert_round_trip(found, ExchangeResult.from_dict, skip=("hands", "monte", "stats"))
    texts = [back.text(ex) for ex, _ in back.alternatives]
    assert texts == [found.text(ex) for ex, _ in found.alternatives]
    assert [t.split(" from ")[1] for t in texts] == ["seat 0", "seat 1", "the monte"]


def test_best_known(solver: Any) -> None:
    """What a search proved of the best value; the JSON does not say who chooses (the caller gives it)."""
    for record in read_deal_file(str(EXCHANGES)):
        found = best_exchange(record, solver=solver)
        chooses = found.contract not in DEFENDER_EXCHANGE
        assert_round_trip(found.known, lambda d: BestKnown.from_dict(d, chooses))
        for draw in found.draws:
            assert_round_trip(draw.known, lambda d: BestKnown.from_dict(d, False))
    # an early answer's bounds, each side's words
    for known in (BestKnown(15, 35, True), BestKnown(20, 35, True), BestKnown(14, 20, False), BestKnown(12, 16, False)):
        assert_round_trip(known, lambda d: BestKnown.from_dict(d, known.soloist_chooses))


def test_solve_results(solver: Any) -> None:
    for record in read_deal_file(str(EXAMPLES / "example.deal")) + read_deal_file(str(EXCHANGES))[:3]:
        for objective in ("thirds", "payoff"):
            result = solve(record, solver=solver, objective=objective)
            assert result.line
            back = assert_round_trip(result, SolveResult.from_dict, skip=("hands", "monte", "stats"))  # the exchange's, as above
            assert (back.exchange is None) == (result.exchange is None)
    # a target search has no line: its last trick's bonus is not in the JSON
    result = solve(read_deal_file(str(EXAMPLES / "example.deal"))[0], solver=solver, target=18)
    assert_round_trip(result, SolveResult.from_dict, skip=("last_bonus",))


# -- the analyser's, the table's and the players' ------------------------------------------

def test_analyses(solver: Any) -> None:
    complete, solo, partial = read_deal_file(str(EXAMPLES / "played.deal"))
    for record, judge in ((complete, False), (solo, True)):
        review = analyse(record, solver=solver, exchange=judge)
        assert_round_trip(review, Analysis.from_dict)
        for card in review.reviews:
            assert_round_trip(card, CardReview.from_dict)
    assert review.exchange is not None
    assert_round_trip(review.exchange, ExchangeReview.from_dict)
    # a partly played deal: the JSON has its continuation's line only
    review = analyse(partial, solver=solver, exchange=False)
    assert review.continuation is not None
    back = assert_round_trip(review, Analysis.from_dict, skip=("continuation",))
    assert back.continuation is not None and back.continuation.line == review.continuation.line


@pytest.fixture(scope="module")
def table(solver: Any) -> Any:
    return dd_table(read_deal_file(str(EXAMPLES / "table.deal"))[0], solver=solver)


def test_tables(table: Any) -> None:
    # cpu rounded (the table's and its entries'); the entries' spans and the task log not in the JSON
    assert_round_trip(table, DDTable.from_dict, skip=("cpu", "span", "tasks"))


def test_table_entries_and_par(table: Any) -> None:
    assert {len(e.outcomes) for e in table.entries} == {1, 6}  # dividete's six draws
    for entry in table.entries:
        assert_round_trip(entry, TableEntry.from_dict, skip=("cpu", "span"))  # cpu rounded; span not in the JSON
        for outcome in entry.outcomes:
            assert_round_trip(outcome, lambda d: TableOutcome.from_dict(d, entry.contract, entry.soloist))
    assert_round_trip(table.par, Par.from_dict)
    assert_round_trip(table.par.auction, AuctionResult.from_dict)


def test_par_of_thirds_is_exact() -> None:
    from fractions import Fraction

    from calasolve.game.auction import run_auction

    found = Par(run_auction("pass solo pass"), (Fraction(-8, 3), Fraction(16, 3), Fraction(-8, 3)))
    assert Par.from_dict(wire(found)) == found


def test_played_results() -> None:
    records = read_deal_file(str(EXAMPLES / "example.deal"))[:3] + read_deal_file(str(EXCHANGES))[:1]
    opts = {"tt_mb": 16, "players": ("heuristic", "heuristic", "dd"), "samples": 1, "seed": 3}
    for record in records:
        result = _play_one((record, opts))
        assert isinstance(result, PlayedResult)
        assert_round_trip(result, lambda d: PlayedResult.from_dict(d, record))


def test_pimc_continuations(solver: Any) -> None:
    record = read_deal_file(str(EXAMPLES / "played.deal"))[2]
    to_end = continue_with_pimc(record, samples=2, seed=1, solver=solver)
    assert to_end.over and to_end.result is not None and to_end.double_dummy is not None
    assert_round_trip(to_end, PimcContinuation.from_dict)
    assert_round_trip(to_end.double_dummy, DoubleDummyLine.from_dict)
    some = continue_with_pimc(record, samples=2, seed=1, cards=2, solver=solver, double_dummy=False)
    assert not some.over and some.result is None and some.double_dummy is None
    assert_round_trip(some, PimcContinuation.from_dict)


# -- the advisor's ---------------------------------------------------------------------------

def test_advice() -> None:
    from calasolve.game.cards import parse_hand
    from calasolve.game.rules import Rules

    # every setting the JSON carries away from its default, so that one from_dict forgets shows
    advice = advise("32AR.32A.3A.2A5", seat=1, samples=3, seed=5, jobs=1, contracts=["solissimo", "solo"],
                    policy="dd", defender_policy="heuristic", known={"monte": parse_hand("-.-.-.3")},
                    rules=Rules(stramazzo="off"), candidates=3, redeals=2, precision=0.1, fixed=True)
    back = assert_round_trip(advice, Advice.from_dict, skip=("race",))
    assert back.estimates == tuple(sorted(back.estimates, key=lambda e: ("solo", "solissimo").index(e.contract)))
    for estimate in advice.estimates:
        assert_round_trip(estimate, ContractEstimate.from_dict)


def test_play_advice() -> None:
    from calasolve.advice.playadvice import advise_play
    from calasolve.game.cards import parse_hand
    from calasolve.game.rules import Rules
    from calasolve.types.playout import Gap, PlayAdvice, PlayEstimate, SideEstimate

    # every setting the JSON carries away from its default; the deals themselves stay out of the JSON
    play = advise_play("32AR.32A.3A.2A5", seat=2, seed=3, jobs=1, contracts=["solo", "chiamo"], play_samples=2,
                       pimc_samples=1, dd=True, players="contract", policy="dd", defender_policy="heuristic",
                       known={1: parse_hand("-.-.-.3")}, rules=Rules(stramazzo="off"), candidates=3, redeals=2)
    back = assert_round_trip(play, PlayAdvice.from_dict, skip=("samples",))
    assert [e.contract for e in back.estimates] == ["chiamo", "solo"]
    for estimate in play.estimates:
        assert_round_trip(estimate, PlayEstimate.from_dict, skip=("samples",))
        assert estimate.dd is not None and estimate.gap is not None
        assert_round_trip(estimate.pimc, SideEstimate.from_dict)
        assert_round_trip(estimate.dd, SideEstimate.from_dict)
        assert_round_trip(estimate.gap, Gap.from_dict)


def test_arena_results() -> None:
    from calasolve.env.arena import arena, random_deals, summarise
    from calasolve.types.arena import ArenaResult

    deals = list(arena(random_deals(3, 7), ("heuristic", "random"), seed=7))
    result = summarise(("heuristic", "random"), deals, seed=7, seconds=1.25)
    assert {g.contract is None for d in deals for g in d.games} == {True, False}  # void deals' None fields too
    assert_round_trip(result, ArenaResult.from_dict)
