"""Baseline agents for the environment (docs/env.md#agents): random, heuristic, PIMC and a double-dummy cheater.

An agent's :meth:`~Agent.act` takes the :class:`~calasolve.env.game.GameState` and returns an
action of the player to move.  Every agent but ``dd`` reads only what that seat has seen
(the players and policies it reuses are built that way: :func:`calasolve.play.knowledge.view_of`
and the advisor's exchange policies); ``dd`` sees every card, an upper reference.

- ``random``: a uniformly random legal action.
- ``heuristic``: bids by :func:`rule_bid`; exchanges by the static estimates of the advisor's
  policies (chiamo's call in the best suit, the discards that keep high and sure cards,
  scegliete's plain split, the defenders' lowest pointless discards); plays
  :class:`~calasolve.play.players.HeuristicPlayer`'s card.
- ``pimc``: bids by :func:`rule_bid` (``bidding="rule"``) or by the advisor's recommendation
  (``bidding="advisor"``, :func:`calasolve.advise` with its played odds); exchanges by the
  ``sampled`` policies (:mod:`calasolve.advice.policies`, :mod:`calasolve.advice.defence`); plays
  :class:`~calasolve.play.players.PimcPlayer`'s card (``samples`` layouts a decision), or with
  ``play="contract"`` the contract-minded player of the advice's play-outs
  (:class:`~calasolve.play.target.ContractPimcPlayer`).
- ``learned``: bids as ``pimc``; exchanges by the ``learned`` policies (:mod:`calasolve.advice.learned_exchange`:
  the soloist's return and discards, scegliete's split and the defenders' discards by small networks
  over what the seat sees; chiamo's call by the ``sampled`` policy's rule); plays :class:`~calasolve.play.learned.LearnedPlayer`'s card (its
  network over what the seat sees, the contract-minded player for the last tricks; ``samples`` layouts a
  decision there, 8 by default).
- ``dd``: bids by :func:`rule_bid`; exchanges double dummy (:func:`calasolve.exchange.search.search_exchange`
  on the real cards); plays :class:`~calasolve.play.players.DoubleDummyPlayer`'s card.

A decision of the exchange is planned whole (the return and the discards together) and the plan
played one action at a time; a plan is kept for the history it was made at.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Protocol

import numpy as np

from ..advice.defence import propose_split, sampled_defender_discards, split_candidates
from ..advice.learned_exchange import learned_defender_discards, learned_soloist_plan, learned_split
from ..advice.policies import best_suit_call, distinct_choices, heuristic_discards, sampled_plan
from ..game.auction import LADDERS
from ..game.cards import FULL_DECK, Card, Mask, cards_of, popcount, strength
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS
from ..game.errors import InternalError, ParameterError
from ..game.exchange import Exchange
from ..game.limits import check_int
from ..game.rules import Rules
from ..game.sampling import rng_for
from ..game.state import CONTRACTS, Contract, defender_seats, first_leader
from ..play.factory import make_player
from ..play.learned import DEFAULT_LEARNED_LAYOUTS
from ..play.players import DEFAULT_PIMC_SAMPLES, MAX_PIMC_SAMPLES, DoubleDummyPlayer, HeuristicPlayer, Objective
from ..search.engines import CoreSolver
from ..search.solving import default_solver
from .actions import PASS, bid_action, split_action
from .game import MONTE, GameState

__all__ = [
    "AGENTS", "Agent", "BID_STRENGTH", "DoubleDummyAgent", "HeuristicAgent", "LearnedAgent", "PimcAgent", "RandomAgent",
    "fitted_discards", "fresh_seed", "make_agent", "parse_agent", "rule_bid",
]

#: The agents by name.
AGENTS = ("random", "heuristic", "pimc", "learned", "dd")
#: :func:`rule_bid`'s least hand strength (:func:`calasolve.game.cards.strength`: 3s and 2s 2, aces 3,
#: R C F 1; 12 on average) for each contract.  A solissimo for seat 0 (leading) is made double dummy
#: 1% of the time at strength 14-15, 17% at 16-17, 25% at 18-19 and 60% at 20-21 (400 random deals,
#: docs/env.md#agents); defenders who do not see every card make it more often, and the exchanges
#: help solo and chiamo, while the aggravations cost more.
BID_STRENGTH: dict[str, int] = {"chiamo": 14, "solo": 16, "solissimo": 19, "dividete": 23, "scegliete": 26}


class Agent(Protocol):
    """Chooses an action for the player to move of a state (never at a chance node or the end)."""

    name: str

    def act(self, state: GameState) -> int: ...


def rule_bid(hand: Mask, rules: Rules) -> Contract | None:
    """The highest contract of the rules' ladder (or the declared aggravations) whose :data:`BID_STRENGTH`
    ``hand`` reaches, None to pass: a cheap rule, no search.

    >>> from calasolve.game.cards import parse_hand
    >>> rule_bid(parse_hand("32AR.32A.3A.2A5"), Rules()), rule_bid(parse_hand("3A.2A.RF.RC764"), Rules())
    ('dividete', 'chiamo')
    >>> rule_bid(parse_hand("54.765.CF.RC764"), Rules()) is None
    True
    """
    s = strength(hand)
    reach = [c for c in CONTRACTS if s >= BID_STRENGTH[c]]
    if rules.aggravations == "bids":
        reach = [c for c in reach if c in LADDERS["bids"]]
    return reach[-1] if reach else None


def _bid_toward(state: GameState, target: Contract | None) -> int:
    """The auction's action for an agent that wants ``target``: bid it (solissimo for a declared
    aggravation) when that is legal, else pass."""
    if target is None:
        return PASS
    if state.rules.aggravations == "declared" and target in ("dividete", "scegliete"):
        target = "solissimo"
    action = bid_action(target)
    return action if action in state.legal_actions() else PASS


def _declare(target: Contract | None) -> int:
    return bid_action(target if target in ("dividete", "scegliete") else "solissimo")


class _Plans:
    """Exchange plans kept per seat, each for the history it was made at: the return (or None)
    and the discards."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[tuple[int, ...], Card | None, Mask]] = {}

    def get(self, state: GameState, seat: int, make: Callable[[], tuple[Card | None, Mask]]) -> tuple[Card | None, Mask]:
        kept = self.kept.get(seat)
        if kept is not None and tuple(state.history[:len(kept[0])]) == kept[0]:
            return kept[1], kept[2]
        ret, discards = make()
        self.kept[seat] = (tuple(state.history), ret, discards)
        return ret, discards


