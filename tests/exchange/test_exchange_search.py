"""The double-dummy exchange search (calasolve/exchange/search.py) against brute force.

Small constructed deals (short hands, a monte of 4) are solved by trying
every exchange the rules allow, with the reference solver or the C solver's
exact value, written here independently of the search.  Full deals are in
the slow tests: the best exchange's value equals a plain solve of the record
with that exchange given, and a sample of other exchanges never beats it.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any, Iterator

import pytest

import calasolve
from calasolve.game.cards import RANK_THIRDS, cards_of, mask_of, mask_thirds, parse_card, parse_hand
from calasolve.cli import main
from calasolve.records.dealfile import parse_deal_text
from calasolve.game.exchange import Exchange, apply_exchange
from calasolve.types.exchange import SearchStats
from calasolve.exchange.search import SearchLimits, best_exchange, search_exchange, solve_with_exchange
from calasolve.exchange.candidates import dividete_draws
from calasolve.game.notation import exchange_text
from calasolve.game.state import defender_seats
from calasolve.search.reference import ReferenceSolver, clear_cache
from calasolve.search.engines import CoreSolver, make_solver
from calasolve.search.suites import random_suite, strong_suite
from calasolve.types.record import Record
from calasolve.exchange.solve import solve
from calasolve.game.errors import ParameterError

H = parse_hand
C = parse_card


# -- brute force, independent of the search ----------------------------------------

def final_position(hands, monte, contract, soloist, ex: Exchange):  # type: ignore[no-untyped-def]
    """Hands and the new monte after a complete exchange, by docs/rules.md §5, for any hand size."""
    h = list(hands)
    if contract in ("solo", "chiamo"):
        h[soloist] |= monte
        if ex.call is not None:
            holder = next((s for s in range(3) if hands[s] >> ex.call & 1), None)
            h[soloist] |= 1 << ex.call
            if holder is not None:
                h[holder] = h[holder] & ~(1 << ex.call) | 1 << ex.returned
                h[soloist] &= ~(1 << ex.returned)
    else:
        for s in range(3):
            h[s] |= ex.takes[s]
    for s in range(3):
        h[s] &= ~ex.discards[s]
    return (h[0], h[1], h[2]), ex.discards[0] | ex.discards[1] | ex.discards[2]


def one_seat(seat: int, mask: int) -> tuple[int, int, int]:
    out = [0, 0, 0]
    out[seat] = mask
    return out[0], out[1], out[2]


def all_exchanges(hands, monte, contract, soloist) -> Iterator[Exchange]:  # type: ignore[no-untyped-def]
    """Every complete exchange of ``contract`` (dividete: every draw too)."""
    if contract == "solo":
        for d in combinations(cards_of(hands[soloist] | monte), 4):
            yield Exchange(discards=one_seat(soloist, mask_of(d)))
        return
    if contract == "chiamo":
        for call in cards_of(~hands[soloist] & (hands[0] | hands[1] | hands[2] | monte)):
            pool = hands[soloist] | monte | 1 << call
            in_monte = bool(monte >> call & 1)
            for ret in [None] if in_monte else [r for r in cards_of(pool) if r != call]:
                rest = pool if ret is None else pool & ~(1 << ret)
                for d in combinations(cards_of(rest), 4):
                    yield Exchange(call=call, returned=ret, discards=one_seat(soloist, mask_of(d)))
        return
    d1, d2 = defender_seats(soloist)
    if contract == "dividete":
        splits = [mask_of(p) for p in combinations(cards_of(monte), 2)]
    else:
        splits = [mask_of(p) for n in range(5) for p in combinations(cards_of(monte), n)]
    for first in splits:
        takes = [0, 0, 0]
        takes[d1], takes[d2] = first, monte & ~first
        for a in combinations(cards_of(hands[d1] | takes[d1]), bin(takes[d1]).count("1")):
            for b in combinations(cards_of(hands[d2] | takes[d2]), bin(takes[d2]).count("1")):
                disc = [0, 0, 0]
                disc[d1], disc[d2] = mask_of(a), mask_of(b)
                yield Exchange(takes=(takes[0], takes[1], takes[2]), discards=(disc[0], disc[1], disc[2]))


def exchange_value(value_fn, hands, monte, contract, soloist, leader, ex):  # type: ignore[no-untyped-def]
    new, new_monte = final_position(hands, monte, contract, soloist, ex)
    return value_fn(new, (), leader, soloist, 3 + mask_thirds(new_monte))


def signature(hands, monte, contract, soloist, ex):  # type: ignore[no-untyped-def]
    """Positions equal up to isomorphism: per suit, the cards in play high to low as
    (owner relative to the soloist, thirds), suits sorted, and the last bonus."""
    new, new_monte = final_position(hands, monte, contract, soloist, ex)
    suits = []
    for suit in range(4):
        seq = []
        for card in range(suit * 10 + 9, suit * 10 - 1, -1):
            for seat in range(3):
                if new[seat] >> card & 1:
                    seq.append(((seat - soloist) % 3, RANK_THIRDS[card % 10]))
        suits.append(tuple(seq))
    return tuple(sorted(suits)), mask_thirds(new_monte)


def random_small_deal(rng: random.Random, n: int) -> tuple[tuple[int, int, int], int]:
    cards = rng.sample(range(40), 3 * n + 4)
    return (mask_of(cards[:n]), mask_of(cards[n : 2 * n]), mask_of(cards[2 * n : 3 * n])), mask_of(cards[3 * n :])


def check_against_brute_force(value_fn, solver, hands, monte, contract, soloist, leader, top, **options):  # type: ignore[no-untyped-def]
    res = search_exchange(hands, monte, contract, soloist, leader, solver=solver, limits=SearchLimits(top=top, **options))
    everything = list(all_exchanges(hands, monte, contract, soloist))
    values = {
        i: exchange_value(value_fn, hands, monte, contract, soloist, leader, ex) for i, ex in enumerate(everything)
    }
    if contract == "dividete":
        for draw in res.draws:
            mine = [v for i, v in values.items() if everything[i].takes == draw.takes]
            assert draw.value == min(mine)
            assert exchange_value(value_fn, hands, monte, contract, soloist, leader, draw.exchange) == draw.value
            assert draw.exchange.takes == draw.takes
        assert [d.takes for d in res.draws] == dividete_draws(monte, soloist)
        assert res.mean == pytest.approx(sum(d.value for d in res.draws) / 6)
        assert res.value == min(d.value for d in res.draws)
        return res
    best = (max if contract in ("solo", "chiamo") else min)(values.values())
    assert res.value == best
    assert exchange_value(value_fn, hands, monte, contract, soloist, leader, res.exchange) == best
    # the alternatives: right values, best first, pairwise different positions, and
    # every exchange strictly better than the last one shown is one of them
    alts = res.alternatives
    assert alts[0] == (res.exchange, res.value)
    shown = [exchange_value(value_fn, hands, monte, contract, soloist, leader, ex) for ex, _ in alts]
    assert shown == [v for _, v in alts]
    sigs = [signature(hands, monte, contract, soloist, ex) for ex, _ in alts]
    assert len(set(sigs)) == len(sigs)
    if contract in ("solo", "chiamo"):
        assert shown == sorted(shown, reverse=True)
        classes = {signature(hands, monte, contract, soloist, ex) for ex in everything}
        assert len(alts) == min(top, len(classes))
        for i, ex in enumerate(everything):
            if values[i] > shown[-1]:
                assert signature(hands, monte, contract, soloist, ex) in sigs
    return res


# -- small deals against brute force ------------------------------------------------------


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_small_deals_match_the_reference_solver(contract: str) -> None:
    rng = random.Random(sum(map(ord, contract)) + 11)
    reference = ReferenceSolver()
    for _ in range(4 if contract != "chiamo" else 2):
        n = 3 if contract != "scegliete" else 2
        hands, monte = random_small_deal(rng, n)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        clear_cache()
        check_against_brute_force(
            reference.value, reference, hands, monte, contract, soloist, leader, top=rng.choice((1, 3, 10))
        )


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_small_deals_match_exact_values_of_the_c_solver(contract: str, solver: CoreSolver) -> None:
    rng = random.Random(sum(map(ord, contract)) + 5)
    for _ in range(3):
        n = 4 if contract in ("solo", "dividete") else 3
        hands, monte = random_small_deal(rng, n)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        check_against_brute_force(
            solver.value, solver, hands, monte, contract, soloist, leader, top=rng.choice((1, 4, 12))
        )


@pytest.mark.parametrize("contract", ["solo", "chiamo"])
def test_every_top_n_matches_brute_force(contract: str, solver: CoreSolver) -> None:
    # many list lengths on the same deals: ties with the best, runners-up a few
    # thirds down, and lists longer than the number of distinct exchanges
    rng = random.Random(contract)
    for _ in range(3):
        hands, monte = random_small_deal(rng, 5 if contract == "solo" else 3)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        for top in (1, 2, 5, 17, 60, 1000):
            check_against_brute_force(solver.value, solver, hands, monte, contract, soloist, leader, top=top)


@pytest.mark.parametrize("maximise", [True, False])
def test_the_top_n_search_both_ways(maximise: bool, solver: CoreSolver) -> None:
    # the list search itself, for the side that maximises and the side that minimises
    from calasolve.exchange import candidates as ec
    from calasolve.exchange import search as es

    rng = random.Random(int(maximise))
    for _ in range(4):
        hands, monte = random_small_deal(rng, 3)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        splits = ec.scegliete_splits(monte, soloist)
        cands = ec.enumerate_candidates(ec.defender_layouts(hands, monte, soloist, splits), soloist).candidates()
        for c in cands:
            c.estimate = rng.random()
        exact = sorted((solver.value(c.hands, (), leader, soloist, c.last_bonus) for c in cands), reverse=maximise)
        for top in (1, 3, 8, 40, 10_000):
            got = es.best_candidates(solver, cands, leader, soloist, maximise=maximise, stats=SearchStats(),
                                     limits=SearchLimits(top=top))
            assert [v for v, _, _ in got] == exact[:top]
            for v, _, c in got:
                assert solver.value(c.hands, (), leader, soloist, c.last_bonus) == v


@pytest.mark.parametrize("maximise", [True, False])
def test_the_c_list_search_and_its_python_twin_agree(maximise: bool, solver: CoreSolver) -> None:
    # Solver.best_of (cs_best_of) and ReferenceSolver.best_of on the same batches in the
    # same order: the `top` best, best first, ties to the first met, index for index
    from calasolve.exchange import candidates as ec

    reference = ReferenceSolver()
    rng = random.Random(5 + int(maximise))
    for _ in range(4):
        hands, monte = random_small_deal(rng, 3)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        batch = ec.enumerate_candidates(
            ec.defender_layouts(hands, monte, soloist, ec.scegliete_splits(monte, soloist)), soloist
        )
        order = rng.sample(range(len(batch)), len(batch))
        hs, bonus = batch.hands[order].tolist(), batch.bonus[order].tolist()
        exact = [solver.value(h, (), leader, soloist, b) for h, b in zip(hs, bonus)]
        ranked = sorted(range(len(exact)), key=lambda i: (-exact[i] if maximise else exact[i], i))
        for top in (1, 3, 8, 40, 10_000):
            kept, values, _ = solver.best_of(hs, bonus, leader, soloist, maximise, top)
            assert kept == ranked[:top] and values == [exact[i] for i in kept]
            assert reference.best_of(hs, bonus, leader, soloist, maximise, top)[:2] == (kept, values)


@pytest.mark.parametrize("maximise", [True, False])
@pytest.mark.parametrize("reference", [False, True])
def test_a_candidate_tried_first_changes_no_value(maximise: bool, reference: bool, solver: CoreSolver) -> None:
    # `first` only reorders: the same values whatever it names (a candidate or not),
    # and a best candidate named first is the one reported (ties keep the first met)
    from calasolve.exchange import candidates as ec
    from calasolve.exchange import search as es

    value_solver = ReferenceSolver() if reference else solver
    rng = random.Random(7 + int(maximise) + 2 * int(reference))
    for _ in range(3):
        hands, monte = random_small_deal(rng, 3)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        splits = ec.scegliete_splits(monte, soloist)
        batch = ec.enumerate_candidates(ec.defender_layouts(hands, monte, soloist, splits), soloist)
        cands = batch.candidates()
        values = [solver.value(c.hands, (), leader, soloist, c.last_bonus) for c in cands]
        exact = sorted(values, reverse=maximise)
        best = [c for c, v in zip(cands, values) if v == exact[0]]
        for first in [c.hands for c in rng.sample(cands, 3)] + [best[-1].hands, (1, 2, 4)]:
            for top in (1, 4):
                got = es.best_candidates(
                    value_solver, batch, leader, soloist, maximise=maximise, stats=SearchStats(),
                    limits=SearchLimits(top=top, first=first)
                )
                assert [v for v, _, _ in got] == exact[:top]
            if first == best[-1].hands:
                assert got[0][2].hands == first


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_one_candidate_per_class_and_each_one_consistent(contract: str) -> None:
    # The enumeration itself (numpy products and deduplication) against brute force:
    # exactly one candidate per class of final positions, none lost, and each
    # candidate's hands and bonus are what its exchange gives.
    from calasolve.exchange import candidates as ec

    rng = random.Random(11)
    for _ in range(6):
        hands, monte = random_small_deal(rng, rng.choice((3, 4)))
        soloist = rng.randrange(3)
        if contract in ("solo", "chiamo"):
            layouts = ec.soloist_layouts(hands, monte, contract, soloist, Exchange())
            everything = list(all_exchanges(hands, monte, contract, soloist))
        else:
            splits = (
                ec.dividete_draws(monte, soloist)[:1]
                if contract == "dividete"
                else ec.scegliete_splits(monte, soloist)
            )
            layouts = ec.defender_layouts(hands, monte, soloist, splits)
            everything = [ex for ex in all_exchanges(hands, monte, contract, soloist) if ex.takes in splits]
        cands = ec.enumerate_candidates(layouts, soloist).candidates()
        sigs = [signature(hands, monte, contract, soloist, c.exchange()) for c in cands]
        assert len(set(sigs)) == len(sigs)
        assert set(sigs) == {signature(hands, monte, contract, soloist, ex) for ex in everything}
        for c in cands:
            new, new_monte = final_position(hands, monte, contract, soloist, c.exchange())
            assert c.hands == new and c.last_bonus == 3 + mask_thirds(new_monte)


def test_equivalent_discards_collapse(solver: CoreSolver) -> None:
    # After the monte seat 0 holds 7654 of Bastoni under its 2: discarding any of them gives the same position.
    hands = (H("765.-.-.-"), H("-.32.3.-"), H("-.-.A.32"))
    monte = H("24.-.-.AR")
    res = search_exchange(hands, monte, "solo", 0, 0, solver=solver, limits=SearchLimits(top=100))
    everything = list(all_exchanges(hands, monte, "solo", 0))
    classes = {signature(hands, monte, "solo", 0, ex) for ex in everything}
    assert res.candidates == len(classes) < len(everything)
    assert len(res.alternatives) == len(classes)


def test_partial_chiamo_searches_only_what_is_missing(solver: CoreSolver) -> None:
    rng = random.Random(3)
    for _ in range(5):
        hands, monte = random_small_deal(rng, 3)
        soloist = rng.randrange(3)
        holder = rng.choice(defender_seats(soloist))
        call = rng.choice(list(cards_of(hands[holder])))
        res = search_exchange(hands, monte, "chiamo", soloist, 0, given=Exchange(call=call), solver=solver,
                              limits=SearchLimits(top=3))
        assert res.exchange.call == call and res.exchange.returned is not None
        brute = max(
            exchange_value(solver.value, hands, monte, "chiamo", soloist, 0, ex)
            for ex in all_exchanges(hands, monte, "chiamo", soloist)
            if ex.call == call
        )
        assert res.value == brute
        # call and return given: only the discards
        ret = res.exchange.returned
        res2 = search_exchange(
            hands, monte, "chiamo", soloist, 0, given=Exchange(call=call, returned=ret), solver=solver
        )
        assert res2.value == res.value and res2.exchange.returned == ret
        # call and discards given: only the return
        disc = res.exchange.discards
        res3 = search_exchange(
            hands, monte, "chiamo", soloist, 0, given=Exchange(call=call, discards=disc), solver=solver
        )
        assert res3.value == res.value and res3.exchange.discards == disc
        assert res3.candidates <= popcount_(hands[soloist] | monte | 1 << call) - 4


def popcount_(m: int) -> int:
    return bin(m).count("1")


def test_partial_defender_exchanges(solver: CoreSolver) -> None:
    rng = random.Random(8)
    for contract in ("dividete", "scegliete"):
        hands, monte = random_small_deal(rng, 3)
        soloist = rng.randrange(3)
        d1, d2 = defender_seats(soloist)
        cards = list(cards_of(monte))
        takes = [0, 0, 0]
        takes[d1] = mask_of(cards[:2]) if contract == "dividete" else mask_of(cards[:3])
        takes[d2] = monte & ~takes[d1]
        given = Exchange(takes=(takes[0], takes[1], takes[2]))
        res = search_exchange(hands, monte, contract, soloist, soloist, given=given, solver=solver)
        assert res.exchange.takes == given.takes and not res.draws
        brute = min(
            exchange_value(solver.value, hands, monte, contract, soloist, soloist, ex)
            for ex in all_exchanges(hands, monte, contract, soloist)
            if ex.takes == given.takes
        )
        assert res.value == brute


# -- text, dict, records ----------------------------------------------------------------------

HANDS = (H("32AR.32AR.3A.54"), H("CF76.CF76.2R.A6"), H("54.54.CF765.RCF"))
MONTE = H("-.-.4.327")


def test_exchange_text_forms() -> None:
    ex = Exchange(call=C("AD"), returned=C("4D"), discards=(H("R.-.4.75"), 0, 0))
    assert exchange_text(ex, "chiamo", 0, HANDS, MONTE) == "call AD from seat 1, return 4D, discard RB 4C 7D 5D"
    ex = Exchange(call=C("3D"), discards=(H("R.-.4.75"), 0, 0))
    assert exchange_text(ex, "chiamo", 0, HANDS, MONTE) == "call 3D from the monte, discard RB 4C 7D 5D"
    assert exchange_text(Exchange(discards=(H("R.-.4.75"), 0, 0)), "solo", 0, HANDS, MONTE) == "discard RB 4C 7D 5D"
    ex = Exchange(takes=(0, MONTE, 0), discards=(0, H("CF.-.-.6"), 0))
    assert (
        exchange_text(ex, "scegliete", 0, HANDS, MONTE)
        == "seat 1 takes 4C 3D 2D 7D, discards CB FB 6D; seat 2 takes nothing"
    )


# A solo the soloist cannot lose a trick of: the search is quick on a whole deal.
EASY_SOLO = """\
name: easy solo
hands: 32AR.32AR.32A.3 CF76.CF76.RCF.C 54.54.7654.F654
monte: -.-.-.2AR7
contract: solo
soloist: 0
"""


def test_best_exchange_of_a_record_and_solve_with_it(solver: CoreSolver) -> None:
    [record] = parse_deal_text(EASY_SOLO)
    res = calasolve.best_exchange(record, solver=solver, top=3)
    assert res.contract == "solo" and res.searched and len(res.alternatives) == 3
    plain = solve(record.with_(exchange=res.exchange), solver=solver)
    assert plain.soloist_thirds == res.value
    full = solve_with_exchange(record, solver=solver, top=3)
    assert full.soloist_thirds == res.value
    d = full.to_dict()
    assert d["exchange"]["best"]["soloist_thirds"] == res.value
    assert d["exchange"]["best"]["text"].startswith("discard ")
    assert [a["text"] for a in d["exchange"]["alternatives"]][0] == d["exchange"]["best"]["text"]
    assert {"soloist_thirds", "cards", "line", "tricks", "nodes", "seconds"} <= d.keys()
    json.dumps(d)
    # a whole exchange given: nothing searched
    given = best_exchange(record.with_(exchange=res.exchange), solver=solver)
    assert not given.searched and given.value == res.value


def test_cli_solve_searches_the_exchange(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "d.deal"
    path.write_text(EASY_SOLO, encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["solve", "--top", "2", "--tt-mb", "16", str(path)])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert "best exchange (double dummy): discard" in out and "also: discard" in out
    with pytest.raises(SystemExit):
        main(["solve", "--json", "--top", "2", "--tt-mb", "16", str(path)])
    obj = json.loads(capsys.readouterr().out)
    assert (
        len(obj["exchange"]["alternatives"]) == 2 and obj["soloist_thirds"] == obj["exchange"]["best"]["soloist_thirds"]
    )


def test_result_to_dict_for_dividete(solver: CoreSolver) -> None:
    hands, monte = random_small_deal(random.Random(1), 3)
    res = search_exchange(hands, monte, "dividete", 0, 0, solver=solver)
    d = res.to_dict()
    assert len(d["draws"]) == 6 and d["mean"] == res.mean
    assert {"takes", "text", "soloist_thirds", "exchange"} <= d["draws"][0].keys()
    assert d["best"]["soloist_thirds"] == min(x["soloist_thirds"] for x in d["draws"])
    json.dumps(d)


# -- whole deals (slow) ---------------------------------------------------------------------------


def _strong_record(i: int, contract: str) -> Any:
    deal = strong_suite(i + 1)[i]
    return Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)


def _random_exchange(rng: random.Random, record: Any) -> Exchange:
    """A random complete exchange of a whole deal (dividete: a random draw)."""
    hands, monte, contract, soloist = record.hands, record.monte, record.contract, record.soloist
    if contract in ("solo", "chiamo"):
        call = ret = None
        pool = hands[soloist] | monte
        if contract == "chiamo":
            call = rng.choice(list(cards_of(~hands[soloist] & ((1 << 40) - 1))))
            pool |= 1 << call
            if not monte >> call & 1:
                ret = rng.choice([c for c in cards_of(pool) if c != call])
                pool &= ~(1 << ret)
        return Exchange(
            call=call, returned=ret, discards=one_seat(soloist, mask_of(rng.sample(list(cards_of(pool)), 4)))
        )
    d1, d2 = defender_seats(soloist)
    cards = list(cards_of(monte))
    n = 2 if contract == "dividete" else rng.randrange(5)
    first = mask_of(rng.sample(cards, n))
    takes = [0, 0, 0]
    takes[d1], takes[d2] = first, monte & ~first
    disc = [0, 0, 0]
    for s in (d1, d2):
        disc[s] = mask_of(rng.sample(list(cards_of(hands[s] | takes[s])), bin(takes[s]).count("1")))
    return Exchange(takes=(takes[0], takes[1], takes[2]), discards=(disc[0], disc[1], disc[2]))


@pytest.mark.slow
@pytest.mark.parametrize("contract, deal", [("solo", 7), ("dividete", 4), ("scegliete", 4), ("chiamo", 0)])
def test_whole_deal_best_is_a_plain_solve_and_unbeaten(contract: str, deal: int) -> None:
    solver = make_solver(64)
    rng = random.Random(contract)
    record = _strong_record(deal, contract)  # quick deals of the strong suite
    res = best_exchange(record, solver=solver, top=3)
    assert solve(record.with_(exchange=res.exchange), solver=solver).soloist_thirds == res.value
    for ex, v in res.alternatives:
        assert solve(record.with_(exchange=ex), solver=solver).soloist_thirds == v
    for _ in range(50):
        ex = _random_exchange(rng, record)
        v = solve(record.with_(exchange=ex), solver=solver, all_cards=False, line=False).soloist_thirds
        if contract in ("solo", "chiamo"):
            assert v <= res.value
        elif contract == "scegliete":
            assert v >= res.value
        else:
            draw = next(d for d in res.draws if d.takes == ex.takes)
            assert v >= draw.value
    apply_exchange(record.hands, record.monte, contract, record.soloist, res.exchange)  # legal


@pytest.mark.slow
def test_scegliete_is_at_most_the_worst_dividete_draw() -> None:
    # the 2-2 splits of scegliete include every dividete draw, so the defenders do at least as well
    solver = make_solver(64)
    div = best_exchange(_strong_record(4, "dividete"), solver=solver)
    sce = best_exchange(_strong_record(4, "scegliete"), solver=solver)
    assert sce.value <= min(d.value for d in div.draws) == div.value


# -- on several cores, and within a time limit -------------------------------------------


@pytest.fixture
def split_small_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    # every list goes to the workers, in many chunks, however short
    from calasolve.exchange import parallel as exchange_parallel

    monkeypatch.setattr(exchange_parallel, "PARALLEL_MIN", 0)
    monkeypatch.setattr(exchange_parallel, "CHUNKS_PER_JOB", 3)


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_small_deals_on_two_workers_match_brute_force(
    contract: str, solver: CoreSolver, split_small_lists: None
) -> None:
    rng = random.Random(sum(map(ord, contract)) + 23)
    for _ in range(2):
        n = 4 if contract in ("solo", "dividete") else 3
        hands, monte = random_small_deal(rng, n)
        soloist, leader = rng.randrange(3), rng.randrange(3)
        for top in (1, 4):
            check_against_brute_force(solver.value, solver, hands, monte, contract, soloist, leader, top=top, jobs=2)


def _same_search(one: Any, two: Any, solver: CoreSolver, leader: int) -> None:
    """The two-worker result has the one-process values, and its exchanges have them."""
    assert [v for _, v in two.alternatives] == [v for _, v in one.alternatives]
    assert [d.value for d in two.draws] == [d.value for d in one.draws] and two.mean == one.mean
    assert two.proven and two.bound == two.value == one.value
    for ex, v in two.alternatives + tuple((d.exchange, d.value) for d in two.draws):
        assert exchange_value(solver.value, one.hands, one.monte, one.contract, one.soloist, leader, ex) == v


def _deal_size_search(contract: str, seed: int, size: int, top: int, solver: CoreSolver, **options: Any) -> Any:
    rng = random.Random(seed)
    hands, monte = random_small_deal(rng, size)
    soloist, leader = rng.randrange(3), rng.randrange(3)
    return search_exchange(hands, monte, contract, soloist, leader, solver=solver, limits=SearchLimits(top=top, **options)), leader


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete", "dividete split"])
def test_two_workers_give_the_one_process_values(
    contract: str, solver: CoreSolver, split_small_lists: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 7-card hands: lists of hundreds to thousands of candidates, split in 6 chunks
    # (dividete: the 6 draws whole, side by side; "dividete split": each draw in chunks)
    from calasolve.exchange import parallel as exchange_parallel

    if contract == "dividete split":
        contract = "dividete"
        monkeypatch.setattr(exchange_parallel, "WHOLE_LISTS", False)
    for seed in range(4):
        for top in (1, 10):
            one, leader = _deal_size_search(contract, 100 * seed + top, 7, top, solver)
            two, _ = _deal_size_search(contract, 100 * seed + top, 7, top, solver, jobs=2)
            _same_search(one, two, solver, leader)


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["strong", "random"])
@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
def test_two_workers_give_the_one_process_values_on_full_deals(contract: str, suite: str) -> None:
    # the first 10 deals of each benchmark suite, as `calasolve solve` searches them (top 10)
    solver = make_solver(32)
    for deal in (strong_suite if suite == "strong" else random_suite)(10):
        record = Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)
        one = best_exchange(record, solver=solver)
        two = best_exchange(record, solver=solver, jobs=2)
        _same_search(one, two, solver, record.first_leader)


@pytest.mark.parametrize("contract", ["solo", "chiamo", "dividete", "scegliete"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_time_limit_gives_a_legal_exchange_within_its_proven_bound(
    contract: str, jobs: int, solver: CoreSolver, split_small_lists: None
) -> None:
    # a limit long past: only the first candidate(s) valued, marked not proven; the exact
    # best lies between the value found and the bound; a large limit: the exact search
    for seed in range(3):
        exact, leader = _deal_size_search(contract, seed, 7, 3, solver)
        cut, _ = _deal_size_search(contract, seed, 7, 3, solver, jobs=jobs, time_limit=1e-9)
        assert not cut.proven
        for ex, v in cut.alternatives + tuple((d.exchange, d.value) for d in cut.draws):
            assert exchange_value(solver.value, exact.hands, exact.monte, contract, exact.soloist, leader, ex) == v
        if contract in ("solo", "chiamo"):
            assert cut.value <= exact.value <= cut.bound
        else:
            assert cut.bound <= exact.value <= cut.value
        for d, e in zip(cut.draws, exact.draws):
            assert d.bound <= e.value <= d.value
            assert d.known.at_least <= e.value <= d.known.at_most and d.known.makes in (None, e.value >= 18)
        # what is proven in a player's terms holds of the exact best, and never claims a make or fail it has not
        assert cut.known.at_least <= exact.value <= cut.known.at_most
        assert cut.known.makes in (None, exact.value >= 18)
        assert exact.known.at_least == exact.known.at_most == exact.value
        full, _ = _deal_size_search(contract, seed, 7, 3, solver, jobs=jobs, time_limit=3600)
        _same_search(exact, full, solver, leader)


@pytest.mark.parametrize("key", ["random solo 0", "strong scegliete 0", "random scegliete 2", "strong dividete 3",
                                 "random dividete 81"])
def test_the_benchmarks_known_exact_values_are_the_searchs(key: str, solver: CoreSolver) -> None:
    # benchmarks/report_early.py measures early answers against these: they must be what the exact search says
    known = json.loads((Path(__file__).parents[2] / "benchmarks" / "data" / "early_exact.json").read_text())
    suite, contract, i = key.split()
    deal = (random_suite if suite == "random" else strong_suite)(int(i) + 1)[int(i)]
    found = best_exchange(Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist),
                          solver=solver, top=1)
    assert known["values"][key] == ([d.value for d in found.draws] if found.draws else [found.value])


@pytest.mark.parametrize("contract, worker_parts", [("solo", 1), ("chiamo", 1), ("scegliete", 1), ("dividete", 6)])
def test_against_the_clock_this_process_searches_its_own_share(
    contract: str, worker_parts: int, solver: CoreSolver
) -> None:
    # with two processes and a limit, the worker gets one half of a list dealt to both (three of
    # dividete's six draws: their first candidates, then their rests) and this process searches the
    # other: none of its share waits, queued to the worker, until the deadline has passed
    deal = random_suite(1)[0]
    record = Record(hands=deal.hands, monte=deal.monte, contract=contract, soloist=deal.soloist)
    res = best_exchange(record, solver=solver, jobs=2, time_limit=0.3)
    assert res.stats is not None
    assert len(res.stats.cpu_chunks) == worker_parts
    assert res.stats.cpu_here > 0


@pytest.mark.parametrize("bad", [0, -1, 0.0, float("nan"), float("inf"), True, "1"])
def test_a_bad_time_limit_is_a_parameter_error(bad: Any) -> None:
    from calasolve.types.record import Record
    from calasolve.search.suites import strong_suite

    deal = strong_suite(1)[0]
    record = Record(hands=deal.hands, monte=deal.monte, contract="chiamo", soloist=deal.soloist)
    with pytest.raises(ParameterError, match="time_limit"):
        best_exchange(record, time_limit=bad)
    with pytest.raises(ParameterError, match="time_limit"):
        calasolve.solve(record, time_limit=bad)


def test_cli_solve_with_a_time_limit_marks_the_exchange_not_proven(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a chiamo of the strong suite, cut long before its search ends: the text says so, the
    # JSON has proven false and the bound.  Run as a user runs it, in its own process: run
    # in this one (main(...)), its worker pool left a later test's child deaf to SIGINT
    # (tests/test_faults.py), a cause not yet found.
    import subprocess
    import sys

    from calasolve.types.record import Record, format_record
    from calasolve.search.suites import strong_suite

    deal = strong_suite(1)[0]
    path = tmp_path / "c.deal"
    path.write_text(format_record(Record(hands=deal.hands, monte=deal.monte, contract="chiamo", soloist=deal.soloist)),
                    encoding="utf-8")

    def run(*argv: str) -> str:
        done = subprocess.run([sys.executable, "-m", "calasolve", "solve", *argv, str(path)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    out = run("--time-limit", "0.000001", "--top", "1")
    assert "best exchange found within the time limit (double dummy): call" in out
    assert "not proven: the time limit cut the search; this is the best found so far: at least" in out
    obj = json.loads(run("--json", "--time-limit", "0.000001", "--top", "1", "--jobs", "2"))
    ex = obj["exchange"]
    assert ex["proven"] is False and ex["best"]["soloist_thirds"] <= 30 <= ex["bound"]  # 30: the exact best
    # what is proven, in a player's terms: the value found is a floor; a bound of 35 says nothing and is not printed
    known = ex["known"]
    assert (known["at_least"], known["at_most"]) == (ex["best"]["soloist_thirds"], ex["bound"])
    assert known["makes"] is (True if known["at_least"] >= 18 else None)
    if ex["bound"] - known["at_least"] > 3:
        assert f"at most {ex['bound']}" not in known["text"], known
    assert obj["soloist_thirds"] == ex["best"]["soloist_thirds"]


def test_the_early_order_gives_every_layout_and_spread_a_first_look() -> None:
    # against the clock: a permutation of the candidates in which no layout's second candidate comes
    # before every layout's first, and every spread's best discards come early
    import numpy as np
    from calasolve.exchange.candidates import early_candidates, enumerate_candidates, order_candidates, soloist_layouts
    from calasolve.search.suites import random_suite

    deal = random_suite(1)[0]
    batch = enumerate_candidates(soloist_layouts(tuple(deal.hands), deal.monte, "chiamo", deal.soloist, Exchange()),
                                 deal.soloist)
    order = order_candidates(batch, True, None)
    early = early_candidates(batch, order)
    assert sorted(early.tolist()) == list(range(len(batch)))
    layouts = len(batch.layouts)
    first_seen = np.unique(batch.layout[early[: 2 * layouts]])
    assert len(first_seen) == layouts  # the layouts' rounds hold every other place
    assert early[0] == order[0]  # the most promising stays first
    # within a layout and a spread, the estimate's order is kept
    import dataclasses
    from calasolve.exchange.candidates import groups_of_spreads

    group = groups_of_spreads(batch)
    # the enumeration's numbers (one per block) group the candidates as their discards do
    counted = groups_of_spreads(dataclasses.replace(batch, spread=None))
    assert len(np.unique(group)) == len(np.unique(counted)) == np.unique(np.stack([group, counted]), axis=1).shape[1]
    pos = np.empty(len(early), dtype=np.int64)
    pos[early] = np.arange(len(early))
    est_pos = np.empty(len(order), dtype=np.int64)
    est_pos[order] = np.arange(len(order))
    for g in np.unique(group)[:50]:
        members = np.nonzero(group == g)[0]
        assert list(members[np.argsort(pos[members])]) == list(members[np.argsort(est_pos[members])])
