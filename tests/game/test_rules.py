"""The rules of play and scoring (docs/rules.md §1, §6-§8), with worked examples.

The multiplier tests play whole 12-trick deals through PlayState, so the
capture of the monte and of the last is tested, not only score().  Their
play is fixed by one simple policy: every player plays the first of their
legal cards in reading order (suits B S C D, each highest first).
"""

from __future__ import annotations

import random

import pytest

from calasolve.game.cards import (
    FULL_DECK,
    LAST_TRICK_THIRDS,
    TOTAL_THIRDS,
    card_name,
    display_order,
    hand_name,
    mask_of,
    mask_thirds,
    parse_card,
    parse_cards,
    parse_hand,
    popcount,
)
from calasolve.game.errors import CalasolveError, IllegalPlayError, RuleError
from calasolve.game.state import (
    CONTRACT_VALUE,
    CONTRACTS,
    PlayState,
    first_leader,
    legal_cards,
    multiplier,
    payments,
    score,
    trick_thirds,
    trick_winner,
)
from calasolve.game.rules import VARIANTS, Rules

STANDARD = Rules()


def new_state(hands: str, monte: str, soloist: int, contract: str, rules: Rules = STANDARD) -> PlayState:
    """A whole deal ready to play, first leader from the rules (docs/rules.md §6)."""
    masks = [parse_hand(h) for h in hands.split()]
    m = parse_hand(monte)
    assert masks[0] | masks[1] | masks[2] | m == FULL_DECK
    assert [popcount(h) for h in masks] + [popcount(m)] == [12, 12, 12, 4]
    return PlayState(masks, m, soloist, first_leader(contract, soloist, rules))


def play_reading_order(state: PlayState) -> PlayState:
    """Play to the end, each player taking their first legal card in reading order."""
    while not state.is_over:
        state.play(display_order(state.legal())[0])
    return state


def random_deal(rng: random.Random) -> tuple[list[int], int]:
    cards = list(range(40))
    rng.shuffle(cards)
    hands = [mask_of(cards[12 * i : 12 * i + 12]) for i in range(3)]
    return hands, mask_of(cards[36:])


def play_randomly(state: PlayState, rng: random.Random) -> None:
    while not state.is_over:
        state.play(rng.choice(display_order(state.legal())))


# -- §1 cards ---------------------------------------------------------------------------------


def test_card_values_and_total_of_35_thirds() -> None:
    assert [mask_thirds(parse_hand(h)) for h in ("A.-.-.-", "32RCF.-.-.-", "7654.-.-.-")] == [3, 5, 0]
    assert mask_thirds(FULL_DECK) + LAST_TRICK_THIRDS == TOTAL_THIRDS == 35


# -- §6 play ----------------------------------------------------------------------------------


def test_worked_example_trick_of_section_7() -> None:
    # R♣ then A♣ then 2♣: the 2 wins, the trick holds 1 + 3 + 1 = 5 thirds.
    trick = parse_cards("RB AB 2B")
    assert trick_thirds(trick) == 5
    for leader in range(3):
        assert trick_winner(trick, leader) == (leader + 2) % 3


@pytest.mark.parametrize(
    "cards, winner",
    [
        ("4B 3S 3C", 0),  # no trumps: a card of another suit never wins
        ("5D 4D 3B", 0),
        ("4C 5C 3C", 2),
        ("FS 3S 2S", 1),  # the 3 is the highest card, then the 2
        ("AS 2S RS", 1),
        ("7B FB 6B", 1),  # the Fante beats the 7
    ],
)
def test_trick_winner_highest_of_suit_led(cards: str, winner: int) -> None:
    assert trick_winner(parse_cards(cards), leader=0) == winner


def test_legal_cards_follow_suit_if_able() -> None:
    hand = parse_hand("3A.4.-.2")
    assert legal_cards(hand, []) == hand  # leading: anything
    assert hand_name(legal_cards(hand, parse_cards("5B"))) == "3A.-.-.-"
    assert hand_name(legal_cards(hand, parse_cards("3S 2S"))) == "-.4.-.-"
    assert legal_cards(hand, parse_cards("3C")) == hand  # void in the suit: anything


