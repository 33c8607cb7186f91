"""Fault tests: every way out of a command leaves no worker process behind, output
that cannot be written is a one-line error, memory that cannot be allocated is
the one-line error of the option that sizes it.

Each run is a subprocess in a session of its own, so its process group holds
it and every process it starts; once it has exited the group must be empty.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import pytest
from processes import processes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "example.deal"
PLAYED = ROOT / "examples" / "played.deal"
HAND = "32AR.32A.3A.2A5"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``."""
    return [pid for pid, fields in processes() if int(fields[2]) == pgid and fields[0] != "Z"]


def _default_sigint(then: Any = None) -> Any:
    """The child's SIGINT back to its default before it runs (then ``then``): a shell
    that starts the suite as a background job (``bash -c 'pytest &'``, ``nohup``)
    ignores SIGINT for it, and an ignored SIGINT is inherited, so Ctrl-C would reach
    nobody; a user's terminal never starts calasolve that way."""

    def run() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if then is not None:
            then()

    return run


def start(argv: Sequence[str], **kw: Any) -> subprocess.Popen[bytes]:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw["preexec_fn"] = _default_sigint(kw.get("preexec_fn"))
    return subprocess.Popen([sys.executable, "-m", "calasolve", *argv], start_new_session=True, cwd=ROOT, **kw)


def wait_for_workers(proc: subprocess.Popen[bytes], n: int, timeout: float = 60.0) -> None:
    """Until the run has ``n`` worker processes (its group holds n + 1)."""
    end = time.monotonic() + timeout
    while len(group(proc.pid)) < n + 1:
        assert proc.poll() is None, "the run ended before its workers started"
        assert time.monotonic() < end, "the workers did not start"
        time.sleep(0.05)