def _discard_from(state: GameState, planned: Mask) -> int:
    """The next of the ``planned`` discards, lowest first.  Where earlier discards came from another
    policy (an agent taking over a seat), the plan is completed within what the state still allows:
    its cards that can still be discarded first, then the cheapest others (:func:`fitted_discards`)."""
    seat = state.current_player
    left = list(cards_of(fitted_discards(state, seat, planned)))
    legal = state.legal_actions()
    if not left or left[0] not in legal:
        raise InternalError(f"seat {seat}'s planned discards do not fit the state ({state.phase})")
    return left[0]


def fitted_discards(state: GameState, seat: int, planned: Mask) -> Mask:
    """The discards ``seat`` still makes for a plan of ``planned`` (all its discards), given those made
    so far: discards go lowest first, so only held cards above the last one made can follow."""
    made = state.discards[seat]
    need = popcount(planned) - popcount(made)
    allowed = sum(1 << c for c in cards_of(state.held(seat)) if c >= made.bit_length())
    if planned & made == made and popcount(planned & allowed) == need:
        return planned & ~made
    # the plan's cards that can still go, the cheapest of them first if too many, then the cheapest others
    mine = planned & allowed
    chosen = heuristic_discards(mine, need) if popcount(mine) >= need else mine
    return chosen | heuristic_discards(allowed & ~chosen, need - popcount(chosen))


def _pool_before_discards(state: GameState, seat: int) -> Mask:
    """The cards ``seat`` held when its discards began (its hand now and its discards so far)."""
    return state.held(seat) | state.discards[seat]


@dataclass
class RandomAgent:
    """A uniformly random legal action: for a seed, a function of the seed, the seat and the decision
    (same seed, same actions; two seats never share a stream); without one, a seed of its own."""

    seed: int | None = None
    name: str = "random"

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = fresh_seed()
        check_int("seed", self.seed, 0, 2**63 - 1)

    def act(self, state: GameState) -> int:
        legal = state.legal_actions()
        assert self.seed is not None
        return legal[int(rng_for(self.seed, len(state.history), state.current_player).integers(len(legal)))]


