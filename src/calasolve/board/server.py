"""The board's web server: a Starlette app serving the page and its JSON API.

Every handler checks its request with :mod:`calasolve.board.views` and then
calls the Python API the command line uses (``Position``, ``analyse``,
``best_exchange``, ``run_advice``); it computes on the result objects and writes
their JSON (``to_dict``) only in its answer.  Solving runs on one worker thread per
solver, so that the server keeps answering and each solver's table stays
warm from one click to the next.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import threading
import webbrowser
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Awaitable, Callable, Sequence, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.responses import JSONResponse as _StarletteJSON
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..types.record import Record
from ..records.dealfile import parse_deal_text
from ..game.defaults import DEFAULT_TT_MB
from ..game.errors import Abandoned, BadRequest, CalasolveError
from ..game.limits import MAX_SEED
from ..env.actions import NUM_ACTIONS
from ..env.arena import random_deals
from ..env.game import GameState
from ..game.rules import STANDARD
from ..game.state import CONTRACTS
from ..seat.views import state_view
from ..types.view import format_view
from ..types.jsonout import dumps
from ..search.position import Position
from ..search.engines import make_solver
from .advice import ADVICE_PLAYS, MAX_SAMPLES, AdviceRun
from .game import DEFAULT_AGENT, DEFAULT_PACE, MAX_PACE, Games, TableGame, game_decisions, seat_agent
from .jobs import SlowPool, SlowWorker
from .views import PASTED, advice_view, deal_record, graph_of, position_view, record_summary, table_entries, want, want_int

T = TypeVar("T")

#: The part of the position's view that ``/api/values`` answers.
VALUE_KEYS = ("played", "to_move", "over", "value", "makes", "values", "best", "loss")

#: The largest request body accepted, in bytes (a pasted record is well under 1 KiB).
MAX_BODY = 65_536
#: The most deals per option a page may ask of a seat's advice.
MAX_SEAT_LAYOUTS = 2000
#: The longest time limit a page may set on an exchange search, in seconds.
MAX_TIME_LIMIT = 600
#: No page but our own may use the API or load anything from elsewhere.
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"


class JSONResponse(_StarletteJSON):
    """An answer in standard JSON: a number that does not exist is null (:mod:`calasolve.types.jsonout`)."""

    def render(self, content: Any) -> bytes:
        return dumps(content, compact=True).encode("utf-8")


def one_line(text: str) -> str:
    r"""An error kept on one line.

    >>> one_line("a\nb")
    'a\\nb'
    """
    return text.replace("\r", "\\r").replace("\n", "\\n")


def error_response(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest("the body must be JSON (Content-Type: application/json)", 415)
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise BadRequest(f"the body is larger than {MAX_BODY} bytes", 413)
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise BadRequest(f"the body is larger than {MAX_BODY} bytes", 413)
    try:
        body = json.loads(data)
    except (ValueError, RecursionError) as err:
        raise BadRequest(f"the body is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object, got {type(body).__name__}")
    return body


class Board:
    """The server's state: the FILE's records, the solvers' threads, the advice run."""

    def __init__(self, records: Sequence[Record], *, path: str | None = None, tt_mb: int = DEFAULT_TT_MB) -> None:
        self.records = list(records)
        self.path = path
        self.tt_mb = tt_mb
        # the values on one thread with its warm solver (a solver is not thread-safe); the
        # slow questions in a child process, stopped when the page stops waiting for them
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="board-values")
        self.slow = SlowWorker(tt_mb)
        self.table_workers = SlowPool(tt_mb, os.cpu_count() or 1)
        # made here, so that a table the machine cannot allocate fails at start, not at the first click
        self._solvers = {"quick": make_solver(tt_mb)}
        self.advice: AdviceRun | None = None
        self.advice_runs = 0
        self.games = Games()

    def solver(self, which: str) -> Any:
        """The warm solver of the values' thread ("quick"), used only on that thread."""
        return self._solvers[which]

    async def run(self, pool: ThreadPoolExecutor, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, fn)

    def close(self) -> None:
        if self.advice is not None:
            self.advice.cancel()
        self.quick.shutdown(wait=True, cancel_futures=True)
        self.slow.close()
        self.table_workers.close()
        self.games.close()

    # -- handlers ----------------------------------------------------------------
    async def list_records(self, request: Request) -> Response:
        return JSONResponse({"file": self.path, "records": [record_summary(r) for r in self.records],
                             "table_workers": len(self.table_workers.workers)})

    async def check(self, request: Request) -> Response:
        body = await read_json(request)
        text = want(body, "text", str)
        if text is None:
            raise BadRequest("text: the record to check is missing")
        found = parse_deal_text(text, path=PASTED)
        return JSONResponse({"records": [{**r.to_dict(), **record_summary(r)} for r in found]})

    def _view(self, record: Record, change: Callable[[Position], Any] | None = None) -> dict[str, Any]:
        position = Position.from_record(record, solver=self.solver("quick"))
        if change is not None:
            change(position)
        return position_view(record, position)

    async def position(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        return JSONResponse(await self.run(self.quick, lambda: self._view(record)))

    async def values(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        view = await self.run(self.quick, lambda: self._view(record))
        return JSONResponse({k: view[k] for k in VALUE_KEYS})

    async def play(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        card = want(body, "card", str)
        if card is None:
            raise BadRequest("card: the card to play is missing")
        return JSONResponse(await self.run(self.quick, lambda: self._view(record, lambda p: p.play(card))))

    async def undo(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        return JSONResponse(await self.run(self.quick, lambda: self._view(record, Position.undo)))

    async def analyse(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        judge = want(body, "exchange", bool, False)
        if not record.played:
            raise BadRequest("analyse: the record has no played cards to review")
        analysis = await self.slow.ask("analyse", (record, judge), _gone(request))
        return JSONResponse({"analysis": analysis.to_dict(), "graph": graph_of(analysis)})

    async def exchange(self, request: Request) -> Response:
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        top = want_int(body, "top", 1, 50, 10)
        found = await self.slow.ask("exchange", (record, top, _time_limit(body)), _gone(request))
        return JSONResponse(found.to_dict())

    async def table_entry(self, request: Request) -> Response:
        """One entry of the double-dummy table of the deal as dealt (``calasolve table``)."""
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        if "soloist" not in body:
            raise BadRequest("soloist: the seat playing the contract is missing")
        soloist = want_int(body, "soloist", 0, 2, 0)
        contract = want(body, "contract", str)
        if contract not in CONTRACTS:
            raise BadRequest(f"contract: {contract!r} is not a contract (use {', '.join(CONTRACTS)})")
        # an early entry: its search cut after `time_limit` s (`proven` false when cut), for a table filled at once
        entry = await self.table_workers.ask("table_entry", (record, soloist, contract, _time_limit(body)),
                                             _gone(request))
        return JSONResponse(entry.to_dict())

    async def pimc(self, request: Request) -> Response:
        """PIMC players on every seat play on from the position (docs/board.md), each card judged double dummy."""
        from .pimc import DEFAULT_BOARD_SAMPLES, MAX_BOARD_SAMPLES

        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        samples = want_int(body, "samples", 1, MAX_BOARD_SAMPLES, DEFAULT_BOARD_SAMPLES)
        seed = want_int(body, "seed", 0, MAX_SEED, 0)
        cards = want(body, "cards", int)
        if cards is not None and not 1 <= cards <= 36:
            raise BadRequest(f"cards: {cards} is out of range 1..36")
        judge = want(body, "double_dummy", bool, True)
        played = await self.slow.ask("pimc", (record, samples, seed, cards, judge), _gone(request))
        return JSONResponse(played.to_dict())

    async def seat_advice(self, request: Request) -> Response:
        """The advice for a seat's decision (docs/seat.md): a pasted view (``text``), or the view of ``seat`` of
        the deal shown (``deal``, at its played cards); ``include``: one more option's actions to value."""
        from ..records.dealfile import check_entries_text
        from ..types.view import View, format_view, seat_view

        body = await read_json(request)
        text = want(body, "text", str)
        if text is not None:
            entries, errors = check_entries_text(text, path=PASTED)
            if errors:
                raise BadRequest(str(errors[0]))
            if len(entries) != 1 or not isinstance(entries[0], View):
                raise BadRequest("text: paste one seat's view (a record with 'view: SEAT', docs/deal-format.md)")
            view = entries[0]
        else:
            record = deal_record(body.get("deal"), self.records)
            if "seat" not in body:
                raise BadRequest("seat: the seat whose view to advise is missing")
            view = seat_view(record, want_int(body, "seat", 0, 2, 0))
        layouts = want(body, "layouts", int)
        if layouts is not None and not 2 <= layouts <= MAX_SEAT_LAYOUTS:
            raise BadRequest(f"layouts: {layouts} is out of range 2..{MAX_SEAT_LAYOUTS}")
        seed = want_int(body, "seed", 0, MAX_SEED, 0)
        include = want(body, "include", list, [])
        if len(include) > 12 or not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS
                                        for a in include):
            raise BadRequest(f"include: expected the actions of one option (at most 12 ids in 0..{NUM_ACTIONS - 1})")
        advice = await self.slow.ask("seat", (view, layouts, seed, tuple(include)), _gone(request))
        return JSONResponse({"advice": advice.to_dict(), "view": view.to_dict(), "text": format_view(view)})

    # -- games against the agents (/play) ------------------------------------------------
    async def new_game(self, request: Request) -> Response:
        """A new deal against the agents: ``seat`` (the person's), ``seed`` (the cards, unless ``deal`` names a
        record to deal), ``agents`` (one spec for both other seats, or a list of two in seat order), ``pace``."""
        body = await read_json(request)
        seat = want_int(body, "seat", 0, 2, 0)
        seed = want_int(body, "seed", 0, MAX_SEED, 0) if "seed" in body else secrets.randbelow(MAX_SEED + 1)
        agents = want(body, "agents", (str, list), DEFAULT_AGENT)
        specs = [agents, agents] if isinstance(agents, str) else agents
        if len(specs) != 2 or not all(isinstance(a, str) for a in specs):
            raise BadRequest("agents: give one agent for both other seats, or a list of two")
        for spec in specs:
            seat_agent(spec)  # a bad spec is the request's one-line error, before any game starts
        pace = want(body, "pace", (int, float), DEFAULT_PACE)
        if not 0 <= pace <= MAX_PACE:
            raise BadRequest(f"pace: {pace} is out of range 0..{MAX_PACE} seconds")
        others = iter(specs)
        seats = [None if s == seat else next(others) for s in range(3)]
        if body.get("deal") is not None:
            record = deal_record(body["deal"], self.records)
            dealt, rules, source = record.hands, record.rules, record.name or record.where()
        else:
            dealt, rules, source = random_deals(1, seed)[0][0], STANDARD, f"seed {seed}"
        game = self.games.new(lambda gid: TableGame(gid, dealt, seat, seats, seed=seed, rules=rules,
                                                    pace=float(pace), source=source))
        return JSONResponse(game.view(), status_code=201)

    async def game(self, request: Request) -> Response:
        return JSONResponse(self.games.get(request.path_params["gid"]).view())

    async def game_act(self, request: Request) -> Response:
        game = self.games.get(request.path_params["gid"])
        body = await read_json(request)
        game.act(body)
        game.start()
        return JSONResponse(game.view())

    async def game_hint(self, request: Request) -> Response:
        """The seat's-view advice for the person's decision (docs/seat.md), kept with the game."""
        game = self.games.get(request.path_params["gid"])
        body = await read_json(request)
        layouts = want(body, "layouts", int)
        if layouts is not None and not 2 <= layouts <= MAX_SEAT_LAYOUTS:
            raise BadRequest(f"layouts: {layouts} is out of range 2..{MAX_SEAT_LAYOUTS}")
        with game.lock:
            at = len(game.check_turn().history)
            view = state_view(game.state, game.seat)
        if at not in game.hints or layouts is not None:
            advice = await self.slow.ask("seat", (view, layouts, 0), _gone(request))
            game.hints[at] = {"advice": advice.to_dict(), "text": format_view(view), "at": at}
        return JSONResponse(game.hints[at])

    async def game_duplicate(self, request: Request) -> Response:
        """The table agent (or ``agent``) plays the finished deal's cards from the person's seat."""
        game = self.games.get(request.path_params["gid"])
        body = await read_json(request)
        spec = seat_agent(want(body, "agent", str, DEFAULT_AGENT))
        self.games.duplicate(game, spec)
        return JSONResponse(game.view(), status_code=202)

    async def game_leave(self, request: Request) -> Response:
        self.games.drop(request.path_params["gid"])
        return JSONResponse({"left": request.path_params["gid"]})

    async def decisions(self, request: Request) -> Response:
        """Each decision ``seat`` took in the record (its auction, exchange and play), with its view; with
        ``game``, the hints that game showed, by decision."""
        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        if "seat" not in body:
            raise BadRequest("seat: the seat whose decisions to review is missing")
        seat = want_int(body, "seat", 0, 2, 0)
        found = await self.run(self.quick, lambda: game_decisions(GameState.from_record(record), seat))
        gid = want(body, "game", str)
        hints = self.games.get(gid).hints if gid is not None else {}
        for d in found:
            d["hint"] = hints.get(d["at"])
        return JSONResponse({"seat": seat, "decisions": found})

    async def par(self, request: Request) -> Response:
        """The par of a table whose 15 entries the page has (as /api/table-entry gave them)."""
        from ..table.ddtable import par_of

        body = await read_json(request)
        record = deal_record(body.get("deal"), self.records)
        entries = want(body, "entries", list)
        if entries is None:
            raise BadRequest("entries: the table's entries are missing")
        read = table_entries(entries, record.rules)
        found = par_of(read, record.rules)
        proven = all(e.proven for e in read)  # the par reads every entry: one early answer makes it provisional
        return JSONResponse({"par": {**found.to_dict(), "proven": proven}, "text": found.text()})

    async def advise(self, request: Request) -> Response:
        from ..advice.checks import parse_advice_hand
        from ..advice.settings import AdviceSettings

        body = await read_json(request)
        hand = want(body, "hand", str)
        if hand is None:
            raise BadRequest("hand: the 12-card hand is missing")
        mask = parse_advice_hand(hand)
        seat = want_int(body, "seat", 0, 2, 0)
        samples = want_int(body, "samples", 1, MAX_SAMPLES, 100)
        seed = want_int(body, "seed", 0, 2**63 - 1, 0)
        contracts = want(body, "contracts", list, list(CONTRACTS))
        for c in contracts:
            if c not in CONTRACTS:
                raise BadRequest(f"contracts: unknown contract {c!r} (use {', '.join(CONTRACTS)})")
        if not contracts:
            raise BadRequest("contracts: no contract to estimate")
        play = want(body, "play", str, "played")
        if play not in ADVICE_PLAYS:
            raise BadRequest(f"play: {play!r} is not a choice (use {', '.join(ADVICE_PLAYS)})")
        if self.advice is not None:
            self.advice.cancel()  # a new question replaces the old: runs never pile up
        settings = AdviceSettings(hand=mask, seat=seat, samples=samples, seed=seed, jobs=1,
                                  contracts=tuple(dict.fromkeys(contracts)), play=play)
        self.advice_runs += 1
        self.advice = AdviceRun(settings, self.advice_runs)
        return JSONResponse(advice_view(self.advice.asked()), status_code=202)

    async def advice_status(self, request: Request) -> Response:
        if self.advice is None:
            return JSONResponse({"state": "idle"})
        return JSONResponse(advice_view(self.advice.asked()))

    async def advice_cancel(self, request: Request) -> Response:
        """Cancel the run under way; with ``?run=N`` only if it is run N (a page that
        leaves cancels its own run, never one another page started since)."""
        if self.advice is None:
            return JSONResponse({"state": "idle"})
        run = request.query_params.get("run")
        if run is None or run == str(self.advice.run):
            self.advice.cancel()
        return JSONResponse(advice_view(self.advice.asked()))

    def stop_searches(self) -> None:
        """End the searches under way (the server is stopping): their requests answer at once."""
        self.slow.stop(closing=True)
        for worker in self.table_workers.workers:
            worker.stop(closing=True)

    def reap(self) -> None:
        """Stop an advice run that no page polls any more."""
        if self.advice is not None and self.advice.abandoned():
            self.advice.cancel()


def _time_limit(body: dict[str, Any]) -> float | None:
    """The request's ``time_limit`` (seconds, at most :data:`MAX_TIME_LIMIT`), or None."""
    limit = want(body, "time_limit", (int, float))
    if limit is not None and not 0 < limit <= MAX_TIME_LIMIT:
        raise BadRequest(f"time_limit: {limit} is out of range (0, {MAX_TIME_LIMIT}] seconds")
    return None if limit is None else float(limit)


def _gone(request: Request) -> Callable[[], Awaitable[None]]:
    """Returns once the client has closed the request (the page stopped waiting)."""

    async def wait() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    return wait


async def _error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        return error_response(str(exc.detail), exc.status_code)
    return error_response(str(exc), getattr(exc, "status", 400))


async def _abandoned(request: Request, exc: Exception) -> Response:
    return error_response("the page stopped waiting: the search was stopped", 499)  # nginx's "client closed request"


async def _crash(request: Request, exc: Exception) -> Response:
    # a bug of ours: the page still gets one line to show (the server logs the traceback)
    return error_response(f"internal error: {type(exc).__name__}: {exc}", 500)


class _Static(StaticFiles):
    """The page's files, with a policy that lets the page load nothing from elsewhere."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-cache"
        return response


def create_app(
    records: Sequence[Record] = (), *, path: str | None = None, tt_mb: int = DEFAULT_TT_MB, allowed_hosts: Sequence[str] | None = None
) -> Starlette:
    """The board app for ``records`` (the FILE's, read by the caller).  ``allowed_hosts``:
    the Host headers answered (default the loopback names), against DNS rebinding."""
    board = Board(records, path=path, tt_mb=tt_mb)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def reaper() -> None:
            while True:
                await asyncio.sleep(5)
                board.reap()

        task = asyncio.ensure_future(reaper())
        app.state.loop = asyncio.get_running_loop()
        try:
            yield
        finally:
            task.cancel()
            board.close()

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve_page(request: Request) -> Response:
            from importlib.resources import files

            path = files("calasolve.board") / "static" / name
            return FileResponse(str(path), headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})

        return serve_page

    routes = [
        Route("/", page("index.html")),
        Route("/play", page("play.html")),
        Route("/api/records", board.list_records),
        Route("/api/check", board.check, methods=["POST"]),
        Route("/api/position", board.position, methods=["POST"]),
        Route("/api/values", board.values, methods=["POST"]),
        Route("/api/play", board.play, methods=["POST"]),
        Route("/api/undo", board.undo, methods=["POST"]),
        Route("/api/analyse", board.analyse, methods=["POST"]),
        Route("/api/exchange", board.exchange, methods=["POST"]),
        Route("/api/table-entry", board.table_entry, methods=["POST"]),
        Route("/api/par", board.par, methods=["POST"]),
        Route("/api/seat-advice", board.seat_advice, methods=["POST"]),
        Route("/api/pimc", board.pimc, methods=["POST"]),
        Route("/api/game", board.new_game, methods=["POST"]),
        Route("/api/game/{gid}", board.game, methods=["GET"]),
        Route("/api/game/{gid}", board.game_leave, methods=["DELETE"]),
        Route("/api/game/{gid}/act", board.game_act, methods=["POST"]),
        Route("/api/game/{gid}/hint", board.game_hint, methods=["POST"]),
        Route("/api/game/{gid}/duplicate", board.game_duplicate, methods=["POST"]),
        Route("/api/decisions", board.decisions, methods=["POST"]),
        Route("/api/advise", board.advise, methods=["POST"]),
        Route("/api/advise", board.advice_status, methods=["GET"]),
        Route("/api/advise", board.advice_cancel, methods=["DELETE"]),
        Mount("/static", _Static(packages=[("calasolve.board", "static")])),
    ]
    hosts = list(allowed_hosts) if allowed_hosts is not None else ["127.0.0.1", "localhost"]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
        exception_handlers={CalasolveError: _error, HTTPException: _error, Abandoned: _abandoned, Exception: _crash},
        lifespan=lifespan,
    )
    app.state.board = board
    return app


def serve(
    records: Sequence[Record],
    *,
    path: str | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    tt_mb: int = DEFAULT_TT_MB,
    echo: Callable[[str], Any] = print,
) -> None:
    """Serve the board on ``host:port`` (0: a free port) until Ctrl-C; print the URL first."""
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections made as soon as the URL is printed wait for the server
    except (OSError, OverflowError) as err:
        sock.close()
        raise CalasolveError(f"--host {host} --port {port}: cannot listen there: {getattr(err, 'strerror', None) or err}") from None
    everywhere = host in ("0.0.0.0", "::", "")
    hosts = ["*"] if everywhere else list(dict.fromkeys([host, "127.0.0.1", "localhost"]))
    app = create_app(records, path=path, tt_mb=tt_mb, allowed_hosts=hosts)
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    board = app.state.board

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # Ctrl-C does not wait for a search under way (a chiamo's, a minute): stopped, its request ends at once
            loop = getattr(app.state, "loop", None)
            if loop is not None:
                loop.call_soon_threadsafe(board.stop_searches)
            super().handle_exit(sig, frame)

    # the backstop: a request still open after that is cancelled
    server = Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=10))
    echo(f"calasolve board: {url}  (Ctrl-C stops it)")
    if open_browser:
        threading.Timer(0.3, webbrowser.open, [url]).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn has shut down cleanly, then re-raises the Ctrl-C
        pass
    echo("calasolve board: stopped")
