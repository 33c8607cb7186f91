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
from ..game.cards import NUM_CARDS, Mask, mask_of, popcount
from ..game.errors import CalasolveError, ParameterError
from ..game.exchange import Exchange
from ..game.rules import STANDARD, Rules
from ..game.state import CONTRACTS, Contract
from ..types.view import MONTE, View, seat_only

__all__ = ["information_state_view", "state_view"]


def _seen_monte(g: GameState, seat: int) -> int | None:
    """The monte if ``seat`` saw it: chiamo's and solo's soloist once it took it, everyone in scegliete."""
    if g.contract in ("chiamo", "solo"):
        took = g.contract == "solo" or g.call is not None
        return g.monte if seat == g.soloist and took else None
    return g.monte if g.contract == "scegliete" else None


def _seen_exchange(phase: str, contract: Contract | None, soloist: int | None, seat: int, call: int | None,
                   returned: int | None, takes: Sequence[Mask], discards: Mask, finished: bool) -> Exchange:
    """The exchange as ``seat`` saw it: the call and the card given back (everyone sees them), the takes it
    saw (``takes``, all three seats', may hold more), its own ``discards`` once the set is whole (``finished``:
    a defender's set is no longer being made; a soloist's is whole at four)."""
    if contract is None or soloist is None:
        return Exchange()
    own = seat_only((discards, discards, discards), seat)  # its own set at its place, nothing at the others'
    if contract in ("chiamo", "solo"):
        return Exchange(call=call, returned=returned, discards=own if seat == soloist and popcount(discards) == 4 else None)
    if contract == "solissimo" or phase in ("draw", "split"):
        return Exchange()
    seen = (takes[0], takes[1], takes[2]) if contract == "scegliete" else None if seat == soloist else seat_only(takes, seat)
    return Exchange(takes=seen, discards=own if seat != soloist and finished else None)


def state_view(g: GameState, seat: int) -> View:
    """What ``seat`` knows at ``g`` (after the deal)."""
    if g.phase == "deal":
        raise CalasolveError("the cards are still being dealt: no seat has a view yet")
    finished = g.phase != "discard" or seat not in g.discarders
    exchange = _seen_exchange(g.phase, g.contract, g.soloist, seat, g.call, g.returned, g.takes, g.discards[seat],
                              finished)
    call_from = None
    if g.call is not None:
        call_from = MONTE if g.call_from == GAME_MONTE else g.call_from
    return View(seat=seat, hand=g.dealt[seat], monte=_seen_monte(g, seat), calls=tuple(c for _, c in g.auction.calls),
                contract=g.contract, soloist=g.soloist if g.contract is not None else None, exchange=exchange,
                call_from=call_from, played=tuple(g.play.history) if g.play is not None else (), rules=g.rules)


def _mask(bits: np.ndarray) -> Mask:
    """The cards whose entries are set."""
    return mask_of(int(c) for c in np.flatnonzero(bits > 0.5))


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
    discards = _mask(t["discards"])
    finished = PHASES[phase] != "discard" or popcount(discards) == popcount(takes[seat])
    exchange = _seen_exchange(PHASES[phase], contract, soloist, seat, call, _one(t["returned"]), takes, discards,
                              finished)
    plays = t["plays"].reshape(-1, NUM_CARDS)
    played = tuple(int(np.flatnonzero(row > 0.5)[0]) for row in plays if row.max() > 0.5)
    return View(seat=seat, hand=_mask(t["dealt"]), monte=monte, calls=tuple(calls), contract=contract,
                soloist=soloist, exchange=exchange, call_from=call_from, played=played, rules=rules)
