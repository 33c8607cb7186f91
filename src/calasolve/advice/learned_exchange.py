"""The ``learned`` exchange policies: the ``sampled`` policies' choices (:mod:`calasolve.advice.policies`,
:mod:`calasolve.advice.defence`) imitated by small networks over what the choosing seat sees, a
hundred to a thousand times cheaper (docs/play.md, "The learned player").

* **The soloist** (chiamo, solo).  Chiamo's call is the ``sampled`` policy's rule
  (:func:`~calasolve.advice.policies.best_suit_call`).  Input: the soloist's cards (hand, monte and a
  called card handed over), the monte, the called card, the contract, whether a card goes back, whether
  the soloist leads; out, a logit a card: the cards of highest logit leave the hand (4, or 5 with a
  return, never the called card then), and the one of them the static estimate keeps least
  (:func:`~calasolve.advice.policies.keep_score`) is the one returned, as in the ``sampled`` policy.

* **Discards.**  Input: the defender's cards (its hand and its takes), its takes, its partner's
  takes when it saw them (scegliete), the contract, how many it discards, where the soloist sits;
  out, a logit a card: the defender discards its ``n`` cards of highest logit.
* **Scegliete's split.**  The first defender (the one after the soloist) splits the face-up monte
  from its hand: a logit a card, and it takes the monte cards whose logit is above 0.

Dividete's draw is blind, as under every policy.  The weights (``learned_exchange.npz``) ship with
the package and are made by ``python -m calasolve.train --exchange`` (:mod:`calasolve.train.exchange`).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import numpy as np

from ..game.cards import Card, Mask, cards_of, popcount
from ..game.errors import CalasolveError
from ..game.exchange import Exchange, Hands
from ..game.rules import Rules
from ..game.state import Contract, defender_seats, first_leader
from ..play.learned import Network
from .policies import keep_score, soloist_sees

__all__ = [
    "DISCARD_INPUTS", "SOLOIST_INPUTS", "SPLIT_INPUTS", "default_networks", "discard_features",
    "learned_defender_discards", "learned_defender_exchange", "learned_soloist_exchange", "learned_soloist_plan",
    "learned_split", "soloist_features", "soloist_leaving_chance", "split_features",
]

#: Discards: mine, my takes, my partner's takes as seen (40 each), the contract (2), the discards (0-4: 5),
#: the soloist's seat relative to mine (2).
DISCARD_INPUTS = 3 * 40 + 2 + 5 + 2
#: The split: mine and the monte (40 each), the soloist's seat relative to mine (2).
SPLIT_INPUTS = 2 * 40 + 2
#: The soloist: mine, the monte, the called card (40 each), the contract (2), a return due, leading (1 each).
SOLOIST_INPUTS = 3 * 40 + 4
WEIGHTS = "learned_exchange.npz"


def _cards(mask: Mask) -> np.ndarray:
    out = np.zeros(40, dtype=np.float32)
    out[list(cards_of(mask))] = 1
    return out


def discard_features(mine: Mask, takes: Mask, partner_known: Mask, contract: Contract, n: int, seat: int,
                     soloist: int) -> np.ndarray:
    """What a defender discarding sees, as the discard network's input."""
    ctx = np.zeros(9, dtype=np.float32)
    ctx[0 if contract == "dividete" else 1] = 1
    ctx[2 + n] = 1
    ctx[7 + (soloist - seat) % 3 - 1] = 1
    return np.concatenate([_cards(mine), _cards(takes), _cards(partner_known), ctx])


def soloist_features(mine: Mask, monte: Mask, call: Card | None, contract: Contract, returns: bool,
                     leads: bool) -> np.ndarray:
    """What the soloist exchanging sees, as the soloist network's input."""
    ctx = np.array([contract == "chiamo", contract == "solo", returns, leads], dtype=np.float32)
    return np.concatenate([_cards(mine), _cards(monte), _cards(0 if call is None else 1 << call), ctx])


def split_features(mine: Mask, monte: Mask, seat: int, soloist: int) -> np.ndarray:
    """What the defender splitting scegliete's monte sees, as the split network's input."""
    ctx = np.zeros(2, dtype=np.float32)
    ctx[(soloist - seat) % 3 - 1] = 1
    return np.concatenate([_cards(mine), _cards(monte), ctx])


@lru_cache(maxsize=1)
def default_networks() -> tuple[Network, Network, Network]:
    """The defenders' discard and split networks and the soloist's, shipped with the package."""
    with resources.as_file(resources.files(__package__).joinpath(WEIGHTS)) as path:
        with np.load(path) as data:
            weights = {k: data[k] for k in data.files}
        nets = [Network.from_weights(weights, head, inputs, where=str(path), what="the exchange networks")
                for head, inputs in (("d", DISCARD_INPUTS), ("s", SPLIT_INPUTS), ("o", SOLOIST_INPUTS))]
    return nets[0], nets[1], nets[2]


