"""``calasolve advise`` at a glance: the answer on the first line after the hand's diagram, one
table in bidding order with the double-dummy floor, every line within 80 columns; the method behind
``--explain``; the chart of ``--plot``.

Most tests read advice from ``tests/data/advise_glance.json`` (the default advice of a strong, a
borderline and a weak suite hand with the defaults, ``--play dd`` of a strong and a weak one, and
small ``--play both`` and ``--play pimc`` runs), so that they run in no time; a few run the advisor
on suite hands with small settings (all 21 with ``-m slow``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calasolve.advice.advisor import advise
from calasolve.cli.glance import PASS, Glance, Odds, glance
from calasolve.cli.text import WIDTH, format_advice, format_play_advice, headline
from calasolve.game.notation import LETTERS, SYMBOLS
from calasolve.game.state import CONTRACTS
from calasolve.search.suites import ADVISE_HANDS
from calasolve.types.advice import Advice
from calasolve.types.playout import PlayAdvice
from cli_run import run
from steady import steady

FIXTURES: dict[str, Any] = json.loads((Path(__file__).parents[1] / "data" / "advise_glance.json").read_text())
QUICK = ["--samples", "2", "--jobs", "1", "--contracts", "solo,solissimo", "--play", "dd"]
HAND = "32AR.32A.3A.2A5"


def objects(name: str) -> tuple[Advice | None, PlayAdvice | None]:
    d = FIXTURES[name]
    if d.get("play") == "pimc":
        return None, PlayAdvice.from_dict(d)
    if d.get("play") == "both":
        return Advice.from_dict({k: v for k, v in d.items() if k not in ("play", "pimc")}), PlayAdvice.from_dict(d["pimc"])
    return Advice.from_dict(d), None


def render(name: str, symbols: bool = False, explain: bool = False) -> list[str]:
    advice, play = objects(name)
    if play is not None:
        return format_play_advice(play, symbols, advice=advice, explain=explain)
    assert advice is not None
    return format_advice(advice, symbols, explain=explain)


def answer(lines: list[str]) -> str:
    """The first line after the hand's diagram (the title, known cards and diagram lines come first,
    each but the first indented or a ``known:`` line)."""
    i = 1
    while lines[i].startswith((" ", "known: ")):
        i += 1
    return next(line for line in lines[i:] if line)


def names_the_bid(line: str, bid: str) -> bool:
    return line.startswith("Pass: ") if bid == "pass" else line.startswith((f"Bid {bid}: ", f"{bid}: "))


def table(lines: list[str]) -> list[str]:
    """The table's rows (the recommendation marked ``>``, its toss-ups ``~``)."""
    start = next(i for i, line in enumerate(lines) if line.startswith("  bid "))
    return [line for line in lines[start + 1:start + 1 + 1 + len(CONTRACTS)] if line[:1] in "> ~" and line[2:3] != "("]


@pytest.mark.parametrize("symbols", [False, True], ids=["letters", "symbols"])
@pytest.mark.parametrize("name", list(FIXTURES))
def test_the_answer_comes_first_and_every_line_fits(name: str, symbols: bool) -> None:
    advice, play = objects(name)
    lines = render(name, symbols)
    bid = play.best if play is not None else advice.recommendation  # type: ignore[union-attr]
    assert names_the_bid(answer(lines), bid), answer(lines)
    assert max(len(line) for line in lines) <= WIDTH
    # the method is behind --explain: none of the old text's sections and prose
    text = "\n".join(lines)
    for gone in ("sequential sampling", "exchange policies:", "intervals: ", "under play (nobody", "recommendation"):
        assert gone not in text
    assert lines[-1].endswith(" s (--explain: how)")


