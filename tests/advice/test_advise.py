"""The bid advisor: reproducibility, uniform sampling, extreme hands, policies that don't peek."""

from __future__ import annotations

import numpy as np
import pytest
from steady import steady

from calasolve.advice.advisor import advise
from calasolve.advice.checks import parse_advice_hand
from calasolve.game.cards import MAKE_THIRDS, cards_of, parse_hand, popcount
from calasolve.game.errors import CalasolveError
from calasolve.game.exchange import apply_exchange
from calasolve.advice.policies import best_suit_call, sampled_soloist_exchange
from calasolve.game.state import first_leader
from calasolve.game.rules import Rules
from calasolve.game.sampling import MONTE, deal_rest, parse_known, rng_for
from calasolve.search.engines import make_solver

STRONG = "32AR.32A.3A.2A5"


@pytest.fixture(scope="module")
def solver():  # type: ignore[no-untyped-def]
    return make_solver(16)


def test_scegliete_alone_or_after_dividete_gives_the_same_answer() -> None:
    # after dividete, a sample's scegliete tries the defenders' refuting dividete
    # exchange first (a speed-up only): the estimates must not move
    from calasolve.advice import samples

    kwargs = dict(seat=0, samples=8, seed=9, jobs=1, defender_policy="dd", fixed=True)
    firsts: list[bool] = []
    plain = samples.defence_candidates

    def spy(*args, **kw):  # type: ignore[no-untyped-def]
        if args[2] == "scegliete":
            firsts.append(kw.get("first") is not None)
        return plain(*args, **kw)

    samples.defence_candidates = spy  # type: ignore[assignment]
    try:
        both = advise(STRONG, play="dd", contracts=["dividete", "scegliete"], **kwargs).to_dict()  # type: ignore[arg-type]
        hinted = list(firsts)
        firsts.clear()
        alone = advise(STRONG, play="dd", contracts=["scegliete"], **kwargs).to_dict()  # type: ignore[arg-type]
    finally:
        samples.defence_candidates = plain  # type: ignore[assignment]
    assert any(hinted) and not any(firsts)
    scegliete = [c for c in both["contracts"] if c["contract"] == "scegliete"][0]
    scegliete.pop("seconds")
    alone["contracts"][0].pop("seconds")
    assert scegliete == alone["contracts"][0]


def test_same_seed_same_answer_for_any_jobs() -> None:
    # every contract, so the sampled policy's re-deals and the goal searches are covered too
    kwargs = dict(seat=1, samples=8, seed=42, contracts=["chiamo", "solo", "solissimo", "dividete", "scegliete"])
    one = advise(STRONG, play="dd", jobs=1, **kwargs).to_dict()  # type: ignore[arg-type]
    two = advise(STRONG, play="dd", jobs=2, **kwargs).to_dict()  # type: ignore[arg-type]
    assert steady(one) == steady(two)
    other = advise(STRONG, play="dd", jobs=1, **{**kwargs, "seed": 43}).to_dict()  # type: ignore[arg-type]
    assert [c["mean_thirds"] for c in other["contracts"]] != [c["mean_thirds"] for c in one["contracts"]]


def test_sampling_is_uniform_chi_square() -> None:
    hand = parse_advice_hand(STRONG)
    unseen = [c for c in range(40) if not hand >> c & 1]
    counts = {c: np.zeros(3) for c in unseen}  # seat 1, seat 2, monte
    n = 2000
    for i in range(n):
        hands, monte = deal_rest(hand, 0, rng_for(7, i))
        assert hands[0] == hand and popcount(hands[1]) == popcount(hands[2]) == 12 and popcount(monte) == 4
        for c in unseen:
            where = 0 if hands[1] >> c & 1 else 1 if hands[2] >> c & 1 else 2
            counts[c][where] += 1
    expected = np.array([12, 12, 4]) / 28 * n
    chi2 = sum(float(((counts[c] - expected) ** 2 / expected).sum()) for c in unseen)
    # 28 cards x 2 free cells = 56 degrees of freedom (the cards are not independent,
    # but each card's margins are exact multinomials); the 99.9% point of chi2(56) is 97.0
    assert chi2 < 97.0, chi2


