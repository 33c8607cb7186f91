"""The bid advisor's options as one frozen object (:class:`AdviceSettings`), checked when it is made,
with the command line's limits; it is what the advisor, the play-outs and their workers are given."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..game.cards import Mask, hand_name, popcount
from ..game.defaults import (
    DEFAULT_GOAL_MB, DEFAULT_LEARNED_DEALS, DEFAULT_PLAY_PIMC_SAMPLES, DEFAULT_PLAY_SAMPLES, DEFAULT_PLAYED_DEALS, DEFAULT_PLAYED_LAYOUTS,
    DEFAULT_PLAYED_RACE_SAMPLES, DEFAULT_PRECISION, DEFAULT_SAMPLES, DEFAULT_THIRDS_SAMPLES, DEFAULT_TT_MB,
)
from ..game.errors import ParameterError
from ..game.limits import (
    MAX_CANDIDATES,
    MAX_JOBS,
    MAX_REDEALS,
    MAX_SAMPLES,
    MAX_SEED,
    MAX_TABLE_MB,
    check_bool,
    check_choice,
    check_instance,
    check_int,
    check_mask,
    check_optional_int,
)
from ..game.rules import STANDARD, Rules
from ..game.sampling import MONTE, check_known
from ..game.state import CONTRACTS, DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, Contract
from ..play.players import MAX_PIMC_SAMPLES
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS

SOLOIST_POLICIES = ("sampled", "dd", "learned")
DEFENDER_POLICIES = ("dd", "heuristic", "sampled", "learned")
DEFAULT_DEFENDER_POLICY = "dd"
#: ``advise --play``: played (double dummy and the played odds, paired: the default), dd (double dummy
#: alone), pimc (a plain estimate: the first deals played out) or both (pimc and double dummy on its deals).
PLAY_MODES = ("played", "dd", "pimc", "both")
#: who plays the deals out: the contract-minded PIMC player, the thirds-minded one, or the learned player
#: (:mod:`calasolve.play.learned`: hundreds of deals where PIMC plays eight)
PLAYERS = ("contract", "pimc", "learned")
#: who plays the default advice's deals out
DEFAULT_PLAYED_PLAYERS = "learned"


#: the fields whose None means "the mode's default"
DERIVED = ("samples", "horizon", "players", "play_samples", "pimc_samples", "thirds_samples")


def race_cap(play: str, samples: int | None, players: str | None = None) -> tuple[int, int]:
    """The double-dummy race's cap per contract (``samples``, None for the default) and the sample size its
    bets are tuned for: with ``played`` and PIMC players the race of ``dd`` stopped at 64 samples, so the
    same race up to there (docs/advisor.md); else the cap, 400 by default (the learned players' odds do
    not lean on the double-dummy side, which keeps the precision it has alone).

    >>> race_cap("played", None, "contract"), race_cap("dd", None), race_cap("played", 50), race_cap("played", None, "learned")
    ((64, 400), (400, 400), (50, 50), (400, 400))
    """
    if samples is None:
        short = play == "played" and players != "learned"
        return (DEFAULT_PLAYED_RACE_SAMPLES, DEFAULT_SAMPLES) if short else (DEFAULT_SAMPLES, DEFAULT_SAMPLES)
    return samples, samples


@dataclass(frozen=True)
class AdviceSettings:
    """Everything :func:`~calasolve.advice.advisor.advise`, :func:`~calasolve.advice.playadvice.advise_play`
    and their workers need (picklable).  Each field is named as the API's keyword, so a bad value's
    :class:`ParameterError` names the keyword (and the command line its option).

    >>> AdviceSettings(hand=0xFFF, samples=2**70)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: samples 1180591620717411303424: must be an integer from 1 to 1000000
    """

    hand: Mask
    seat: int = 0
    #: the cap per contract (with ``fixed``, every contract gets exactly that many; None: the mode's default,
    #: :func:`race_cap`; read it as :attr:`cap`)
    samples: int | None = None
    #: the sample size the race's bets are tuned for (None: as :func:`race_cap` gives it with the cap)
    horizon: int | None = None
    seed: int = 0
    #: worker processes (None: every core)
    jobs: int | None = None
    #: the soloist's exchange policy, and the defenders'
    policy: str = "sampled"
    defender_policy: str = DEFAULT_DEFENDER_POLICY
    #: once each, in the order given
    contracts: tuple[Contract, ...] = CONTRACTS
    #: cards pinned to a seat 0..2 or the monte
    known: tuple[tuple[object, Mask], ...] = ()
    rules: Rules = STANDARD
    #: the ``sampled`` policies' parameters (the soloist's and the defenders')
    candidates: int = DEFAULT_CANDIDATES
    redeals: int = DEFAULT_REDEALS
    #: the 95% half-width wanted on the recommended contract's P(make)
    precision: float = DEFAULT_PRECISION
    fixed: bool = False
    #: samples of each contract that also get their exact final thirds (None: the mode's default, the deals
    #: played out with ``played``, else :data:`DEFAULT_THIRDS_SAMPLES`)
    thirds_samples: int | None = None
    tt_mb: int = DEFAULT_TT_MB
    goal_mb: int = DEFAULT_GOAL_MB
    #: how the deals are played (:data:`PLAY_MODES`; ``advise`` reads ``played`` and ``dd``,
    #: ``advise_play`` ``pimc`` and ``both``), and by whom (:data:`PLAYERS`; None: ``contract`` for
    #: ``played``, else ``pimc``)
    play: str = "played"
    players: str | None = None
    #: the play-outs: deals per contract and layouts a decision (None: the mode's default; read them
    #: as :attr:`deals` and :attr:`layouts`), and (for ``advise_play``) also double dummy
    play_samples: int | None = None
    pimc_samples: int | None = None
    dd: bool = False
    #: the fields left None and so derived from the mode (:meth:`replace` derives them again)
    derived: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", frozenset(name for name in DERIVED if getattr(self, name) is None))
        # the play-outs' own options first, then the order advise has always checked in
        check_choice("play", self.play, PLAY_MODES)
        played = self.play == "played"
        if self.players is None:
            object.__setattr__(self, "players", DEFAULT_PLAYED_PLAYERS if played else "pimc")
        check_choice("players", self.players, PLAYERS)
        learned = self.players == "learned"
        if self.play_samples is None:
            deals = DEFAULT_LEARNED_DEALS if learned else DEFAULT_PLAYED_DEALS if played else DEFAULT_PLAY_SAMPLES
            object.__setattr__(self, "play_samples", deals)
        if self.pimc_samples is None:
            object.__setattr__(self, "pimc_samples", DEFAULT_PLAYED_LAYOUTS if played else DEFAULT_PLAY_PIMC_SAMPLES)
        check_int("play_samples", self.play_samples, 1, MAX_SAMPLES)
        check_int("pimc_samples", self.pimc_samples, 1, MAX_PIMC_SAMPLES)
        if self.thirds_samples is None:
            deals = check_int("play_samples", self.play_samples, 1, MAX_SAMPLES)
            thirds = deals if played else DEFAULT_THIRDS_SAMPLES
            thirds = min(thirds, DEFAULT_THIRDS_SAMPLES) if learned else thirds
            object.__setattr__(self, "thirds_samples", thirds)
        cap, horizon = race_cap(self.play, self.samples, self.players)
        object.__setattr__(self, "samples", cap)
        if self.horizon is None:
            object.__setattr__(self, "horizon", horizon)
        check_bool("dd", self.dd)
        mask = check_mask("hand", self.hand)
        if popcount(mask) != 12:
            raise ParameterError("hand", hand_name(mask), f"has {popcount(mask)} cards, a hand has 12")
        check_int("seat", self.seat, 0, 2)
        check_int("samples", self.samples, 1, MAX_SAMPLES)
        check_int("horizon", self.horizon, 1, MAX_SAMPLES)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_optional_int("jobs", self.jobs, 1, MAX_JOBS)
        check_choice("policy", self.policy, SOLOIST_POLICIES)
        check_choice("defender_policy", self.defender_policy, DEFENDER_POLICIES)
        check_int("candidates", self.candidates, 1, MAX_CANDIDATES)
        check_int("redeals", self.redeals, 1, MAX_REDEALS)
        check_int("tt_mb", self.tt_mb, 1, MAX_TABLE_MB)
        check_int("goal_mb", self.goal_mb, 1, MAX_TABLE_MB)
        check_instance("rules", self.rules, Rules, "a Rules")
        check_int("thirds_samples", self.thirds_samples, 0, MAX_SAMPLES)
        check_bool("fixed", self.fixed)
        precision = self.precision
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision <= 1:
            raise ParameterError("precision", precision, "must be a number above 0 and at most 1")
        for c in self.contracts:
            if not isinstance(c, str) or c not in CONTRACTS:
                raise ParameterError("contracts", c, f"unknown contract (use {', '.join(CONTRACTS)})")
        if not self.contracts:
            raise ParameterError("contracts", self.contracts, "no contract to estimate")
        pinned: dict[object, Mask] = {}
        for where, cards in self.known:
            if isinstance(where, bool) or where not in (0, 1, 2, MONTE):
                raise ParameterError("known", where, "a place must be a seat 0..2 or 'monte'")
            pinned[where] = check_mask("known", cards)
        check_known(mask, self.seat, pinned)
        # a mask given as another integer type (numpy's) is kept as an int, as the workers deal with ints
        object.__setattr__(self, "hand", mask)
        object.__setattr__(self, "known", tuple(pinned.items()))

    def replace(self, **changes: Any) -> AdviceSettings:
        """These settings with ``changes``, as if they had been given in the first place: a field the mode
        derived (left None) is derived again from the new mode.

        >>> s = AdviceSettings(hand=0xFFF, players="contract")
        >>> s.samples, s.replace(play="dd").samples, s.replace(samples=9).replace(play="dd").samples
        (64, 400, 9)
        """
        unknown = set(changes) - {f.name for f in fields(self) if f.init}
        if unknown:
            raise TypeError(f"AdviceSettings has no option {sorted(unknown)[0]!r}")
        again: dict[str, Any] = {name: None for name in self.derived if name not in changes}
        return replace(self, **again, **changes)

    @property
    def cap(self) -> int:
        """The double-dummy race's cap per contract."""
        return check_int("samples", self.samples, 1, MAX_SAMPLES)

    @property
    def bets_horizon(self) -> int:
        """The sample size the race's bets are tuned for."""
        return check_int("horizon", self.horizon, 1, MAX_SAMPLES)

    @property
    def thirds(self) -> int:
        """Samples per contract that also get their exact final thirds."""
        return check_int("thirds_samples", self.thirds_samples, 0, MAX_SAMPLES)

    @property
    def deals(self) -> int:
        """Deals played out per contract."""
        return check_int("play_samples", self.play_samples, 1, MAX_SAMPLES)

    @property
    def layouts(self) -> int:
        """Layouts of the unseen cards per PIMC decision."""
        return check_int("pimc_samples", self.pimc_samples, 1, MAX_PIMC_SAMPLES)

    def policy_of(self, contract: Contract) -> str:
        """Who chooses ``contract``'s exchange, and how, as the advice reports it (``soloist:sampled``, ...)."""
        if contract in SOLOIST_EXCHANGE:
            return f"soloist:{self.policy}"
        if contract in DEFENDER_EXCHANGE:
            return f"defenders:{self.defender_policy}"
        return "none"
