"""Payoff-aware double dummy: play for game points, not for thirds.

Players are paid in game points (docs/rules.md §8): the contract's value times
a multiplier, where sweeping every trick pays x2 (cappotto) but leaving the
defenders one pointless trick can pay x3 (stramazzo), and a failing soloist
can still lose x1 instead of x3.  So the soloist's best play for payoff is
not always the play for the most thirds.

The final payoff depends only on three facts about the finished deal:

- ``S``, the soloist's final thirds (cards, the monte and the last);
- ``L``, whether the soloist won the last trick (the last's 3 thirds count
  for making the contract but not for stramazzo: the soloist's card thirds
  are ``S - 3L`` and the defenders' are ``32 - (S - 3L)``);
- whether the soloist won no trick, every trick, or some.

:func:`outcome_payoff` maps those facts to the payoff, :func:`payoff_levels`
lists the payoffs a contract can end with, and :func:`goal_table` turns
"payoff at least P" into the table of winning outcomes that the C core's
goal search takes.  :func:`reference_payoff` is the brute-force twin used by
the tests.

>>> outcome_payoff("solo", 35, True, SWEEP)          # cappotto: x2
8
>>> outcome_payoff("solo", 33, True, SOME)           # defenders hold 2 card thirds: stramazzo x3
12
>>> outcome_payoff("solo", 33, True, SOME, Rules(stramazzo="off"))
4
>>> payoff_levels("solo")
(-12, -8, -4, 4, 8, 12)
>>> payoff_levels("solo", Rules(payment="plus"))
(-6, -4, -2, 2, 4, 6)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ..game.cards import LAST_TRICK_THIRDS, MAKE_THIRDS, RANK_THIRDS, Card, Mask, cards_of, mask_thirds
from ..game.state import CONTRACT_VALUE, TRICKS, Contract, PlayState, core_position, legal_cards, multiplier, payments, trick_winner
from . import engines
from .engines import CoreSolver, GoalSearcher
from ..game.defaults import DEFAULT_GOAL_MB
from ..game.errors import InternalError
from ..game.rules import STANDARD, Rules

#: Trick classes of a finished deal, from the soloist's side.
NONE, SOME, SWEEP = 0, 1, 2
#: Card thirds in a deal (the 40 cards: the last's 3 are not card thirds).
CARD_THIRDS = 32


def outcome_payoff(contract: Contract, thirds: int, won_last: bool, tricks: int, rules: Rules = STANDARD) -> int:
    """The soloist's game points for a deal ending with ``thirds`` (S), ``won_last`` (L), trick class ``tricks``."""
    makes = thirds >= MAKE_THIRDS
    soloist_cards = thirds - (LAST_TRICK_THIRDS if won_last else 0)
    m, _ = multiplier(
        makes=makes,
        soloist_tricks={NONE: 0, SWEEP: TRICKS}.get(tricks, 1),
        soloist_card_thirds=soloist_cards,
        defender_card_thirds=CARD_THIRDS - soloist_cards,
        rules=rules,
    )
    paid = payments(contract, 0, makes, m, rules)
    if rules.payment == "plus":
        # Under "plus" nobody pays: a made contract pays the soloist v*m, a failed
        # one pays each defender v*m.  The defenders still fight for their
        # multiplier, so the objective is the soloist's net: what the soloist
        # gains minus what each defender gains (+v*m or -v*m).
        return paid[0] - paid[1]
    return paid[0]


def possible(thirds: int, won_last: bool, tricks: int) -> bool:
    """Can a deal end this way at all?  (Used to list the real payoff levels.)"""
    cards = thirds - (LAST_TRICK_THIRDS if won_last else 0)
    if not 0 <= cards <= CARD_THIRDS:
        return False
    if tricks == NONE:
        return thirds == 0 and not won_last
    if tricks == SWEEP:
        return thirds == 35 and won_last
    return True


