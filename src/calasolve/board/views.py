"""The board's request checking and JSON views, without the web server.

A request names a deal (a record of the board's FILE by number, or a pasted
record's text), optionally the exchange to apply and the cards played from
the first lead.  :func:`deal_record` turns that into a checked
:class:`~calasolve.types.record.Record` through the deal-file reader's own
validation; :func:`position_view` is what the page draws.

>>> from calasolve.records.dealfile import parse_deal_text
>>> text = '''
... hands: 32AR.32A.32A.32 7654.765.765.76 CF.RCF4.RCF4.RC
... monte: -.-.-.AF54
... contract: solissimo
... soloist: 0
... '''
>>> rec = deal_record({"text": text, "played": ["3B"]}, [])
>>> [card_name(c) for c in rec.played]
['3B']
>>> deal_record({"record": 2}, [rec])
Traceback (most recent call last):
...
calasolve.game.errors.BadRequest: deal.record: 2 is not a record of the file (it has 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..game.cards import (
    MAKE_THIRDS,
    SUITS,
    Card,
    Mask,
    card_name,
    display_order,
    hand_name,
    mask_thirds,
    parse_card,
    suit_of,
)
from ..types.record import Record
from ..records.dealfile import parse_deal_text
from ..game.errors import BadRequest, CalasolveError, DealFileError, ExchangeError
from ..game.exchange import Exchange
from ..game.rules import Rules
from ..game.state import CONTRACTS
from ..game.notation import exchange_text
from ..search.position import Position

if TYPE_CHECKING:
    from ..types.analysis import Analysis
    from ..types.table import TableEntry
    from .advice import AdviceRun

__all__ = ["deal_record", "position_view", "record_summary", "parse_played", "graph_of", "table_entries", "advice_view"]

#: The name a pasted record goes by in its errors, as ``<stdin>`` for the CLI.
PASTED = "<pasted>"
#: The most text a pasted record may hold (a record is a few hundred bytes).
MAX_TEXT = 16_384


# -- request fields ------------------------------------------------------------

def want(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None, *, where: str = "") -> Any:
    """``body[key]`` if it has type ``kind`` (bools are not ints), ``default`` if absent.

    >>> want({"n": 3}, "n", int)
    3
    >>> want({"n": True}, "n", int)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.BadRequest: n: expected int, got bool
    """
    name = f"{where}{key}"
    if key not in body or body[key] is None:
        return default
    value = body[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        expected = " or ".join(k.__name__ for k in kinds)
        raise BadRequest(f"{name}: expected {expected}, got {type(value).__name__}")
    return value


def want_int(body: Mapping[str, Any], key: str, low: int, high: int, default: int, *, where: str = "") -> int:
    """An int field within ``low..high``.

    >>> want_int({"top": 0}, "top", 1, 50, 10)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.BadRequest: top: 0 is out of range 1..50
    """
    value = want(body, key, int, default, where=where)
    if not low <= value <= high:
        raise BadRequest(f"{where}{key}: {value} is out of range {low}..{high}")
    return int(value)


def parse_played(value: Any) -> tuple[Card, ...]:
    """The ``played`` field: a list of card tokens (or one string of them).

    >>> [card_name(c) for c in parse_played(["3b", "AS"])]
    ['3B', 'AS']
    >>> parse_played(["3B", 7])
    Traceback (most recent call last):
    ...
    calasolve.game.errors.BadRequest: played card 2: expected a card token, got int
    """
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise BadRequest(f"played: expected a list of card tokens, got {type(value).__name__}")
    if len(value) > 36:
        raise BadRequest(f"played: {len(value)} cards, but a deal has only 36 (12 tricks of 3)")
    cards = []
    for i, token in enumerate(value, 1):
        if not isinstance(token, str):
            raise BadRequest(f"played card {i}: expected a card token, got {type(token).__name__}")
        try:
            cards.append(parse_card(token))
        except CalasolveError as err:
            raise BadRequest(f"played card {i}: {err}") from None
    return tuple(cards)


def deal_record(body: Any, records: Sequence[Record]) -> Record:
    """The record a request's ``deal`` object names, with its exchange and played cards.

    ``{"record": N}`` is the board FILE's record N (from 1); ``{"text": "..."}``
    a pasted record, read by the deal-file reader.  ``exchange`` replaces the
    record's exchange and ``played`` its played cards; the record checks both,
    as it checks a deal file's lines.
    """
    if not isinstance(body, dict):
        raise BadRequest(f"deal: expected an object, got {type(body).__name__}")
    number = want(body, "record", int, where="deal.")
    text = want(body, "text", str, where="deal.")
    if (number is None) == (text is None):
        raise BadRequest("deal: give either 'record' (a record of the file) or 'text' (a pasted record)")
    if number is not None:
        if not 1 <= number <= len(records):
            raise BadRequest(f"deal.record: {number} is not a record of the file (it has {len(records)})")
        record: Record = records[number - 1]
    else:
        record = parse_one(text)
    try:
        exchange = None if body.get("exchange") is None else Exchange.from_dict(body["exchange"])
    except ExchangeError as err:
        raise BadRequest(str(err)) from None
    played = parse_played(body["played"]) if "played" in body else None
    own_play = record.played
    # the record checks the request's fields; the error names the field, not a line of the file
    if exchange is not None:
        try:
            record = record.with_(exchange=exchange, played=())
        except DealFileError as err:
            raise BadRequest(f"deal.exchange: {err.message}") from None
        if played is None:
            played = own_play
    if played is not None:
        try:
            record = record.with_(played=played)
        except DealFileError as err:
            raise BadRequest(f"deal.played: {err.message}") from None
    return record


def parse_one(text: str) -> Record:
    """A pasted record: exactly one, read as ``calasolve check`` reads a file."""
    if len(text) > MAX_TEXT:
        raise BadRequest(f"{PASTED}: {len(text)} characters; a pasted record may hold at most {MAX_TEXT}", 413)
    found = parse_deal_text(text, path=PASTED)
    if len(found) != 1:
        raise BadRequest(f"{PASTED}: {len(found)} records; paste one record at a time")
    return found[0]


# -- views -----------------------------------------------------------------------

def hand_view(mask: Mask) -> dict[str, list[str]]:
    """A hand by suit, ranks high to low (card tokens).

    >>> from calasolve.game.cards import parse_cards_or_hand
    >>> hand_view(parse_cards_or_hand("3F5.-.2.-"))
    {'B': ['3B', 'FB', '5B'], 'S': [], 'C': ['2C'], 'D': []}
    """
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for card in display_order(mask):
        out[SUITS[suit_of(card)]].append(card_name(card))
    return out


def record_summary(record: Record) -> dict[str, Any]:
    """What the record list shows and the page needs to ask about a record."""
    return {
        "index": record.index,
        "name": record.name,
        "where": record.where(),
        "contract": record.contract,
        "soloist": record.soloist,
        "played": [card_name(c) for c in record.played],
        "needs_exchange": record.needs_exchange,
    }


def position_view(record: Record, position: Position) -> dict[str, Any]:
    """Everything the table shows for ``position`` (reached from ``record``'s first lead).

    ``values`` are the legal cards' double-dummy values for the player to move
    (the soloist's final thirds, as ``calasolve solve`` gives them), ``best``
    the cards that reach ``value``; ``loss`` what every other card gives away.
    """
    st = position.state
    values = position.values().tokens()
    to_move = position.to_move
    value = position.value()
    best: list[str] = [c for c, v in values.items() if v == value]
    seats = []
    for seat in range(3):
        seats.append({
            "seat": seat,
            "role": "soloist" if seat == st.soloist else "defender",
            "hand": hand_view(st.hands[seat]),
            "hand_text": hand_name(st.hands[seat]),
            "hand_thirds": mask_thirds(st.hands[seat]),
            "captured": st.captured[seat],
            "tricks_won": st.tricks_won[seat],
        })
    last = st.tricks[-1] if st.tricks else None
    soloist_thirds, defender_thirds = st.side_thirds()
    return {
        # the record as the file has it; the cards played so far are "played" below
        "record": {k: v for k, v in record_summary(record).items() if k != "played"},
        "first_leader": record.first_leader,
        "rules": record.rules.describe(),
        "dealt": [hand_name(h) for h in record.hands],
        "monte": hand_name(record.monte),
        "monte_cards": [card_name(c) for c in display_order(record.monte)],
        "monte_thirds": mask_thirds(record.monte),
        "exchange": record.exchange.to_dict(),
        "exchange_text": exchange_text(record.exchange, record.contract, record.soloist, record.hands, record.monte),
        "seats": seats,
        "played": [card_name(c) for c in st.history],
        "trick": {"leader": st.leader, "cards": [card_name(c) for c in st.trick]},
        "last_trick": None if last is None else {
            "leader": last.leader, "cards": [card_name(c) for c in last.cards], "winner": last.winner, "thirds": last.thirds,
        },
        "tricks_played": len(st.tricks),
        "to_move": to_move,
        "over": st.is_over,
        "sides": {"soloist": soloist_thirds, "defenders": defender_thirds},
        "value": value,
        "makes": value >= MAKE_THIRDS,
        "values": values,
        "best": best,
        "loss": {c: abs(v - value) for c, v in values.items()},
        "legal": [card_name(c) for c in position.legal_cards()],
        "result": st.result(record.contract, record.rules).to_dict() if st.is_over and st.total_tricks == 12 else None,
    }


def graph_of(analysis: Analysis) -> dict[str, Any]:
    """The evaluation graph of an analysis: the soloist's double-dummy thirds at the first lead
    and after every card, and the mistakes (the cards that cost).

    >>> from calasolve.deals.analysis import Analysis, CardReview
    >>> from calasolve.game.cards import parse_card
    >>> card = CardReview(0, 1, 0, True, parse_card("AS"), 20, 17, 3, (parse_card("3S"),), {})
    >>> g = graph_of(Analysis("solo", 0, None, None, 20, (card,), False, None, 17, None, 0.0))
    >>> g["points"], g["mistakes"][0]["cost"]
    ([20, 17], 3)
    """
    cards = [r.to_dict() for r in analysis.reviews]
    return {
        "points": [analysis.start_value] + [c["after"] for c in cards],
        "mistakes": [
            {k: c[k] for k in ("index", "trick", "seat", "role", "card", "cost", "best", "before", "after", "swing")}
            for c in cards if c["cost"]
        ],
        "make": MAKE_THIRDS,
    }


def advice_view(run: AdviceRun) -> dict[str, Any]:
    """The JSON the page polls of an advice run: ``state`` is running, done, error or cancelled; the
    result's JSON once done, the error's one line if it failed."""
    settings = run.settings
    return {
        "run": run.run,
        "state": run.state,
        "done": run.done,
        "total": run.total,
        "hand": hand_name(settings.hand),
        "seat": settings.seat,
        "play": settings.play,
        "result": None if run.result is None else run.result.to_dict(),
        "error": None if run.error is None else str(run.error),
    }


def table_entries(entries: list[Any], rules: Rules) -> list[TableEntry]:
    """The table's entries as the page sends them back (as /api/table-entry gave them), rebuilt:
    each checked for what the par reads (seat, contract, game points), the table for every entry
    the par needs, then each read whole (:meth:`TableEntry.from_dict`).

    >>> from calasolve.game.rules import STANDARD
    >>> table_entries([{"soloist": 0, "contract": "solo", "game_points": [4, -2]}], STANDARD)
    Traceback (most recent call last):
    ...
    calasolve.game.errors.BadRequest: entries[0].game_points: expected three whole numbers
    """
    from ..types.table import TableEntry  # on first use, as the handlers import the searches
    from ..table.par import check_table

    keys = []
    for i, entry in enumerate(entries):
        where = f"entries[{i}]."
        if not isinstance(entry, dict):
            raise BadRequest(f"entries[{i}]: expected an object, got {type(entry).__name__}")
        soloist = want_int(entry, "soloist", 0, 2, -1, where=where) if "soloist" in entry else None
        contract = want(entry, "contract", str, where=where)
        if soloist is None or contract not in CONTRACTS:
            raise BadRequest(f"{where[:-1]}: needs a soloist (0-2) and a contract ({', '.join(CONTRACTS)})")
        for d in want(entry, "draws", list, [entry], where=where):
            points = d.get("game_points") if isinstance(d, dict) else None
            if not (isinstance(points, list) and len(points) == 3 and all(type(p) is int for p in points)):
                raise BadRequest(f"{where}game_points: expected three whole numbers")
        keys.append((soloist, contract))
    check_table(keys, rules)
    out = []
    for i, entry in enumerate(entries):
        try:
            out.append(TableEntry.from_dict(entry))
        except (KeyError, TypeError, ValueError, CalasolveError) as err:
            raise BadRequest(f"entries[{i}]: not an entry as /api/table-entry gives it ({type(err).__name__}: {err})") from None
    return out
