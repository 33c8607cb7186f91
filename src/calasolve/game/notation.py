"""The notation of game objects: one card notation, hand and table diagrams, the record's header, the
exchange and the position in words, trick lines.

Every formatter takes a :class:`Notation`: letters (``AB``, the default, the
notation of the deal files and of the JSON) or suit symbols (``A♣``), never
both in one output.  :func:`notation` picks one from a flag or the
``CALASOLVE_SYMBOLS`` environment variable.

>>> from calasolve.game.cards import parse_hand
>>> print("\\n".join(hand_diagram(parse_hand("32A7.RC5.F64.A"))))
Bastoni 3 2 A 7
Spade   R C 5
Coppe   F 6 4
Denari  A
>>> print("\\n".join(hand_diagram(parse_hand("32A7.RC5.F64.A"), SYMBOLS)))
♣ 3 2 A 7
♠ R C 5
♥ F 6 4
♦ A
>>> from calasolve.game.cards import parse_cards
>>> LETTERS.cards(parse_cards("AC 3S")), SYMBOLS.cards(parse_cards("AC 3S"))
('AC 3S', 'A♥ 3♠')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .cards import (
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Mask,
    display_order,
    mask_thirds,
    parse_card,
    parse_cards_or_hand,
)
from .errors import CalasolveError
from .exchange import Exchange, called_from
from .state import DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, Contract, PlayState, Trick, defender_seats

__all__ = [
    "Notation",
    "LETTERS",
    "SYMBOLS",
    "ENV_SYMBOLS",
    "notation",
    "plural",
    "hand_diagram",
    "table_diagram",
    "exchange_block",
    "exchange_text",
    "exchange_from_text",
    "called_from_text",
    "position_block",
    "trick_lines",
]

#: The environment variable that turns suit symbols on for text output (``1``, ``yes``, ``true``, ``on``).
ENV_SYMBOLS = "CALASOLVE_SYMBOLS"


@dataclass(frozen=True)
class Notation:
    """How cards and suits are written: letters (``AB``, ``Bastoni``) or symbols (``A♣``, ``♣``)."""

    symbols: bool = False

    def card(self, card: Card) -> str:
        """One card: ``AB`` or ``A♣``.

        >>> LETTERS.card(37), SYMBOLS.card(37)
        ('AD', 'A♦')
        """
        return RANKS[card % 10] + (SUIT_SYMBOLS if self.symbols else SUITS)[card // 10]

    def cards(self, cards: Iterable[Card], sep: str = " ") -> str:
        """Cards in the order given, ``-`` for none."""
        return sep.join(self.card(c) for c in cards) or "-"

    def mask(self, mask: Mask, sep: str = " ") -> str:
        """The cards of a set in reading order (suits B S C D, ranks high to low), ``-`` for none."""
        return self.cards(display_order(mask), sep)

    def suit(self, suit: int) -> str:
        """A suit's label in a diagram: its name, or its symbol."""
        return SUIT_SYMBOLS[suit] if self.symbols else SUIT_NAMES[suit]


LETTERS = Notation(False)
SYMBOLS = Notation(True)


def notation(symbols: bool | None = None, environ: Mapping[str, str] | None = None) -> Notation:
    """The notation asked for: ``symbols`` when given, else the ``CALASOLVE_SYMBOLS`` setting, else letters.

    >>> notation(), notation(True), notation(environ={"CALASOLVE_SYMBOLS": "1"}).symbols
    (Notation(symbols=False), Notation(symbols=True), True)
    """
    if symbols is None:
        value = (os.environ if environ is None else environ).get(ENV_SYMBOLS, "")
        symbols = value.strip().lower() in ("1", "yes", "true", "on")
    return SYMBOLS if symbols else LETTERS


def as_notation(n: Notation | bool) -> Notation:
    return n if isinstance(n, Notation) else (SYMBOLS if n else LETTERS)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word, singular or plural.

    >>> plural(1, "third"), plural(0, "mistake"), plural(2, "trick")
    ('1 third', '0 mistakes', '2 tricks')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def role(seat: int, soloist: int) -> str:
    return "soloist" if seat == soloist else "defender"


def side(seat: int, soloist: int) -> str:
    return "soloist" if seat == soloist else "defence"


# -- hand diagrams ---------------------------------------------------------------