@lru_cache(maxsize=None)
def payoff_levels(contract: Contract, rules: Rules = STANDARD) -> tuple[int, ...]:
    """Every payoff the soloist can end a deal of ``contract`` with, lowest first."""
    return tuple(sorted({
        outcome_payoff(contract, s, bool(last), t, rules)
        for s in range(36) for last in (0, 1) for t in (NONE, SOME, SWEEP) if possible(s, bool(last), t)
    }))


@lru_cache(maxsize=None)
def goal_table(contract: Contract, level: int, rules: Rules = STANDARD) -> bytes:
    """The outcomes where the soloist's payoff is at least ``level``.

    36 x 2 x 3 bytes, index ``(S * 2 + L) * 3 + trick class``, 1 = the
    soloist reaches the goal.  This is the goal the C core searches for.
    """
    return bytes(
        1 if outcome_payoff(contract, s, bool(last), t, rules) >= level else 0
        for s in range(36) for last in (0, 1) for t in (NONE, SOME, SWEEP)
    )


def trick_class(soloist_tricks: int, defence_tricks: int) -> int:
    """NONE, SOME or SWEEP for a finished deal."""
    if soloist_tricks == 0:
        return NONE
    return SWEEP if defence_tricks == 0 else SOME


def reference_payoff(
    hands: Sequence[Mask],
    trick: Sequence[Card],
    leader: int,
    soloist: int,
    last_bonus: int,
    *,
    contract: Contract,
    captured: int,
    soloist_tricks: int,
    defence_tricks: int,
    rules: Rules = STANDARD,
) -> dict[Card, int]:
    """Brute force: each legal card's payoff for the soloist (soloist max, defenders min).

    ``captured``, ``soloist_tricks`` and ``defence_tricks`` are what was
    already won before this position; the position is otherwise as in
    :mod:`calasolve.search.reference`.
    """

    @lru_cache(maxsize=None)
    def node(h: tuple[Mask, Mask, Mask], t: tuple[Card, ...], lead: int, s: int, st: int, dt: int) -> int:
        seat = (lead + len(t)) % 3
        values = [child(h, t, lead, s, st, dt, c) for c in cards_of(legal_cards(h[seat], t))]
        return max(values) if seat == soloist else min(values)

    def child(h: tuple[Mask, Mask, Mask], t: tuple[Card, ...], lead: int, s: int, st: int, dt: int, card: Card) -> int:
        seat = (lead + len(t)) % 3
        nh = list(h)
        nh[seat] &= ~(1 << card)
        nt = t + (card,)
        if len(nt) < 3:
            return node((nh[0], nh[1], nh[2]), nt, lead, s, st, dt)
        winner = trick_winner(nt, lead)
        gained = sum(RANK_THIRDS[c % 10] for c in nt)
        last = not any(nh)
        if last:
            gained += last_bonus
        if winner == soloist:
            s, st = s + gained, st + 1
        else:
            dt += 1
        if last:
            return outcome_payoff(contract, s, winner == soloist, trick_class(st, dt), rules)
        return node((nh[0], nh[1], nh[2]), (), winner, s, st, dt)

    h0: tuple[Mask, Mask, Mask] = (hands[0], hands[1], hands[2])
    seat = (leader + len(trick)) % 3
    return {
        c: child(h0, tuple(trick), leader, captured, soloist_tricks, defence_tricks, c)
        for c in cards_of(legal_cards(h0[seat], tuple(trick)))
    }


# -- payoff-aware solving with the C goal search ---------------------------------------

#: The memo of the process-wide goal search, in MiB, when no size is asked for.
GOAL_SEARCH_MB = DEFAULT_GOAL_MB


def goal_search(goal_mb: int | None = None) -> GoalSearcher:
    """The process-wide C goal searcher (:func:`calasolve.search.engines.goal_search`), made
    on first use with a memo of ``goal_mb`` MiB (default: the size last asked for,
    at first 8); asking for another size replaces it."""
    return engines.goal_search(goal_mb)


def _flags(state: PlayState) -> tuple[int, bool, bool]:
    s = state.soloist
    won = state.tricks_won
    return state.captured[s], won[s] > 0, sum(won) - won[s] > 0


