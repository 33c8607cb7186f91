"""The board in a real browser: Playwright driving Debian's Chromium (``.ci/run`` installs it).

Playwright's own browser download is not used: the system browser is
launched by its path.  Screenshots of the main views are saved under
``$CALASOLVE_ARTEFACTS`` (default: ``calasolve-board`` in the temp directory).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser_helpers import CHROMIUM, ROOT, WatchedPage, launch, start_board
from processes import children, cmdline, stat
from strict_json import strict_lines

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the test extra)")
expect = sync_api.expect

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, as .ci/run does)", allow_module_level=True)

EXAMPLE = "examples/example.deal"
PLAYED = "examples/played.deal"

BAD = """name: bad
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC7
monte: R4.-.3F.-
contract: solissimo
soloist: 0
"""

#: the issue's chiamo without its exchange: its search takes seconds of CPU (tens under load)
CHIAMO_NO_EXCHANGE = """name: chiamo, exchange to search
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76
monte: R4.-.3F.-
contract: chiamo
soloist: 0
"""

#: a strong hand: its dividete and scegliete get no exact thirds, which once made the
#: advice status NaN (not JSON) and the page a JSON parse error
STRONG = "32AR.3A.2A7.543"

SOLO_NO_EXCHANGE = """name: solo, exchange to search
hands: 7.74.2RCF764.R6 3F.32AR.3A.2AF4 AC65.CF5.5.3C75
monte: 2R4.6.-.-
contract: solo
soloist: 1
"""


def calasolve(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "calasolve", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, input=input)


def json_lines(*args: str, input: str | None = None) -> list[dict[str, Any]]:
    run = calasolve(*args, input=input)
    assert run.returncode == 0, run.stderr
    return strict_lines(run.stdout)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def searchers(server: subprocess.Popen[str]) -> set[int]:
    """The board's child processes that answer slow questions (multiprocessing's spawned children)."""
    return {pid for pid in children(server.pid, live=True) if b"spawn_main" in cmdline(pid)}


def cpu_ticks(pid: int) -> int | None:
    """The process's CPU time so far (user + system, in clock ticks); None once it is gone."""
    fields = stat(pid)
    return None if fields is None or fields[0] == "Z" else int(fields[11]) + int(fields[12])


def computing(pids: set[int], over: float = 1.0) -> set[int]:
    """Those of ``pids`` that use CPU over the next ``over`` seconds (a search, not a worker waiting for a question)."""
    before = {pid: cpu_ticks(pid) for pid in pids}
    time.sleep(over)
    return {pid for pid, t in before.items() if t is not None and (cpu_ticks(pid) or t) > t}


def alive(pid: int) -> bool:
    fields = stat(pid)
    return fields is not None and fields[0] != "Z"


@pytest.fixture(scope="module")
def example_url() -> Iterator[str]:
    yield from start_board(EXAMPLE)


@pytest.fixture(scope="module")
def played_url() -> Iterator[str]:
    yield from start_board(PLAYED)


class Page(WatchedPage):
    """A page of the board, with the console's errors kept."""

    def __init__(self, browser: Any, url: str) -> None:
        super().__init__(browser, url)
        self.page.wait_for_selector("#deal-info strong")

    def values(self) -> dict[str, int]:
        """The values shown on the cards of the player to move."""
        return self.page.eval_on_selector_all(
            ".card.legal", "cards => Object.fromEntries(cards.map(c => [c.dataset.card, Number(c.querySelector('.val').textContent)]))"
        )

    def wait_step(self, cursor: int) -> None:
        expect(self.page.locator("#step")).to_have_text(re.compile(f"^card {cursor} of "))

    def advise(self, hand: str, *, seat: int | None = None, samples: int | None = None, skip: tuple[str, ...] = (),
               play: str | None = None) -> None:
        """Ask for advice on ``hand``: the form's defaults but for what is given."""
        self.page.fill("#advice-hand", hand)
        if play is not None:
            self.page.select_option("#advice-play", play)
        if seat is not None:
            self.page.select_option("#advice-seat", str(seat))
        if samples is not None:
            self.page.fill("#advice-samples", str(samples))
        for contract in skip:
            self.page.uncheck(f"#advice-contracts input[value={contract}]")
        self.page.click("#advice-go")

    def open_record(self, index: int, name: str) -> None:
        self.page.select_option("#record-list", str(index))
        expect(self.page.locator("#deal-info strong")).to_have_text(re.compile("^" + re.escape(name)))

    def open_pasted(self, text: str) -> None:
        """Paste one record and open it: shown once the board has checked it (a click before would act on the
        record shown before, and be dropped as the pasted one opens)."""
        self.page.fill("#paste", text)
        self.page.click("#open-paste")
        name = re.search(r"^name: (.*)$", text, re.M)
        assert name is not None
        expect(self.page.locator("#deal-info strong")).to_have_text(re.compile("^" + re.escape(name.group(1))))


