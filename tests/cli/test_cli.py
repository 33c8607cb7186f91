"""The command line: output shapes, --json keys, errors as one line with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")
PLAYED = str(ROOT / "examples" / "played.deal")

SOLISSIMO = """\
name: tiny
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76
monte: R4.-.3F.-
contract: solissimo
soloist: 0
"""


def write(tmp_path: Path, text: str, name: str = "d.deal") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_closed_pipe_is_not_an_error(tmp_path: Path) -> None:
    """`calasolve ... | head`: the reader goes away early; exit 0, nothing on stderr."""
    path = write(tmp_path, "\n".join([SOLISSIMO] * 400))  # far more output than a pipe buffers
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "check", "--json", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and err == b""


def test_dash_reads_standard_input() -> None:
    def call(data: bytes) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "calasolve", "solve", "--json", "-"], input=data,
                              capture_output=True, timeout=120)

    done = call(SOLISSIMO.encode())
    obj = json.loads(done.stdout)
    assert done.returncode == 0 and obj["file"] == "<stdin>" and obj["name"] == "tiny"
    bad = call(SOLISSIMO.replace("soloist: 0", "soloist: 4").encode())
    assert bad.returncode == 2 and bad.stderr.decode().startswith("calasolve: error: <stdin>:5: ")


def test_table_too_large_for_the_machine(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import calasolve.search._core

    real = calasolve.search._core.Solver

    def solver(tt_mb: int = 32, **switches: bool) -> object:
        if tt_mb > 1000:  # this "machine" has room for 1000 MiB
            raise MemoryError(f"cannot allocate a {tt_mb} MiB transposition table")
        return real(tt_mb, **switches)

    monkeypatch.setattr(calasolve.search._core, "Solver", solver)
    for argv in (["solve", "--jobs", "1"], ["analyse"], ["bench", "--deals", "1"]):
        files = [write(tmp_path, SOLISSIMO)] if argv[0] != "bench" else []
        code, out, err = run([*argv, "--tt-mb", "4096", *files], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert "--tt-mb" in err and "cannot allocate a 4096 MiB" in err
    code, out, err = run(["advise", "--samples", "2", "--jobs", "1", "--contracts", "solissimo", "--tt-mb", "4096",
                          "32AR.3A7.2AF.A5"], capsys)
    assert code == 2 and "--tt-mb" in err and len(err.strip().splitlines()) == 1


def test_output_encoding_without_suit_symbols(tmp_path: Path) -> None:
    """A cp1252 stdout (Windows, redirected): the suits print as letters, no traceback."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    proc = subprocess.run([sys.executable, "-m", "calasolve", "solve", "--symbols", write(tmp_path, SOLISSIMO)],
                          capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0 and proc.stderr == b""
    text = proc.stdout.decode("cp1252")
    assert "seat 0 leads " in text and not any(ch in text for ch in "♣♠♥♦")


def test_analyse_error_names_the_place_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOLISSIMO.replace("contract: solissimo", "contract: solo"))
    code, out, err = run(["analyse", "--jobs", "1", path], capsys)
    assert code == 2 and out == ""
    assert err.strip() == f"calasolve: error: {path}:1: solo: the exchange is incomplete (missing: discards)"


def test_error_stays_on_one_line_whatever_the_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "hands: x\n", name="two\nlines.deal")
    code, out, err = run(["check", path], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "two\\nlines.deal:1: " in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and "calasolve" in out and "0.1.0" in out


@pytest.mark.parametrize("command", ["check", "solve", "analyse", "advise", "bench", "rules"])
def test_help_has_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    assert "Example" in out and f"calasolve {command}" in out


@pytest.mark.parametrize("command", ["check", "solve", "analyse", "advise", "bench", "rules"])
def test_every_command_has_json(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0 and "--json" in out


def test_rules_json_names_every_variant_and_its_standard_value(capsys: pytest.CaptureFixture[str]) -> None:
    from calasolve.game.rules import STANDARD, VARIANTS

    code, out, _ = run(["rules", "--json"], capsys)
    rules = json.loads(out)["rules"]
    assert code == 0 and [r["name"] for r in rules] == list(VARIANTS)
    for r in rules:
        assert r["standard"] == getattr(STANDARD, r["name"]) and r["standard"] in r["values"] and r["help"]


def test_check_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", EXAMPLE, PLAYED], capsys)
    assert code == 0 and err == ""
    assert out.count("record ") >= 9
    assert "seat 0 (soloist)" in out


def test_check_json_one_object_per_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--json", EXAMPLE], capsys)
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 6
    objs = [json.loads(line) for line in lines]
    assert [o["record"] for o in objs] == [1, 2, 3, 4, 5, 6]
    assert objs[0]["contract"] == "solissimo"


def test_solve_json_keys_and_consistency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "--json", write(tmp_path, SOLISSIMO)], capsys)
    assert code == 0
    obj = json.loads(out)
    for key in ("record", "name", "contract", "soloist", "to_move", "soloist_thirds", "soloist_points",
                "makes", "cards", "line", "nodes", "seconds"):
        assert key in obj
    assert obj["record"] == 1 and obj["name"] == "tiny"
    assert obj["soloist_thirds"] == max(obj["cards"].values())  # soloist to move
    assert obj["makes"] == (obj["soloist_thirds"] >= 18)
    assert obj["soloist_points"] == obj["soloist_thirds"] // 3
    assert len(obj["line"]) == 36