def finished_payoff(state: PlayState, contract: Contract, rules: Rules = STANDARD) -> int:
    """The soloist's payoff (the objective) of a finished deal."""
    captured, sol_any, def_any = _flags(state)
    won_last = state.last_winner == state.soloist
    return outcome_payoff(contract, captured, won_last, trick_class(sol_any, def_any), rules)


def payoff_reaches(state: PlayState, contract: Contract, level: int, rules: Rules = STANDARD, goals: GoalSearcher | None = None) -> bool:
    """Can the soloist force a payoff of at least ``level`` from ``state``?"""
    if state.is_over:
        return finished_payoff(state, contract, rules) >= level
    captured, sol_any, def_any = _flags(state)
    goals = goals or goal_search()
    return bool(goals.reaches(*core_position(state), captured, sol_any, def_any, goal_table(contract, level, rules)))


def payoff_value(
    state: PlayState, contract: Contract, rules: Rules = STANDARD, goals: GoalSearcher | None = None, *, thirds: int | None = None
) -> int:
    """The soloist's payoff under payoff-optimal play by both sides.

    ``thirds``, the soloist's final thirds under thirds-optimal play
    (captured included), settles most levels without a search: the soloist
    can force S >= thirds and the defenders S <= thirds, so a level whose
    winning outcomes all have S > thirds is out of reach, and one that every
    outcome with S >= thirds reaches is sure.  Only the rest are searched.
    """
    if state.is_over:
        return finished_payoff(state, contract, rules)
    levels = payoff_levels(contract, rules)
    lo, hi = 0, len(levels) - 1  # levels[lo] is always reachable
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _reaches(state, contract, levels[mid], rules, goals, thirds):
            lo = mid
        else:
            hi = mid - 1
    return levels[lo]


def payoff_from_thirds(contract: Contract, thirds: int, rules: Rules = STANDARD, total: int = 35) -> tuple[int, bool]:
    """The payoff as far as the thirds-optimal value ``thirds`` alone says, without a search: ``(payoff, exact)``.

    Where the thirds settle every level (:func:`settled_between`) that is the payoff, ``exact``; else the
    plain x1 payoff of making or failing, kept within the levels they settle, not ``exact`` (an early table's
    game points: the goal search that would settle a cappotto or stramazzo can take a minute on a weak hand).

    >>> payoff_from_thirds("solo", 25), payoff_from_thirds("solo", 35), payoff_from_thirds("solo", 0)
    ((4, True), (8, False), (-8, False))
    """
    levels = payoff_levels(contract, rules)
    low, high = known_levels(levels, contract, rules, thirds, thirds, total)
    if low >= high:
        return levels[low], True
    makes = thirds >= MAKE_THIRDS
    plain = next(v for v in levels if (v > 0) == makes and multiplier_of(v, contract, rules) == 1)
    return min(max(plain, levels[low]), levels[high]), False


def known_levels(
    levels: Sequence[int], contract: Contract, rules: Rules, low: int, high: int, total: int = 35
) -> tuple[int, int]:
    """The indices into ``levels`` of the highest payoff known reached and the highest not known out of
    reach, when the soloist can force S >= ``low`` and the defenders hold S <= ``high``
    (:func:`settled_between`; ``levels[0]`` is always reached)."""
    lo_i, hi_i = 0, len(levels) - 1
    for i, level in enumerate(levels):
        status = settled_between(contract, level, rules, low, high, total)
        if status is True:
            lo_i = i
        elif status is False:
            hi_i = i - 1
            break
    return lo_i, max(hi_i, lo_i)


@lru_cache(maxsize=None)
def _ends(total: int) -> tuple[tuple[int, int, int], ...]:
    """The outcomes (S, L, trick class) a deal holding ``total`` thirds can end with:
    no trick means S = 0, every trick means S = ``total`` (35 in a whole deal)."""
    return tuple(
        (s, last, t)
        for s in range(36) for last in (0, 1) for t in (NONE, SOME, SWEEP)
        if possible(s, bool(last), t) and (t != SWEEP or s == total) and s <= total
    )


