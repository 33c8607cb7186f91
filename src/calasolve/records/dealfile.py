"""The deal file (docs/deal-format.md, "Deal file reference") and its exchange fields: parse and check.

A file holds records separated by blank lines; each line of a record is
``key: value`` and ``#`` starts a comment.  Every problem is a
:class:`~calasolve.game.errors.DealFileError` naming the file and the line of the
offending field (the first line of the record for a missing one).

>>> text = '''
... name: demo   # a comment
... hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76
... monte: R4.-.3F.-
... contract: solissimo
... soloist: 0
... played: 3s 5s
... '''
>>> [rec] = parse_deal_text(text)
>>> rec.first_leader, rec.state().to_move
(0, 2)
>>> print(rec)                             # its text: calasolve.types.record.format_record
name: demo
hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76
monte: R4.-.3F.-
contract: solissimo
soloist: 0
played: 3S 5S
>>> parse_deal_text("hands: 3F5.32AF4.2.3F4", path="x.deal")
Traceback (most recent call last):
...
calasolve.game.errors.DealFileError: x.deal:1: record has no 'monte' line (required: hands, monte, contract, soloist)
"""

from __future__ import annotations

import os
import re
from typing import Mapping, NoReturn

from ..game.cards import (
    Card,
    Mask,
    parse_cards,
    parse_cards_or_hand,
    parse_hand,
)
from ..game.auction import Auction
from ..game.errors import CalasolveError, DealFileError, ParameterError
from ..game.exchange import Exchange
from ..game.state import DEFENDER_EXCHANGE, Contract, defender_seats, parse_contract
from ..game.rules import STANDARD, Rules
from ..types.record import KEYS, Record
from ..types.view import MONTE, View

__all__ = ["parse_deal_text", "read_deal_file", "check_deal_text", "check_deal_file", "check_deal_bytes", "parse_deal_bytes",
           "check_entries_text", "check_entries_bytes", "check_entries_file", "read_entries", "REQUIRED_KEYS",
           "VIEW_KEYS", "Entry"]

REQUIRED_KEYS = ("hands", "monte", "contract", "soloist")
#: Keys of a seat's view only (docs/deal-format.md, "Views").
VIEW_KEYS = ("view",)
_ALL_KEYS = KEYS + VIEW_KEYS
#: What a deal file holds: whole deals and seats' views.
Entry = Record | View
_SEATS = {"0": 0, "1": 1, "2": 2}


class _Bad(Exception):
    """A problem with one key of a record; turned into a DealFileError at that key's line."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def _bad(key: str | None, message: str) -> NoReturn:
    raise _Bad(key, message)


# -- checks ------------------------------------------------------------------


# -- parsing -----------------------------------------------------------------

def _lines(text: str) -> list[str]:
    r"""The lines of a deal file.  A line ends at ``\n``, ``\r\n`` or ``\r`` only:
    ``str.splitlines`` would also break at a form feed, U+2028 and the like,
    and the line numbers of the errors would no longer match an editor's.

    >>> _lines("a\r\nb\rc\f d\u2028e\n")
    ['a', 'b', 'c\x0c d\u2028e', '']
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


#: Keys that open a record: repeated in one block, they most likely start a second record.
_STARTS_RECORD = ("name", "hands", "view")


def _split_records(
    text: str, path: str, errors: list[DealFileError] | None = None
) -> list[list[tuple[int, str, str]]]:
    """The records of ``text`` as lists of ``(line, key, value)``.  With ``errors``,
    a bad line is added to it and skipped instead of raised, so that every
    line is checked; a repeated key that every record has starts a new record."""
    records: list[list[tuple[int, str, str]]] = []
    current: list[tuple[int, str, str]] = []
    spoiled = False  # the current block has a bad line: its record is not checked further

    def fail(message: str, number: int) -> None:
        nonlocal spoiled
        err = DealFileError(message, path=path, line=number)
        if errors is None:
            raise err
        errors.append(err)
        spoiled = True

    def close() -> None:
        nonlocal current, spoiled
        if current and not spoiled:
            records.append(current)
        current, spoiled = [], False

    for number, raw in enumerate(_lines(text), 1):
        if not raw.strip():  # a blank line ends a record; a comment-only line does not
            close()
            continue
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        key, sep, value = content.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            fail(f"expected 'key: value', got {content!r}", number)
            continue
        if key not in _ALL_KEYS:
            hint = f"keys are lowercase: {key.lower()}" if key.lower() in _ALL_KEYS else f"known keys: {', '.join(_ALL_KEYS)}"
            fail(f"unknown key {key!r} ({hint})", number)
            continue
        first = next((line for line, other, _ in current if other == key), None)
        if first is not None:
            hint = "; records are separated by a blank line" if key in _STARTS_RECORD else ""
            before = spoiled
            fail(f"duplicate key {key!r} (first given on line {first}{hint})", number)
            if key not in _STARTS_RECORD:
                continue
            spoiled = before  # most likely a second record: check both as records
            close()
        if not value:
            fail(f"{key}: no value given", number)
            continue
        current.append((number, key, value))
    close()
    return records


