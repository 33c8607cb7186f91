"""The double-dummy table and par of a deal: each entry is what `calasolve solve` answers for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import calasolve
from calasolve.types.record import Record
from calasolve.records.dealfile import parse_deal_text
from calasolve.table.ddtable import assemble, deal_record, table_entry, table_part, table_parts, table_tasks
from calasolve.game.state import CONTRACTS
from calasolve.game.rules import Rules

ROOT = Path(__file__).resolve().parents[2]

# Seat 0 holds the top three cards of every suit: as soloist it leads every trick and wins them all
# (cappotto, x2) whatever the exchange; as a defender it takes everything from the other two.
CERTAIN = """name: seat 0 holds the top three of every suit
hands: 32A.32A.32A.32A RCF7.RCF7.65.65 654.654.RCF7.RC
monte: -.-.4.F74
contract: solissimo
soloist: 0
"""

# A random deal (`calasolve deal --seed 101`).
RANDOM = """hands: A6.34.3R5.3ARF7 RC75.2R65.26.C4 32F4.A7.CF74.65
monte: -.CF.A.2
contract: solissimo
soloist: 2
"""


def record(text: str) -> Record:
    return parse_deal_text(text)[0]


def strict(line: str) -> Any:
    def bad(name: str) -> None:
        raise ValueError(f"not JSON: {name}")

    return json.loads(line, parse_constant=bad)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "calasolve", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def check_against_solve(rec: Record, soloist: int, contract: str) -> None:
    """The entry equals `solve` of the deal with that soloist and contract, the exchange searched."""
    entry = table_entry((rec, soloist, contract))  # type: ignore[arg-type]
    deal = deal_record(rec, soloist, contract)  # type: ignore[arg-type]
    solved = calasolve.solve(deal)
    assert solved.soloist_thirds is not None
    searched = solved.to_dict().get("exchange")  # the JSON of `calasolve solve --json`
    if contract == "dividete":
        assert searched is not None
        assert [d["soloist_thirds"] for d in searched["draws"]] == [o.thirds for o in entry.outcomes]
        assert [d["text"] for d in searched["draws"]] == [o.text for o in entry.outcomes]
        assert searched["mean"] == pytest.approx(float(entry.thirds))
    else:
        assert solved.soloist_thirds == entry.outcomes[0].thirds
        if searched is not None:
            assert searched["best"]["text"] == entry.outcomes[0].text
    for outcome in entry.outcomes:
        paid = calasolve.solve(deal.with_(exchange=outcome.exchange), objective="payoff")
        assert paid.multiplier == outcome.multiplier
        sign = 1 if paid.payoff is not None and paid.payoff > 0 else -1
        assert outcome.makes == (sign > 0)
        assert outcome.payments[soloist] == paid.payoff  # zerosum: the objective is the soloist's game points


def test_certain_solissimo_table_and_par() -> None:
    table = calasolve.dd_table(record(CERTAIN))
    for contract in CONTRACTS:
        entry = table.entry(0, contract)
        assert (entry.low, entry.high) == (35, 35)
        assert all(o.makes and o.multiplier == 2 for o in entry.outcomes)
        for seat in (1, 2):
            assert table.entry(seat, contract).made == 0
    assert (table.par.soloist, table.par.bid, table.par.contract) == (0, "solissimo", "scegliete")
    assert table.par.calls == ((0, "solissimo"),)
    assert table.par.payments == (64, -32, -32)


def test_table_tasks_are_every_entry_once_dearest_contracts_first() -> None:
    tasks = table_tasks(record(CERTAIN))
    assert sorted((s, c) for _, s, c in tasks) == sorted((s, c) for s in range(3) for c in CONTRACTS)
    assert [c for _, _, c in tasks[:6]] == ["chiamo"] * 3 + ["dividete"] * 3


def test_the_parts_of_a_table_make_its_entries() -> None:
    """A worker pool gets each dividete entry as its 6 draws: put together, the same table."""
    rec = record(CERTAIN)
    parts = table_parts(rec)
    assert len(parts) == 12 + 3 * 6
    assert [(s, c) for _, s, c, d in parts if d is None] == [(s, c) for _, s, c in table_tasks(rec) if c != "dividete"]
    whole = assemble(rec, [table_entry(t) for t in table_tasks(rec)])
    pieces = [table_part(p) for p in reversed(parts)]  # in any order
    timeless = lambda t: {**t.to_dict(), "nodes": 0, "seconds": 0, "cpu": 0, "entries": [  # noqa: E731
        {**e, "nodes": 0, "seconds": 0, "cpu": 0} for e in t.to_dict()["entries"]]}
    assert timeless(assemble(rec, pieces)) == timeless(whole)
    with pytest.raises(calasolve.CalasolveError, match="not its draws"):
        assemble(rec, [p for p in pieces if p.draw != 3])


def test_certain_deal_entries_equal_solve() -> None:
    rec = record(CERTAIN)
    for _, soloist, contract in table_tasks(rec):
        check_against_solve(rec, soloist, contract)


# the entries whose exchange search takes a second or two; the rest in the slow test below
@pytest.mark.parametrize(("soloist", "contract"), [(0, "solo"), (1, "scegliete"), (2, "solissimo"), (2, "scegliete")])
def test_random_deal_entry_equals_solve(soloist: int, contract: str) -> None:
    check_against_solve(record(RANDOM), soloist, contract)


@pytest.mark.slow
def test_random_deals_every_entry_equals_solve() -> None:
    text = run("deal", "-n", "3", "--seed", "9").stdout
    for rec in parse_deal_text(text):
        for _, soloist, contract in table_tasks(rec):
            check_against_solve(rec, soloist, contract)


def test_par_of_the_table_follows_the_rules_variants() -> None:
    rec = record(CERTAIN)
    bids = calasolve.dd_table(rec.with_(rules=Rules(aggravations="bids")))
    # scegliete is a bid under aggravations=bids: seat 0 bids it at once
    assert (bids.par.soloist, bids.par.bid, bids.par.contract) == (0, "scegliete", "scegliete")
    plus = calasolve.dd_table(rec.with_(rules=Rules(payment="plus")))
    assert plus.par.payments == (32, 0, 0)


def test_table_command_text_and_json() -> None:
    path = ROOT / "examples" / "table.deal"
    text = run("table", "--jobs", "2", str(path))
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("record 1 'the top three of every suit'")
    assert any(line.split()[:2] == ["seat", "0"] and "35* | +64 x2" in line for line in lines)
    assert lines[-1].strip() == "par: seat 0 plays scegliete (seat 0 solissimo, aggravated to scegliete); game points +64 -32 -32"
    out = run("table", "--json", "--jobs", "1", str(path))
    assert out.returncode == 0, out.stderr
    rows = [strict(line) for line in out.stdout.splitlines()]
    assert len(rows) == 1
    assert len(rows[0]["entries"]) == 15
    assert rows[0]["par"] == {"soloist": 0, "bid": "solissimo", "contract": "scegliete", "void": False,
                              "calls": [[0, "solissimo"]], "game_points": [64.0, -32.0, -32.0],
                              "proven": True}
    dividete = next(e for e in rows[0]["entries"] if e["soloist"] == 0 and e["contract"] == "dividete")
    assert (dividete["low"], dividete["high"], dividete["made_draws"], len(dividete["draws"])) == (35, 35, 6, 6)


def test_table_command_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.deal"
    bad.write_text(CERTAIN + "\n" + CERTAIN.replace("hands: 32A", "hands: 33A"))
    out = run("table", str(ROOT / "examples" / "table.deal"), str(bad))
    assert out.returncode == 2
    assert out.stdout == ""  # nothing half-written: every file is read before the first table
    assert out.stderr.count("\n") == 1 and "bad.deal:" in out.stderr and "Traceback" not in out.stderr
    for args in (["--jobs", "0"], ["--rule", "nosuch=1"], ["--tt-mb", "0"]):
        out = run("table", *args, str(bad))
        assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr, args
    missing = run("table", str(tmp_path / "nowhere.deal"))
    assert missing.returncode == 2 and "nowhere.deal" in missing.stderr


def test_table_api_checks_its_argument() -> None:
    with pytest.raises(calasolve.ParameterError):
        calasolve.dd_table("hands: ...")  # type: ignore[arg-type]


def test_a_cell_says_which_play_each_number_belongs_to() -> None:
    """Random deal 0, seat 0 in scegliete: 2 thirds when the defenders play for thirds, but playing for game
    points they take every trick (cappotto, x2), so that play ends with 0 thirds: the cell says so."""
    from calasolve.cli.text import cell
    from calasolve.search.suites import random_suite

    d = random_suite(1)[0]
    rec = Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=0)
    entry = table_entry((rec, 0, "scegliete"))
    [only] = entry.outcomes
    assert (only.thirds, only.multiplier, only.points_thirds) == (2, 2, 0)
    assert cell(entry) == "2 | -64 x2 at 0"
    assert entry.to_dict()["points_play_thirds"] == 0
    made = table_entry((record(CERTAIN), 0, "solo"))  # 35 thirds and a cappotto: the same play, nothing to add
    assert made.outcomes[0].points_thirds is None and cell(made) == "35* | +8 x2"


def test_the_table_reports_its_own_wall_time_and_its_cpu_apart() -> None:
    """Entries side by side on two processes: the table's seconds are the span of its entries, not their sum."""
    import time
    from concurrent.futures import ProcessPoolExecutor

    rec = record(CERTAIN)
    start = time.time()
    with ProcessPoolExecutor(2) as pool:
        [table] = calasolve.dd_tables([rec], map=pool.map)
    elapsed = time.time() - start
    assert max(e.seconds for e in table.entries if e.contract != "dividete") <= table.seconds <= elapsed
    assert table.cpu == pytest.approx(sum(e.cpu for e in table.entries)) and table.cpu > 0
    out = table.to_dict()
    assert (out["seconds"], out["cpu"]) == (round(table.seconds, 6), round(table.cpu, 6))


