#!/usr/bin/env python3
"""Fuzz calasolve as a hostile user would, for as long as you like.

    python3 tools/fuzz.py --cases 2000 --seed 1            # every target
    python3 tools/fuzz.py --target api --cases 10000 --seed 7

Targets:

* ``deal``: mutated example deal files and random bytes through the deal-file
  reader (:func:`calasolve.records.dealfile.parse_deal_bytes`).  Each input gives
  records or a ``CalasolveError``; records written back
  (:func:`~calasolve.records.dealfile.format_deal_text`) read back equal.
* ``api``: the public functions (``solve``, ``advise``, ``analyse``,
  ``best_exchange``, ``Position``, ``PlayState``, ``read_deal_file``,
  ``make_solver``, the card parsers) called with valid and hostile
  arguments.  Each call returns or raises a ``CalasolveError``.
* ``cli``: the command line, run in this process, on random options and
  mutated deal files.  Each run exits 0 or 2, and 2 with one line on stderr.
* ``faults``: whole runs (in subprocesses, with worker processes most of
  the time) ended every way: a reader that stops after some lines, SIGTERM
  or Ctrl-C after a while, a full disk (``/dev/full``), stdout closed, a
  memory limit (``RLIMIT_AS``).  Each exits with the status and the one
  line that way out calls for, and leaves no process of its group behind.
  About a second per case; Linux (it reads ``/proc``).

Anything else (another exception, a traceback, another exit status) is a
finding: the input is printed so that it can be replayed, and the exit
status is 1.  Same seed, same cases.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.deal"))

HOSTILE: list[Any] = [
    None, -1, 0, 1, 3, 36, 2**31, 2**63, 2**70, -(2**63), 10**400, 1.5, float("nan"), float("inf"),
    "", "x", "3B", "32A.-.-.-", "\x00", "é" * 50, b"3B", [], [1, 2, 3], (0, 0, 0), {}, {"x": 1},
    object(), True, False, abs, range(3),
]


def hostile(rng: random.Random) -> Any:
    return rng.choice(HOSTILE)


def maybe(rng: random.Random, valid: Callable[[], Any], p_valid: float = 0.8) -> Any:
    """A valid value (built by ``valid``) most of the time, else a hostile one."""
    return valid() if rng.random() < p_valid else hostile(rng)


# -- deal files ------------------------------------------------------------------

def _example_bytes() -> list[bytes]:
    return [p.read_bytes() for p in EXAMPLES]


TOKENS = [b"hands:", b"monte:", b"contract:", b"soloist:", b"leader:", b"played:", b"rules:", b"name:",
          b"call:", b"returned:", b"discards:", b"takes:", b"#", b"\n", b"\r\n", b"\r", b"\t", b" ", b".",
          b"-", b"3B", b"AD", b"10C", b"stramazzo=off", b"solissimo", b"chiamo", b"\xef\xbb\xbf", b"\xff",
          b"\x00", b"\xe2\x99\xa0", b"=", b":", b"0", b"1", b"2", b"3", b"99999999999999999999"]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few byte-level edits of ``data``: delete, insert, replace, duplicate a slice, splice a token."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        i = rng.randint(0, len(buf))
        j = min(len(buf), i + rng.randint(0, 40))
        if op == 0:
            del buf[i:j]
        elif op == 1:
            buf[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and buf:
            buf[min(i, len(buf) - 1)] = rng.randrange(256)
        elif op == 3:
            buf[i:i] = buf[i:j]
        elif op == 4:
            buf[i:i] = rng.choice(TOKENS)
        else:
            buf[i:j] = rng.choice(TOKENS)
    return bytes(buf)


def deal_case(rng: random.Random) -> bytes:
    if rng.random() < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    return mutate(rng, rng.choice(_example_bytes()))


def check_deal(data: bytes) -> None:
    from calasolve.types.record import format_deal_text
    from calasolve.records.dealfile import parse_deal_text, parse_deal_bytes
    from calasolve.game.errors import CalasolveError

    try:
        records = parse_deal_bytes(data, "fuzz.deal")
    except CalasolveError:
        return
    again = parse_deal_text(format_deal_text(records))
    assert list(again) == list(records), "a record does not survive format_deal_text"


# -- the Python API ----------------------------------------------------------------

def _records() -> list[Any]:
    from calasolve.records.dealfile import read_deal_file

    return [r for p in EXAMPLES for r in read_deal_file(str(p))]


def api_case(rng: random.Random) -> tuple[str, Callable[[], Any]]:
    """One call of a public function: its name and a thunk."""
    import calasolve
    from calasolve.advice.advisor import advise
    from calasolve.deals.analysis import analyse
    from calasolve.exchange.search import best_exchange
    from calasolve.game.state import CONTRACTS, PlayState
    from calasolve.search.position import Position
    from calasolve.game.rules import Rules
    from calasolve.search.engines import make_solver

    records = _records()
    record = rng.choice(records)
    solver = make_solver(2)

    def a_state() -> Any:
        if rng.random() < 0.7:
            try:
                state = record.state()
            except calasolve.CalasolveError:  # an exchange still to make: the hands as dealt
                state = PlayState(list(record.hands), record.monte, record.soloist, 0)
            if rng.random() < 0.3:  # tampered with by hand
                field = rng.choice(["hands", "trick", "leader", "soloist", "monte"])
                value = rng.choice([[1, 1, 1], [0, 0, 0], [2**41, 0, 0], [5], -1, 7, 2**40, [0, 0], None])
                setattr(state, field, value)
            return state
        return PlayState(maybe(rng, lambda: list(record.hands)), maybe(rng, lambda: record.monte),
                         maybe(rng, lambda: rng.randrange(3)), maybe(rng, lambda: rng.randrange(3)))

    def a_contract() -> Any:
        return maybe(rng, lambda: rng.choice(CONTRACTS))

    def a_rules() -> Any:
        return maybe(rng, lambda: rng.choice([None, Rules(), Rules(stramazzo="off")]))

    def a_solver() -> Any:
        return maybe(rng, lambda: rng.choice([None, solver]))

    which = rng.choice(["solve", "solve", "advise", "advise", "analyse", "best_exchange", "position",
                        "playstate", "read", "make_solver", "parse"])
    if which == "solve":
        kw = dict(target=maybe(rng, lambda: rng.choice([None, 18, 0, 35])),
                  objective=maybe(rng, lambda: rng.choice(["thirds", "payoff"])), solver=a_solver(),
                  all_cards=maybe(rng, lambda: rng.random() < 0.5), line=maybe(rng, lambda: rng.random() < 0.5))
        if rng.random() < 0.5:
            given = maybe(rng, lambda: record)
            return f"solve({given!r:.60}, **{kw!r:.200})", lambda: calasolve.solve(given, **kw)
        state, contract, rules = a_state(), a_contract(), a_rules()
        return (f"solve_position(Position({state!r:.60}, contract={contract!r}, rules={rules!r}), **{kw!r:.200})",
                lambda: calasolve.solve_position(calasolve.Position(state, contract=contract, rules=rules), **kw))
    if which == "advise":
        hand = maybe(rng, lambda: rng.choice(["32AR.32A.3A.2A5", record.hands[record.soloist], "3B 2B"]))
        kw = dict(seat=maybe(rng, lambda: rng.randrange(3)), samples=maybe(rng, lambda: rng.randint(1, 2)),
                  seed=maybe(rng, lambda: rng.randrange(2**63)), jobs=maybe(rng, lambda: 1, 0.95),
                  policy=maybe(rng, lambda: rng.choice(["sampled", "dd"])),
                  defender_policy=maybe(rng, lambda: "heuristic"),
                  contracts=maybe(rng, lambda: rng.sample(CONTRACTS, rng.randint(1, 2))),
                  known=maybe(rng, lambda: rng.choice([None, {}, {"monte": 1 << 39}, {1: 1 << 38}, {5: 1}])),
                  rules=maybe(rng, lambda: Rules()), candidates=maybe(rng, lambda: rng.randint(1, 3)),
                  redeals=maybe(rng, lambda: rng.randint(1, 3)), tt_mb=maybe(rng, lambda: rng.randint(1, 4)),
                  goal_mb=maybe(rng, lambda: rng.randint(1, 4)), progress=maybe(rng, lambda: None))
        return f"advise({hand!r}, **{kw!r:.300})", lambda: advise(hand, **kw)
    if which == "analyse":
        kw = dict(solver=a_solver(), exchange=maybe(rng, lambda: False))
        target = maybe(rng, lambda: record)
        return f"analyse({target!r:.60}, **{kw!r})", lambda: analyse(target, **kw)
    if which == "best_exchange":
        kw = dict(solver=a_solver(), top=maybe(rng, lambda: rng.randint(1, 3)),
                  first=maybe(rng, lambda: None, 0.7))
        target = maybe(rng, lambda: record)
        return f"best_exchange({target!r:.60}, **{kw!r})", lambda: best_exchange(target, **kw)
    if which == "position":
        def run_position() -> Any:
            if rng.random() < 0.5:
                pos = Position.from_record(maybe(rng, lambda: record), solver=a_solver())
            else:
                pos = Position(a_state(), contract=a_contract(), rules=maybe(rng, Rules), solver=a_solver())
            for _ in range(rng.randint(0, 3)):
                pos.play(maybe(rng, lambda: rng.choice(pos.legal_cards() or [0])))
            return pos.values(), pos.value()
        return "Position(...)", run_position
    if which == "playstate":
        args = [maybe(rng, lambda: list(record.hands)), maybe(rng, lambda: record.monte),
                maybe(rng, lambda: rng.randrange(3)), maybe(rng, lambda: rng.randrange(3))]
        tl = maybe(rng, lambda: None)
        return f"PlayState({args!r:.200}, tricks_left={tl!r})", lambda: PlayState(*args, tricks_left=tl)
    if which == "read":
        path = maybe(rng, lambda: str(rng.choice(EXAMPLES)), 0.5)
        return f"read_deal_file({path!r})", lambda: calasolve.read_deal_file(path)
    if which == "make_solver":
        mb = maybe(rng, lambda: rng.randint(1, 4), 0.3)
        return f"make_solver({mb!r})", lambda: make_solver(mb)
    text = maybe(rng, lambda: rng.choice(["3B", "32A.-.-.-", "AD 2D", "10C"]), 0.5)
    fn = rng.choice([calasolve.parse_card, calasolve.parse_hand, calasolve.parse_cards])
    return f"{fn.__name__}({text!r})", lambda: fn(text)


def check_api(case: tuple[str, Callable[[], Any]]) -> None:
    from calasolve.game.errors import CalasolveError

    with contextlib.suppress(CalasolveError):
        case[1]()


# -- the command line ----------------------------------------------------------------

def cli_case(rng: random.Random, workdir: Path) -> list[str]:
    """An argv: a command, some options (valid or not), files (mutated or not)."""
    command = rng.choice(["check", "solve", "solve", "analyse", "advise", "rules", "bench", "nonsense"])
    args = [command]
    if command in ("check", "solve", "analyse"):
        for k in range(rng.randint(1, 2)):
            path = workdir / f"f{k}.deal"
            data = rng.choice(_example_bytes())
            path.write_bytes(mutate(rng, data) if rng.random() < 0.6 else data)
            args.append(str(path))
        if rng.random() < 0.1:
            args.append(str(workdir / "missing.deal"))
    options = {
        "check": ["--json", "--rule"],
        "solve": ["--json", "--rule", "--jobs", "--tt-mb", "--target", "--top", "--objective"],
        "analyse": ["--json", "--rule", "--jobs", "--tt-mb", "--no-exchange"],
        "advise": ["--json", "--seat", "--samples", "--seed", "--contracts", "--known", "--policy",
                   "--defender-policy", "--rule", "--tt-mb", "--goal-mb"],
        "rules": ["--json"],
        "bench": ["--json", "--target", "--tt-mb"],  # not --no-tt: minutes per deal, by design
    }.get(command, ["--x"])
    values = {
        "--rule": ["stramazzo=off", "first_lead=eldest", "x=y", "stramazzo", ""],
        "--jobs": ["1", "0", "-1", "x", "257"], "--tt-mb": ["16", "0", "65537", "1e3"],
        "--target": ["18", "0", "35", "36", "-1"], "--top": ["1", "3", "0"],
        "--objective": ["thirds", "payoff", "money"], "--seat": ["0", "2", "3"],
        "--samples": ["1", "2", "0", "1000001"], "--seed": ["0", "7", "-1", str(2**63)],
        "--contracts": ["solissimo", "solo,solissimo", "grand", ",", ""], "--known": ["1=3B", "monte=AD", "4=3B", "1="],
        "--policy": ["sampled", "dd", "magic"], "--defender-policy": ["heuristic", "x"],
        "--goal-mb": ["1", "4", "0", "70000"],
    }
    if command == "advise":
        args += ["--samples", "1", "--jobs", "1", "--contracts", rng.choice(["solissimo", "solo", "solissimo,chiamo"])]
        args.append(rng.choice(["32AR.32A.3A.2A5", "3B 2B AB RB 3S 2S AS 3C AC 2D AD 5D", "32A", "x", "3B"]))
    if command == "bench":
        args += ["--deals", "1"]
    for _ in range(rng.randint(0, 3)):
        opt = rng.choice(options)
        args.append(opt)
        if opt in values:
            args.append(rng.choice(values[opt]))
    if command in ("solve", "analyse") and "--jobs" not in args:
        args += ["--jobs", "1"]
    if command == "analyse":
        args.append("--no-exchange")  # judging the exchange is a search of seconds, like solve's
    return args


def check_cli(argv: list[str]) -> None:
    from calasolve.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code: Any = 0
        except SystemExit as exc:
            code = exc.code
    text = err.getvalue()
    if code in (130, 143):  # the fuzzer itself was interrupted or terminated (main() took the signal)
        raise KeyboardInterrupt
    assert code in (0, 2), f"exit status {code!r}: {text[-500:]}"
    assert "Traceback" not in text, text[-2000:]
    if code == 2:
        lines = text.strip().splitlines()
        # check reports every error of its files, one line each; the other commands one error
        assert lines and all(line.startswith("calasolve: error: ") for line in lines), f"not error lines: {text[-500:]}"
        assert len(lines) == 1 or argv[0] == "check", f"not one line: {text[-500:]}"
    # the --jobs of a case is never above 1: no worker may be left either way
    from calasolve.scale.workers import live_workers

    assert live_workers() == 0


# -- faults: whole runs in subprocesses, ended in every way ---------------------------

HAND = "32AR.32A.3A.2A5"
FAULTS = ["pipe", "term", "int", "full", "closed", "memory", "none"]


def fault_case(rng: random.Random, workdir: Path) -> dict[str, Any]:
    """A command (with workers most of the time) and a way to end it."""
    big = workdir / "big.deal"
    if not big.exists():
        big.write_bytes(b"\n".join(p.read_bytes() for p in EXAMPLES for _ in range(20)))
    jobs = rng.choice(["1", "2", "2", "3"])
    argv = rng.choice([
        ["solve", "--jobs", jobs, str(big)],
        ["solve", "--jobs", jobs, "--objective", "payoff", str(big)],
        ["analyse", "--jobs", jobs, "--no-exchange", str(big)],
        ["advise", "--jobs", jobs, "--samples", str(rng.randint(1, 300)), "--contracts", "solissimo,solo", HAND],
        ["check", str(big)],
        ["rules"],
    ])
    fault = rng.choice(FAULTS)
    case: dict[str, Any] = {"argv": argv, "fault": fault}
    if fault == "pipe":
        case["lines"] = rng.randint(0, 200)
    elif fault in ("term", "int"):
        case["delay"] = round(rng.uniform(0.5, 3.0), 2)
    elif fault == "memory":
        case["mib"] = rng.choice([200, 300, 600])  # below 200 MiB Python cannot even import numpy
        case["argv"] = argv + (["--tt-mb", str(rng.choice([16, 256, 4096]))] if argv[0] in ("solve", "analyse", "advise") else [])
    return case


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state, _ppid, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
            except (OSError, ValueError):
                continue
            if int(pgrp) == pgid and state != "Z":
                out.append(int(entry.name))
    return out


def check_fault(case: dict[str, Any]) -> None:
    """Run the case in a session of its own; once it has exited, no process of its
    group may be left, and its status and stderr must be one of the expected ones."""
    import os
    import resource
    import signal
    import subprocess
    import time

    fault = case["fault"]
    stdout: Any = subprocess.PIPE
    if fault == "full":
        stdout = open("/dev/full", "wb")

    def setup() -> None:
        if fault == "closed":
            os.close(1)
        if fault == "memory":
            limit = case["mib"] << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    proc = subprocess.Popen([sys.executable, "-m", "calasolve", *case["argv"]], stdout=stdout if fault != "closed" else None,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True, cwd=ROOT,
                            preexec_fn=setup)
    try:
        if fault == "pipe":
            assert proc.stdout is not None
            for _ in range(case["lines"]):
                if not proc.stdout.readline():
                    break
            proc.stdout.close()
        elif fault in ("term", "int"):
            time.sleep(case["delay"])
            if fault == "term":
                proc.send_signal(signal.SIGTERM)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGINT)
        elif fault == "none" and proc.stdout is not None:
            proc.stdout.read()
        if proc.stdout is not None and not proc.stdout.closed:
            proc.stdout.close()  # what is left of the output is not read: a closed pipe
        err = proc.stderr.read().decode() if proc.stderr else ""
        code = proc.wait(timeout=120)
    finally:
        if fault == "full":
            stdout.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    left = _group(proc.pid)
    if left:
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"processes {left} outlived the run")
    assert "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    if fault == "term":
        ok = (code, lines) in ((143, ["calasolve: terminated"]), (0, []), (-signal.SIGTERM, []))
    elif fault == "int":
        ok = (code, lines) in ((130, ["calasolve: interrupted"]), (0, []), (-signal.SIGINT, []))
    elif fault in ("full", "closed"):
        ok = code == 2 and len(lines) == 1 and lines[0].startswith("calasolve: error: cannot write the output")
    elif fault == "memory":
        ok = code == 0 or (code == 2 and len(lines) == 1 and lines[0].startswith("calasolve: error: "))
    else:  # "none" and "pipe": all output read, or the reader went away
        ok = code == 0 and lines == []
    assert ok, f"exit status {code}, stderr {err[-1000:]!r}"


# -- driver -------------------------------------------------------------------------

class Hang(Exception):
    """A case ran longer than the time limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang("the case ran longer than the time limit")