@pytest.mark.parametrize("name", list(FIXTURES))
def test_one_row_per_choice_in_bidding_order(name: str) -> None:
    advice, play = objects(name)
    rows = table(render(name))
    chosen = [c for c in CONTRACTS if any(e.contract == c for e in (play or advice).estimates)]  # type: ignore[union-attr]
    assert [row[2:].split()[0] for row in rows] == ["pass", *chosen]
    assert rows[0].rstrip().endswith(" 0")  # pass: 0 game points
    g = glance(advice, play)
    assert [row[2:].split()[0] for row in rows if row[0] == ">"] == [g.recommendation]
    assert {row[2:].split()[0] for row in rows if row[0] == "~"} == set(g.toss_up)


def test_the_played_table_shows_the_double_dummy_floor() -> None:
    advice, _ = objects("played strong")
    assert advice is not None and advice.played is not None
    lines = render("played strong")
    assert "P(make) under play" in lines[lines.index("") + 3] and "DD floor" in lines[lines.index("") + 3]
    played = {e.contract: e for e in advice.played.estimates}
    for row in table(lines)[1:]:
        contract = row[2:].split()[0]
        dd = next(e for e in advice.estimates if e.contract == contract)
        p = played[contract]
        assert f" {p.p_make:.0%} ({p.p_make_95[0] * 100:.0f}-{p.p_make_95[1] * 100:.0f}%)" in row
        assert row.endswith(f" {dd.p_make:.0%}")


def test_play_dd_shows_the_double_dummy_odds_alone() -> None:
    advice, _ = objects("dd strong")
    assert advice is not None and advice.played is None
    lines = render("dd strong")
    assert any("P(make) double dummy" in line for line in lines) and not any("DD floor" in line for line in lines)
    assert answer(lines).startswith(f"Bid {advice.recommendation}: makes ")
    e = next(e for e in advice.estimates if e.contract == advice.recommendation)
    assert f"({e.p_make_95[0] * 100:.0f}-{e.p_make_95[1] * 100:.0f}%)" in answer(lines)
    assert lines[-1] == f"{sum(e.samples for e in advice.estimates)} deals solved double dummy; {advice.seconds:.1f} s (--explain: how)"


def test_a_hand_recommending_pass() -> None:
    weak, _ = objects("played weak, pass")
    assert weak is not None and weak.recommendation == "pass" and weak.toss_up
    g = glance(weak)
    # the two toss-ups closest to the pass line, 0 game points
    closest = sorted(weak.toss_up, key=lambda c: abs(g.row(c).points))[:2]
    assert answer(render("played weak, pass")) == f"Pass: no bid clearly gains; as good within the noise: {', '.join(closest)}"
    clear, _ = objects("dd weak, pass")
    assert clear is not None and clear.recommendation == "pass" and not clear.toss_up
    assert answer(render("dd weak, pass")) == "Pass: every bid clearly loses game points"


def test_the_footer_counts_the_deals() -> None:
    advice, _ = objects("played borderline")
    assert advice is not None and advice.played is not None
    assert render("played borderline")[-1] == (
        f"{sum(e.samples for e in advice.estimates)} deals solved double dummy, "
        f"{sum(e.deals for e in advice.played.estimates)} played out; {advice.seconds:.1f} s (--explain: how)")
    _, play = objects("pimc")
    assert play is not None
    assert render("pimc")[-1] == (f"{sum(e.pimc.deals for e in play.estimates)} deals played out by PIMC players; "
                                  f"{play.seconds:.1f} s (--explain: how)")


def test_play_pimc_and_both_answer_on_the_pimc_odds() -> None:
    advice, play = objects("both")
    assert advice is not None and play is not None
    lines = render("both")
    assert names_the_bid(answer(lines), play.best)
    assert any("P(make) under PIMC play" in line and "DD floor" in line for line in lines)
    for row in table(lines)[1:]:
        contract = row[2:].split()[0]
        assert row.endswith(f" {next(e for e in advice.estimates if e.contract == contract).p_make:.0%}")
    assert not any("DD floor" in line for line in render("pimc"))


