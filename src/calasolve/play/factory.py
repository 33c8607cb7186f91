"""The card players by name (``calasolve play --players``, the environment's agents): :func:`make_player`.

Above both :mod:`~calasolve.play.players` and :mod:`~calasolve.play.target`, so that either player can be
made without one of those modules importing the other's.
"""

from __future__ import annotations

from concurrent.futures import Executor

from ..game.errors import ParameterError
from ..search.engines import CoreSolver
from .players import DEFAULT_PIMC_SAMPLES, DoubleDummyPlayer, HeuristicPlayer, Objective, PimcPlayer, Player
from .learned import LearnedPlayer
from .target import ContractPimcPlayer

__all__ = ["PLAYERS", "make_player"]

PLAYERS = ("dd", "pimc", "heuristic", "contract", "learned")


def make_player(name: str, *, samples: int = DEFAULT_PIMC_SAMPLES, seed: int = 0, solver: CoreSolver | None = None,
                objective: Objective = "thirds", pool: Executor | None = None, workers: int = 1,
                tt_mb: int | None = None) -> Player:
    """A player by name: ``dd``, ``pimc``, ``heuristic``, ``contract`` (:mod:`calasolve.play.target`) or
    ``learned`` (:mod:`calasolve.play.learned`); a PIMC player shares its layouts with ``pool``'s ``workers``
    processes when given one."""
    if name == "dd":
        return DoubleDummyPlayer(solver, objective)
    if name == "pimc":
        return PimcPlayer(samples, seed, solver, objective, pool=pool, workers=workers, tt_mb=tt_mb)
    if name == "heuristic":
        return HeuristicPlayer()
    if name == "contract":
        return ContractPimcPlayer(samples, seed, solver)
    if name == "learned":
        return LearnedPlayer(samples=samples, seed=seed, solver=solver)
    raise ParameterError("player", name, f"unknown player (use {', '.join(PLAYERS)})")