def test_an_early_table_is_exact_for_its_exchanges_and_never_claims_a_proof() -> None:
    """`dd_table(..., time_limit=...)` cut at once: every entry answers, each with the exact value of the
    exchange it holds, never better for the side choosing than the exact entry; those cut are not proven,
    the par provisional, and the text and JSON say so."""
    from calasolve.cli.text import format_table
    from calasolve.game.cards import last_trick_bonus
    from calasolve.search.solving import default_solver

    rec = record(RANDOM)
    early = calasolve.dd_table(rec, time_limit=1e-6)
    solver = default_solver()
    for entry in early.entries:
        deal = deal_record(rec, entry.soloist, entry.contract)
        for outcome in entry.outcomes:
            hands, monte = deal.with_(exchange=outcome.exchange).after_exchange()  # the exchange is legal and whole
            value = solver.value(hands, (), deal.first_leader, entry.soloist, last_trick_bonus(monte))
            assert value == outcome.thirds, (entry.soloist, entry.contract)
    from calasolve.search.payoff import payoff_from_thirds

    for soloist in range(3):  # nothing to search: proven where the thirds settle the game points
        entry = early.entry(soloist, "solissimo")
        assert entry.proven == payoff_from_thirds("solissimo", entry.outcomes[0].thirds, rec.rules)[1]
        assert entry.outcomes[0].thirds == table_entry((rec, soloist, "solissimo")).outcomes[0].thirds  # type: ignore[arg-type]
    assert not early.entry(0, "chiamo").proven  # hundreds of thousands of candidates: cut
    for soloist, contract in [(0, "solo"), (1, "scegliete"), (2, "scegliete")]:
        cut, exact = early.entry(soloist, contract), table_entry((rec, soloist, contract))  # type: ignore[arg-type]
        assert exact.proven
        if cut.proven:
            assert (cut.thirds, cut.game_points) == (exact.thirds, exact.game_points)
        elif contract == "solo":
            assert cut.thirds <= exact.thirds
        else:
            assert cut.thirds >= exact.thirds
    assert not early.proven
    out = early.to_dict()
    assert out["proven"] is False and out["par"]["proven"] is False
    assert {e["proven"] for e in out["entries"]} == {True, False}
    lines = format_table("deal", early)
    assert lines[-1].startswith("  par (provisional: it rests on early answers): ")
    assert any(line.startswith("  ?: an early answer") for line in lines)
    seat0 = next(line for line in lines if line.startswith("  seat 0"))
    assert seat0.split("   ")[1].strip().endswith(" ?")  # the chiamo cell
    # a limit never reached: the exact table's thirds; proven where the thirds settle the game points
    certain = record(CERTAIN)
    late, exact_table = calasolve.dd_table(certain, time_limit=3600), calasolve.dd_table(certain)
    assert exact_table.proven and exact_table.to_dict()["par"]["proven"] is True
    assert not any("?" in line or "provisional" in line for line in format_table("deal", exact_table))
    for a, b in zip(late.entries, exact_table.entries):
        assert [o.thirds for o in a.outcomes] == [o.thirds for o in b.outcomes]
        settled = all(payoff_from_thirds(a.contract, o.thirds, certain.rules)[1] for o in a.outcomes)
        assert a.proven == settled and (not settled or a.game_points == b.game_points)


def test_table_command_with_a_time_limit(tmp_path: Path) -> None:
    out = run("table", "--json", "--jobs", "2", "--time-limit", "0.000001", str(ROOT / "examples" / "table.deal"))
    assert out.returncode == 0, out.stderr
    [row] = [strict(line) for line in out.stdout.splitlines()]
    assert row["par"]["proven"] is row["proven"] is all(e["proven"] for e in row["entries"])
    assert all(isinstance(e["proven"], bool) for e in row["entries"])
