"""A seat's view of a deal: what one seat knows at one point of it (docs/deal-format.md, "Views").

:class:`View` holds the seat's own hand as dealt, the monte when the seat saw it, the calls
so far, the contract and soloist once the auction decided them, the exchange as the seat saw
it (docs/rules.md §5) and the cards played.  Like a :class:`~calasolve.types.record.Record`
it is checked when it is made: a view that no deal could produce (a card twice, a call the
auction does not allow, an exchange field the seat could not have seen, a card played against
the rules or against what the seat knows) is a :class:`~calasolve.game.errors.RecordError`
naming the deal-file key at fault, or a :class:`~calasolve.game.errors.DealFileError` at that
key's line when it was read from a file.  :func:`seat_view` is the view of a seat of a whole
record; :func:`format_view` its deal-file text.

>>> from calasolve.game.cards import parse_hand
>>> v = View(1, parse_hand("6.C65.AC765.2A5"), calls=("pass", "solo", "pass"))
>>> v.soloist, v.contract, v.first_leader
(1, 'solo', 0)
>>> View(1, parse_hand("6.C65.AC765.2A5"), calls=("solo", "chiamo"))
Traceback (most recent call last):
...
calasolve.game.errors.RecordError: auction: call 2 'chiamo' by seat 1: a bid must be higher than solo (legal: pass, solissimo)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, NoReturn, Sequence

from ..game.auction import AGGRAVATIONS, LADDERS, Auction
from ..game.cards import (
    FULL_DECK, NUM_CARDS, SUIT_MASKS, SUIT_NAMES, Card, Mask, bit, card_name, cards_name, display_order, hand_name,
    parse_card, parse_hand, popcount, suit_of,
)
from ..game.errors import CalasolveError, ParameterError, RecordError
from ..game.exchange import Exchange, called_from
from ..game.rules import STANDARD, Rules
from ..game.sampling import layout_exists
from ..game.state import DEFENDER_EXCHANGE, Contract, defender_seats, first_leader, parse_contract, trick_winner
from .record import Record, called, check_at_lines, where_of

__all__ = ["MONTE", "View", "first_lead_places", "format_view", "record_auction", "seat_only", "seat_view"]

#: ``View.call_from`` of a called card found in the monte.
MONTE = "monte"
_PLACE_MONTE = 3  # the monte's place number in a layout (seats are 0, 1, 2)
_EXCHANGE_KEY = {"call": "call", "returned": "return", "discards": "discards", "takes": "takes"}


def _bad(key: str | None, message: str) -> NoReturn:
    raise RecordError(message, key)


@dataclass(frozen=True)
class View:
    """What ``seat`` knows, checked on construction; ``contract`` and ``soloist`` follow from the
    calls once the auction is over (given, they must agree).

    ``monte`` is the monte as dealt, ``None`` when the seat has not seen it; ``exchange`` holds
    only what the seat saw; ``call_from`` says where chiamo's called card came from (a seat, or
    :data:`MONTE`), worked out when the seat can tell (it held the card, or saw the monte).
    """

    seat: int
    hand: Mask
    monte: Mask | None = None
    calls: tuple[str, ...] = ()
    contract: Contract | None = None
    soloist: int | None = None
    leader: int | None = None
    exchange: Exchange = Exchange()
    call_from: int | str | None = None
    played: tuple[Card, ...] = ()
    rules: Rules = STANDARD
    name: str | None = None
    path: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    index: int = field(default=1, compare=False)
    key_lines: Mapping[str, int] | None = field(default=None, compare=False, repr=False)
    #: the soloist won solissimo under ``aggravations=declared`` and has not declared: no ``contract`` was
    #: given and nothing is played yet (``contract`` shows solissimo, the bid)
    to_declare: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        check_at_lines(self, _validate)

    def __str__(self) -> str:
        return format_view(self)

    @property
    def first_leader(self) -> int | None:
        """The seat leading the first trick, once the contract is decided."""
        if self.contract is None or self.soloist is None:
            return None
        return self.leader if self.leader is not None else first_leader(self.contract, self.soloist, self.rules)

    def where(self) -> str:
        """``file:line`` of the view, or ``view N``."""
        return where_of(self, "view")

    def with_(self, **changes: Any) -> "View":
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description; an unseen monte is ``null``."""
        return {
            "name": self.name,
            "view": self.seat,
            "hand": hand_name(self.hand),
            "monte": None if self.monte is None else hand_name(self.monte),
            "auction": list(self.calls),
            "contract": None if self.to_declare else self.contract,
            "soloist": self.soloist,
            "leader": self.leader,
            "first_leader": self.first_leader,
            "exchange": self.exchange.to_dict(),
            "call_from": self.call_from,
            "played": [card_name(c) for c in self.played],
            "rules": self.rules.changes(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "View":
        """The view of :meth:`to_dict`'s form, checked as any view: ``View.from_dict(v.to_dict()) == v``."""
        return cls(seat=d["view"], hand=parse_hand(d["hand"]),
                   monte=None if d["monte"] is None else parse_hand(d["monte"]), calls=tuple(d["auction"]),
                   contract=d["contract"], soloist=d["soloist"], leader=d["leader"],
                   exchange=Exchange.from_dict(d["exchange"]), call_from=d["call_from"],
                   played=tuple(parse_card(c) for c in d["played"]), rules=STANDARD.with_(d["rules"]), name=d["name"])


# -- checks ------------------------------------------------------------------


def _is_seat(value: object) -> bool:
    return not isinstance(value, bool) and value in (0, 1, 2)


def _validate(v: View) -> None:
    put = object.__setattr__  # frozen: normalised values are set once, here
    if not _is_seat(v.seat):
        _bad("view", f"view {v.seat!r}: must be seat 0, 1 or 2")
    if not isinstance(v.rules, Rules):
        _bad("rules", f"rules must be a Rules value, not {type(v.rules).__name__}")
    if v.name is not None:
        name = str(v.name).strip()
        if name.splitlines() != [name] or "#" in name:
            _bad("name", f"name {v.name!r}: must be one line without '#'")
        put(v, "name", name or None)
    for key, mask in (("hands", v.hand), ("monte", v.monte)):
        if mask is not None and not (isinstance(mask, int) and 0 <= mask <= FULL_DECK):
            _bad(key, f"{key}: must be a card mask (an int of 40 bits)")
    if popcount(v.hand) != 12:
        _bad("hands", f"seat {v.seat} holds {popcount(v.hand)} cards ({hand_name(v.hand)}), its hand needs 12")
    if v.monte is not None:
        if v.monte & v.hand:
            _bad("monte", f"monte: {cards_name(display_order(v.monte & v.hand))} both in the monte and in seat {v.seat}'s hand")
        if popcount(v.monte) != 4:
            _bad("monte", f"monte: the monte holds {popcount(v.monte)} cards ({hand_name(v.monte)}), it needs 4")
    _validate_auction(v)
    if not isinstance(v.exchange, Exchange):
        _bad(None, f"exchange must be an Exchange, not {type(v.exchange).__name__}")
    own = _validate_exchange(v)
    _validate_played(v, own)


def _validate_auction(v: View) -> None:
    put = object.__setattr__
    calls = tuple(str(c).strip().lower() for c in v.calls)
    put(v, "calls", calls)
    auction = called(calls, v.rules)
    for key in ("soloist", "leader"):
        value = getattr(v, key)
        if value is not None and not _is_seat(value):
            _bad(key, f"{key} {value!r}: must be seat 0, 1 or 2")
    if v.contract is not None:
        try:
            put(v, "contract", parse_contract(str(v.contract)))
        except CalasolveError as err:
            _bad("contract", str(err))
    if not auction.is_over:
        for key in ("contract", "soloist", "leader"):
            if getattr(v, key) is not None:
                _bad(key, f"{key}: the auction is not over (seat {auction.to_speak} to speak); "
                     "the calls that decided it go in 'auction:'")
        return
    result = auction.result()
    if result.soloist is None or result.bid is None:
        for key in ("contract", "soloist", "leader"):
            if getattr(v, key) is not None:
                _bad(key, f"{key}: every seat passed, the deal is void")
        return
    if v.soloist is not None and v.soloist != result.soloist:
        _bad("soloist", f"soloist {v.soloist}: the auction makes seat {result.soloist} the soloist")
    contract = v.contract or result.bid
    declared = v.rules.aggravations == "declared" and result.bid == "solissimo" and contract in AGGRAVATIONS
    if contract != result.bid and not declared:
        hint = ", or its aggravation dividete or scegliete" if result.bid == "solissimo" and v.rules.aggravations == "declared" else ""
        _bad("contract", f"contract {contract}: the auction ended with {result.bid} by seat {result.soloist}"
             f" (the contract is {result.bid}{hint})")
    put(v, "to_declare", v.contract is None and result.bid == "solissimo" and v.rules.aggravations == "declared"
        and not v.played)
    put(v, "contract", contract)
    put(v, "soloist", result.soloist)


def _validate_exchange(v: View) -> Mask | None:
    """Check the exchange fields against what the seat could see; the seat's hand at the first
    lead, or None while the exchange as the seat saw it is not over."""
    ex, seat, contract, soloist = v.exchange, v.seat, v.contract, v.soloist
    given = [f for f in ("call", "returned", "takes", "discards") if getattr(ex, f) is not None]
    if contract is None or soloist is None:
        if given:
            _bad(_EXCHANGE_KEY[given[0]], f"{_EXCHANGE_KEY[given[0]]}: no contract yet, so no exchange")
        if v.monte is not None:
            _bad("monte", f"monte: no contract yet, so seat {seat} has not seen the monte")
        if v.call_from is not None:
            _bad("call", "call: no contract yet, so no card called")
        return None
    allowed = {"chiamo": ("call", "returned", "discards"), "solo": ("discards",),
               "dividete": ("takes", "discards"), "scegliete": ("takes", "discards")}.get(contract, ())
    for f in given:
        if f not in allowed:
            what = "has no exchange" if not allowed else f"has no {_EXCHANGE_KEY[f]}"
            _bad(_EXCHANGE_KEY[f], f"{_EXCHANGE_KEY[f]}: {contract} {what}")
    if v.call_from is not None and contract != "chiamo":
        _bad("call", f"call: {contract} has no call")
    if contract in ("chiamo", "solo"):
        return _soloist_exchange(v, contract, soloist)
    if contract in DEFENDER_EXCHANGE:
        return _defender_exchange(v, contract, soloist)
    if v.monte is not None:
        _bad("monte", f"monte: in {contract} the monte stays face down; no one sees it")
    return v.hand


def _soloist_exchange(v: View, contract: Contract, soloist: int) -> Mask | None:
    ex, seat, hand, monte = v.exchange, v.seat, v.hand, v.monte
    put = object.__setattr__
    if monte is not None and seat != soloist:
        _bad("monte", f"monte: seat {seat}, a defender, does not see the monte in {contract}")
    discards = None
    if ex.discards is not None:
        if seat != soloist:
            _bad("discards", f"discards: seat {seat}, a defender, does not see the soloist's discards")
        others = [s for s in range(3) if s != soloist and ex.discards[s]]
        if others:
            _bad("discards", f"discards: in {contract} only the soloist, seat {soloist}, discards")
        discards = ex.discards[soloist]
        if popcount(discards) != 4:
            _bad("discards", f"discards: the soloist discards 4 cards, not {popcount(discards)}")
    source: int | None = None
    if contract == "chiamo":
        if ex.call is None:
            for key, value in (("return", ex.returned), ("discards", ex.discards), ("monte", monte)):
                if value is not None:
                    _bad(key, f"{key}: given without a call (the soloist calls first, then takes the monte)")
            if v.call_from is not None:
                _bad("call", "call: a card's source given without the card")
            return None
        call = ex.call
        if seat == soloist and hand >> call & 1:
            _bad("call", f"call {card_name(call)}: seat {soloist}, the soloist, holds it (call a card not in your hand)")
        source = _call_source(v, call, soloist)
        put(v, "call_from", MONTE if source is None else source)
        if ex.returned is not None:
            ret = ex.returned
            if source is None:
                _bad("return", f"return {card_name(ret)}: the called card {card_name(call)} was in the monte, "
                     "nothing was handed over, so nothing is given back")
            if ret == call:
                _bad("return", f"return {card_name(ret)}: the soloist may not give back the called card")
            if seat != soloist and hand >> ret & 1:
                _bad("return", f"return {card_name(ret)}: seat {seat} held it, so the soloist cannot give it back")
    if seat != soloist:
        if contract == "chiamo" and source == seat:
            if ex.returned is None:
                return None
            return (hand & ~bit(ex.call or 0)) | bit(ex.returned)
        if contract == "chiamo" and source is not None and ex.returned is None:
            return None  # the handing over is not over yet
        return hand
    # the soloist's own view
    if monte is None:
        if discards is not None or ex.returned is not None:
            key = "discards" if discards is not None else "return"
            _bad(key, f"{key}: seat {seat} took the monte before this step; give the monte it saw (monte: ...)")
        return None
    pool = hand | monte
    if contract == "chiamo" and ex.call is not None and source is not None:
        pool |= bit(ex.call)
        if ex.returned is not None:
            if not pool >> ex.returned & 1:
                _bad("return", f"return {card_name(ex.returned)}: the soloist does not hold it "
                     f"(hand, monte and the called card: {hand_name(pool)})")
            pool &= ~bit(ex.returned)
    if discards is None:
        return None
    if discards & ~pool:
        _bad("discards", f"discards: {cards_name(display_order(discards & ~pool))} not among the soloist's cards "
             f"({hand_name(pool)})")
    if contract == "chiamo" and source is not None and ex.returned is None:
        _bad("discards", "discards: given before the return (the soloist gives a card back, then discards)")
    return pool & ~discards


def _call_source(v: View, call: Card, soloist: int) -> int | None:
    """Where the called card came from, as written or as the seat can tell: a seat, or None for the monte."""
    seat, said = v.seat, v.call_from
    if said is not None and said != MONTE and not (_is_seat(said) and said != soloist):
        _bad("call", f"call: from {said!r}: the called card comes from a defender's seat "
             f"({', '.join(map(str, defender_seats(soloist)))}) or from the monte")
    held = seat != soloist and v.hand >> call & 1
    in_monte = None if v.monte is None else bool(v.monte >> call & 1)
    if held:
        if said is not None and said != seat:
            _bad("call", f"call {card_name(call)}: seat {seat} held it, so it came from seat {seat}, not {said}")
        return seat
    if said == seat:
        _bad("call", f"call {card_name(call)} from {seat}: seat {seat} does not hold it")
    if in_monte is not None:
        if said is not None and (said == MONTE) != in_monte:
            where = "was" if in_monte else "was not"
            _bad("call", f"call {card_name(call)} from {said}: it {where} in the monte")
        if in_monte:
            return None
    if said is None:
        _bad("call", f"call {card_name(call)}: seat {seat} cannot tell where it came from; "
             f"write 'call: {card_name(call)} from SEAT' or 'from monte'")
    return None if said == MONTE else int(said)


def _defender_exchange(v: View, contract: Contract, soloist: int) -> Mask | None:
    ex, seat, hand, monte = v.exchange, v.seat, v.hand, v.monte
    defenders = defender_seats(soloist)
    if contract == "dividete" and monte is not None:
        _bad("monte", "monte: in dividete the defenders take the monte blind; no one sees it")
    if contract == "scegliete" and monte is None:
        _bad("monte", f"monte: in scegliete the monte is turned face up; seat {seat} saw it, give it")
    takes = ex.takes
    if takes is not None:
        if takes[soloist]:
            _bad("takes", f"takes: seat {soloist} is the soloist; only the defenders take in {contract}")
        if contract == "dividete":
            other = [d for d in defenders if d != seat and takes[d]]
            if seat == soloist or other:
                _bad("takes", f"takes: seat {seat} does not see seat {other[0] if other else defenders[0]}'s takes "
                     "(the defenders take blind in dividete)")
            if popcount(takes[seat]) != 2:
                _bad("takes", f"takes: in dividete each defender takes 2 cards; seat {seat} takes {popcount(takes[seat])}")
            if takes[seat] & hand:
                _bad("takes", f"takes: {cards_name(display_order(takes[seat] & hand))} in seat {seat}'s own hand, not in the monte")
        else:
            assert monte is not None
            taken = takes[0] | takes[1] | takes[2]
            if popcount(takes[0]) + popcount(takes[1]) + popcount(takes[2]) != popcount(taken) or taken != monte:
                _bad("takes", f"takes: the defenders share out the monte ({hand_name(monte)}) whole, each card once")
    if ex.discards is not None:
        if takes is None:
            _bad("discards", "discards: given without takes (the defenders take, then discard)")
        others = [s for s in range(3) if s != seat and ex.discards[s]]
        if others:
            _bad("discards", f"discards: seat {seat} does not see seat {others[0]}'s discards (face down)")
        if seat == soloist:
            _bad("discards", f"discards: seat {seat} is the soloist; only the defenders discard in {contract}")
        mine = ex.discards[seat]
        if popcount(mine) != popcount(takes[seat]):
            _bad("discards", f"discards: seat {seat} took {popcount(takes[seat])} and must discard as many, "
                 f"not {popcount(mine)}")
        if mine & ~(hand | takes[seat]):
            _bad("discards", f"discards: {cards_name(display_order(mine & ~(hand | takes[seat])))} not among seat "
                 f"{seat}'s cards")
        return (hand | takes[seat]) & ~mine
    if seat == soloist:
        return hand if contract == "dividete" or takes is not None else None
    return None


def _validate_played(v: View, own: Mask | None) -> None:
    played = tuple(v.played)
    object.__setattr__(v, "played", played)
    if not played:
        return
    for i, card in enumerate(played, 1):
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_CARDS:
            _bad("played", f"played card {i}: {card!r} is not a card id 0..39")
    if len(played) > 36:
        _bad("played", f"played: {len(played)} cards, but a deal has only 36 (12 tricks of 3)")
    contract, soloist, leader = v.contract, v.soloist, v.first_leader
    if contract is None or soloist is None or leader is None:
        _bad("played", "played cards given, but the auction has not decided the contract")
    if own is None:
        _bad("played", f"played cards given, but the {contract} exchange as seat {v.seat} saw it is not complete; "
             "give what the seat saw of it")
    allowed, room, notes = _places(v, own, contract, soloist)
    voids = [0, 0, 0]
    trick: list[Card] = []
    mine = own
    at: dict[Card, int] = {}
    for i, card in enumerate(played, 1):
        seat = (leader + len(trick)) % 3
        what = f"played card {i} ({card_name(card)}, trick {(i - 1) // 3 + 1})"
        if card in at:
            _bad("played", f"{what}: it is already played card {at[card]}")
        at[card] = i
        led = suit_of(trick[0]) if trick else None
        if seat == v.seat:
            if not mine >> card & 1:
                _bad("played", f"{what}: seat {seat} does not hold it (seat {seat} holds {hand_name(mine)})")
            if led is not None and suit_of(card) != led and mine & SUIT_MASKS[led]:
                _bad("played", f"{what}: seat {seat} must follow {SUIT_NAMES[led]} (led {card_name(trick[0])}) "
                     f"with {cards_name(display_order(mine & SUIT_MASKS[led]))}")
            mine &= ~bit(card)
        else:
            if own >> card & 1:
                _bad("played", f"{what}: seat {seat} cannot hold it, seat {v.seat} does")
            if voids[seat] >> suit_of(card) & 1:
                _bad("played", f"{what}: seat {seat} showed it has no {SUIT_NAMES[suit_of(card)]} earlier")
            if not allowed.get(card, 0) >> seat & 1:
                _bad("played", f"{what}: seat {seat} cannot hold it ({notes.get(card, 'it is in the new monte')})")
            if led is not None and suit_of(card) != led:
                voids[seat] |= 1 << led
            allowed.pop(card)
            room[seat] -= 1
        trick.append(card)
        if len(trick) == 3:
            leader, trick = trick_winner(trick, leader), []
    for card in allowed:
        for s in range(3):
            if voids[s] >> suit_of(card) & 1:
                allowed[card] &= ~(1 << s)
    if not layout_exists(allowed, room):
        _bad("played", f"played: no deal fits seat {v.seat}'s view: the cards it has not seen cannot be laid out "
             "with the voids the play has shown")


def _places(v: View, own: Mask, contract: Contract, soloist: int) -> tuple[dict[Card, int], list[int], dict[Card, str]]:
    """The places each card the seat cannot place may be at the first lead (bit per seat, bit 3 the new
    monte), the room left in each place for them, and why a card is held to some places."""
    ex, seat = v.exchange, v.seat
    room = [12, 12, 12, 4]
    room[seat] = 0
    everywhere = sum(1 << p for p in range(4) if p != seat)
    known_monte = 0
    must: dict[Card, int] = {}
    notes: dict[Card, str] = {}
    if seat == soloist and contract in ("chiamo", "solo") and ex.discards is not None:
        known_monte = ex.discards[soloist]
    if contract in DEFENDER_EXCHANGE and ex.discards is not None:
        known_monte = ex.discards[seat]
    if contract == "chiamo" and ex.call is not None:
        must[ex.call] = (1 << soloist) | (1 << _PLACE_MONTE)
        notes[ex.call] = f"the called card is the soloist's, seat {soloist}'s, or in the new monte"
        if _is_seat(v.call_from) and ex.returned is not None:
            must[ex.returned] = 1 << int(v.call_from or 0)
            notes[ex.returned] = f"the soloist gave it to seat {v.call_from}"
    if contract == "scegliete" and ex.takes is not None:
        for d in defender_seats(soloist):
            if d != seat:
                for card in display_order(ex.takes[d]):
                    must[card] = (1 << d) | (1 << _PLACE_MONTE)
                    notes[card] = f"seat {d} took it from the face-up monte: seat {d} holds it or discarded it"
    room[_PLACE_MONTE] -= popcount(known_monte)
    allowed = {c: everywhere & must.get(c, everywhere) for c in display_order(FULL_DECK & ~own & ~known_monte)}
    return allowed, room, notes


def first_lead_places(view: View) -> tuple[Mask, Mask, dict[Card, int], list[int]] | None:
    """What ``view`` says of the deal at the first lead: the seat's hand then, the cards it knows are in the
    new monte, each other card with the places it may have been (bit per seat, bit 3 the new monte) and the
    room each place had for those cards; None while the exchange as the seat saw it is not over."""
    own = _validate_exchange(view)
    if own is None or view.contract is None or view.soloist is None:
        return None
    allowed, room, _ = _places(view, own, view.contract, view.soloist)
    known_monte = FULL_DECK & ~own & ~sum(bit(c) for c in allowed)
    return own, known_monte, allowed, room


# -- a record's views ----------------------------------------------------------


def record_auction(contract: Contract, soloist: int, rules: Rules = STANDARD) -> tuple[str, ...]:
    """The plainest auction that ends in ``contract`` for ``soloist``: the others pass.

    >>> record_auction("solo", 1), record_auction("dividete", 0)
    (('pass', 'solo', 'pass'), ('solissimo',))
    """
    bid = contract if contract in LADDERS[rules.aggravations] else "solissimo"
    auction = Auction(rules)
    for call in ["pass"] * soloist + [bid]:
        auction.call(call)
    while not auction.is_over:
        auction.call("pass")
    return tuple(call for _, call in auction.calls)


def seat_only(masks: Sequence[Mask], seat: int) -> tuple[Mask, Mask, Mask]:
    """Per-seat cards with only ``seat``'s kept: what that seat sees of the others' takes or discards.

    >>> seat_only([1, 2, 4], 1)
    (0, 2, 0)
    """
    return (masks[0] if seat == 0 else 0, masks[1] if seat == 1 else 0, masks[2] if seat == 2 else 0)


def seat_view(record: Record, seat: int, played: int | None = None) -> View:
    """What ``seat`` knows of ``record`` after its first ``played`` cards (all of them by default).

    The auction is the record's, or when it gives none the plainest one that gives its contract
    (:func:`record_auction`).
    """
    if not _is_seat(seat):
        raise ParameterError("seat", seat, "must be 0, 1 or 2")
    n = len(record.played) if played is None else played
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(record.played):
        raise ParameterError("played", played, f"must be 0..{len(record.played)}, the cards {record.where()} gives")
    contract, soloist, ex = record.contract, record.soloist, record.exchange
    monte: Mask | None = None
    call_from: int | str | None = None
    seen = Exchange()
    if contract in ("chiamo", "solo"):
        took = contract == "solo" or ex.call is not None
        if seat == soloist:
            monte = record.monte if took else None
            seen = dataclasses.replace(ex, takes=None)
        else:
            seen = Exchange(call=ex.call, returned=ex.returned)
        if ex.call is not None:
            source = called_from(record.hands, record.monte, ex.call)
            call_from = MONTE if source is None else source
    elif contract in DEFENDER_EXCHANGE:
        if contract == "scegliete":
            monte = record.monte
        takes = ex.takes
        if takes is not None and contract == "dividete":
            takes = None if seat == soloist else seat_only(takes, seat)  # taken blind: each sees its own
        discards = None if ex.discards is None or seat == soloist else seat_only(ex.discards, seat)
        seen = Exchange(takes=takes, discards=discards)
    return View(seat=seat, hand=record.hands[seat], monte=monte,
                calls=record.auction or record_auction(contract, soloist, record.rules), contract=contract, soloist=soloist,
                leader=record.leader, exchange=seen, call_from=call_from, played=record.played[:n],
                rules=record.rules, name=record.name)


# -- writing -----------------------------------------------------------------


def _tokens(mask: Mask) -> str:
    return ",".join(card_name(c) for c in display_order(mask)) or "-"


def format_view(view: View) -> str:
    """The view's deal-file text (no trailing newline), which the parser reads back to an equal view.

    >>> from calasolve.game.cards import parse_hand
    >>> print(format_view(View(2, parse_hand("2AC7.R7.R4.RC76"), calls=("pass",))))
    view: 2
    hands: ? ? 2AC7.R7.R4.RC76
    monte: ?
    auction: pass
    """
    v, ex = view, view.exchange
    out = [f"name: {v.name}"] if v.name is not None else []
    out.append(f"view: {v.seat}")
    out.append("hands: " + " ".join(hand_name(v.hand) if s == v.seat else "?" for s in range(3)))
    out.append(f"monte: {'?' if v.monte is None else hand_name(v.monte)}")
    if v.calls:
        out.append(f"auction: {' '.join(v.calls)}")
    if v.contract is not None and not v.to_declare:
        out.append(f"contract: {v.contract}")
        out.append(f"soloist: {v.soloist}")
    if v.leader is not None:
        out.append(f"leader: {v.leader}")
    if v.rules.changes():
        out.append(f"rules: {v.rules.describe()}")
    if ex.call is not None:
        out.append(f"call: {card_name(ex.call)} from {v.call_from}")
    if ex.returned is not None:
        out.append(f"return: {card_name(ex.returned)}")
    if ex.takes is not None:
        seats = [s for s in range(3) if s != v.soloist and (ex.takes[s] or v.contract == "scegliete" or s == v.seat)]
        out.append("takes: " + " ".join(f"{s}={_tokens(ex.takes[s])}" for s in seats))
    if ex.discards is not None:
        if v.contract in DEFENDER_EXCHANGE:
            out.append(f"discards: {v.seat}={_tokens(ex.discards[v.seat])}")
        else:
            out.append("discards: " + " ".join(card_name(c) for c in display_order(ex.discards[v.soloist or 0])))
    if v.played:
        out.append(f"played: {cards_name(v.played)}")
    return "\n".join(out)
