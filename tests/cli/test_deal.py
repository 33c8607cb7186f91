"""``calasolve deal``: reproducible, valid, the filters honoured, streamed."""

from __future__ import annotations

from pathlib import Path

import pytest

from calasolve.game.cards import parse_hand, strength
from cli_run import run
from calasolve.deals.dealer import DealSpec, deal_one, generate_deals
from calasolve.records.dealfile import parse_deal_text, read_deal_file
from calasolve.game.exchange import Exchange
from calasolve.exchange.search import best_exchange
from calasolve.exchange.candidates import dividete_draws
from calasolve.game.state import CONTRACTS
from calasolve.game.sampling import MONTE, parse_known
from calasolve.search.engines import make_solver
from calasolve.exchange.solve import solve


def test_same_seed_same_records_other_seed_others(capsys: pytest.CaptureFixture[str]) -> None:
    a = run(["deal", "--count", "20", "--seed", "5"], capsys)
    b = run(["deal", "--count", "20", "--seed", "5"], capsys)
    c = run(["deal", "--count", "20", "--seed", "6"], capsys)
    assert a[0] == b[0] == c[0] == 0
    assert a[1] == b[1] and a[1] != c[1]
    records = parse_deal_text(a[1])
    assert len(records) == 20 and len({r.hands for r in records}) == 20


def test_a_record_depends_on_the_seed_and_its_index_only() -> None:
    spec = DealSpec(contract="random")
    run = list(generate_deals(spec, count=6, seed=3))
    assert list(generate_deals(spec, count=2, seed=3, start=4)) == run[4:]
    assert deal_one(spec, 3, 2) == run[2]


def test_output_file_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.deal"
    code, stdout, _ = run(["deal", "-n", "50", "--seed", "1", "--contract", "random", "-o", str(out)], capsys)
    assert code == 0 and stdout == ""
    assert run(["check", str(out)], capsys)[0] == 0
    records = read_deal_file(str(out))
    assert len(records) == 50
    assert {r.contract for r in records} <= set(CONTRACTS) and len({r.contract for r in records}) > 1
    assert {r.soloist for r in records} == {0, 1, 2}


def test_strongest_soloist_and_strength_range() -> None:
    spec = DealSpec(soloist="strongest", min_strength=18, max_strength=20)
    for r in generate_deals(spec, count=30, seed=2):
        powers = [strength(h) for h in r.hands]
        assert r.soloist == powers.index(max(powers))
        assert 18 <= powers[r.soloist] <= 20


def test_fixed_seat_contract_and_leader() -> None:
    for r in generate_deals(DealSpec(contract="solo", soloist=2, leader=1), count=10, seed=4):
        assert (r.contract, r.soloist, r.leader, r.first_leader) == ("solo", 2, 1, 1)


def test_known_cards_are_where_they_were_put() -> None:
    known = parse_known(["0=32A.-.-.-", "2=3D", "monte=AD 2D"])
    for r in generate_deals(DealSpec(known=known), count=20, seed=8):
        assert r.hands[0] & known[0] == known[0]
        assert r.hands[2] & known[2] == known[2]
        assert r.monte == r.monte | known[MONTE]


def test_played_follows_a_double_dummy_line() -> None:
    solver = make_solver(8)
    for r in generate_deals(DealSpec(played=5, soloist="strongest"), count=3, seed=9, solver=solver):
        assert len(r.played) == 5
        # a double-dummy line keeps the value: the value after 5 cards is the deal's value
        full = solve(r.with_(played=()), solver=solver, all_cards=False)
        assert solve(r, solver=solver, all_cards=False).soloist_thirds == full.soloist_thirds


