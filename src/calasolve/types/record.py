"""A deal record: the data of one deal as written (hands, monte, contract, exchange, cards played).

:class:`Record` is checked when it is made (docs/rules.md: 40 cards dealt once,
a legal exchange, legal cards played), so a record in hand is a valid deal;
a record made in memory that breaks a rule is a
:class:`~calasolve.game.errors.RecordError` naming the deal-file key at fault,
and one read from a deal file a :class:`~calasolve.game.errors.DealFileError`
at that key's line.  :func:`format_record` is its deal-file text (the parser,
its inverse, is :mod:`calasolve.records.dealfile`).  A record is data; the
play from it is a :class:`~calasolve.game.state.PlayState` (:meth:`Record.state`),
and a position to solve a :class:`~calasolve.search.position.Position`.

>>> from calasolve.game.cards import parse_hand
>>> Record((parse_hand("3.-.-.-"), 0, 0), 0, "solo", 0)
Traceback (most recent call last):
...
calasolve.game.errors.RecordError: seat 0 holds 1 cards (3.-.-.-), each hand needs 12; 2B AB RB CB FB 7B 6B 5B 4B 3S ... dealt nowhere
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NoReturn, Protocol, Sequence

from ..game.auction import AGGRAVATIONS, Auction
from ..game.cards import (
    NUM_CARDS, SUIT_MASKS, SUIT_NAMES, SUITS, Card, Mask, card_name, cards_name, display_order, hand_name,
    parse_card, parse_hand, popcount,
)
from ..game.errors import (
    AuctionError, CalasolveError, DealFileError, RecordError, ExchangeError, ExchangeFieldError, ParameterError,
)
from ..game.exchange import Exchange, apply_exchange, check_exchange, is_complete, missing_fields
from ..game.state import DEFENDER_EXCHANGE, Contract, PlayState, defender_seats, first_leader, parse_contract
from ..game.rules import STANDARD, Rules


#: Every key of a record, in the order :func:`format_record` writes them.
KEYS = ("name", "hands", "monte", "contract", "soloist", "leader", "rules", "auction", "call", "return", "takes", "discards", "played")


def _bad(key: str | None, message: str) -> NoReturn:
    raise RecordError(message, key)


#: Exchange attribute -> deal-file key.
_EXCHANGE_KEY = {"call": "call", "returned": "return", "discards": "discards", "takes": "takes"}


class _Entry(Protocol):
    """What a deal file's entry (a record, a view) says of where it was read."""

    @property
    def path(self) -> str | None: ...
    @property
    def line(self) -> int | None: ...
    @property
    def index(self) -> int: ...
    @property
    def key_lines(self) -> Mapping[str, int] | None: ...


def check_at_lines(entry: _Entry, validate: Callable[[Any], None]) -> None:
    """``validate(entry)``; a problem of an entry read from a deal file is a :class:`DealFileError` at the
    line of the key at fault (the entry's own line when the key has none), else the :class:`RecordError`."""
    try:
        validate(entry)
    except RecordError as bad:
        if entry.path is None and entry.key_lines is None:
            raise
        line = (entry.key_lines or {}).get(bad.key or "", entry.line)
        raise DealFileError(bad.message, path=entry.path, line=line) from None