def test_explain_keeps_every_number_of_the_detailed_text() -> None:
    advice, _ = objects("played strong")
    assert advice is not None and advice.played is not None
    text = "\n".join(render("played strong", explain=True))
    assert "--explain" not in text and text.index("Bid ") < text.index("sequential sampling")
    for needed in ("sequential sampling, up to 64 samples per contract", "exchange policies: soloist sampled",
                   f"recommendation, on the played odds: {advice.recommendation} ({advice.reason})",
                   f"double dummy alone (the floor): {advice.dd_recommendation} ({advice.dd_reason})",
                   "intervals: 95% ", "played intervals: " + advice.played.interval_method, advice.played.players):
        assert needed in text
    for e in advice.estimates:
        assert f"{e.p_make:.1%}" in text and f"{e.payoff_95[0]:+.2f} to {e.payoff_95[1]:+.2f}" in text
    for p in advice.played.estimates:
        assert f"{p.p_make:.1%}" in text and f"{p.payoff_95[0]:+.2f} to {p.payoff_95[1]:+.2f}" in text
    both = "\n".join(render("both", explain=True))
    assert "best under PIMC play:" in both and "gap: P(make)" in both and "recommendation: " in both


def test_the_closest_toss_ups_by_game_points() -> None:
    rows = (PASS, Odds("chiamo", 0.9, (0.5, 1.0), 2.0, (-1.0, 4.0)), Odds("solo", 0.8, (0.4, 1.0), 4.5, (-2.0, 9.0)),
            Odds("solissimo", 0.7, (0.3, 1.0), 5.0, (-6.0, 14.0)), Odds("dividete", 0.5, (0.1, 0.9), 9.0, (-20.0, 30.0)))
    g = Glance(rows, "dividete", ("chiamo", "solo", "solissimo", "pass"), "played", True, 100, 20, 1.0)
    assert g.closest() == ("solissimo", "solo")  # 4 and 4.5 game points away; chiamo 7, pass 9
    assert g.closest(1) == ("solissimo",)
    line = headline(g)
    assert line.startswith("Bid dividete: makes 50% (10-90%), +9.0 ") and line.endswith("solissimo, solo")
    assert headline(Glance(rows, "solo", (), "played", True, 100, 20, 1.0)).endswith("; clearly the best")


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_answer_fits_whatever_the_numbers(data: st.DataObject) -> None:
    points = st.floats(-999, 999)
    rows = [PASS]
    for contract in CONTRACTS:
        p = data.draw(st.one_of(st.none(), st.floats(0, 1)))
        lo, hi = sorted(data.draw(st.lists(points, min_size=2, max_size=2)))
        pimc = data.draw(st.booleans())
        rows.append(Odds(contract, p, None if p is None else (0.0, 1.0), data.draw(points),
                         None if pimc else (lo, hi), data.draw(st.floats(0, 99)) if pimc else None))
    choice = data.draw(st.sampled_from(["pass", *CONTRACTS]))
    ties = data.draw(st.lists(st.sampled_from([c for c in ["pass", *CONTRACTS] if c != choice]), unique=True))
    line = headline(Glance(tuple(rows), choice, tuple(ties), "played", True, 1, 1, 1.0))
    assert len(line) <= WIDTH and names_the_bid(line, choice), line


def test_the_bar_shows_p_make() -> None:
    from calasolve.cli.text import _bar

    assert [_bar(p, LETTERS) for p in (0.0, 0.04, 0.75, 1.0, None)] == [
        "..........", "..........", "########..", "##########", "          "]
    assert _bar(0.8125, SYMBOLS) == "████████▏·" and _bar(1.0, SYMBOLS) == "██████████"
    assert all(len(_bar(p / 100, n)) == 10 for p in range(101) for n in (LETTERS, SYMBOLS))


# -- the advisor's own answers ----------------------------------------------------------------

def check_suite_hand(index: int, **kw: Any) -> None:
    hand = ADVISE_HANDS[index]
    advice = advise(hand.hand, seat=hand.seat, samples=16, play_samples=2, pimc_samples=1, jobs=1, **kw)
    for symbols in (False, True):
        lines = format_advice(advice, symbols)
        assert max(len(line) for line in lines) <= WIDTH, (hand, lines)
        assert names_the_bid(answer(lines), advice.recommendation), (hand, lines)


