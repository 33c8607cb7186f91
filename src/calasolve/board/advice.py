"""The board's advice run: :func:`~calasolve.advice.advisor.run_advice` in a child process, one at a time.

A child process rather than a thread, so that cancelling stops the sampling
at once (the process is terminated) instead of after the chunk under way.
The child is given the :class:`~calasolve.advice.settings.AdviceSettings` and
hands back the :class:`~calasolve.types.advice.Advice`, or its error whole
(pickled, as the worker pools' are); the server writes their JSON.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import time
from typing import TYPE_CHECKING, Any

from ..game.errors import CalasolveError

if TYPE_CHECKING:
    from ..advice.settings import AdviceSettings
    from ..types.advice import Advice

#: The most samples per contract the board runs (the CLI's own limit is far higher).
MAX_SAMPLES = 5000
#: ``play``: double dummy and the played odds (the default), or double dummy alone.
ADVICE_PLAYS = ("played", "dd")
#: Seconds without a poll after which a run is stopped: no page is waiting for it (a
#: hidden tab's timers may slow to one a minute, so well above that).
ABANDONED_AFTER = 150.0


def _run(settings: AdviceSettings, out: Any) -> None:
    """The child: advise, report progress and the result (or the error, whole) on ``out``."""
    from ..advice.advisor import run_advice

    try:
        result = run_advice(settings, progress=lambda n: out.put(("progress", n)))
        out.put(("done", result))
    except CalasolveError as err:
        out.put(("error", err))


class AdviceRun:
    """One advice run: its progress, then its result, its error or its cancellation."""

    def __init__(self, settings: AdviceSettings, run: int = 1) -> None:
        ctx = multiprocessing.get_context("spawn")  # the server has threads: no fork
        self.settings = settings
        #: the run's number: the page keeps only the answers of the run it asked for
        self.run = run
        self.polled = time.monotonic()
        # the double-dummy samples (their cap: sequential sampling may stop sooner), then the
        # deals played out, one progress count each
        self.total = settings.cap * len(settings.contracts)
        if settings.play == "played":
            self.total += settings.deals * len(settings.contracts)
        self.done = 0
        self.state = "running"
        self.result: Advice | None = None
        self.error: CalasolveError | None = None
        self._queue = ctx.Queue()
        self._process = ctx.Process(target=_run, args=(settings, self._queue), daemon=True, name="calasolve-advice")
        self._process.start()

    def poll(self) -> None:
        """Take in what the child has reported so far."""
        while self.state == "running":
            try:
                kind, value = self._queue.get_nowait()
            except queue_module.Empty:
                if not self._process.is_alive() and self._queue.empty():
                    self.state = "error"
                    self.error = CalasolveError(f"the advice process stopped (exit code {self._process.exitcode})")
                return
            if kind == "progress":
                self.done += value
            elif kind == "done":
                self.state, self.result, self.done = "done", value, self.total
            else:
                self.state, self.error = "error", value
        if self._process.is_alive() and self.state != "running":
            self._process.join(timeout=5)

    def cancel(self) -> None:
        """Stop the run now (nothing happens to a finished one)."""
        self.poll()
        if self.state == "running":
            self._process.terminate()
            self._process.join()
            self.state = "cancelled"

    def abandoned(self, now: float | None = None) -> bool:
        """Still running, but nobody has asked for its status for :data:`ABANDONED_AFTER` seconds."""
        return self.state == "running" and (now or time.monotonic()) - self.polled > ABANDONED_AFTER

    def asked(self) -> AdviceRun:
        """A page asked for the run's status: it is polled now, and what the child reported is taken in."""
        self.polled = time.monotonic()
        self.poll()
        return self
