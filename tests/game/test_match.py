"""The match ledger (docs/rules.md §2, §4, §8): seating, rotation, void deals, match end."""

from __future__ import annotations

import json

import pytest

from calasolve.game.errors import CalasolveError, MatchError
from calasolve.game.state import DealResult, score
from calasolve.game.match import Match, Seating
from calasolve.game.rules import Rules


def deal_result(contract: str, seat: int, makes: bool, rules: Rules, *, cappotto: bool = False) -> DealResult:
    """A scored deal for the soloist in ``seat``: made with 20 thirds or failed with 15 (m = 1),
    or a cappotto (m = 2)."""
    if cappotto:
        thirds, tricks, solo_cards, def_cards = (35, 12, 32, 0) if makes else (0, 0, 0, 32)
    else:
        thirds, tricks, solo_cards, def_cards = (20, 7, 17, 15) if makes else (15, 5, 12, 20)
    return score(contract, soloist_thirds=thirds, soloist_tricks=tricks, soloist_card_thirds=solo_cards,
                 defender_card_thirds=def_cards, soloist=seat, rules=rules)  # fmt: skip


def play(m: Match, player: int, contract: str, makes: bool = True, *, cappotto: bool = False) -> None:
    """Record a deal in which table position ``player`` is the soloist."""
    seat = m.seats().players.index(player)  # ValueError if ``player`` sits out
    m.record(deal_result(contract, seat, makes, m.rules, cappotto=cappotto))


# -- seating and rotation -----------------------------------------------------------------------


def test_three_players_dealer_is_seat_2_and_the_deal_passes_right() -> None:
    m = Match(players=3)
    assert m.seats() == Seating(dealer=0, players=(1, 2, 0), sits_out=None)
    expected = [(1, 2, 0), (2, 0, 1), (0, 1, 2), (1, 2, 0)]
    for players in expected:
        seating = m.seats()
        assert seating.players == players and seating.players[2] == seating.dealer
        m.record(None)
        # The next dealer is the seat 0 (the player to the dealer's right) of the hand just played.
        assert m.dealer == seating.players[0]


def test_four_players_the_dealer_sits_out() -> None:
    m = Match(players=4, dealer=2)
    assert m.seats() == Seating(dealer=2, players=(3, 0, 1), sits_out=2)
    seen = []
    for _ in range(4):
        seating = m.seats()
        seen.append(seating)
        assert seating.sits_out == seating.dealer not in seating.players
        m.record(None)
        assert m.dealer == seating.players[0]
    assert [s.dealer for s in seen] == [2, 3, 0, 1]
    assert [s.players for s in seen] == [(3, 0, 1), (0, 1, 2), (1, 2, 3), (2, 3, 0)]


def test_payments_go_from_seats_to_players() -> None:
    m = Match(players=4, dealer=1)  # seats 0, 1, 2 = players 2, 3, 0; player 1 sits out
    rec = m.record(deal_result("solo", 1, True, m.rules))  # the §8 example, soloist in seat 1
    assert rec.result is not None and rec.result.payments == (-2, 4, -2)
    assert rec.payments == (-2, 0, -2, 4)
    assert m.balances == (-2, 0, -2, 4)
    play(m, 0, "solissimo", makes=False)  # now players 3, 0, 1 play; player 2 sits out
    assert m.balances == (-10, 4, -2, 8)
    assert sum(m.balances) == 0


def test_void_deals_pass_the_deal_on_and_do_not_count() -> None:
    m = Match()
    rec = m.record(None)
    assert rec.result is None and rec.payments == (0, 0, 0)
    assert (m.deals_scored, len(m.history), m.dealer, m.balances) == (0, 1, 1, (0, 0, 0))


@pytest.mark.parametrize("players", [3, 4])
def test_void_redeal_same_dealer(players: int) -> None:
    m = Match(players=players, rules=Rules(void_redeal="same_dealer"), dealer=1)
    before = m.seats()
    m.record(None)
    m.record(None)
    assert m.seats() == before and m.deals_scored == 0 and len(m.history) == 2
    play(m, before.players[0], "chiamo")
    assert m.dealer == 2  # a scored deal still passes the deal on


# -- match=session9 ------------------------------------------------------------------------------


def test_session9_ends_after_nine_scored_deals_not_counting_voids() -> None:
    m = Match()
    for i in range(9):
        assert not m.is_over and m.winners == ()
        m.record(None)  # void deals in between change nothing but the dealer
        play(m, m.seats().players[0], "chiamo")
    assert (m.deals_scored, len(m.history)) == (9, 18)
    assert m.is_over
    # Each void and each scored deal moved the deal on, so the scored deals'
    # seat 0 went round players 2, 1, 0 three times: every player made three
    # chiamo (+2) and defended six (-1): all tie at 0 and share the win.
    assert m.balances == (0, 0, 0) and m.winners == (0, 1, 2)
    with pytest.raises(MatchError, match="the match is over"):
        m.record(None)


def test_session9_highest_balance_wins() -> None:
    m = Match()
    play(m, 1, "solissimo")  # (-4, 8, -4)
    for _ in range(8):
        assert not m.is_over
        play(m, 0, "chiamo", makes=False)  # 0: -2 each time, 1 and 2: +1
    assert m.deals_scored == 9 and m.is_over
    assert m.balances == (-20, 16, 4) and m.winners == (1,)


def test_session9_exact_tie_shares() -> None:
    m = Match()
    play(m, 1, "solo")  # (-2, 4, -2)
    play(m, 2, "solo")  # (-4, 2, 2)
    for _ in range(3):  # chiamo made and failed by the same player: net 0
        p = m.seats().players[0]
        play(m, p, "chiamo")
        play(m, p, "chiamo", makes=False)
    play(m, 0, "dividete", makes=False)  # player 0 fails: 1 and 2 get +8 each
    assert m.deals_scored == 9 and m.balances == (-20, 10, 10)
    assert m.winners == (1, 2)


