"""The bid advisor's process scheduler: runs the samples' tasks in this process, in a pool of
worker processes (starting on the next round when idle) or on a Dask executor."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..game.state import CONTRACTS
from .outcome import SampleOutcome
from .samples import Chunk, Task, work
from .settings import AdviceSettings


def _chunks(settings: AdviceSettings, tasks: Sequence[Task], jobs: int) -> list[Chunk]:
    """Tasks grouped by sample (standard contract order within), a few samples a chunk:
    small chunks keep both cores busy to the end of a round."""
    by_sample: dict[int, list[Task]] = {}
    for t in sorted(tasks, key=lambda t: (t.index, CONTRACTS.index(t.contract))):
        by_sample.setdefault(t.index, []).append(t)
    groups = list(by_sample.values())
    per = max(1, len(groups) // (jobs * 4)) if jobs > 1 else len(groups) or 1
    return [Chunk(settings, tuple(t for g in groups[k : k + per] for t in g)) for k in range(0, len(groups), per)]


class Runner:
    """Runs tasks in this process, or in ``pool`` (:func:`calasolve.scale.workers.worker_pool`,
    kept for the whole race so each worker's table stays warm).

    With a local pool, a worker that would wait for the last chunks of a round
    starts on the next round instead (``ahead``: its tasks for every contract
    still in the race).  Those results are used once the round is decided, and
    those of a contract that dropped out are thrown away, so the answer is the
    same as without.  (A Dask executor only maps: no work ahead.)"""

    def __init__(self, pool: Any, jobs: int) -> None:
        self.pool, self.jobs = pool, jobs
        self._ahead: list[tuple[Chunk, Any]] = []  # chunks started ahead, and their futures
        self._queued: list[Chunk] = []  # chunks that may be started ahead

    def run(
        self,
        settings: AdviceSettings,
        tasks: Sequence[Task],
        progress: Callable[[int], None] | None,
        ahead: Sequence[Task] = (),
    ) -> list[tuple[Task, SampleOutcome, float]]:
        if self.pool is None or not hasattr(self.pool, "submit"):
            out: list[tuple[Task, SampleOutcome, float]] = []
            chunks = _chunks(settings, tasks, self.jobs)
            parts = map(work, chunks) if self.pool is None else self.pool.map(work, chunks)
            for part in parts:
                out += part
                if progress:
                    progress(len(part))
            return out
        return self._run_ahead(settings, tasks, progress, ahead)

    def _run_ahead(
        self, settings: AdviceSettings, tasks: Sequence[Task], progress: Callable[[int], None] | None, ahead: Sequence[Task]
    ) -> list[tuple[Task, SampleOutcome, float]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        wanted = set(tasks)
        mine: list[tuple[Chunk, Any]] = []
        kept: list[tuple[Chunk, Any]] = []
        for chunk, future in self._ahead:
            (mine if wanted.intersection(chunk.tasks) else kept).append((chunk, future))
        self._ahead = kept
        covered = {t for chunk, _ in mine for t in chunk.tasks}
        started = {t for chunk, _ in self._ahead for t in chunk.tasks} | covered
        self._queued = _chunks(settings, [t for t in ahead if t not in started], self.jobs)
        for chunk in _chunks(settings, [t for t in tasks if t not in covered], self.jobs):
            mine.append((chunk, self.pool.submit(work, chunk)))
        useful = {f: sum(1 for t in chunk.tasks if t in wanted) for chunk, f in mine}
        pending = set(useful)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            if progress:
                progress(sum(useful[f] for f in done))
            busy = len(pending) + sum(1 for _, f in self._ahead if not f.done())
            while self._queued and busy < self.jobs:
                chunk = self._queued.pop(0)
                self._ahead.append((chunk, self.pool.submit(work, chunk)))
                busy += 1
        return [r for _, future in mine for r in future.result() if r[0] in wanted]

    def discard(self) -> None:
        """Drop the work started ahead (the race is over): what has not started is cancelled."""
        for _, future in self._ahead:
            future.cancel()
        self._ahead, self._queued = [], []
