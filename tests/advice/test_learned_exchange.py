"""The learned exchange policies: legal exchanges from what the choosing seat sees, the shipped networks,
the policies in the advice, and their training data reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from calasolve.advice.advisor import advise
from calasolve.advice.learned_exchange import (
    DISCARD_INPUTS, SOLOIST_INPUTS, SPLIT_INPUTS, default_networks, discard_features, learned_defender_discards,
    learned_defender_exchange, learned_soloist_exchange, learned_split,
)
from calasolve.advice.policies import best_suit_call, keep_score
from calasolve.game.rules import STANDARD
from calasolve.advice.policies import random_draw
from calasolve.game.cards import popcount, strength
from calasolve.game.errors import CalasolveError
from calasolve.game.sampling import rng_for
from calasolve.game.state import defender_seats
from calasolve.train.exchange import exchange_rows
from calasolve.types.record import Record


def deal(d: int) -> tuple[tuple[int, int, int], int, int]:
    order = rng_for(99, d).permutation(40)
    hands = tuple(sum(1 << int(c) for c in order[12 * s:12 * s + 12]) for s in range(3))
    monte = sum(1 << int(c) for c in order[36:])
    return hands, monte, int(np.argmax([strength(h) for h in hands]))  # type: ignore[return-value]


def test_the_shipped_networks_load() -> None:
    discard, split, soloist = default_networks()
    assert discard.layers[0][0].shape[0] == DISCARD_INPUTS and split.layers[0][0].shape[0] == SPLIT_INPUTS
    assert soloist.layers[0][0].shape[0] == SOLOIST_INPUTS


@pytest.mark.parametrize("contract", ["chiamo", "solo"])
def test_the_learned_soloist_exchange_is_legal_and_returns_as_the_sampled_policy(contract: str) -> None:
    returns = 0
    for d in range(40):
        hands, monte, soloist = deal(d)
        ex = learned_soloist_exchange(hands, monte, contract, soloist, STANDARD)  # type: ignore[arg-type]
        Record(hands=hands, monte=monte, contract=contract, soloist=soloist, exchange=ex)  # validates the exchange
        assert ex.discards is not None and popcount(ex.discards[soloist]) == 4
        if contract == "solo":
            assert ex.call is None and ex.returned is None
            continue
        assert ex.call == best_suit_call(hands[soloist])
        if ex.returned is not None:
            returns += 1
            mine = hands[soloist] | monte | 1 << ex.call
            leaving = ex.discards[soloist] | 1 << ex.returned
            assert not leaving >> ex.call & 1  # the called card stays
            assert keep_score(ex.returned, mine) <= min(keep_score(c, mine) for c in range(40) if leaving >> c & 1)
    assert contract == "solo" or returns > 10


@pytest.mark.parametrize("contract", ["dividete", "scegliete"])
def test_the_learned_exchange_is_legal(contract: str) -> None:
    for d in range(30):
        hands, monte, soloist = deal(d)
        draw = random_draw(monte, soloist, rng_for(d, 7)) if contract == "dividete" else None
        ex = learned_defender_exchange(hands, monte, contract, soloist, draw)  # type: ignore[arg-type]
        Record(hands=hands, monte=monte, contract=contract, soloist=soloist, exchange=ex)  # validates the exchange
        assert ex.takes is not None and ex.discards is not None
        for seat in defender_seats(soloist):
            assert popcount(ex.discards[seat]) == popcount(ex.takes[seat])
            assert ex.discards[seat] & ~(hands[seat] | ex.takes[seat]) == 0


def test_a_defender_decides_from_what_it_sees() -> None:
    hands, monte, soloist = deal(3)
    first, second = defender_seats(soloist)
    # the other hands are not in the input: the same split and discards whatever they hold
    takes = learned_split(hands[first], monte, first, soloist)
    mine = hands[first] | takes
    assert np.array_equal(discard_features(mine, takes, monte & ~takes, "scegliete", popcount(takes), first, soloist),
                          discard_features(mine, takes, monte & ~takes, "scegliete", popcount(takes), first, soloist))
    swapped = list(hands)
    a = next(c for c in range(40) if hands[soloist] >> c & 1)
    b = next(c for c in range(40) if hands[second] >> c & 1)
    swapped[soloist] ^= (1 << a) | (1 << b)
    swapped[second] ^= (1 << a) | (1 << b)
    one = learned_defender_exchange(hands, monte, "scegliete", soloist)
    two = learned_defender_exchange(tuple(swapped), monte, "scegliete", soloist)  # type: ignore[arg-type]
    assert one.takes == two.takes and one.discards[first] == two.discards[first]  # type: ignore[index]
    assert learned_defender_discards(mine, takes, 0, "dividete", first, soloist) & ~mine == 0


def test_bad_calls_are_errors() -> None:
    hands, monte, soloist = deal(1)
    with pytest.raises(CalasolveError, match="only in dividete and scegliete"):
        learned_defender_exchange(hands, monte, "solo", soloist)
    with pytest.raises(CalasolveError, match="drawn"):
        learned_defender_exchange(hands, monte, "dividete", soloist)
    with pytest.raises(CalasolveError, match="only in chiamo and solo"):
        learned_soloist_exchange(hands, monte, "dividete", soloist, STANDARD)


def test_the_advice_takes_the_learned_exchange() -> None:
    advice = advise("32AR.32A.3A.2A5", samples=16, seed=2, jobs=1, contracts=["dividete", "scegliete"], play="dd",
                    defender_policy="learned")
    assert advice.defender_policy == "learned" and {e.contract for e in advice.estimates} == {"dividete", "scegliete"}
    played = advise("32AR.32A.3A.2A5", samples=16, seed=2, jobs=1, contracts=["scegliete"], play_samples=6)
    assert played.played is not None and played.played.defender_policy == "learned"
    soloist = advise("32AR.32A.3A.2A5", samples=16, seed=2, jobs=1, contracts=["chiamo", "solo"], play="dd",
                     policy="learned")
    assert soloist.soloist_policy == "learned" and all(e.samples >= 16 for e in soloist.estimates)


def test_the_exchange_data_is_a_function_of_the_deal() -> None:
    one, two = exchange_rows(5), exchange_rows(5)
    assert all(np.array_equal(a, b) for a, b in zip(one.split + one.discard, two.split + two.discard))
    assert len(one.split[0]) == 1 and one.discard[0].shape[1] == DISCARD_INPUTS
    assert one.soloist[0].shape == (1, SOLOIST_INPUTS) and one.soloist[2].sum() in (4, 5)
    assert len(exchange_rows(4).split[0]) == 0  # dividete: no split