def fresh_seed() -> int:
    """A seed from the operating system's entropy: an agent made without a seed gets one of its own."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)


class _Planner(ABC):
    """What the heuristic, PIMC and dd agents share: the auction by a target contract, the
    exchange by plans, the play by a card player; the subclasses choose each."""

    name: str
    plans: _Plans

    def target(self, state: GameState, seat: int) -> Contract | None:
        return rule_bid(state.dealt[seat], state.rules)

    def act(self, state: GameState) -> int:
        seat, phase = state.current_player, state.phase
        if phase == "auction":
            return _bid_toward(state, self.target(state, seat))
        if phase == "declare":
            return _declare(self.target(state, seat))
        if phase == "call":
            return self.call(state, seat)
        if phase == "split":
            return split_action(state.monte, self.split(state, seat))
        if phase == "return":
            ret, _ = self.plans.get(state, seat, lambda: self.soloist_plan(state, seat))
            assert ret is not None
            return ret
        if phase == "discard":
            if seat == state.soloist:
                _, discards = self.plans.get(state, seat, lambda: self.soloist_plan(state, seat))
            else:
                _, discards = self.plans.get(state, seat, lambda: (None, self.defender_discards(state, seat)))
            return _discard_from(state, discards)
        if phase == "play":
            assert state.play is not None
            return self.card(state)
        raise InternalError(f"agent {self.name!r} asked to act in the {phase} phase")

    def call(self, state: GameState, seat: int) -> int:
        return best_suit_call(state.dealt[seat])

    @abstractmethod
    def soloist_plan(self, state: GameState, seat: int) -> tuple[Card | None, Mask]:
        """The soloist's return (None: nothing to return) and discards."""

    @abstractmethod
    def split(self, state: GameState, seat: int) -> Mask:
        """Scegliete: the monte cards the first defender takes."""

    @abstractmethod
    def defender_discards(self, state: GameState, seat: int) -> Mask:
        """Dividete, scegliete: the defender's discards."""

    @abstractmethod
    def card(self, state: GameState) -> int:
        """The card to play."""


def _soloist_view(state: GameState, seat: int) -> tuple[Mask, Card | None, int | None, Mask]:
    """What the soloist exchanges with: the cards it holds before returning and discarding, the
    called card, the seat it came from (None: the monte), the cards it cannot see."""
    mine = _pool_before_discards(state, seat)
    if state.returned is not None:  # returned already (by another hand than this plan's): only the discards are left
        return mine, None, None, FULL_DECK & ~mine
    holder = state.call_from if state.call_from != MONTE else None
    return mine, state.call, holder, FULL_DECK & ~mine


class HeuristicAgent(_Planner):
    """Bids by :func:`rule_bid`, exchanges by static estimates, plays the heuristic card (see the module doc)."""

    def __init__(self, name: str = "heuristic") -> None:
        self.name = name
        self.plans = _Plans()
        self.player = HeuristicPlayer()

    def soloist_plan(self, state: GameState, seat: int) -> tuple[Card | None, Mask]:
        mine, call, holder, unknown = _soloist_view(state, seat)
        return distinct_choices(mine, call, holder, unknown, 1)[0]

    def split(self, state: GameState, seat: int) -> Mask:
        return split_candidates(state.held(seat), state.monte, 1)[0]

    def defender_discards(self, state: GameState, seat: int) -> Mask:
        return heuristic_discards(_pool_before_discards(state, seat), popcount(state.takes[seat]))

    def card(self, state: GameState) -> int:
        assert state.play is not None
        return self.player.choose(state.record(), state.play)


