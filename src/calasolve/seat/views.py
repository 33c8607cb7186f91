"""What one seat of a game in progress knows, as a :class:`~calasolve.types.view.View`.

:func:`state_view` reads a :class:`~calasolve.env.game.GameState` the way the seat saw it: its hand
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

from ..env.game import MONTE as GAME_MONTE
from ..env.game import GameState
from ..game.cards import popcount
from ..game.errors import CalasolveError
from ..game.exchange import Exchange
from ..types.view import MONTE, View, seat_only

__all__ = ["state_view"]


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
