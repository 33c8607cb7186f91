"""Games against the agents on the board's ``/play`` page (docs/board.md#playing-a-deal).

A :class:`TableGame` is one deal: a :class:`~calasolve.env.game.GameState`, the person's seat and an
agent on each other seat.  The agents think on a thread of the server, one action at a time, with the
game unlocked while they do, so the page can always read the game, ask for a hint or leave.  What the
page is sent (:meth:`TableGame.view`) is what the person's seat knows: its hand, the calls, the exchange
and the cards as the environment's events show them to that seat; every hand only once the deal is over.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Callable, Sequence

from ..env.actions import PASS, bid_action, split_action
from ..env.agents import parse_agent
from ..env.game import DEAL_STEPS, GameState
from ..game.auction import PASS as PASS_CALL
from ..game.cards import Card, Mask, card_name, cards_of, display_order, hand_name, parse_card, popcount
from ..game.errors import BadRequest, CalasolveError, IllegalActionError
from ..game.rules import STANDARD, Rules
from ..game.sampling import rng_for
from ..game.state import CONTRACTS
from ..search.engines import make_solver
from ..seat.agent import make_table_agent
from ..seat.decision import KIND_OF_PHASE, decisions_taken, option_name
from ..seat.views import state_view
from ..types.record import format_record
from ..types.view import format_view

__all__ = ["DEFAULT_AGENT", "DEFAULT_PACE", "Games", "TableGame", "game_decisions", "seat_agent"]

#: The agent on the other seats unless the page picks another: the table agent as the arena measured it.
DEFAULT_AGENT = "table:layouts=32,cards=learned"
#: Seconds between two of the agents' actions, so a person sees each card land.
DEFAULT_PACE = 0.6
#: The longest pause a page may ask for, in seconds.
MAX_PACE = 5.0
#: The games the board keeps; a new one beyond that ends the one touched longest ago.
MAX_GAMES = 32
#: The agents' solver table per game, in MiB (the learned players' endgames are small).
GAME_TT_MB = 16


def seat_agent(spec: str) -> str:
    """``spec`` checked as an agent of a game: one that plays from its seat's view (not ``dd``, which sees every
    hand); a bad one is the request's one-line error."""
    make_table_agent(spec, seed=0)
    if parse_agent(spec)[0] == "dd":
        raise BadRequest(f"agent {spec!r}: dd sees every hand; a game's agents play from their own seat's view")
    return spec


def _tokens(mask: Mask) -> list[str]:
    return [card_name(c) for c in display_order(mask)]


def _card(value: Any, key: str) -> Card:
    if not isinstance(value, str):
        raise BadRequest(f"{key}: expected a card token like '3B', got {type(value).__name__}")
    try:
        return parse_card(value)
    except CalasolveError as err:
        raise BadRequest(f"{key}: {err}") from None


def _cards(body: dict[str, Any], key: str) -> Mask:
    value = body.get(key)
    if not isinstance(value, list):
        raise BadRequest(f"{key}: expected a list of card tokens")
    mask = 0
    for i, token in enumerate(value, 1):
        card = _card(token, f"{key} {i}")
        if mask >> card & 1:
            raise BadRequest(f"{key}: {card_name(card)} given twice")
        mask |= 1 << card
    return mask


def human_actions(g: GameState, body: dict[str, Any]) -> tuple[int, ...]:
    """The actions the person's request asks for at ``g``: ``call`` (a call or declaration), ``card`` (chiamo's
    call, the card returned, a card played), ``cards`` (the whole set of discards), ``takes`` (scegliete's split:
    the monte cards the first defender keeps).  Checked for legality by :meth:`TableGame.act`."""
    phase = g.phase
    if phase in ("auction", "declare"):
        call = body.get("call")
        if call == PASS_CALL and phase == "auction":
            return (PASS,)
        if call not in CONTRACTS:
            raise BadRequest(f"call: {call!r} is not a call (use pass, {', '.join(CONTRACTS)})")
        return (bid_action(call),)
    if phase in ("call", "return", "play"):
        return (_card(body.get("card"), "card"),)
    if phase == "discard":
        seat = g.current_player
        mask = _cards(body, "cards")
        need = g.to_discard[seat]
        if popcount(mask) != need:
            raise BadRequest(f"cards: seat {seat} discards {need} cards, not {popcount(mask)}")
        if mask & ~g.held(seat):
            raise BadRequest(f"cards: seat {seat} does not hold {' '.join(_tokens(mask & ~g.held(seat)))}")
        return tuple(cards_of(mask))  # ascending: the order the game takes a set in
    if phase == "split":
        mask = _cards(body, "takes")
        if mask & ~g.monte:
            raise BadRequest(f"takes: {' '.join(_tokens(mask & ~g.monte))} not in the monte ({hand_name(g.monte)})")
        return (split_action(g.monte, mask),)
    raise BadRequest(f"nothing to decide in the {phase} phase")