class PimcAgent(_Planner):
    """Bids by :func:`rule_bid` or the advisor, exchanges by the ``sampled`` policies, plays PIMC (see the module doc).

    ``samples`` layouts a card decision; ``candidates`` and ``redeals`` the exchange policies'
    (discard sets tried, re-deals each); the same ``seed``, the same actions."""

    def __init__(self, samples: int = DEFAULT_PIMC_SAMPLES, seed: int = 0, *, bidding: str = "rule",
                 candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS, play: str = "pimc",
                 solver: CoreSolver | None = None, name: str = "pimc") -> None:
        check_int("samples", samples, 1, MAX_PIMC_SAMPLES)
        check_int("candidates", candidates, 1, 1000)
        check_int("redeals", redeals, 1, 1000)
        if bidding not in ("rule", "advisor"):
            raise ParameterError("bidding", bidding, "use rule or advisor")
        if play not in ("pimc", "contract", "learned"):
            raise ParameterError("play", play, "use pimc, contract or learned")
        self.name, self.samples, self.seed, self.bidding = name, samples, seed, bidding
        self.candidates, self.redeals, self.solver = candidates, redeals, solver
        self.plans = _Plans()
        #: the card player: thirds-minded PIMC, the advice's contract-minded one, or the learned one (docs/play.md)
        self.player = make_player(play, samples=samples, seed=seed, solver=solver)
        self.advice: dict[tuple[int, Mask, Rules], Contract | None] = {}

    def _solver(self) -> CoreSolver:
        return self.solver or default_solver()

    def _rng(self, state: GameState, seat: int) -> np.random.Generator:
        return rng_for(self.seed, len(state.history), seat)

    def target(self, state: GameState, seat: int) -> Contract | None:
        if self.bidding == "rule":
            return super().target(state, seat)
        key = (seat, state.dealt[seat], state.rules)
        if key not in self.advice:
            from ..advice.advisor import advise  # seconds a hand: loaded only for an agent that bids by it

            said = advise(state.dealt[seat], seat=seat, seed=self.seed, jobs=1, rules=state.rules).recommendation
            self.advice[key] = None if said == "pass" else said  # type: ignore[assignment]
        return self.advice[key]

    def soloist_plan(self, state: GameState, seat: int) -> tuple[Card | None, Mask]:
        mine, call, holder, unknown = _soloist_view(state, seat)
        assert state.contract is not None
        leader = first_leader(state.contract, seat, state.rules)
        return sampled_plan(mine, call, holder, unknown, seat, leader, self._solver(), self._rng(state, seat),
                            candidates=self.candidates, redeals=self.redeals)

    def split(self, state: GameState, seat: int) -> Mask:
        assert state.soloist is not None
        leader = first_leader("scegliete", state.soloist, state.rules)
        takes, _ = propose_split(state.held(seat), state.monte, seat, state.soloist, leader, self._solver(),
                                 self._rng(state, seat), candidates=self.candidates, redeals=self.redeals)
        return takes

    def defender_discards(self, state: GameState, seat: int) -> Mask:
        soloist, contract = state.soloist, state.contract
        assert soloist is not None and contract is not None
        partner = 3 - seat - soloist
        mine = _pool_before_discards(state, seat)
        seen = state.takes[partner] if contract == "scegliete" else 0
        return sampled_defender_discards(
            mine, popcount(state.takes[seat]), seat, soloist, first_leader(contract, soloist, state.rules),
            self._solver(), self._rng(state, seat), partner=(seen, popcount(state.takes[partner])),
            candidates=self.candidates, redeals=self.redeals,
        )

    def card(self, state: GameState) -> int:
        assert state.play is not None
        return self.player.choose(state.record(), state.play)


class LearnedAgent(PimcAgent):
    """The learned agent (see the module doc): the pimc agent's bidding, the learned exchange and card player."""

    def __init__(self, samples: int = DEFAULT_LEARNED_LAYOUTS, seed: int = 0, *, bidding: str = "rule",
                 candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS,
                 solver: CoreSolver | None = None) -> None:
        super().__init__(samples, seed, bidding=bidding, candidates=candidates, redeals=redeals, play="learned",
                         solver=solver, name="learned")

    def soloist_plan(self, state: GameState, seat: int) -> tuple[Card | None, Mask]:
        mine, call, holder, _ = _soloist_view(state, seat)
        assert state.contract is not None
        leads = first_leader(state.contract, seat, state.rules) == seat
        return learned_soloist_plan(mine, state.monte, call, holder, state.contract, leads)

    def split(self, state: GameState, seat: int) -> Mask:
        assert state.soloist is not None
        return learned_split(state.held(seat), state.monte, seat, state.soloist)

    def defender_discards(self, state: GameState, seat: int) -> Mask:
        soloist, contract = state.soloist, state.contract
        assert soloist is not None and contract is not None
        partner = 3 - seat - soloist
        seen = state.takes[partner] if contract == "scegliete" else 0
        return learned_defender_discards(_pool_before_discards(state, seat), state.takes[seat], seen, contract, seat,
                                         soloist)