@pytest.mark.parametrize("index", [0, 14])
def test_suite_hands_at_a_glance(index: int) -> None:
    check_suite_hand(index, contracts=["chiamo", "solissimo", "scegliete"])


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(ADVISE_HANDS)))
@pytest.mark.parametrize("play", ["played", "dd"])
def test_every_suite_hand_at_a_glance(index: int, play: str) -> None:
    check_suite_hand(index, play=play)


def test_a_long_hand_with_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    # ten cards of a suit, most of the rest pinned, every rule changed: the title and the known cards wrap
    argv = ["advise", "--play", "dd", "--samples", "2", "--jobs", "1", "--symbols", "--known", "1=3S,2S,RS,CS,FS,7S,6S,5S,4S",
            "--known", "2=3C,2C,RC,CC,FC,7C,6C,5C,4C", "--known", "monte=3D,2D,RD", "--rule", "stramazzo=off",
            "--rule", "payment=plus", "--rule", "first_lead=eldest", "--rule", "aggravations=bids", "32ARCF7654.A.A.-"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= WIDTH and "♣ 3 2 A R C F 7 6 5 4" in out and "R♦" in out
    _, obj, _ = run([*argv, "--json"], capsys)
    assert names_the_bid(answer(lines), json.loads(obj)["recommendation"])


def test_explain_changes_the_text_not_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, plain, _ = run(["advise", "--json", *QUICK, HAND], capsys)
    _, explained, _ = run(["advise", "--json", "--explain", *QUICK, HAND], capsys)
    assert steady(json.loads(plain)) == steady(json.loads(explained))
    code, short, _ = run(["advise", *QUICK, HAND], capsys)
    code_x, long, _ = run(["advise", "--explain", *QUICK, HAND], capsys)
    assert code == code_x == 0 and "exchange policies:" in long and "exchange policies:" not in short
    assert len(short.splitlines()) < len(long.splitlines())


# -- the chart ----------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<svg")])
def test_plot_writes_the_chart(suffix: str, magic: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / f"odds{suffix}"
    code, out, err = run(["advise", "--plot", str(path), *QUICK, HAND], capsys)
    assert code == 0 and err == "" and out.startswith("seat 0 holds")
    data = path.read_bytes()
    assert data.startswith(magic) if suffix == ".png" else magic in data[:1000]


@pytest.mark.parametrize("name", ["played strong", "both", "pimc", "dd weak, pass"])
def test_the_chart_of_every_kind_of_advice(name: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from calasolve.cli.plot import draw_odds

    path = tmp_path / "odds.svg"
    draw_odds(glance(*objects(name)), str(path), name)
    svg = path.read_text()
    assert "<svg" in svg and svg.rstrip().endswith("</svg>")


def test_plot_without_matplotlib_names_the_extra(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code, out, err = run(["advise", "--plot", str(tmp_path / "odds.png"), *QUICK, HAND], capsys)
    assert (code, out) == (2, "")
    assert err == "calasolve: error: --plot needs matplotlib: pip install 'calasolve[plot]'\n"


@pytest.mark.parametrize("where, fragment", [
    ("odds.jpg", "unknown suffix '.jpg' (use .png or .svg)"),
    ("odds", "unknown suffix '(none)'"),
    ("missing/odds.png", "no such directory"),
    ("folder.png", "cannot write there"),
])
def test_plot_to_a_bad_path_is_one_line(where: str, fragment: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "folder.png").mkdir()
    code, out, err = run(["advise", "--plot", str(tmp_path / where), *QUICK, HAND], capsys)
    assert (code, out) == (2, "") and err.startswith("calasolve: error: --plot ") and fragment in err
    assert len(err.splitlines()) == 1


def test_no_number_is_nan_in_the_text() -> None:
    for name in FIXTURES:
        for line in render(name):
            assert "nan" not in line.lower() and not re.search(r"\binf\b", line), line
