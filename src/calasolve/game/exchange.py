"""The exchange with the monte (docs/rules.md §5): check and apply a *given* exchange.

An :class:`Exchange` records the choices made before the first lead: the
chiamo call and return, the discards and the defenders' takes.  It may be
partial (a chiamo with only its call, a solo without discards...): finding
the double-dummy-best completion is a search done elsewhere; here we check
what *is* given (:func:`check_exchange`), say whether it is enough to play
(:func:`is_complete`) and apply it (:func:`apply_exchange`).

>>> from calasolve.game.cards import parse_hand, parse_card, hand_name
>>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
>>> monte = parse_hand("-.-.4.327")
>>> new_hands, new_monte = apply_exchange(hands, monte, "solo", 0, Exchange(discards=(parse_hand("-.-.4.754"), 0, 0)))
>>> hand_name(new_hands[0]), hand_name(new_monte)
('32AR.32AR.3A.32', '-.-.4.754')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn, Sequence, TypeVar

from .cards import NUM_CARDS, Card, Mask, card_name, display_order, hand_name, parse_card, parse_cards_or_hand, popcount
from .errors import CalasolveError, ExchangeError, ExchangeFieldError, InternalError
from .state import CONTRACTS, DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, Contract, defender_seats

Hands = tuple[Mask, Mask, Mask]
T = TypeVar("T")

#: The Exchange fields each contract uses (``returned`` only when a defender held the called card).
_FIELDS: dict[str, tuple[str, ...]] = {
    "chiamo": ("call", "returned", "discards"),
    "solo": ("discards",),
    "solissimo": (),
    "dividete": ("takes", "discards"),
    "scegliete": ("takes", "discards"),
}


def _fail(field: str | None, message: str) -> NoReturn:
    raise ExchangeFieldError(field, message)


def _names(mask: Mask) -> str:
    """Cards of ``mask`` as tokens, reading order, comma-separated; ``-`` for none."""
    return ",".join(card_name(c) for c in display_order(mask)) or "-"


@dataclass(frozen=True)
class Exchange:
    """The exchange choices, any of them possibly unknown (``None``).

    ``discards`` and ``takes`` hold one mask per seat (0 for a seat that
    discards or takes nothing); in chiamo and solo only the soloist discards.

    >>> from calasolve.game.cards import parse_card, parse_hand
    >>> Exchange(call=parse_card("3B"), returned=parse_card("4S")).to_dict()
    {'call': '3B', 'return': '4S'}
    >>> Exchange(takes=(0, parse_hand("A.-.-.3"), parse_hand("-.-.27.-"))).to_dict()
    {'takes': {'1': 'A.-.-.3', '2': '-.-.27.-'}}
    """

    #: chiamo: the card the soloist names
    call: Card | None = None
    #: chiamo: the card the soloist gives back to the defender who handed over the called card
    returned: Card | None = None
    #: per seat: the cards discarded (the soloist in chiamo/solo; the defenders in dividete/scegliete)
    discards: tuple[Mask, Mask, Mask] | None = None
    #: per seat: the monte cards taken (the defenders in dividete/scegliete)
    takes: tuple[Mask, Mask, Mask] | None = None

    def __repr__(self) -> str:
        """The given fields in notation, keyed as in the deal file.

        >>> from calasolve.game.cards import parse_card
        >>> Exchange(call=parse_card("3C"), returned=parse_card("4C"))
        Exchange(call='3C', return='4C')
        """
        return "Exchange(" + ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items()) + ")"

    @property
    def is_empty(self) -> bool:
        """No field given."""
        return self == Exchange()

    @classmethod
    def from_dict(cls, value: object) -> "Exchange":
        """The exchange of :meth:`to_dict`'s form (a card token for ``call`` and ``return``,
        ``{"seat": cards}`` for ``discards`` and ``takes``, cards as a hand or as tokens); an
        :class:`ExchangeError` naming the field at fault otherwise.

        >>> Exchange.from_dict({"call": "3C", "return": "4c", "discards": {"2": "6B,5C,FD,7D"}}).to_dict()
        {'call': '3C', 'return': '4C', 'discards': {'2': '6.-.5.F7'}}
        >>> Exchange.from_dict({"calls": "3C"})
        Traceback (most recent call last):
        ...
        calasolve.game.errors.ExchangeError: exchange: unknown field 'calls' (use call, return, discards, takes)
        """
        if not isinstance(value, dict):
            raise ExchangeError(f"exchange: expected an object, got {type(value).__name__}")
        fields: dict[str, Any] = {}
        for key, item in value.items():
            if key in ("call", "return"):
                if not isinstance(item, str):
                    raise ExchangeError(f"exchange.{key}: expected a card token, got {type(item).__name__}")
                try:
                    fields["call" if key == "call" else "returned"] = parse_card(item)
                except CalasolveError as err:
                    raise ExchangeError(f"exchange.{key}: {err}") from None
            elif key in ("discards", "takes"):
                fields[key] = _per_seat(key, item)
            else:
                raise ExchangeError(f"exchange: unknown field {key!r} (use call, return, discards, takes)")
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        """The given fields, JSON-able, keyed as in the deal file (``return``, not ``returned``);
        per-seat masks as ``{"seat": hand}`` for the seats with cards."""
        out: dict[str, object] = {}
        if self.call is not None:
            out["call"] = card_name(self.call)
        if self.returned is not None:
            out["return"] = card_name(self.returned)
        for key, per_seat in (("discards", self.discards), ("takes", self.takes)):
            if per_seat is not None:
                out[key] = {str(seat): hand_name(m) for seat, m in enumerate(per_seat) if m}
        return out


def _per_seat(key: str, value: object) -> Hands:
    """``{"1": "A.-.-.3", "2": "-"}`` (the form of :meth:`Exchange.to_dict`) as three masks."""
    if not isinstance(value, dict):
        raise ExchangeError(f"exchange.{key}: expected an object of seat: cards, got {type(value).__name__}")
    out = [0, 0, 0]
    for seat, cards in value.items():
        if seat not in ("0", "1", "2"):
            raise ExchangeError(f"exchange.{key}: seat {seat!r} is not 0, 1 or 2")
        if not isinstance(cards, str):
            raise ExchangeError(f"exchange.{key}.{seat}: expected cards as text, got {type(cards).__name__}")
        try:
            out[int(seat)] = parse_cards_or_hand(cards)
        except CalasolveError as err:
            raise ExchangeError(f"exchange.{key}.{seat}: {err}") from None
    return out[0], out[1], out[2]


def exchange_fields_needed(contract: Contract) -> tuple[str, ...]:
    """The :class:`Exchange` fields ``contract`` uses; ``returned`` only when a
    defender holds the called card.

    >>> exchange_fields_needed("chiamo"), exchange_fields_needed("solissimo")
    (('call', 'returned', 'discards'), ())
    """
    if contract not in _FIELDS:
        raise ExchangeError(f"unknown contract {contract!r} (use {', '.join(CONTRACTS)})")
    return _FIELDS[contract]


def called_from(hands: Sequence[Mask], monte: Mask, card: Card) -> int | None:
    """The seat holding ``card``, or ``None`` when it is in the monte.

    >>> from calasolve.game.cards import parse_hand, parse_card
    >>> called_from((0, parse_hand("3.-.-.-"), 0), parse_hand("2.-.-.-"), parse_card("3B")), \\
    ...     called_from((0, 0, 0), parse_hand("2.-.-.-"), parse_card("2B"))
    (1, None)
    """
    for seat in range(3):
        if hands[seat] >> card & 1:
            return seat
    if monte >> card & 1:
        return None
    raise ExchangeError(f"{card_name(card)} is in no hand and not in the monte")


def missing_fields(contract: Contract, hands: Sequence[Mask], monte: Mask, soloist: int, exchange: Exchange) -> tuple[str, ...]:
    """The :class:`Exchange` fields ``contract`` still needs (nothing is checked here);
    ``returned`` is not needed when the called card is in the monte.

    >>> from calasolve.game.cards import parse_card, parse_hand
    >>> hands = (parse_hand("3.-.-.-"), parse_hand("2.-.-.-"), 0)
    >>> missing_fields("chiamo", hands, parse_hand("A.-.-.-"), 0, Exchange(call=parse_card("2B")))
    ('returned', 'discards')
    >>> missing_fields("chiamo", hands, parse_hand("A.-.-.-"), 0, Exchange(call=parse_card("AB")))
    ('discards',)
    """
    missing = [f for f in exchange_fields_needed(contract) if getattr(exchange, f) is None]
    if "returned" in missing and exchange.call is not None and called_from(hands, monte, exchange.call) in (None, soloist):
        missing.remove("returned")  # nothing was handed over, so nothing goes back
    return tuple(missing)


def is_complete(contract: Contract, hands: Sequence[Mask], monte: Mask, soloist: int, exchange: Exchange) -> bool:
    """Whether ``exchange`` gives every choice ``contract`` needs (it is not checked here).

    >>> from calasolve.game.cards import parse_card, parse_hand
    >>> hands = (parse_hand("3.-.-.-"), parse_hand("2.-.-.-"), 0)
    >>> is_complete("chiamo", hands, 0, 0, Exchange(call=parse_card("2B"), discards=(1, 0, 0)))
    False
    >>> is_complete("solissimo", hands, 0, 0, Exchange())
    True
    """
    return not missing_fields(contract, hands, monte, soloist, exchange)


def _check_card(field: str, card: object) -> Card:
    if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
        _fail(field, f"{field}: {card!r} is not a card id 0..39")
    return card


def _check_masks(field: str, masks: object) -> Hands:
    if not isinstance(masks, tuple) or len(masks) != 3 or not all(isinstance(m, int) and 0 <= m < 1 << NUM_CARDS for m in masks):
        _fail(field, f"{field}: give one card mask per seat, a tuple of 3 ints")
    return masks


def _check_deal(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int) -> None:
    if contract not in CONTRACTS:
        raise ExchangeError(f"unknown contract {contract!r} (use {', '.join(CONTRACTS)})")
    if soloist not in (0, 1, 2):
        raise ExchangeError(f"soloist {soloist!r}: must be seat 0, 1 or 2")
    sizes = [popcount(h) for h in hands] + [popcount(monte)]
    if len(hands) != 3 or sizes != [12, 12, 12, 4] or popcount(hands[0] | hands[1] | hands[2] | monte) != 40:
        raise ExchangeError(f"the exchange needs a deal as dealt: three hands of 12 and a monte of 4, all different (sizes {sizes})")


def check_exchange(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int, exchange: Exchange) -> None:
    """Check what ``exchange`` gives against the deal and docs/rules.md §5; missing
    fields are fine.  Raises :class:`ExchangeFieldError` naming the faulty field.

    >>> from calasolve.game.cards import parse_hand, parse_card
    >>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
    >>> check_exchange(hands, parse_hand("-.-.4.327"), "chiamo", 0, Exchange(call=parse_card("AB")))
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ExchangeFieldError: chiamo: the soloist (seat 0) holds AB; call a card they do not hold
    """
    _check_deal(hands, monte, contract, soloist)
    ex = exchange
    used = _FIELDS[contract]
    for name, key in (("call", "call"), ("returned", "return"), ("discards", "discards"), ("takes", "takes")):
        if getattr(ex, name) is not None and name not in used:
            if not used:
                _fail(name, f"{contract} has no exchange: remove {key}")
            _fail(name, f"{contract} has no {key} (its exchange gives {', '.join(used)})")
    if contract in SOLOIST_EXCHANGE:
        _check_soloist_side(hands, monte, contract, soloist, ex)
    elif contract in DEFENDER_EXCHANGE:
        _check_defender_side(hands, monte, contract, soloist, ex)


def _check_soloist_side(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int, ex: Exchange) -> None:
    # The pool is everything the soloist holds just before discarding.
    pool = hands[soloist] | monte
    if contract == "chiamo":
        if ex.call is None:
            for name, key in (("returned", "return"), ("discards", "discards")):
                if getattr(ex, name) is not None:
                    _fail(name, f"chiamo: {key} given without the call")
            return
        call = _check_card("call", ex.call)
        holder = called_from(hands, monte, call)
        if holder == soloist:
            _fail("call", f"chiamo: the soloist (seat {soloist}) holds {card_name(call)}; call a card they do not hold")
        pool |= 1 << call
        if ex.returned is not None:
            ret = _check_card("returned", ex.returned)
            if holder is None:
                _fail("returned", f"chiamo: the called card {card_name(call)} was in the monte, so nothing is returned")
            if ret == call:
                _fail("returned", f"chiamo: the soloist may not return the called card {card_name(call)}")
            if not pool >> ret & 1:
                _fail("returned", f"chiamo: the soloist cannot return {card_name(ret)}: it is not in their hand, the monte or the call")
            pool &= ~(1 << ret)
    if ex.discards is None:
        return
    discards = _check_masks("discards", ex.discards)
    for seat in range(3):
        if seat != soloist and discards[seat]:
            _fail("discards", f"{contract}: only the soloist (seat {soloist}) discards, not seat {seat}")
    mine = discards[soloist]
    if contract == "chiamo" and ex.returned is not None and mine >> ex.returned & 1:
        _fail("discards", f"chiamo: {card_name(ex.returned)} is both returned and discarded")
    if mine & ~pool:
        where = "their hand, the monte or the call" if contract == "chiamo" else "their hand or the monte"
        _fail("discards", f"{contract}: the soloist cannot discard {_names(mine & ~pool)}: not in {where}")
    if popcount(mine) != 4:
        _fail("discards", f"{contract}: the soloist discards exactly 4 cards, not {popcount(mine)}")


def _check_defender_side(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int, ex: Exchange) -> None:
    if ex.takes is None:
        if ex.discards is not None:
            _fail("discards", f"{contract}: the defenders' discards are given without their takes")
        return
    takes = _check_masks("takes", ex.takes)
    d1, d2 = defender_seats(soloist)
    if takes[soloist]:
        _fail("takes", f"{contract}: the soloist (seat {soloist}) takes nothing from the monte")
    for seat in (d1, d2):
        if takes[seat] & ~monte:
            _fail("takes", f"{contract}: seat {seat} cannot take {_names(takes[seat] & ~monte)}: not in the monte ({hand_name(monte)})")
    if takes[d1] & takes[d2]:
        _fail("takes", f"{contract}: {_names(takes[d1] & takes[d2])} taken by both seat {d1} and seat {d2}")
    if contract == "dividete":
        for seat in (d1, d2):
            if popcount(takes[seat]) != 2:
                _fail("takes", f"dividete: each defender takes exactly 2 monte cards; seat {seat} takes {popcount(takes[seat])}")
    elif takes[d1] | takes[d2] != monte:
        _fail("takes", f"scegliete: the defenders share out the whole monte; nobody takes {_names(monte & ~(takes[d1] | takes[d2]))}")
    if ex.discards is None:
        return
    discards = _check_masks("discards", ex.discards)
    if discards[soloist]:
        _fail("discards", f"{contract}: the soloist (seat {soloist}) does not discard; the defenders do")
    for seat in (d1, d2):
        pool = hands[seat] | takes[seat]
        if discards[seat] & ~pool:
            _fail("discards", f"{contract}: seat {seat} cannot discard {_names(discards[seat] & ~pool)}: not in their hand or their takes")
        if popcount(discards[seat]) != popcount(takes[seat]):
            _fail("discards", f"{contract}: seat {seat} took {popcount(takes[seat])} "
                              f"and must discard as many, not {popcount(discards[seat])}")


def apply_exchange(hands: Sequence[Mask], monte: Mask, contract: Contract, soloist: int, exchange: Exchange) -> tuple[Hands, Mask]:
    """The hands and the monte after ``exchange``: everyone holds 12, the
    discards form the new monte.  Raises :class:`ExchangeError` when the
    exchange breaks docs/rules.md §5 or lacks a choice.

    >>> from calasolve.game.cards import parse_hand, parse_card, hand_name
    >>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
    >>> monte = parse_hand("-.-.4.327")
    >>> ex = Exchange(call=parse_card("AD"), returned=parse_card("4D"), discards=(parse_hand("R.-.4.75"), 0, 0))
    >>> new_hands, new_monte = apply_exchange(hands, monte, "chiamo", 0, ex)
    >>> [hand_name(h) for h in new_hands], hand_name(new_monte)
    (['32A.32AR.3A.32A', 'CF76.CF76.2R.64', '54.54.CF765.RCF'], 'R.-.4.75')
    >>> apply_exchange(hands, monte, "solo", 0, Exchange())
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ExchangeError: solo: the exchange is incomplete (missing: discards)
    """
    check_exchange(hands, monte, contract, soloist, exchange)
    new = list(hands)
    missing = missing_fields(contract, hands, monte, soloist, exchange)
    if missing:
        words = ", ".join("return" if f == "returned" else f for f in missing)
        raise ExchangeError(f"{contract}: the exchange is incomplete (missing: {words})")
    if contract == "solissimo":
        return (new[0], new[1], new[2]), monte
    discards = _known(exchange.discards, "discards")
    if contract in SOLOIST_EXCHANGE:
        new[soloist] |= monte
        if contract == "chiamo":
            call = _known(exchange.call, "call")
            holder = called_from(hands, monte, call)
            new[soloist] |= 1 << call
            if holder is not None:
                returned = _known(exchange.returned, "returned")
                new[holder] = new[holder] & ~(1 << call) | 1 << returned
                new[soloist] &= ~(1 << returned)
    else:
        takes = _known(exchange.takes, "takes")
        for seat in range(3):
            new[seat] |= takes[seat]
    new_monte = 0
    for seat in range(3):
        new[seat] &= ~discards[seat]
        new_monte |= discards[seat]
    # The checks above already force this; kept as a guard for the invariant later code relies on.
    if [popcount(h) for h in new] != [12, 12, 12] or popcount(new_monte) != 4:
        raise InternalError(f"{contract}: the exchange left hands of {[popcount(h) for h in new]} cards "
                            f"and a monte of {popcount(new_monte)}")
    return (new[0], new[1], new[2]), new_monte


def _known(value: T | None, field: str) -> T:
    """An exchange field that :func:`missing_fields` found present: None here is a bug."""
    if value is None:
        raise InternalError(f"the exchange's {field} is missing after the check that it is complete")
    return value
