"""What each seat knows after each contract's exchange, checked against the rules, not the code.

The model here is written from docs/rules.md §5 alone.  :func:`observation`
is everything a seat has seen (its own hand, the public part of the
exchange, its own part of it, the cards played); :func:`world` rebuilds, from
a layout of the cards still out, a whole deal (hands as dealt, monte,
exchange) that the seat could not tell from the real one.  A layout that
:mod:`calasolve.play.knowledge` deals is right when such a deal exists, is
legal (the record checks and the play replays: voids hold) and gives the seat
the same observation; the true layout must always be possible; and on small
endings every possible layout (found by brute force) is dealt, uniformly.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from cli_run import run

from calasolve.game.cards import FULL_DECK, Mask, cards_of, mask_of, popcount
from calasolve.game.errors import CalasolveError
from calasolve.game.exchange import Exchange
from calasolve.game.sampling import rng_for
from calasolve.game.state import PlayState, defender_seats
from calasolve.play.knowledge import MONTE, deal_layout, layout_count, view_of
from calasolve.play.factory import make_player
from calasolve.play.players import play_out
from calasolve.types.record import Record
from calasolve.records.dealfile import parse_deal_text

# -- the model: docs/rules.md §5 ---------------------------------------------------


def holder(record: Record, card: int) -> int | None:
    """The seat dealt ``card``, or None for the monte."""
    return next((s for s in range(3) if record.hands[s] >> card & 1), None)


def observation(record: Record, seat: int) -> tuple[Any, ...]:
    """Everything ``seat`` has seen of ``record``'s deal."""
    ex, soloist, contract = record.exchange, record.soloist, record.contract
    seen: list[Any] = [contract, soloist, record.first_leader, record.rules, record.hands[seat], record.played]
    if contract == "chiamo":  # the call, who handed it over and the card given back are public
        seen += [ex.call, holder(record, ex.call), ex.returned]  # type: ignore[arg-type]
    if contract in ("solo", "chiamo") and seat == soloist:  # the soloist took the monte and discarded
        seen += [record.monte, ex.discards]
    if contract == "scegliete":  # the monte face up, and who took what
        seen += [record.monte, ex.takes]
    if contract in ("dividete", "scegliete") and seat != soloist:  # a defender's own blind pair and discards
        assert ex.takes is not None and ex.discards is not None
        seen += [ex.takes[seat], ex.discards[seat]]
    return tuple(seen)


def played_by(state: PlayState) -> list[Mask]:
    """The cards each seat has played."""
    out = [0, 0, 0]
    tricks = [(t.leader, t.cards) for t in state.tricks] + [(state.leader, tuple(state.trick))]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            out[(leader + i) % 3] |= 1 << card
    return out


def lowest(mask: Mask, n: int) -> Mask:
    return mask_of(list(cards_of(mask))[:n])


def world(record: Record, seat: int, hands: tuple[Mask, Mask, Mask], monte: Mask) -> Record | None:
    """A legal deal that ``seat`` cannot tell from ``record``'s and that reaches this layout, or None."""
    played = played_by(record.state())
    post = [hands[s] | played[s] for s in range(3)]  # the hands after the exchange
    ex, soloist, contract = record.exchange, record.soloist, record.contract
    orig, new_ex, dealt_monte = list(post), Exchange(), monte
    if contract in ("solo", "chiamo"):
        pool = post[soloist] | monte  # the soloist's 16 cards before discarding
        call, returned = ex.call, ex.returned
        source = holder(record, call) if contract == "chiamo" and call is not None else None
        if source is not None:
            assert returned is not None and call is not None
            if not post[source] >> returned & 1 or not pool >> call & 1:
                return None
            orig[source] = post[source] & ~(1 << returned) | 1 << call
            pool = pool & ~(1 << call) | 1 << returned
        if seat == soloist:
            orig[soloist], dealt_monte = record.hands[soloist], record.monte
            if orig[soloist] | dealt_monte != pool:
                return None
        elif contract == "chiamo" and source is None:  # the call was in the monte
            assert call is not None
            if not pool >> call & 1:
                return None
            dealt_monte = 1 << call | lowest(pool & ~(1 << call), 3)
            orig[soloist] = pool & ~dealt_monte
        else:
            dealt_monte = lowest(pool, 4)
            orig[soloist] = pool & ~dealt_monte
        new_ex = Exchange(call=call, returned=returned if source is not None else None,
                          discards=tuple(monte if s == soloist else 0 for s in range(3)))  # type: ignore[arg-type]
    elif contract in ("dividete", "scegliete"):
        assert ex.takes is not None and ex.discards is not None
        takes, discards = list(ex.takes), [0, 0, 0]
        defenders = defender_seats(soloist)
        if seat != soloist:
            discards[seat] = ex.discards[seat]
        if discards[seat] & ~monte:
            return None
        rest = monte & ~discards[seat]
        for d in defenders:
            if d == seat:
                continue
            forced = takes[d] & rest if contract == "scegliete" else 0
            others = [e for e in defenders if e != d and e != seat]
            free = rest & ~forced & ~(takes[others[0]] if others and contract == "scegliete" else 0)
            need = popcount(ex.discards[d]) - popcount(forced)
            if need < 0 or popcount(free) < need:
                return None
            discards[d] = forced | lowest(free, need)
            rest &= ~discards[d]
            if contract == "dividete":  # the other pair was taken blind: any two cards it then held
                takes[d] = discards[d]
        if rest:
            return None
        for d in defenders:
            if takes[d] & ~(post[d] | discards[d]):
                return None
            orig[d] = (post[d] | discards[d]) & ~takes[d]
        dealt_monte = takes[0] | takes[1] | takes[2]
        new_ex = Exchange(takes=(takes[0], takes[1], takes[2]), discards=(discards[0], discards[1], discards[2]))
    try:
        out = record.with_(hands=(orig[0], orig[1], orig[2]), monte=dealt_monte, exchange=new_ex)
        state = out.state()
    except CalasolveError:  # an illegal deal or exchange, or a play that no longer follows suit
        return None
    assert (tuple(state.hands), state.monte) == (hands, monte)
    return out