def finish(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> tuple[int, str]:
    """The run's exit status and stderr, once it has exited: then no process of its
    group may be left (the workers are gone before the main process exits)."""
    _, err = proc.communicate(timeout=timeout)
    assert group(proc.pid) == [], "worker processes outlived the run"
    return proc.returncode, (err or b"").decode()


@pytest.fixture(scope="module")
def big_deal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Example records repeated: more text than a pipe holds."""
    path = tmp_path_factory.mktemp("faults") / "big.deal"
    path.write_text("\n".join([EXAMPLE.read_text(encoding="utf-8")] * 40), encoding="utf-8")
    return path


#: `calasolve deal` making records on workers without end (for the reader to stop it)
ENDLESS_DEALS = ["deal", "--jobs", "2", "--played", "1", "--count", "100000"]


@pytest.mark.parametrize("command", ["solve", "analyse", "deal"])
def test_closed_pipe_leaves_no_worker(command: str, big_deal: Path) -> None:
    # `calasolve solve --jobs 2 big.deal | head -1`
    source = PLAYED if command == "analyse" else big_deal
    argv = [command, "--jobs", "2", str(source)]
    if command == "analyse":
        argv = [command, "--jobs", "2", "--no-exchange", *[str(source)] * 30]
    if command == "deal":
        argv = ENDLESS_DEALS
    proc = start(argv)
    assert proc.stdout is not None
    assert proc.stdout.readline()
    wait_for_workers(proc, 2)
    proc.stdout.close()
    code, err = finish(proc)
    assert code == 0 and err == ""


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("command", ["solve", "advise", "deal"])
def test_signal_leaves_no_worker(command: str, how: str, big_deal: Path) -> None:
    if command == "solve":
        proc = start(["solve", "--jobs", "2", str(big_deal)])  # stdout never read: it blocks, workers alive
    elif command == "deal":
        proc = start(ENDLESS_DEALS)
    else:
        proc = start(["advise", "--jobs", "2", "--samples", "100000", "--contracts", "solissimo", HAND])
    wait_for_workers(proc, 2)
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)  # the main process only, as `kill PID`
    else:
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole group
    code, err = finish(proc)
    expected = (143, "calasolve: terminated") if how == "SIGTERM" else (130, "calasolve: interrupted")
    assert (code, err.strip()) == expected


def _limit_memory(mib: int) -> Any:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (mib << 20, mib << 20))

    return limit


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_goal_memo_too_large_is_the_options_error(jobs: str) -> None:
    # the memo is allocated in the worker with --jobs 2, in the main process with 1
    proc = start(["advise", "-j", jobs, "--samples", "2", "--contracts", "solissimo,solo", HAND],
                 preexec_fn=_limit_memory(200))
    code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: --goal-mb 128: cannot allocate a 128 MiB goal memo\n"
    proc = start(["advise", "-j", jobs, "--samples", "2", "--goal-mb", "4", "--contracts", "solissimo", "--json", HAND],
                 preexec_fn=_limit_memory(400))
    code, err = finish(proc)
    assert code == 0 and err == ""


def test_table_too_large_in_workers_is_the_options_error(big_deal: Path) -> None:
    proc = start(["solve", "--jobs", "2", "--tt-mb", "4096", str(big_deal)], preexec_fn=_limit_memory(400))
    code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: --tt-mb 4096: cannot allocate a 4096 MiB transposition table\n"


def test_memory_limits_are_a_one_line_error() -> None:
    """`ulimit -v N; calasolve solve --json --jobs 2 example.deal`, for N from where `check` runs
    upwards: the answer, or one line and exit status 2 (the command's own import, the workers'
    start, the table), never a traceback or a hang; the range holds both."""
    floor = next((mib for mib in range(16, 200, 4)
                  if finish(start(["check", str(EXAMPLE)], preexec_fn=_limit_memory(mib)))[0] == 0), None)
    assert floor is not None, "calasolve check does not run in 200 MiB"
    said = []
    for mib in range(floor, floor + 120, 10):
        code, err = finish(start(["solve", "--json", "--jobs", "2", str(EXAMPLE)], preexec_fn=_limit_memory(mib)))
        assert (code, err) == (0, "") or (code == 2 and err.startswith("calasolve: error: ") and err.count("\n") == 1), \
            (mib, code, err)
        said.append(err)
    assert any(said) and not all(said), said


DEV_FULL = Path("/dev/full")

COMMANDS = [
    ["check", str(EXAMPLE)],
    ["rules"],
    ["solve", str(EXAMPLE)],
    ["analyse", "--no-exchange", str(PLAYED)],
    ["advise", "--samples", "2", "--jobs", "1", "--contracts", "solissimo", HAND],
    ["bench", "--deals", "1"],
]


@pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full")
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_full_disk_is_a_one_line_error(argv: list[str]) -> None:
    with DEV_FULL.open("wb") as full:
        proc = start(argv, stdout=full)
        code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_closed_stdout_is_a_one_line_error(argv: list[str]) -> None:
    # `calasolve ... >&-`
    proc = start(argv, stdout=None, preexec_fn=lambda: os.close(1))
    code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: cannot write the output: standard output is closed\n"


@pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full")
def test_full_disk_with_workers_leaves_no_worker(big_deal: Path) -> None:
    with DEV_FULL.open("wb") as full:
        proc = start(["solve", "--jobs", "2", str(big_deal)], stdout=full)
        code, err = finish(proc)
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_closed_pipe_is_exit_0_for_every_command(argv: list[str]) -> None:
    proc = start(argv)
    assert proc.stdout is not None
    proc.stdout.close()
    code, err = finish(proc)
    assert code == 0 and err == ""


def test_advise_api_stops_its_workers_on_an_exception() -> None:
    """An exception inside advise (here from the progress callback) stops the pool it started."""
    import multiprocessing

    from calasolve.advice.advisor import advise
    from calasolve.scale.workers import live_workers

    class Stop(Exception):
        pass

    def progress(n: int) -> None:
        assert len(multiprocessing.active_children()) == 2  # the workers, running
        raise Stop

    with pytest.raises(Stop):
        advise(HAND, play="dd", samples=2000, jobs=2, contracts=["solissimo"], progress=progress)
    assert live_workers() == 0 and multiprocessing.active_children() == []


def test_closed_stdin_is_the_deal_files_error() -> None:
    # `calasolve solve - <&-`
    proc = start(["solve", "-"], stdin=None, preexec_fn=lambda: os.close(0))
    code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: <stdin>: cannot read standard input: it is closed\n"


@pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full")
def test_unwritable_stderr_keeps_the_exit_status() -> None:
    # the error cannot be said (`2>/dev/full`), but the status still tells it
    with DEV_FULL.open("wb") as full:
        proc = start(["check", "no-such-file.deal"], stderr=full)
        code, _ = finish(proc)
    assert code == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_payoff_goal_memo_too_large_is_the_options_error(jobs: str, big_deal: Path) -> None:
    proc = start(["solve", "--objective", "payoff", "--jobs", jobs, "--goal-mb", "4096", str(big_deal)],
                 preexec_fn=_limit_memory(400))
    code, err = finish(proc)
    assert code == 2 and err == "calasolve: error: --goal-mb 4096: cannot allocate a 4096 MiB goal memo\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_workers_die_with_a_killed_main_process() -> None:
    # kill -KILL runs no clean-up at all: the workers asked Linux for SIGTERM when their parent dies
    proc = start(["advise", "--jobs", "2", "--samples", "100000", "--contracts", "solissimo", HAND])
    wait_for_workers(proc, 2)
    proc.kill()
    proc.communicate(timeout=60)
    end = time.monotonic() + 10
    while group(proc.pid) and time.monotonic() < end:
        time.sleep(0.05)
    assert group(proc.pid) == []