@lru_cache(maxsize=None)
def _settled(contract: Contract, level: int, rules: Rules, thirds: int, total: int = 35) -> bool | None:
    """What ``thirds`` alone says of reaching ``level``: False, True, or None (search).

    Only outcomes the deal can end with count (:func:`_ends`): e.g. a soloist
    held below 35 cannot sweep, and one with S >= 1 did not win "no trick", so
    cappotto levels are settled by ``thirds`` except at the extremes."""
    return settled_between(contract, level, rules, thirds, thirds, total)


@lru_cache(maxsize=None)
def settled_between(contract: Contract, level: int, rules: Rules, low: int, high: int, total: int = 35) -> bool | None:
    """What bounds on the thirds value say of reaching payoff ``level``: the soloist
    can force S >= ``low`` and the defenders can hold S <= ``high``.  False, True,
    or None (the bounds do not decide).

    >>> settled_between("solo", 8, STANDARD, 18, 29), settled_between("solo", 8, STANDARD, 18, 35)
    (False, None)
    >>> settled_between("solo", -4, STANDARD, 6, 17), settled_between("solo", -4, STANDARD, 0, 17)
    (True, None)
    """
    table = goal_table(contract, level, rules)
    ends = _ends(total)
    wins = [s for s, last, t in ends if table[(s * 2 + last) * 3 + t]]
    if not wins or min(wins) > high:
        return False  # the defenders can hold S to `high`
    if all(table[(s * 2 + last) * 3 + t] for s, last, t in ends if s >= low):
        return True  # the soloist can force S >= `low`
    return None


@lru_cache(maxsize=None)
def level_thresholds(contract: Contract, level: int, rules: Rules = STANDARD, total: int = 35) -> tuple[int, int]:
    """The two thirds tests that can settle ``level``: ``(w, t)``, where failing to
    reach ``w`` (the fewest thirds of any winning outcome) proves the level out of
    reach, and reaching ``t`` (from which every outcome wins) proves it reached.

    >>> level_thresholds("solo", 8), level_thresholds("solo", -4)
    ((30, 33), (3, 6))
    """
    table = goal_table(contract, level, rules)
    ends = _ends(total)
    wins = [s for s, last, t in ends if table[(s * 2 + last) * 3 + t]]
    low = min(wins) if wins else total + 1
    sure = total + 1
    for s in range(total, -1, -1):
        if all(table[(e * 2 + last) * 3 + t] for e, last, t in ends if e >= s):
            sure = s
        else:
            break
    return low, sure


def deal_thirds(state: PlayState) -> int:
    """All the thirds of ``state``'s deal: captured, still in play, the monte and the last
    (35 for a whole deal; less for a made-up ending)."""
    in_play = state.hands[0] | state.hands[1] | state.hands[2]
    for card in state.trick:
        in_play |= 1 << card
    return sum(state.captured) + mask_thirds(in_play) + state.last_bonus


def _reaches(state: PlayState, contract: Contract, level: int, rules: Rules, goals: GoalSearcher | None, thirds: int | None) -> bool:
    if thirds is not None:
        known = _settled(contract, level, rules, thirds, deal_thirds(state))
        if known is not None:
            return known
    return payoff_reaches(state, contract, level, rules, goals)


@lru_cache(maxsize=None)
def thirds_paying(contract: Contract, payoff: int, rules: Rules = STANDARD, total: int = 35) -> tuple[int, ...]:
    """The soloist's final thirds a deal holding ``total`` thirds can end with when it pays ``payoff``.

    >>> thirds_paying("solo", -8), thirds_paying("solo", 4)[:3]
    ((0,), (18, 19, 20))
    """
    table = goal_table(contract, payoff, rules)
    above = goal_table(contract, payoff + 1, rules)  # the outcomes paying more
    return tuple(sorted({s for s, last, t in _ends(total) if table[(s * 2 + last) * 3 + t]
                         and not above[(s * 2 + last) * 3 + t]}))


