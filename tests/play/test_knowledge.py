"""A seat's knowledge and the layouts dealt from it: every layout fits what the seat saw, uniformly."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from calasolve.game.cards import FULL_DECK, mask_of, popcount, suit_of
from calasolve.types.record import Record
from calasolve.records.dealfile import read_deal_file
from calasolve.game.state import PlayState, defender_seats
from calasolve.play.knowledge import MONTE, deal_layout, layout_count, shown_voids, view_of
from calasolve.play.factory import make_player
from calasolve.play.players import play_out
from calasolve.game.sampling import rng_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = read_deal_file(str(ROOT / "examples" / "example.deal"))


def played_out(record: Record, cards: int) -> Record:
    """The record with its first ``cards`` cards played double dummy."""
    return record.with_(played=dd_line(record)[:cards])


@functools.lru_cache(maxsize=None)
def dd_line(record: Record) -> tuple[int, ...]:
    return play_out(record.with_(played=()), [make_player("dd")] * 3).record.played


def check_layout(record: Record, state: PlayState, seat: int, hands: tuple[int, int, int], monte: int) -> None:
    true_hands, true_monte = state.hands, state.monte
    # the seat's own hand, the sizes and the cards out
    assert hands[seat] == true_hands[seat]
    assert [popcount(h) for h in hands] == [popcount(h) for h in true_hands]
    assert popcount(monte) == 4
    played = mask_of(state.history)
    assert not (hands[0] | hands[1] | hands[2] | monte) & played
    assert hands[0] | hands[1] | hands[2] | monte | played == FULL_DECK
    assert popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + 4 + len(state.history) == 40
    # voids shown
    voids = shown_voids(state)
    for s in range(3):
        for suit in range(4):
            if voids[s] >> suit & 1:
                assert not any(suit_of(c) == suit for c in range(40) if hands[s] >> c & 1)
    # the exchange as the seat saw it
    ex, soloist = record.exchange, record.soloist
    if record.contract in ("solo", "chiamo") and seat == soloist:
        assert monte == true_monte
    if record.contract == "chiamo" and ex.call is not None and not played >> ex.call & 1:
        holder = [s for s in range(3) if true_hands[s] >> ex.call & 1]
        where = holder[0] if holder else MONTE
        assert (hands[where] if where != MONTE else monte) >> ex.call & 1 or (
            where == soloist and monte >> ex.call & 1 and seat != soloist)
    if record.contract == "chiamo" and ex.returned is not None and not played >> ex.returned & 1:
        back = [s for s in range(3) if true_hands[s] >> ex.returned & 1]
        if back and back[0] != soloist:
            assert hands[back[0]] >> ex.returned & 1
    if record.contract in ("dividete", "scegliete") and ex.discards is not None and ex.takes is not None:
        if seat != soloist:
            assert monte & ex.discards[seat] == ex.discards[seat]
        if record.contract == "scegliete":
            for d in defender_seats(soloist):
                taken = ex.takes[d] & ~played
                assert taken & (hands[d] | monte) == taken


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
@pytest.mark.parametrize("cards", [0, 7, 20])
def test_thousands_of_layouts_fit_every_seat(index: int, cards: int) -> None:
    record = EXAMPLES[index]
    if record.needs_exchange:
        pytest.skip("no complete exchange")
    record = played_out(record, cards)
    state = record.state()
    for seat in range(3):
        view = view_of(record, state, seat)
        rng = rng_for(3, index, cards, seat)
        for _ in range(250):
            hands, monte = deal_layout(view, rng)
            check_layout(record, state, seat, hands, monte)


def test_the_true_layout_is_always_possible() -> None:
    for record in EXAMPLES:
        if record.needs_exchange:
            continue
        for cards in (0, 5, 13, 30):
            rec = played_out(record, cards)
            state = rec.state()
            for seat in range(3):
                view = view_of(rec, state, seat)
                for s in range(3):
                    for c in range(40):
                        if state.hands[s] >> c & 1 and s != seat and c in view.unseen:
                            assert s in view.may_be(c)
                for c in range(40):
                    if state.monte >> c & 1 and c in view.unseen:
                        assert MONTE in view.may_be(c)


def test_layouts_are_uniform() -> None:
    """On an ending with few layouts, every layout comes up about as often as the others."""
    record = played_out(EXAMPLES[1], 27)  # a solo: its soloist knows the monte; 3 cards each left
    state = record.state()
    view = view_of(record, state, record.soloist)
    n = layout_count(view)
    assert 1 < n < 200
    rng = rng_for(5)
    draws = 300 * n
    counts = Counter(deal_layout(view, rng) for _ in range(draws))
    assert len(counts) == n  # every layout turns up, and no other
    # each count is Binomial(draws, 1/n): within 5 standard deviations
    sd = (draws * (1 / n) * (1 - 1 / n)) ** 0.5
    assert all(abs(c - 300) < 5 * sd for c in counts.values())


def test_voids_shown_are_kept() -> None:
    """A seat that did not follow suit holds no card of it in any layout (and such voids do occur here)."""
    seen = 0
    for record in EXAMPLES:
        if record.needs_exchange:
            continue
        for cards in range(0, 36, 2):
            rec = played_out(record, cards)
            state = rec.state()
            voids = shown_voids(state)
            for seat in range(3):
                view = view_of(rec, state, seat)
                for s in range(3):
                    if s == seat:
                        continue
                    for c in view.unseen:
                        if voids[s] >> suit_of(c) & 1:
                            seen += 1
                            assert s not in view.may_be(c)
    assert seen > 50


def test_a_seat_out_of_range_is_an_error() -> None:
    record = EXAMPLES[0]
    with pytest.raises(ValueError, match="seat 3"):
        view_of(record, record.state(), 3)


def test_below_draws_what_the_bytes_of_the_generator_give() -> None:
    # the layouts a seed deals stay those it dealt with rng.bytes (the players' cards and the advice's odds too)
    from calasolve.play.knowledge import _below

    def by_bytes(rng: object, n: int) -> int:
        k = n.bit_length()
        nbytes = (k + 7) // 8
        while True:
            r = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - k)  # type: ignore[attr-defined]
            if r < n:
                return r

    for seed in range(40):
        a, b = rng_for(seed, 1), rng_for(seed, 1)
        for n in (1, 2, 3, 255, 256, 257, 70_000, 2**31 + 5, 2**40 - 3, 10**15, 2**63 + 1):
            assert _below(a, n) == by_bytes(b, n)


def test_rng_for_is_default_rng_of_the_seed_and_streams() -> None:
    import numpy as np
    for seed, stream in ((0, ()), (1, (3,)), (2**40 + 7, (5, 9)), (2**63 - 1, (0, 1, 2))):
        ours = rng_for(seed, *stream)
        theirs = np.random.default_rng([seed & 0xFFFFFFFF, seed >> 32, *stream])
        assert ours.bytes(64) == theirs.bytes(64)


def test_a_views_may_masks_are_its_unseen_cards_by_place() -> None:
    for record in EXAMPLES:
        if record.needs_exchange:
            continue
        for cards in (0, 7, 20):
            rec = played_out(record, cards)
            state = rec.state()
            for seat in range(3):
                view = view_of(rec, state, seat)
                for p in (0, 1, 2, MONTE):
                    assert view.may_masks[p] == mask_of(c for c, bits in view.unseen.items() if bits >> p & 1)