def _legal(g: GameState) -> dict[str, Any]:
    """The decision the person faces, as the page offers it."""
    phase, seat = g.phase, g.current_player
    kind = {"kind": KIND_OF_PHASE[phase]}
    if phase == "auction":
        return {**kind, "calls": list(g.auction.legal_calls())}
    if phase == "declare":
        return {**kind, "calls": ["solissimo", "dividete", "scegliete"]}
    if phase == "discard":
        return {**kind, "count": g.to_discard[seat], "cards": _tokens(g.held(seat))}
    if phase == "split":
        return {**kind, "monte": _tokens(g.monte)}
    return {**kind, "cards": _tokens(g.legal_bits())}  # chiamo's call, the card returned, a card played


def _play_view(g: GameState) -> dict[str, Any]:
    """The cards on the table, public to every seat: the tricks, the trick under way, tricks and thirds won."""
    play = g.play
    if play is None:
        return {"tricks": [], "trick": None, "won": [0, 0, 0], "thirds": [0, 0, 0]}
    tricks = [{"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner} for t in play.tricks]
    trick = {"leader": play.leader, "cards": [card_name(c) for c in play.trick]}
    return {"tricks": tricks, "trick": trick, "won": list(play.tricks_won), "thirds": list(play.captured)}


class TableGame:
    """One deal between a person on ``seat`` and agents (``specs``: an agent spec per seat, None for the person's)."""

    def __init__(self, gid: str, dealt: Sequence[Mask], seat: int, specs: Sequence[str | None], *, seed: int,
                 rules: Rules = STANDARD, pace: float = DEFAULT_PACE, source: str = "") -> None:
        self.id, self.seat, self.specs, self.seed, self.pace, self.source = gid, seat, list(specs), seed, pace, source
        self.state = GameState(rules)
        for hand in dealt:
            for card in cards_of(hand):
                self.state.apply(card)
        self.lock = threading.RLock()
        self.thinking: int | None = None  # the agent's seat while it decides
        self.running = False  # a thread is advancing the game
        self.closed = False
        self.error: str | None = None
        self.touched = time.monotonic()
        #: the hints shown, by the number of actions before the decision: the answer as sent
        self.hints: dict[int, dict[str, Any]] = {}
        #: the table agent's result from the person's seat on the same cards (practice duplicate)
        self.duplicate: dict[str, Any] | None = None
        self._agents: dict[int, Any] = {}
        self._solver: Any = None  # the agents' solver, made on their thread at their first action
        self._rng = rng_for(seed, 1)  # dividete's draw

    @property
    def dealt(self) -> tuple[Mask, Mask, Mask]:
        d = self.state.dealt
        return d[0], d[1], d[2]

    def _agent(self, seat: int, solver: Any) -> Any:
        if seat not in self._agents:
            spec = self.specs[seat]
            assert spec is not None
            self._agents[seat] = make_table_agent(spec, seed=(self.seed * 3 + seat) % 2**63, solver=solver)
        return self._agents[seat]

    # -- the person ----------------------------------------------------------------------
    def check_turn(self) -> GameState:
        """The game, when it is the person's turn; else a 409 saying whose it is."""
        g = self.state
        if g.is_terminal:
            raise BadRequest("the deal is over", 409)
        if self.running or g.current_player != self.seat:
            raise BadRequest(f"seat {g.current_player} is to act, not you (seat {self.seat})", 409)
        return g

    def act(self, body: dict[str, Any]) -> None:
        """Take the person's decision (:func:`human_actions`); an illegal one is a 400 and changes nothing."""
        with self.lock:
            g = self.check_turn()
            trial = g.clone()
            try:
                for action in human_actions(g, body):
                    trial.apply(action)
            except IllegalActionError as err:
                raise BadRequest(str(err)) from None
            self.state = trial
            self.touched = time.monotonic()

    # -- the agents ----------------------------------------------------------------------
    def start(self) -> None:
        """Let the agents act until it is the person's turn or the deal is over, on a thread of their own (a daemon:
        a deal under way never holds up the server's exit)."""
        with self.lock:
            g = self.state
            if self.running or self.closed or g.is_terminal or (not g.is_chance and g.current_player == self.seat):
                return
            self.running = True
        threading.Thread(target=self._advance, name=f"board-game-{self.id}", daemon=True).start()

    def _advance(self) -> None:
        try:
            while True:
                with self.lock:
                    g = self.state
                    if self.closed or g.is_terminal or (not g.is_chance and g.current_player == self.seat):
                        return
                    if g.is_chance:
                        g.sample_chance(self._rng)
                        continue
                    seat = self.thinking = g.current_player
                    snapshot = g.clone()
                self._solver = self._solver or make_solver(GAME_TT_MB)
                action = self._agent(seat, self._solver).act(snapshot)  # unlocked: the page reads the game meanwhile
                with self.lock:
                    if self.closed:
                        return
                    self.state.apply(action)
                    self.thinking = None
                    wait = not self.state.is_terminal and self.state.current_player != self.seat
                if wait and self.pace:
                    time.sleep(self.pace)
        except Exception as err:  # an agent's failure ends its game with one line for the page, not the server
            self.error = f"seat {self.thinking} ({self.specs[self.thinking or 0]}): {type(err).__name__}: {err}"
        finally:
            with self.lock:
                self.running = False
                self.thinking = None

    def close(self) -> None:
        with self.lock:
            self.closed = True

    # -- what the page sees --------------------------------------------------------------
    def record_text(self) -> str | None:
        """The finished deal as a deal-file record (its auction, exchange and cards), None when all passed."""
        g = self.state
        if not g.is_terminal or g.void:
            return None
        return format_record(g.record())

    def view(self) -> dict[str, Any]:
        """What the person's seat knows now, as the page draws it (see the module doc)."""
        with self.lock:
            g, seat = self.state, self.seat
            over = g.is_terminal
            seen = state_view(g, seat)
            out: dict[str, Any] = {
                "id": self.id, "seat": seat, "agents": self.specs, "seed": self.seed, "source": self.source,
                "phase": g.phase, "to_act": None if over else g.current_player, "thinking": self.thinking,
                "error": self.error, "over": over, "bid": g.bid, "contract": g.contract, "soloist": g.soloist,
                "calls": [[s, c] for s, c in g.auction.calls],
                "hand": _tokens(g.held(seat)), "held": [popcount(g.held(s)) for s in range(3)],
                "monte": None if seen.monte is None else _tokens(seen.monte),
                "log": [t for t in (e.as_seen_by(seat) for e in g.events[DEAL_STEPS:]) if t],
                "hints": sorted(self.hints), "history": len(g.history),
                **_play_view(g),
            }
            mine = not over and not self.running and g.current_player == seat
            out["decision"] = _legal(g) if mine else None
            if over:
                out.update(hands=[_tokens(h) for h in g.dealt], monte_dealt=_tokens(g.monte), void=g.void,
                           returns=list(g.returns()), result=None if g.result is None else g.result.to_dict(),
                           record=self.record_text(), duplicate=self.duplicate)
            return out


class Games:
    """The board's games by id."""

    def __init__(self) -> None:
        self.games: dict[str, TableGame] = {}
        self.lock = threading.Lock()

    def new(self, make: Callable[[str], TableGame]) -> TableGame:
        with self.lock:
            if len(self.games) >= MAX_GAMES:
                oldest = min(self.games.values(), key=lambda game: game.touched)
                self.drop(oldest.id)
            game = make(secrets.token_hex(8))
            self.games[game.id] = game
        game.start()
        return game

    def get(self, gid: str) -> TableGame:
        game = self.games.get(gid)
        if game is None:
            raise BadRequest(f"game {gid!r}: no such game (finished games are kept until {MAX_GAMES} newer ones)", 404)
        game.touched = time.monotonic()
        return game

    def drop(self, gid: str) -> None:
        game = self.games.pop(gid, None)
        if game is not None:
            game.close()

    def close(self) -> None:
        for game in list(self.games.values()):
            game.close()

    def duplicate(self, game: TableGame, spec: str) -> None:
        """Play ``game``'s cards again with the agent ``spec`` on the person's seat and the same opponents (same
        seeds), on the pool; the result lands in ``game.duplicate``."""
        with game.lock:
            if not game.state.is_terminal:
                raise BadRequest("the deal is not over: finish it first", 409)
            if game.duplicate is not None and game.duplicate["state"] != "error":
                return
            game.duplicate = {"state": "running", "agent": spec}
        specs = [spec if s == game.seat else game.specs[s] for s in range(3)]
        twin = TableGame("", game.dealt, seat=-1, specs=specs, seed=game.seed, rules=game.state.rules, pace=0)

        def run() -> None:
            twin.running = True
            twin._advance()
            g = twin.state
            if twin.error is not None or not g.is_terminal:
                game.duplicate = {"state": "error", "agent": spec, "error": twin.error or "stopped"}
                return
            game.duplicate = {"state": "done", "agent": spec, "points": g.returns()[game.seat], "contract": g.contract,
                              "soloist": g.soloist, "record": twin.record_text(),
                              "calls": [[s, c] for s, c in g.auction.calls]}

        threading.Thread(target=run, name=f"board-duplicate-{game.id}", daemon=True).start()


def game_decisions(g: GameState, seat: int) -> list[dict[str, Any]]:
    """Each decision ``seat`` took in ``g``: where it stood (``at``: the actions before it), its kind, what the
    seat chose (named as the advice names options) and the seat's view there, as deal-file text."""
    out = []
    for before, actions in decisions_taken(g, seat):
        out.append({"at": len(before.history), "kind": KIND_OF_PHASE[before.phase], "taken": option_name(before, actions),
                    "actions": list(actions), "text": format_view(state_view(before, seat)),
                    "trick": None if before.play is None else len(before.play.tricks) + 1})
    return out