def test_session9_with_four_players() -> None:
    m = Match(players=4)  # dealer 0 sits out first
    play(m, 1, "scegliete")  # (0, 32, -16, -16)
    for _ in range(8):
        # Dealers 1, 2, 3, 0, 1, ...: everyone fails twice in seat 1 (-2),
        # defends four times (+1) and sits out twice: net 0.
        play(m, m.seats().players[1], "chiamo", makes=False)
    assert m.deals_scored == 9 and m.is_over
    assert m.balances == (0, 32, -16, -16) and m.winners == (1,)
    assert m.dealer == 1  # the deal passed 9 times round the 4 players


# -- match=target21 / target31 -----------------------------------------------------------------------


@pytest.mark.parametrize("match, target", [("target21", 21), ("target31", 31)])
def test_target_first_to_reach_wins(match: str, target: int) -> None:
    m = Match(rules=Rules(match=match, payment="plus"))
    while True:
        play(m, 2, "solo")  # player 2 makes solos: +2 each time (payment=plus)
        if m.balances[2] >= target:
            break
        assert not m.is_over
    assert m.balances == (0, 0, target + target % 2) and m.is_over and m.winners == (2,)
    with pytest.raises(MatchError):
        m.record(None)


def test_target_reached_exactly() -> None:
    m = Match(rules=Rules(match="target21", payment="plus"))
    play(m, 0, "scegliete")  # +16
    play(m, 0, "solissimo")  # +4 -> 20
    assert not m.is_over
    play(m, 0, "chiamo")  # 21: reaching the target is enough
    assert m.balances == (21, 0, 0) and m.winners == (0,)


def test_target_both_over_higher_wins() -> None:
    m = Match(rules=Rules(match="target21", payment="plus"))
    play(m, 0, "scegliete", makes=False)  # 1, 2: 16
    play(m, 1, "chiamo")  # 1: 17
    assert not m.is_over
    play(m, 0, "solissimo", makes=False)  # 1: 21, 2: 20 -> 1 wins alone
    assert m.winners == (1,)
    m2 = Match(rules=Rules(match="target21", payment="plus"))
    play(m2, 0, "scegliete", makes=False)  # 16, 16
    play(m2, 1, "solo")  # 18, 16
    play(m2, 0, "dividete", makes=False)  # 26, 24: both over, the higher wins
    assert m2.balances == (0, 26, 24) and m2.winners == (1,)


def test_target_tie_plays_more_deals() -> None:
    m = Match(rules=Rules(match="target21", payment="plus"))
    play(m, 0, "scegliete", makes=False)  # (0, 16, 16)
    play(m, 0, "solissimo", makes=False)  # (0, 20, 20)
    play(m, 0, "chiamo", makes=False)  # (0, 21, 21): both over and tied
    assert not m.is_over and m.winners == ()
    m.record(None)  # a void deal decides nothing
    assert not m.is_over
    play(m, 0, "chiamo")  # (1, 21, 21): still tied, one more deal
    assert not m.is_over
    play(m, 2, "chiamo")  # (1, 21, 22)
    assert m.balances == (1, 21, 22) and m.is_over and m.winners == (2,)


def test_target_zero_sum_with_four_players() -> None:
    m = Match(players=4, rules=Rules(match="target21"), dealer=0)
    play(m, 1, "solissimo", cappotto=True)  # +2*4*2 = 16; players 2, 3 -8
    assert m.balances == (0, 16, -8, -8) and not m.is_over
    play(m, 2, "chiamo", makes=False)  # dealer 1 sits out; 2 fails: -2, 3 and 0 +1
    assert m.balances == (1, 16, -10, -7) and not m.is_over
    play(m, 1, "chiamo")  # dealer 2 sits out: 1 +2 -> 18
    assert not m.is_over
    play(m, 1, "chiamo")  # dealer 3 sits out: 1 -> 20
    assert not m.is_over
    play(m, 1, "chiamo")  # dealer 0 sits out: 1 -> 22
    assert m.balances[1] == 22 and m.winners == (1,)
    assert sum(m.balances) == 0


# -- API ---------------------------------------------------------------------------------------------


def test_bad_setup_and_bad_records() -> None:
    with pytest.raises(MatchError, match="3 or 4 players"):
        Match(players=5)
    with pytest.raises(MatchError, match="table positions are 0..2"):
        Match(players=3, dealer=3)
    with pytest.raises(MatchError, match="DealResult or None"):
        Match().record("solo")  # type: ignore[arg-type]
    assert issubclass(MatchError, CalasolveError)


def test_to_dict_is_json_ready() -> None:
    m = Match(players=4, rules=Rules(match="target31"))
    play(m, 1, "solo")
    m.record(None)
    d = m.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["players"] == 4 and d["rules"]["match"] == "target31"  # type: ignore[index]
    assert d["balances"] == [0, 4, -2, -2] and d["deals_scored"] == 1 and d["dealer"] == 2
    assert d["is_over"] is False and d["winners"] == []
    first, second = d["history"]  # type: ignore[misc]
    assert first["seats"] == [1, 2, 3] and first["sits_out"] == 0 and first["void"] is False
    assert first["result"]["contract"] == "solo" and first["payments"] == [0, 4, -2, -2]
    assert second == {
        "dealer": 1, "seats": [2, 3, 0], "sits_out": 1, "void": True, "result": None, "payments": [0, 0, 0, 0],
    }  # fmt: skip