def run(target: str, cases: int, seed: int, out: Any = sys.stdout, timeout: int = 60, verbose: bool = False) -> int:
    """Run ``cases`` cases of ``target`` from ``seed``; returns the number of findings.
    A case that takes more than ``timeout`` seconds is a finding too (a hang)."""
    import signal
    from calasolve.game.errors import CalasolveError

    rng = random.Random(f"{target}:{seed}")
    findings = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(cases):
            if target == "deal":
                case: Any = deal_case(rng)
                check: Callable[[Any], None] = check_deal
                shown = repr(case)
            elif target == "api":
                try:
                    case = api_case(rng)
                except CalasolveError:  # a hostile argument refused while building the call: as it should
                    continue
                check, shown = check_api, case[0]
            elif target == "cli":
                case = cli_case(rng, Path(tmp))
                check, shown = check_cli, repr(case)
            else:
                case = fault_case(rng, Path(tmp))
                check, shown = check_fault, repr(case)
            if verbose:
                print(f"{target} case {i}: {shown}", file=out, flush=True)
            previous = signal.signal(signal.SIGALRM, _alarm)
            signal.alarm(timeout)
            try:
                check(case)
            except Exception:  # a finding, whatever it is: report it and go on
                findings += 1
                print(f"FINDING {target} case {i} (seed {seed}): {shown}", file=out)
                print(traceback.format_exc(limit=-4), file=out)
            finally:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, previous)
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=500, help="cases per target (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--target", choices=["deal", "api", "cli", "faults", "all"], default="all")
    parser.add_argument("--timeout", type=int, default=60, help="seconds a case may take (default 60)")
    parser.add_argument("--verbose", action="store_true", help="print every case before running it")
    args = parser.parse_args(argv)
    targets = ["deal", "api", "cli", "faults"] if args.target == "all" else [args.target]
    total = 0
    for target in targets:
        found = run(target, args.cases, args.seed, timeout=args.timeout, verbose=args.verbose)
        print(f"{target}: {args.cases} cases, seed {args.seed}: {found} findings")
        total += found
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
