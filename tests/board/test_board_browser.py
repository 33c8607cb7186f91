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
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the test extra)")
expect = sync_api.expect

CHROMIUM = os.environ.get("CALASOLVE_CHROMIUM", "/usr/bin/chromium")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, as .ci/run does)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/example.deal"
PLAYED = "examples/played.deal"
ARTEFACTS = Path(os.environ.get("CALASOLVE_ARTEFACTS", Path(tempfile.gettempdir()) / "calasolve-board"))

BAD = """name: bad
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC7
monte: R4.-.3F.-
contract: solissimo
soloist: 0
"""

SOLO_NO_EXCHANGE = """name: solo, exchange to search
hands: 7.74.2RCF764.R6 3F.32AR.3A.2AF4 AC65.CF5.5.3C75
monte: 2R4.6.-.-
contract: solo
soloist: 1
"""


def calasolve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "calasolve", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def json_lines(*args: str) -> list[dict[str, Any]]:
    run = calasolve(*args)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        # CI runs as root in a container: no sandbox there, and a small /dev/shm
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


def start_board(path: str) -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "board", "--no-browser", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("calasolve board: http://"), line + proc.stderr.read()  # type: ignore[union-attr]
        yield line.split()[2]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def example_url() -> Iterator[str]:
    yield from start_board(EXAMPLE)


@pytest.fixture(scope="module")
def played_url() -> Iterator[str]:
    yield from start_board(PLAYED)


class Page:
    """A page of the board, with the console's errors kept."""

    def __init__(self, browser: Any, url: str) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 1000})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector("#deal-info strong")

    def shot(self, name: str) -> None:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)

    def values(self) -> dict[str, int]:
        """The values shown on the cards of the player to move."""
        return self.page.eval_on_selector_all(
            ".card.legal", "cards => Object.fromEntries(cards.map(c => [c.dataset.card, Number(c.querySelector('.val').textContent)]))"
        )

    def wait_step(self, cursor: int) -> None:
        expect(self.page.locator("#step")).to_have_text(re.compile(f"^card {cursor} of "))

    def open_record(self, index: int, name: str) -> None:
        self.page.select_option("#record-list", str(index))
        expect(self.page.locator("#deal-info strong")).to_have_text(re.compile("^" + re.escape(name)))


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
    page.fill("#advice-hand", "32AR.32A.3A.2A5")
    page.fill("#advice-samples", "5000")
    page.click("#advice-go")
    expect(page.locator("#advice-progress")).to_be_visible()
    page.click("#advice-cancel")
    expect(page.locator("#advice-error")).to_have_text("cancelled")
    expect(page.locator("#advice-progress")).to_be_hidden()
    page.fill("#advice-samples", "2")
    for contract in ("chiamo", "dividete", "scegliete"):
        page.uncheck(f"#advice-contracts input[value={contract}]")
    page.click("#advice-go")
    page.wait_for_selector("svg.advice", timeout=60_000)
    assert page.locator("svg.advice rect.pmake").count() == 2
    assert "Recommendation:" in (page.locator("#advice-chart").text_content() or "")
    example_page.shot("advice")
    assert example_page.errors == []
