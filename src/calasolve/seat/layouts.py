"""Deals consistent with what one seat saw, weighted by the chance of the calls it heard.

:func:`view_layouts` deals the cards a :class:`~calasolve.types.view.View`'s seat has not seen
uniformly among the layouts that fit everything it saw (its hand, the monte if it saw it, the
called card's seat, the takes, the cards played and the voids they showed), fills in what the
other seats did unseen (a soloist's discards, a defender's takes and discards), and weights
each deal by the bidding model's chance of the other seats' calls (:mod:`.bidding`).
:func:`posterior_layouts` keeps each deal with that chance, so the deals it returns are drawn
from the model's posterior and count equally.

Before the first lead the deal as dealt is drawn (the seat's own decisions are still to come);
in the play the hands at the first lead are, as the card players do (docs/play.md), and the
exchange that led there is rebuilt: which of the soloist's cards were the monte, which
cards a defender took, are drawn uniformly among those that fit.  Those choices change no
card of the play, only the hands the bidding model reads.

>>> from calasolve.game.cards import parse_hand
>>> from calasolve.types.view import View
>>> view = View(2, parse_hand("2AC7.R7.R4.RC76"), calls=("solo", "pass"))
>>> layouts = view_layouts(view, 3, seed=1)
>>> [l.hands[2] == view.hand for l in layouts], game_state(view, layouts[0]).current_player
([True, True, True], 2)
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..advice.learned_exchange import learned_defender_discards, soloist_leaving_chance
from ..env.actions import PASS, bid_action, split_action
from ..env.game import GameState
from ..game.cards import FULL_DECK, Card, Mask, bit, cards_of, popcount, suit_of
from ..game.errors import CalasolveError, InternalError, ParameterError
from ..game.exchange import Exchange
from ..game.limits import MAX_SAMPLES, check_int
from ..game.sampling import rng_for
from ..game.state import defender_seats, trick_winner
from ..play.knowledge import MONTE as PLACE_MONTE
from ..play.knowledge import SeatView, deal_layout, layout_count
from ..types.seat import Layout
from ..types.view import MONTE, View, first_lead_places
from .bidding import BiddingModel

__all__ = ["MAX_PROPOSALS", "exchange_chance", "game_state", "played_by", "posterior_layouts", "view_layouts"]

#: :func:`posterior_layouts` draws at most this many deals per deal it keeps.
MAX_PROPOSALS = 40

Hidden = Callable[[GameState], int]


def played_by(view: View) -> tuple[list[Mask], list[int]]:
    """The cards each seat has played in ``view`` and the suits (bit per suit) each has shown it lacks."""
    by = [0, 0, 0]
    voids = [0, 0, 0]
    leader = view.first_leader
    trick: list[Card] = []
    for card in view.played:
        assert leader is not None
        seat = (leader + len(trick)) % 3
        by[seat] |= bit(card)
        if trick and suit_of(card) != suit_of(trick[0]):
            voids[seat] |= 1 << suit_of(trick[0])
        trick.append(card)
        if len(trick) == 3:
            leader, trick = trick_winner(trick, leader), []
    return by, voids


def _in_play(view: View) -> tuple[SeatView, list[Mask]] | None:
    """The seat's knowledge now, for the layouts of the unseen cards (None before the first lead)."""
    places = first_lead_places(view)
    if places is None or view.first_leader is None:
        return None
    own, known_monte, allowed, _ = places  # the room: the sizes below say it once the played cards are out
    by, voids = played_by(view)
    seat = view.seat
    placed = [0, 0, 0, known_monte]
    placed[seat] = own & ~by[seat]
    played = by[0] | by[1] | by[2]
    unseen: dict[Card, int] = {}
    for card, where in allowed.items():
        if played >> card & 1:
            continue
        unseen[card] = where & ~sum(1 << s for s in range(3) if voids[s] >> suit_of(card) & 1)
    sizes = [12 - popcount(by[s]) for s in range(3)] + [4]
    sizes[seat] = popcount(placed[seat])
    sv = SeatView(seat, (placed[0], placed[1], placed[2], placed[3]), unseen, (sizes[0], sizes[1], sizes[2], sizes[3]),
                  (voids[0], voids[1], voids[2]))
    return sv, by