def test_play_refuses_renege_foreign_card_and_play_after_the_end() -> None:
    st = PlayState([parse_hand("3.-.-.-"), parse_hand("A.4.-.-"), parse_hand("-.5.-.-")], 0, soloist=0, leader=0)
    st.play(parse_card("3B"))
    with pytest.raises(IllegalPlayError, match="must follow the suit of 3B"):
        st.play(parse_card("4S"))
    with pytest.raises(IllegalPlayError, match="does not hold it"):
        st.play(parse_card("2B"))
    st.play(parse_card("AB"))
    st.play(parse_card("5S"))  # seat 2 is void in Bastoni: any card
    assert st.is_over and st.tricks_won == [1, 0, 0]
    with pytest.raises(IllegalPlayError, match="the deal is over"):
        st.play(parse_card("4S"))
    assert isinstance(IllegalPlayError("x"), ValueError)


@pytest.mark.parametrize("contract", CONTRACTS)
@pytest.mark.parametrize("soloist", range(3))
def test_first_leader(contract: str, soloist: int) -> None:
    # Standard (002_): seat 0 in chiamo and solo, the soloist otherwise.
    expected = 0 if contract in ("chiamo", "solo") else soloist
    assert first_leader(contract, soloist) == expected
    assert first_leader(contract, soloist, Rules(first_lead="standard")) == expected
    # first_lead=eldest (000_, 001_): seat 0 always.
    assert first_leader(contract, soloist, Rules(first_lead="eldest")) == 0


def test_undo_restores_every_earlier_state_exactly() -> None:
    rng = random.Random(7)
    hands, monte = random_deal(rng)
    st = PlayState(hands, monte, soloist=1, leader=0)

    def snapshot(s: PlayState) -> tuple[object, ...]:
        return (
            tuple(s.hands), tuple(s.trick), tuple(s.tricks), tuple(s.history), s.leader, s.to_move,
            tuple(s.captured), tuple(s.card_thirds), tuple(s.tricks_won), s.last_winner, s.is_over,
        )  # fmt: skip

    seen = [snapshot(st)]
    while not st.is_over:
        st.play(rng.choice(display_order(st.legal())))
        seen.append(snapshot(st))
    assert sum(st.captured) == 35
    for expected in reversed(seen[:-1]):
        st.undo()
        assert snapshot(st) == expected
    with pytest.raises(IllegalPlayError, match="nothing to undo"):
        st.undo()


def test_play_legal_is_play_without_the_checks() -> None:
    rng = random.Random(11)
    for _ in range(20):
        hands, monte = random_deal(rng)
        checked = PlayState(hands, monte, soloist=rng.randrange(3), leader=rng.randrange(3))
        unchecked = checked.copy()
        while not checked.is_over:
            card = rng.choice(display_order(checked.legal()))
            checked.play(card)
            unchecked.play_legal(card)
            assert vars(unchecked) == vars(checked)


def test_copy_is_independent() -> None:
    hands, monte = random_deal(random.Random(3))
    st = PlayState(hands, monte, soloist=0, leader=0)
    st.play(display_order(st.legal())[0])
    twin = st.copy()
    play_reading_order(twin)
    assert len(st.history) == 1 and st.captured == [0, 0, 0] and not st.is_over
    assert play_reading_order(st).captured == twin.captured


@pytest.mark.parametrize("seed", range(200))
def test_random_deal_played_by_random_legal_cards_totals_35(seed: int) -> None:
    rng = random.Random(seed)
    hands, monte = random_deal(rng)
    contract = rng.choice(CONTRACTS)
    soloist = rng.randrange(3)
    st = PlayState(hands, monte, soloist, first_leader(contract, soloist))
    play_randomly(st, rng)
    assert len(st.tricks) == 12 and st.hands == [0, 0, 0]
    assert sum(st.captured) == 35
    assert sum(st.tricks_won) == 12
    # The card counts hold the 40 cards (32 thirds) and not the last.
    assert sum(st.card_thirds) == 32
    assert st.captured[st.last_winner] - st.card_thirds[st.last_winner] == LAST_TRICK_THIRDS
    result = st.result(contract)
    assert result.soloist_thirds + result.defender_thirds == 35
    assert result.soloist_thirds == st.side_thirds()[0]
    assert sum(result.payments) == 0  # standard payment is zero-sum


