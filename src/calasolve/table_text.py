"""The text of ``calasolve table``: a double-dummy table a player reads at a glance, and its par."""

from __future__ import annotations

from fractions import Fraction

from .ddtable import SEATS, DDTable, TableEntry
from .game import CONTRACTS
from .par import Par


def _num(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):.1f}"


def _signed(x: Fraction) -> str:
    return ("+" if x > 0 else "") + _num(x)


def cell(entry: TableEntry) -> str:
    """``24* +4``: the soloist's thirds, ``*`` when made, the soloist's game points (and ``x2``/``x3``).

    Dividete: the mean thirds, the lowest and highest of the six draws, how many make, and the mean game points,
    e.g. ``10.7 (10-11) 0/6 -16``.
    """
    gp = _signed(entry.game_points[entry.soloist])
    ms = {o.multiplier for o in entry.outcomes}
    times = f" x{ms.pop()}" if len(ms) == 1 and 1 not in ms else ""
    if len(entry.outcomes) > 1:
        return f"{_num(entry.thirds)} ({entry.low}-{entry.high}) {entry.made}/{len(entry.outcomes)} {gp}{times}"
    only = entry.outcomes[0]
    return f"{only.thirds}{'*' if only.makes else ''} {gp}{times}"


def par_text(found: Par) -> str:
    """``par: seat 0 plays solo (seat 0 solo, seat 1 pass, seat 2 pass); game points +4 -2 -2``."""
    calls = ", ".join(f"seat {seat} {call}" for seat, call in found.calls)
    if found.void:
        return f"par: all pass ({calls}); nothing is scored"
    raised = f", aggravated to {found.contract}" if found.contract != found.bid else ""
    points = " ".join(_signed(p) for p in found.payments)
    return f"par: seat {found.soloist} plays {found.contract} ({calls}{raised}); game points {points}"


def format_table(label: str, table: DDTable) -> list[str]:
    """The table of one record: a row per seat as soloist, a column per contract, then the par."""
    rows = [["", *CONTRACTS]]
    for seat in SEATS:
        rows.append([f"seat {seat}", *(cell(table.entry(seat, c)) for c in CONTRACTS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        label,
        "  double dummy, after each soloist's best exchange: the soloist's thirds (* made),"
        " then the soloist's game points (x2 cappotto, x3 stramazzo);",
        "  dividete: mean thirds (lowest-highest) of the 6 draws, draws made, mean game points",
    ]
    lines += ["  " + "   ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip() for row in rows]
    lines.append("  " + par_text(table.par))
    return lines
