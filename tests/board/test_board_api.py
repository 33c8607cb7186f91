"""The board's JSON API (docs/board.md): every endpoint, good and bad input."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

from calasolve.game.defaults import DEFAULT_LEARNED_DEALS
from processes import children

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # newer Starlette would rather have httpx2 than httpx
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

from calasolve.advice.advisor import advise  # noqa: E402
from calasolve.deals.analysis import analyse  # noqa: E402
from calasolve.board.server import MAX_BODY, create_app  # noqa: E402
from calasolve.records.dealfile import parse_deal_text, read_deal_file  # noqa: E402
from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.search.position import Position  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402
from calasolve.exchange.solve import solve  # noqa: E402
from calasolve.game.cards import card_name, parse_card  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")
PLAYED = str(ROOT / "examples" / "played.deal")

SOLO_NO_EXCHANGE = """name: solo, exchange to search
hands: 7.74.2RCF764.R6 3F.32AR.3A.2AF4 AC65.CF5.5.3C75
monte: 2R4.6.-.-
contract: solo
soloist: 1
"""

BAD = """name: bad
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC7
monte: R4.-.3F.-
contract: solissimo
soloist: 0
"""


def client_for(path: str) -> TestClient:
    return TestClient(create_app(read_deal_file(path), path=path, allowed_hosts=["testserver"]))


@pytest.fixture(scope="module")
def client() -> Any:
    with client_for(EXAMPLE) as c:
        yield c


@pytest.fixture(scope="module")
def played_client() -> Any:
    with client_for(PLAYED) as c:
        yield c


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    return response.json()


def refused(response: Any, status: int = 400) -> str:
    """The one-line error of a refused request."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# -- the page ----------------------------------------------------------------------

