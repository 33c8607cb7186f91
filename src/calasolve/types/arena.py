"""The arena's answer: duplicate matches between agents (:mod:`calasolve.env.arena`, ``calasolve arena``).

An :class:`ArenaResult` holds every game (a deal under one seating of the agents), each deal's
game points per agent, and the summary: each agent's game points per deal with a standard error
(:class:`ArenaStanding`) and each pair's paired difference with the confidence that the first is
stronger (:class:`ArenaComparison`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..game.rules import Rules

__all__ = ["ArenaComparison", "ArenaDeal", "ArenaGame", "ArenaResult", "ArenaStanding"]


@dataclass(frozen=True)
class ArenaGame:
    """One deal played under one seating: ``seating[s]`` is the index of the agent in seat ``s``."""

    deal: int
    seating: tuple[int, int, int]
    returns: tuple[float, float, float]
    #: the contract played and its soloist (None: all passed), whether it was made
    contract: str | None
    soloist: int | None
    makes: bool | None
    #: each seat's decisions and the CPU seconds they took
    decisions: tuple[int, int, int]
    seconds: tuple[float, float, float]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ArenaGame":
        """The game of :meth:`to_dict`'s form; seconds are kept to the microsecond."""
        s, r, n, t = d["seating"], d["returns"], d["decisions"], d["seconds"]
        return cls(d["deal"], (s[0], s[1], s[2]), (r[0], r[1], r[2]), d["contract"], d["soloist"], d["makes"],
                   (n[0], n[1], n[2]), (t[0], t[1], t[2]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "seating": list(self.seating), "returns": list(self.returns), "contract": self.contract,
            "soloist": self.soloist, "makes": self.makes, "decisions": list(self.decisions),
            "seconds": [round(t, 6) for t in self.seconds],
        }


@dataclass(frozen=True)
class ArenaDeal:
    """A deal under every seating, and each agent's game points per seat it held (the mean over its seats)."""

    index: int
    games: tuple[ArenaGame, ...]
    points: tuple[float, ...]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ArenaDeal":
        return cls(d["index"], tuple(ArenaGame.from_dict(g) for g in d["games"]), tuple(d["points"]))

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "points": list(self.points), "games": [g.to_dict() for g in self.games]}


@dataclass(frozen=True)
class ArenaStanding:
    """An agent's game points per deal (mean over the deals of its points per seat) with a standard error,
    how often it was the soloist and made it, and what its decisions cost."""

    agent: str
    mean: float
    se: float
    soloist: int
    makes: int
    decisions: int
    seconds: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ArenaStanding":
        return cls(d["agent"], d["mean"], d["se"], d["soloist"], d["makes"], d["decisions"], d["cpu_seconds"])

    def to_dict(self) -> dict[str, Any]:
        cpu = round(self.seconds, 6)
        return {"agent": self.agent, "mean": self.mean, "se": self.se, "soloist": self.soloist, "makes": self.makes,
                "decisions": self.decisions, "cpu_seconds": cpu, "seconds_per_decision": cpu / self.decisions if self.decisions else 0.0}


@dataclass(frozen=True)
class ArenaComparison:
    """Agent ``a`` against agent ``b``: the mean paired difference of their game points per deal, its standard
    error, and the one-sided confidence that ``a`` is stronger (normal approximation)."""

    a: str
    b: str
    mean: float
    se: float
    confidence: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ArenaComparison":
        return cls(d["a"], d["b"], d["mean"], d["se"], d["confidence"])

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "mean": self.mean, "se": self.se, "confidence": self.confidence}


@dataclass(frozen=True)
class ArenaResult:
    """Duplicate matches: the agents (specs), the rules and seed, every deal, the standings and comparisons."""

    agents: tuple[str, ...]
    rules: Rules
    seed: int
    deals: tuple[ArenaDeal, ...]
    standings: tuple[ArenaStanding, ...]
    comparisons: tuple[ArenaComparison, ...]
    #: wall-clock seconds of the whole run
    seconds: float

    @property
    def deals_per_second(self) -> float:
        return len(self.deals) / self.seconds if self.seconds > 0 else 0.0

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ArenaResult":
        """The result of :meth:`to_dict`'s form; seconds are kept to the microsecond."""
        return cls(tuple(d["agents"]), Rules(**d["rules"]), d["seed"], tuple(ArenaDeal.from_dict(x) for x in d["deals"]),
                   tuple(ArenaStanding.from_dict(x) for x in d["standings"]),
                   tuple(ArenaComparison.from_dict(x) for x in d["comparisons"]), d["seconds"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "agents": list(self.agents), "rules": self.rules.to_dict(), "seed": self.seed,
            "standings": [s.to_dict() for s in self.standings],
            "comparisons": [c.to_dict() for c in self.comparisons],
            "seconds": round(self.seconds, 6), "deals_per_second": self.deals_per_second,
            "deals": [x.to_dict() for x in self.deals],
        }