def possible(record: Record, seat: int, hands: tuple[Mask, Mask, Mask], monte: Mask) -> bool:
    found = world(record, seat, hands, monte)
    return found is not None and observation(found, seat) == observation(record, seat)


# -- generated records --------------------------------------------------------------

CHIAMO_CASES = ("handed over, discarded", "handed over, kept", "in the monte, discarded", "in the monte, kept")


def chiamo_record(rng: np.random.Generator, case: str) -> Record:
    """A random chiamo whose called card ends as ``case`` says."""
    deck = rng.permutation(40)
    hands = tuple(mask_of(int(c) for c in deck[12 * s:12 * s + 12]) for s in range(3))
    monte = mask_of(int(c) for c in deck[36:])
    soloist = int(rng.integers(3))
    handed = case.startswith("handed")
    source = int(rng.choice(defender_seats(soloist)))
    call = int(rng.choice(list(cards_of(hands[source] if handed else monte))))
    pool = hands[soloist] | monte | 1 << call
    returned = None
    if handed:
        returned = int(rng.choice([c for c in cards_of(pool) if c != call]))
        pool &= ~(1 << returned)
    others = [c for c in cards_of(pool) if c != call]
    chosen = [int(c) for c in rng.choice(others, 3 if case.endswith("discarded") else 4, replace=False)]
    discards = mask_of(chosen + ([call] if case.endswith("discarded") else []))
    ex = Exchange(call=call, returned=returned, discards=tuple(discards if s == soloist else 0 for s in range(3)))  # type: ignore[arg-type]
    return Record(hands, monte, "chiamo", soloist, exchange=ex)  # type: ignore[arg-type]


def other_record(rng: np.random.Generator, contract: str) -> Record:
    """A random record of a contract other than chiamo, with a random legal exchange."""
    deck = rng.permutation(40)
    hands = [mask_of(int(c) for c in deck[12 * s:12 * s + 12]) for s in range(3)]
    monte = mask_of(int(c) for c in deck[36:])
    soloist = int(rng.integers(3))
    ex = Exchange()
    if contract == "solo":
        pool = list(cards_of(hands[soloist] | monte))
        ex = Exchange(discards=tuple(mask_of(int(c) for c in rng.choice(pool, 4, replace=False)) if s == soloist else 0
                                     for s in range(3)))  # type: ignore[arg-type]
    elif contract in ("dividete", "scegliete"):
        cards = [int(c) for c in rng.permutation(list(cards_of(monte)))]
        d1, d2 = defender_seats(soloist)
        split = 2 if contract == "dividete" else int(rng.integers(5))
        takes, discards = [0, 0, 0], [0, 0, 0]
        takes[d1], takes[d2] = mask_of(cards[:split]), mask_of(cards[split:])
        for d in (d1, d2):
            pool = list(cards_of(hands[d] | takes[d]))
            discards[d] = mask_of(int(c) for c in rng.choice(pool, popcount(takes[d]), replace=False)) if takes[d] else 0
        ex = Exchange(takes=tuple(takes), discards=tuple(discards))  # type: ignore[arg-type]
    return Record((hands[0], hands[1], hands[2]), monte, contract, soloist, exchange=ex)  # type: ignore[arg-type]


def random_play(record: Record, rng: np.random.Generator, cards: int) -> Record:
    """``record`` with ``cards`` random legal cards played (random play shows voids often)."""
    state = record.state()
    for _ in range(cards):
        state.play(int(rng.choice(list(cards_of(state.legal())))))
    return record.with_(played=tuple(state.history))


