"""Worker pools that cannot be made are a WorkerStartError, whatever part of them fails."""

from __future__ import annotations

import errno

import pytest

from calasolve.game.errors import WorkerStartError
from calasolve.scale import workers


def test_a_pool_whose_queue_cannot_be_made_is_a_start_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a memory limit the pool's own semaphores fail before any worker (tests/cli/test_faults.py
    meets it at some limits): one line, not a bug."""

    def no_memory(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(workers, "_Pool", no_memory)
    with pytest.raises(WorkerStartError, match="cannot start worker processes: OSError: .*Cannot allocate memory"):
        with workers.worker_pool(2):
            pass