def test_solve_jobs_keep_file_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out1, _ = run(["solve", "--json", "--jobs", "1", EXAMPLE], capsys)
    code2, out2, _ = run(["solve", "--json", "--jobs", "2", EXAMPLE], capsys)
    assert code == code2 == 0
    def strip(text: str) -> list[dict[str, object]]:
        return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "nodes")} for line in text.splitlines()]
    assert strip(out1) == strip(out2)
    assert [json.loads(line)["record"] for line in out2.splitlines()] == [1, 2, 3, 4, 5, 6]


def test_solve_json_tricks_add_up_to_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    # every record of the example, the mid-trick one included: what the soloist
    # has, plus his tricks' thirds, plus the last trick's bonus if his, is the value
    code, out, _ = run(["solve", "--json", EXAMPLE, PLAYED], capsys)
    objs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {o["file"] for o in objs} == {EXAMPLE, PLAYED}
    for o in objs:
        tricks = o["tricks"]
        if o["to_move"] is None:  # a deal played out: nothing left
            assert tricks == [] and o["captured"] == o["soloist_thirds"]
            continue
        assert tricks and all("bonus" not in t for t in tricks[:-1]) and tricks[-1]["bonus"] >= 3
        won = sum(t["thirds"] + t.get("bonus", 0) for t in tricks if t["winner"] == o["soloist"])
        assert o["captured"] + won == o["soloist_thirds"], o["record"]


def test_solve_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOLISSIMO)
    _, exact, _ = run(["solve", "--json", path], capsys)
    value = json.loads(exact)["soloist_thirds"]
    for target in (value, value + 1):
        code, out, _ = run(["solve", "--json", "--target", str(target), path], capsys)
        obj = json.loads(out)
        assert code == 0 and obj["reaches"] == (value >= target)
        assert any(obj["cards"].values()) == obj["reaches"]


def test_solve_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", EXAMPLE], capsys)
    assert code == 0
    assert "double dummy: the soloist ends with" in out and "a best line (each trick: " in out
    # the last record stops mid-trick: the diagram shows the table, the line finishes the trick first
    assert "on the table (trick 3): seat 2 led 2C" in out and "\n     3. seat 2 leads 2C " in out


def test_rule_option_applies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOLISSIMO.replace("soloist: 0", "soloist: 2"))
    code, out, _ = run(["check", "--json", "--rule", "first_lead=eldest", path], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["first_leader"] == 0


def test_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["analyse", "--json", PLAYED], capsys)
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    full = objs[0]
    assert full["complete"] and len(full["cards"]) == 36
    assert full["final_value"] == full["actual_thirds"]
    for card in full["cards"]:
        assert card["cost"] >= 0
        assert (card["cost"] == 0) == (card["card"] in card["best"])
    # the values chain: each card's "after" is the next card's "before"
    for a, b in zip(full["cards"], full["cards"][1:]):
        assert a["after"] == b["before"]
    partial = objs[-1]
    assert not partial["complete"] and partial["continuation"]
    # the solo's discards are judged against the best ones
    solo = objs[1]
    ex = solo["exchange"]
    assert ex["chosen_by"] == "soloist" and ex["actual"] == solo["start_value"]
    assert ex["cost"] == ex["best"] - ex["actual"] >= 0
    assert "exchange" not in full  # solissimo has none
    code, out, _ = run(["analyse", "--json", "--no-exchange", PLAYED], capsys)
    assert all("exchange" not in json.loads(line) for line in out.splitlines())


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["solve", "--rule", "stramazo=off", EXAMPLE], "unknown rule 'stramazo'"),
        (["solve", "--rule", "stramazzo=maybe", EXAMPLE], "stramazzo"),
        (["solve", "--tt-mb", "0", EXAMPLE], "--tt-mb"),
        (["solve", "--time-limit", "0", EXAMPLE], "--time-limit"),
        (["solve", "--time-limit", "-2", EXAMPLE], "--time-limit"),
        (["table", "--time-limit", "0", EXAMPLE], "--time-limit"),
        (["table", "--time-limit", "soon", EXAMPLE], "--time-limit"),
        (["solve", "--bogus", EXAMPLE], "--bogus"),
        (["solve", "/nonexistent/x.deal"], "/nonexistent/x.deal"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_bad_usage_is_one_line_exit_2(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_malformed_file_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOLISSIMO.replace("soloist: 0", "soloist: 0\nplayed: 5D"))
    code, _, err = run(["solve", path], capsys)
    assert code == 2
    assert f"{path}:6:" in err and len(err.strip().splitlines()) == 1


def test_illegal_card_in_played_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # seat 0 leads 3B, seat 1 holds 6B and must follow
    path = write(tmp_path, SOLISSIMO + "played: 3B 2D\n")
    code, _, err = run(["analyse", path], capsys)
    assert code == 2 and "2D" in err and "follow" in err


def test_python_m_entry_point(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "calasolve", "check", write(tmp_path, "hands: x\n")],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_bench_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "--deals", "2", "--json", "--tt-mb", "8"], capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 3
    summary = lines[-1]["summary"]
    assert summary["deals"] == 2 and summary["slowest_ms"] >= summary["median_ms"] > 0
    assert summary["p90_ms"] == summary["slowest_ms"]  # the 90th percentile of two deals is the slower