def check_views(record: Record, rng: np.random.Generator, draws: int) -> None:
    state = record.state()
    for seat in range(3):
        view = view_of(record, state, seat)
        true = (tuple(state.hands), state.monte)
        assert possible(record, seat, *true)  # the model accepts the truth ...
        for card in view.unseen:  # ... and so does the view
            where = next((s for s in range(3) if state.hands[s] >> card & 1), MONTE)
            assert where in view.may_be(card), (record, seat, card)
        for place in range(4):
            held = state.monte if place == MONTE else state.hands[place]
            assert view.placed[place] & ~held == 0
        for _ in range(draws):
            hands, monte = deal_layout(view, rng)
            assert possible(record, seat, hands, monte), (record, seat, hands, monte)


# -- the tests ----------------------------------------------------------------------

@pytest.mark.parametrize("case", CHIAMO_CASES)
def test_chiamo_layouts_fit_what_each_seat_saw(case: str) -> None:
    rng = rng_for(32, CHIAMO_CASES.index(case))
    for i in range(12):
        record = random_play(chiamo_record(rng, case), rng, cards=int(rng.integers(0, 36)))
        check_views(record, rng, draws=15)


@pytest.mark.parametrize("contract", ["solo", "solissimo", "dividete", "scegliete"])
def test_other_contracts_layouts_fit_what_each_seat_saw(contract: str) -> None:
    rng = rng_for(33, len(contract))
    for i in range(10):
        record = random_play(other_record(rng, contract), rng, cards=int(rng.integers(0, 36)))
        check_views(record, rng, draws=15)


def brute_force_layouts(record: Record, seat: int) -> set[tuple[tuple[Mask, Mask, Mask], Mask]]:
    """Every layout the model allows ``seat``, by trying every placement of the cards it cannot see."""
    state = record.state()
    out = FULL_DECK & ~mask_of(state.history) & ~state.hands[seat]
    others = [p for p in (0, 1, 2) if p != seat]
    sizes = [popcount(state.hands[p]) for p in others]
    found = set()
    cards = list(cards_of(out))
    for first in combinations(cards, sizes[0]):
        left = [c for c in cards if c not in first]
        for second in combinations(left, sizes[1]):
            monte = mask_of(c for c in left if c not in second)
            hands = [0, 0, 0]
            hands[seat], hands[others[0]], hands[others[1]] = state.hands[seat], mask_of(first), mask_of(second)
            layout = ((hands[0], hands[1], hands[2]), monte)
            if possible(record, seat, *layout):
                found.add(layout)
    return found


@pytest.mark.parametrize("case", [*CHIAMO_CASES, "scegliete", "dividete", "solo"])
def test_small_endings_deal_every_possible_layout_uniformly(case: str) -> None:
    rng = rng_for(34, len(case))
    record = chiamo_record(rng, case) if case in CHIAMO_CASES else other_record(rng, case)
    record = random_play(record, rng, cards=30)
    for seat in range(3):
        allowed = brute_force_layouts(record, seat)
        view = view_of(record, record.state(), seat)
        assert layout_count(view) == len(allowed) > 0
        per = 60
        counts = Counter(deal_layout(view, rng) for _ in range(per * len(allowed)))
        assert set(counts) == allowed
        sd = (per * (1 - 1 / len(allowed))) ** 0.5
        assert all(abs(c - per) < 6 * sd for c in counts.values())


G11 = """
name: g11-0
hands: 76.3F75.2ARC7.R 32AC5.R6.6.2C76 RF4.2AC4.3F.3A5
monte: -.-.54.F4
contract: chiamo
soloist: 2
call: 7B
return: 3C
discards: 3D 4B 7B AS
"""


def test_the_called_card_discarded_can_be_in_the_monte() -> None:
    """Issue #32: handed over and then discarded, the called card is the soloist's or the monte's for a defender."""
    record = parse_deal_text(G11)[0]
    call = record.exchange.call
    assert call is not None
    for seat in (0, 1):
        assert set(view_of(record, record.state(), seat).may_be(call)) == {2, MONTE}
    assert call not in view_of(record, record.state(), 2).unseen  # the soloist knows its discards


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("players", ["pimc,pimc,dd", "pimc,pimc,pimc", "heuristic,pimc,pimc", "pimc,dd,pimc"])
def test_the_record_of_issue_32_plays_out(seed: int, players: str) -> None:
    record = parse_deal_text(G11)[0]
    seated = [make_player(name, samples=6, seed=seed) for name in players.split(",")]
    played = play_out(record, seated).record
    assert len(played.played) == 36
    assert played.state().is_over


def test_calasolve_play_plays_the_record_of_issue_32(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g11.deal"
    path.write_text(G11)
    code, out, err = run(["play", "--players", "pimc,pimc,dd", "--json", "--seed", "1", "--samples", "8", "--jobs", "1",
                          str(path)], capsys)
    assert (code, err) == (0, "") and len(json.loads(out)["played"]) == 36
