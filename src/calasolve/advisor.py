"""The bid advisor: Monte Carlo estimates of every contract's chances for a 12-card hand.

For each contract, :func:`advise` deals the 28 unseen cards at random
(12, 12 and 4; cards pinned with ``known`` stay where they are), carries out
the contract's exchange under a named policy, solves the deal double dummy
and aggregates: P(make) with a 95% Wilson interval, the mean final thirds
with its standard error, the expected game points for the soloist (payoff-
optimal play, cappotto and stramazzo included) and how often each
multiplier comes up.  The recommendation is the contract with the highest
expected game points, or pass when none is positive.

Sample ``i`` is dealt from a generator seeded by ``(seed, i)`` alone, and the
same deal is used for every contract (common random numbers: the contracts
are compared on the same cards), so results are identical for any ``jobs``.

**Exchange policies** (reported in the output):

* soloist (solo, chiamo):

  - ``sampled`` (default): the soloist decides with what they know.  The
    call (chiamo) is the highest card missing from the soloist's best suit.
    Then, having seen the monte (and, in chiamo, who handed the called card
    over), the soloist considers the ``candidates`` (4) best distinct
    return-and-discard choices by a static estimate (choices that only swap
    equivalent cards count once) and keeps the one that makes the contract
    (18 thirds, double dummy) in the most of ``redeals`` (4) re-deals of the
    cards they cannot see (consistent with who held the called card); ties
    go to the better static estimate.  The re-deals come from their own
    generator; the real hidden cards are never looked at.
  - ``dd``: the double-dummy-best exchange of the sample itself
    (:func:`calasolve.exchange_search.best_exchange`): the soloist sees
    every card, an optimistic upper bound.

* defenders (dividete, scegliete):

  - ``dd`` (default): the defenders choose with every card in view (for
    dividete the two-and-two draw of the monte is random, the discards are
    the defenders' double-dummy best): conservative for the soloist, at the
    cost of an exact exchange search per sample (thousands of candidates in
    dividete, tens of thousands in scegliete), 20 to 60 times the cost.
  - ``heuristic``: plain card sense, without seeing the soloist's cards.
    Scegliete: each monte card goes to the defender with more cards of its
    suit (ties: the first defender).  Discards: each defender throws their
    lowest cards of no point value, shortest suit first (then the lowest
    point cards).  One solve per sample; leans towards the soloist.

**Cost.**  Each sample costs one exact thirds solve (none under ``dd``, whose
exchange search already valued it), plus the ``sampled`` policy's
null-window tests for 18 thirds (at most ``candidates`` x ``redeals``, far
fewer with its early stop).  The payoff costs a goal search only at the
extremes (sweeps, hopeless hands): the thirds value settles every other
level.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .cards import (
    FULL_DECK,
    LAST_TRICK_THIRDS,
    MAKE_THIRDS,
    RANK_THIRDS,
    SUIT_MASKS,
    Card,
    Mask,
    card_name,
    cards_of,
    hand_name,
    mask_of,
    mask_thirds,
    parse_cards_or_hand,
    popcount,
)
from .errors import CalasolveError
from .exchange import Exchange, Hands, apply_exchange
from .game import CONTRACT_VALUE, CONTRACTS, PlayState, defender_seats, first_leader
from .rules import STANDARD, Rules
from .sampling import check_known, deal_rest, rng_for
from .stats import mean_se, wilson
from .workers import worker_pool

SOLOIST_POLICIES = ("sampled", "dd")
DEFENDER_POLICIES = ("dd", "heuristic")
DEFAULT_SAMPLES = 400
#: The ``sampled`` policy's defaults.  Measured on 200 samples of the benchmark
#: hand against 6 candidates x 10 re-deals: 4 x 4 gives up 0.07 thirds and
#: 1 point of P(make) at 40% of the cost of 6 x 6 (which matches 6 x 10).
DEFAULT_CANDIDATES = 4
DEFAULT_REDEALS = 4
DEFAULT_DEFENDER_POLICY = "dd"
#: What each policy's estimate is, said in the output next to its name.
POLICY_NOTES = {
    "soloist": {
        "sampled": "the soloist chooses with what they know",
        "dd": "the soloist sees every card: an optimistic upper bound",
    },
    "defenders": {
        "dd": "the defenders see every card: conservative for the soloist",
        "heuristic": "plain card sense: leans towards the soloist",
    },
}


def parse_advice_hand(text: str) -> Mask:
    """A 12-card hand in hand notation or as card tokens.

    >>> hand_name(parse_advice_hand("3B 2B AB 7B RS CS 5S FC 6C 4C AD RD"))
    '32A7.RC5.F64.AR'
    """
    mask = parse_cards_or_hand(text)
    if popcount(mask) != 12:
        raise CalasolveError(f"hand {text!r}: has {popcount(mask)} cards, a hand has 12")
    return mask


# -- results -----------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """One sample of one contract, double dummy."""

    thirds: int           # soloist's final thirds (thirds-optimal play)
    payoff: int           # soloist's game points (payoff-optimal play)
    multiplier: int       # 1, 2 (cappotto) or 3 (stramazzo) of that payoff


@dataclass(frozen=True)
class ContractEstimate:
    """The aggregate of one contract's samples."""

    contract: str
    samples: int
    makes: int
    mean_thirds: float
    se_thirds: float
    mean_payoff: float
    se_payoff: float
    multipliers: dict[int, float]
    policy: str
    seconds: float

    @property
    def p_make(self) -> float:
        return self.makes / self.samples if self.samples else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.makes, self.samples)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "contract": self.contract,
            "samples": self.samples,
            "p_make": self.p_make,
            "p_make_95": [lo, hi],
            "mean_thirds": self.mean_thirds,
            "se_thirds": self.se_thirds,
            "expected_points": self.mean_payoff,
            "se_points": self.se_payoff,
            "multipliers": {str(k): v for k, v in sorted(self.multipliers.items())},
            "policy": self.policy,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class Advice:
    """What :func:`advise` returns."""

    hand: Mask
    seat: int
    samples: int
    seed: int
    rules: Rules
    soloist_policy: str
    defender_policy: str
    estimates: tuple[ContractEstimate, ...]
    recommendation: str
    reason: str
    seconds: float
    known: dict[str, str] = field(default_factory=dict)
    #: the ``sampled`` policy's parameters
    candidates: int = DEFAULT_CANDIDATES
    redeals: int = DEFAULT_REDEALS

    def ranked(self) -> list[ContractEstimate]:
        """The estimates, best expected game points first."""
        return sorted(self.estimates, key=lambda e: (-e.mean_payoff, CONTRACTS.index(e.contract)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": hand_name(self.hand),
            "seat": self.seat,
            "samples": self.samples,
            "seed": self.seed,
            "rules": self.rules.changes(),
            "known": self.known,
            "soloist_policy": self.soloist_policy,
            "defender_policy": self.defender_policy,
            "sampled": {"candidates": self.candidates, "redeals": self.redeals},
            "policy_notes": {
                "soloist": POLICY_NOTES["soloist"][self.soloist_policy],
                "defenders": POLICY_NOTES["defenders"][self.defender_policy],
            },
            "contracts": [e.to_dict() for e in self.ranked()],
            "recommendation": self.recommendation,
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
        }


# -- the soloist's exchange under `sampled` -------------------------------------------

def best_suit_call(hand: Mask) -> Card:
    """The chiamo call of the ``sampled`` policy: the highest card missing from the
    soloist's best suit (most thirds, then most cards, then the lower suit index).

    >>> card_name(best_suit_call(parse_cards_or_hand("3A7.RC5.F64.ARC")))   # Denari: 5 thirds
    '3D'
    """
    def suit_key(s: int) -> tuple[int, int, int]:
        held = hand & SUIT_MASKS[s]
        return (mask_thirds(held), popcount(held), -s)

    for suit in sorted(range(4), key=suit_key, reverse=True):
        for rank in range(9, -1, -1):
            card = suit * 10 + rank
            if not hand >> card & 1:
                return card
    raise CalasolveError("the hand holds every card")  # unreachable with 12 cards


def keep_score(card: Card, mine: Mask) -> int:
    """How much the soloist wants to keep ``card`` (higher = keep): its rank, its
    thirds, and whether it heads a run of top cards in its suit (a sure trick)."""
    suit = card // 10
    rank = card % 10
    sure = all(mine >> (suit * 10 + r) & 1 for r in range(rank, 10))
    return rank + 4 * RANK_THIRDS[rank] + (20 if sure else 0)


@lru_cache(maxsize=None)
def _combos(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as rows of indices, in :func:`itertools.combinations` order."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


def discard_candidates(mine: Mask, n_discards: int, count: int, *, forbidden: Mask = 0) -> list[Mask]:
    """The ``count`` most promising discard sets by a static estimate: keep high and
    sure cards, throw low cards, favour emptying a short suit.

    The score of a set is the sum of its cards' :func:`keep_score` minus 3 per
    suit it empties (lowest first; ties: the lower mask).  All the sets are
    scored at once with numpy: 4,368 per sample in a chiamo whose called card
    was handed over (5 of 16 cards: the return and the 4 discards), 1,820 in solo.

    >>> [hand_name(m) for m in discard_candidates(parse_cards_or_hand("32A7.RC54.F64.3AR76"), 4, 2)]
    ['-.54.64.-', '-.54.4.6']
    """
    cards = [c for c in cards_of(mine) if not forbidden >> c & 1]
    combos = _combos(len(cards), n_discards)
    keep = np.array([keep_score(c, mine) for c in cards], dtype=np.int64)
    suit = np.array([c // 10 for c in cards], dtype=np.int64)
    bits = np.array([1 << c for c in cards], dtype=np.int64)
    held = np.array([popcount(mine & SUIT_MASKS[u]) for u in range(4)], dtype=np.int64)
    per_suit = (suit[combos][:, :, None] == np.arange(4)).sum(axis=1)  # discards per suit, per set
    voids = ((per_suit == held) & (held > 0)).sum(axis=1)
    score = keep[combos].sum(axis=1) - 3 * voids
    gone = bits[combos].sum(axis=1)  # distinct bits: the sum is the mask
    order = np.lexsort((gone, score))[:count]
    return [int(g) for g in gone[order]]


def _signature(kept: Mask, returned: Card | None, discards: Mask, unknown: Mask) -> tuple[Any, ...]:
    """What a soloist's exchange leaves in play, up to equivalent cards: per suit,
    high to low, who holds each card still in play (the soloist, the defender
    given the return, or unknown) and its thirds; and the thirds discarded.
    Two exchanges with the same signature give equivalent positions in every
    re-deal (the unknown cards are the same), so they score the same."""
    sig: list[Any] = [mask_thirds(discards)]
    for u in range(4):
        row = []
        for card in range(u * 10 + 9, u * 10 - 1, -1):
            if kept >> card & 1:
                row.append(("S", RANK_THIRDS[card % 10]))
            elif card == returned:
                row.append(("R", RANK_THIRDS[card % 10]))
            elif unknown >> card & 1:
                row.append(("U", RANK_THIRDS[card % 10]))
        sig.append(tuple(row))
    return tuple(sig)


def sampled_soloist_exchange(
    hands: Sequence[Mask],
    monte: Mask,
    contract: str,
    soloist: int,
    rules: Rules,
    solver: Any,
    rng: np.random.Generator,
    *,
    candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
) -> Exchange:
    """The soloist's exchange under the ``sampled`` policy (see the module doc).

    Only what the soloist knows is read: their hand, the monte they take, the
    called card's holder (which chiamo reveals).  The defenders' other cards
    are re-dealt from ``rng``.
    """
    leader = first_leader(contract, soloist, rules)
    mine = hands[soloist] | monte
    call = returned_to = None
    if contract == "chiamo":
        call = best_suit_call(hands[soloist])
        returned_to = next((s for s in range(3) if s != soloist and hands[s] >> call & 1), None)
        mine |= 1 << call
    unknown = FULL_DECK & ~mine
    worlds = redeal_worlds(unknown, soloist, returned_to, redeals, rng)
    choices = distinct_choices(mine, call, returned_to, unknown, candidates)
    ret, discards = choices[most_makes(choices, worlds, mine, soloist, returned_to, leader, solver)]
    d = [0, 0, 0]
    d[soloist] = discards
    return Exchange(call=call, returned=ret, discards=(d[0], d[1], d[2]))


def redeal_worlds(
    unknown: Mask, soloist: int, returned_to: int | None, redeals: int, rng: np.random.Generator
) -> list[list[Mask]]:
    """``redeals`` deals of the cards the soloist cannot see to the defenders.  In
    chiamo the holder of the called card has 11 unknown cards (+ the return)."""
    worlds = []
    for _ in range(redeals):
        pool = rng.permutation(np.array(list(cards_of(unknown)), dtype=np.int64))
        world = [0, 0, 0]
        i = 0
        for seat in defender_seats(soloist):
            need = 11 if seat == returned_to else 12
            world[seat] = mask_of(int(c) for c in pool[i : i + need])
            i += need
        worlds.append(world)
    return worlds


#: How many discard sets, best first by the estimate, are screened for
#: ``candidates`` distinct ones (sets that only swap equivalent cards collapse).
_POOL_FACTOR = 8


def distinct_choices(
    mine: Mask, call: Card | None, returned_to: int | None, unknown: Mask, count: int
) -> list[tuple[Card | None, Mask]]:
    """The ``count`` best (returned card or None, discards) by the static estimate,
    no two equivalent (:func:`_signature`): a choice equivalent to a better one
    would score the same in every re-deal, so it is skipped for the next."""
    choices: list[tuple[Card | None, Mask]] = []
    if returned_to is None:
        choices = [(None, d) for d in discard_candidates(mine, 4, count * _POOL_FACTOR)]
    else:
        # the return is one more card leaving the hand: take the estimate over 5 cards,
        # returning the lowest of them, never the called card
        assert call is not None
        for five in discard_candidates(mine, 5, count * _POOL_FACTOR, forbidden=1 << call):
            low = min(cards_of(five), key=lambda c: (keep_score(c, mine), c))
            choices.append((low, five & ~(1 << low)))
    seen: set[tuple[Any, ...]] = set()
    out = []
    for ret, discards in choices:
        kept = mine & ~discards & ~((1 << ret) if ret is not None else 0)
        sig = _signature(kept, ret, discards, unknown)
        if sig not in seen:
            seen.add(sig)
            out.append((ret, discards))
            if len(out) == count:
                break
    return out


def most_makes(
    choices: Sequence[tuple[Card | None, Mask]],
    worlds: Sequence[Sequence[Mask]],
    mine: Mask,
    soloist: int,
    returned_to: int | None,
    leader: int,
    solver: Any,
) -> int:
    """The index of the choice that makes the contract in the most worlds (ties: the
    first, the better estimate).

    The result that matters to a bidder is making the contract, so each world
    costs a null-window search for 18 thirds, several times cheaper than an
    exact value.  A challenger stops as soon as it cannot beat the best so far,
    and it meets first the worlds where the best failed: similar choices tend
    to fail together, so a weaker one is out after fewer searches.  (The order
    only saves searches: every choice that could win is still counted in full.)
    """
    best = -1  # the best choice's makes, its index and the worlds it made
    best_index = 0
    best_made: list[bool] = [False] * len(worlds)
    for index, (ret, discards) in enumerate(choices):
        kept = mine & ~discards & ~((1 << ret) if ret is not None else 0)
        bonus = LAST_TRICK_THIRDS + mask_thirds(discards)
        order = sorted(range(len(worlds)), key=lambda w: best_made[w])  # the best's failures first
        made = [False] * len(worlds)
        makes = 0
        for k, w in enumerate(order):
            if makes + len(worlds) - k <= best:
                break  # cannot beat the best choice any more
            h = list(worlds[w])
            h[soloist] = kept
            if ret is not None and returned_to is not None:
                h[returned_to] |= 1 << ret
            made[w] = bool(solver.reaches((h[0], h[1], h[2]), (), leader, soloist, bonus, MAKE_THIRDS))
            makes += made[w]
        if makes > best:
            best, best_index, best_made = makes, index, made
    return best_index


# -- the defenders' exchange --------------------------------------------------------

def heuristic_discards(hand: Mask, n: int) -> Mask:
    """The ``heuristic`` defenders' discards: lowest pointless cards, shortest suit first.

    >>> hand_name(heuristic_discards(parse_cards_or_hand("3A7.RC5.F64.ARC"), 2))
    '-.5.4.-'
    """
    def key(c: Card) -> tuple[int, int, int]:
        return (RANK_THIRDS[c % 10], popcount(hand & SUIT_MASKS[c // 10]), c % 10)

    return mask_of(sorted(cards_of(hand), key=key)[:n])


def heuristic_split(hands: Sequence[Mask], monte: Mask, soloist: int) -> tuple[Mask, Mask, Mask]:
    """The ``heuristic`` scegliete split: each card to the defender longer in its suit."""
    a, b = defender_seats(soloist)
    takes = [0, 0, 0]
    for c in cards_of(monte):
        suit = SUIT_MASKS[c // 10]
        seat = a if popcount(hands[a] & suit) >= popcount(hands[b] & suit) else b
        takes[seat] |= 1 << c
    return takes[0], takes[1], takes[2]


def random_draw(monte: Mask, soloist: int, rng: np.random.Generator) -> tuple[Mask, Mask, Mask]:
    """Dividete: two monte cards to each defender, blind (uniformly at random)."""
    cards = [int(c) for c in rng.permutation(np.array(list(cards_of(monte)), dtype=np.int64))]
    a, b = defender_seats(soloist)
    takes = [0, 0, 0]
    takes[a] = mask_of(cards[:2])
    takes[b] = mask_of(cards[2:])
    return takes[0], takes[1], takes[2]


# -- one sample -----------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Everything a worker needs to evaluate samples (picklable)."""

    hand: Mask
    seat: int
    seed: int
    contracts: tuple[str, ...]
    known: tuple[tuple[object, Mask], ...]
    rules: Rules
    soloist_policy: str
    defender_policy: str
    candidates: int
    redeals: int
    tt_mb: int
    goal_mb: int = 128


def exchange_for(
    contract: str,
    hands: tuple[Mask, Mask, Mask],
    monte: Mask,
    settings: Settings,
    solver: Any,
    rng: np.random.Generator,
    first: Hands | None = None,
) -> tuple[Exchange, int | None]:
    """The exchange of one sample under the settings' policies, and the soloist's
    final thirds with it when the policy has already solved that (``dd``), else None.
    ``first``: hands after a good exchange for the ``dd`` search to try first
    (:func:`calasolve.exchange_search.best_exchange`)."""
    from .dealfile import Record
    from .exchange_search import best_exchange

    seat, rules = settings.seat, settings.rules
    if contract == "solissimo":
        return Exchange(), None
    if contract in ("solo", "chiamo"):
        if settings.soloist_policy == "sampled":
            return sampled_soloist_exchange(
                hands, monte, contract, seat, rules, solver, rng,
                candidates=settings.candidates, redeals=settings.redeals,
            ), None
        record = Record(hands=hands, monte=monte, contract=contract, soloist=seat, rules=rules)
        found = best_exchange(record, solver=solver, top=1)
        return found.exchange, found.value
    takes = random_draw(monte, seat, rng) if contract == "dividete" else None
    if settings.defender_policy == "heuristic":
        if takes is None:
            takes = heuristic_split(hands, monte, seat)
        discards = tuple(heuristic_discards(hands[s] | takes[s], popcount(takes[s])) if s != seat else 0 for s in range(3))
        return Exchange(takes=takes, discards=(discards[0], discards[1], discards[2])), None
    record = Record(
        hands=hands, monte=monte, contract=contract, soloist=seat, rules=rules,
        exchange=Exchange(takes=takes) if takes is not None else Exchange(),
    )
    found = best_exchange(record, solver=solver, top=1, first=first)
    return found.exchange, found.value


def evaluate(
    index: int, contract: str, settings: Settings, solver: Any, dividete: dict[int, Hands] | None = None
) -> Outcome:
    """Deal sample ``index``, carry out ``contract``'s exchange, solve it.

    ``dividete``: the caller's record, by sample, of the hands after the
    defenders' ``dd`` dividete exchange, which this call fills in (dividete) or
    reads (scegliete): those hands are one of scegliete's candidates (the drawn
    split), and a good one, so its search tries them first.

    One exact thirds solve per sample (none when the exchange search already
    valued the exchange).  The payoff then costs a goal search only at the
    extremes: the thirds value settles every other level (see
    :func:`calasolve.payoff.payoff_value`).
    """
    from .payoff import multiplier_of, payoff_value

    seat, rules = settings.seat, settings.rules
    hands, monte = deal_rest(settings.hand, seat, rng_for(settings.seed, index), dict(settings.known))
    rng = rng_for(settings.seed, index, 1 + CONTRACTS.index(contract))
    first = dividete.get(index) if dividete is not None and contract == "scegliete" else None
    exchange, thirds = exchange_for(contract, hands, monte, settings, solver, rng, first)
    played, new_monte = apply_exchange(hands, monte, contract, seat, exchange)
    if dividete is not None and contract == "dividete" and settings.defender_policy == "dd":
        dividete[index] = played
    leader = first_leader(contract, seat, rules)
    if thirds is None:
        thirds = solver.value(played, (), leader, seat, LAST_TRICK_THIRDS + mask_thirds(new_monte))
    state = PlayState(played, new_monte, soloist=seat, leader=leader)
    payoff = payoff_value(state, contract, rules, worker_goals(settings.goal_mb), thirds=thirds)
    return Outcome(thirds=thirds, payoff=payoff, multiplier=multiplier_of(payoff, contract, rules))


_WORKER: dict[str, Any] = {}

#: The goal search's memo per worker, in MiB.  Only hands at the extremes need a
#: goal search (e.g. a hopeless soloist: can they win no trick, or 3 card thirds,
#: rather than pay x3?), and those searches are memo-bound: on one such sample
#: 8 MiB took 14 s, 32 MiB 4 s, 128 MiB 2.5 s (README.md).  The memo is
#: calloc'ed, so the pages cost nothing until a search touches them.
GOAL_MEMO_MB = 128


def worker_goals(goal_mb: int = GOAL_MEMO_MB) -> Any:
    """This process's goal search, one per worker like the solver (its memo stays
    untouched, so free, on the samples that need no goal search: most of them).
    A memo the machine cannot allocate is a ``ParameterError`` naming ``goal_mb``."""
    goals = _WORKER.get("goals")
    if goals is None or _WORKER.get("goal_mb") != goal_mb:
        from .payoff import make_goal_search

        _WORKER.pop("goals", None)  # the old memo goes before the new one is allocated
        goals = _WORKER["goals"] = make_goal_search(goal_mb)
        _WORKER["goal_mb"] = goal_mb
    return goals


def _work(job: tuple[Settings, Sequence[tuple[int, str]]]) -> list[tuple[int, str, Outcome, float]]:
    """Evaluate a chunk of (sample, contract) pairs with this process's solver."""
    from .solving import make_solver

    settings, pairs = job
    solver = _WORKER.get("solver")
    if solver is None or _WORKER.get("tt_mb") != settings.tt_mb:
        _WORKER.pop("solver", None)  # the old table goes before the new one is allocated
        solver = _WORKER["solver"] = make_solver(settings.tt_mb)
        _WORKER["tt_mb"] = settings.tt_mb
    out = []
    # A chunk holds whole samples, their contracts in CONTRACTS order (advise):
    # a sample's dividete is met before its scegliete.
    dividete: dict[int, Hands] = {}
    for index, contract in pairs:
        # CPU time, not wall: the cost of a sample whatever else runs on the machine
        start = time.process_time()
        outcome = evaluate(index, contract, settings, solver, dividete)
        out.append((index, contract, outcome, time.process_time() - start))
    return out


def advise(
    hand: Mask | str,
    *,
    seat: int = 0,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = None,
    policy: str = "sampled",
    defender_policy: str = DEFAULT_DEFENDER_POLICY,
    contracts: Iterable[str] = CONTRACTS,
    known: Mapping[object, Mask] | None = None,
    rules: Rules = STANDARD,
    candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
    tt_mb: int = 32,
    goal_mb: int = GOAL_MEMO_MB,
    progress: Callable[[int], None] | None = None,
) -> Advice:
    """Estimate every contract's chances for ``hand`` held by ``seat`` (see the module doc).

    ``policy`` is the soloist's exchange policy, ``defender_policy`` the
    defenders'; ``tt_mb`` and ``goal_mb`` size each worker's transposition
    table and goal memo (MiB); ``progress`` is called with the number of
    sample-contract evaluations finished since the last call.  Every argument
    is checked here, before any work: a bad one is a ``ParameterError`` naming it.
    """
    mask, chosen, known = check_advise_arguments(
        hand, seat=seat, samples=samples, seed=seed, jobs=jobs, policy=policy, defender_policy=defender_policy,
        contracts=contracts, known=known, rules=rules, candidates=candidates, redeals=redeals, tt_mb=tt_mb,
        goal_mb=goal_mb, progress=progress,
    )
    settings = Settings(
        hand=mask, seat=seat, seed=seed, contracts=chosen, known=tuple(known.items()), rules=rules,
        soloist_policy=policy, defender_policy=defender_policy, candidates=candidates, redeals=redeals, tt_mb=tt_mb,
        goal_mb=goal_mb,
    )
    jobs = jobs or os.cpu_count() or 1
    # A chunk holds whole samples, each sample's contracts in the standard order:
    # the contracts of one deal share positions, so the worker's table is warm
    # for the next (dividete's search warms scegliete's, which covers its
    # split).  On the benchmark hand, -12% CPU over all five contracts, -17% in
    # scegliete; the other order (scegliete first) only -6%.  Small chunks keep
    # the progress bar moving and the cores busy to the end.
    order = sorted(chosen, key=CONTRACTS.index)
    pairs = [(i, c) for i in range(samples) for c in order]
    size = len(order) * max(1, min(25 // len(order), samples // (jobs * 8)))
    chunks = [(settings, pairs[k : k + size]) for k in range(0, len(pairs), size)]
    start = time.perf_counter()
    results: list[tuple[int, str, Outcome, float]] = []
    if jobs == 1:
        for chunk in chunks:
            results += _work(chunk)
            if progress:
                progress(len(chunk[1]))
    else:
        with worker_pool(jobs) as pool:
            for part in pool.map(_work, chunks):
                results += part
                if progress:
                    progress(len(part))
    estimates = tuple(_aggregate(c, [r for r in results if r[1] == c], settings) for c in chosen)
    recommendation, reason = _recommend(estimates)
    return Advice(
        hand=mask, seat=seat, samples=samples, seed=seed, rules=rules,
        soloist_policy=policy, defender_policy=defender_policy,
        estimates=estimates, recommendation=recommendation, reason=reason,
        seconds=time.perf_counter() - start,
        known={str(k): hand_name(v) for k, v in known.items()},
        candidates=candidates, redeals=redeals,
    )


def check_advise_arguments(
    hand: Any,
    *,
    seat: Any,
    samples: Any,
    seed: Any,
    jobs: Any,
    policy: Any,
    defender_policy: Any,
    contracts: Any,
    known: Any,
    rules: Any,
    candidates: Any,
    redeals: Any,
    tt_mb: Any,
    goal_mb: Any,
    progress: Any,
) -> tuple[Mask, tuple[str, ...], dict[object, Mask]]:
    """Every argument of :func:`advise` checked, with the command line's limits
    (:mod:`calasolve.limits`): the hand's mask, the contracts (once each, in the
    order given) and the known cards.

    >>> check_advise_arguments("32AR.32A.3A.2A5", seat=0, samples=2**70, seed=0, jobs=1, policy="sampled",
    ...     defender_policy="dd", contracts=["solo"], known=None, rules=STANDARD, candidates=4, redeals=4,
    ...     tt_mb=32, goal_mb=128, progress=None)
    Traceback (most recent call last):
    ...
    calasolve.errors.ParameterError: samples 1180591620717411303424: must be an integer from 1 to 1000000
    """
    from .limits import (
        MAX_CANDIDATES, MAX_JOBS, MAX_REDEALS, MAX_SAMPLES, MAX_SEED, MAX_TABLE_MB, check_callable, check_choice,
        check_instance, check_int, check_mask, check_optional_int,
    )
    from .errors import ParameterError
    from .sampling import MONTE

    if isinstance(hand, str):
        mask = parse_advice_hand(hand)
    else:
        mask = check_mask("hand", hand)
        if popcount(mask) != 12:
            raise ParameterError("hand", hand_name(mask), f"has {popcount(mask)} cards, a hand has 12")
    check_int("seat", seat, 0, 2)
    check_int("samples", samples, 1, MAX_SAMPLES)
    check_int("seed", seed, 0, MAX_SEED)
    check_optional_int("jobs", jobs, 1, MAX_JOBS)
    check_choice("policy", policy, SOLOIST_POLICIES)
    check_choice("defender_policy", defender_policy, DEFENDER_POLICIES)
    check_int("candidates", candidates, 1, MAX_CANDIDATES)
    check_int("redeals", redeals, 1, MAX_REDEALS)
    check_int("tt_mb", tt_mb, 1, MAX_TABLE_MB)
    check_int("goal_mb", goal_mb, 1, MAX_TABLE_MB)
    check_instance("rules", rules, Rules, "a Rules")
    check_callable("progress", progress)
    if isinstance(contracts, str):
        raise ParameterError("contracts", contracts, "must be a sequence of contract names, not one string")
    try:
        chosen = tuple(dict.fromkeys(contracts))
    except TypeError:
        raise ParameterError("contracts", contracts, "must be a sequence of contract names") from None
    for c in chosen:
        if not isinstance(c, str) or c not in CONTRACTS:
            raise ParameterError("contracts", c, f"unknown contract (use {', '.join(CONTRACTS)})")
    if not chosen:
        raise ParameterError("contracts", contracts, "no contract to estimate")
    if known is not None and not isinstance(known, Mapping):
        raise ParameterError("known", known, "must be a mapping of a seat 0..2 or 'monte' to cards")
    pinned: dict[object, Mask] = {}
    for where, cards in (known or {}).items():
        if isinstance(where, bool) or where not in (0, 1, 2, MONTE):
            raise ParameterError("known", where, "a place must be a seat 0..2 or 'monte'")
        pinned[where] = check_mask("known", cards)
    check_known(mask, seat, pinned)
    return mask, chosen, pinned


def _aggregate(contract: str, rows: list[tuple[int, str, Outcome, float]], settings: Settings) -> ContractEstimate:
    rows.sort(key=lambda r: r[0])
    outcomes = [r[2] for r in rows]
    n = len(outcomes)
    thirds_mean, thirds_se = mean_se([o.thirds for o in outcomes])
    pay_mean, pay_se = mean_se([o.payoff for o in outcomes])
    counts: dict[int, int] = {}
    for o in outcomes:
        counts[o.multiplier] = counts.get(o.multiplier, 0) + 1
    mults = {m: k / n for m, k in counts.items()}
    if contract in ("solo", "chiamo"):
        policy = f"soloist:{settings.soloist_policy}"
    elif contract in ("dividete", "scegliete"):
        policy = f"defenders:{settings.defender_policy}"
    else:
        policy = "none"
    return ContractEstimate(
        contract=contract,
        samples=n,
        makes=sum(1 for o in outcomes if o.thirds >= MAKE_THIRDS),
        mean_thirds=thirds_mean,
        se_thirds=thirds_se,
        mean_payoff=pay_mean,
        se_payoff=pay_se,
        multipliers=mults,
        policy=policy,
        seconds=sum(r[3] for r in rows),
    )


def _recommend(estimates: Sequence[ContractEstimate]) -> tuple[str, str]:
    best = max(estimates, key=lambda e: (e.mean_payoff, -CONTRACTS.index(e.contract)))
    if best.mean_payoff <= 0:
        return "pass", (
            f"no contract has positive expected game points (best: {best.contract} "
            f"{best.mean_payoff:+.2f}, makes {best.p_make:.0%})"
        )
    return best.contract, (
        f"{best.contract} has the highest expected game points: {best.mean_payoff:+.2f} "
        f"± {best.se_payoff:.2f}, makes {best.p_make:.0%} (value {CONTRACT_VALUE[best.contract]} per defender)"
    )


def _soloist_text(advice: Advice) -> str:
    if advice.soloist_policy == "sampled":
        return f"sampled ({advice.candidates} choices x {advice.redeals} re-deals)"
    return f"{advice.soloist_policy} ({POLICY_NOTES['soloist'][advice.soloist_policy]})"


def format_advice(advice: Advice) -> list[str]:
    """The readable table of ``calasolve advise``, best first."""
    lines = [
        f"hand {hand_name(advice.hand)} in seat {advice.seat}: {advice.samples} samples per contract, seed {advice.seed}",
        f"exchange policies: soloist {_soloist_text(advice)}, defenders {advice.defender_policy}"
        + (f"; rules {advice.rules.describe()}" if advice.rules.changes() else ""),
        "",
        f"  {'contract':<10} {'P(make)':>8} {'95% interval':>15} {'thirds':>13} {'game points':>15}  multipliers",
    ]
    for e in advice.ranked():
        lo, hi = e.interval
        mult = " ".join(f"x{k} {v:.0%}" for k, v in sorted(e.multipliers.items()))
        lines.append(
            f"  {e.contract:<10} {e.p_make:>8.1%} {f'{lo:.1%}-{hi:.1%}':>15} "
            f"{f'{e.mean_thirds:.1f} ± {e.se_thirds:.1f}':>13} {f'{e.mean_payoff:+.2f} ± {e.se_payoff:.2f}':>15}  {mult}"
        )
    lines += ["", f"recommendation: {advice.recommendation} ({advice.reason})"]
    if advice.recommendation in ("dividete", "scegliete") and advice.defender_policy == "heuristic":
        # the cheap defence is the optimistic one: an aggravation deserves the worst case too
        lines.append(
            "note: the defenders exchanged by plain heuristic; before aggravating, check against "
            "defenders who see every card: --contracts dividete,scegliete --defender-policy dd"
        )
    return lines
