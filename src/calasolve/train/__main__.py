"""``python -m calasolve.train``: the learned card player's data and fit, one seeded command.

    python -m calasolve.train --out learned_cards.npz --data train-data --jobs 2

Round 0 generates the self-play data of the PIMC players (``--deals`` deals of the ``rule`` mix from
deal 0, ``--stake-deals`` of the ``stakes`` mix from deal 20000; :mod:`calasolve.train.data`) and fits
the network to it (:mod:`calasolve.train.fit`).  Each further round (``--rounds``, 2 by default) plays
half as many new deals of each mix with the learned players of the round before, labels the positions
they reach with the PIMC players' cards (DAgger: Ross, Gordon and Bagnell, 2011), and fits afresh on all
the data so far.  The data go to ``--data``, one file per chunk; a file already there is used as it is.
With ``--exchange-out`` it then makes the exchange networks too (:mod:`calasolve.train.exchange`:
``--exchange-deals`` deals' exchanges by the ``sampled`` policies, one data file).  With the defaults it makes
the weights shipped with the package:

    python -m calasolve.train --out src/calasolve/play/learned_cards.npz \
        --exchange-out src/calasolve/advice/learned_exchange.npz --data train-data --jobs 2

about 100 minutes of CPU for the data, 20 for the fits.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import click
import numpy as np

from ..game.errors import CalasolveError
from ..play.learned import Network
from .data import Chunk, Rows, chunks_of, generate
from .exchange import Heads, fit_exchange, generate_exchange
from .fit import fit, require_torch

#: The first deal of the ``stakes`` mix (apart from the ``rule`` mix's deals).
STAKES_FIRST = 20000


def _mapper(stack: ExitStack, jobs: int, scheduler: str | None) -> Any:
    if scheduler is not None:
        from ..scale.cluster import dask_map

        return stack.enter_context(dask_map(scheduler))
    if jobs > 1:
        from ..scale.workers import worker_pool

        return stack.enter_context(worker_pool(jobs))
    return None


def round_chunks(deals: int, stake_deals: int, round: int) -> list[Chunk]:
    """Round ``round``'s data files: round 0 ``deals`` and ``stake_deals``, each later round half as many
    new deals of each mix as the round before, numbered on from them.

    >>> [c.name for c in round_chunks(8000, 3600, 1)]
    ['rule-8000-2000-r1.npz', 'rule-10000-2000-r1.npz', 'stakes-23600-1800-r1.npz']
    """
    out: list[Chunk] = []
    first = {"rule": 0, "stakes": STAKES_FIRST}
    for r in range(round + 1):
        for mix, n in (("rule", deals), ("stakes", stake_deals)):
            count = n // 2 ** r
            if r == round and count:
                out += chunks_of(mix, first[mix], count, round)
            first[mix] += count
    return out


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Where the fitted weights go (.npz).")
@click.option("--data", "data_dir", default="train-data", show_default=True, type=click.Path(file_okay=False),
              help="Where the data files go (a file already there is used as it is).")
@click.option("--deals", type=click.IntRange(0, 10**6), default=8000, show_default=True,
              help="Deals of the rule mix in round 0 (deals 0 on).")
@click.option("--stake-deals", type=click.IntRange(0, 10**6), default=3600, show_default=True,
              help=f"Deals of the stakes mix in round 0 (deals {STAKES_FIRST} on).")
@click.option("--rounds", type=click.IntRange(1, 8), default=2, show_default=True,
              help="Rounds of data and fit: the first by the PIMC players, each other by the learned players of the "
                   "round before, labelled by PIMC.")
@click.option("--epochs", type=click.IntRange(1, 1000), default=6, show_default=True, help="Epochs of each fit.")
@click.option("--exchange-out", default=None, type=click.Path(dir_okay=False),
              help="Also fit the exchange networks (the soloist's, the defenders') and write them here (.npz).")
@click.option("--exchange-deals", type=click.IntRange(1, 10**6), default=8000, show_default=True,
              help="Deals whose exchanges (the soloist's and the defenders') are learned from.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True, help="The fits' seed.")
@click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default="every core",
              help="Worker processes for the data.")
@click.option("--scheduler", default=None, help="Generate the data on a Dask cluster (ADDRESS or local[:N]).")
def main(**options: Any) -> None:
    """Generate the learned card player's data and fit its network, round by round (see the module doc)."""
    plan = Plan(**options)
    try:
        if plan.deals + plan.stake_deals == 0:
            raise CalasolveError("--deals and --stake-deals: no deals to learn from")
        require_torch()
        os.makedirs(plan.data_dir, exist_ok=True)
        with ExitStack() as stack:
            maps = _Maps(stack, plan.jobs, plan.scheduler)
            _cards(plan, maps)
            if plan.exchange_out is not None:
                _exchange(plan, maps, plan.exchange_out)
    except CalasolveError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)


@dataclass(frozen=True)
class Plan:
    """The command's options (see :func:`main`)."""

    out: str
    data_dir: str
    deals: int
    stake_deals: int
    rounds: int
    epochs: int
    exchange_out: str | None
    exchange_deals: int
    seed: int
    jobs: int
    scheduler: str | None


class _Maps:
    """The data's map, started at the first file to generate (none when every file is there)."""

    def __init__(self, stack: ExitStack, jobs: int, scheduler: str | None) -> None:
        self.stack, self.jobs, self.scheduler, self.mapper = stack, jobs, scheduler, None

    def get(self) -> Any:
        if self.mapper is None:
            self.mapper = _mapper(self.stack, self.jobs, self.scheduler)
        return self.mapper


def _log(line: str) -> None:
    click.echo(line, err=True)


def _cards(plan: Plan, maps: _Maps) -> None:
    """The card network's rounds of data and fit, its weights written to ``plan.out``."""
    files: list[Rows] = []
    network: Network | None = None
    weights: dict[str, np.ndarray] = {}
    for r in range(plan.rounds):
        for chunk in round_chunks(plan.deals, plan.stake_deals, r):
            path = os.path.join(plan.data_dir, chunk.name)
            if not os.path.exists(path):
                start = time.perf_counter()
                generate(chunk, network, maps.get()).save(path)
                _log(f"{path}: {chunk.count} deals in {time.perf_counter() - start:.0f} s")
            files.append(Rows.load(path))
        _log(f"round {r}: fitting on {len(files)} files")
        weights = fit(files, seed=plan.seed, epochs=plan.epochs, log=_log)
        network = Network.from_weights(weights)
    with open(plan.out, "wb") as f:
        np.savez(f, **weights)  # type: ignore[arg-type]
    click.echo(f"{plan.out}: the card network's weights")


def _exchange(plan: Plan, maps: _Maps, out: str) -> None:
    """The exchange networks' data and fit, their weights written to ``out``."""
    path = os.path.join(plan.data_dir, f"exchange-0-{plan.exchange_deals}.npz")
    if not os.path.exists(path):
        generate_exchange(0, plan.exchange_deals, maps.get()).save(path)
    heads = fit_exchange([Heads.load(path)], seed=plan.seed, log=_log)
    with open(out, "wb") as f:
        np.savez(f, **heads)  # type: ignore[arg-type]
    click.echo(f"{out}: the exchange networks")


if __name__ == "__main__":
    main()
