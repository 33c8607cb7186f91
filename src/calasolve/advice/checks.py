"""The bid advisor's arguments checked up front, in the calling process, with the command line's
limits: the hand, the options and the known cards."""

from __future__ import annotations

from typing import Any, Mapping, cast

from ..game.cards import (
    Mask,
    hand_name,
    parse_cards_or_hand,
    popcount,
)
from ..game.defaults import DEFAULT_PRECISION, DEFAULT_THIRDS_SAMPLES
from ..game.errors import CalasolveError, ParameterError
from ..game.limits import (
    MAX_CANDIDATES,
    MAX_JOBS,
    MAX_REDEALS,
    MAX_SAMPLES,
    MAX_SEED,
    MAX_TABLE_MB,
    check_bool,
    check_callable,
    check_choice,
    check_instance,
    check_int,
    check_mask,
    check_optional_int,
)
from ..game.rules import Rules
from ..game.sampling import MONTE, check_known
from ..game.state import CONTRACTS, Contract
from .samples import DEFENDER_POLICIES, SOLOIST_POLICIES


def parse_advice_hand(text: str) -> Mask:
    """A 12-card hand in hand notation or as card tokens.

    >>> hand_name(parse_advice_hand("3B 2B AB 7B RS CS 5S FC 6C 4C AD RD"))
    '32A7.RC5.F64.AR'
    """
    mask = parse_cards_or_hand(text)
    if popcount(mask) != 12:
        raise CalasolveError(f"hand {text!r}: has {popcount(mask)} cards, a hand has 12")
    return mask


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
    precision: Any = DEFAULT_PRECISION,
    fixed: Any = False,
    thirds_samples: Any = DEFAULT_THIRDS_SAMPLES,
    on_round: Any = None,
) -> tuple[Mask, tuple[Contract, ...], dict[object, Mask]]:
    """Every argument of :func:`advise` checked, with the command line's limits
    (:mod:`calasolve.game.limits`): the hand's mask, the contracts (once each, in the
    order given) and the known cards.

    >>> from calasolve.game.rules import STANDARD
    >>> check_advise_arguments("32AR.32A.3A.2A5", seat=0, samples=2**70, seed=0, jobs=1, policy="sampled",
    ...     defender_policy="dd", contracts=["solo"], known=None, rules=STANDARD, candidates=4, redeals=4,
    ...     tt_mb=32, goal_mb=128, progress=None)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: samples 1180591620717411303424: must be an integer from 1 to 1000000
    """
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
    check_callable("on_round", on_round)
    check_int("thirds_samples", thirds_samples, 0, MAX_SAMPLES)
    check_bool("fixed", fixed)
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision <= 1:
        raise ParameterError("precision", precision, "must be a number above 0 and at most 1")
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
    return mask, cast("tuple[Contract, ...]", chosen), pinned