def test_known_cards_stay_put() -> None:
    hand = parse_advice_hand(STRONG)
    known = parse_known(["1=7S 6S", "monte=4D"])
    for i in range(50):
        hands, monte = deal_rest(hand, 0, rng_for(3, i), known)
        assert hands[1] & known[1] == known[1] and monte & known[MONTE] == known[MONTE]


def test_known_card_errors() -> None:
    with pytest.raises(CalasolveError, match="placed twice"):
        advise(STRONG, play="dd", samples=1, known=parse_known(["1=7S", "2=7S"]))
    with pytest.raises(CalasolveError, match="not a seat"):
        parse_known(["4=7S"])
    with pytest.raises(CalasolveError, match=r"^known cards '1=xx': card 'xx'"):
        parse_known(["1=xx"])
    with pytest.raises(CalasolveError, match=r"^known cards '1=4B,4B': .*twice"):
        parse_known(["1=4B,4B"])
    with pytest.raises(CalasolveError, match="13 cards placed in seat 1, which holds 12"):
        advise("32AR.3A7.2AF.A5", play="dd", samples=1, known=parse_known(["1=CF7654.2RCF654.-.-"]))
    with pytest.raises(CalasolveError, match="has 11 cards"):
        advise("32AR.32A.3A.2A", play="dd", samples=1)


def test_unbeatable_and_hopeless_hands() -> None:
    sure = advise("32A.32A.32A.32A", play="dd", samples=30, seed=5, jobs=1, contracts=["solissimo"])
    est = sure.estimates[0]
    assert est.p_make == 1.0 and est.mean_thirds == 35 and est.multipliers == {2: 1.0}
    assert sure.recommendation == "solissimo"
    hopeless = advise("7654.7654.765.7", play="dd", samples=4, seed=5, jobs=1, contracts=["solissimo"])
    assert hopeless.estimates[0].p_make == 0.0
    assert hopeless.recommendation == "pass" and "no contract" in hopeless.reason


def test_solissimo_agrees_with_a_direct_loop(solver) -> None:  # type: ignore[no-untyped-def]
    hand = parse_advice_hand(STRONG)
    seat, n, seed = 2, 25, 11
    got = advise(hand, play="dd", seat=seat, samples=n, seed=seed, jobs=1, contracts=["solissimo"], fixed=True).estimates[0]
    makes = 0
    for i in range(n):
        hands, monte = deal_rest(hand, seat, rng_for(seed, i))
        bonus = 3 + sum((0, 0, 0, 0, 1, 1, 1, 3, 1, 1)[c % 10] for c in cards_of(monte))
        v = solver.value(hands, (), first_leader("solissimo", seat), seat, bonus)
        makes += v >= MAKE_THIRDS
    assert got.makes == makes and got.samples == n


def test_sampled_policy_never_reads_the_hidden_cards(solver) -> None:  # type: ignore[no-untyped-def]
    hand = parse_advice_hand(STRONG)
    for i in range(6):
        hands, monte = deal_rest(hand, 0, rng_for(21, i))
        # the same knowledge for the soloist, the defenders' cards swapped about
        d1, d2 = list(cards_of(hands[1])), list(cards_of(hands[2]))
        swapped = [hands[0], 0, 0]
        for a, b in zip(d1, d2):
            swapped[1] |= 1 << b
            swapped[2] |= 1 << a
        for contract in ("solo", "chiamo"):
            call = best_suit_call(hand)
            if contract == "chiamo":
                # chiamo reveals who holds the called card: keep that holder fixed
                holder = 1 if hands[1] >> call & 1 else 2 if hands[2] >> call & 1 else None
                if holder is not None and not swapped[holder] >> call & 1:
                    continue
            a = sampled_soloist_exchange(hands, monte, contract, 0, Rules(), solver, rng_for(9, i))
            b = sampled_soloist_exchange(tuple(swapped), monte, contract, 0, Rules(), solver, rng_for(9, i))
            assert a == b
            # and it is a legal exchange
            new_hands, new_monte = apply_exchange(hands, monte, contract, 0, a)
            assert [popcount(h) for h in new_hands] == [12, 12, 12] and popcount(new_monte) == 4