class DoubleDummyAgent(_Planner):
    """Sees every card: bids by :func:`rule_bid`, exchanges and plays double dummy (see the module doc)."""

    def __init__(self, solver: CoreSolver | None = None, objective: Objective = "thirds", name: str = "dd") -> None:
        self.name, self.solver = name, solver
        self.plans = _Plans()
        self.player = DoubleDummyPlayer(solver, objective)
        self.calls: dict[tuple[int, ...], Exchange] = {}

    def _best(self, state: GameState, given: Exchange) -> Exchange:
        from ..exchange.search import SearchLimits, search_exchange  # the exchange search: seconds

        assert state.soloist is not None and state.contract is not None
        leader = first_leader(state.contract, state.soloist, state.rules)
        found = search_exchange(state.dealt, state.monte, state.contract, state.soloist, leader, given=given,
                                solver=self.solver or default_solver(), limits=SearchLimits(top=1))
        return found.exchange

    def call(self, state: GameState, seat: int) -> int:
        best = self._best(state, Exchange())
        assert best.call is not None
        return best.call

    def soloist_plan(self, state: GameState, seat: int) -> tuple[Card | None, Mask]:
        best = self._best(state, Exchange(call=state.call))
        assert best.discards is not None
        return best.returned, best.discards[seat]

    def split(self, state: GameState, seat: int) -> Mask:
        best = self._best(state, Exchange())
        assert best.takes is not None
        return best.takes[defender_seats(state.soloist or 0)[0]]

    def defender_discards(self, state: GameState, seat: int) -> Mask:
        t = state.takes
        best = self._best(state, Exchange(takes=(t[0], t[1], t[2])))
        assert best.discards is not None
        return best.discards[seat]

    def card(self, state: GameState) -> int:
        assert state.play is not None
        return self.player.choose(state.record(), state.play)


def parse_agent(spec: str) -> tuple[str, dict[str, str]]:
    """An agent's spec ``NAME[:KEY=VALUE,...]`` as its name and options (checked by :func:`make_agent`).

    >>> parse_agent("pimc:samples=8,bidding=advisor")
    ('pimc', {'samples': '8', 'bidding': 'advisor'})
    """
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ParameterError("agent", spec, f"option {item!r}: write it as KEY=VALUE, e.g. pimc:samples=8")
        options[key.strip().lower()] = value.strip()
    return name.strip().lower(), options


#: Each agent's options: name -> (type, what it is).
_OPTIONS: dict[str, dict[str, type]] = {
    "random": {},
    "heuristic": {},
    "pimc": {"samples": int, "bidding": str, "candidates": int, "redeals": int, "play": str},
    "learned": {"samples": int, "bidding": str, "candidates": int, "redeals": int},
    "dd": {"objective": str},
}


def make_agent(spec: str, seed: int | None = None, solver: CoreSolver | None = None) -> Agent:
    """The agent a spec names (:func:`parse_agent`): ``random``, ``heuristic``, ``pimc`` (options ``samples``,
    ``bidding``, ``candidates``, ``redeals``, ``play``), ``learned`` (the same but ``play``) or ``dd`` (option
    ``objective``: thirds or payoff).
    ``seed``: the same seed, the same actions; None, a seed of its own from the system's entropy (two
    agents made without one do not share a stream).

    >>> make_agent("pimc:samples=4").samples
    4
    >>> make_agent("pimc:n=4")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: agent 'pimc:n=4': unknown option 'n' of pimc (use samples, bidding, candidates, redeals, play)
    """
    name, options = parse_agent(spec)
    if name not in _OPTIONS:
        raise ParameterError("agent", spec, f"unknown agent {name!r} (use {', '.join(AGENTS)})")
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        kind = _OPTIONS[name].get(key)
        if kind is None:
            known = ", ".join(_OPTIONS[name]) or "none"
            raise ParameterError("agent", spec, f"unknown option {key!r} of {name} (use {known})")
        if kind is int and not value.isdigit():
            raise ParameterError("agent", spec, f"option {key}: {value!r} is not a whole number")
        kwargs[key] = int(value) if kind is int else value.lower()
    if seed is None:
        seed = fresh_seed()
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent()
    if name == "pimc":
        return PimcAgent(seed=seed, solver=solver, **kwargs)
    if name == "learned":
        return LearnedAgent(seed=seed, solver=solver, **kwargs)
    objective = kwargs.get("objective", "thirds")
    if objective not in ("thirds", "payoff"):
        raise ParameterError("agent", spec, f"option objective: {objective!r} (use thirds or payoff)")
    return DoubleDummyAgent(solver, objective)