def test_bench_target_agrees_with_full_solve(capsys: pytest.CaptureFixture[str]) -> None:
    _, full, _ = run(["bench", "--deals", "3", "--json", "--tt-mb", "8"], capsys)
    _, boolean, _ = run(["bench", "--deals", "3", "--json", "--target", "18", "--no-canonical"], capsys)
    values = [json.loads(line)["answer"] for line in full.splitlines()[:-1]]
    reached = [json.loads(line)["answer"] for line in boolean.splitlines()[:-1]]
    assert reached == [v >= 18 for v in values]


def test_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", "--json", "--samples", "3", "--contracts", "solissimo", "--seed", "4",
                          "32A.32A.32A.32A"], capsys)
    obj = json.loads(out)
    assert code == 0 and err == ""  # no progress bar off a terminal
    assert obj["recommendation"] == "solissimo" and obj["contracts"][0]["p_make"] == 1.0


def test_solve_objective_payoff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "--json", "--objective", "payoff", write(tmp_path, SOLISSIMO)], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["objective"] == "payoff" and obj["multiplier"] in (1, 2, 3)
    assert obj["payoff"] == max(obj["cards"].values())
    assert (obj["payoff"] > 0) == (obj["soloist_thirds"] >= 18)
    assert obj["nodes"] > 0  # the thirds solver's and the goal search's


def test_solve_objective_payoff_counts_the_exchange_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    solo = SOLISSIMO.replace("contract: solissimo", "contract: solo")
    code, out, _ = run(["solve", "--json", "--objective", "payoff", "--top", "1", write(tmp_path, solo)], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["exchange"]["nodes"] > 0
    assert obj["nodes"] > obj["exchange"]["nodes"] and obj["seconds"] >= obj["exchange"]["seconds"]


@pytest.mark.parametrize("index", range(12))
def test_check_rejects_each_malformation_with_file_line(index: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from deal_cases import MALFORMED

    text, line, fragment = MALFORMED[index]
    path = write(tmp_path, text)
    code, out, err = run(["check", path], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"calasolve: error: {path}:{line}: ") and fragment in err
    assert len(err.strip().splitlines()) == 1


def test_check_accepts_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.deal"))
    code, _, err = run(["check", *examples], capsys)
    assert code == 0 and err == "" and len(examples) >= 2


def test_check_reports_every_error_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from deal_cases import GOOD, edit

    first = write(tmp_path, "\n\n".join([edit(GOOD, 5, "Contract: solo"), GOOD, edit(GOOD, 6, "soloist: 3")]), "a.deal")
    second = write(tmp_path, edit(GOOD, 8, "played: 7B"), "b.deal")
    code, out, err = run(["check", first, second], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 3
    assert lines[0].startswith(f"calasolve: error: {first}:5: unknown key 'Contract'")
    assert lines[1].startswith(f"calasolve: error: {first}:26: soloist '3'")
    assert lines[2].startswith(f"calasolve: error: {second}:8: played card 1 (7B, trick 1)")


def test_known_card_errors_name_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    for known, expected in (("1=xx", "calasolve: error: --known '1=xx': card 'xx'"),
                            ("1=CF7654.2RCF654.-.-", "calasolve: error: --known: 13 cards placed in seat 1")):
        code, out, err = run(["advise", "--samples", "1", "--jobs", "1", "--known", known, "32AR.3A7.2AF.A5"], capsys)
        assert code == 2 and out == "" and err.startswith(expected) and len(err.strip().splitlines()) == 1
