"""The auction of docs/rules.md §4, in every variant, with illegal calls."""

from __future__ import annotations

import pytest

from calasolve.game.auction import Auction, run_auction
from calasolve.game.errors import AuctionError, CalasolveError
from calasolve.game.rules import Rules

OPEN = Rules(auction="open")
BIDS = Rules(aggravations="bids")
OPEN_BIDS = Rules(auction="open", aggravations="bids")


def outcome(
    calls: str | list[tuple[int, str]], rules: Rules = Rules(), aggravation: str | None = None
) -> tuple[int | None, str | None]:
    r = run_auction(calls, rules, aggravation)
    return r.soloist, r.contract


# -- standard: one round ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "calls, soloist, contract",
    [
        ("chiamo pass pass", 0, "chiamo"),
        ("pass chiamo pass", 1, "chiamo"),
        ("pass pass chiamo", 2, "chiamo"),  # the dealer speaks last
        ("pass chiamo solo", 2, "solo"),
        ("chiamo solo pass", 1, "solo"),
        ("chiamo pass solo", 2, "solo"),
        ("solo pass solissimo", 2, "solissimo"),
        ("solissimo", 0, "solissimo"),  # solissimo ends the auction at once
        ("pass solissimo", 1, "solissimo"),
        ("CHIAMO  Pass pass", 0, "chiamo"),  # case and spacing do not matter
    ],
)
def test_single_round(calls: str, soloist: int, contract: str) -> None:
    assert outcome(calls) == (soloist, contract)


def test_all_pass_is_a_void_deal() -> None:
    for rules in (Rules(), OPEN, BIDS, OPEN_BIDS):
        r = run_auction(["pass", "pass", "pass"], rules)
        assert r.void and (r.soloist, r.bid, r.contract) == (None, None, None)
        assert r.calls == ((0, "pass"), (1, "pass"), (2, "pass"))


def test_result_records_calls_and_converts_to_dict() -> None:
    r = run_auction(["chiamo", "solo", "pass"])
    assert r.calls == ((0, "chiamo"), (1, "solo"), (2, "pass"))
    assert r.to_dict() == {
        "soloist": 1, "bid": "solo", "contract": "solo", "void": False,
        "calls": [[0, "chiamo"], [1, "solo"], [2, "pass"]],
    }  # fmt: skip


@pytest.mark.parametrize(
    "calls, message",
    [
        ("chiamo chiamo", "call 2 'chiamo' by seat 1: a bid must be higher than chiamo"),
        ("solo chiamo", "a bid must be higher than solo"),
        ("pass solo pass solissimo", "call 4 'solissimo': the auction is over"),  # seat 0 spoke already
        ("chiamo pass pass pass", "the auction is over, no one may speak \\(seat 0 won with chiamo\\)"),
        ("solissimo pass", "the auction is over"),  # nothing may follow a solissimo
        ("pass pass pass pass", "the auction is over, no one may speak \\(all passed\\)"),
        ("grande", "unknown call"),
        ("dividete", "not a bid under aggravations=declared"),
        ("solo scegliete", "not a bid under aggravations=declared"),
    ],
)
def test_illegal_calls(calls: str, message: str) -> None:
    with pytest.raises(AuctionError, match=message):
        run_auction(calls)


def test_auction_error_is_a_calasolve_error() -> None:
    assert issubclass(AuctionError, CalasolveError) and issubclass(AuctionError, ValueError)


@pytest.mark.parametrize("calls", ["", "pass", "chiamo pass"])
def test_unfinished_auction_has_no_result(calls: str) -> None:
    with pytest.raises(AuctionError, match="the auction is not over: seat"):
        run_auction(calls)


def test_speaking_out_of_turn_or_after_passing() -> None:
    with pytest.raises(AuctionError, match="out of turn, seat 0 is to speak"):
        run_auction([(1, "solo")])
    with pytest.raises(AuctionError, match="seat 0 has passed and may not speak again"):
        run_auction([(0, "pass"), (0, "solo")])
    with pytest.raises(AuctionError, match="out of turn"):
        run_auction([(0, "pass"), (2, "solo")])
    assert outcome([(0, "pass"), (1, "solo"), (2, "pass")]) == (1, "solo")


def test_legal_calls_and_to_speak() -> None:
    a = Auction()
    assert (a.to_speak, a.legal_calls()) == (0, ["pass", "chiamo", "solo", "solissimo"])
    a.call("solo")
    assert (a.to_speak, a.legal_calls()) == (1, ["pass", "solissimo"])
    a.call("pass")
    assert a.to_speak == 2
    a.call("solissimo")
    assert a.is_over and a.to_speak is None and a.legal_calls() == []
    assert Auction(BIDS).legal_calls() == ["pass", "chiamo", "solo", "solissimo", "dividete", "scegliete"]


