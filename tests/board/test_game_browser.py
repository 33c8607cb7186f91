"""The game page (/play) in a real browser: whole deals in every contract played by clicks, a hint, the end,
the review in the analysis board, the record saved and opened again, leaving while an agent thinks, two pages
at once, and nothing hidden ever sent to the page before the end."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser_helpers import CHROMIUM, WatchedPage, launch, start_board
from hidden_cards import leaks, seen_tokens

from calasolve.env.game import GameState
from calasolve.records.dealfile import parse_deal_text

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the test extra)")
expect = sync_api.expect

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, as .ci/run does)", allow_module_level=True)

EXAMPLE = "examples/example.deal"
#: an arena deal on which the learned agents of seats 1 and 2 pass whatever seat 0 bids
WEAK_OTHERS = 1


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    yield from start_board(EXAMPLE)


class Game(WatchedPage):
    """The game page, with the console's errors and every game view the server sent it."""

    def __init__(self, browser: Any, url: str) -> None:
        self.views: list[dict[str, Any]] = []
        super().__init__(browser, url + "play", accept_downloads=True)
        expect(self.page.locator("#status")).to_have_text("deal to begin")

    def watch(self, page: Any) -> None:
        page.on("response", self._keep)

    def _keep(self, response: Any) -> None:
        if "/api/game" in response.url and response.request.method != "DELETE" and response.ok:
            body = response.json()
            if "history" in body:
                self.views.append(body)

    def view(self) -> dict[str, Any]:
        return dict(self.page.evaluate("game.view") or {})

    def deal(self, *, seat: int = 0, seed: int | None = WEAK_OTHERS, agents: str = "learned", pace: float = 0) -> None:
        self.page.select_option("#game-seat", str(seat))
        self.page.fill("#game-agents", agents)
        self.page.fill("#game-pace", str(pace))
        self.page.check("input[name=source][value=seed]")
        self.page.fill("#game-seed", "" if seed is None else str(seed))
        before = self.view().get("id")
        self.page.click("#game-go")
        expect(self.page.locator("#pos-bottom h3")).to_contain_text(f"Seat {seat}: you")
        end = time.monotonic() + 60
        while self.view().get("id") in (None, before):  # the page shows the last deal's end until the new one arrives
            assert time.monotonic() < end, "the new deal never arrived"
            self.page.wait_for_timeout(30)

    def wait_turn(self, timeout: float = 120) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            v = self.view()
            if v.get("over") or v.get("error") or (v.get("decision") and not self.page.locator("#decision").is_hidden()):
                return v
            assert time.monotonic() < end, f"no turn came: {v}"
            self.page.wait_for_timeout(50)

    def choose(self, contract: str | None) -> None:
        """One decision by clicks: ``contract`` bid (solissimo, then declared, for an aggravation), else the first
        legal choice."""
        v = self.view()
        d = v["decision"]
        kind, before = d["kind"], v["history"]
        page = self.page
        if kind == "call":
            call = contract if contract in d["calls"] else "solissimo" if contract else "pass"
            page.click(f"#decision-options button.call[data-call={call}]")
        elif kind == "declare":
            page.click(f"#decision-options button.call[data-call={contract or 'solissimo'}]")
        elif kind == "chiamo-call":
            page.locator("#decision-options .card.legal").first.click()
        elif kind == "discards":
            go = page.locator("#discard-go")
            for card in d["cards"][: d["count"]]:
                expect(go).to_be_disabled()
                page.click(f"#pos-bottom .card[data-card='{card}']")
            page.click("#discard-go")
        elif kind == "split":
            page.click(f"#decision-options .card[data-card='{d['monte'][0]}']")
            page.click("#split-go")
        else:
            page.click(f"#pos-bottom .card.legal[data-card='{d['cards'][0]}']")
        end = time.monotonic() + 60
        while self.view()["history"] == before:
            assert not page.locator("#act-error").text_content(), page.locator("#act-error").text_content()
            assert time.monotonic() < end
            page.wait_for_timeout(30)

    def play_out(self, contract: str | None = None) -> dict[str, Any]:
        while True:
            v = self.wait_turn()
            if v.get("over") or v.get("error"):
                return v
            self.choose(contract)