def _before_play(view: View) -> SeatView:
    """The seat's knowledge of the deal as dealt, before the first lead."""
    seat, ex = view.seat, view.exchange
    known_monte = view.monte or 0
    if view.contract == "dividete" and ex.takes is not None and view.soloist != seat:
        known_monte |= ex.takes[seat]
    placed = [0, 0, 0, known_monte]
    placed[seat] = view.hand
    others = sum(1 << p for p in (0, 1, 2, PLACE_MONTE) if p != seat and not (p == PLACE_MONTE and popcount(known_monte) == 4))
    unseen = {c: others for c in cards_of(FULL_DECK & ~view.hand & ~known_monte)}
    if ex.call is not None and view.call_from is not None and ex.call in unseen:
        unseen[ex.call] = 1 << (PLACE_MONTE if view.call_from == MONTE else int(view.call_from))
    return SeatView(seat, (placed[0], placed[1], placed[2], placed[3]), unseen, (12, 12, 12, 4), (0, 0, 0))


def _pick(rng: np.random.Generator, mask: Mask, n: int) -> Mask:
    cards = list(cards_of(mask))
    if n > len(cards):
        raise InternalError(f"picking {n} of {len(cards)} cards")
    return sum(bit(cards[i]) for i in rng.choice(len(cards), size=n, replace=False)) if n else 0


def _rebuilt(view: View, first: Sequence[Mask], new_monte: Mask, rng: np.random.Generator
             ) -> tuple[tuple[Mask, Mask, Mask], Mask, Exchange]:
    """A deal as dealt and its exchange that lead to the hands ``first`` and ``new_monte`` at the first lead."""
    contract, sol, ex, seat = view.contract, view.soloist, view.exchange, view.seat
    assert contract is not None and sol is not None
    dealt = list(first)
    if contract == "solissimo":
        return (dealt[0], dealt[1], dealt[2]), new_monte, Exchange()
    if contract in ("solo", "chiamo"):
        pool = first[sol] | new_monte
        call, src, ret = ex.call, view.call_from, ex.returned
        handed = contract == "chiamo" and src is not None and src != MONTE
        if handed:
            assert call is not None and ret is not None
            dealt[int(src)] = first[int(src)] & ~bit(ret) | bit(call)  # type: ignore[arg-type]
            pool = pool & ~bit(call) | bit(ret)
        if seat == sol:
            assert view.monte is not None
            monte = view.monte
        elif contract == "chiamo" and src == MONTE:
            assert call is not None
            monte = bit(call) | _pick(rng, pool & ~bit(call), 3)
        else:
            monte = _pick(rng, pool, 4)
        dealt[sol] = pool & ~monte
        discards = tuple(new_monte if s == sol else 0 for s in range(3))
        return ((dealt[0], dealt[1], dealt[2]), monte,
                Exchange(call=call, returned=ret if handed else None, discards=discards))  # type: ignore[arg-type]
    defenders = defender_seats(sol)
    takes = [0, 0, 0]
    disc = [0, 0, 0]
    if seat != sol:
        assert ex.discards is not None and ex.takes is not None
        other = 3 - seat - sol
        disc[seat], disc[other] = ex.discards[seat], new_monte & ~ex.discards[seat]
        takes[seat] = ex.takes[seat]
        takes[other] = ex.takes[other] if contract == "scegliete" else _pick(rng, first[other] | disc[other], 2)
    elif contract == "dividete":
        disc[defenders[0]] = _pick(rng, new_monte, 2)
        disc[defenders[1]] = new_monte & ~disc[defenders[0]]
        for d in defenders:
            takes[d] = _pick(rng, first[d] | disc[d], 2)
    else:
        assert ex.takes is not None
        takes = list(ex.takes)
        free = new_monte & ~(takes[0] | takes[1] | takes[2])
        a, b = defenders
        disc[a] = takes[a] & new_monte
        disc[a] |= _pick(rng, free, popcount(takes[a]) - popcount(disc[a]))
        disc[b] = new_monte & ~disc[a]
    for d in defenders:
        dealt[d] = first[d] | disc[d]
        dealt[d] &= ~takes[d]
    monte = takes[0] | takes[1] | takes[2]
    return ((dealt[0], dealt[1], dealt[2]), monte,
            Exchange(takes=(takes[0], takes[1], takes[2]), discards=(disc[0], disc[1], disc[2])))