def _parse_seat(key: str, value: str) -> int:
    if value not in _SEATS:
        _bad(key, f"{key} {value!r}: must be seat 0, 1 or 2")
    return _SEATS[value]


def _parse_cardset(key: str, text: str) -> Mask:
    """Cards as tokens (comma or space separated) or in hand notation; ``-`` for none."""
    if text.strip() == "-":
        return 0
    try:
        return parse_cards_or_hand(text)
    except CalasolveError as err:
        _bad(key, f"{key}: {err}")


def _parse_per_seat(key: str, value: str) -> tuple[Mask, Mask, Mask]:
    """``1=7S,4D 2=-``: cards per seat; a seat not named has none."""
    parts = re.split(r"(?:^|\s+)(\S+?)\s*=\s*", value)
    if parts[0].strip():
        _bad(key, f"{key}: expected seat=cards items like '1=7S,4D 2=-', got {parts[0].strip()!r}")
    out = [0, 0, 0]
    named: set[int] = set()
    for seat_text, cards in zip(parts[1::2], parts[2::2]):
        if seat_text not in _SEATS:
            _bad(key, f"{key}: {seat_text!r} is not a seat (use 0, 1 or 2 before '=')")
        seat = _SEATS[seat_text]
        if seat in named:
            _bad(key, f"{key}: seat {seat} given twice")
        if not cards.strip():
            _bad(key, f"{key}: no cards after '{seat}=' (write '{seat}=-' for none)")
        named.add(seat)
        out[seat] = _parse_cardset(key, cards)
    return out[0], out[1], out[2]


def _one_card(key: str, value: str) -> Card:
    try:
        cards = parse_cards(value)
    except CalasolveError as err:
        _bad(key, f"{key}: {err}")
    if len(cards) != 1:
        _bad(key, f"{key}: give one card, not {len(cards)}")
    return cards[0]


def _build(fields_: Mapping[str, str], path: str, start: int, index: int, lines: Mapping[str, int]) -> Entry:
    """The record (or view) of one block's ``key -> value``; raises :class:`_Bad`."""
    if "view" in fields_:
        return _build_view(fields_, path, start, index, lines)
    for key in REQUIRED_KEYS:
        if key not in fields_:
            _bad(None, f"record has no {key!r} line (required: {', '.join(REQUIRED_KEYS)})")
    hand_texts = fields_["hands"].split()
    if len(hand_texts) != 3:
        _bad("hands", f"hands: {len(hand_texts)} hands given, need 3 (seats 0, 1, 2 separated by spaces)")
    hands = []
    for seat, text in enumerate(hand_texts):
        try:
            hands.append(parse_hand(text))
        except CalasolveError as err:
            _bad("hands", f"hands: seat {seat}: {err}")
    monte = _parse_cardset("monte", fields_["monte"])
    try:
        contract = parse_contract(fields_["contract"])
    except CalasolveError as err:
        _bad("contract", str(err))
    soloist = _parse_seat("soloist", fields_["soloist"])
    leader = _parse_seat("leader", fields_["leader"]) if "leader" in fields_ else None
    rules = _parse_rules(fields_)
    exchange = Exchange(
        call=_one_card("call", fields_["call"]) if "call" in fields_ else None,
        returned=_one_card("return", fields_["return"]) if "return" in fields_ else None,
        takes=_parse_per_seat("takes", fields_["takes"]) if "takes" in fields_ else None,
        discards=_parse_discards(fields_["discards"], contract, soloist) if "discards" in fields_ else None,
    )
    played = _parse_played(fields_)
    return Record(
        hands=(hands[0], hands[1], hands[2]), monte=monte, contract=contract, soloist=soloist, leader=leader,
        played=played, rules=rules, name=fields_.get("name"), exchange=exchange,
        auction=tuple(fields_.get("auction", "").split()), path=path, line=start, index=index, key_lines=dict(lines),
    )


def _parse_rules(fields_: Mapping[str, str]) -> Rules:
    if "rules" not in fields_:
        return STANDARD
    try:
        return Rules.parse(re.sub(r"\s*=\s*", "=", fields_["rules"]).split())
    except CalasolveError as err:
        _bad("rules", f"rules: {err}")


def _parse_played(fields_: Mapping[str, str]) -> tuple[Card, ...]:
    if "played" not in fields_:
        return ()
    try:
        return tuple(parse_cards(fields_["played"]))
    except CalasolveError as err:
        _bad("played", f"played: {err}")