def test_the_soloist_policies_behind_one_interface(solver) -> None:  # type: ignore[no-untyped-def]
    # soloist_policy(name).exchange(...): sampled as sampled_soloist_exchange, dd as the exact search
    from calasolve.exchange.search import SearchLimits, search_exchange
    from calasolve.advice.policies import DoubleDummy, Sampled, soloist_policy

    assert soloist_policy("dd") == DoubleDummy() and soloist_policy("sampled", candidates=3) == Sampled(3, 4)
    hand = parse_advice_hand(STRONG)
    for i, contract in enumerate(("solo", "chiamo")):
        hands, monte = deal_rest(hand, 0, rng_for(23, i))
        ex, known = Sampled(2, 3).exchange(hands, monte, contract, 0, Rules(), solver, rng_for(5, i))
        assert known is None
        assert ex == sampled_soloist_exchange(hands, monte, contract, 0, Rules(), solver, rng_for(5, i),
                                              candidates=2, redeals=3)
        ex, known = DoubleDummy().exchange(hands, monte, contract, 0, Rules(), solver, rng_for(5, i))
        found = search_exchange(hands, monte, contract, 0, first_leader(contract, 0, Rules()), solver=solver,
                                limits=SearchLimits(top=1))
        assert (ex, known) == (found.exchange, found.value)


def test_bad_policy_and_contract() -> None:
    with pytest.raises(CalasolveError, match="policy"):
        advise(STRONG, play="dd", samples=1, policy="magic")
    with pytest.raises(CalasolveError, match="unknown contract"):
        advise(STRONG, play="dd", samples=1, contracts=["grand"])


def test_json_shape() -> None:
    d = advise(parse_hand("32A.32A.32A.32A"), play="dd", samples=3, jobs=1, contracts=["solissimo"]).to_dict()
    c = d["contracts"][0]
    for key in ("contract", "samples", "p_make", "p_make_95", "mean_thirds", "se_thirds", "expected_points", "se_points",
                "multipliers", "policy"):
        assert key in c
    assert d["recommendation"] == "solissimo"
    assert d["policy_notes"] == {
        "soloist": "the soloist chooses with what they know",
        "defenders": "the defenders see every card: conservative for the soloist",
    }


def test_the_dd_soloist_policy_is_labelled_an_upper_bound() -> None:
    from calasolve.cli.text import format_advice

    advice = advise(parse_hand("32A.32A.32A.32A"), play="dd", samples=1, jobs=1, contracts=["solissimo"], policy="dd")
    assert "soloist dd (the soloist sees every card: an optimistic upper bound)" in "\n".join(format_advice(advice, explain=True))
    assert advice.to_dict()["policy_notes"]["soloist"].endswith("an optimistic upper bound")


def test_the_package_exports_advise_as_a_function() -> None:
    import calasolve
    import calasolve.advice.advisor  # noqa: F401  (a submodule import must not shadow the function)

    assert calasolve.advise is advise


def _plain_discard_candidates(mine: int, n: int, count: int, forbidden: int = 0) -> list[int]:
    """The static estimate written out plainly: every set scored one by one."""
    from itertools import combinations

    from calasolve.advice.policies import keep_score
    from calasolve.game.cards import SUIT_MASKS, mask_of

    cards = [c for c in cards_of(mine) if not forbidden >> c & 1]
    scored = []
    for combo in combinations(cards, n):
        gone = mask_of(combo)
        left = mine & ~gone
        voids = sum(1 for s in range(4) if mine & SUIT_MASKS[s] and not left & SUIT_MASKS[s])
        scored.append((sum(keep_score(c, mine) for c in combo) - 3 * voids, gone))
    scored.sort()
    return [g for _, g in scored[:count]]