def exchange_chance(view: View, hands: Sequence[Mask], monte: Mask, ex: Exchange, temperature: float = 1.0) -> float:
    """The chance the ``learned`` soloist policy gives the discards (and the card given back) of a deal rebuilt
    for ``view`` (:func:`~calasolve.advice.learned_exchange.soloist_leaving_chance`), where the seat did not see
    them (a defender in chiamo or solo); 1 elsewhere."""
    contract, sol = view.contract, view.soloist
    if contract not in ("chiamo", "solo") or sol is None or sol == view.seat or ex.discards is None:
        return 1.0
    handed = contract == "chiamo" and ex.returned is not None
    mine = hands[sol] | monte | (bit(ex.call) if handed and ex.call is not None else 0)
    leaving = ex.discards[sol] | (bit(ex.returned) if handed and ex.returned is not None else 0)
    return soloist_leaving_chance(mine, monte, ex.call if contract == "chiamo" else None, handed, contract,
                                  view.first_leader == sol, leaving, temperature)


def _from_exchange(ex: Exchange) -> Hidden:
    """The unseen exchange actions of a rebuilt deal."""
    def act(g: GameState) -> int:
        phase, seat = g.phase, g.current_player
        if phase == "draw":  # chance gives the first defender its two cards, lowest first
            assert ex.takes is not None
            first = defender_seats(g.soloist or 0)[0]
            return min(cards_of(ex.takes[first] & ~g.takes[first]))
        if phase == "split":
            assert ex.takes is not None
            return split_action(g.monte, ex.takes[seat])
        if phase == "discard":
            assert ex.discards is not None
            return min(cards_of(ex.discards[seat] & ~g.discards[seat]))
        raise InternalError(f"no hidden action for the {phase} phase")
    return act


def _learned_hidden(g: GameState) -> int:
    """An unseen defender's discards before the seat's own decision: the learned policy's."""
    seat, soloist, contract = g.current_player, g.soloist, g.contract
    if g.phase != "discard" or soloist is None or contract is None or seat == soloist:
        raise InternalError(f"no unseen action in the {g.phase} phase for seat {seat}")
    partner = 3 - seat - soloist
    mine = g.hands[seat] | g.discards[seat]
    seen = g.takes[partner] if contract == "scegliete" else 0
    planned = learned_defender_discards(mine, g.takes[seat], seen, contract, seat, soloist)
    return min(cards_of(planned & ~g.discards[seat]))


def _replay(view: View, hands: Sequence[Mask], hidden: Hidden) -> GameState:
    """The game from the deal ``hands`` to the view's point: what the seat saw, and ``hidden`` for the rest."""
    g = GameState(view.rules)
    for s in range(3):
        for c in cards_of(hands[s]):
            g.apply(c)
    for call in view.calls:
        g.apply(PASS if call == "pass" else bid_action(call))
    seat, ex = view.seat, view.exchange
    while g.phase not in ("play", "over"):
        phase, actor = g.phase, g.current_player
        if phase == "auction":
            break  # the calls still to come
        if phase == "declare":
            if view.to_declare:
                break  # keeping or aggravating is the soloist's decision, still to come
            g.apply(bid_action(view.contract or "solissimo"))
        elif phase == "call":
            if ex.call is None:
                break
            g.apply(ex.call)
        elif phase == "return":
            if ex.returned is None:
                break
            g.apply(ex.returned)
        elif phase == "split":
            if ex.takes is None:
                break  # the first defender's split, still to come
            else:
                g.apply(split_action(g.monte, ex.takes[actor]))
        elif phase == "draw":
            first = defender_seats(g.soloist or 0)[0]
            mine = ex.takes[seat] if ex.takes is not None and seat != g.soloist else 0
            takes = mine if seat == first else g.monte & ~mine if mine else 0
            g.apply(min(cards_of(takes & ~g.takes[first])) if takes else hidden(g))
        else:  # discard
            known = ex.discards[actor] if ex.discards is not None and actor == seat else 0
            if known:
                g.apply(min(cards_of(known & ~g.discards[actor])))
            elif actor == seat:
                break
            else:
                g.apply(hidden(g))
    for card in view.played:
        g.apply(card)
    return g


def game_state(view: View, layout: Layout) -> GameState:
    """The game of ``layout`` at ``view``'s point (the seat's decision next)."""
    g = GameState(view.rules)
    for action in (*cards_of(layout.hands[0]), *cards_of(layout.hands[1]), *cards_of(layout.hands[2]), *layout.actions):
        g.apply(action)
    return g


def _declared(view: View) -> str | None:
    """The declaration after a won solissimo that the seat heard (None: none, or its own)."""
    if view.rules.aggravations != "declared" or not view.calls or view.calls[-1] != "solissimo" or view.to_declare:
        return None
    return view.contract if view.soloist != view.seat else None