# -- §7 result ---------------------------------------------------------------------------------


def test_worked_example_solo_18_against_17_makes() -> None:
    r = score("solo", soloist_thirds=18, soloist_tricks=7, soloist_card_thirds=15, defender_card_thirds=17)
    assert (r.soloist_points, r.defender_points, r.makes) == (6, 5, True)
    assert (r.multiplier, r.bonus) == (1, None)
    assert r.payments == (4, -2, -2)  # §8 worked example: +4, -2, -2, sum 0


def test_17_thirds_fail() -> None:
    r = score("solo", soloist_thirds=17, soloist_tricks=7, soloist_card_thirds=14, defender_card_thirds=18)
    assert (r.soloist_points, r.defender_points, r.makes) == (5, 6, False)
    assert r.payments == (-4, 2, 2)


@pytest.mark.parametrize(
    "soloist_thirds, soloist_points, defender_points",
    [
        (20, 6, 5),  # 20/3 = 6.67 -> 6; the defence's 15 -> 5: a point is lost to the floors
        (18, 6, 5),
        (17, 5, 6),
        (19, 6, 5),  # 16/3 = 5.33 -> 5
        (21, 7, 4),
        (15, 5, 6),  # the defence's 20 -> 6
        (35, 11, 0),
        (0, 0, 11),
    ],
)
def test_points_are_the_floor_of_each_sides_thirds(
    soloist_thirds: int, soloist_points: int, defender_points: int
) -> None:
    r = score("solo", soloist_thirds=soloist_thirds, soloist_tricks=6, soloist_card_thirds=10, defender_card_thirds=10)
    assert (r.soloist_points, r.defender_points) == (soloist_points, defender_points)
    assert r.defender_thirds == 35 - soloist_thirds
    assert r.makes == (soloist_thirds >= 18)


# -- §8 multiplier on whole deals ------------------------------------------------------------

# Seat 0 holds all ten Bastoni, 3S and 4D.  Reading-order play: seat 0 leads
# its Bastoni (10 tricks, the others are void and throw Spade, Coppe, Denari),
# then 3S (trick 11: 3S 7D FD, 2 thirds) and 4D, which seat 2 takes with 6D
# (trick 12: 4D 5D 6D, 0 thirds).  Seat 0 leads the first trick in solo
# (seat 0 always) and in solissimo as soloist, so the play is the same
# whoever the soloist is.  Seat 0 takes 11 tricks and 30 thirds; seat 2 the
# last trick, 0 thirds of cards, the monte and the last.
DEAL_A = "32ARCF7654.3.-.4 -.ARC54.32ARC.75 -.-.F7654.32ARCF6"
MONTE_2 = "-.2F76.-.-"  # 2 thirds
# The same with CS in the monte and 7S in seat 1: a monte of exactly 3 thirds.
DEAL_A3 = "32ARCF7654.3.-.4 -.AR754.32ARC.75 -.-.F7654.32ARCF6"
MONTE_3 = "-.2CF6.-.-"


def test_deal_a_play_is_as_described() -> None:
    st = play_reading_order(new_state(DEAL_A, MONTE_2, 0, "solissimo"))
    assert st.tricks_won == [11, 0, 1] and st.last_winner == 2
    assert [card_name(c) for c in st.tricks[-1].cards] == ["4D", "5D", "6D"]
    assert st.captured == [30, 0, 5]  # seat 2: 0 in cards + 2 monte + 3 last
    assert st.card_thirds == [30, 0, 2]  # the monte counts, the last does not