def test_discard_candidates_match_the_plain_estimate() -> None:
    import random

    from calasolve.advice.policies import discard_candidates
    from calasolve.game.cards import mask_of

    rng = random.Random(4)
    for i in range(60):
        deck = list(range(40))
        rng.shuffle(deck)
        n = 4 + i % 2  # solo: 4 of 16; chiamo with a return: 5 of 17, the called card kept
        mine = mask_of(deck[: 12 + n])
        forbidden = 1 << deck[0] if n == 5 else 0
        assert discard_candidates(mine, n, 6, forbidden=forbidden) == _plain_discard_candidates(mine, n, 6, forbidden)


def test_equivalent_exchanges_share_a_signature_and_their_results(solver) -> None:  # type: ignore[no-untyped-def]
    from calasolve.advice.policies import exchange_signature
    from calasolve.game.cards import FULL_DECK, mask_of, mask_thirds

    mine = parse_hand("32A76.32A.3A75.2A54")  # 16 cards: hand and monte of a solo
    unknown = FULL_DECK & ~mine
    # 7B and 6B are adjacent (no unknown card between them): throwing either is the same
    same_a, same_b = parse_hand("6.-.75.4"), parse_hand("7.-.75.4")
    assert exchange_signature(mine & ~same_a, None, same_a, unknown) == exchange_signature(mine & ~same_b, None, same_b, unknown)
    # keeping 5C rather than 5D is not: the unknown 6C lies above it, 6D above 5D
    other = parse_hand("6.-.7.54")
    assert exchange_signature(mine & ~same_a, None, same_a, unknown) != exchange_signature(mine & ~other, None, other, unknown)
    rng = np.random.default_rng(3)
    for _ in range(4):
        pool = rng.permutation(np.array(list(cards_of(unknown))))
        d1, d2 = mask_of(int(c) for c in pool[:12]), mask_of(int(c) for c in pool[12:])
        values = {
            solver.value((mine & ~gone, d1, d2), (), 0, 0, 3 + mask_thirds(gone)) for gone in (same_a, same_b)
        }
        assert len(values) == 1


def test_dd_defenders_make_test_agrees_with_the_exchange_search(solver) -> None:  # type: ignore[no-untyped-def]
    """The dd defence's make-test (any refuting exchange?) and its exact thirds agree
    with the exact exchange search of the same sample."""
    from calasolve.advice.samples import Task, evaluate, worker_goals
    from calasolve.advice.settings import AdviceSettings
    from calasolve.advice.policies import random_draw
    from calasolve.game.exchange import Exchange
    from calasolve.exchange.search import SearchLimits, search_exchange

    hand = parse_advice_hand("32AR.32A.3A.A54")
    settings = AdviceSettings(hand=hand, seat=1, seed=8, contracts=("dividete", "scegliete"), rules=Rules(),
                              policy="sampled", defender_policy="dd", candidates=4, redeals=4, tt_mb=16)
    leader = first_leader("dividete", 1)
    seen = set()
    for i in range(5):
        hands, monte = deal_rest(hand, 1, rng_for(8, i))
        for contract in ("dividete", "scegliete"):
            takes = random_draw(monte, 1, rng_for(8, i, 4)) if contract == "dividete" else None
            given = Exchange(takes=takes) if takes is not None else Exchange()
            value = search_exchange(hands, monte, contract, 1, leader, given=given, solver=solver, limits=SearchLimits(top=1)).value
            quick = evaluate(Task(i, contract), settings, solver, worker_goals(8))
            exact = evaluate(Task(i, contract, refine=True, thirds=True), settings, solver, worker_goals(8))
            assert quick.makes == exact.makes == (value >= MAKE_THIRDS)
            assert exact.thirds == value and exact.settled
            assert quick.payoff_low <= exact.payoff_low <= quick.payoff_high
            seen.add(quick.makes)
    assert seen == {True, False}