@pytest.fixture()
def example_page(browser: Any, example_url: str) -> Iterator[Page]:
    page = Page(browser, example_url)
    yield page
    page.page.close()


def test_page_loads_without_console_errors(example_page: Page) -> None:
    example_page.page.wait_for_selector(".card.legal .val")
    assert example_page.page.locator(".seat").count() == 3
    example_page.shot("table")
    assert example_page.errors == []


def test_card_values_equal_solve_json(example_page: Page) -> None:
    solved = json_lines("solve", "--json", EXAMPLE)
    for result in solved:
        example_page.open_record(result["record"], result["name"])
        assert example_page.values() == result["cards"], result["name"]
        to_move = example_page.page.locator(".seat.to-move h3").text_content() or ""
        assert to_move.startswith(f"Seat {result['to_move']}")
    example_page.shot("mid-trick")
    assert example_page.errors == []


def test_click_plays_and_undo_restores(example_page: Page) -> None:
    page = example_page.page
    page.wait_for_selector(".card.legal .val")
    before = example_page.values()
    card = page.locator(".card.legal.best").first.get_attribute("data-card")
    page.click(f".card.legal[data-card='{card}']")
    example_page.wait_step(1)
    assert page.locator("#trick .played").count() == 1 and card[:-1] in (page.locator("#trick").text_content() or "")
    record = "name: example 1\nhands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\ncontract: solissimo\nsoloist: 0\n"
    run = subprocess.run([sys.executable, "-m", "calasolve", "solve", "--json", "-"], input=record + f"played: {card}\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert example_page.values() == json.loads(run.stdout)["cards"]
    assert example_page.page.locator(f".seat#seat-0 .card[data-card='{card}']").count() == 0
    example_page.shot("after-click")
    page.keyboard.press("ArrowLeft")
    example_page.wait_step(0)
    assert example_page.values() == before
    page.keyboard.press("ArrowRight")
    example_page.wait_step(1)
    page.click("#go-back")
    example_page.wait_step(0)
    assert example_page.values() == before
    assert example_page.errors == []


def test_played_deal_graph_shows_analyse_mistakes(browser: Any, played_url: str) -> None:
    page = Page(browser, played_url)
    try:
        p = page.page
        p.wait_for_selector("#graph svg")
        [analysis] = [a for a in json_lines("analyse", "--json", "--no-exchange", PLAYED) if a["record"] == 1]
        mistakes = [c for c in analysis["cards"] if c["cost"]]
        assert p.locator("circle.mistake").count() == len(mistakes) > 0
        assert p.locator("circle.point").count() == 37
        items = p.locator("#mistakes li").all_text_contents()
        for m, text in zip(mistakes, items):
            assert f"trick {m['trick']}: seat {m['seat']}" in text and f"costs {m['cost']}" in text
        page.shot("graph")
        # step through the first trick
        for cursor in (1, 2, 3):
            p.keyboard.press("ArrowRight")
            page.wait_step(cursor)
        assert p.locator("#trick .played.old").count() == 3
        # a mistake jumps to the position where it was made: the card played shows its cost
        first = mistakes[0]
        p.locator("circle.mistake").first.click()
        page.wait_step(first["index"])
        loss = p.locator(f".card.legal[data-card='{first['card']}']").get_attribute("title") or ""
        assert f"loses {first['cost']}" in loss
        page.shot("graph-at-mistake")
        p.keyboard.press("End")
        page.wait_step(36)
        assert "result:" in (p.locator("#score").text_content() or "")
        # a record stopped mid-play opens where it stops, with the values of `calasolve solve`
        stopped = json_lines("solve", "--json", PLAYED)[2]
        page.open_record(3, stopped["name"])
        page.wait_step(14)
        assert page.values() == stopped["cards"]
        expect(p.locator("circle.point")).to_have_count(15)
        assert page.errors == []
    finally:
        page.page.close()


def test_pasted_bad_record_shows_its_error(example_page: Page, tmp_path: Path) -> None:
    bad = tmp_path / "bad.deal"
    bad.write_text(BAD)
    run = calasolve("check", str(bad))
    message = "<pasted>" + run.stderr.strip().removeprefix(f"calasolve: error: {bad}")
    page = example_page.page
    page.fill("#paste", BAD)
    page.click("#open-paste")
    expect(page.locator("#paste-error")).to_have_text(message)
    example_page.shot("paste-error")
    # the console may log the refused request (a 400); the page itself raised nothing
    assert all("status of 400" in e for e in example_page.errors)


def test_pasted_record_without_exchange_offers_the_alternatives(example_page: Page) -> None:
    page = example_page.page
    page.fill("#paste", SOLO_NO_EXCHANGE)
    page.click("#open-paste")
    expect(page.locator("#deal-info strong")).to_have_text(re.compile("^solo, exchange to search"))
    page.wait_for_selector("#exchange-list li.chosen")
    choices = page.locator(".exchange-choice").all_text_contents()
    assert len(choices) == 10 and choices[0].endswith("\u2192 27 thirds")
    page.locator(".exchange-choice").nth(1).click()
    expect(page.locator("#exchange-list li").nth(1)).to_have_class("chosen")
    text, thirds = choices[1].rsplit(" \u2192 ", 1)
    expect(page.locator("#deal-info")).to_contain_text("exchange: " + text)
    assert f"double dummy: {thirds.split()[0]} thirds" in (page.locator("#score").text_content() or "")
    example_page.shot("exchange")
    assert example_page.errors == []


def test_advice_chart(example_page: Page) -> None:
    page = example_page.page
    example_page.advise("32AR.32A.3A.2A5", samples=5000)
    expect(page.locator("#advice-progress")).to_be_visible()
    page.click("#advice-cancel")
    expect(page.locator("#advice-error")).to_have_text("cancelled")
    expect(page.locator("#advice-progress")).to_be_hidden()
    # double dummy alone: the chart as before the played odds
    example_page.advise("32AR.32A.3A.2A5", samples=2, skip=("chiamo", "dividete", "scegliete"), play="dd")
    page.wait_for_selector("svg.advice", timeout=60_000)
    assert page.locator("svg.advice rect.pmake").count() == 2
    assert page.locator("svg.advice rect.bar").count() == 0
    # the answer first, then one table in bidding order: pass, solo, solissimo; no floor beside double dummy
    answer = page.locator("#advice-chart p.answer").text_content() or ""
    assert re.match(r"(Bid (solo|solissimo): makes \d+% \(\d+-\d+%\), .* game points \(.* to .*\);|Pass: )", answer), answer
    assert page.locator("table.odds tbody th").all_text_contents() == ["pass", "solo", "solissimo"]
    assert "DD floor" not in (page.locator("table.odds thead").text_content() or "")
    text = page.locator("#advice-chart").text_content() or ""
    assert "Recommendation: " in text and "played odds" not in text
    example_page.shot("advice")
    assert example_page.errors == []


def test_played_advice_chart_shows_both_odds(example_page: Page) -> None:
    page = example_page.page
    assert page.locator("#advice-play").input_value() == "played"  # the default
    example_page.advise(STRONG, seat=1, samples=16, skip=("chiamo", "solissimo", "dividete", "scegliete"))
    page.wait_for_selector("svg.advice", timeout=120_000)
    # one contract, two bars: double dummy and played, each with its title; and the legend
    assert page.locator("svg.advice rect.bar").count() == 2
    assert page.locator("svg.advice rect.bar.odds-dd").count() == 1
    assert page.locator("svg.advice rect.bar.odds-played").count() == 1
    assert "solo, played: P(make)" in (page.locator("svg.advice rect.bar.odds-played title").text_content() or "")
    assert page.locator("svg.advice .advice-legend text").all_text_contents()[:2] == [
        "under play (own hand only)", "double dummy (the floor)"]
    # the answer first, then the table: the played odds with the double-dummy floor beside them
    answer = page.locator("#advice-chart p.answer").text_content() or ""
    assert answer.startswith(("Bid solo: makes ", "Pass: ")), answer
    assert page.locator("table.odds tbody th").all_text_contents() == ["pass", "solo"]
    assert "DD floor" in (page.locator("table.odds thead").text_content() or "")
    assert page.locator("table.odds tr.chosen").count() == 1
    text = page.locator("#advice-chart").text_content() or ""
    assert re.search(r"Recommendation, on the played odds: (solo|pass) \u2014 .*under play", text), text
    assert re.search(r"Double dummy alone \(the floor\): (solo|pass)", text), text
    assert re.search(r"\d+ deals solved double dummy, \d+ played out; \d+\.\d s", text), text
    example_page.shot("advice-played")
    assert example_page.errors == []


@pytest.mark.parametrize("name", ["played strong", "played weak, pass", "dd strong"])
def test_the_advice_panel_reads_as_the_command_prints(example_page: Page, name: str) -> None:
    """A whole advice (tests/data/advise_glance.json, as ``advise --json`` printed it) drawn as the page
    draws an answer: the command's answer in its fullest wording, its table's rows, marks and odds, and
    the chart's bars."""
    from calasolve.cli.glance import glance, points_text
    from calasolve.cli.text import format_advice
    from calasolve.types.advice import Advice

    result = json.loads((ROOT / "tests" / "data" / "advise_glance.json").read_text())[name]
    page = example_page.page
    page.evaluate("result => drawAdvice(result)", result)
    advice = Advice.from_dict(result)
    g = glance(advice)
    rec, names = g.row(g.recommendation), ", ".join(g.closest())
    if rec.choice == "pass":
        expected = f"Pass: no bid clearly gains; as good within the noise: {names}" if names else \
            "Pass: every bid clearly loses game points"
    else:
        assert rec.p_make is not None and rec.p_make_95 is not None and rec.points_95 is not None
        lo, hi = rec.p_make_95
        expected = (f"Bid {rec.choice}: makes {rec.p_make:.0%} ({lo * 100:.0f}-{hi * 100:.0f}%), {points_text(rec.points)} "
                    f"game points ({points_text(rec.points_95[0])} to {points_text(rec.points_95[1])})"
                    + (f"; as good within the noise: {names}" if names else "; clearly the best"))
    assert page.locator("#advice-chart p.answer").text_content() == expected
    # the command's table, row by row: the same choices, marks and odds
    lines = format_advice(advice)
    start = next(i for i, line in enumerate(lines) if line.startswith("  bid "))
    rows = lines[start + 1:start + 1 + len(g.rows)]
    assert page.locator("table.odds tbody th").all_text_contents() == [r[2:].split()[0] for r in rows]
    assert page.locator("table.odds td.mark").all_text_contents() == [r[0].strip() for r in rows]
    shown = page.locator("table.odds tbody td.num").all_text_contents()
    for r in g.rows[1:]:
        assert r.p_make is not None and r.p_make_95 is not None
        assert f"{r.p_make:.0%} ({r.p_make_95[0] * 100:.0f}-{r.p_make_95[1] * 100:.0f}%)" in shown
    bars = "svg.advice rect.bar.odds-played" if advice.played else "svg.advice rect.pmake"
    assert page.locator(bars).count() == len(g.rows) - 1
    assert page.locator("svg.advice rect.bar.odds-dd").count() == (len(g.rows) - 1 if advice.played else 0)
    example_page.shot(f"advice-glance-{name.split()[0]}-{len(name)}")
    assert example_page.errors == []


def test_strong_hand_advice_with_the_default_samples_draws_its_chart(example_page: Page) -> None:
    page = example_page.page
    example_page.advise(STRONG, seat=1)
    expect(page.locator("#advice-progress")).to_be_visible()
    page.wait_for_selector("svg.advice", timeout=600_000)
    assert page.locator("svg.advice rect.bar.odds-dd").count() == 5
    assert page.locator("svg.advice rect.bar.odds-played").count() == 5  # the default: the played odds too
    assert page.locator("table.odds tbody tr").count() == 6
    assert "Recommendation, on the played odds:" in (page.locator("#advice-chart").text_content() or "")
    assert page.locator("#advice-error").text_content() == ""
    example_page.shot("advice-strong")
    assert example_page.errors == []


def test_a_new_advice_drops_the_older_one(example_page: Page) -> None:
    page = example_page.page
    example_page.advise("32AR.32A.3A.2A5", samples=5000)
    expect(page.locator("#advice-progress")).to_be_visible()
    example_page.advise("7654.7654.765.7", samples=2, skip=("chiamo", "dividete", "scegliete", "solissimo"))
    page.wait_for_selector("svg.advice", timeout=120_000)
    assert "Hand 7654.7654.765.7" in (page.locator("#advice-chart").text_content() or "")
    assert page.locator("svg.advice rect.bar.odds-played").count() == 1
    assert example_page.errors == []


@pytest.fixture()
def played_board() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    server: list[subprocess.Popen[str]] = []
    for url in start_board(PLAYED, server):
        yield url, server[0]


def test_pasted_chiamo_shows_search_progress_then_its_exchange(browser: Any, played_board: Any) -> None:
    url, _ = played_board
    page = Page(browser, url)
    try:
        p = page.page
        p.fill("#paste", CHIAMO_NO_EXCHANGE)
        p.click("#open-paste")
        expect(p.locator("#exchange-searching")).to_be_visible()
        expect(p.locator("#exchange-what")).to_have_text("Searching the best exchange of this chiamo\u2026")
        expect(p.locator("#exchange-elapsed")).to_have_text(re.compile(r"^[1-9]\d* s$"), timeout=10_000)
        expect(p.locator("#deal-info strong")).to_have_text("chiamo, exchange to search \u2014 chiamo")
        # the best found in the first second, while the exact search goes on
        expect(p.locator("#exchange-so-far")).to_have_text(
            re.compile(r"^Best found in the first second: call \S+ .* \u2192 \d+ thirds; (at least \d+ thirds|fails whatever|\d+ thirds: )"
                       r".* \(not proven yet"), timeout=60_000)
        page.shot("exchange-searching")
        p.wait_for_selector("#exchange-list li.chosen", timeout=600_000)
        expect(p.locator("#exchange-searching")).to_be_hidden()
        # one process, as the board searches: among exchanges of equal value the same one
        [solved] = json_lines("solve", "--json", "--jobs", "1", "-", input=CHIAMO_NO_EXCHANGE)
        choices = p.locator(".exchange-choice").all_text_contents()
        assert choices[0] == f"{solved['exchange']['best']['text']} \u2192 {solved['soloist_thirds']} thirds"
        assert page.values() == solved["cards"]
        assert page.errors == []
    finally:
        p.close()


def test_switching_records_during_an_exchange_search(browser: Any, played_board: Any) -> None:
    """The issue's case: a pasted chiamo searched, record 2 picked meanwhile.  Only record 2
    shows, with its own exchange, and the chiamo's search is stopped on the server."""
    url, server = played_board
    page = Page(browser, url)
    try:
        p = page.page
        p.wait_for_selector("#graph svg")  # record 1's analysis: the searching process is up
        p.fill("#paste", CHIAMO_NO_EXCHANGE)
        p.click("#open-paste")
        expect(p.locator("#exchange-searching")).to_be_visible()
        p.wait_for_timeout(1000)
        busy = searchers(server)
        assert busy, "no process searches the chiamo's exchange"
        [solo] = json_lines("solve", "--json", PLAYED)[1:2]
        page.open_record(2, solo["name"])
        expect(p.locator("#exchange-searching")).to_be_hidden()
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in busy) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in busy), "the abandoned search still runs"
        p.wait_for_selector("#graph svg")
        # long enough for a late answer, were one coming: the record stays record 2, with its exchange
        p.wait_for_timeout(3000)
        expect(p.locator("#deal-info strong")).to_have_text(re.compile("^" + re.escape(solo["name"])))
        expect(p.locator("#deal-info")).to_contain_text("exchange: discard")
        assert p.locator("#exchange-panel").is_hidden()
        assert (p.locator("#status").text_content() or "") == ""
        assert page.errors == []
    finally:
        p.close()