def _build_view(fields_: Mapping[str, str], path: str, start: int, index: int, lines: Mapping[str, int]) -> View:
    """The seat's view of one block; raises :class:`_Bad` (the view checks itself: DealFileError)."""
    seat = _parse_seat("view", fields_["view"])
    if "hands" not in fields_:
        _bad(None, f"view of seat {seat} has no 'hands' line (its own hand, '?' for the others: "
             f"hands: {' '.join('HAND' if s == seat else '?' for s in range(3))})")
    hand_texts = fields_["hands"].split()
    if len(hand_texts) != 3:
        _bad("hands", f"hands: {len(hand_texts)} hands given, need 3 (seats 0, 1, 2 separated by spaces, '?' for unseen)")
    if hand_texts[seat] == "?":
        _bad("hands", f"hands: seat {seat}'s own hand is '?'; a view gives the hand of its seat")
    for other, text in enumerate(hand_texts):
        if other != seat and text != "?":
            _bad("hands", f"hands: seat {other}'s hand: seat {seat} does not see it; write ?")
    try:
        hand = parse_hand(hand_texts[seat])
    except CalasolveError as err:
        _bad("hands", f"hands: seat {seat}: {err}")
    monte_text = fields_.get("monte", "?")
    monte = None if monte_text == "?" else _parse_cardset("monte", monte_text)
    calls = tuple(fields_["auction"].split()) if "auction" in fields_ else ()
    soloist = _parse_seat("soloist", fields_["soloist"]) if "soloist" in fields_ else None
    leader = _parse_seat("leader", fields_["leader"]) if "leader" in fields_ else None
    rules = _parse_rules(fields_)
    contract, winner = _auction_outcome(calls, rules)
    if "contract" in fields_:
        try:
            contract = parse_contract(fields_["contract"])
        except CalasolveError as err:
            _bad("contract", str(err))
    call_from: int | str | None = None
    call = None
    if "call" in fields_:
        card_text, sep, source = fields_["call"].partition(" from ")
        call = _one_card("call", card_text)
        if sep:
            source = source.strip().lower()
            if source != MONTE and source not in _SEATS:
                _bad("call", f"call: from {source!r}: write 'from 0', 'from 1', 'from 2' or 'from monte'")
            call_from = MONTE if source == MONTE else _SEATS[source]
    discards = None
    if "discards" in fields_:
        value = fields_["discards"]
        if "=" in value:
            discards = _parse_per_seat("discards", value)
        else:  # the plain form: the soloist's in chiamo and solo, else the seat's own
            owner = (soloist if soloist is not None else winner) if contract not in DEFENDER_EXCHANGE else seat
            per_seat = [0, 0, 0]
            per_seat[seat if owner is None else owner] = _parse_cardset("discards", value)
            discards = (per_seat[0], per_seat[1], per_seat[2])
    exchange = Exchange(
        call=call,
        returned=_one_card("return", fields_["return"]) if "return" in fields_ else None,
        takes=_parse_per_seat("takes", fields_["takes"]) if "takes" in fields_ else None,
        discards=discards,
    )
    return View(seat=seat, hand=hand, monte=monte, calls=calls, contract=contract if "contract" in fields_ else None, soloist=soloist,
                leader=leader, exchange=exchange, call_from=call_from, played=_parse_played(fields_), rules=rules,
                name=fields_.get("name"), path=path, line=start, index=index, key_lines=dict(lines))


def _auction_outcome(calls: tuple[str, ...], rules: Rules) -> tuple[Contract | None, int | None]:
    """The winning bid and its seat when ``calls`` end the auction (the view reports a bad call itself)."""
    auction = Auction(rules)
    try:
        for call in calls:
            auction.call(call)
        result = auction.result()
    except CalasolveError:
        return None, None
    return (None if result.bid is None else parse_contract(result.bid)), result.soloist


def _parse_discards(value: str, contract: Contract, soloist: int) -> tuple[Mask, Mask, Mask]:
    if "=" in value:
        return _parse_per_seat("discards", value)
    if contract in DEFENDER_EXCHANGE:
        d1, d2 = defender_seats(soloist)
        _bad("discards", f"discards: in {contract} the defenders discard; give them per seat, "
             f"e.g. 'discards: {d1}=7S,4D {d2}=5C,6C'")
    out = [0, 0, 0]
    out[soloist] = _parse_cardset("discards", value)
    return out[0], out[1], out[2]


def parse_deal_text(text: str, path: str = "<string>") -> list[Record]:
    """The records of a deal file's text; :class:`DealFileError` on the first problem."""
    records, errors = check_deal_text(text, path)
    if errors:
        raise errors[0]
    return records