def test_an_aggravation_under_heuristic_defenders_says_how_to_check_it() -> None:
    from calasolve.cli.text import format_advice

    def text(**kw: object) -> str:
        return "\n".join(format_advice(advise("32A.32A.32A.32A", play="dd", samples=2, jobs=1, **kw), explain=True))  # type: ignore[arg-type]

    heuristic = text(contracts=["solissimo", "scegliete"], defender_policy="heuristic")
    assert "recommendation: scegliete" in heuristic and "the dd defender policy" in heuristic
    assert "dd defender policy" not in text(contracts=["solissimo"], defender_policy="heuristic")
    # the default defenders see every card: nothing to check
    assert "dd defender policy" not in text(contracts=["solissimo", "scegliete"])


class _CoinSolver:
    """A stand-in solver whose 'makes 18' answers are arbitrary but fixed per position."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.calls = 0

    def reaches(self, hands, trick, leader, soloist, bonus, target):  # type: ignore[no-untyped-def]
        self.calls += 1
        return hash((self.seed, hands, bonus)) % 3 != 0

    def reaches_batch(self, hands, bonus, leader, soloist, target, max_fails=0):  # type: ignore[no-untyped-def]
        out, fails = [-1] * len(hands), 0
        for i, (h, b) in enumerate(zip(hands, bonus)):
            out[i] = int(self.reaches(h, (), leader, soloist, b, target))
            fails += not out[i]
            if max_fails and fails == max_fails:
                break
        return out, len(hands)


def test_most_makes_picks_what_counting_every_world_picks() -> None:
    """The early stop and the world order only save searches: the choice is the one with
    the most makes over all re-deals, the first on a tie."""
    from calasolve.advice.policies import distinct_choices, most_makes, redeal_worlds
    from calasolve.game.cards import FULL_DECK, MAKE_THIRDS, mask_thirds

    hand = parse_advice_hand(STRONG)
    saved = 0
    for i in range(200):
        hands, monte = deal_rest(hand, 0, rng_for(31, i))
        mine = hands[0] | monte
        unknown = FULL_DECK & ~mine
        worlds = redeal_worlds(unknown, 0, None, 5, rng_for(32, i))
        choices = distinct_choices(mine, None, None, unknown, 5)
        coin = _CoinSolver(i)
        counts = []
        for ret, discards in choices:
            kept = mine & ~discards
            counts.append(sum(
                bool(coin.reaches((kept, w[1], w[2]), (), 0, 0, 3 + mask_thirds(discards), MAKE_THIRDS)) for w in worlds
            ))
        expected = counts.index(max(counts))
        coin.calls = 0
        assert most_makes(choices, worlds, mine, 0, None, 0, coin) == expected, i
        saved += len(choices) * len(worlds) - coin.calls
    assert saved > 0


def test_advice_repr_writes_the_hand_in_notation() -> None:
    advice = advise("32A.32A.32A.32A", play="dd", samples=2, jobs=1, contracts=["solissimo"])
    assert repr(advice).startswith("Advice(hand='32A.32A.32A.32A', seat=0, recommendation='solissimo'")
    assert "solissimo 100.0% +16.00" in repr(advice)


def test_the_race_stops_the_same_way_for_any_jobs() -> None:
    # several rounds with contracts dropping out: the same samples, stops and answer (with two
    # workers, idle ones start on rounds that some contracts never get)
    kwargs = dict(seat=1, samples=64, seed=3)
    one = advise("A765.R654.F76.5", play="dd", jobs=1, **kwargs).to_dict()  # type: ignore[arg-type]
    two = advise("A765.R654.F76.5", play="dd", jobs=2, **kwargs).to_dict()  # type: ignore[arg-type]
    assert steady(one) == steady(two)
    assert any(c["stopped"] == "eliminated" and c["samples"] < 64 for c in one["contracts"])