@pytest.mark.parametrize("contract, count", [
    ("solo", 2), ("scegliete", 2), ("dividete", 3),
    pytest.param("chiamo", 1, marks=pytest.mark.slow),  # its exchange search takes tens of seconds; solo's code path
])
def test_played_after_the_double_dummy_exchange(
    contract: str, count: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exchange contract's record gets its double-dummy-best exchange (dividete: for
    takes that are one of the 6 draws), then K cards of a line that keeps the value."""
    out = tmp_path / "p.deal"
    code, _, err = run(["deal", "-n", str(count), "--seed", "3", "--contract", contract, "--played", "4",
                        "-o", str(out)], capsys)
    assert code == 0, err
    assert run(["check", str(out)], capsys)[0] == 0
    solver = make_solver(8)
    for r in read_deal_file(str(out)):
        assert r.contract == contract and not r.needs_exchange and len(r.played) == 4
        given = Exchange()
        if contract == "dividete":
            assert r.exchange.takes in dividete_draws(r.monte, r.soloist)
            given = Exchange(takes=r.exchange.takes)
        at_lead = solve(r.with_(played=()), solver=solver, all_cards=False).soloist_thirds
        assert best_exchange(r.with_(played=(), exchange=given), solver=solver, top=1).value == at_lead
        assert solve(r, solver=solver, all_cards=False).soloist_thirds == at_lead


def test_dividete_takes_are_drawn() -> None:
    """The takes are chance: over records, more than one of the 6 draws comes up."""
    spec = DealSpec(contract="dividete", played=1)
    solver = make_solver(8)
    seen = set()
    for r in generate_deals(spec, count=6, seed=12, solver=solver):
        seen.add(dividete_draws(r.monte, r.soloist).index(r.exchange.takes))
    assert len(seen) > 1


def test_played_records_are_reproducible() -> None:
    spec = DealSpec(contract="dividete", played=3)
    assert list(generate_deals(spec, count=2, seed=4)) == list(generate_deals(spec, count=2, seed=4))
    assert deal_one(DealSpec(contract="dividete"), 4, 1).hands == deal_one(spec, 4, 1).hands


def test_played_records_are_the_same_for_any_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    """With --played the records are made on worker processes, in order, the same as in one."""
    argv = ["deal", "-n", "5", "--seed", "8", "--contract", "scegliete", "--played", "7"]
    one = run([*argv, "--jobs", "1"], capsys)
    two = run([*argv, "--jobs", "2"], capsys)
    assert one[0] == two[0] == 0, two[2]
    assert one[1] == two[1] and one[1].count("name: seed 8 deal") == 5
    assert [r.name for r in parse_deal_text(two[1])] == [f"seed 8 deal {i}" for i in range(1, 6)]


def test_records_with_played_stream_out_from_the_workers() -> None:
    """A long --played run on workers writes its first records before it has made them all."""
    assert first_line_then_close(["deal", "--count", "100000", "--played", "1", "--jobs", "2"]).startswith(
        b"name: seed 0 deal 1")


@pytest.mark.parametrize("argv, fragment", [
    (["deal", "--played", "36"], "--played"),
    (["deal", "--min-strength", "40", "--played", "3", "--jobs", "2", "-n", "3"], "widen the range"),
    (["deal", "--played", "3", "--jobs", "2", "--scheduler", "local:2"], "do not go together"),
    (["deal", "--contract", "bridge"], "--contract 'bridge'"),
    (["deal", "--soloist", "weakest"], "--soloist 'weakest'"),
    (["deal", "--min-strength", "30", "--max-strength", "10"], "--min-strength"),
    (["deal", "--min-strength", "40"], "widen the range"),
    (["deal", "--known", "1=3B", "--known", "2=3B"], "--known"),
    (["deal", "--known", "0=3B 2B AB RB CB FB 7B 6B 5B 4B 3S 2S AS"], "seat 0"),
    (["deal", "-o", "/nonexistent/dir/x.deal"], "cannot write"),
])
def test_bad_options_are_one_line(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err, err


def test_known_hand_stays_the_hand() -> None:
    hand = parse_hand("32A7.RC5.F64.AR")
    for r in generate_deals(DealSpec(known={0: hand}), count=3, seed=1):
        assert r.hands[0] == hand


def first_line_then_close(argv: list[str]) -> bytes:
    """``calasolve ARGV``'s first line of output, read before the pipe is closed; the command must
    then end with exit status 0, as any filter does."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "calasolve", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return first


def test_records_stream_out() -> None:
    """A million records are not made before the first is written: the reader gets one and
    closes the pipe, and the command ends (exit 0, as any filter) long before a million."""
    assert first_line_then_close(["deal", "--count", "1000000"]).startswith(b"name: seed 0 deal 1")


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["deal", "--help"], capsys)
    assert code == 0 and "Examples" in out and "calasolve deal" in out and "strongest" in out