def test_page_and_static_files_are_served_with_a_closed_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "calasolve board" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("board.js", "board.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.text
    static = ROOT / "src" / "calasolve" / "board" / "static"
    for f in static.iterdir():
        text = f.read_text()
        # nothing fetched from the network: the only URL is the SVG namespace
        assert "https://" not in text and text.replace("http://www.w3.org/2000/svg", "").count("http://") == 0, f.name


def test_records_lists_the_file(client: TestClient) -> None:
    data = ok(client.get("/api/records"))
    records = read_deal_file(EXAMPLE)
    assert data["file"] == EXAMPLE
    assert [r["index"] for r in data["records"]] == [r.index for r in records]
    assert [r["name"] for r in data["records"]] == [r.name for r in records]
    assert data["records"][5]["played"] == ["3B", "4B", "5B", "3S", "4S", "6S", "2C"]


# -- position, play, undo ----------------------------------------------------------------

@pytest.mark.parametrize("index", range(1, 7))
def test_position_values_are_the_solvers(client: TestClient, index: int) -> None:
    record = read_deal_file(EXAMPLE)[index - 1]
    view = ok(client.post("/api/position", json={"deal": {"record": index}}))
    expected = solve(record, solver=make_solver(8))
    assert view["values"] == {k: v for k, v in expected.to_dict()["cards"].items()}
    assert view["value"] == expected.soloist_thirds
    assert view["to_move"] == expected.to_move
    best = max if expected.to_move == record.soloist else min
    assert set(view["best"]) == {c for c, v in view["values"].items() if v == best(view["values"].values())}
    assert all(view["loss"][c] == abs(v - view["value"]) for c, v in view["values"].items())
    assert view["played"] == [c for c in ok(client.get("/api/records"))["records"][index - 1]["played"]]


def test_values_are_the_positions(client: TestClient) -> None:
    deal = {"record": 6, "played": ["3B", "4B", "5B", "3S", "4S", "6S", "2C", "RC"]}
    view = ok(client.post("/api/position", json={"deal": deal}))
    values = ok(client.post("/api/values", json={"deal": deal}))
    assert values == {k: view[k] for k in ("played", "to_move", "over", "value", "makes", "values", "best", "loss")}
    assert values["to_move"] == 1 and values["values"]
    message = refused(client.post("/api/values", json={"deal": {**deal, "played": deal["played"] + ["2B"]}}))
    assert message == "deal.played: played card 9 (2B, trick 3): seat 1 must follow Coppe (led 2C) with 3C FC 7C 6C"


def test_play_then_undo_restores_the_values(client: TestClient) -> None:
    start = ok(client.post("/api/position", json={"deal": {"record": 1}}))
    card = sorted(start["values"])[0]
    after = ok(client.post("/api/play", json={"deal": {"record": 1}, "card": card}))
    assert after["played"] == [card] and after["to_move"] == 1
    pos = Position.from_record(read_deal_file(EXAMPLE)[0], solver=make_solver(8))
    pos.play(card)
    assert after["values"] == pos.values().tokens()
    assert after["trick"] == {"leader": 0, "cards": [card]}
    back = ok(client.post("/api/undo", json={"deal": {"record": 1, "played": [card]}}))
    assert back == start


def test_a_position_asked_again_comes_from_the_warm_table() -> None:
    with client_for(EXAMPLE) as c:
        first = ok(c.post("/api/position", json={"deal": {"record": 1}}))
        solver = c.app.state.board._solvers["quick"]
        cold = solver.total_nodes
        ok(c.post("/api/play", json={"deal": {"record": 1}, "card": "AS"}))
        again = ok(c.post("/api/position", json={"deal": {"record": 1}}))
        assert again == first
        assert solver.total_nodes - cold < cold / 20


def test_play_through_a_trick_counts_it(client: TestClient) -> None:
    view = ok(client.post("/api/position", json={"deal": {"record": 1, "played": ["AS", "5S"]}}))
    after = ok(client.post("/api/play", json={"deal": {"record": 1, "played": ["AS", "5S"]}, "card": "7S"}))
    assert view["to_move"] == 2 and after["trick"]["cards"] == [] and after["last_trick"]["winner"] == 0
    assert after["seats"][0]["tricks_won"] == 1 and after["sides"]["soloist"] == 3
    assert after["value"] == view["values"]["7S"]


def test_the_whole_deal_played_has_a_result(played_client: TestClient) -> None:
    record = read_deal_file(PLAYED)[0]
    view = ok(played_client.post("/api/position", json={"deal": {"record": 1}}))
    assert view["over"] and view["values"] == {} and view["to_move"] is None
    assert view["result"] == record.state().result(record.contract, record.rules).to_dict()


@pytest.mark.parametrize("body, expected", [
    ({"deal": {"record": 1}, "card": "AB"}, "AB: seat 0 does not hold it"),
    ({"deal": {"record": 1, "played": ["AS"]}, "card": "2D"}, "must follow"),
    ({"deal": {"record": 1}, "card": "ZZ"}, "ZZ"),
    ({"deal": {"record": 1}, "card": 5}, "card: expected str"),
    ({"deal": {"record": 1}}, "card: the card to play is missing"),
])
def test_play_refuses_bad_cards(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in refused(client.post("/api/play", json=body))


def test_undo_with_nothing_played_is_refused(client: TestClient) -> None:
    assert "nothing to undo" in refused(client.post("/api/undo", json={"deal": {"record": 1}}))


@pytest.mark.parametrize("deal, expected", [
    (None, "deal: expected an object"),
    ([], "deal: expected an object"),
    ({}, "give either 'record'"),
    ({"record": 1, "text": BAD}, "give either 'record'"),
    ({"record": 0}, "deal.record: 0 is not a record of the file (it has 6)"),
    ({"record": 99}, "deal.record: 99 is not a record"),
    ({"record": "1"}, "deal.record: expected int, got str"),
    ({"record": True}, "deal.record: expected int, got bool"),
    ({"record": 1, "played": ["AS", "AS"]}, "played card 2 (AS, trick 1): seat 1 does not hold it"),
    ({"record": 1, "played": "AS 6B"}, "played card 2 (6B, trick 1): seat 1 must follow Spade"),
    ({"record": 1, "played": ["AS"] * 37}, "played: 37 cards"),
    ({"record": 1, "played": [None]}, "played card 1: expected a card token"),
    ({"record": 1, "played": {"a": 1}}, "played: expected a list"),
    ({"text": BAD}, "<pasted>:2: seat 2 holds 11 cards"),
    ({"text": 5}, "deal.text: expected str"),
    ({"text": BAD + "\n" + BAD}, "<pasted>:2: seat 2 holds 11 cards"),
    ({"text": SOLO_NO_EXCHANGE + "\n" + SOLO_NO_EXCHANGE}, "<pasted>: 2 records; paste one record at a time"),
    ({"text": "x" * 20000}, "a pasted record may hold at most"),
    ({"text": SOLO_NO_EXCHANGE}, "exchange"),
    ({"record": 2, "exchange": {"calls": "3C"}}, "exchange: unknown field 'calls'"),
    ({"record": 2, "exchange": {"discards": {"1": "4B 6S FD"}}}, "discards"),
    ({"record": 2, "exchange": {"discards": {"7": "4B"}}}, "exchange.discards: seat '7' is not 0, 1 or 2"),
    ({"record": 2, "exchange": {"discards": "4B"}}, "exchange.discards: expected an object"),
    ({"record": 2, "exchange": {"call": 3}}, "exchange.call: expected a card token"),
    ({"record": 2, "exchange": []}, "exchange: expected an object"),
])
def test_bad_deals_get_one_line_errors(client: TestClient, deal: Any, expected: str) -> None:
    response = client.post("/api/position", json={"deal": deal})
    assert expected in refused(response, response.status_code if response.status_code == 413 else 400)
    for path in ("/api/undo", "/api/play", "/api/analyse", "/api/exchange", "/api/pimc"):
        response = client.post(path, json={"deal": deal, "card": "AS"})
        if response.status_code == 200:  # the exchange search takes a record without an exchange
            assert path == "/api/exchange" and "text" in deal, response.text
        else:
            refused(response, response.status_code)
            assert response.status_code in (400, 413), path


def test_pasted_errors_are_checks_errors(client: TestClient, tmp_path: Path) -> None:
    bad = tmp_path / "bad.deal"
    bad.write_text(BAD)
    run = subprocess.run([sys.executable, "-m", "calasolve", "check", str(bad)], capture_output=True, text=True)
    assert run.returncode == 2
    cli_message = run.stderr.strip().removeprefix(f"calasolve: error: {bad}")
    assert refused(client.post("/api/check", json={"text": BAD})) == "<pasted>" + cli_message


def test_check_reads_pasted_records(client: TestClient) -> None:
    data = ok(client.post("/api/check", json={"text": SOLO_NO_EXCHANGE}))
    [record] = parse_deal_text(SOLO_NO_EXCHANGE)
    assert data["records"] == [{**record.to_dict(), "index": 1, "where": "<pasted>:1", "needs_exchange": True}]
    assert "text: the record to check is missing" in refused(client.post("/api/check", json={}))


# -- the exchange -------------------------------------------------------------------------

def test_exchange_search_and_applying_an_alternative(client: TestClient) -> None:
    deal = {"text": SOLO_NO_EXCHANGE}
    found = ok(client.post("/api/exchange", json={"deal": deal, "top": 3}))
    [record] = parse_deal_text(SOLO_NO_EXCHANGE)
    expected = best_exchange(record, solver=make_solver(8), top=3).to_dict()
    assert found["best"]["soloist_thirds"] == expected["best"]["soloist_thirds"] == 27
    assert [a["soloist_thirds"] for a in found["alternatives"]] == [a["soloist_thirds"] for a in expected["alternatives"]]
    for choice in found["alternatives"]:
        view = ok(client.post("/api/position", json={"deal": {**deal, "exchange": choice["exchange"]}}))
        assert view["value"] == choice["soloist_thirds"]
        assert view["exchange"] == choice["exchange"] and view["exchange_text"] == choice["text"]
    assert "top: 0 is out of range 1..50" in refused(client.post("/api/exchange", json={"deal": deal, "top": 0}))
    assert "top: expected int" in refused(client.post("/api/exchange", json={"deal": deal, "top": "3"}))


def test_an_illegal_exchange_is_the_deal_files_error(client: TestClient) -> None:
    # the discards must be the soloist's: 7B is seat 0's
    deal = {"text": SOLO_NO_EXCHANGE, "exchange": {"discards": {"1": "7B,4B,6S,FD"}}}
    message = refused(client.post("/api/position", json={"deal": deal}))
    assert message.startswith("deal.exchange: ") and "7B" in message


# -- analyse -------------------------------------------------------------------------------

def test_analyse_gives_the_graph_of_analyse(played_client: TestClient) -> None:
    record = read_deal_file(PLAYED)[0]
    expected = analyse(record, solver=make_solver(8), exchange=False).to_dict()
    data = ok(played_client.post("/api/analyse", json={"deal": {"record": 1}}))
    assert data["analysis"]["cards"] == expected["cards"]
    assert data["graph"]["points"] == [expected["start_value"]] + [c["after"] for c in expected["cards"]]
    assert [(m["index"], m["seat"], m["cost"]) for m in data["graph"]["mistakes"]] == [
        (c["index"], c["seat"], c["cost"]) for c in expected["cards"] if c["cost"]
    ]
    assert data["graph"]["mistakes"]


def test_analyse_needs_played_cards(client: TestClient) -> None:
    assert "no played cards" in refused(client.post("/api/analyse", json={"deal": {"record": 1}}))
    assert "exchange: expected bool" in refused(client.post("/api/analyse", json={"deal": {"record": 6}, "exchange": 1}))


def test_analyse_judges_the_exchange_on_request(played_client: TestClient) -> None:
    data = ok(played_client.post("/api/analyse", json={"deal": {"record": 2}, "exchange": True}))
    assert data["analysis"]["exchange"]["chosen_by"] == "soloist"


# -- advise --------------------------------------------------------------------------------

def wait_advice(client: TestClient, timeout: float = 120) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = ok(client.get("/api/advise"))
        if status["state"] != "running":
            return status
        time.sleep(0.1)
    raise AssertionError("the advice run did not finish")


def contracts_of(d: dict[str, Any]) -> list[dict[str, Any]]:
    """The estimates of an advice (or of its played side) without their CPU seconds."""
    return [{k: v for k, v in e.items() if k != "seconds"} for e in d["contracts"]]


def test_advise_runs_and_equals_advise() -> None:
    with client_for(EXAMPLE) as c:
        assert ok(c.get("/api/advise")) == {"state": "idle"}
        body = {"hand": "32AR.32A.3A.2A5", "seat": 1, "samples": 3, "seed": 5, "contracts": ["solo", "solissimo"],
                "play": "dd"}
        started = c.post("/api/advise", json=body)
        assert started.status_code == 202 and started.json()["total"] == 6 and started.json()["play"] == "dd"
        status = wait_advice(c)
        assert status["state"] == "done" and status["done"] == 6
        expected = advise("32AR.32A.3A.2A5", seat=1, samples=3, seed=5, jobs=1, contracts=["solo", "solissimo"],
                          play="dd").to_dict()
        assert "played" not in status["result"] and "basis" not in status["result"]
        assert contracts_of(status["result"]) == contracts_of(expected)
        assert status["result"]["recommendation"] == expected["recommendation"]


def test_played_advice_has_both_odds_and_equals_advise() -> None:
    """The default advice: the double-dummy odds and the played ones; the progress counts the play-outs."""
    with client_for(EXAMPLE) as c:
        body = {"hand": "32AR.3A.2A7.543", "seat": 1, "samples": 16, "seed": 3, "contracts": ["solo"]}
        started = c.post("/api/advise", json=body)
        assert started.status_code == 202 and started.json()["play"] == "played"
        # the double-dummy samples' cap, then the deals the learned players play out
        assert started.json()["total"] == 16 + DEFAULT_LEARNED_DEALS
        status = wait_advice(c)
        assert status["state"] == "done"
        result = status["result"]
        assert result["basis"] == "played" and result["dd_recommendation"] in ("solo", "pass")
        [dd] = result["contracts"]
        [played] = result["played"]["contracts"]
        assert dd["contract"] == played["contract"] == "solo" and played["deals"] == DEFAULT_LEARNED_DEALS
        for estimate in (dd, played):
            lo, hi = estimate["p_make_95"]
            assert 0 <= lo <= estimate["p_make"] <= hi <= 1
        assert result["recommendation"] == result["played"]["recommendation"]
        assert result["reason"] == result["played"]["reason"]
        counted: list[int] = []
        expected = advise("32AR.3A.2A7.543", seat=1, samples=16, seed=3, jobs=1, contracts=["solo"],
                          progress=counted.append).to_dict()
        assert sum(counted) <= started.json()["total"]  # the progress bar's end is the cap
        # after the double-dummy samples, one count a deal played out
        assert sum(counted) == dd["samples"] + DEFAULT_LEARNED_DEALS
        assert contracts_of(result) == contracts_of(expected)
        assert contracts_of(result["played"]) == contracts_of(expected["played"])
        assert (result["recommendation"], result["dd_recommendation"]) == (expected["recommendation"],
                                                                           expected["dd_recommendation"])


def test_advice_is_cancelled_and_replaced_never_piled_up() -> None:
    with client_for(EXAMPLE) as c:
        body = {"hand": "32AR.32A.3A.2A5", "samples": 5000}
        assert c.post("/api/advise", json=body).status_code == 202
        first = c.app.state.board.advice
        assert c.post("/api/advise", json=body).status_code == 202
        second = c.app.state.board.advice
        assert first.state == "cancelled" and not first._process.is_alive()
        stopped = ok(c.delete("/api/advise"))
        assert stopped["state"] == "cancelled" and stopped["done"] < stopped["total"]
        assert not second._process.is_alive()
        assert ok(c.delete("/api/advise"))["state"] == "cancelled"


def test_a_page_cancels_only_its_own_advice_run() -> None:
    with client_for(EXAMPLE) as c:
        body = {"hand": "32AR.32A.3A.2A5", "samples": 5000}
        first = c.post("/api/advise", json=body).json()["run"]
        second = c.post("/api/advise", json=body).json()["run"]
        assert second == first + 1
        # the page of the first run leaves: the second, another page's, goes on
        assert ok(c.delete(f"/api/advise?run={first}"))["state"] == "running"
        assert ok(c.delete(f"/api/advise?run={second}"))["state"] == "cancelled"


def test_an_advice_run_nobody_polls_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    from calasolve.board import advice

    with client_for(EXAMPLE) as c:
        assert c.post("/api/advise", json={"hand": "32AR.32A.3A.2A5", "samples": 5000}).status_code == 202
        board = c.app.state.board
        board.reap()
        assert board.advice.state == "running"
        monkeypatch.setattr(advice, "ABANDONED_AFTER", 0.0)
        board.reap()
        assert board.advice.state == "cancelled" and not board.advice._process.is_alive()


def test_an_advice_error_arrives_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child hands back its error whole (its class and fields), as it hands back the advice."""
    import queue

    from calasolve.advice import advisor
    from calasolve.advice.settings import AdviceSettings
    from calasolve.board import advice
    from calasolve.game.cards import parse_hand
    from calasolve.game.errors import ParameterError

    def refuse(settings: AdviceSettings, **_: Any) -> Any:
        raise ParameterError("samples", settings.samples, "refused for the test")

    monkeypatch.setattr(advisor, "run_advice", refuse)
    out: queue.Queue[tuple[str, Any]] = queue.Queue()
    advice._run(AdviceSettings(hand=parse_hand("32AR.32A.3A.2A5"), samples=3), out)
    kind, error = out.get_nowait()
    assert kind == "error" and type(error) is ParameterError and error.parameter == "samples"
    assert str(error) == "samples 3: refused for the test"


def test_advice_status_with_numbers_that_do_not_exist_is_standard_json() -> None:
    """A result with NaN (no thirds samples) made the status endpoint a 500 (not JSON)."""
    from strict_json import strict_loads

    with client_for(EXAMPLE) as c:
        assert c.post("/api/advise", json={"hand": "32AR.32A.3A.2A5", "samples": 2,
                                           "contracts": ["solissimo"]}).status_code == 202
        run = c.app.state.board.advice
        wait_advice(c)
        # as the result of a contract never sampled for thirds
        nan_thirds = dataclasses.replace(run.result.estimates[0], mean_thirds=float("nan"))
        run.result = dataclasses.replace(run.result, estimates=(nan_thirds,))
        answer = c.get("/api/advise")
        assert answer.status_code == 200
        assert strict_loads(answer.text)["result"]["contracts"][0]["mean_thirds"] is None


def test_an_internal_error_is_a_json_one_liner() -> None:
    with client_for(EXAMPLE) as c:
        def broken(*args: Any) -> Any:
            raise RuntimeError("a bug\nover two lines")

        c.app.state.board._view = broken
        raw = TestClient(c.app, raise_server_exceptions=False)
        answer = raw.post("/api/position", json={"deal": {"record": 1}})
        assert answer.status_code == 500
        assert answer.json() == {"error": "internal error: RuntimeError: a bug\\nover two lines"}


def leaves_after(seconds: float) -> Callable[[], Awaitable[None]]:
    """A slow question's asker who closes the request after ``seconds``."""

    async def gone() -> None:
        await asyncio.sleep(seconds)

    return gone


async def stays() -> None:
    """A slow question's asker who waits for the answer however long it takes."""
    await asyncio.Event().wait()


def test_a_search_nobody_waits_for_is_stopped() -> None:
    """The slow questions' process is ended when the asker leaves, and the next question
    gets a new one."""
    from calasolve.board.jobs import SlowWorker
    from calasolve.game.errors import Abandoned

    chiamo = parse_deal_text(SOLO_NO_EXCHANGE.replace("contract: solo", "contract: chiamo").replace("soloist: 1", "soloist: 0"))[0]
    [record] = read_deal_file(PLAYED)[:1]

    async def scenario() -> None:
        worker = SlowWorker(16)
        try:
            start = time.monotonic()
            with pytest.raises(Abandoned):
                await worker.ask("exchange", (chiamo, 10), leaves_after(1.0))
            assert time.monotonic() - start < 15 and worker.pid is None and worker.abandoned == 1
            answer = await worker.ask("analyse", (record, False), stays)  # the Analysis object
            timeless = lambda d: {k: v for k, v in d.items() if k not in ("seconds", "nodes", "cpu")}  # noqa: E731
            assert timeless(answer.to_dict()) == timeless(analyse(record).to_dict())
        finally:
            worker.close()

    asyncio.run(scenario())


def test_the_tables_pool_answers_questions_side_by_side() -> None:
    """Two questions asked together go to two processes; one whose asker leaves is stopped
    there and the pool answers the next; a question waiting for a free process is dropped
    when its asker leaves."""
    from calasolve.board.jobs import SlowPool
    from calasolve.game.errors import Abandoned
    from calasolve.table.ddtable import table_entry

    from calasolve.types.record import Record
    from calasolve.search.suites import random_suite

    deal = random_suite(2)[1]  # seat 0's chiamo: minutes of search
    chiamo = Record(hands=deal.hands, monte=deal.monte, contract="chiamo", soloist=0)
    certain = read_deal_file(str(ROOT / "examples" / "table.deal"))[0]
    timeless = lambda d: {k: v for k, v in d.items() if k not in ("seconds", "nodes", "cpu")}  # noqa: E731

    async def scenario() -> None:
        pool = SlowPool(16, 2)
        try:
            asked = [(0, "solo"), (2, "scegliete")]
            answers = await asyncio.gather(*(pool.ask("table_entry", (certain, s, c), stays) for s, c in asked))
            assert len(pool.pids) == 2  # the second question did not wait for the first one's process
            for (s, c), got in zip(asked, answers):
                assert timeless(got.to_dict()) == timeless(table_entry((certain, s, c)).to_dict())
            # both processes busy with slow searches: a third asker waits, then leaves
            slow = [asyncio.ensure_future(pool.ask("exchange", (chiamo, 10), leaves_after(1.0))) for _ in range(2)]
            await asyncio.sleep(0.2)  # they take both processes
            with pytest.raises(Abandoned):
                await pool.ask("table_entry", (certain, 0, "solo"), leaves_after(0.3))
            for task in slow:
                with pytest.raises(Abandoned):
                    await task
            assert pool.pids == [] and pool.abandoned == 2
            again = await pool.ask("table_entry", (certain, 1, "chiamo"), stays)
            assert timeless(again.to_dict()) == timeless(table_entry((certain, 1, "chiamo")).to_dict())
        finally:
            pool.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("body, expected", [
    ({}, "hand: the 12-card hand is missing"),
    ({"hand": "32AR.32A.3A.2A"}, "has 11 cards, a hand has 12"),
    ({"hand": "32AR.32A.3A.2A5", "seat": 3}, "seat: 3 is out of range 0..2"),
    ({"hand": "32AR.32A.3A.2A5", "samples": 0}, "samples: 0 is out of range"),
    ({"hand": "32AR.32A.3A.2A5", "samples": 10**6}, "samples: 1000000 is out of range"),
    ({"hand": "32AR.32A.3A.2A5", "seed": -1}, "seed: -1 is out of range"),
    ({"hand": "32AR.32A.3A.2A5", "contracts": ["bridge"]}, "unknown contract 'bridge'"),
    ({"hand": "32AR.32A.3A.2A5", "contracts": []}, "no contract to estimate"),
    ({"hand": "32AR.32A.3A.2A5", "contracts": "solo"}, "contracts: expected list"),
    ({"hand": ["3B"]}, "hand: expected str"),
    ({"hand": "32AR.32A.3A.2A5", "play": "bogus"}, "play: 'bogus' is not a choice (use played, dd)"),
    ({"hand": "32AR.32A.3A.2A5", "play": "pimc"}, "play: 'pimc' is not a choice"),
    ({"hand": "32AR.32A.3A.2A5", "play": True}, "play: expected str, got bool"),
])
def test_advise_refuses_bad_input(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in refused(client.post("/api/advise", json=body))
    assert client.app.state.board.advice is None


# -- the request itself ---------------------------------------------------------------------

def test_bad_requests_are_4xx_one_liners(client: TestClient) -> None:
    post = lambda data, kind="application/json": client.post("/api/position", content=data, headers={"content-type": kind})  # noqa: E731
    assert "not JSON" in refused(post(b"{"))
    assert "not JSON" in refused(post(b"\xff\xfe"))
    assert "JSON object" in refused(post(b"[1, 2]"))
    assert "Content-Type" in refused(post(b"{}", "text/plain"), 415)
    assert "larger than" in refused(post(b" " * (MAX_BODY + 1)), 413)
    assert "Not Found" in refused(client.get("/api/nothing"), 404)
    assert "Method Not Allowed" in refused(client.get("/api/position"), 405)
    assert "Method Not Allowed" in refused(client.put("/api/advise", json={}), 405)


def test_deep_json_is_refused_not_crashed(client: TestClient) -> None:
    deep = b"[" * 30_000 + b"]" * 30_000
    assert "not JSON" in refused(client.post("/api/position", content=deep, headers={"content-type": "application/json"}))


def test_only_the_loopback_host_is_answered() -> None:
    with TestClient(create_app(read_deal_file(EXAMPLE))) as c:  # default hosts: 127.0.0.1, localhost
        assert c.get("/api/records").status_code == 400
        assert c.get("/api/records", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert c.get("/api/records", headers={"host": "evil.example:8000"}).status_code == 400


# -- the command ------------------------------------------------------------------------------

def test_board_command_serves_and_stops_on_ctrl_c() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "calasolve", "board", "--no-browser", EXAMPLE],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("calasolve board: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/records", timeout=10) as response:
            assert len(json.load(response)["records"]) == 6
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out.strip() == "calasolve board: stopped" and err == ""


def test_ctrl_c_during_a_search_stops_it_and_the_board_at_once() -> None:
    # a chiamo's exact search takes minutes on one process: Ctrl-C ends it, its request answers that the board
    # stops (not with the search's result, which the server would have waited for), and the board exits cleanly
    import threading

    from calasolve.game.cards import hand_name
    from calasolve.search.suites import random_suite

    deal = random_suite(2)[1]
    text = (f"hands: {' '.join(hand_name(h) for h in deal.hands)}\nmonte: {hand_name(deal.monte)}\n"
            f"contract: chiamo\nsoloist: {deal.soloist}\n")
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "board", "--no-browser", EXAMPLE],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    answers: list[tuple[int, str]] = []

    def ask(url: str) -> None:
        request = urllib.request.Request(url + "api/exchange", data=json.dumps({"deal": {"text": text}}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=600) as response:
                answers.append((response.status, response.read().decode()))
        except urllib.error.HTTPError as err:
            answers.append((err.code, err.read().decode()))

    try:
        url = proc.stdout.readline().split()[2]  # type: ignore[union-attr]
        asking = threading.Thread(target=ask, args=(url,))
        asking.start()
        while not children(proc.pid):  # the search's process is up
            assert proc.poll() is None and asking.is_alive()
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        asking.join(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and out.strip().endswith("calasolve board: stopped") and err == "", err
    assert answers and answers[0][0] == 503 and "the board is stopping" in answers[0][1], answers


@pytest.mark.parametrize("args, expected", [
    (["no-such.deal"], "no-such.deal: cannot read the file"),
    (["--port", "70000", EXAMPLE], "--port"),
    (["--host", "256.1.1.1", EXAMPLE], "--host 256.1.1.1"),
    (["--tt-mb", "0", EXAMPLE], "--tt-mb"),
])
def test_board_command_bad_input_is_one_line(args: list[str], expected: str) -> None:
    run = subprocess.run([sys.executable, "-m", "calasolve", "board", "--no-browser", *args],
                         capture_output=True, text=True, cwd=ROOT, timeout=60, env={**os.environ})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and expected in run.stderr and "Traceback" not in run.stderr


def test_random_requests_never_get_a_500(client: TestClient) -> None:
    import random

    rng = random.Random(20)
    atoms: list[Any] = [None, True, 0, 1, 7, -1, 2**70, 1.5, "", "3B", "AS 5S", "x", "1=3B", [], {}, ["3B"], [["AS"]],
                        {"1": "3B"}, {"0": 5}, SOLO_NO_EXCHANGE, BAD, "\x00", "\u2665"]

    def value(depth: int = 0) -> Any:
        if depth > 2 or rng.random() < 0.5:
            return rng.choice(atoms)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        keys = ["record", "text", "played", "exchange", "call", "return", "discards", "takes", "1", "2", "zz"]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randrange(4))}

    paths = ["/api/position", "/api/play", "/api/undo", "/api/analyse", "/api/exchange", "/api/check", "/api/advise"]
    for _ in range(400):
        fields = {k: value() for k in rng.sample(["played", "exchange"], rng.randrange(3))}
        deal = value() if rng.random() < 0.3 else {"record": rng.choice([1, 2, 6, 9]), **fields}
        body = {"deal": deal, "card": value(), "top": value(), "text": value(), "exchange": value()}
        if rng.random() < 0.5:
            body = {k: v for k, v in body.items() if rng.random() < 0.5}
        path = rng.choice(paths[:-1])
        response = client.post(path, json=body)
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code >= 400:
            refused(response, response.status_code)


def test_a_board_without_a_file_takes_pasted_records() -> None:
    with TestClient(create_app([], allowed_hosts=["testserver"])) as c:
        assert ok(c.get("/api/records")) == {"file": None, "records": [], "table_workers": os.cpu_count() or 1}
        assert "it has 0" in refused(c.post("/api/position", json={"deal": {"record": 1}}))
        view = ok(c.post("/api/position", json={"deal": {"text": BAD.replace("RC7\n", "RC76\n")}}))
        assert view["record"]["where"] == "<pasted>:1" and view["to_move"] == 0


# -- the double-dummy table and par --------------------------------------------------

def test_table_entries_and_par_are_the_tables() -> None:
    from calasolve.table.ddtable import dd_table

    certain = str(ROOT / "examples" / "table.deal")
    table = dd_table(read_deal_file(certain)[0])
    with client_for(certain) as c:
        entries = []
        for entry in table.entries:
            got = ok(c.post("/api/table-entry", json={"deal": {"record": 1}, "soloist": entry.soloist,
                                                       "contract": entry.contract}))
            want = entry.to_dict()
            assert {k: v for k, v in got.items() if k not in ("nodes", "seconds", "cpu")} == \
                {k: v for k, v in want.items() if k not in ("nodes", "seconds", "cpu")}
            entries.append(got)
        found = ok(c.post("/api/par", json={"deal": {"record": 1}, "entries": entries}))
        assert found["par"] == {**table.par.to_dict(), "proven": True}
        assert found["text"] == table.par.text()
        # an early entry (its exchange search cut at once): not proven, and the par on it provisional
        early = ok(c.post("/api/table-entry", json={"deal": {"record": 1}, "soloist": 1, "contract": "chiamo",
                                                     "time_limit": 0.000001}))
        assert early["proven"] is False
        mixed = [early if (e["soloist"], e["contract"]) == (1, "chiamo") else e for e in entries]
        assert ok(c.post("/api/par", json={"deal": {"record": 1}, "entries": mixed}))["par"]["proven"] is False
        # the par follows the deal's rules: a pasted record under aggravations=bids
        text = (ROOT / "examples" / "table.deal").read_text() + "rules: aggravations=bids\n"
        bids = ok(c.post("/api/par", json={"deal": {"text": text}, "entries": entries}))
        assert (bids["par"]["bid"], bids["par"]["contract"]) == ("scegliete", "scegliete")


def test_table_requests_are_checked(client: TestClient) -> None:
    deal = {"record": 1}
    assert "soloist" in refused(client.post("/api/table-entry", json={"deal": deal, "contract": "solo"}))
    assert "out of range" in refused(client.post("/api/table-entry", json={"deal": deal, "soloist": 3, "contract": "solo"}))
    assert "not a contract" in refused(client.post("/api/table-entry", json={"deal": deal, "soloist": 0, "contract": "misere"}))
    for limit in (0, -1, 601):
        assert "time_limit" in refused(client.post("/api/table-entry", json={"deal": deal, "soloist": 0, "contract": "solo",
                                                                             "time_limit": limit}))
    assert "entries" in refused(client.post("/api/par", json={"deal": deal}))
    bad = [{"soloist": 0, "contract": "solo", "game_points": [1, 2]}]
    assert "three whole numbers" in refused(client.post("/api/par", json={"deal": deal, "entries": bad}))
    few = [{"soloist": 0, "contract": "solo", "game_points": [4, -2, -2]}]
    assert "no entry for seat" in refused(client.post("/api/par", json={"deal": deal, "entries": few}))


def test_exchange_with_a_time_limit_is_the_best_so_far(client: TestClient) -> None:
    text = SOLO_NO_EXCHANGE
    exact = ok(client.post("/api/exchange", json={"deal": {"text": text}}))
    assert exact["proven"] is True and exact["bound"] == exact["best"]["soloist_thirds"]
    quick = ok(client.post("/api/exchange", json={"deal": {"text": text}, "time_limit": 0.001}))
    assert quick["best"]["soloist_thirds"] <= exact["best"]["soloist_thirds"] <= quick["bound"]
    for bad in (0, -1, 601, "1"):
        message = refused(client.post("/api/exchange", json={"deal": {"text": text}, "time_limit": bad}))
        assert "time_limit" in message


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the first look has no second process")
def test_the_first_look_at_an_exchange_takes_every_core_and_the_exact_answer_one() -> None:
    # the board's first second is `solve --time-limit 1` on every core; its exact answer is `solve --jobs 1`'s
    from calasolve.board.jobs import QUESTIONS

    chiamo = parse_deal_text(SOLO_NO_EXCHANGE.replace("contract: solo", "contract: chiamo").replace("soloist: 1", "soloist: 0"))[0]
    solver = make_solver(8)
    first = QUESTIONS["exchange"](solver, chiamo, 10, 0.3)
    assert first.stats is not None and len(first.stats.cpu_chunks) == (os.cpu_count() or 1) - 1  # the workers' shares
    [small] = parse_deal_text(SOLO_NO_EXCHANGE)
    exact = QUESTIONS["exchange"](solver, small, 10)
    assert exact.proven and exact.stats is not None and exact.stats.cpu_chunks == []
    assert exact.exchange == best_exchange(small, solver=solver, top=10, jobs=1).exchange


# -- continue with PIMC ------------------------------------------------------------------

def pimc_played(record: Any, samples: int, seed: int) -> Any:
    """``play_out`` with a PIMC player per seat, as ``calasolve play --players pimc`` plays."""
    from calasolve.play.players import PimcPlayer, play_out

    solver = make_solver(8)
    return play_out(record, [PimcPlayer(samples, seed, solver) for _ in range(3)])


@pytest.mark.parametrize("record_index, cut, samples, seed", [
    (3, None, 5, 1),    # the record's own stop: trick 5, seat 0 to lead
    (1, 16, 4, 7),      # mid-trick, the other side to move
])
def test_pimc_is_play_out_from_the_position(played_client: TestClient, record_index: int, cut: int | None,
                                            samples: int, seed: int) -> None:
    record = read_deal_file(PLAYED)[record_index - 1]
    record = record.with_(played=record.played[:cut])
    start = len(record.played)
    deal = {"record": record_index, "played": [card_name(c) for c in record.played]}
    data = ok(played_client.post("/api/pimc", json={"deal": deal, "samples": samples, "seed": seed}))
    played = pimc_played(record, samples, seed)
    assert data["played"] == [card_name(c) for c in played.record.played] and len(data["played"]) == 36
    assert (data["start"], data["samples"], data["seed"], data["over"], data["to_move"]) == (start, samples, seed, True, None)
    # each card judged as `calasolve analyse` judges the whole played deal
    review = analyse(played.record, solver=make_solver(8), exchange=False).to_dict()["cards"][start:]
    assert data["cards"] == review
    assert data["result"] == played.record.state().result(record.contract, record.rules).to_dict()
    assert data["result"]["soloist_thirds"] == review[-1]["after"]
    best = solve(record, solver=make_solver(8))
    dd = data["double_dummy"]
    assert dd["soloist_thirds"] == best.soloist_thirds == review[0]["before"]
    assert dd["makes"] == (best.soloist_thirds >= 18)
    line = record.state()
    for token in dd["line"]:
        line.play(parse_card(token))
    assert line.is_over and dd["result"] == line.result(record.contract, record.rules).to_dict()
    assert dd["result"]["soloist_thirds"] == best.soloist_thirds


def test_pimc_card_by_card_is_the_same_line_and_reproducible(played_client: TestClient) -> None:
    deal = {"record": 1, "played": "AS 5S 7S 5B 6B 2B CB 3B 2D 2S 6S RS 3S CS 4C 4D 5D 7D AB FB".split()}
    body = {"deal": deal, "samples": 3, "seed": 11}
    whole = ok(played_client.post("/api/pimc", json=body))
    assert ok(played_client.post("/api/pimc", json=body)) == whole
    # as the page asks: one card at a time, each from where the last stopped, the double-dummy line once
    cards: list[dict[str, Any]] = []
    played = deal["played"]
    while True:
        step = ok(played_client.post("/api/pimc", json={**body, "deal": {**deal, "played": played}, "cards": 1,
                                                         "double_dummy": not cards}))
        assert len(step["cards"]) == 1 and step["start"] == len(played) and step["played"][:-1] == played
        assert (step["double_dummy"] == whole["double_dummy"]) if not cards else step["double_dummy"] is None
        cards += step["cards"]
        played = step["played"]
        if step["over"]:
            break
        assert step["result"] is None and step["to_move"] is not None
    assert played == whole["played"] and cards == whole["cards"] and step["result"] == whole["result"]
    other = ok(played_client.post("/api/pimc", json={**body, "seed": 12, "cards": 3}))
    assert len(other["cards"]) == 3 and other["double_dummy"] == whole["double_dummy"]


@pytest.mark.parametrize("body, expected", [
    ({"deal": {"record": 3}, "samples": 0}, "samples: 0 is out of range 1..1000"),
    ({"deal": {"record": 3}, "samples": 1001}, "samples: 1001 is out of range 1..1000"),
    ({"deal": {"record": 3}, "samples": "10"}, "samples: expected int, got str"),
    ({"deal": {"record": 3}, "seed": -1}, "seed: -1 is out of range"),
    ({"deal": {"record": 3}, "double_dummy": "yes"}, "double_dummy: expected bool, got str"),
    ({"deal": {"record": 3}, "seed": 1.5}, "seed: expected int, got float"),
    ({"deal": {"record": 3}, "cards": 0}, "cards: 0 is out of range 1..36"),
    ({"deal": {"record": 3}, "cards": True}, "cards: expected int, got bool"),
    ({"deal": {"record": 1}}, "pimc: the deal is over: no card is left to play"),
    ({"deal": {"record": 3, "played": ["RD", "RD"]}}, "deal.played: played card 2 (RD, trick 1)"),
    ({"deal": {"text": SOLO_NO_EXCHANGE}}, "deal.exchange: the record's exchange is incomplete"),
    ({}, "deal: expected an object"),
])
def test_pimc_refuses_bad_input(played_client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in refused(played_client.post("/api/pimc", json=body))


def test_a_pimc_run_nobody_waits_for_is_stopped() -> None:
    """The page moved on: the PIMC run's process is ended, and the next run answers as before."""
    from calasolve.board.jobs import SlowWorker
    from calasolve.game.errors import Abandoned

    record = read_deal_file(PLAYED)[2]

    async def scenario() -> None:
        worker = SlowWorker(16)
        try:
            first_lead = record.with_(played=())
            with pytest.raises(Abandoned):
                await worker.ask("pimc", (first_lead, 1000, 0, None), leaves_after(1.0))
            assert worker.pid is None and worker.abandoned == 1
            answer = await worker.ask("pimc", (record, 2, 5, None), stays)
            assert answer.played == pimc_played(record, 2, 5).record.played
        finally:
            worker.close()

    asyncio.run(scenario())


def test_pimc_plays_on_after_a_called_card_discarded(client: TestClient) -> None:
    """Issue #32: handed over, then discarded by the soloist, the called card must not be dealt to the soloist."""
    text = ("hands: 76.3F75.2ARC7.R 32AC5.R6.6.2C76 RF4.2AC4.3F.3A5\nmonte: -.-.54.F4\ncontract: chiamo\n"
            "soloist: 2\ncall: 7B\nreturn: 3C\ndiscards: 3D 4B 7B AS\n")
    played = "CC 6C 4C RC 5B 5C AC 6S FC 7C 6D 4S 2C CD 4D 3C RS 5D RD".split()
    data = ok(client.post("/api/pimc", json={"deal": {"text": text, "played": played}, "samples": 4, "seed": 1,
                                             "double_dummy": False}))
    assert data["over"] and len(data["played"]) == 36 and data["played"][:len(played)] == played


# -- advice for a seat's decision ------------------------------------------------------------


def test_seat_advice_of_a_pasted_view_is_advise_views(client: TestClient) -> None:
    from calasolve.seat.advice import advise_view
    from calasolve.types.view import View

    text = "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: chiamo pass\n"
    data = ok(client.post("/api/seat-advice", json={"text": text, "layouts": 6, "seed": 3}))
    view = View.from_dict(data["view"])
    expected = advise_view(view, layouts=6, seed=3).to_dict()
    got = data["advice"]
    expected.pop("seconds"), got.pop("seconds")
    assert got == expected and data["text"].startswith("view: 2")


def test_seat_advice_of_the_deal_shown(played_client: TestClient) -> None:
    """Four cards into the played record: the seat to play gets its card's advice, the others one line."""
    record = read_deal_file(PLAYED)[0]
    deal = {"record": 1, "played": [card_name(c) for c in record.played[:4]]}
    answers = [played_client.post("/api/seat-advice", json={"deal": deal, "seat": s, "layouts": 4}) for s in range(3)]
    to_move = record.with_(played=record.played[:4]).state().to_move
    assert answers[to_move].json()["advice"]["decision"] == "card"
    for s in range(3):
        if s != to_move:
            assert f"seat {to_move} is to play, not seat {s}" in refused(answers[s])


@pytest.mark.parametrize("body, expected", [
    ({"text": "hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\ncontract: solo\nsoloist: 0"},
     "paste one seat's view"),
    ({"text": "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: solo chiamo"}, "a bid must be higher than solo"),
    ({"deal": {"record": 1}}, "seat: the seat whose view to advise is missing"),
    ({"text": "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: pass", "layouts": 1}, "layouts: 1 is out of range"),
])
def test_seat_advice_refuses_bad_views(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in refused(client.post("/api/seat-advice", json=body))