def test_a_server_error_is_shown_as_its_message(example_page: Page) -> None:
    page = example_page.page
    page.wait_for_selector(".card.legal .val")
    # a failure that is not our JSON (a crash's plain text, a proxy's page): its status and line
    page.route("**/api/play", lambda route: route.fulfill(status=500, content_type="text/plain",
                                                          body="Internal Server Error"))
    page.locator(".card.legal").first.click()
    expect(page.locator("#status")).to_have_text("500 Internal Server Error")
    expect(page.locator("#status")).to_have_class(re.compile("error"))
    page.unroute("**/api/play")
    # the server's own one-line error
    example_page.advise("32AR.32A.3A.2A")
    expect(page.locator("#advice-error")).to_have_text(re.compile(r"11 cards, a hand has 12$"))
    assert "JSON" not in (page.locator("#status").text_content() or "")
    assert all("status of 500" in e or "status of 400" in e for e in example_page.errors), example_page.errors


CERTAIN = (ROOT / "examples" / "table.deal").read_text()


def test_table_and_par_of_the_loaded_deal(browser: Any, played_board: Any) -> None:
    """The table fills in entry by entry, each as `calasolve table` says, then the par; switching
    records while it is computed stops its search and leaves no entry of the old deal."""
    url, server = played_board
    page = Page(browser, url)
    try:
        p = page.page
        page.open_pasted(CERTAIN)
        expect(p.locator("#table-panel")).to_be_visible()
        p.click("#table-go")
        expect(p.locator("#par-line")).to_have_text(
            "par: seat 0 plays scegliete (seat 0 solissimo, aggravated to scegliete); game points +64 -32 -32",
            timeout=120_000)
        [table] = json_lines("table", "--json", "--jobs", "1", "examples/table.deal")
        for entry in table["entries"]:
            cell = p.locator(f"#dd-{entry['soloist']}-{entry['contract']}")
            thirds = entry["soloist_thirds"]
            expect(cell).to_contain_text(str(thirds if isinstance(thirds, int) else round(thirds, 1)))
        expect(p.locator("#dd-0-scegliete")).to_have_text("35* | +64 x2")
        expect(p.locator("#dd-0-dividete")).to_have_text("35 (35-35) 6/6 | +32 x2")
        page.shot("table")
        # a slow table, left for record 1 while its first entry (a chiamo exchange search) runs
        page.open_pasted(CHIAMO_NO_EXCHANGE.replace("contract: chiamo", "contract: solissimo"))
        p.click("#table-go")
        # the exact pass (after the early answers), whose chiamo search lasts
        expect(p.locator("#table-progress")).to_contain_text("entries proven; searching seat 0 in chiamo",
                                                            timeout=120_000)
        # the searches under way (a worker between two entries waits idle, and may stay so)
        deadline = time.monotonic() + 60
        busy = computing(searchers(server))
        while not busy and time.monotonic() < deadline:
            busy = computing(searchers(server))
        assert busy, "no process computes the table's entry"
        [first] = json_lines("solve", "--json", PLAYED)[:1]
        page.open_record(1, first["name"])
        deadline = time.monotonic() + 60
        while computing(busy, 0.5) and time.monotonic() < deadline:
            pass
        assert not computing(busy), "the abandoned table entry still runs"
        assert not all(alive(pid) for pid in busy), "the chiamo search (minutes long) was not stopped"
        expect(p.locator("#table-progress")).to_have_text("")
        expect(p.locator("#dd-0-chiamo")).to_have_text("\u2026")
        assert (p.locator("#par-line").text_content() or "") == ""
        assert page.errors == []
    finally:
        p.close()