def test_stramazzo_made_monte_counts_last_does_not() -> None:
    # The defence holds 2 thirds in cards (the monte) + 3 for the last = 5 thirds,
    # but the last does not count: fewer than 3 -> stramazzo x3.
    r = play_reading_order(new_state(DEAL_A, MONTE_2, 0, "solissimo")).result("solissimo")
    assert (r.soloist_thirds, r.defender_thirds, r.makes, r.soloist_tricks) == (30, 5, True, 11)
    assert (r.bonus, r.multiplier) == ("stramazzo", 3)
    assert r.payments == (24, -12, -12)  # 2 * v * m = 2 * 4 * 3


def test_monte_of_3_thirds_saves_the_defence_from_stramazzo() -> None:
    # The defenders' only trick holds 0 thirds; the monte they take with it
    # holds 3, which is enough: no stramazzo.
    st = play_reading_order(new_state(DEAL_A3, MONTE_3, 0, "solissimo"))
    assert st.card_thirds == [29, 0, 3] and st.tricks_won == [11, 0, 1]
    r = st.result("solissimo")
    assert (r.makes, r.bonus, r.multiplier, r.payments) == (True, None, 1, (8, -4, -4))


def test_stramazzo_failed_soloist_won_only_the_last_trick() -> None:
    # Seat 2 is the soloist in a solo (seat 0 leads) and takes only the last
    # trick: 0 thirds of cards, 2 of monte, 3 of the last = 5 thirds, 1 point.
    r = play_reading_order(new_state(DEAL_A, MONTE_2, 2, "solo")).result("solo")
    assert (r.soloist_thirds, r.soloist_points, r.makes, r.soloist_tricks) == (5, 1, False, 1)
    assert (r.bonus, r.multiplier) == ("stramazzo", 3)
    assert r.payments == (6, 6, -12)  # failed: soloist -2 * 2 * 3, each defender +2 * 3
    # With 3 thirds in the monte the soloist holds 3 card thirds: no stramazzo.
    r3 = play_reading_order(new_state(DEAL_A3, MONTE_3, 2, "solo")).result("solo")
    assert (r3.soloist_thirds, r3.makes, r3.bonus, r3.multiplier, r3.payments) == (6, False, None, 1, (2, 2, -4))


def test_cappotto_soloist_won_no_trick_beats_stramazzo() -> None:
    # Seat 1 as soloist takes nothing: 0 thirds in cards would be a stramazzo,
    # but cappotto comes first and the two are never combined: x2, not x3 or x6.
    r = play_reading_order(new_state(DEAL_A, MONTE_2, 1, "solo")).result("solo")
    assert (r.soloist_thirds, r.soloist_tricks, r.makes) == (0, 0, False)
    assert (r.bonus, r.multiplier, r.payments) == ("cappotto", 2, (4, -8, 4))


@pytest.mark.parametrize("soloist", range(3))
def test_stramazzo_off(soloist: int) -> None:
    rules = Rules(stramazzo="off")
    r = play_reading_order(new_state(DEAL_A, MONTE_2, soloist, "solo", rules)).result("solo", rules)
    # Only the cappotto of seat 1 (no trick) survives.
    assert (r.bonus, r.multiplier) == (("cappotto", 2) if soloist == 1 else (None, 1))


# Seat 0 holds all ten Bastoni, 3S and 2S and takes every trick leading them
# in reading order; the defence captures nothing.
DEAL_B = "32ARCF7654.32.-.- -.ARCF7654.32AR.- -.-.CF7654.32ARCF"
MONTE_B = "-.-.-.7654"


@pytest.mark.parametrize("rules", [STANDARD, Rules(stramazzo="off")])
def test_cappotto_soloist_won_all_tricks(rules: Rules) -> None:
    st = play_reading_order(new_state(DEAL_B, MONTE_B, 0, "solissimo", rules))
    assert st.tricks_won == [12, 0, 0] and st.captured == [35, 0, 0]
    r = st.result("solissimo", rules)
    # The defence has 0 card thirds, yet it is a cappotto x2, not a stramazzo.
    assert (r.makes, r.bonus, r.multiplier, r.payments) == (True, "cappotto", 2, (16, -8, -8))


