"""``--scheduler``: the bulk commands on a Dask cluster give the local run's output.

A real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(separate processes, as on separate machines), a local cluster of 2, a
worker killed mid-run, an unreachable scheduler, Dask missing.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from steady import steady as without

from calasolve.cli import main
from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
PLAYED = str(ROOT / "examples" / "played.deal")
EXAMPLE = str(ROOT / "examples" / "example.deal")  # every contract, the exchanges given
VARYING = {"nodes", "seconds", "cpu_seconds"}  # what may differ between runs


def steady(obj: Any) -> Any:
    """``obj`` without its times and node counts."""
    return without(obj, VARYING)


def lines(text: str) -> list[Any]:
    return [steady(json.loads(line)) for line in text.splitlines()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.fixture
def cluster() -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two single-thread workers, each its own process group."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    procs += [start("worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                    "--host", "127.0.0.1") for _ in range(2)]
    try:
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[1:]
    finally:
        for proc in reversed(procs):
            stop(proc)


@pytest.fixture(scope="module")
def deals(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("dask") / "random.deal"
    with pytest.raises(SystemExit):
        main(["deal", "--count", "24", "--seed", "11", "--soloist", "random", "-o", str(path)])
    return str(path)


def test_local_cluster_solve_is_the_local_run(deals: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, local, _ = run(["solve", "--json", "--jobs", "1", deals, EXAMPLE], capsys)
    assert code == 0
    code, dask, err = run(["solve", "--json", "--scheduler", "local:2", deals, EXAMPLE], capsys)
    assert code == 0, err
    assert lines(dask) == lines(local) and len(lines(local)) == 24 + 6


@pytest.mark.parametrize("argv", [
    ["deal", "-n", "4", "--seed", "2", "--contract", "solo", "--played", "5"],
    ["analyse", "--json", PLAYED],
    ["advise", "--json", "--seed", "5", "--samples", "24", "--contracts", "solissimo", "32AR.32A.3A.2A5"],
    # the deals played out by PIMC players, each a task on the cluster
    ["advise", "--json", "--seed", "5", "--play", "pimc", "--play-samples", "2", "--pimc-samples", "2",
     "--contracts", "solissimo,dividete", "32AR.32A.3A.2A5"],
])
def test_local_cluster_deal_analyse_and_advise_are_the_local_run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    local = run([*argv, "--jobs", "1"], capsys)
    dask = run([*argv, "--scheduler", "local:2"], capsys)
    assert local[0] == dask[0] == 0, dask[2]
    if argv[0] == "deal":  # a deal file: byte for byte
        assert dask[1] == local[1] and local[1].count("played:") == 4
    else:
        assert lines(dask[1]) == lines(local[1]) and lines(local[1])


def test_commands_on_separate_scheduler_and_workers(
    cluster: tuple[str, list[Any]], deals: str, capsys: pytest.CaptureFixture[str]
) -> None:
    address, _ = cluster
    for argv in (["solve", "--json", deals], ["solve", deals], ["analyse", "--json", PLAYED]):
        local = run([*argv, "--jobs", "1"], capsys)
        remote = run([*argv, "--scheduler", address], capsys)
        assert local[0] == remote[0] == 0, remote[2]
        if "--json" in argv:
            assert lines(remote[1]) == lines(local[1])
        else:  # the text has no times or node counts: byte for byte
            assert remote[1] == local[1]
    advise = ["advise", "--json", "--seed", "5", "--samples", "48", "--contracts", "solissimo,solo", "32AR.32A.3A.2A5"]
    local = run([*advise, "--jobs", "1"], capsys)
    remote = run([*advise, "--scheduler", address], capsys)
    assert local[0] == remote[0] == 0, remote[2]
    assert steady(json.loads(remote[1])) == steady(json.loads(local[1]))


def test_a_worker_killed_mid_run(
    cluster: tuple[str, list[Any]], deals: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address, workers = cluster
    code, local, _ = run(["solve", "--json", "--jobs", "1", deals, deals], capsys)
    assert code == 0
    errors = tmp_path / "stderr"
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "solve", "--json", "--scheduler", address, deals, deals],
                            stdout=subprocess.PIPE, stderr=errors.open("w"), text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first and proc.poll() is None  # the run is under way
        stop(workers[0])
        rest = proc.stdout.read()
        proc.wait(timeout=120)
        err = errors.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert lines(first + rest) == lines(local) and len(lines(local)) == 48


def test_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    start_time = time.monotonic()
    code, out, err = run(["solve", "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--scheduler-timeout", "1",
                          PLAYED], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "cannot reach the Dask scheduler" in err
    assert time.monotonic() - start_time < 30  # the timeout holds (a generous bound, not a benchmark)


@pytest.fixture
def not_dask() -> Iterator[str]:
    """A TCP server that answers with garbage (as a web server or a proxy would)."""
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" + b"\xff" * 64)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


@pytest.mark.parametrize("address, fragment", [
    ("not-dask", "Dask scheduler"), ("foo://127.0.0.1:1", "not a Dask address"),
])
def test_a_wrong_address_is_one_line(
    address: str, fragment: str, not_dask: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """No traceback, not even from the failed client's clean-up at exit (a subprocess, to see that)."""
    address = not_dask if address == "not-dask" else address
    proc = subprocess.run([sys.executable, "-m", "calasolve", "solve", "--scheduler", address,
                           "--scheduler-timeout", "2", PLAYED], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"calasolve: error: --scheduler {address}: ") and fragment in proc.stderr


@pytest.mark.parametrize("command", [["solve", PLAYED], ["analyse", PLAYED], ["advise", "32AR.32A.3A.2A5"]])
def test_without_dask_scheduler_says_how_to_install(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, out, err = run([*command, "--scheduler", "local:2"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pip install 'calasolve[dask]'" in err


@pytest.mark.parametrize("value, fragment", [("local:0", "local:N"), ("local:x", "local:N"), ("", "address")])
def test_bad_scheduler_value(value: str, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", "--scheduler", value, PLAYED], capsys)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_jobs_and_scheduler_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["solve", "--jobs", "2", "--scheduler", "local:2", PLAYED], capsys)
    assert code == 2 and "--jobs and --scheduler" in err


def test_training_data_on_a_local_cluster_is_the_local_data() -> None:
    import numpy as np

    from calasolve.scale.cluster import dask_map
    from calasolve.train.data import Chunk, generate
    from calasolve.train.exchange import generate_exchange

    chunk = Chunk("stakes", 900_030, 3)
    here, ex_here = generate(chunk), generate_exchange(900_030, 3)
    with dask_map("local:2") as mapper:
        there, ex_there = generate(chunk, None, mapper), generate_exchange(900_030, 3, mapper)
    assert np.array_equal(here.x, there.x) and np.array_equal(here.chosen, there.chosen)
    assert np.array_equal(ex_here.soloist[0], ex_there.soloist[0]) and np.array_equal(ex_here.discard[2], ex_there.discard[2])