def test_compute_the_table_clicked_while_a_paste_is_checked_computes_the_pasted_deal(browser: Any,
                                                                                     played_board: Any) -> None:
    """A player who pastes a record and clicks 'Compute the table' at once, while the board still checks the paste,
    gets the pasted deal's table: not the table of the deal on its way out, dropped as the paste opens."""
    url, _ = played_board
    page = Page(browser, url)
    try:
        p = page.page
        expect(p.locator("#table-go")).to_be_enabled()  # the record shown first
        held: list[Any] = []  # the check of the paste, held until the click is made
        p.route("**/api/check", lambda route: held.append(route))
        p.fill("#paste", CERTAIN)
        p.click("#open-paste")
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            p.wait_for_timeout(20)
        assert held, "the paste was not sent to be checked"
        p.click("#table-go")
        held[0].continue_()
        p.unroute("**/api/check")
        expect(p.locator("#par-line")).to_have_text(
            "par: seat 0 plays scegliete (seat 0 solissimo, aggravated to scegliete); game points +64 -32 -32",
            timeout=120_000)
        expect(p.locator("#dd-0-scegliete")).to_have_text("35* | +64 x2")
        assert page.errors == []
    finally:
        p.close()


def test_the_table_fills_from_early_answers_then_the_exact_searches_go_on(browser: Any, played_board: Any) -> None:
    """A deal whose exact table takes minutes: every cell shows an early answer first (the chiamo ones marked
    ' ?', not proven), with a provisional par, while the exact searches of the unproven entries go on."""
    url, _ = played_board
    page = Page(browser, url)
    try:
        p = page.page
        page.open_pasted(CHIAMO_NO_EXCHANGE.replace("contract: chiamo", "contract: solissimo"))
        p.click("#table-go")
        expect(p.locator("#par-line")).to_contain_text("par (provisional: it rests on early answers): ", timeout=120_000)
        cells = [p.locator(f"#dd-{seat}-{contract}") for seat in range(3)
                 for contract in ("chiamo", "solo", "solissimo", "dividete", "scegliete")]
        assert all((c.text_content() or "\u2026") != "\u2026" for c in cells)  # all 15 filled
        chiamo = p.locator("#dd-0-chiamo")
        expect(chiamo).to_have_text(re.compile(r" \?$"))
        expect(chiamo).to_have_class(re.compile(r"\bearly\b"))
        expect(p.locator("#dd-0-solissimo")).not_to_have_class(re.compile(r"\bearly\b"))  # nothing to search: proven
        expect(p.locator("#table-progress")).to_contain_text("of 15 entries proven; searching")
        assert page.errors == []
    finally:
        p.close()


