"""What one seat of a game in progress knows, as a :class:`~calasolve.types.view.View`.

:func:`state_view` reads a :class:`~calasolve.env.game.GameState` the way the seat saw it, and
:func:`information_state_view` reads the same from the seat's information-state tensor alone
(OpenSpiel's ``information_state_tensor``, :func:`calasolve.env.observe.information_state_tensor`): its hand
as dealt, the calls, the monte when it saw it, the exchange as it saw it (its own takes and
discards, the call and the card given back that everyone sees), the cards played.  A seat in the
middle of its own discards sees them as not yet made (its decision is the whole set).

>>> from calasolve.env.actions import PASS, bid_action
>>> from calasolve.game.sampling import rng_for
>>> g = GameState(); g.sample_chance(rng_for(1, 0))
>>> for a in (PASS, bid_action("solo"), PASS): g.apply(a)
>>> v = state_view(g, 1)
>>> v.contract, v.soloist, v.monte == g.monte, state_view(g, 0).monte
('solo', 1, True, None)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..env.game import MONTE as GAME_MONTE
from ..env.game import PHASES, GameState
from ..env.observe import INFORMATION_STATE_SIZE, MAX_CALLS, OBSERVATION_SIZE, tensor_slices
from ..game.cards import NUM_CARDS, Mask, popcount
from ..game.errors import CalasolveError, ParameterError
from ..game.exchange import Exchange
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract
from ..types.view import MONTE, View, seat_only

__all__ = ["information_state_view", "state_view"]


def _seen_exchange(g: GameState, seat: int) -> tuple[int | None, Exchange]:
    """The monte if ``seat`` saw it, and the exchange as it saw it."""
    contract, soloist = g.contract, g.soloist
    if contract is None or soloist is None:
        return None, Exchange()
    if contract in ("chiamo", "solo"):
        took = contract == "solo" or g.call is not None
        monte = g.monte if seat == soloist and took else None
        discards = seat_only(g.discards, seat) if seat == soloist and popcount(g.discards[seat]) == 4 else None
        return monte, Exchange(call=g.call, returned=g.returned, discards=discards)
    if contract == "solissimo" or g.phase in ("draw", "split"):
        return (g.monte if contract == "scegliete" else None), Exchange()
    takes = list(g.takes) if contract == "scegliete" else list(seat_only(g.takes, seat)) if seat != soloist else None
    done = seat != soloist and (g.phase != "discard" or seat not in g.discarders)
    discards = seat_only(g.discards, seat) if done else None
    return (g.monte if contract == "scegliete" else None), Exchange(
        takes=None if takes is None else (takes[0], takes[1], takes[2]), discards=discards)


def state_view(g: GameState, seat: int) -> View:
    """What ``seat`` knows at ``g`` (after the deal)."""
    if g.phase == "deal":
        raise CalasolveError("the cards are still being dealt: no seat has a view yet")
    monte, exchange = _seen_exchange(g, seat)
    call_from = None
    if g.call is not None:
        call_from = MONTE if g.call_from == GAME_MONTE else g.call_from
    return View(seat=seat, hand=g.dealt[seat], monte=monte, calls=tuple(c for _, c in g.auction.calls),
                contract=g.contract, soloist=g.soloist if g.contract is not None else None, exchange=exchange,
                call_from=call_from, played=tuple(g.play.history) if g.play is not None else (), rules=g.rules)


def _mask(bits: np.ndarray) -> Mask:
    """The cards whose entries are set."""
    return sum(1 << int(c) for c in np.flatnonzero(bits > 0.5))


def _one(bits: np.ndarray) -> int | None:
    """The index of a one-hot slice, None when nothing is set."""
    hot = np.flatnonzero(bits > 0.5)
    return int(hot[0]) if len(hot) else None


def information_state_view(tensor: Sequence[float] | np.ndarray, rules: Rules = STANDARD) -> View:
    """The :class:`View` of the seat whose information-state tensor this is (the same as :func:`state_view`
    of the game it came from); ``rules`` are the game's, which the tensor does not hold.

    >>> from calasolve.env.actions import PASS, bid_action
    >>> from calasolve.env.observe import information_state_tensor
    >>> from calasolve.game.sampling import rng_for
    >>> g = GameState(); g.sample_chance(rng_for(1, 0))
    >>> for a in (PASS, bid_action("solo"), PASS): g.apply(a)
    >>> information_state_view(information_state_tensor(g, 1)) == state_view(g, 1)
    True
    """
    x = np.asarray(tensor, dtype=np.float32).ravel()
    if x.size == OBSERVATION_SIZE:
        raise ParameterError("observation", f"{x.size} values", "the observation does not say in which order the cards "
                             "were played; give the information state (OpenSpiel's information_state_tensor, or "
                             "PettingZoo's env(observation='information_state'))")
    if x.size != INFORMATION_STATE_SIZE:
        raise ParameterError("information state", f"{x.size} values", f"needs {INFORMATION_STATE_SIZE}")
    t = tensor_slices(x)
    seat, phase = _one(t["seat"]), _one(t["phase"])
    if seat is None or phase is None or PHASES[phase] == "deal":
        raise ParameterError("information state", "no seat or phase", "not a seat's information state after the deal")

    def absolute(rel: int | None) -> int | None:
        return None if rel is None else (seat + rel) % 3

    calls = []
    for i in range(MAX_CALLS):
        call = _one(t["calls"][i * 9 + 3:(i + 1) * 9])
        if call is not None:
            calls.append("pass" if call == 0 else CONTRACTS[call - 1])
    named = _one(t["contract"])
    contract: Contract | None = None if named is None or PHASES[phase] == "declare" else CONTRACTS[named]
    soloist = absolute(_one(t["soloist"])) if contract is not None else None
    call, source = _one(t["called"]), _one(t["called_from"])
    call_from: int | str | None = None if call is None or source is None else MONTE if source == 3 else absolute(source)
    takes = [_mask(t["takes"][((s - seat) % 3) * NUM_CARDS:((s - seat) % 3 + 1) * NUM_CARDS]) for s in range(3)]
    monte = _mask(t["monte_seen"]) or None
    exchange = _exchange(PHASES[phase], contract, soloist, seat, call, _one(t["returned"]), takes,
                         _mask(t["discards"]))
    plays = t["plays"].reshape(-1, NUM_CARDS)
    played = tuple(int(np.flatnonzero(row > 0.5)[0]) for row in plays if row.max() > 0.5)
    return View(seat=seat, hand=_mask(t["dealt"]), monte=monte, calls=tuple(calls), contract=contract,
                soloist=soloist, exchange=exchange, call_from=call_from, played=played, rules=rules)


def _exchange(phase: str, contract: Contract | None, soloist: int | None, seat: int, call: int | None,
              returned: int | None, takes: list[Mask], discards: Mask) -> Exchange:
    """The exchange as :func:`_seen_exchange` gives it, from the tensor's call, return, takes and own discards."""
    if contract is None or soloist is None or contract == "solissimo" or phase in ("draw", "split"):
        return Exchange()
    own = [0, 0, 0]
    own[seat] = discards
    if contract in ("chiamo", "solo"):
        done = seat == soloist and popcount(discards) == 4
        return Exchange(call=call, returned=returned, discards=(own[0], own[1], own[2]) if done else None)
    seen = None if contract == "dividete" and seat == soloist else (takes[0], takes[1], takes[2])
    done = seat != soloist and (phase != "discard" or popcount(discards) == popcount(takes[seat]))
    return Exchange(takes=seen, discards=(own[0], own[1], own[2]) if done else None)
