"""The game page's waits (issue #60): how soon an agent's card follows the person's, and how long a hint takes.

    python3 benchmarks/report_game.py [--games 12] [--first 500] [--agents table:layouts=32,cards=learned] [--hints 4]

Whole games through the board's API in this process (Starlette's test client, the server's own threads and child
process), with no pause between the agents' actions.  The person's seat (rotating) is played by the learned agent,
deciding on the server's state, so the games look like real ones.  For each of the person's cards: the seconds
from the request that plays it to the first agent card after it, read from the game as the server applies it (the
page then needs up to one poll, 0.25 s, to show it).  For each agent decision: its seconds, by kind (calls, the
exchange, cards; a set of discards is one decision).  Hints: the person asks one at each of its calls, at each
exchange decision and at ``--hints`` cards a game, with the defaults: the seconds per kind.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import time
import warnings
from collections import defaultdict
from typing import Any

from calasolve.board import game as board_game
from calasolve.board.game import DEFAULT_AGENT
from calasolve.board.server import create_app
from calasolve.env.actions import SPLIT_BASE, action_name
from calasolve.game.cards import cards_of
from calasolve.env.agents import LearnedAgent

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient


def _body(state: Any, actions: list[int]) -> dict[str, Any]:
    """The request that takes the learned agent's actions (its whole set of discards at once)."""
    phase = state.phase
    if phase in ("auction", "declare"):
        return {"call": action_name(actions[0])}
    if phase == "discard":
        return {"cards": [action_name(a) for a in actions]}
    if phase == "split":
        k = actions[0] - SPLIT_BASE
        return {"takes": [action_name(c) for i, c in enumerate(cards_of(state.monte)) if k >> i & 1]}
    return {"card": action_name(actions[0])}


def _kind(phase: str) -> str:
    return {"auction": "call", "declare": "call", "play": "card"}.get(phase, "exchange")


def _watch(game: Any, seat: int, seen: int, start: float) -> float | None:
    """Wait for the person's turn or the end; the seconds from ``start`` (the person's request) to the first
    action after the ``seen`` first ones, None if none came."""
    first = None
    while True:
        with game.lock:
            g = game.state
            h, done = len(g.history), g.is_terminal or (not game.running and g.current_player == seat)
        if h > seen and first is None:
            first = time.perf_counter() - start
        if done:
            return first
        time.sleep(0.0005)


class _Timed:
    """An agent whose every action is timed, by kind."""

    def __init__(self, agent: Any, times: dict[str, list[float]]) -> None:
        self.agent, self.times = agent, times

    def act(self, state: Any) -> int:
        t = time.perf_counter()
        action = int(self.agent.act(state))
        seat = state.current_player
        # the later discards of a set (and of chiamo's return) follow the decision already timed
        planned = state.phase == "discard" and (state.discards[seat] or (state.returned is not None and seat == state.soloist))
        if not planned:
            self.times[_kind(state.phase)].append(time.perf_counter() - t)
        return action


def run(args: argparse.Namespace) -> None:
    client = TestClient(create_app([], allowed_hosts=["testserver"]))
    agent_times: dict[str, list[float]] = defaultdict(list)
    follow: list[float] = []
    hints: dict[str, list[float]] = defaultdict(list)
    made = getattr(board_game, "make_table_agent")
    setattr(board_game, "make_table_agent", lambda *a, **k: _Timed(made(*a, **k), agent_times))
    with client:
        games = client.app.state.board.games  # type: ignore[attr-defined]
        for n in range(args.games):
            seat = n % 3
            start = time.perf_counter()
            gid = client.post("/api/game", json={"seat": seat, "seed": args.first + n, "agents": args.agents,
                                                 "pace": 0}).json()["id"]
            game = games.games[gid]
            person = LearnedAgent(seed=n)
            cards_hinted = 0
            _watch(game, seat, 36, start)
            while not game.state.is_terminal:
                assert game.error is None, game.error
                with game.lock:
                    state = game.state.clone()
                kind = _kind(state.phase)
                if kind != "card" or cards_hinted < args.hints:
                    cards_hinted += kind == "card"
                    t = time.perf_counter()
                    client.post(f"/api/game/{gid}/hint", json={})
                    hints[kind].append(time.perf_counter() - t)
                actions = [person.act(state)]
                trial = state.clone()
                trial.apply(actions[0])
                while state.phase == "discard" and trial.phase == "discard" and trial.current_player == seat:
                    actions.append(person.act(trial))
                    trial.apply(actions[-1])
                t = time.perf_counter()
                response = client.post(f"/api/game/{gid}/act", json=_body(state, actions))
                assert response.status_code == 200, response.text
                first = _watch(game, seat, len(trial.history), t)
                if kind == "card" and first is not None and not (trial.play and trial.play.to_move == seat):
                    follow.append(first)
            print(f"game {n + 1}: seat {seat}, {game.state.contract or 'void'}", flush=True)

    def line(name: str, xs: list[float]) -> str:
        if not xs:
            return f"{name}: none"
        return f"{name}: median {statistics.median(xs):.3f} s, max {max(xs):.3f} s ({len(xs)})"

    print(f"\nagents {args.agents}, {args.games} games")
    print(line("an agent's card after the person's card", follow))
    for kind in ("call", "exchange", "card"):
        print(line(f"agent {kind}", agent_times[kind]))
    for kind in ("call", "exchange", "card"):
        print(line(f"hint at a {kind}", hints[kind]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--first", type=int, default=500)
    parser.add_argument("--agents", default=DEFAULT_AGENT)
    parser.add_argument("--hints", type=int, default=4)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