def check_deal_text(text: str, path: str = "<string>") -> tuple[list[Record], list[DealFileError]]:
    """Every valid record of a deal file's text and every problem in it, in line order:
    each bad line, and the first problem of each record whose lines are well formed.
    A seat's view is not a whole deal: here it is an error (:func:`check_entries_text` reads views).

    >>> records, errors = check_deal_text("Hands: x\\n\\nhands: 3\\nmonte: -", path="x.deal")
    >>> records, [str(e) for e in errors]  # doctest: +NORMALIZE_WHITESPACE
    ([], ["x.deal:1: unknown key 'Hands' (keys are lowercase: hands)",
          "x.deal:3: record has no 'contract' line (required: hands, monte, contract, soloist)"])
    """
    return _whole(*check_entries_text(text, path))


def _whole(entries: list[Entry], errors: list[DealFileError]) -> tuple[list[Record], list[DealFileError]]:
    """The records of ``entries``; each view among them an error at its ``view:`` line."""
    records = [e for e in entries if isinstance(e, Record)]
    for view in entries:
        if isinstance(view, View):
            line = (view.key_lines or {}).get("view", view.line)
            errors.append(DealFileError(f"record {view.index} is seat {view.seat}'s view, not a whole deal "
                                        "(it hides the other hands; only 'calasolve check' reads views)",
                                        path=view.path, line=line))
    errors.sort(key=lambda e: e.line or 0)
    return records, errors


def check_entries_text(text: str, path: str = "<string>") -> tuple[list[Entry], list[DealFileError]]:
    """:func:`check_deal_text`, views included: every valid record or view, and every problem.

    >>> entries, errors = check_entries_text("view: 1\\nhands: ? 6.C65.AC765.2A5 ?\\nauction: pass solo")
    >>> entries[0].calls, entries[0].soloist, errors
    (('pass', 'solo'), None, [])
    """
    if not isinstance(text, str):
        raise ParameterError("text", text, "must be a str")
    if text.startswith("\ufeff"):
        text = text[1:]
    errors: list[DealFileError] = []
    blocks = _split_records(text, path, errors)
    if not blocks and not errors:
        return [], [DealFileError("no deal records (the file is empty or holds only comments)", path=path)]
    records: list[Entry] = []
    for index, block in enumerate(blocks, 1):
        lines = {key: number for number, key, _ in block}
        start = block[0][0]
        try:
            records.append(_build({key: value for _, key, value in block}, path, start, index, lines))
        except _Bad as bad:
            errors.append(DealFileError(bad.message, path=path, line=lines.get(bad.key or "", start)))
        except DealFileError as err:
            errors.append(err)
    errors.sort(key=lambda e: e.line or 0)
    return records, errors


def read_deal_file(path: str) -> list[Record]:
    """The records of the UTF-8 deal file at ``path``."""
    records, errors = check_deal_file(path)
    if errors:
        raise errors[0]
    return records


def check_deal_file(path: str) -> tuple[list[Record], list[DealFileError]]:
    """:func:`check_deal_text` of the UTF-8 deal file at ``path``."""
    return _whole(*check_entries_file(path))


def read_entries(path: str) -> list[Entry]:
    """The records and views of the UTF-8 deal file at ``path``; :class:`DealFileError` on the first problem."""
    entries, errors = check_entries_file(path)
    if errors:
        raise errors[0]
    return entries


def check_entries_file(path: str) -> tuple[list[Entry], list[DealFileError]]:
    """:func:`check_entries_text` of the UTF-8 deal file at ``path``."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterError("path", path, "must be a file name (str or os.PathLike)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        return [], [DealFileError(f"cannot read the file: {err.strerror or err}", path=str(path))]
    except ValueError:  # open() refuses a name with a NUL byte
        return [], [DealFileError("cannot read the file: its name holds a NUL byte", path=str(path))]
    return check_entries_bytes(data, str(path))


def parse_deal_bytes(data: bytes, path: str) -> list[Record]:
    """The records of a deal file's raw bytes (UTF-8); ``path`` names it in errors."""
    records, errors = check_deal_bytes(data, path)
    if errors:
        raise errors[0]
    return records


def check_deal_bytes(data: bytes, path: str) -> tuple[list[Record], list[DealFileError]]:
    """:func:`check_deal_text` of a deal file's raw bytes (UTF-8)."""
    return _whole(*check_entries_bytes(data, path))


def check_entries_bytes(data: bytes, path: str) -> tuple[list[Entry], list[DealFileError]]:
    """:func:`check_entries_text` of a deal file's raw bytes (UTF-8)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ParameterError("data", data, "must be bytes")
    data = bytes(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
        return [], [DealFileError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", path=str(path), line=line)]
    return check_entries_text(text, path=str(path))


# -- writing -----------------------------------------------------------------