def where_of(entry: _Entry, kind: str) -> str:
    """``file:line`` of an entry, or ``KIND N`` for one made in memory."""
    if entry.path:
        return f"{entry.path}:{entry.line}" if entry.line is not None else entry.path
    return f"{kind} {entry.index}"


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
    #: the calls that gave the contract, in order from seat 0; ``()`` when not given
    auction: tuple[str, ...] = ()
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    index: int = field(default=1, compare=False)
    #: the line of each key in its file, so a problem found here points at its line
    key_lines: Mapping[str, int] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_at_lines(self, _validate)

    def __repr__(self) -> str:
        """Cards in notation, fields as in the deal file:

        >>> from calasolve.records.dealfile import parse_deal_text
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
        if self.auction:
            fields_["auction"] = " ".join(self.auction)
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
        return where_of(self, "record")

    def after_exchange(self) -> tuple[tuple[Mask, Mask, Mask], Mask]:
        """The hands and monte at the first lead; :class:`ExchangeError` if the exchange is incomplete."""
        known = self.__dict__.get("_after_exchange")
        if known is not None:
            return known  # type: ignore[no-any-return]
        try:
            known = apply_exchange(self.hands, self.monte, self.contract, self.soloist, self.exchange)
        except ExchangeError as err:
            raise ExchangeError(f"{self.where()}: {err}") from None
        object.__setattr__(self, "_after_exchange", known)  # a record never changes; players ask every decision
        return known

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

    def played_on(self, state: PlayState) -> "Record":
        """This record with the cards of ``state`` played: a position reached from :meth:`state` by
        :meth:`PlayState.play`, which checked each card (so they are not replayed to be checked again).

        >>> from calasolve.records.dealfile import parse_deal_text
        >>> record = parse_deal_text("hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\\nmonte: R4.-.3F.-\\n"
        ...                          "contract: solissimo\\nsoloist: 0")[0]
        >>> state = record.state()
        >>> state.play(state.legal().bit_length() - 1)
        >>> record.played_on(state) == record.with_(played=tuple(state.history))
        True
        """
        if len(state.history) < len(self.played) or tuple(state.history[:len(self.played)]) != self.played:
            raise CalasolveError(f"{self.where()}: the position is not one of this record's deal")
        out = copy.copy(self)  # this record was checked when made, the state's cards as they were played
        object.__setattr__(out, "played", tuple(state.history))
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Record":
        """The record of :meth:`to_dict`'s form, checked as any record: ``Record.from_dict(r.to_dict()) == r``
        (where it came from, ``path``, ``line`` and ``index``, is not in the JSON, nor in ``==``)."""
        hands = tuple(parse_hand(h) for h in d["hands"])
        return cls(hands=(hands[0], hands[1], hands[2]), monte=parse_hand(d["monte"]), contract=d["contract"],
                   soloist=d["soloist"], leader=d["leader"], played=tuple(parse_card(c) for c in d["played"]),
                   rules=STANDARD.with_(d["rules"]), name=d["name"], exchange=Exchange.from_dict(d["exchange"]),
                   auction=tuple(d.get("auction", ())))

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
            "auction": list(self.auction),
            "exchange": self.exchange.to_dict(),
        }


def _seat_name(seat: int | None) -> str:
    return "the monte" if seat is None else f"seat {seat}'s hand"


def _is_card(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < NUM_CARDS


def _validate(rec: Record) -> None:
    """Check ``rec`` (normalising a few fields in place); raise :class:`RecordError`."""
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
    _validate_auction(rec)
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


def _validate_auction(rec: Record) -> None:
    """The calls, when given, are a finished auction that the soloist won with the contract (or,
    under ``aggravations=declared``, with the solissimo the contract aggravates).

    >>> from calasolve.records.dealfile import parse_deal_text
    >>> deal = "hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\\nmonte: R4.-.3F.-\\n"
    >>> parse_deal_text(deal + "contract: dividete\\nsoloist: 1\\nauction: Pass solissimo")[0].auction
    ('pass', 'solissimo')
    >>> parse_deal_text(deal + "contract: solo\\nsoloist: 1\\nauction: pass solo", "x.deal")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.DealFileError: x.deal:5: auction: the auction is not over (seat 2 to speak)
    """
    if isinstance(rec.auction, str):  # tuple("solo") would be its letters
        _bad("auction", f"auction {rec.auction!r}: give the calls as a tuple of strings, e.g. ('pass', 'solo', 'pass')")
    calls = tuple(str(c).strip().lower() for c in rec.auction)
    object.__setattr__(rec, "auction", calls)
    if not calls:
        return
    auction = called(calls, rec.rules)
    if not auction.is_over:
        _bad("auction", f"auction: the auction is not over (seat {auction.to_speak} to speak)")
    result = auction.result()
    if result.soloist is None or result.bid is None:
        _bad("auction", "auction: every seat passed, the deal is void (a void deal has no record)")
    if result.soloist != rec.soloist:
        _bad("auction", f"auction: the auction makes seat {result.soloist} the soloist, not seat {rec.soloist}")
    declared = rec.rules.aggravations == "declared" and result.bid == "solissimo"
    if rec.contract != result.bid and not (declared and rec.contract in AGGRAVATIONS):
        hint = " or its aggravation dividete or scegliete" if declared else ""
        _bad("auction", f"auction: the auction ended with {result.bid} by seat {result.soloist}, so the contract is "
             f"{result.bid}{hint}, not {rec.contract}")


def called(calls: Sequence[str], rules: Rules) -> Auction:
    """The auction after ``calls``, each checked in turn (a :class:`RecordError` at the ``auction`` key)."""
    auction = Auction(rules)
    for call in calls:
        try:
            auction.call(call)
        except AuctionError as err:
            _bad("auction", f"auction: {err}")
    return auction


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


def check_record(parameter: str, record: Any) -> "Record":
    """``record`` if it is a deal :class:`Record`, else a ``ParameterError``."""
    if not isinstance(record, Record):
        raise ParameterError(parameter, record, "must be a deal Record (see read_deal_file)")
    return record


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
    if r.auction:
        out.append(f"auction: {' '.join(r.auction)}")
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


def record_label(record: Record) -> str:
    """``record 1 'name' (file:line)``."""
    where = f"{record.path}:{record.line}" if record.path else f"record {record.index}"
    name = f" {record.name!r}" if record.name else ""
    return f"record {record.index}{name} ({where})"


def record_header(record: Record) -> list[str]:
    """The record's label and its contract, soloist, first lead and rules."""
    return [
        record_label(record),
        f"  {record.contract} for seat {record.soloist}; seat {record.first_leader} leads the first trick; "
        f"rules: {record.rules.describe()}",
    ]
