"""The deal file (docs/deal-format.md, "Deal file reference") and its exchange fields: parse, check, write.

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
>>> print(format_record(rec))
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

import dataclasses
import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, NoReturn, Sequence

from ..game.cards import (
    NUM_CARDS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    Mask,
    card_name,
    cards_name,
    display_order,
    hand_name,
    parse_card,
    parse_cards,
    parse_cards_or_hand,
    parse_hand,
    popcount,
)
from ..game.errors import CalasolveError, DealFileError, ExchangeError, ExchangeFieldError, ParameterError
from ..game.exchange import Exchange, apply_exchange, check_exchange, is_complete, missing_fields
from ..game.state import DEFENDER_EXCHANGE, Contract, PlayState, defender_seats, first_leader, parse_contract
from ..game.rules import STANDARD, Rules

__all__ = ["Record", "parse_deal_text", "read_deal_file", "check_deal_text", "check_deal_file", "check_deal_bytes",
           "format_record", "format_deal_text", "KEYS", "REQUIRED_KEYS"]

#: Every key of a record, in the order :func:`format_record` writes them.
KEYS = ("name", "hands", "monte", "contract", "soloist", "leader", "rules", "call", "return", "takes", "discards", "played")
REQUIRED_KEYS = ("hands", "monte", "contract", "soloist")
#: Exchange attribute -> deal-file key.
_EXCHANGE_KEY = {"call": "call", "returned": "return", "discards": "discards", "takes": "takes"}
_SEATS = {"0": 0, "1": 1, "2": 2}


class _Bad(Exception):
    """A problem with one key of a record; turned into a DealFileError at that key's line."""

    def __init__(self, key: str | None, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def _bad(key: str | None, message: str) -> NoReturn:
    raise _Bad(key, message)


@dataclass(frozen=True)
class Record:
    """One deal record, checked on construction (so ``with_`` checks too).

    ``path``, ``line`` and ``index`` say where the record came from; they are
    left out of ``==`` and ``hash``, so a record equals its round trip.
    """

    hands: tuple[Mask, Mask, Mask]
    monte: Mask
    contract: Contract
    soloist: int
    leader: int | None = None
    played: tuple[Card, ...] = ()
    rules: Rules = STANDARD
    name: str | None = None
    exchange: Exchange = Exchange()
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    index: int = field(default=1, compare=False)
    #: the line of each key in its file, so a problem found here points at its line
    key_lines: Mapping[str, int] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        try:
            _validate(self)
        except _Bad as bad:
            line = (self.key_lines or {}).get(bad.key or "", self.line)
            raise DealFileError(bad.message, path=self.path, line=line) from None

    def __repr__(self) -> str:
        """Cards in notation, fields as in the deal file:

        >>> parse_deal_text("hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\\nmonte: R4.-.3F.-\\n"
        ...                 "contract: solissimo\\nsoloist: 0\\nplayed: AS")[0]
        Record(hands='3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76', monte='R4.-.3F.-', contract='solissimo', soloist=0, played='AS')
        """
        fields_: dict[str, object] = {"name": self.name} if self.name is not None else {}
        fields_.update(hands=" ".join(hand_name(h) for h in self.hands), monte=hand_name(self.monte),
                       contract=self.contract, soloist=self.soloist)
        if self.leader is not None:
            fields_["leader"] = self.leader
        if self.rules.changes():
            fields_["rules"] = self.rules.describe()
        if not self.exchange.is_empty:
            fields_["exchange"] = self.exchange
        if self.played:
            fields_["played"] = cards_name(self.played)
        return "Record(" + ", ".join(f"{k}={v!r}" for k, v in fields_.items()) + ")"

    def __str__(self) -> str:
        """The record as deal-file text (:func:`format_record`)."""
        return format_record(self)

    # -- derived -------------------------------------------------------------
    @property
    def first_leader(self) -> int:
        """The seat leading the first trick: ``leader`` or the default of docs/rules.md §6."""
        return self.leader if self.leader is not None else first_leader(self.contract, self.soloist, self.rules)

    @property
    def needs_exchange(self) -> bool:
        """The contract has an exchange and the record does not give all of it."""
        return not is_complete(self.contract, self.hands, self.monte, self.soloist, self.exchange)

    def where(self) -> str:
        """``file:line`` of the record, or ``record N``."""
        if self.path:
            return f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"record {self.index}"

    def after_exchange(self) -> tuple[tuple[Mask, Mask, Mask], Mask]:
        """The hands and monte at the first lead; :class:`ExchangeError` if the exchange is incomplete."""
        try:
            return apply_exchange(self.hands, self.monte, self.contract, self.soloist, self.exchange)
        except ExchangeError as err:
            raise ExchangeError(f"{self.where()}: {err}") from None

    def start_state(self) -> PlayState:
        """The position at the first lead, after the exchange."""
        hands, monte = self.after_exchange()
        return PlayState(hands, monte, self.soloist, self.first_leader)

    def state(self) -> PlayState:
        """The position after the ``played`` cards."""
        st = self.start_state()
        for card in self.played:
            st.play(card)
        return st

    def with_(self, **changes: Any) -> "Record":
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Record":
        """The record of :meth:`to_dict`'s form, checked as any record: ``Record.from_dict(r.to_dict()) == r``
        (where it came from, ``path``, ``line`` and ``index``, is not in the JSON, nor in ``==``)."""
        hands = tuple(parse_hand(h) for h in d["hands"])
        return cls(hands=(hands[0], hands[1], hands[2]), monte=parse_hand(d["monte"]), contract=d["contract"],
                   soloist=d["soloist"], leader=d["leader"], played=tuple(parse_card(c) for c in d["played"]),
                   rules=STANDARD.with_(d["rules"]), name=d["name"], exchange=Exchange.from_dict(d["exchange"]))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description; ``leader`` as written, ``first_leader`` as used."""
        return {
            "name": self.name,
            "hands": [hand_name(h) for h in self.hands],
            "monte": hand_name(self.monte),
            "contract": self.contract,
            "soloist": self.soloist,
            "leader": self.leader,
            "first_leader": self.first_leader,
            "played": [card_name(c) for c in self.played],
            "rules": self.rules.changes(),
            "exchange": self.exchange.to_dict(),
        }


# -- checks ------------------------------------------------------------------

def _seat_name(seat: int | None) -> str:
    return "the monte" if seat is None else f"seat {seat}'s hand"


def _is_card(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < NUM_CARDS


def _validate(rec: Record) -> None:
    """Check ``rec`` (normalising a few fields in place); raise :class:`_Bad`."""
    put = object.__setattr__  # frozen: normalised values are set once, here
    try:
        put(rec, "contract", parse_contract(str(rec.contract)))
    except CalasolveError as err:
        _bad("contract", str(err))
    for key in ("soloist", "leader"):
        value = getattr(rec, key)
        if not (value is None and key == "leader") and (isinstance(value, bool) or value not in (0, 1, 2)):
            _bad(key, f"{key} {value!r}: must be seat 0, 1 or 2")
    if not isinstance(rec.rules, Rules):
        _bad("rules", f"rules must be a Rules value, not {type(rec.rules).__name__}")
    if rec.name is not None:
        name = str(rec.name).strip()
        if name.splitlines() != [name] or "#" in name:  # one line, even to str.splitlines
            _bad("name", f"name {rec.name!r}: must be one line without '#'")
        put(rec, "name", name or None)
    _validate_cards(rec)
    if not isinstance(rec.exchange, Exchange):
        _bad(None, f"exchange must be an Exchange, not {type(rec.exchange).__name__}")
    try:
        check_exchange(rec.hands, rec.monte, rec.contract, rec.soloist, rec.exchange)
    except ExchangeFieldError as err:
        _bad(_EXCHANGE_KEY.get(err.field or ""), str(err))
    _validate_played(rec)


def _validate_cards(rec: Record) -> None:
    hands = rec.hands
    if not isinstance(hands, (tuple, list)) or len(hands) != 3:
        count = len(hands) if isinstance(hands, (tuple, list)) else "no"
        _bad("hands", f"hands: {count} hands given, need 3 (seats 0, 1, 2 separated by spaces)")
    full = (1 << NUM_CARDS) - 1
    if not all(isinstance(h, int) and 0 <= h <= full for h in (*hands, rec.monte)):
        _bad("hands", "hands and monte must be card masks (ints of 40 bits)")
    object.__setattr__(rec, "hands", (hands[0], hands[1], hands[2]))
    seen: dict[Card, int | None] = {}
    for key, owners in (("hands", ((0, hands[0]), (1, hands[1]), (2, hands[2]))), ("monte", ((None, rec.monte),))):
        for seat, mask in owners:
            for card in display_order(mask):
                if card in seen:
                    _bad(key, f"{card_name(card)} is dealt twice: in {_seat_name(seen[card])} and in {_seat_name(seat)}"
                         + _suit_order_hint(rec.hands, rec.monte))
                seen[card] = seat
    missing = full & ~(hands[0] | hands[1] | hands[2] | rec.monte)
    lacking = f"; {cards_name(display_order(missing))} dealt nowhere" if missing else ""
    for seat in range(3):
        if popcount(hands[seat]) != 12:
            _bad("hands", f"seat {seat} holds {popcount(hands[seat])} cards ({hand_name(hands[seat])}), each hand needs 12{lacking}")
    if popcount(rec.monte) != 4:
        _bad("monte", f"the monte holds {popcount(rec.monte)} cards ({hand_name(rec.monte)}), it needs 4{lacking}")


def _permute_suits(mask: Mask, order: Sequence[int]) -> Mask:
    """``mask`` with the cards of suit group ``i`` moved to suit ``order[i]``."""
    return sum(((mask >> (10 * i)) & 0x3FF) << (10 * order[i]) for i in range(4))


def _suit_order_hint(hands: Sequence[Mask], monte: Mask) -> str:
    """A hint when one hand (or every hand) reads as a right deal in another suit order.

    >>> _suit_order_hint((parse_hand("3F5.32AF4.2.3F4"), parse_hand("C65.6.AC765.2A5"),
    ...                   parse_hand("2AC7.R7.R4.RC76")), parse_hand("R4.-.3F.-"))
    " (seat 1's hand reads right in the suit order S.B.C.D: hands are written B.S.C.D, Bastoni Spade Coppe Denari)"
    """
    from itertools import permutations

    def valid(masks: Sequence[Mask]) -> bool:
        union = 0
        for m in masks:
            if union & m:
                return False
            union |= m
        return union == (1 << NUM_CARDS) - 1

    for order in list(permutations(range(4)))[1:]:
        written = ".".join(SUITS[order[i]] for i in range(4))
        for seat in range(3):
            moved = list(hands)
            moved[seat] = _permute_suits(hands[seat], order)
            if valid((*moved, monte)):
                return f" ({_seat_name(seat)} reads right in the suit order {written}: {_ORDER_NOTE})"
        if valid([_permute_suits(h, order) for h in hands] + [_permute_suits(monte, order)]):
            return f" (the hands read right in the suit order {written}: {_ORDER_NOTE})"
    return ""


_ORDER_NOTE = "hands are written B.S.C.D, Bastoni Spade Coppe Denari"


def _validate_played(rec: Record) -> None:
    played = tuple(rec.played)
    object.__setattr__(rec, "played", played)
    if not played:
        return
    for i, card in enumerate(played, 1):
        if not _is_card(card):
            _bad("played", f"played card {i}: {card!r} is not a card id 0..39")
    if len(played) > 36:
        _bad("played", f"played: {len(played)} cards, but a deal has only 36 (12 tricks of 3)")
    missing = missing_fields(rec.contract, rec.hands, rec.monte, rec.soloist, rec.exchange)
    if missing:
        keys = ", ".join(_EXCHANGE_KEY[f] for f in missing)
        _bad("played", f"played cards given, but the {rec.contract} exchange is incomplete, so the hands "
             f"in play are unknown; give the exchange ({keys}) or remove played")
    hands, monte = apply_exchange(rec.hands, rec.monte, rec.contract, rec.soloist, rec.exchange)
    st = PlayState(hands, monte, rec.soloist, rec.first_leader)
    for i, card in enumerate(played, 1):
        seat = st.to_move
        what = f"played card {i} ({card_name(card)}, trick {(i - 1) // 3 + 1})"
        if not st.hands[seat] >> card & 1:
            if card in st.history:
                hint = f"it is already played card {st.history.index(card) + 1}"
            elif st.monte >> card & 1:
                hint = "it is in the monte"
            else:
                hint = f"seat {next(s for s in range(3) if st.hands[s] >> card & 1)} holds it"
            _bad("played", f"{what}: seat {seat} does not hold it, {hint} (seat {seat} holds {hand_name(st.hands[seat])})")
        if not st.legal() >> card & 1:
            suit = st.trick[0] // 10
            held = cards_name(display_order(st.hands[seat] & SUIT_MASKS[suit]))
            _bad("played", f"{what}: seat {seat} must follow {SUIT_NAMES[suit]} (led {card_name(st.trick[0])}) with {held}")
        st.play(card)


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
_STARTS_RECORD = ("name", "hands")


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
        if key not in KEYS:
            hint = f"keys are lowercase: {key.lower()}" if key.lower() in KEYS else f"known keys: {', '.join(KEYS)}"
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


def _build(fields_: Mapping[str, str], path: str, start: int, index: int, lines: Mapping[str, int]) -> Record:
    """The record of one block's ``key -> value``; raises :class:`_Bad`."""
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
    rules = STANDARD
    if "rules" in fields_:
        try:
            rules = Rules.parse(re.sub(r"\s*=\s*", "=", fields_["rules"]).split())
        except CalasolveError as err:
            _bad("rules", f"rules: {err}")
    exchange = Exchange(
        call=_one_card("call", fields_["call"]) if "call" in fields_ else None,
        returned=_one_card("return", fields_["return"]) if "return" in fields_ else None,
        takes=_parse_per_seat("takes", fields_["takes"]) if "takes" in fields_ else None,
        discards=_parse_discards(fields_["discards"], contract, soloist) if "discards" in fields_ else None,
    )
    played: tuple[Card, ...] = ()
    if "played" in fields_:
        try:
            played = tuple(parse_cards(fields_["played"]))
        except CalasolveError as err:
            _bad("played", f"played: {err}")
    return Record(
        hands=(hands[0], hands[1], hands[2]), monte=monte, contract=contract, soloist=soloist, leader=leader,
        played=played, rules=rules, name=fields_.get("name"), exchange=exchange,
        path=path, line=start, index=index, key_lines=dict(lines),
    )


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

    >>> records, errors = check_deal_text("Hands: x\\n\\nhands: 3\\nmonte: -", path="x.deal")
    >>> records, [str(e) for e in errors]  # doctest: +NORMALIZE_WHITESPACE
    ([], ["x.deal:1: unknown key 'Hands' (keys are lowercase: hands)",
          "x.deal:3: record has no 'contract' line (required: hands, monte, contract, soloist)"])
    """
    if not isinstance(text, str):
        raise ParameterError("text", text, "must be a str")
    if text.startswith("\ufeff"):
        text = text[1:]
    errors: list[DealFileError] = []
    blocks = _split_records(text, path, errors)
    if not blocks and not errors:
        return [], [DealFileError("no deal records (the file is empty or holds only comments)", path=path)]
    records = []
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


def check_record(parameter: str, record: Any) -> "Record":
    """``record`` if it is a deal :class:`Record`, else a ``ParameterError``."""
    if not isinstance(record, Record):
        raise ParameterError(parameter, record, "must be a deal Record (see read_deal_file)")
    return record


def read_deal_file(path: str) -> list[Record]:
    """The records of the UTF-8 deal file at ``path``."""
    records, errors = check_deal_file(path)
    if errors:
        raise errors[0]
    return records


def check_deal_file(path: str) -> tuple[list[Record], list[DealFileError]]:
    """:func:`check_deal_text` of the UTF-8 deal file at ``path``."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterError("path", path, "must be a file name (str or os.PathLike)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        return [], [DealFileError(f"cannot read the file: {err.strerror or err}", path=str(path))]
    except ValueError:  # open() refuses a name with a NUL byte
        return [], [DealFileError("cannot read the file: its name holds a NUL byte", path=str(path))]
    return check_deal_bytes(data, str(path))


def parse_deal_bytes(data: bytes, path: str) -> list[Record]:
    """The records of a deal file's raw bytes (UTF-8); ``path`` names it in errors."""
    records, errors = check_deal_bytes(data, path)
    if errors:
        raise errors[0]
    return records


def check_deal_bytes(data: bytes, path: str) -> tuple[list[Record], list[DealFileError]]:
    """:func:`check_deal_text` of a deal file's raw bytes (UTF-8)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ParameterError("data", data, "must be bytes")
    data = bytes(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
        return [], [DealFileError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", path=str(path), line=line)]
    return check_deal_text(text, path=str(path))


# -- writing -----------------------------------------------------------------

def _tokens(mask: Mask, sep: str) -> str:
    return sep.join(card_name(c) for c in display_order(mask)) or "-"


def _per_seat_text(masks: Sequence[Mask], soloist: int) -> str:
    seats = sorted(set(defender_seats(soloist)) | {s for s in range(3) if masks[s]})
    return " ".join(f"{seat}={_tokens(masks[seat], ',')}" for seat in seats)


def format_record(record: Record) -> str:
    """The canonical text of ``record`` (no trailing newline, no comments)."""
    r, ex = record, record.exchange
    out = []
    if r.name is not None:
        out.append(f"name: {r.name}")
    out.append("hands: " + " ".join(hand_name(h) for h in r.hands))
    out.append(f"monte: {hand_name(r.monte)}")
    out.append(f"contract: {r.contract}")
    out.append(f"soloist: {r.soloist}")
    if r.leader is not None:
        out.append(f"leader: {r.leader}")
    if r.rules.changes():
        out.append(f"rules: {r.rules.describe()}")
    if ex.call is not None:
        out.append(f"call: {card_name(ex.call)}")
    if ex.returned is not None:
        out.append(f"return: {card_name(ex.returned)}")
    if ex.takes is not None:
        out.append(f"takes: {_per_seat_text(ex.takes, r.soloist)}")
    if ex.discards is not None:
        if r.contract in DEFENDER_EXCHANGE:
            out.append(f"discards: {_per_seat_text(ex.discards, r.soloist)}")
        else:
            out.append(f"discards: {_tokens(ex.discards[r.soloist], ' ')}")
    if r.played:
        out.append(f"played: {cards_name(r.played)}")
    return "\n".join(out)


def format_deal_text(records: Sequence[Record]) -> str:
    """The canonical text of a deal file: records separated by a blank line."""
    return "\n\n".join(format_record(r) for r in records) + "\n"
