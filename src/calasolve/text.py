"""The readable text of every command: one card notation, hand diagrams, reports.

Every formatter takes a :class:`Notation`: letters (``AB``, the default, the
notation of the deal files and of the JSON) or suit symbols (``A♣``), never
both in one output.  :func:`notation` picks one from a flag or the
``CALASOLVE_SYMBOLS`` environment variable.

>>> from calasolve.cards import parse_hand
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
>>> from calasolve.cards import parse_cards
>>> LETTERS.cards(parse_cards("AC 3S")), SYMBOLS.cards(parse_cards("AC 3S"))
('AC 3S', 'A♥ 3♠')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .cards import (
    MAKE_THIRDS,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Mask,
    display_order,
    mask_thirds,
    parse_card,
    parse_hand,
)
from .dealfile import Record
from .exchange import Exchange, called_from
from .game import DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, PlayState, Trick, defender_seats

if TYPE_CHECKING:
    from .race import Race

__all__ = [
    "Notation",
    "LETTERS",
    "SYMBOLS",
    "ENV_SYMBOLS",
    "notation",
    "plural",
    "hand_diagram",
    "table_diagram",
    "record_header",
    "exchange_block",
    "position_block",
    "trick_lines",
    "format_check",
    "format_solve",
    "format_rules",
    "format_bench",
    "format_exchange_search",
    "format_analysis",
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


def _as_notation(n: Notation | bool) -> Notation:
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
    n = _as_notation(symbols)
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
    n = _as_notation(symbols)
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


def exchange_block(record: Any, symbols: Notation | bool = False, exchange: Exchange | None = None) -> list[str]:
    """The exchange in words, a line per step: what was taken, called, returned, discarded.

    ``exchange`` (default: the record's own) may be partial; a step not
    given yet is shown as ``not given``.
    """
    n = _as_notation(symbols)
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


def position_block(state: PlayState, symbols: Notation | bool = False, *, title: str = "") -> list[str]:
    """The hands as held in ``state`` around the table, the cards on the table, the monte
    and what each side has captured so far."""
    n = _as_notation(symbols)
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
    n = _as_notation(symbols)
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


# -- check --------------------------------------------------------------------

def format_check(record: Any, symbols: Notation | bool = False, *, verbose: bool = False) -> list[str]:
    """``check``: the record in brief, or with ``verbose`` its diagrams (as dealt, the
    exchange, at the first lead, and where the ``played`` cards stop)."""
    n = _as_notation(symbols)
    out = record_header(record)
    if not verbose:
        for seat in range(3):
            out.append(f"  seat {seat} ({role(seat, record.soloist)}): {n.mask(record.hands[seat])}")
        out.append(f"  monte: {n.mask(record.monte)}")
        if record.contract != "solissimo":
            out += exchange_block(record, n)
        if record.played:
            out.append(f"  played ({plural(len(record.played), 'card')}): {n.cards(record.played)}")
        return out
    out.append("  as dealt:")
    out += table_diagram(record.hands, n, soloist=record.soloist, indent="    ")
    out.append(f"    monte: {n.mask(record.monte)} ({plural(mask_thirds(record.monte), 'third')})")
    if record.contract != "solissimo":
        out += exchange_block(record, n)
    if record.needs_exchange:
        return out
    start = record.start_state()
    if record.contract != "solissimo":
        out += position_block(start, n, title="at the first lead:")
    if record.played:
        state = record.state()
        out.append(f"  played, {plural(len(record.played), 'card')} {TRICK_COLUMNS}:")
        out += trick_lines(state.tricks, record.soloist, n, last_bonus=start.last_bonus if state.is_over else None)
        if state.is_over:
            out += _result_lines(record, state)
        else:
            out += position_block(state, n, title="where the play stops:")
    return out


# -- solve --------------------------------------------------------------------

def _exchange_from_dict(d: Mapping[str, Any]) -> Exchange:
    """The :class:`Exchange` of ``Exchange.to_dict()`` (the JSON form kept in a result's ``extra``)."""
    def per_seat(items: Mapping[str, str] | None) -> tuple[Mask, Mask, Mask] | None:
        if items is None:
            return None
        masks = [0, 0, 0]
        for seat, hand in items.items():
            masks[int(seat)] = parse_hand(hand)
        return masks[0], masks[1], masks[2]

    return Exchange(
        call=parse_card(d["call"]) if "call" in d else None,
        returned=parse_card(d["return"]) if "return" in d else None,
        discards=per_seat(d.get("discards")),
        takes=per_seat(d.get("takes")),
    )


def _exchange_words(record: Any, ex: Exchange, n: Notation) -> str:
    """An exchange on one line: ``call 3C (seat 1), return 4C, discard 6B 5C FD 7D``."""
    s = record.soloist
    if record.contract in SOLOIST_EXCHANGE:
        parts = []
        if ex.call is not None:
            holder = called_from(record.hands, record.monte, ex.call)
            parts.append(f"call {n.card(ex.call)} ({'in the monte' if holder is None else f'from seat {holder}'})")
        if ex.returned is not None:
            parts.append(f"return {n.card(ex.returned)}")
        if ex.discards is not None:
            parts.append(f"discard {n.mask(ex.discards[s])}")
        return ", ".join(parts)
    parts = []
    for seat in defender_seats(s):
        took = n.mask(ex.takes[seat]) if ex.takes is not None and ex.takes[seat] else "nothing"
        text = f"seat {seat} takes {took}"
        if ex.discards is not None and ex.discards[seat]:
            text += f", discards {n.mask(ex.discards[seat])}"
        parts.append(text)
    return "; ".join(parts)


def _fold_returns(record: Any, items: Sequence[tuple[Exchange, int]], n: Notation) -> list[tuple[str, int]]:
    """Alternatives as text, those that differ only in the card returned folded into one line."""
    groups: dict[tuple[Exchange, int], list[Exchange]] = {}
    for ex, value in items:
        groups.setdefault((Exchange(call=ex.call, discards=ex.discards, takes=ex.takes), value), []).append(ex)
    out = []
    for (_, value), members in groups.items():
        text = _exchange_words(record, members[0], n)
        returned = [n.card(m.returned) for m in members if m.returned is not None]
        if len(returned) > 1:
            either = ", ".join(returned[:-1]) + " or " + returned[-1]
            text = text.replace(f"return {returned[0]}", f"return {either}")
        out.append((text, value))
    return out


def format_exchange_search(record: Any, ex: Mapping[str, Any], symbols: Notation | bool = False) -> list[str]:
    """The searched exchange (``ExchangeResult.to_dict()``): the best one, the alternatives
    (equivalent returns folded) and, for dividete, every draw and the mean."""
    n = _as_notation(symbols)
    if ex.get("draws"):
        out = [f"  dividete: the draw is chance; for each draw, the defenders' best discards (mean {ex['mean']:.2f} thirds):"]
        for draw in ex["draws"]:
            out.append(f"    {_exchange_words(record, _exchange_from_dict(draw['exchange']), n)}: "
                       f"{plural(draw['soloist_thirds'], 'third')}")
        best = _exchange_words(record, _exchange_from_dict(ex["best"]["exchange"]), n)
        out.append(f"  worst draw for the soloist, played below: {best}")
        return out + _unproven(record, ex)
    chooser = "the defenders' best" if record.contract in DEFENDER_EXCHANGE else "best"
    alts = [(_exchange_from_dict(a["exchange"]), a["soloist_thirds"]) for a in ex.get("alternatives", [])]
    folded = _fold_returns(record, alts, n) or [
        (_exchange_words(record, _exchange_from_dict(ex["best"]["exchange"]), n), ex["best"]["soloist_thirds"])]
    out = [f"  {chooser} exchange (double dummy): {folded[0][0]} -> {plural(folded[0][1], 'third')}"]
    for text, value in folded[1:]:
        out.append(f"    also: {text} -> {plural(value, 'third')}")
    if len(folded) < len(alts):
        out.append(f"    (of the {len(alts)} best exchanges, those that differ only in the card given back, "
                   f"for the same value, share a line)")
    return out + _unproven(record, ex)


def _unproven(record: Any, ex: Mapping[str, Any]) -> list[str]:
    """The line that says a time limit cut the search, and what is proven."""
    if ex.get("proven", True):
        return []
    if record.contract in DEFENDER_EXCHANGE:
        proven = f"no exchange of the defenders holds the soloist below {plural(ex['bound'], 'third')}"
    else:
        proven = f"no exchange gives the soloist more than {plural(ex['bound'], 'third')}"
    return [f"  not proven: the time limit cut the search; this is the best found so far, and {proven}"]


def _rests_on_last(record: Any, result: Any, n: Notation) -> list[str]:
    """The one sentence on the monte: the discards go to whoever wins the last trick."""
    state = record.state()
    if state.is_over or not result.tricks:
        return []
    monte_thirds = mask_thirds(state.monte)
    last = result.tricks[-1].winner
    # under a point in the monte the last trick is worth little more than its own 3 thirds
    if monte_thirds < 3 or record.contract == "solissimo" or last != record.soloist:
        return []
    whose = "the soloist's" if record.contract in SOLOIST_EXCHANGE else "the defenders'"
    return [f"  note: the value rests on the last trick: {whose} discards ({n.mask(state.monte)}, "
            f"{plural(monte_thirds, 'third')}) are the new monte, which goes with the last trick, "
            f"and the soloist takes it in the line above"]


def _value_lines(result: Any, n: Notation) -> list[str]:
    """The legal cards best first for the player to move, grouped by value, with the difference from the best."""
    if result.to_move is None or not result.cards:
        return []
    soloist_moves = result.to_move == result.soloist
    who = f"seat {result.to_move} ({role(result.to_move, result.soloist)})"
    out = []
    best_cards = result.best_cards()
    if result.target is not None:
        good = [c for c, v in best_cards if v == soloist_moves]
        bad = [c for c, v in best_cards if v != soloist_moves]
        aim = f"reach {result.target}" if soloist_moves else f"keep the soloist under {result.target}"
        out.append(f"  {who} to play, to {aim}:")
        out.append(f"    {'these do' if len(good) != 1 else 'this does'}: {n.cards(good)}" if good else "    no card does")
        if bad:
            out.append(f"    {'these do' if len(bad) != 1 else 'this does'} not: {n.cards(bad)}")
        return out
    unit = "game points" if result.objective == "payoff" else "thirds"
    out.append(f"  {who} to play, best first ({unit} for the soloist):")
    groups: dict[Any, list[Card]] = {}
    for card, value in best_cards:
        groups.setdefault(value, []).append(card)
    top = best_cards[0][1]
    for value, cards in groups.items():
        diff = abs(value - top)
        note = "best" if not diff else f"costs {diff}"
        val = f"{value:+d}" if unit == "game points" else f"{value}"
        out.append(f"    {val:>3} ({note}){' ' * (9 - len(note))}{n.cards(cards)}")
    return out


def _verdict(record: Any, result: Any) -> str:
    if result.objective == "payoff":
        pay = result.payoff
        mult = {1: "", 2: ", cappotto x2", 3: ", stramazzo x3"}[result.multiplier]
        return (f"  double dummy, playing for game points: the soloist {'wins' if pay > 0 else 'loses'} {abs(pay)} "
                f"({'makes' if pay > 0 else 'fails'}{mult}); the line below ends with "
                f"{plural(result.soloist_thirds, 'third')}")
    captured = f" ({plural(result.captured, 'third')} already captured)" if result.captured else ""
    if result.target is None:
        verdict = "makes" if result.makes else "fails"
        return (f"  double dummy: the soloist ends with {plural(result.soloist_thirds, 'third')} = "
                f"{plural(result.soloist_points, 'point')}, {verdict}{captured}")
    reach = "reaches" if result.reaches else "does not reach"
    made = (", makes" if result.reaches else ", fails") if result.target == MAKE_THIRDS else ""
    return f"  double dummy: the soloist {reach} {result.target} thirds{made}{captured}"


def format_solve(record: Any, result: Any, symbols: Notation | bool = False) -> list[str]:
    """``solve``: the record, the exchange, the hands at the position solved, the value,
    every card's value best first and the line trick by trick."""
    n = _as_notation(symbols)
    out = record_header(record)
    ex = result.exchange
    solved = record.with_(exchange=_exchange_from_dict(ex["best"]["exchange"])) if ex else record
    if record.contract != "solissimo":
        if ex and ex.get("searched"):
            out.append("  as dealt:")
            out += [f"    seat {s} ({role(s, record.soloist)}): {n.mask(record.hands[s])}" for s in range(3)]
            out.append(f"    monte: {n.mask(record.monte)}")
            out += format_exchange_search(record, ex, n)
        out += exchange_block(solved, n)
    state = solved.state()
    if record.played:
        out.append(f"  played so far, {plural(len(record.played), 'card')} {TRICK_COLUMNS}:")
        out += trick_lines(state.tricks, record.soloist, n)
    where = "the position solved" if record.played else "the first lead"
    out += position_block(state, n, title=f"hands at {where}:")
    out.append(_verdict(record, result))
    out += _value_lines(result, n)
    if result.tricks:
        out.append(f"  a best line {TRICK_COLUMNS}:")
        out += trick_lines(result.tricks, record.soloist, n, first=len(state.tricks) + 1,
                           captured=result.captured, last_bonus=result.last_bonus)
        out += _rests_on_last(solved, result, n)
    return out


# -- analyse ------------------------------------------------------------------

def _result_lines(record: Any, state: PlayState) -> list[str]:
    """The score of a finished deal: points, make/fail, the multiplier, every seat's payment."""
    r = state.result(record.contract, record.rules)
    mult = {2: "cappotto, x2", 3: "stramazzo, x3"}.get(r.multiplier, "no multiplier")
    made = "makes" if r.makes else "fails"
    pays = ", ".join(f"seat {s} {r.payments[s]:+d}" for s in range(3))
    return [
        f"  result: soloist {plural(r.soloist_thirds, 'third')} = {plural(r.soloist_points, 'point')}, "
        f"defence {plural(r.defender_thirds, 'third')} = {plural(r.defender_points, 'point')}: the soloist {made} "
        f"the {r.contract} ({plural(r.soloist_tricks, 'trick')}; {mult})",
        f"  payments (game points): {pays}",
    ]


def format_analysis(record: Any, analysis: Any, symbols: Notation | bool = False) -> list[str]:
    """``analyse``: the record, the exchange judged, every card with its value before and
    after and its cost, each trick's winner and thirds, the mistakes by seat, the
    result with its payments, or the best continuation trick by trick."""
    n = _as_notation(symbols)
    out = record_header(record)
    start = record.start_state()
    if record.contract != "solissimo":
        out += exchange_block(record, n)
    ex = analysis.exchange
    if ex:
        best = _exchange_words(record, _exchange_from_dict(ex["best_fields"]), n)
        judged = "the best there is" if ex["cost"] == 0 else f"costs the {ex['chosen_by']} {plural(ex['cost'], 'third')}"
        out.append(f"  exchange, chosen by the {ex['chosen_by']}: {plural(ex['actual'], 'third')} for the soloist "
                   f"against {ex['best']} with the best ({best}): {judged}")
    out += position_block(start, n, title="hands at the first lead:")
    verdict = "makes" if analysis.start_value >= MAKE_THIRDS else "fails"
    out.append(f"  double dummy at the first lead: {plural(analysis.start_value, 'third')} ({verdict})")
    if analysis.reviews:
        out.append("  each card: who played it, the card, the soloist's double-dummy thirds before -> after it")
    state = start.copy()
    total = 0
    for r in analysis.reviews:
        if r.index % 3 == 0:
            out.append(f"  trick {r.trick}:")
        mark = ""
        if r.cost:
            mark = f"  mistake, costs {plural(r.cost, 'third')} (best: {n.cards(r.best)})"
        if r.swing:
            mark += "  <- the contract changes hands"
        out.append(f"    seat {r.seat} {role(r.seat, record.soloist):<8} {n.card(r.card):>2}  {r.before:2d} -> {r.after:2d}{mark}")
        state.play(r.card)
        if not state.trick:
            t = state.tricks[-1]
            thirds = t.thirds + (state.last_bonus if state.is_over else 0)
            if t.winner == record.soloist:
                total += thirds
            extra = f" (+{state.last_bonus} last and monte)" if state.is_over else ""
            out.append(f"    -> seat {t.winner} ({side(t.winner, record.soloist)}) wins {plural(t.thirds, 'third')}"
                       f"{extra}; soloist {total}")
    mistakes = analysis.mistakes()
    if not any(c for c, _ in mistakes.values()):
        out.append("  mistakes: none, every card was double-dummy best" if analysis.reviews else "  no card played yet")
    else:
        out.append("  mistakes: " + "; ".join(
            f"seat {s} ({role(s, record.soloist)}) {plural(c, 'mistake')}" + (f", {plural(t, 'third')} given away" if c else "")
            for s, (c, t) in mistakes.items()
        ))
    swings = analysis.swings()
    if swings:
        last = swings[-1]
        out.append(f"  the outcome was decided in trick {last.trick} ({n.card(last.card)} by seat {last.seat})")
    else:
        out.append("  the outcome never changed hands")
    if analysis.complete:
        out += _result_lines(record, state)
    elif analysis.continuation is not None:
        cont = analysis.continuation
        out += position_block(state, n, title="where the play stops:")
        out.append(f"  best continuation ({plural(analysis.final_value, 'third')} for the soloist, "
                   f"{'makes' if analysis.final_value >= MAKE_THIRDS else 'fails'}):")
        out += trick_lines(cont.tricks, record.soloist, n, first=len(state.tricks) + 1,
                           captured=cont.captured, last_bonus=cont.last_bonus)
    return out


# -- rules and bench ---------------------------------------------------------------------

def format_rules(variants: Mapping[str, Sequence[str]], help_text: Mapping[str, str]) -> list[str]:
    """``calasolve rules``: each variant's values, the standard one first, and what it means.

    >>> format_rules({"stramazzo": ("on", "off")}, {"stramazzo": "taking no trick..."})
    ['stramazzo: on | off', '    taking no trick...']
    """
    out = []
    for name, values in variants.items():
        out.append(f"{name}: {' | '.join(values)}")
        out.append(f"    {help_text[name]}")
    return out


def format_bench(summary: Mapping[str, Any]) -> list[str]:
    """``calasolve bench``'s summary (the ``summary`` object of ``--json``) in words."""
    out = [f"{summary['suite']} suite, {summary['deals']} deals, {summary['task']}"]
    off = [k for k, v in summary["switches"].items() if not v]
    if off:
        out.append(f"  switched off: {', '.join(off)}")
    out.append(f"  median {summary['median_ms']:.2f} ms   90% {summary['p90_ms']:.2f} ms   "
               f"slowest {summary['slowest_ms']:.2f} ms   total {summary['total_s']:.2f} s")
    out.append(f"  {summary['nodes_per_s'] / 1e6:.2f} M nodes/s")
    out.append(f"  signature {summary['signature']} nodes")
    return out


# -- advice -----------------------------------------------------------------------------

_STOPPED_TEXT = {"settled": "settled", "eliminated": "out", "cap": "cap", "fixed": "fixed"}


def _soloist_text(advice: Any) -> str:
    from .advisor import POLICY_NOTES

    if advice.soloist_policy == "sampled":
        return f"sampled ({advice.candidates} choices x {advice.redeals} re-deals)"
    return f"{advice.soloist_policy} ({POLICY_NOTES['soloist'][advice.soloist_policy]})"


def _share(v: float) -> str:
    return "<1%" if 0 < v < 0.005 else f"{v:.0%}"


def advice_bar_label(race: Race | None, *, fixed: bool, policy: str) -> str:
    """The advisor's progress label: the contracts, those stopped with why, after the
    options that cost minutes.

    >>> advice_bar_label(None, fixed=True, policy="dd")
    '(fixed, soloist dd: minutes) sampling'
    """
    slow = [what for what, on in (("fixed", fixed), ("soloist dd", policy == "dd")) if on]
    prefix = f"({', '.join(slow)}: minutes) " if slow else ""
    if race is None:
        return prefix + "sampling"
    return prefix + " ".join(f"{t.contract}{'' if t.active else ' ' + (t.stopped or '')}" for t in race.tracks)


def format_advice(advice: Any, symbols: Notation | bool = False) -> list[str]:
    """The readable report of ``calasolve advise``: the hand, then every contract best first."""
    from .advisor import PAYOFF_METHOD
    from .race import INTERVAL_METHOD

    n = _as_notation(symbols)
    sampling = (f"{advice.samples} samples per contract" if advice.fixed else
                f"sequential sampling, up to {advice.samples} samples per contract, "
                f"P(make) to ±{advice.precision:.0%}")
    lines = [f"seat {advice.seat} holds ({plural(mask_thirds(advice.hand), 'third')}):"]
    lines += ["  " + line for line in hand_diagram(advice.hand, n)]
    if advice.known:
        lines.append("known: " + ", ".join(f"{where} {n.mask(parse_hand(cards))}" for where, cards in advice.known.items()))
    lines += [
        "",
        f"{sampling}, seed {advice.seed}",
        f"exchange policies: soloist {_soloist_text(advice)}, defenders {advice.defender_policy}"
        + (f"; rules {advice.rules.describe()}" if advice.rules.changes() else ""),
        "",
        f"  {'contract':<10} {'samples':>7}  {'stopped':<16} {'P(make)':>7} {'95% interval (n)':>16} "
        f"{'thirds (n)':>16} {'game points':>11} {'95% interval':>15}  multipliers",
    ]
    for e in advice.ranked():
        lo, hi = e.interval
        plo, phi = e.payoff_95
        mult = " ".join(f"x{k} {_share(v)}" for k, v in sorted(e.multipliers.items()))
        if e.unresolved:
            mult += f" ({e.unresolved} open)"
        stopped = _STOPPED_TEXT[e.stopped] + (f" < {e.below}" if e.below else "")
        thirds = f"{e.mean_thirds:.1f} ± {e.se_thirds:.1f} ({e.thirds_samples})" if e.thirds_samples else "-"
        points = f"{e.mean_payoff:+.2f}" if not e.unresolved else f"{e.payoff_range[0]:+.1f}..{e.payoff_range[1]:+.1f}"
        p_interval = f"{lo:.0%}-{hi:.0%}" + (f" ({e.make_samples})" if e.make_samples < e.samples else "")
        lines.append(
            f"  {e.contract:<10} {e.samples:>7}  {stopped:<16} {e.p_make:>7.1%} {p_interval:>16} "
            f"{thirds:>16} {points:>11} {f'{plo:+.2f} to {phi:+.2f}':>15}  {mult}"
        )
    lines += ["", f"recommendation: {advice.recommendation} ({advice.reason})"]
    lines.append("intervals: 95% " + INTERVAL_METHOD + "; game points by " + PAYOFF_METHOD)
    if advice.recommendation in ("dividete", "scegliete") and advice.defender_policy == "heuristic":
        # the cheap defence is the optimistic one: an aggravation deserves the worst case too
        lines.append(
            "note: the defenders exchanged by plain heuristic; before aggravating, check it against "
            "defenders who see every card (the dd defender policy)"
        )
    return lines
