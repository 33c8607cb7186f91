"""A PIMC player that plays for the contract: boolean searches at the target instead of exact values.

:class:`ContractPimcPlayer` sees what its seat sees and deals the unseen cards
exactly as :class:`~calasolve.play.players.PimcPlayer` does (the same layouts
for a seed and a position).  For each legal card and layout it asks one
null-window question of the core: after this card, does the soloist still
make the contract (18 final thirds, the thirds captured counted)?  The
soloist plays the card that makes it on the most layouts, a defender the
card that beats it on the most (docs/play.md, "The contract-minded player").

- **Equal cards once.**  Cards of one suit in the mover's hand with no card
  still in play between them and worth the same thirds play alike on every
  layout: only the lowest of each run is searched.
- **Best first.**  The card that could still reach the highest count is
  tested next, and a card that can no longer reach the best count found is
  dropped (the counts are exact for the cards kept, so the choice is that
  of testing every card on every layout).  Where a card does not help the
  mover on a layout, one test of the position itself says whether any card
  does (the soloist cannot make it, or the defenders cannot beat it,
  whatever it plays): if none does, every card scores the same there and
  no other is searched.
- **The opening tricks** (``opening_tricks``, the first two) have half the
  layouts (``first_samples``): their searches cover most of the deal, and
  fewer layouts there play as well.
- **Ties** go to the multiplier (:func:`multiplier_goals`): on the layouts
  where a card makes the contract, does the soloist still reach the thirds
  in cards that win the next multiplier (stramazzo: 30 of the 32 card
  thirds), and where it fails, those that escape the worse one (3)?  The
  soloist counts those layouts up, the defenders down; the last ties go to
  the lowest card (:func:`~calasolve.play.players.lowest_first`).  With a
  ``step``, margins come first (:func:`ladder`): 18 ± ``step`` thirds, then
  ± 2 ``step``, out to the multiplier's thresholds (measured: no better in
  game points, docs/experiments.md).
- **Settled.**  When every card makes the contract on every layout, or
  every card fails it on every layout, the contract is settled for this
  decision and the rest is played by ``rest``: ``levels`` (the multiplier's
  tests above, then the lowest card), ``heuristic``
  (:class:`~calasolve.play.players.HeuristicPlayer`) or ``thirds`` (the best
  mean double-dummy thirds over the same layouts, as ``PimcPlayer``).  Each
  decision is judged afresh, so a contract that comes back into play after
  a mistake is played for again.  Once the tricks taken settle it (the
  soloist holds 18 thirds, or the defenders 18), ``levels`` plays for the
  multiplier alone: its goal is tested as the contract's was.

**Who deals the layouts** (``sampler``): ``numpy``, those of ``PimcPlayer``
for the same seed; ``core``, the C core's own stream (:func:`core_layouts`),
uniform as well.  With the core's layouts, the ``levels`` rest and the C
solver, the whole decision (dealing and tally) is one call of the core
(``contract_choice``), which plays the card the tally here plays on the same
layouts, at a fraction of the cost (docs/play.md).

Whatever chose the cards, a played deal is scored exactly by the rules
(:meth:`~calasolve.game.state.PlayState.result`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Literal, Sequence

from ..game.cards import (
    LAST_TRICK_THIRDS, MAKE_THIRDS, RANK_THIRDS, TOTAL_THIRDS, Card, cards_of, mask_of, mask_thirds, rank_of, suit_of,
)
from ..game.errors import CalasolveError, ParameterError
from ..game.limits import check_int
from ..game.rules import STANDARD, Rules
from ..game.sampling import rng_for
from ..game.state import TRICKS, Contract, CorePosition, PlayState, core_position
from ..types.record import Record
from ..search import _core
from ..search.engines import CoreSolver
from ..search.payoff import CARD_THIRDS, NONE, SOME, SWEEP, outcome_payoff, payoff_levels, possible
from ..search.solving import default_solver, final_card_values
from .knowledge import ViewMasks, deal_layout, view_masks, view_of
from .players import DEFAULT_PIMC_SAMPLES, MAX_PIMC_SAMPLES, HeuristicPlayer, Layout, lowest_first, pick

__all__ = [
    "ContractPimcPlayer", "ContractStats", "Goal", "MAKE", "RESTS", "Rest", "SAMPLERS", "Sampler", "card_threshold",
    "core_layouts", "ladder", "multiplier_goals", "representatives",
]

#: How a settled decision is played (see the module doc).
Rest = Literal["levels", "heuristic", "thirds"]
RESTS: tuple[Rest, ...] = ("levels", "heuristic", "thirds")
#: Who deals a decision's layouts (see the module doc).
Sampler = Literal["numpy", "core"]
SAMPLERS: tuple[Sampler, ...] = ("numpy", "core")
#: The rest rule measured best by game points (docs/play.md).
DEFAULT_REST: Rest = "levels"
#: Thirds between the margin targets of the tie-breaking ladder (0: none, the multiplier's goals only; docs/play.md).
DEFAULT_STEP = 0
#: Tricks played with ``first_samples`` layouts (docs/advisor.md, "The players, compared").
DEFAULT_OPENING_TRICKS = 2


@dataclass(frozen=True)
class Goal:
    """The soloist ends the deal with at least ``target`` thirds: all of them (the monte and the last
    counted), or with ``cards`` the thirds in cards only (the monte counted, the last not: stramazzo's count)."""

    target: int
    cards: bool = False


#: Making the contract.
MAKE = Goal(MAKE_THIRDS)


def _outcomes() -> list[tuple[int, int, int]]:
    """Every way a whole deal can end: (soloist's card thirds, won the last, trick class)."""
    out = []
    for cards in range(CARD_THIRDS + 1):
        for last in (0, 1):
            for tricks in (NONE, SOME, SWEEP):
                if possible(cards + LAST_TRICK_THIRDS * last, bool(last), tricks):
                    out.append((cards, last, tricks))
    return out


@lru_cache(maxsize=None)
def card_threshold(contract: Contract, level: int, made: bool, rules: Rules = STANDARD) -> int | None:
    """The soloist's card thirds that win payoff ``level`` among the deals that end ``made`` (or not):
    the fewest from which every such ending pays at least ``level``, or where no count is sure of it,
    the fewest of any ending that does; None when none does.

    >>> card_threshold("solo", 8, True), card_threshold("solo", -4, False)           # stramazzo; escaping it
    (30, 3)
    >>> card_threshold("solo", 8, True, Rules(stramazzo="off"))                       # only a sweep: 32 needed
    32
    """
    ends = [(c, last, t) for c, last, t in _outcomes() if (c + LAST_TRICK_THIRDS * last >= MAKE_THIRDS) == made]
    pays = {(c, last, t): outcome_payoff(contract, c + LAST_TRICK_THIRDS * last, bool(last), t, rules) >= level
            for c, last, t in ends}
    wins = [c for (c, _, _), ok in pays.items() if ok]
    if not wins:
        return None
    for c in range(max(e for e, _, _ in ends) + 1):
        if all(ok for (e, _, _), ok in pays.items() if e >= c):
            return c
    return min(wins)


@lru_cache(maxsize=None)
def multiplier_goals(contract: Contract, rules: Rules = STANDARD) -> tuple[Goal | None, Goal | None]:
    """The tie-breaking goals ``(up, down)``: where the contract is made, the card thirds of the next
    payoff level up (a multiplier won); where it fails, those of the level just below the make (the
    worse multipliers escaped).

    >>> multiplier_goals("solo")
    (Goal(target=30, cards=True), Goal(target=3, cards=True))
    """
    levels = payoff_levels(contract, rules)
    make = min(i for i, p in enumerate(levels) if p > 0)
    up = card_threshold(contract, levels[make + 1], True, rules) if make + 1 < len(levels) else None
    down = card_threshold(contract, levels[make - 1], False, rules) if make >= 1 else None
    return (None if up is None else Goal(up, True)), (None if down is None else Goal(down, True))


@lru_cache(maxsize=None)
def ladder(contract: Contract, rules: Rules = STANDARD, step: int = DEFAULT_STEP) -> tuple[tuple[Goal | None, Goal | None], ...]:
    """The tie-breaking goals after the contract, in order: pairs ``(up, down)``, ``up`` asked where a card
    makes the contract, ``down`` where it fails.  With a ``step``, first the margins, every ``step`` thirds out
    from 18 (a contract made with room to spare, or failed by little), as far as the multiplier's thresholds;
    then the multiplier's goals (:func:`multiplier_goals`).  A side with fewer rungs asks nothing (None) on the
    others.

    >>> [(u and u.target, d and d.target) for u, d in ladder("solo", step=6)]
    [(24, 12), (None, 6), (30, 3)]
    >>> ladder("solo", step=0) == (multiplier_goals("solo"),)
    True
    """
    up, down = multiplier_goals(contract, rules)
    ups: list[Goal | None] = []
    downs: list[Goal | None] = []
    if step:
        ceiling = up.target if up is not None else TOTAL_THIRDS
        floor = down.target if down is not None else 0
        ups = [Goal(t) for t in range(MAKE_THIRDS + step, ceiling, step)]
        downs = [Goal(t) for t in range(MAKE_THIRDS - step, floor, -step)]
    rungs = max(len(ups), len(downs))
    ups += [None] * (rungs - len(ups))
    downs += [None] * (rungs - len(downs))
    return (*zip(ups, downs), (up, down))


def representatives(state: PlayState) -> list[Card]:
    """The legal cards of the player to move, one per run of equal cards (the lowest), lowest first.

    Two cards of a suit are equal when no card between them is still in play (in a hand or the current
    trick: the monte's cards are counted as in play, since the seat may not know them) and they are worth
    the same thirds: on every layout they win the same tricks and the same thirds.
    """
    legal = state.legal()
    in_play = state.hands[0] | state.hands[1] | state.hands[2] | state.monte
    for c in state.trick:
        in_play |= 1 << c
    others = in_play & ~state.hands[state.to_move]  # in play and not the mover's: what may part two cards
    out: list[Card] = []
    prev = -1
    for card in cards_of(legal):  # by suit, then rank (card order)
        if (prev >= 0 and suit_of(prev) == suit_of(card) and RANK_THIRDS[rank_of(card)] == RANK_THIRDS[rank_of(prev)]
                and not others & ((1 << card) - (2 << prev))):
            continue  # equal to the run's lowest, already kept
        out.append(card)
        prev = card
    return sorted(out, key=lowest_first)


@dataclass
class ContractStats:
    """What a contract-minded player did: decisions (with more than one card to choose from), those settled,
    layouts drawn and distinct, the core's calls (null-window tests; with the ``thirds`` rest also card values), and
    the CPU seconds of this process."""

    decisions: int = 0
    settled: int = 0
    layouts: int = 0
    solved: int = 0
    calls: int = 0
    seconds: float = 0.0


@dataclass
class ContractPimcPlayer:
    """Samples the unseen cards and plays the card that makes (soloist) or beats (defenders) the contract on
    the most layouts (see the module doc)."""

    samples: int = DEFAULT_PIMC_SAMPLES
    seed: int = 0
    solver: CoreSolver | None = None
    rest: Rest = DEFAULT_REST
    #: thirds between the margin targets that break ties before the multiplier's (0: the multiplier's only)
    step: int = DEFAULT_STEP
    #: layouts a decision of the opening tricks, where the searches are deepest (None: half of ``samples``,
    #: rounded up; measured as strong as ``samples`` there, docs/advisor.md)
    first_samples: int | None = None
    #: the tricks that are the opening ones (``first_samples`` layouts)
    opening_tricks: int = DEFAULT_OPENING_TRICKS
    #: who deals the layouts (see the module doc)
    sampler: Sampler = "numpy"
    name: str = "contract"
    stats: ContractStats = field(default_factory=ContractStats)

    def __post_init__(self) -> None:
        check_int("samples", self.samples, 1, MAX_PIMC_SAMPLES)
        check_int("seed", self.seed, 0, 2**63 - 1)
        check_int("step", self.step, 0, MAKE_THIRDS)
        if self.first_samples is not None:
            check_int("first_samples", self.first_samples, 1, MAX_PIMC_SAMPLES)
        check_int("opening_tricks", self.opening_tricks, 0, TRICKS)
        if self.rest not in RESTS:
            raise ParameterError("rest", self.rest, f"unknown rule for a settled contract (use {', '.join(RESTS)})")
        if self.sampler not in SAMPLERS:
            raise ParameterError("sampler", self.sampler, f"unknown sampler (use {', '.join(SAMPLERS)})")

    def _count(self, state: PlayState) -> int:
        """The layouts this decision tests (fewer in the opening tricks)."""
        if len(state.history) < 3 * self.opening_tricks:
            return self.first_samples if self.first_samples is not None else (self.samples + 1) // 2
        return self.samples

    def layouts(self, record: Record, state: PlayState) -> list[Layout]:
        """The layouts of the unseen cards this decision tests: with the ``numpy`` sampler the first of
        :meth:`PimcPlayer.layouts`'s for the same seed (all of them after the opening tricks), with ``core`` the
        core's (:func:`core_layouts`)."""
        if self.sampler == "core":
            return core_layouts(view_masks(record, state, state.to_move), state.to_move, self.seed,
                                len(state.history), self._count(state))
        view = view_of(record, state, state.to_move)
        rng = rng_for(self.seed, len(state.history))
        return [deal_layout(view, rng) for _ in range(self._count(state))]

    def choose(self, record: Record, state: PlayState) -> Card:
        legal = list(cards_of(state.legal()))
        if len(legal) == 1:
            return legal[0]
        reps = representatives(state)
        if len(reps) == 1:
            return reps[0]
        start = time.process_time()
        try:
            return self._decide(record, state, reps)
        finally:
            self.stats.decisions += 1
            self.stats.seconds += time.process_time() - start

    def _decide(self, record: Record, state: PlayState, reps: list[Card]) -> Card:
        solver = self.solver or default_solver()
        maximise = state.to_move == state.soloist
        s = state.soloist
        mine = state.captured[s]
        taken = mine >= MAKE_THIRDS or sum(state.captured) - mine > TOTAL_THIRDS - MAKE_THIRDS
        if taken and self.rest == "heuristic":  # settled by the tricks taken: no layout needed
            self.stats.settled += 1
            return HeuristicPlayer().choose(record, state)
        if self.sampler == "core" and self.rest == "levels" and isinstance(solver, _core.Solver):
            return self._decide_in_core(solver, record, state, reps, taken)
        drawn = Counter(self.layouts(record, state))  # a layout drawn again is tested once, counted twice
        positions = [_with_layout(state, layout) for layout in drawn]
        weights = list(drawn.values())
        self.stats.layouts += sum(weights)
        self.stats.solved += len(positions)
        if taken:
            self.stats.settled += 1
            if self.rest == "thirds":
                return self._best_thirds(solver, positions, weights, maximise)
            # only the multiplier is still open: its goal is the contract now, with no ladder after it
            goal = _open_multiplier(record, state)
            if goal is None:
                return reps[0]  # the game points are settled too
            return self._tally(solver, positions, weights, reps, lambda r, j: goal, maximise)[1][0]
        made, tied = self._tally(solver, positions, weights, reps, lambda r, j: MAKE, maximise)
        # settled: every card makes it on every layout, or fails on every one (no card was dropped)
        if len(tied) == len(reps) and len({x for r in reps for x in made[r]}) == 1:
            self.stats.settled += 1
            if self.rest == "heuristic":
                return HeuristicPlayer().choose(record, state)
            if self.rest == "thirds":
                return self._best_thirds(solver, positions, weights, maximise)
        for up, down in ladder(record.contract, record.rules, self.step):
            if len(tied) < 2:
                break
            # the goal depends on the card's contract on the layout (the lambda is used before the next rung)
            _, tied = self._tally(solver, positions, weights, tied, lambda r, j: up if made[r][j] else down, maximise)
        return tied[0]

    def _decide_in_core(self, solver: _core.Solver, record: Record, state: PlayState, reps: list[Card],
                        taken: bool) -> Card:
        """:meth:`_decide` (the ``levels`` rest) as one call of the core, on the core's layouts."""
        s = state.soloist
        first: Goal | None = MAKE
        rungs: tuple[tuple[Goal | None, Goal | None], ...] = ladder(record.contract, record.rules, self.step)
        if taken:
            self.stats.settled += 1
            first = _open_multiplier(record, state)
            if first is None:
                return reps[0]  # the game points are settled too
            rungs = ()
        seat = state.to_move
        view = view_masks(record, state, seat)
        count = self._count(state)
        answer = _core.contract_choice(
            solver, seat, view.placed, view.may, view.sizes, state.trick, state.leader, s,
            LAST_TRICK_THIRDS, state.captured[s], state.card_thirds[s], reps, _target(first),
            [(_target(u), _target(d)) for u, d in rungs], self.seed, len(state.history), count)
        if answer is None:
            raise _no_layout(seat)
        card, distinct, calls, settled = answer
        self.stats.layouts += count
        self.stats.solved += distinct
        self.stats.calls += calls
        self.stats.settled += settled and not taken
        return card

    def _tally(
        self, solver: CoreSolver, positions: Sequence[PlayState], weights: Sequence[int], reps: Sequence[Card],
        goal_of: Callable[[Card, int], Goal | None], maximise: bool,
    ) -> tuple[dict[Card, list[bool | None]], list[Card]]:
        """Each card's goal on each layout, and the cards best for the mover: the most layouts (by weight)
        where the goal is met (soloist) or missed (defenders), in ``reps``' order.

        Best first: the card that could still reach the highest count is tested next, on its next layout
        still open, and a card that can no longer reach the best count found is dropped (its results keep
        None where untested).  The counts of the cards kept, so the choice, are those of testing every
        card on every layout; a strong card found early spares the others most of their tests."""
        n = len(positions)
        results: dict[Card, list[bool | None]] = {r: [None] * n for r in reps}
        good = dict.fromkeys(reps, 0)
        upper = dict.fromkeys(reps, sum(weights))
        tested = [False] * n  # the position itself tested on this layout

        def score(r: Card, j: int, met: bool) -> None:
            results[r][j] = met
            if met == maximise:
                good[r] += weights[j]
            else:
                upper[r] -= weights[j]

        live = list(reps)
        while True:
            floor = max(good[r] for r in live)
            live = [r for r in live if upper[r] >= floor]
            open_cards = [r for r in live if upper[r] > good[r]]
            if not open_cards:
                break
            r = max(open_cards, key=lambda c: upper[c])  # the first of the highest: reps' order breaks ties
            j = results[r].index(None)
            goal = goal_of(r, j)
            met = goal is not None and self._meets_after(solver, positions[j], r, goal)
            score(r, j, met)
            if met == maximise or tested[j]:
                continue
            # this card does not help here: when no card does, one test of the position settles the others
            others = [c for c in live if results[c][j] is None]
            if others and all(goal_of(c, j) == goal for c in others):
                tested[j] = True
                if goal is None or self._meets(solver, positions[j], goal) != maximise:
                    for c in others:
                        score(c, j, met)
        best = max(good[r] for r in live)
        return results, [r for r in live if good[r] == best]

    def _meets(self, solver: CoreSolver, state: PlayState, goal: Goal) -> bool:
        """Does the soloist reach ``goal`` from ``state`` (one layout) with best play by both sides?"""
        have = _have(state, goal)
        if state.is_over or have >= goal.target:
            return have >= goal.target
        return self._search(solver, core_position(state), have, goal)

    def _meets_after(self, solver: CoreSolver, state: PlayState, card: Card, goal: Goal) -> bool:
        """:meth:`_meets` once the mover has played ``card`` (one of its legal cards)."""
        if len(state.trick) == 2:
            child = state.copy()
            child.play_legal(card)
            return self._meets(solver, child, goal)
        # the trick goes on: nothing is taken, only the mover's hand and the trick change (no copy to make)
        have = _have(state, goal)
        if have >= goal.target:
            return True
        hands = list(state.hands)
        hands[(state.leader + len(state.trick)) % 3] &= ~(1 << card)
        position = (hands[0], hands[1], hands[2]), (*state.trick, card), state.leader, state.soloist, state.last_bonus
        return self._search(solver, position, have, goal)

    def _search(self, solver: CoreSolver, position: CorePosition, have: int, goal: Goal) -> bool:
        """The core's null-window test of ``goal`` from ``position``, where the soloist has ``have`` already."""
        hands, trick, leader, soloist, bonus = position
        if goal.cards:
            bonus -= LAST_TRICK_THIRDS  # the monte still counts for the side that takes it; the last does not
        if goal.target - have > mask_thirds(hands[0] | hands[1] | hands[2] | mask_of(trick)) + bonus:
            return False  # more than is left
        self.stats.calls += 1
        return bool(solver.reaches(hands, trick, leader, soloist, bonus, goal.target - have))

    def _best_thirds(self, solver: CoreSolver, positions: Sequence[PlayState], weights: Sequence[int],
                     maximise: bool) -> Card:
        totals: dict[Card, int] = {}
        for pos, w in zip(positions, weights):
            self.stats.calls += 1
            for card, value in final_card_values(solver, pos).items():
                totals[card] = totals.get(card, 0) + w * value
        return pick(totals, maximise)


def _have(state: PlayState, goal: Goal) -> int:
    """What the soloist holds already toward ``goal``: its card thirds, or all its thirds."""
    s = state.soloist
    return state.card_thirds[s] if goal.cards else state.captured[s]


def _open_multiplier(record: Record, state: PlayState) -> Goal | None:
    """Once the tricks taken settle the contract, the multiplier's goal still open (won where it is made, escaped
    where it fails); None when the game points are settled too."""
    s = state.soloist
    up, down = multiplier_goals(record.contract, record.rules)
    goal = up if state.captured[s] >= MAKE_THIRDS else down
    defence_cards = sum(state.card_thirds) - state.card_thirds[s]
    if goal is None or (CARD_THIRDS - defence_cards < goal.target if goal is up else state.card_thirds[s] >= goal.target):
        return None
    return goal


def core_layouts(view: ViewMasks, seat: int, seed: int, stream: int, n: int) -> list[Layout]:
    """``n`` layouts of the unseen cards for ``seat``'s ``view``, dealt by the core (uniform among those that fit,
    as :func:`~calasolve.play.knowledge.deal_layout`'s, from the core's own stream of ``seed`` and ``stream``)."""
    layouts = _core.deal_layouts(seat, view.placed, view.may, view.sizes, seed, stream, n)
    if layouts is None:
        raise _no_layout(seat)
    return layouts


def _no_layout(seat: int) -> CalasolveError:
    return CalasolveError(f"seat {seat}'s knowledge admits no layout of the unseen cards (an inconsistent record)")


def _target(goal: Goal | None) -> tuple[int, bool] | None:
    return None if goal is None else (goal.target, goal.cards)


def _with_layout(state: PlayState, layout: Layout) -> PlayState:
    """``state`` with a sampled layout's hands and monte (the tricks played stay)."""
    out = state.copy()
    out.hands = list(layout[0])
    out.monte = layout[1]
    return out