def learned_defender_discards(mine: Mask, takes: Mask, partner_known: Mask, contract: Contract, seat: int,
                              soloist: int, network: Network | None = None) -> Mask:
    """The discards (as many as ``takes``) of the defender at ``seat`` holding ``mine`` (hand and takes)."""
    n = popcount(takes)
    if n == 0:
        return 0
    net = network or default_networks()[0]
    logits = net.logits(discard_features(mine, takes, partner_known, contract, n, seat, soloist)[None, :])[0]
    held = list(cards_of(mine))
    best = sorted(held, key=lambda c: (-float(logits[c]), c))[:n]
    return sum(1 << c for c in best)


def learned_split(mine: Mask, monte: Mask, seat: int, soloist: int, network: Network | None = None) -> Mask:
    """The monte cards the defender at ``seat`` takes in scegliete (its partner takes the rest)."""
    net = network or default_networks()[1]
    logits = net.logits(split_features(mine, monte, seat, soloist)[None, :])[0]
    return sum(1 << c for c in cards_of(monte) if logits[c] > 0)


def learned_soloist_plan(mine: Mask, monte: Mask, call: Card | None, returned_to: int | None, contract: Contract,
                         leads: bool, network: Network | None = None) -> tuple[Card | None, Mask]:
    """The soloist's return (None: nothing goes back) and discards from ``mine`` (hand, monte, a called
    card handed over), under the ``learned`` policy (see the module doc)."""
    net = network or default_networks()[2]
    returns = returned_to is not None
    x = soloist_features(mine, monte, call, contract, returns, leads)
    logits = net.logits(x[None, :])[0]
    allowed = mine & ~(1 << call) if returns and call is not None else mine
    leaving = sorted(cards_of(allowed), key=lambda c: (-float(logits[c]), c))[:4 + returns]
    if not returns:
        return None, sum(1 << c for c in leaving)
    out = sum(1 << c for c in leaving)
    low = min(leaving, key=lambda c: (keep_score(c, mine), c))
    return low, out & ~(1 << low)


def soloist_leaving_chance(mine: Mask, monte: Mask, call: Card | None, returns: bool, contract: Contract, leads: bool,
                           leaving: Mask, temperature: float = 1.0, network: Network | None = None) -> float:
    """The chance that the soloist holding ``mine`` lets the cards ``leaving`` go (its discards, and the card it
    gives back), when it picks a set of that size with chance proportional to the product of the ``learned``
    policy's odds of each card (``exp(logit / temperature)``): the policy's own choice is the most likely set."""
    net = network or default_networks()[2]
    logits = net.logits(soloist_features(mine, monte, call, contract, returns, leads)[None, :])[0].astype(np.float64)
    allowed = [c for c in cards_of(mine) if not (returns and c == call)]
    x = np.exp((logits[allowed] - logits[allowed].max()) / temperature)
    k = popcount(leaving)
    e = np.zeros(k + 1)  # e[j]: the elementary symmetric sum of degree j of the odds so far
    e[0] = 1.0
    for v in x:
        e[1:] = e[1:] + v * e[:-1]
    chosen = [i for i, c in enumerate(allowed) if leaving >> c & 1]
    if len(chosen) != k:
        return 0.0
    return float(np.prod(x[chosen]) / e[k])


def learned_soloist_exchange(hands: Hands, monte: Mask, contract: Contract, soloist: int, rules: Rules) -> Exchange:
    """The soloist's exchange under the ``learned`` policy (see the module doc): only what the soloist knows
    is read (its hand, the monte, the called card's holder, which chiamo reveals)."""
    if contract not in ("chiamo", "solo"):
        raise CalasolveError(f"{contract}: the soloist exchanges only in chiamo and solo")
    mine, call, returned_to = soloist_sees(hands, monte, contract, soloist)
    leads = first_leader(contract, soloist, rules) == soloist
    ret, discards = learned_soloist_plan(mine, monte, call, returned_to, contract, leads)
    d = [0, 0, 0]
    d[soloist] = discards
    return Exchange(call=call, returned=ret, discards=(d[0], d[1], d[2]))


def learned_defender_exchange(hands: Hands, monte: Mask, contract: Contract, soloist: int,
                              takes: Hands | None = None) -> Exchange:
    """The defenders' exchange under the ``learned`` policy (see the module doc); ``takes``: dividete's
    draw (required there) or a scegliete split already agreed (made here when not given)."""
    if contract not in ("dividete", "scegliete"):
        raise CalasolveError(f"{contract}: the defenders exchange only in dividete and scegliete")
    first, second = defender_seats(soloist)
    if takes is None:
        if contract == "dividete":
            raise CalasolveError("dividete: the defenders' takes are drawn, not chosen; give the draw")
        mine = learned_split(hands[first], monte, first, soloist)
        split = [0, 0, 0]
        split[first], split[second] = mine, monte & ~mine
        takes = (split[0], split[1], split[2])
    discards = [0, 0, 0]
    for seat in (first, second):
        partner = second if seat == first else first
        seen = takes[partner] if contract == "scegliete" else 0
        discards[seat] = learned_defender_discards(hands[seat] | takes[seat], takes[seat], seen, contract, seat, soloist)
    return Exchange(takes=takes, discards=(discards[0], discards[1], discards[2]))
