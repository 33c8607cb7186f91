"""Par: backward induction over the auction (docs/rules.md §4 and §9) on game points known by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from calasolve.game.auction import run_auction
from calasolve.game.errors import CalasolveError
from calasolve.game.state import CONTRACTS, payments
from calasolve.table.par import par
from calasolve.game.rules import Rules

BIDS = Rules(aggravations="bids")
OPEN = Rules(auction="open")


def failing(rules: Rules = Rules()) -> dict[tuple[int, str], tuple[int, int, int]]:
    """Every seat fails every contract (x1)."""
    return {(s, c): payments(c, s, False, 1, rules) for s in range(3) for c in CONTRACTS}


def makes(gp: dict[tuple[int, str], tuple[int, int, int]], seat: int, *contracts: str, m: int = 1,
          rules: Rules = Rules()) -> None:
    for c in contracts:
        gp[(seat, c)] = payments(c, seat, True, m, rules)


def test_all_pass_when_everything_fails() -> None:
    for rules in (Rules(), BIDS, OPEN, Rules(auction="open", aggravations="bids")):
        found = par(failing(rules), rules)
        assert found.void and found.contract is None
        assert found.payments == (0, 0, 0)
        assert [call for _, call in found.calls] == ["pass", "pass", "pass"]


def test_certain_solissimo_is_aggravated_to_what_still_makes() -> None:
    gp = failing()
    makes(gp, 2, "chiamo", "solo", "solissimo", "dividete")  # scegliete fails
    found = par(gp)
    # seat 2 speaks last: the solissimo ends the auction and is raised to dividete (8 > 4)
    assert (found.soloist, found.bid, found.contract) == (2, "solissimo", "dividete")
    assert found.payments == (-8, -8, 16)
    assert found.calls == ((0, "pass"), (1, "pass"), (2, "solissimo"))


def test_a_later_seat_outbids() -> None:
    gp = failing()
    makes(gp, 0, "chiamo")
    makes(gp, 1, "chiamo", "solo")
    found = par(gp)
    # seat 0's chiamo would be outbid by seat 1's solo anyway; passing or bidding gives seat 0 the same -2,
    # and ties go to pass
    assert (found.soloist, found.contract) == (1, "solo")
    assert found.calls == ((0, "pass"), (1, "solo"), (2, "pass"))
    assert found.payments == (-2, 4, -2)


def test_solissimo_ends_the_auction_at_once() -> None:
    gp = failing()
    makes(gp, 0, "solissimo")
    found = par(gp)
    assert (found.soloist, found.contract) == (0, "solissimo")
    assert found.calls == ((0, "solissimo"),)


def test_a_sacrifice_when_failing_costs_less_than_paying() -> None:
    gp = failing()
    makes(gp, 1, "solo", m=3)  # seat 1's solo by stramazzo would cost each defender 6
    found = par(gp)
    # seat 0 bids solo first and fails (-4 for it): cheaper than paying 6; seat 1 cannot outbid
    # with a failing solissimo (-8) for less than the +2 it gets as a defender
    assert (found.soloist, found.contract) == (0, "solo")
    assert found.calls == ((0, "solo"), (1, "pass"), (2, "pass"))
    assert found.payments == (-4, 2, 2)


def test_no_sacrifice_when_it_costs_more() -> None:
    gp = failing()
    makes(gp, 1, "solo")  # a plain solo costs each defender 2: a failed solo (-4) is dearer
    found = par(gp)
    assert (found.soloist, found.contract) == (1, "solo")
    assert found.payments == (-2, 4, -2)


def test_payment_plus() -> None:
    plus = Rules(payment="plus")
    gp = failing(plus)
    makes(gp, 1, "solo", rules=plus)
    found = par(gp, plus)
    assert (found.soloist, found.contract) == (1, "solo")
    assert found.payments == (0, 2, 0)


def test_open_auction_lets_an_early_passer_lose_the_chance() -> None:
    # In the open auction seat 0 may come back over seat 1's chiamo only if seat 0 has not passed.
    gp = failing(OPEN)
    makes(gp, 0, "chiamo", "solo")
    makes(gp, 1, "chiamo")
    found = par(gp, OPEN)
    assert (found.soloist, found.contract) == (0, "solo")
    assert found.payments == (4, -2, -2)


def test_bids_variant_scegliete_is_a_bid() -> None:
    gp = failing(BIDS)
    makes(gp, 1, *CONTRACTS, rules=BIDS)
    makes(gp, 0, "chiamo", "solo", "solissimo", "dividete", rules=BIDS)
    found = par(gp, BIDS)
    # seat 0's dividete would be outbid by seat 1's scegliete (which ends the auction)
    assert (found.soloist, found.bid, found.contract) == (1, "scegliete", "scegliete")
    assert found.calls[-1] == (1, "scegliete")


def test_dividete_by_its_expectation() -> None:
    gp: dict[tuple[int, str], tuple[int | Fraction, ...]] = dict(failing())
    # four draws of six make x1, two fail x1: the expectation (4*16 - 2*16) / 6 = 16/3 is below solissimo's 8
    gp[(0, "solissimo")] = payments("solissimo", 0, True, 1)
    gp[(0, "dividete")] = tuple(Fraction(4 * a + 2 * b, 6) for a, b in zip(payments("dividete", 0, True, 1),
                                                                          payments("dividete", 0, False, 1)))
    found = par(gp)
    assert gp[(0, "dividete")][0] == Fraction(16, 3)
    assert found.contract == "solissimo"  # 8 > 16/3
    assert found.payments == (8, -4, -4)


def _par_after(gp: dict[tuple[int, str], tuple[int, int, int]], rules: Rules, prefix: list[str]) -> tuple[Fraction, ...]:
    """The game points when the auction starts with ``prefix`` and par play follows (brute force)."""
    from calasolve.game.auction import Auction

    def value(calls: list[str]) -> tuple[Fraction, ...]:
        auction = Auction(rules)
        for c in calls:
            auction.call(c)
        if auction.is_over:
            if auction.high_seat is None:
                return (Fraction(0),) * 3
            options = [auction.high]
            if rules.aggravations == "declared" and auction.high == "solissimo":
                options += ["dividete", "scegliete"]
            seat = auction.high_seat
            best = max(options, key=lambda c: (gp[(seat, c)][seat], -options.index(c)))
            return tuple(Fraction(x) for x in gp[(seat, best)])
        seat = auction.to_speak
        best_v: tuple[Fraction, ...] | None = None
        for c in auction.legal_calls():
            v = value([*calls, c])
            if best_v is None or v[seat] > best_v[seat]:
                best_v = v
        assert best_v is not None
        return best_v

    return value(prefix)


def test_brute_force_agrees() -> None:
    import random

    rnd = random.Random(11)
    for rules in (Rules(), BIDS, OPEN, Rules(auction="open", aggravations="bids", payment="plus")):
        for _ in range(40):
            gp = {(s, c): payments(c, s, rnd.random() < 0.5, rnd.choice((1, 2, 3)), rules)
                  for s in range(3) for c in CONTRACTS}
            assert par(gp, rules).payments == _par_after(gp, rules, [])


def test_missing_entry_is_a_clear_error() -> None:
    gp = failing()
    del gp[(2, "scegliete")]
    makes(gp, 2, "solissimo")
    with pytest.raises(CalasolveError, match="no entry for seat 2 in scegliete"):
        par(gp)


def test_calls_are_legal_in_every_variant() -> None:
    for auction, aggr in itertools.product(("single", "open"), ("declared", "bids")):
        rules = Rules(auction=auction, aggravations=aggr)
        gp = failing(rules)
        makes(gp, 1, "chiamo", "solo", rules=rules)
        found = par(gp, rules)
        run_auction(list(found.calls), rules)
