"""The advice at a glance: every choice in bidding order (pass first, at 0 game points), its main
odds (under play, or double dummy alone) beside the double-dummy floor, the recommendation and the
toss-ups closest to it.  What ``advise``'s short text (:mod:`calasolve.cli.text`) and its chart
(:mod:`calasolve.cli.plot`) show; the board's page draws the same from the JSON.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..game.state import CONTRACTS
from ..types.advice import Advice
from ..types.playout import PlayAdvice

__all__ = ["Glance", "Odds", "glance", "points_text"]

#: the toss-ups the short text names: the closest to the recommendation in expected game points
NAMED_TOSS_UPS = 2


@dataclass(frozen=True)
class Odds:
    """One choice: its P(make) and expected game points with their 95% intervals (pass: none, at 0),
    and the double-dummy P(make) beside them when the main odds are not double dummy's."""

    choice: str
    p_make: float | None
    p_make_95: tuple[float, float] | None
    points: float
    #: the game points' 95% interval; --play pimc has a standard error instead
    points_95: tuple[float, float] | None
    points_se: float | None = None
    floor: float | None = None
    floor_95: tuple[float, float] | None = None


@dataclass(frozen=True)
class Glance:
    """An advice's answer, ready to show."""

    rows: tuple[Odds, ...]
    recommendation: str
    toss_up: tuple[str, ...]
    #: what the main odds are: "played", "PIMC" or "double dummy"; whether a floor stands beside them
    basis: str
    floor: bool
    #: deals judged double dummy (over every contract), deals played out, wall seconds
    solved: int
    played: int
    seconds: float

    def row(self, choice: str) -> Odds:
        return next(r for r in self.rows if r.choice == choice)

    def closest(self, k: int = NAMED_TOSS_UPS) -> tuple[str, ...]:
        """The toss-ups nearest the recommendation in expected game points, at most ``k``."""
        best = self.row(self.recommendation).points
        known = [c for c in self.toss_up if any(r.choice == c for r in self.rows)]
        return tuple(sorted(known, key=lambda c: (abs(self.row(c).points - best), _rank(c)))[:k])


def points_text(v: float | None) -> str:
    """Game points as a player reads them: one decimal under 10, whole numbers above.

    >>> points_text(2.456), points_text(-0.04), points_text(40.2), points_text(-127.7), points_text(None)
    ('+2.5', '0.0', '+40', '-128', '?')
    """
    if v is None or math.isnan(v):
        return "?"
    if round(v, 1) == 0:
        return "0.0"
    return f"{v:+.1f}" if abs(v) < 9.95 else f"{v:+.0f}"


def _rank(choice: str) -> int:
    return CONTRACTS.index(choice) + 1 if choice in CONTRACTS else 0


def _pair(v: tuple[float, float]) -> tuple[float, float] | None:
    return None if any(math.isnan(x) for x in v) else v


def _nan_none(v: float) -> float | None:
    return None if math.isnan(v) else v


PASS = Odds("pass", None, None, 0.0, None)


def glance(advice: Advice | None, play: PlayAdvice | None = None) -> Glance:
    """The glance of the default advice or ``--play dd`` (``advice`` alone), ``--play pimc`` (``play``
    alone) or ``--play both`` (both: PIMC play the main odds, the double-dummy advice the floor)."""
    dd = {e.contract: e for e in advice.estimates} if advice is not None else {}
    rows = [PASS]
    if play is not None:
        for e in sorted(play.estimates, key=lambda e: CONTRACTS.index(e.contract)):
            p = e.pimc
            d = dd.get(e.contract)
            rows.append(Odds(e.contract, _nan_none(p.p_make), _pair(p.p_make_95), p.mean_points, None, p.se_points,
                             _nan_none(d.p_make) if d else None, _pair(d.p_make_95) if d else None))
        return Glance(tuple(rows), play.best, play.toss_up, "PIMC", advice is not None,
                      sum(e.samples for e in dd.values()), sum(e.pimc.deals for e in play.estimates),
                      play.seconds + (advice.seconds if advice is not None else 0.0))
    if advice is None:
        raise ValueError("a glance needs an advice or a play advice")
    ordered = sorted(advice.estimates, key=lambda e: CONTRACTS.index(e.contract))
    if advice.played is not None:
        played = {e.contract: e for e in advice.played.estimates}
        for d in ordered:
            u = played[d.contract]
            rows.append(Odds(d.contract, _nan_none(u.p_make), _pair(u.p_make_95), u.mean_payoff, _pair(u.payoff_95),
                             floor=_nan_none(d.p_make), floor_95=_pair(d.p_make_95)))
        deals = sum(e.deals for e in advice.played.estimates)
    else:
        rows += [Odds(d.contract, _nan_none(d.p_make), _pair(d.p_make_95), d.mean_payoff, _pair(d.payoff_95))
                 for d in ordered]
        deals = 0
    return Glance(tuple(rows), advice.recommendation, advice.toss_up,
                  "played" if advice.played is not None else "double dummy", advice.played is not None,
                  sum(e.samples for e in ordered), deals, advice.seconds)