@lru_cache(maxsize=None)
def lexicographic_table(contract: Contract, level: int, thirds: int, rules: Rules = STANDARD) -> bytes:
    """The outcomes at least (``level``, ``thirds``) in the order "game points first, then thirds":
    a payoff above ``level``, or ``level`` itself with ``thirds`` or more (the goal table's layout)."""
    return bytes(
        1 if (p := outcome_payoff(contract, s, bool(last), t, rules)) > level or (p == level and s >= thirds) else 0
        for s in range(36) for last in (0, 1) for t in (NONE, SOME, SWEEP)
    )


def payoff_thirds(state: PlayState, contract: Contract, payoff: int, rules: Rules = STANDARD, goals: GoalSearcher | None = None) -> int:
    """The soloist's final thirds when both sides play for game points first and thirds second, from
    ``state`` whose payoff-optimal value is ``payoff``: what the game-points play of a table cell ends with
    (its thirds can differ from the thirds-optimal play's, e.g. defenders sweeping for cappotto)."""
    if state.is_over:
        return state.captured[state.soloist]
    at = thirds_paying(contract, payoff, rules, deal_thirds(state))
    if not at:
        raise InternalError(f"no outcome pays {payoff} in {contract}")
    captured, sol_any, def_any = _flags(state)
    goals = goals or goal_search()
    lo, hi = 0, len(at) - 1  # at[lo] is reached: the value is `payoff`
    while lo < hi:
        mid = (lo + hi + 1) // 2
        goal = lexicographic_table(contract, payoff, at[mid], rules)
        if goals.reaches(*core_position(state), captured, sol_any, def_any, goal):
            lo = mid
        else:
            hi = mid - 1
    return at[lo]


def multiplier_of(payoff: int, contract: Contract, rules: Rules = STANDARD) -> int:
    """The multiplier m behind a payoff (the objective is ±2·v·m, or ±v·m under ``payment=plus``).

    >>> multiplier_of(-12, "solo"), multiplier_of(4, "solo", Rules(payment="plus"))
    (3, 2)
    """
    unit = CONTRACT_VALUE[contract] * (2 if rules.payment == "zerosum" else 1)
    return abs(payoff) // unit


def payoff_card_values(
    state: PlayState,
    contract: Contract,
    rules: Rules = STANDARD,
    goals: GoalSearcher | None = None,
    thirds: dict[Card, int] | None = None,
) -> dict[Card, int]:
    """Each legal card's payoff (the soloist's game points under payoff-optimal play after it).

    ``thirds`` (each card's final thirds from a thirds solve) lets
    :func:`payoff_value` skip the levels it settles.
    """
    out = {}
    for card in cards_of(state.legal()):
        child = state.copy()
        child.play(card)
        out[card] = payoff_value(child, contract, rules, goals, thirds=None if thirds is None else thirds[card])
    return out


def payoff_line(
    state: PlayState, contract: Contract, value: int, rules: Rules = STANDARD, goals: GoalSearcher | None = None,
    solver: CoreSolver | None = None
) -> list[Card]:
    """One payoff-optimal line from ``state`` (whose payoff is ``value``) to the end.

    With a thirds ``solver``, each candidate card's thirds settle most tests
    without a goal search.
    """
    levels = payoff_levels(contract, rules)
    above = [p for p in levels if p > value]
    state = state.copy()
    line = []
    while not state.is_over:
        soloist_moves = state.to_move == state.soloist
        chosen = None
        for card in cards_of(state.legal()):
            child = state.copy()
            child.play(card)
            thirds = None
            if solver is not None and not child.is_over:
                thirds = solver.value(*core_position(child)) + child.captured[child.soloist]
            if soloist_moves:
                ok = _reaches(child, contract, value, rules, goals, thirds)
            else:
                ok = not above or not _reaches(child, contract, above[0], rules, goals, thirds)
            if ok:
                chosen = card
                break
        if chosen is None:
            raise InternalError("no card keeps the payoff: the goal search disagrees with itself")
        state.play(chosen)
        line.append(chosen)
    return line
