"""pytest-benchmark timings of the PIMC card player (`calasolve play`).

Run with ``python3 -m pytest benchmarks/test_bench_pimc.py --benchmark-enable -o addopts=""``.
One decision with 20 layouts at the first lead of a random-suite deal (one
process, a fresh solver each round), and one deal played out by three PIMC
players whose layouts two worker processes share.  The median and slowest
over 20 deals, with CPU time, come from ``python3 benchmarks/report_pimc.py``.

``CALASOLVE_BENCH_PIMC_DEALS`` (default ``0,1``) picks the deals.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite  # noqa: E402

from calasolve.game.cards import cards_of  # noqa: E402
from calasolve.play.players import PimcPlayer, play_out  # noqa: E402
from calasolve.types.record import Record  # noqa: E402
from calasolve.scale.workers import worker_pool  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402

DEALS = [int(i) for i in os.environ.get("CALASOLVE_BENCH_PIMC_DEALS", "0,1").split(",")]


def _record(deal: int) -> Record:
    d = random_suite(deal + 1)[deal]
    return Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist)


@pytest.mark.parametrize("deal", DEALS)
def test_bench_pimc_first_lead(benchmark, deal: int) -> None:  # type: ignore[no-untyped-def]
    record = _record(deal)
    state = record.state()

    def run() -> object:
        return PimcPlayer(samples=20, seed=deal, solver=make_solver()).choose(record, state)

    card = benchmark.pedantic(run, rounds=3, iterations=1)
    assert card in set(cards_of(state.legal()))


@pytest.mark.parametrize("deal", DEALS)
def test_bench_pimc_deal(benchmark, deal: int) -> None:  # type: ignore[no-untyped-def]
    record = _record(deal)

    def run() -> object:
        with worker_pool(2) as pool:
            players = [PimcPlayer(samples=20, seed=deal, pool=pool, workers=2) for _ in range(3)]
            return play_out(record, players)

    played = benchmark.pedantic(run, rounds=1, iterations=1)
    assert played.record.state().is_over  # type: ignore[attr-defined]