@pytest.fixture()
def game(browser: Any, url: str) -> Iterator[Game]:
    g = Game(browser, url)
    yield g
    g.page.close()


def no_leaks(game: Game, final: dict[str, Any]) -> None:
    """No view sent before the end named a card the person's seat could not know then."""
    [record] = parse_deal_text(final["record"])
    g = GameState.from_record(record)
    seen = [(v["history"], seen_tokens(v)) for v in game.views if v["id"] == final["id"] and not v["over"]]
    checked, leaked = leaks(g.history, final["seat"], seen, g.rules)
    assert not leaked, f"the page was sent {leaked} before the end"
    assert checked >= 12


@pytest.mark.parametrize("contract", ["chiamo", "solo", "solissimo", "dividete", "scegliete"])
def test_a_whole_deal_by_clicks_in_every_contract(game: Game, contract: str) -> None:
    game.deal(seat=0)
    final = game.play_out(contract)
    assert final["error"] is None
    assert (final["contract"], final["soloist"]) == (contract, 0)
    expect(game.page.locator("#end-panel")).to_be_visible()
    expect(game.page.locator("#end-result")).to_contain_text(f"{contract} by seat 0 (you)")
    assert f"you (seat 0) {final['returns'][0]:+g}".replace("+0", "0") in game.page.locator("#end-result").text_content()
    text = game.page.locator("#record-text").input_value()
    [record] = parse_deal_text(text)
    assert record.contract == contract and len(record.played) == 36 and record.auction
    # every hand is shown once the deal is over
    assert game.page.locator("#pos-right .card").count() == 12 and game.page.locator("#pos-left .card").count() == 12
    no_leaks(game, final)
    game.shot(f"game-{contract}")
    assert game.errors == []


def test_a_defender_splits_the_monte_and_the_series_keeps_score(game: Game) -> None:
    # random agents bid at random: find the deal where seat 0 wins solissimo and declares scegliete
    for seed in range(40):
        game.deal(seat=1, seed=seed, agents="random")
        v = game.wait_turn()
        while not v.get("over") and v["decision"]["kind"] == "call":
            game.choose(None)
            v = game.wait_turn()
        if not v.get("over") and v["decision"]["kind"] == "split":
            break
        game.play_out()
    else:
        pytest.fail("no deal of seeds 0..39 had seat 0 declare scegliete")
    expect(game.page.locator("#decision-prompt")).to_contain_text("Share the face-up monte")
    final = game.play_out()
    assert final["contract"] == "scegliete" and final["soloist"] == 0
    no_leaks(game, final)
    played = [v for v in game.views if v.get("over")]
    assert played
    expect(game.page.locator("#series-score")).to_contain_text(re.compile(r"^\d+ deals?: you [+-]?\d+ game points$"))
    expect(game.page.locator("#series-list li")).to_have_count(seed + 1)