# -- aggravations ---------------------------------------------------------------------------


@pytest.mark.parametrize("aggravation", ["dividete", "scegliete", " Scegliete "])
def test_aggravating_a_won_solissimo(aggravation: str) -> None:
    r = run_auction("pass solissimo", aggravation=aggravation)
    assert (r.soloist, r.bid, r.contract) == (1, "solissimo", aggravation.strip().lower())
    assert outcome("pass solissimo") == (1, "solissimo")  # aggravating is optional


@pytest.mark.parametrize(
    "calls, aggravation, rules, message",
    [
        ("solo pass pass", "dividete", Rules(), "only a won solissimo may be aggravated"),
        ("pass pass pass", "scegliete", Rules(), "only a won solissimo may be aggravated \\(all passed\\)"),
        ("solissimo", "solo", Rules(), "use dividete or scegliete"),
        ("solissimo pass pass", "dividete", BIDS, "with aggravations=bids, dividete and scegliete are bids"),
    ],
)
def test_illegal_aggravations(calls: str, aggravation: str, rules: Rules, message: str) -> None:
    with pytest.raises(AuctionError, match=message):
        run_auction(calls, rules, aggravation)


# -- aggravations=bids: a five-step ladder, scegliete ends it --------------------------------


@pytest.mark.parametrize(
    "calls, soloist, contract",
    [
        ("solissimo pass pass", 0, "solissimo"),  # solissimo no longer ends the auction...
        ("solissimo dividete pass", 1, "dividete"),  # ...because it can be outbid
        ("solissimo pass scegliete", 2, "scegliete"),
        ("chiamo solissimo dividete", 2, "dividete"),
        ("scegliete", 0, "scegliete"),  # the top of the ladder ends it
        ("pass dividete scegliete", 2, "scegliete"),
    ],
)
def test_bids_variant(calls: str, soloist: int, contract: str) -> None:
    assert outcome(calls, BIDS) == (soloist, contract)


def test_bids_variant_illegal_calls() -> None:
    with pytest.raises(AuctionError, match="the auction is over"):
        run_auction("scegliete pass", BIDS)
    with pytest.raises(AuctionError, match="a bid must be higher than dividete"):
        run_auction("dividete solissimo", BIDS)


# -- auction=open: round and round until two pass after a bid -------------------------------


@pytest.mark.parametrize(
    "calls, soloist, contract",
    [
        ("chiamo pass pass", 0, "chiamo"),
        ("pass chiamo pass", 1, "chiamo"),  # seat 0 passed before the bid: out for good
        ("pass pass chiamo", 2, "chiamo"),
        ("chiamo solo pass pass", 1, "solo"),  # seat 0 speaks again and gives up
        ("chiamo solo pass solissimo", 0, "solissimo"),  # seat 0 outbids on the second round
        ("chiamo pass solo pass", 2, "solo"),  # seat 1 passed, so seat 0 follows seat 2
        ("chiamo pass solo solissimo", 0, "solissimo"),
        ("chiamo solo solissimo", 2, "solissimo"),  # solissimo still ends it
    ],
)
def test_open_variant(calls: str, soloist: int, contract: str) -> None:
    assert outcome(calls, OPEN) == (soloist, contract)


def test_open_variant_order_of_speakers() -> None:
    r = run_auction("chiamo pass solo solissimo", OPEN)
    assert r.calls == ((0, "chiamo"), (1, "pass"), (2, "solo"), (0, "solissimo"))


def test_open_variant_passed_player_cannot_reenter() -> None:
    with pytest.raises(AuctionError, match="seat 1 has passed and may not speak again"):
        run_auction([(0, "chiamo"), (1, "pass"), (2, "solo"), (1, "solissimo")], OPEN)
    with pytest.raises(AuctionError, match="the auction is over"):
        run_auction("chiamo solo pass pass pass", OPEN)
    with pytest.raises(AuctionError, match="not over: seat 0 to speak"):
        run_auction("chiamo solo pass", OPEN)


def test_open_variant_with_bids_ladder() -> None:
    assert outcome("chiamo solo solissimo dividete pass pass", OPEN_BIDS) == (0, "dividete")
    assert outcome("chiamo solo solissimo dividete pass scegliete", OPEN_BIDS) == (2, "scegliete")
    r = run_auction("chiamo solo solissimo dividete scegliete", OPEN_BIDS)
    assert (r.soloist, r.contract, len(r.calls)) == (1, "scegliete", 5)