def hand_diagram(hand: Mask, symbols: Notation | bool = False) -> list[str]:
    """One hand, a line per suit: its name (or symbol), then the ranks high to low (``-`` for a void).

    ``symbols`` is a :class:`Notation` or a bool.  A formatter lays these
    lines out as it likes (:func:`table_diagram` puts three around a table).
    """
    n = as_notation(symbols)
    width = 1 if n.symbols else max(len(name) for name in SUIT_NAMES)
    out = []
    for suit in range(4):
        ranks = " ".join(RANKS[r] for r in range(9, -1, -1) if hand >> (suit * 10 + r) & 1) or "-"
        out.append(f"{n.suit(suit):<{width}} {ranks}")
    return out


def _block(title: str, hand: Mask, n: Notation) -> list[str]:
    return [title] + ["  " + line for line in hand_diagram(hand, n)]


def seat_title(seat: int, soloist: int, hand: Mask, *, note: str = "") -> str:
    """``seat 1, defender (10 thirds)``, with an optional note such as ``to play``."""
    extra = f", {note}" if note else ""
    return f"seat {seat}, {role(seat, soloist)}{extra} ({plural(mask_thirds(hand), 'third')})"


def table_diagram(
    hands: Sequence[Mask],
    symbols: Notation | bool = False,
    *,
    soloist: int | None = None,
    notes: Mapping[int, str] | None = None,
    titles: Sequence[str] | None = None,
    indent: str = "  ",
) -> list[str]:
    """The three hands around the table, as a player sees them from seat 0:
    seat 2 top left, seat 1 top right (play goes 0, 1, 2 to the right), seat 0 below.

    Each hand has a title (``seat 1, defender (10 thirds)``; ``titles``
    replaces them) and a line per suit; ``notes`` adds words to a seat's
    title (``leads``, ``to play``).
    """
    n = as_notation(symbols)
    notes = notes or {}
    if titles is None:
        titles = [
            seat_title(s, soloist, hands[s], note=notes.get(s, "")) if soloist is not None
            else f"seat {s}{', ' + notes[s] if s in notes else ''} ({plural(mask_thirds(hands[s]), 'third')})"
            for s in range(3)
        ]
    blocks = [_block(titles[s], hands[s], n) for s in range(3)]
    left = max(len(line) for line in blocks[2]) + 4
    out = [indent + f"{a:<{left}}{b}".rstrip() for a, b in zip(blocks[2], blocks[1])]
    total = left + max(len(line) for line in blocks[1])
    shift = " " * max(0, (total - max(len(line) for line in blocks[0])) // 2)  # seat 0 centred below
    out += [indent + shift + line for line in blocks[0]]
    return out


# -- records ----------------------------------------------------------------------


def exchange_block(record: Any, symbols: Notation | bool = False, exchange: Exchange | None = None) -> list[str]:
    """The exchange in words, a line per step: what was taken, called, returned, discarded.

    ``exchange`` (default: the record's own) may be partial; a step not
    given yet is shown as ``not given``.
    """
    n = as_notation(symbols)
    ex = exchange if exchange is not None else record.exchange
    s, contract = record.soloist, record.contract
    if contract == "solissimo":
        return ["  no exchange (solissimo: the monte stays untouched)"]
    out = [f"  exchange ({contract}):"]
    if contract in SOLOIST_EXCHANGE:
        if contract == "chiamo":
            if ex.call is None:
                out.append("    call: not given")
            else:
                holder = called_from(record.hands, record.monte, ex.call)
                if holder is None:
                    out.append(f"    seat {s} calls {n.card(ex.call)}: it is in the monte, nobody hands it over")
                else:
                    out.append(f"    seat {s} calls {n.card(ex.call)}: seat {holder} hands it over")
        out.append(f"    seat {s} takes the monte: {n.mask(record.monte)}")
        if contract == "chiamo" and ex.call is not None and called_from(record.hands, record.monte, ex.call) is not None:
            holder = called_from(record.hands, record.monte, ex.call)
            if ex.returned is None:
                out.append("    return: not given")
            else:
                out.append(f"    seat {s} gives {n.card(ex.returned)} back to seat {holder}")
        if ex.discards is None:
            out.append("    discards: not given")
        else:
            d = ex.discards[s]
            out.append(f"    seat {s} discards {n.mask(d)} ({plural(mask_thirds(d), 'third')}): the new monte")
        return out
    if contract == "scegliete":
        out.append(f"    the monte is turned face up: {n.mask(record.monte)}")
    for seat in defender_seats(s):
        took = None if ex.takes is None else ex.takes[seat]
        blind = " blind" if contract == "dividete" else ""
        took_text = "not given" if took is None else (n.mask(took) if took else "nothing")
        line = f"    seat {seat} takes{blind} {took_text}"
        if ex.discards is None:
            line += ", discards not given"
        elif ex.discards[seat]:
            line += f", discards {n.mask(ex.discards[seat])}"
        out.append(line)
    if ex.discards is not None:
        new = ex.discards[0] | ex.discards[1] | ex.discards[2]
        out.append(f"    the new monte: {n.mask(new)} ({plural(mask_thirds(new), 'third')})")
    return out


def exchange_text(
    exchange: Exchange, contract: Contract, soloist: int, hands: Sequence[Mask], monte: Mask,
    symbols: Notation | bool = False, *, aside: bool = False,
) -> str:
    """The exchange on one line, cards in reading order, e.g. ``call 3C from seat 1, return 4C, discard 6B 5C FD 7D``.

    The JSON's ``text`` (letters) says where a called card comes from as
    ``from seat 1`` or ``from the monte``; the commands' reports (``aside``)
    as ``(from seat 1)`` or ``(in the monte)``.  A step not given yet is
    left out (soloist), or ``?`` (a defender's takes).

    >>> from calasolve.game.cards import parse_card, parse_hand
    >>> hands = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
    >>> monte = parse_hand("-.-.4.327")
    >>> call = Exchange(call=parse_card("AD"), returned=parse_card("4D"), discards=(parse_hand("R.-.4.75"), 0, 0))
    >>> exchange_text(call, "chiamo", 0, hands, monte)
    'call AD from seat 1, return 4D, discard RB 4C 7D 5D'
    >>> exchange_text(call, "chiamo", 0, hands, monte, SYMBOLS, aside=True)
    'call A♦ (from seat 1), return 4♦, discard R♣ 4♥ 7♦ 5♦'
    >>> exchange_text(Exchange(takes=(0, parse_hand("-.-.4.3"), parse_hand("-.-.-.27")),
    ...               discards=(0, parse_hand("7.-.-.6"), parse_hand("5.-.-.7"))), "dividete", 0, hands, monte)
    'seat 1 takes 4C 3D, discards 7B 6D; seat 2 takes 2D 7D, discards 5B 7D'
    """
    n = as_notation(symbols)
    parts: list[str] = []
    if contract in SOLOIST_EXCHANGE:
        if exchange.call is not None:
            holder = called_from(hands, monte, exchange.call)
            if aside:
                where = "in the monte" if holder is None else f"from seat {holder}"
                parts.append(f"call {n.card(exchange.call)} ({where})")
            else:
                where = "the monte" if holder is None else f"seat {holder}"
                parts.append(f"call {n.card(exchange.call)} from {where}")
        if exchange.returned is not None:
            parts.append(f"return {n.card(exchange.returned)}")
        if exchange.discards is not None:
            parts.append(f"discard {n.mask(exchange.discards[soloist])}")
        return ", ".join(parts) or "-"
    if contract in DEFENDER_EXCHANGE:
        for seat in defender_seats(soloist):
            took = exchange.takes[seat] if exchange.takes is not None else None
            text = f"seat {seat} takes " + ("?" if took is None else (n.mask(took) if took else "nothing"))
            if exchange.discards is not None and exchange.discards[seat]:
                text += f", discards {n.mask(exchange.discards[seat])}"
            parts.append(text)
        return "; ".join(parts)
    return "no exchange"


def exchange_from_text(text: str, contract: Contract, soloist: int) -> Exchange:
    """The exchange :func:`exchange_text` wrote (letters, not ``aside``) for ``contract`` and ``soloist``:
    its inverse, for JSON that gives an exchange in words only.

    >>> from calasolve.game.cards import parse_hand
    >>> ex = Exchange(takes=(0, parse_hand("-.-.4.3"), parse_hand("-.-.-.27")),
    ...               discards=(0, parse_hand("7.-.-.6"), parse_hand("5.-.-.7")))
    >>> exchange_from_text(exchange_text(ex, "dividete", 0, (0, 0, 0), 0), "dividete", 0) == ex
    True
    >>> exchange_from_text("call AD from seat 1, return 4D, discard RB 4C 7D 5D", "chiamo", 0)
    Exchange(call='AD', return='4D', discards={'0': 'R.-.4.75'})
    """
    if contract in SOLOIST_EXCHANGE:
        fields: dict[str, Any] = {}
        for part in [] if text == "-" else text.split(", "):
            word, _, rest = part.partition(" ")
            if word == "call" and _CALLED.match(part):
                fields["call"] = parse_card(rest.split()[0])
            elif word == "return":
                fields["returned"] = parse_card(rest)
            elif word == "discard":
                mask = 0 if rest == "-" else parse_cards_or_hand(rest)
                fields["discards"] = tuple(mask if s == soloist else 0 for s in range(3))
            else:
                raise CalasolveError(f"{text!r} is not a {contract} exchange in words: {part!r}")
        return Exchange(**fields)
    if contract in DEFENDER_EXCHANGE:
        takes, discards, unknown = [0, 0, 0], [0, 0, 0], False
        parts = text.split("; ")
        if len(parts) != 2:
            raise CalasolveError(f"{text!r} is not a {contract} exchange in words: it names both defenders")
        for seat, part in zip(defender_seats(soloist), parts):
            took, _, dropped = part.partition(", discards ")
            head = f"seat {seat} takes "
            if not took.startswith(head):
                raise CalasolveError(f"{text!r} is not a {contract} exchange in words for soloist {soloist}: {part!r}")
            took = took[len(head):]
            unknown = unknown or took == "?"
            takes[seat] = 0 if took in ("?", "nothing") else parse_cards_or_hand(took)
            discards[seat] = parse_cards_or_hand(dropped) if dropped else 0
        # "?" stands for takes not given; a seat discarding nothing is not written (no discards: not given)
        return Exchange(discards=(discards[0], discards[1], discards[2]) if any(discards) else None,
                        takes=None if unknown else (takes[0], takes[1], takes[2]))
    if text != "no exchange":
        raise CalasolveError(f"{text!r} is not a {contract} exchange in words: {contract} has none")
    return Exchange()


def called_from_text(text: str) -> int | None:
    """Where :func:`exchange_text` says the called card comes from: a seat, or None for the monte.

    >>> called_from_text("call AD from seat 1, return 4D"), called_from_text("call AD from the monte")
    (1, None)
    """
    found = _CALLED.match(text)
    if found is None:
        raise CalasolveError(f"{text!r} calls no card")
    return None if found.group(1) is None else int(found.group(1))


#: ``call AD from seat 1`` or ``call AD from the monte``, as :func:`exchange_text` writes a called card.
_CALLED = re.compile(r"call \S+ from (?:seat ([012])|the monte)(?:,|$)")


def position_block(state: PlayState, symbols: Notation | bool = False, *, title: str = "") -> list[str]:
    """The hands as held in ``state`` around the table, the cards on the table, the monte
    and what each side has captured so far."""
    n = as_notation(symbols)
    notes: dict[int, str] = {}
    if not state.is_over:
        notes[state.to_move] = "leads" if not state.trick else "to play"
    out = [f"  {title}"] if title else []
    out += table_diagram(state.hands, n, soloist=state.soloist, notes=notes, indent="    ")
    if state.trick:
        played = ", ".join(f"seat {(state.leader + i) % 3} {'led' if not i else 'played'} {n.card(c)}"
                           for i, c in enumerate(state.trick))
        out.append(f"    on the table (trick {len(state.tricks) + 1}): {played}")
    out.append(f"    monte (goes with the last trick): {n.mask(state.monte)} ({plural(mask_thirds(state.monte), 'third')})")
    if state.tricks:
        sol, dfn = state.side_thirds()
        won = state.tricks_won[state.soloist]
        out.append(
            f"    after {plural(len(state.tricks), 'trick')}: soloist {plural(sol, 'third')} "
            f"({plural(won, 'trick')}), defence {plural(dfn, 'third')} ({plural(len(state.tricks) - won, 'trick')})"
        )
    return out


#: What the columns of :func:`trick_lines` say, for the heading above them.
TRICK_COLUMNS = "(each trick: who leads, the cards in play order, who wins it and its thirds, the soloist's total)"


def trick_lines(
    tricks: Sequence[Trick],
    soloist: int,
    symbols: Notation | bool = False,
    *,
    first: int = 1,
    captured: int = 0,
    last_bonus: int | None = None,
    indent: str = "    ",
) -> list[str]:
    """A line per trick: number, who leads, the three cards, who wins, its thirds and the
    soloist's running total (from ``captured``).  ``last_bonus``: the last of
    ``tricks`` is the deal's last, and its winner adds that much (the monte and the last)."""
    n = as_notation(symbols)
    out = []
    total = captured
    for i, trick in enumerate(tricks, start=first):
        thirds = trick.thirds
        bonus = ""
        if last_bonus is not None and trick is tricks[-1]:
            thirds += last_bonus
            bonus = f" (+{last_bonus} last and monte)"
        if trick.winner == soloist:
            total += thirds
        cards = " ".join(f"{n.card(c):>2}" for c in trick.cards)
        out.append(
            f"{indent}{i:2d}. seat {trick.leader} leads {cards}   seat {trick.winner} ({side(trick.winner, soloist)}) "
            f"wins {trick.thirds}{bonus}   soloist {total}"
        )
    return out
