"""Games against the agents through the board's API (docs/board.md#playing-a-deal): the rules enforced by the
server, nothing hidden sent before the end, hints, the review's decisions, leaving, and the practice duplicate."""

from __future__ import annotations

import random
import re
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest

pytest.importorskip("starlette", reason="the board needs the extra calasolve[board]")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

from calasolve.board.game import MAX_GAMES, TableGame  # noqa: E402
from calasolve.board.server import create_app  # noqa: E402
from calasolve.env.game import GameState  # noqa: E402
from calasolve.game.cards import card_name, cards_of, parse_card  # noqa: E402
from calasolve.records.dealfile import parse_deal_text, read_deal_file  # noqa: E402
from calasolve.seat.decision import decisions_taken  # noqa: E402
from hidden_cards import leaks, seen_tokens  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "example.deal")
#: deals (arena seed, deal 0) on which the learned agents of seats 1 and 2 pass whatever is bid before them
WEAK_OTHERS = (1, 8, 10)


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(read_deal_file(EXAMPLE), path=EXAMPLE, allowed_hosts=["testserver"])) as c:
        yield c


def refused(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return str(message)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("agents", "learned")
    body.setdefault("pace", 0)
    response = client.post("/api/game", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def wait_turn(client: TestClient, gid: str, timeout: float = 120) -> dict[str, Any]:
    """The game once it is the person's turn, the deal is over or an agent failed."""
    end = time.monotonic() + timeout
    while True:
        v = client.get(f"/api/game/{gid}").json()
        if v["decision"] or v["over"] or v["error"]:
            return dict(v)
        assert time.monotonic() < end, f"the agents did not finish: {v}"
        time.sleep(0.02)


def server_game(client: TestClient, gid: str) -> TableGame:
    return client.app.state.board.games.games[gid]  # type: ignore[attr-defined,no-any-return]


def play_out(client: TestClient, gid: str, choose: Callable[[dict[str, Any]], dict[str, Any]],
             watch: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    while True:
        v = wait_turn(client, gid)
        if watch is not None:
            watch(v)
        if v["over"] or v["error"]:
            return v
        response = client.post(f"/api/game/{gid}/act", json=choose(v))
        assert response.status_code == 200, response.text


def random_choice(rng: random.Random) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def choose(v: dict[str, Any]) -> dict[str, Any]:
        d = v["decision"]
        if d["kind"] in ("call", "declare"):
            return {"call": rng.choice(d["calls"])}
        if d["kind"] == "discards":
            return {"cards": rng.sample(d["cards"], d["count"])}
        if d["kind"] == "split":
            return {"takes": rng.sample(d["monte"], rng.randint(0, 4))}
        return {"card": rng.choice(d["cards"])}

    return choose


def bidding(contract: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The person bids ``contract`` (solissimo, then the declaration, for an aggravation), then plays at random."""
    rng = random.Random(0)
    rest = random_choice(rng)

    def choose(v: dict[str, Any]) -> dict[str, Any]:
        d = v["decision"]
        if d["kind"] == "call":
            return {"call": contract if contract in d["calls"] else "solissimo"}
        if d["kind"] == "declare":
            return {"call": contract}
        return rest(v)

    return choose


@pytest.mark.parametrize("contract", ["chiamo", "solo", "solissimo", "dividete", "scegliete"])
def test_a_whole_deal_in_every_contract_shows_nothing_hidden(client: TestClient, contract: str) -> None:
    v = new_game(client, seat=0, seed=WEAK_OTHERS[0])
    gid = v["id"]
    seen: list[tuple[int, set[str]]] = []
    final = play_out(client, gid, bidding(contract), lambda view: seen.append((view["history"], seen_tokens(view))))
    assert final["error"] is None and final["over"]
    assert (final["contract"], final["soloist"]) == (contract, 0)
    g = server_game(client, gid).state
    checked, leaked = leaks(g.history, 0, seen, g.rules)
    assert not leaked, f"the page was sent {leaked}"
    assert checked >= 12
    # the end: every hand and the record with its auction, which reads back to the same game
    assert final["hands"] and final["record"]
    [record] = parse_deal_text(final["record"])
    assert GameState.from_record(record).history == g.history
    assert sum(final["returns"]) == 0 and final["returns"] == list(g.returns())


def test_random_seeds_and_seats_play_to_the_end(client: TestClient) -> None:
    for seed in range(4):
        v = new_game(client, seat=seed % 3, seed=100 + seed)
        final = play_out(client, v["id"], random_choice(random.Random(seed)))
        assert final["over"] and final["error"] is None
        if not final["void"]:
            [record] = parse_deal_text(final["record"])
            assert record.auction == tuple(c for _, c in final["calls"])


def test_the_server_enforces_the_rules(client: TestClient) -> None:
    v = wait_turn(client, new_game(client, seat=0, seed=WEAK_OTHERS[1])["id"])
    gid = v["id"]
    assert v["decision"]["kind"] == "call"
    assert "illegal" in refused(client.post(f"/api/game/{gid}/act", json={"call": "illegal"}))
    v = client.post(f"/api/game/{gid}/act", json={"call": "solo"}).json()
    v = wait_turn(client, gid)
    assert v["decision"]["kind"] == "discards" and v["decision"]["count"] == 4
    hand = v["hand"]
    before = v["history"]
    assert "discards 4 cards, not 3" in refused(client.post(f"/api/game/{gid}/act", json={"cards": hand[:3]}))
    other = next(t for t in (card_name(c) for c in range(40)) if t not in hand)
    assert "does not hold" in refused(client.post(f"/api/game/{gid}/act", json={"cards": [*hand[:3], other]}))
    assert "given twice" in refused(client.post(f"/api/game/{gid}/act", json={"cards": [hand[0]] * 4}))
    assert "card" in refused(client.post(f"/api/game/{gid}/act", json={"card": hand[0]}))
    assert client.get(f"/api/game/{gid}").json()["history"] == before  # nothing changed
    ok = client.post(f"/api/game/{gid}/act", json={"cards": hand[:4]})
    assert ok.status_code == 200, ok.text
    v = wait_turn(client, gid)
    illegal = next((t for t in v["hand"] if t not in v["decision"]["cards"]), None)
    if illegal is not None:
        assert "must follow" in refused(client.post(f"/api/game/{gid}/act", json={"card": illegal}))
    assert "card" in refused(client.post(f"/api/game/{gid}/act", json={"card": "ZZ"}))
    final = play_out(client, gid, random_choice(random.Random(1)))
    assert "the deal is over" in refused(client.post(f"/api/game/{gid}/act", json={"card": "3B"}), 409)
    assert final["over"]


def test_the_agents_turns_are_not_the_persons(client: TestClient) -> None:
    v = new_game(client, seat=2, seed=5, pace=2)  # two agents speak first, with a pause after the first
    assert v["decision"] is None and v["to_act"] != 2
    message = refused(client.post(f"/api/game/{v['id']}/act", json={"call": "pass"}), 409)
    assert re.fullmatch(r"seat [01] is to act, not you \(seat 2\)", message)
    assert "not you" in refused(client.post(f"/api/game/{v['id']}/hint", json={}), 409)
    client.delete(f"/api/game/{v['id']}")


@pytest.mark.parametrize("body, expected", [
    ({"seat": 3}, "seat: 3 is out of range 0..2"),
    ({"agents": "nobody"}, "unknown agent 'nobody'"),
    ({"agents": "table:n=3"}, "unknown option 'n' of table"),
    ({"agents": ["learned", "dd"]}, "dd sees every hand"),
    ({"agents": ["learned"]}, "agents: give one agent for both other seats, or a list of two"),
    ({"pace": 9}, "pace: 9 is out of range"),
    ({"deal": {"record": 99}}, "deal.record: 99 is not a record of the file"),
    ({"deal": {"text": "hands: 3B"}}, "<pasted>"),
])
def test_bad_new_games_get_one_line_errors(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in refused(client.post("/api/game", json=body))


def test_unknown_games_and_leaving(client: TestClient) -> None:
    assert "no such game" in refused(client.get("/api/game/nope"), 404)
    gid = new_game(client, seat=1, seed=3, agents="table:layouts=8", pace=0.5)["id"]
    left = client.delete(f"/api/game/{gid}")
    assert left.status_code == 200
    assert "no such game" in refused(client.get(f"/api/game/{gid}"), 404)


def test_a_record_of_the_file_deals_its_cards(client: TestClient) -> None:
    [record] = read_deal_file(EXAMPLE)[:1]
    v = new_game(client, seat=2, deal={"record": 1}, pace=2)
    assert v["phase"] == "auction" and set(v["hand"]) == {card_name(c) for c in cards_of(record.hands[2])}
    assert server_game(client, v["id"]).dealt == record.hands
    assert v["source"] == (record.name or record.where())


def test_a_hint_is_the_seat_advice_and_is_kept(client: TestClient) -> None:
    gid = new_game(client, seat=0, seed=WEAK_OTHERS[2])["id"]
    v = wait_turn(client, gid)
    hint = client.post(f"/api/game/{gid}/hint", json={"layouts": 8})
    assert hint.status_code == 200, hint.text
    answer = hint.json()
    assert answer["at"] == v["history"] and answer["advice"]["decision"] == "call"
    assert {o["option"] for o in answer["advice"]["options"]} == set(v["decision"]["calls"])
    assert "view: 0" in answer["text"] and "?" in answer["text"]
    assert client.get(f"/api/game/{gid}").json()["hints"] == [v["history"]]
    client.post(f"/api/game/{gid}/act", json={"call": answer["advice"]["recommendation"]})
    final = play_out(client, gid, random_choice(random.Random(2)))
    if final["void"]:
        return
    decisions = client.post("/api/decisions", json={"deal": {"text": final["record"]}, "seat": 0, "game": gid}).json()
    first = decisions["decisions"][0]
    assert first["kind"] == "call" and first["hint"]["advice"] == answer["advice"]
    assert first["taken"] == answer["advice"]["recommendation"]
    assert all(d["hint"] is None for d in decisions["decisions"][1:])


def test_decisions_of_a_record_are_the_seats_own(client: TestClient) -> None:
    final = play_out(client, new_game(client, seat=1, seed=7)["id"], random_choice(random.Random(3)))
    if final["void"]:
        pytest.skip("everybody passed")
    [record] = parse_deal_text(final["record"])
    answer = client.post("/api/decisions", json={"deal": {"text": final["record"]}, "seat": 1}).json()
    taken = decisions_taken(GameState.from_record(record), 1)
    assert len(answer["decisions"]) == len(taken) >= 12
    assert [d["kind"] for d in answer["decisions"]].count("card") == 12
    for d in answer["decisions"]:
        assert d["text"].startswith("view: 1") and d["hint"] is None
    refused(client.post("/api/decisions", json={"deal": {"text": final["record"]}}))


def test_the_table_agent_plays_the_same_cards_from_your_seat(client: TestClient) -> None:
    gid = new_game(client, seat=2, seed=11)["id"]
    assert "finish it first" in refused(client.post(f"/api/game/{gid}/duplicate", json={}), 409)
    final = play_out(client, gid, random_choice(random.Random(4)))
    started = client.post(f"/api/game/{gid}/duplicate", json={"agent": "learned"})
    assert started.status_code == 202, started.text
    end = time.monotonic() + 120
    while (dup := client.get(f"/api/game/{gid}").json()["duplicate"])["state"] == "running":
        assert time.monotonic() < end
        time.sleep(0.05)
    assert dup["state"] == "done", dup
    if dup["record"]:
        [twin] = parse_deal_text(dup["record"])
        assert twin.hands == server_game(client, gid).dealt
    assert final["over"]


def test_old_games_make_room_for_new_ones(client: TestClient) -> None:
    board = client.app.state.board  # type: ignore[attr-defined]
    first = new_game(client, seat=0, seed=1)["id"]
    for seed in range(MAX_GAMES):
        new_game(client, seat=0, seed=seed)
    assert len(board.games.games) <= MAX_GAMES and first not in board.games.games


def test_cards_in_requests_are_checked(client: TestClient) -> None:
    gid = new_game(client, seat=0, seed=WEAK_OTHERS[0])["id"]
    wait_turn(client, gid)
    client.post(f"/api/game/{gid}/act", json={"call": "solissimo"})
    v = wait_turn(client, gid)
    assert v["decision"]["kind"] == "declare"
    client.post(f"/api/game/{gid}/act", json={"call": "solissimo"})
    v = wait_turn(client, gid)
    assert "expected a card token" in refused(client.post(f"/api/game/{gid}/act", json={"card": 3}))
    assert parse_card(v["decision"]["cards"][0]) >= 0


def test_everybody_passing_ends_a_void_deal(client: TestClient) -> None:
    gid = new_game(client, seat=0, seed=WEAK_OTHERS[0])["id"]
    wait_turn(client, gid)
    client.post(f"/api/game/{gid}/act", json={"call": "pass"})
    final = wait_turn(client, gid)
    assert final["over"] and final["void"] and final["returns"] == [0, 0, 0] and final["record"] is None
    assert "finish it first" not in client.post(f"/api/game/{gid}/duplicate", json={"agent": "learned"}).text


def test_the_review_values_the_persons_own_exchange(client: TestClient) -> None:
    gid = new_game(client, seat=0, seed=WEAK_OTHERS[1])["id"]
    wait_turn(client, gid)
    client.post(f"/api/game/{gid}/act", json={"call": "solo"})
    v = wait_turn(client, gid)
    own = v["hand"][-4:]  # the four lowest of the last suits: rarely a candidate of the advice
    client.post(f"/api/game/{gid}/act", json={"cards": own})
    final = play_out(client, gid, random_choice(random.Random(5)))
    decisions = client.post("/api/decisions", json={"deal": {"text": final["record"]}, "seat": 0}).json()["decisions"]
    discards = next(d for d in decisions if d["kind"] == "discards")
    assert sorted(parse_card(t) for t in own) == discards["actions"]
    body = {"text": discards["text"], "include": discards["actions"], "layouts": 8}
    advice = client.post("/api/seat-advice", json=body).json()["advice"]
    assert discards["taken"] in [o["option"] for o in advice["options"]]
    bad = {"text": discards["text"], "include": discards["actions"][:3], "layouts": 8}
    assert "the whole set of discards" in refused(client.post("/api/seat-advice", json=bad))
    assert "include" in refused(client.post("/api/seat-advice", json={"text": discards["text"], "include": [99]}))