def test_a_hint_then_the_review_then_the_record_saved_and_opened(game: Game, browser: Any, url: str) -> None:
    game.deal(seat=0)
    game.wait_turn()
    game.page.click("#hint-go")
    expect(game.page.locator("#hint-result .seat-answer")).to_contain_text("Seat 0, call:", timeout=120_000)
    rows = game.page.locator("#hint-result .seat-table tr td:first-child").all_text_contents()
    assert sorted(rows) == sorted(game.view()["decision"]["calls"])
    game.shot("game-hint")
    final = game.play_out("solo")
    assert final["hints"] == [final["hints"][0]] and len(final["hints"]) == 1
    expect(game.page.locator("#hint-panel")).to_be_hidden()  # a hint belongs to its decision
    # save: the record with its auction, as a deal file
    with game.page.expect_download() as download:
        game.page.click("#save")
    saved = Path(download.value.path()).read_text()
    [record] = parse_deal_text(saved)
    assert record.auction[0] == "solo" and record.contract == "solo" and len(record.played) == 36
    assert "# played on the calasolve board" in saved and "hints asked at 1 decision" in saved
    # the review: the analysis board opens the deal, with each of the person's decisions against its advice
    game.page.click("#review-link")
    page = game.page
    expect(page.locator("#deal-info strong")).to_contain_text("solo", timeout=60_000)
    expect(page.locator("#graph-panel")).to_be_visible(timeout=120_000)
    expect(page.locator("#decisions-summary")).to_contain_text("seat 0: ", timeout=300_000)
    items = page.locator("#decisions-list li")
    assert items.count() >= 13
    first = items.first.text_content()
    assert first.startswith("call: chose solo") and "you asked for this hint" in first
    expect(page.locator("#exchange-judged")).to_contain_text(re.compile(r"^The exchange \(made by the soloist\): \d+ thirds"))
    expect(page.locator("#par-line")).to_have_text(re.compile("^par: "), timeout=600_000)  # then the table, proven
    assert "?" not in page.locator("#dd-table").text_content()
    game.shot("game-review")
    # the saved file opened again (another page, no game behind it): its seat's decisions are reviewed from it
    again = browser.new_page(viewport={"width": 1300, "height": 1000})
    again.goto(url)
    again.wait_for_selector("#deal-info strong")
    again.fill("#paste", saved)
    again.click("#open-paste")
    expect(again.locator("#deal-info strong")).to_have_text(re.compile("^solo"))
    again.click("#decisions-go")
    expect(again.locator("#decisions-list li").first).to_contain_text("call: chose solo", timeout=120_000)
    again.click("#decisions-stop")
    expect(again.locator("#decisions-status")).to_have_text("stopped")
    again.close()
    assert game.errors == []


def test_leaving_while_an_agent_thinks_and_clicks_meanwhile(game: Game, url: str) -> None:
    game.deal(seat=2, agents="table:layouts=64", pace=0)  # seats 0 and 1 think for seconds on their calls
    expect(game.page.locator("#thinking")).to_contain_text("is thinking", timeout=30_000)
    assert game.page.locator("#pos-bottom .card.legal").count() == 0  # nothing to click while they think
    expect(game.page.locator("#hint-go")).to_be_disabled()
    gid = game.view()["id"]
    game.page.click("#leave")
    expect(game.page.locator("#status")).to_have_text("you left the deal")
    gone = game.page.request.get(url + f"api/game/{gid}")
    assert gone.status == 404 and "no such game" in gone.json()["error"]
    game.deal(seat=0)  # a new deal at once
    v = game.wait_turn()
    assert v["decision"]["kind"] == "call"
    game.page.reload()  # the tab takes its deal up again
    expect(game.page.locator("#decision-prompt")).to_have_text("Your call:")
    assert game.view()["id"] == v["id"] and game.view()["history"] == v["history"]


def test_two_pages_play_two_games_at_once(browser: Any, url: str) -> None:
    one, two = Game(browser, url), Game(browser, url)
    try:
        one.deal(seat=0, seed=WEAK_OTHERS)
        two.deal(seat=1, seed=2)
        a, b = one.wait_turn(), two.wait_turn()
        assert a["id"] != b["id"]
        for _ in range(3):  # interleaved decisions, each on its own game
            for g in (one, two):
                v = g.wait_turn()
                if not v.get("over"):
                    g.choose("solo" if g is one else None)
        final_one, final_two = one.play_out("solo"), two.play_out()
        assert final_one["seat"] == 0 and final_two["seat"] == 1
        assert final_one["record"] != final_two["record"]
        assert json.dumps(one.views).count(b["id"]) == 0 and json.dumps(two.views).count(a["id"]) == 0
        assert one.errors == [] and two.errors == []
    finally:
        one.page.close()
        two.page.close()