def test_cappotto_soloist_won_no_trick() -> None:
    r = play_reading_order(new_state(DEAL_B, MONTE_B, 2, "chiamo")).result("chiamo")
    assert (r.soloist_tricks, r.soloist_thirds, r.bonus, r.multiplier) == (0, 0, "cappotto", 2)
    assert r.payments == (2, 2, -4)


def test_payment_plus_on_whole_deals() -> None:
    plus = Rules(payment="plus")
    made = play_reading_order(new_state(DEAL_A, MONTE_2, 0, "solissimo", plus)).result("solissimo", plus)
    assert made.payments == (12, 0, 0)  # made: soloist +v*m = 4 * 3
    failed = play_reading_order(new_state(DEAL_A, MONTE_2, 2, "solo", plus)).result("solo", plus)
    assert failed.payments == (6, 6, 0)  # failed: each defender +v*m = 2 * 3


def test_multiplier_thresholds() -> None:
    def m(makes: bool, tricks: int, solo_cards: int, def_cards: int, rules: Rules = STANDARD) -> tuple[int, str | None]:
        return multiplier(makes=makes, soloist_tricks=tricks, soloist_card_thirds=solo_cards,
                          defender_card_thirds=def_cards, rules=rules)  # fmt: skip

    assert m(True, 11, 30, 2) == (3, "stramazzo")
    assert m(True, 11, 29, 3) == (1, None)  # exactly 3 thirds is enough
    assert m(False, 1, 2, 30) == (3, "stramazzo")
    assert m(False, 1, 3, 29) == (1, None)
    assert m(True, 10, 20, 2, Rules(stramazzo="off")) == (1, None)
    # Only the side that lost the contract matters.
    assert m(False, 5, 17, 2) == (1, None)
    assert m(True, 5, 2, 20) == (1, None)
    # Sweeps: cappotto whatever the counts.
    assert m(True, 12, 32, 0) == (2, "cappotto")
    assert m(False, 0, 0, 32) == (2, "cappotto")
    assert m(False, 0, 0, 32, Rules(stramazzo="off")) == (2, "cappotto")


# -- §8 payment --------------------------------------------------------------------------------


@pytest.mark.parametrize("contract, v", sorted(CONTRACT_VALUE.items()))
@pytest.mark.parametrize("m", [1, 2, 3])
@pytest.mark.parametrize("soloist", range(3))
def test_payments_every_contract_value(contract: str, v: int, m: int, soloist: int) -> None:
    assert CONTRACT_VALUE == {"chiamo": 1, "solo": 2, "solissimo": 4, "dividete": 8, "scegliete": 16}

    def by_seat(solo: int, defender: int) -> tuple[int, int, int]:
        out = [defender] * 3
        out[soloist] = solo
        return out[0], out[1], out[2]

    assert payments(contract, soloist, True, m) == by_seat(2 * v * m, -v * m)
    assert payments(contract, soloist, False, m) == by_seat(-2 * v * m, v * m)
    plus = Rules(payment="plus")
    assert payments(contract, soloist, True, m, plus) == by_seat(v * m, 0)
    assert payments(contract, soloist, False, m, plus) == by_seat(0, v * m)


def test_worked_example_payment_of_section_8_at_every_seat() -> None:
    assert payments("solo", 0, True, 1) == (4, -2, -2)
    assert payments("solo", 1, True, 1) == (-2, 4, -2)
    assert payments("solo", 2, True, 1) == (-2, -2, 4)


# -- rules ---------------------------------------------------------------------------------------


def test_every_variant_is_selectable_by_name() -> None:
    for name, values in VARIANTS.items():
        for value in values:
            assert getattr(Rules.parse([f"{name}={value}"]), name) == value
    assert Rules() == Rules.parse([]) and Rules().describe() == "standard"
    with pytest.raises(RuleError, match="unknown value 'maybe'"):
        Rules.parse(["stramazzo=maybe"])
    with pytest.raises(RuleError, match="name=value"):
        Rules.parse(["stramazzo"])
    with pytest.raises(CalasolveError):
        Rules(payment="double")