def test_continue_with_pimc_and_moving_on_drops_the_run(browser: Any, played_board: Any) -> None:
    """The PIMC line from a position is `calasolve play --players pimc`'s from there, each card with
    its double-dummy cost; a run left for another record, or replaced by a new one, is stopped
    on the server and nothing of it shows."""
    url, server = played_board
    page = Page(browser, url)
    try:
        p = page.page
        p.wait_for_selector("#graph svg")  # record 1's analysis is done: the searching process is idle
        expect(p.locator("#pimc-go")).to_be_enabled()
        # a slow run from the first lead (1000 layouts a decision), left for record 3 while it runs
        p.fill("#pimc-samples", "1000")
        p.click("#pimc-go")
        expect(p.locator("#pimc-status")).to_have_text("card 1 of 36: seat 0 thinking\u2026")
        expect(p.locator("#pimc-progress")).to_be_visible()
        p.wait_for_timeout(1000)
        busy = searchers(server)
        assert busy, "no process plays the PIMC line"
        [_, _, stopped] = json_lines("solve", "--json", PLAYED)
        page.open_record(3, stopped["name"])
        page.wait_step(14)
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in busy) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in busy), "the abandoned PIMC run still runs"
        for gone in ("#pimc-line", "#pimc-result", "#pimc-status", "#pimc-dd-line"):
            expect(p.locator(gone)).to_have_text("")
        expect(p.locator("#pimc-progress")).to_be_hidden()
        # step back into trick 5; a slow run there, replaced by a quick one: only the quick one shows
        p.keyboard.press("ArrowLeft")
        page.wait_step(13)
        p.click("#pimc-go")
        expect(p.locator("#pimc-status")).to_have_text(re.compile(r"^card \d+ of 23: seat \d thinking"))
        p.fill("#pimc-samples", "5")
        p.fill("#pimc-seed", "3")
        p.click("#pimc-go")
        expect(p.locator("#pimc-status")).to_have_text("done: 23 cards (5 samples a decision, seed 3)", timeout=120_000)
        # `calasolve play` from the same point: the same cards, the same costs and result
        text = (ROOT / PLAYED).read_text().split("\n\n")[-1]
        record = re.sub(r"played: (.*) 5S\n?$", r"played: \1\n", text)
        [played] = json_lines("play", "--json", "--players", "pimc", "--samples", "5", "--seed", "3", "--jobs", "1", "-",
                              input=record)
        cards = played["analysis"]["cards"][13:]
        shown = p.locator(".pimc-card")
        assert [shown.nth(i).get_attribute("data-card") for i in range(shown.count())] == played["played"][13:]
        costs = [int(t.replace("\u2212", "")) for t in p.locator(".pimc-card .cost").all_text_contents()]
        assert costs == [c["cost"] for c in cards if c["cost"]] and costs
        thirds = played["analysis"]["actual_thirds"]
        expect(p.locator("#pimc-final")).to_contain_text(f"PIMC after 13 cards: the soloist ends with {thirds} thirds")
        [dd] = json_lines("solve", "--json", "-", input=record)
        expect(p.locator("#pimc-dd")).to_contain_text(f"Double dummy after 13 cards: the soloist ends with {dd['soloist_thirds']} thirds")
        assert (p.locator("#pimc-dd-line").text_content() or "").startswith("Double-dummy line from there: 5. ")
        expect(p.locator("#graph polyline.pimc-eval")).to_have_count(1)
        # the board's line is the PIMC line: step through it, its card at the position marked
        expect(p.locator(".pimc-card.next")).to_have_attribute("data-card", played["played"][13])
        p.keyboard.press("ArrowRight")
        page.wait_step(14)
        expect(p.locator(".pimc-card.next")).to_have_attribute("data-card", played["played"][14])
        mistake = next(c for c in cards if c["cost"])
        p.click(f".pimc-card[data-index='{mistake['index']}']")
        page.wait_step(mistake["index"])
        title = p.locator(f".card.legal[data-card='{mistake['card']}']").get_attribute("title") or ""
        assert f"loses {mistake['cost']}" in title
        page.shot("pimc")
        assert (p.locator("#status").text_content() or "") == ""
        assert page.errors == []
        # the server's one-line error, as elsewhere
        p.fill("#pimc-samples", "0")
        p.click("#pimc-go")
        expect(p.locator("#status")).to_have_text("samples: 0 is out of range 1..1000")
        expect(p.locator("#pimc-progress")).to_be_hidden()
        assert all("status of 400" in e for e in page.errors), page.errors
    finally:
        p.close()