def _weight(view: View, hands: Sequence[Mask], model: BiddingModel) -> float:
    """The bidding model's chance of the other seats' calls (and declaration) with ``hands``."""
    declared = _declared(view)
    w = 1.0
    for s in range(3):
        if s != view.seat:
            w *= model.calls_chance(hands[s], s, view.calls, view.rules, declared if s == view.soloist else None)
    return w


def _most_weight(view: View, model: BiddingModel) -> float:
    """The most :func:`_weight` any deal can have: kept with ``weight / most``, deals are still drawn exactly."""
    declared = _declared(view)
    w = 1.0
    for s in range(3):
        if s != view.seat:
            w *= model.most_chance(s, view.calls, view.rules, declared if s == view.soloist else None)
    return w


def _deal(view: View, sv: SeatView, play: tuple[SeatView, list[Mask]] | None, rng: np.random.Generator
          ) -> tuple[tuple[Mask, Mask, Mask], Mask, Hidden]:
    """One deal as dealt that fits the view, and what fills in the actions the seat did not see."""
    hands, monte = deal_layout(sv, rng)
    if play is None:
        return hands, monte, _learned_hidden
    first = [hands[s] | play[1][s] for s in range(3)]
    dealt, monte, ex = _rebuilt(view, first, monte, rng)
    return dealt, monte, _from_exchange(ex)


def _layout(view: View, dealt: tuple[Mask, Mask, Mask], monte: Mask, hidden: Hidden, weight: float) -> Layout:
    g = _replay(view, dealt, hidden)
    if g.monte != monte:
        raise InternalError("a rebuilt deal's monte differs from the layout's")
    return Layout(dealt, monte, tuple(g.history[36:]), weight)


def _knowledge(view: View) -> tuple[SeatView, tuple[SeatView, list[Mask]] | None]:
    play = _in_play(view)
    sv = play[0] if play is not None else _before_play(view)
    if layout_count(sv) == 0:
        raise CalasolveError(f"{view.where()}: no deal fits seat {view.seat}'s view")
    return sv, play


def view_layouts(view: View, count: int, seed: int = 0, model: BiddingModel | None = None) -> list[Layout]:
    """``count`` deals consistent with ``view``, drawn uniformly among those that fit what the seat saw, each
    weighted by ``model``'s chance of the other seats' calls (the agents' softened rule by default)."""
    check_int("count", count, 1, MAX_SAMPLES)
    model = model or BiddingModel()
    sv, play = _knowledge(view)
    out = []
    for i in range(count):
        dealt, monte, hidden = _deal(view, sv, play, rng_for(seed, i))
        out.append(_layout(view, dealt, monte, hidden, _weight(view, dealt, model)))
    return out


def posterior_layouts(view: View, count: int, seed: int = 0, model: BiddingModel | None = None,
                      proposals: int = MAX_PROPOSALS) -> tuple[list[Layout], int, int]:
    """``count`` deals drawn from the bidding model's posterior for ``view``: consistent deals kept each with
    the chance of the calls heard, over the most any deal gives them (so they count equally), and how many
    were drawn, and how many of them were resampled: after ``proposals``
    draws per deal wanted, the rest are drawn among those seen in proportion to their weights (calls the
    model finds unlikely)."""
    check_int("count", count, 1, MAX_SAMPLES)
    check_int("proposals", proposals, 1, 100_000)
    model = model or BiddingModel()
    sv, play = _knowledge(view)
    kept: list[Layout] = []
    seen: list[tuple[tuple[Mask, Mask, Mask], Mask, Hidden, float]] = []
    most = _most_weight(view, model)
    i = 0
    while len(kept) < count and i < count * proposals:
        rng = rng_for(seed, i)
        dealt, monte, hidden = _deal(view, sv, play, rng)
        weight = _weight(view, dealt, model)
        seen.append((dealt, monte, hidden, weight))
        if rng.random() * most < weight:
            kept.append(_layout(view, dealt, monte, hidden, 1.0))
        i += 1
    resampled = count - len(kept)
    if resampled:
        weights = np.array([x[3] for x in seen])
        if not weights.sum() > 0:
            raise CalasolveError(f"{view.where()}: the bidding model gives the calls heard no chance on "
                                 f"{len(seen)} deals that fit the view")
        rng = rng_for(seed, i)
        for j in rng.choice(len(seen), size=count - len(kept), p=weights / weights.sum()):
            dealt, monte, hidden, _ = seen[int(j)]
            kept.append(_layout(view, dealt, monte, hidden, 1.0))
    if len(kept) != count:
        raise ParameterError("count", count, "could not be met")
    return kept, i, resampled
