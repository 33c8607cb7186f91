"""The analysis board's answer times, through its JSON API (parse, replay, solve, JSON).

    pytest benchmarks/test_bench_board.py --benchmark-enable -s

The issue's targets: a full 12-trick deal's values on a fresh server in
under 1 s, and the value update after a click on a mid-play position
(tricks 3 to 9) at most 100 ms median.  The clicks follow the page: the
position is shown (its values solved), then one of its cards is clicked,
half the time a best card and half the time any legal one.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import warnings
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")

from suites import strong_suite  # noqa: E402

from calasolve.board.server import create_app  # noqa: E402
from calasolve.types.record import Record  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

N = int(os.environ.get("BENCH_BOARD_DEALS", "10"))


def records(n: int) -> list[Record]:
    return [
        Record(hands=d.hands, monte=d.monte, contract="solissimo", soloist=d.soloist, leader=d.leader, index=i + 1)
        for i, d in enumerate(strong_suite(n))
    ]


def timed(client: TestClient, path: str, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    response = client.post(path, json=body)
    seconds = time.perf_counter() - start
    assert response.status_code == 200, response.text
    return seconds, response.json()


def measure(recs: list[Record]) -> dict[str, float]:
    rng = random.Random(20)
    first, clicks = [], []
    for rec in recs:
        # a fresh server per deal: its solver's table starts cold
        with TestClient(create_app(recs, allowed_hosts=["testserver"])) as client:
            deal = {"record": rec.index}
            seconds, view = timed(client, "/api/position", {"deal": {**deal, "played": []}})
            first.append(seconds)
            played: list[str] = []
            while not view["over"]:
                card = rng.choice(view["best"] if rng.random() < 0.5 else sorted(view["values"]))
                seconds, view = timed(client, "/api/play", {"deal": {**deal, "played": played}, "card": card})
                if 2 <= len(played) // 3 <= 8:  # the click was made in tricks 3..9
                    clicks.append(seconds)
                played.append(card)
    ordered = sorted(clicks)
    return {
        "deals": len(recs),
        "full_deal_median_ms": statistics.median(first) * 1e3,
        "full_deal_max_ms": max(first) * 1e3,
        "clicks": len(clicks),
        "click_median_ms": statistics.median(clicks) * 1e3,
        "click_p90_ms": ordered[int(0.9 * (len(ordered) - 1))] * 1e3,
        "click_max_ms": ordered[-1] * 1e3,
    }


def test_board_answer_times(benchmark) -> None:  # type: ignore[no-untyped-def]
    recs = records(N)
    result = benchmark.pedantic(measure, args=(recs,), rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    print("\n" + "  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items()))
    assert result["deals"] == len(recs) and result["clicks"] == len(recs) * 21


CHROMIUM = os.environ.get("CALASOLVE_CHROMIUM", "/usr/bin/chromium")
BROWSER_DEALS = int(os.environ.get("BENCH_BOARD_BROWSER_DEALS", "5"))


def browser_clicks(url: str, n: int) -> dict[str, float]:
    """Click through tricks 1..9 of ``n`` deals in Chromium: click to the page redrawn."""
    import re

    from playwright.sync_api import expect, sync_playwright

    rng = random.Random(20)
    clicks = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        page = browser.new_page()
        page.goto(url)
        for index in range(1, n + 1):
            page.select_option("#record-list", str(index))
            expect(page.locator("#deal-info strong")).to_have_text(re.compile(f"^deal {index} "))
            for cursor in range(27):
                cards = page.locator(".card.best" if rng.random() < 0.5 else ".card.legal")
                card = cards.nth(rng.randrange(cards.count()))
                start = time.perf_counter()
                card.click()
                expect(page.locator("#step")).to_have_text(re.compile(f"^card {cursor + 1} of "))
                if cursor >= 6:  # tricks 3..9
                    clicks.append(time.perf_counter() - start)
        browser.close()
    return {"deals": n, "clicks": len(clicks), "browser_click_median_ms": statistics.median(clicks) * 1e3,
            "browser_click_max_ms": max(clicks) * 1e3}


def test_board_click_in_the_browser(benchmark, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The same clicks in Chromium, measured from the click to the redrawn page (an upper bound:
    Playwright polls the page for the change)."""
    import subprocess

    from calasolve.types.record import format_deal_text

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    pytest.importorskip("playwright.sync_api")
    recs = [r.with_(name=f"deal {r.index} of the strong suite") for r in records(BROWSER_DEALS)]
    path = tmp_path / "strong.deal"
    path.write_text(format_deal_text(recs))
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "board", "--no-browser", str(path)],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split()[2]  # type: ignore[union-attr]
        result = benchmark.pedantic(browser_clicks, args=(url, BROWSER_DEALS), rounds=1, iterations=1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    benchmark.extra_info.update(result)
    print("\n" + "  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items()))
    assert result["clicks"] == BROWSER_DEALS * 21