def test_seat_advice_from_the_board_and_from_a_pasted_view(example_page: Page) -> None:
    """Advise the seat to play at the shown position, then a pasted view; a bad view shows its one line."""
    page = example_page.page
    page.fill("#seat-layouts", "4")
    page.wait_for_selector(".card.legal .val")
    refused = 0
    for seat in range(3):  # two seats are refused (not their turn), one is advised
        page.select_option("#seat-which", str(seat))
        page.click("#seat-shown")
        expect(page.locator("#seat-status")).to_have_text("", timeout=60_000)
        error = page.locator("#seat-error").text_content() or ""
        if error:
            assert "is to play, not seat" in error, error
            refused += 1
    assert refused == 2
    expect(page.locator("#seat-panel")).to_be_visible()
    assert "card" in (page.locator("#seat-result p.seat-answer").text_content() or "")
    assert page.locator("#seat-result .seat-table tr").count() >= 2
    page.fill("#seat-paste", "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: chiamo pass\n")
    page.click("#seat-go")
    expect(page.locator("#seat-result p.seat-answer")).to_contain_text("Seat 2, call: ", timeout=60_000)
    assert sorted(page.locator("#seat-result .seat-table tr td:first-child").all_text_contents()) == ["pass", "solissimo", "solo"]
    page.fill("#seat-paste", "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: solo chiamo\n")
    page.click("#seat-go")
    expect(page.locator("#seat-error")).to_contain_text("a bid must be higher than solo", timeout=30_000)
    example_page.shot("seat-advice")
    assert all("status of 400" in e for e in example_page.errors), example_page.errors
