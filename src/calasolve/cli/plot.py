"""``advise --plot FILE``: each contract's P(make) with its 95% interval, the main odds (under play,
or double dummy alone) and the double-dummy floor side by side, as a PNG or an SVG.

It needs matplotlib (the extra ``calasolve[plot]``), imported only here and only when asked for;
the figure is drawn on matplotlib's Agg canvas, never a window.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..game.errors import CalasolveError
from .glance import Glance, points_text as _points

__all__ = ["NEEDS_MATPLOTLIB", "SUFFIXES", "check_plot", "draw_odds"]

SUFFIXES = (".png", ".svg")
NEEDS_MATPLOTLIB = "--plot needs matplotlib: pip install 'calasolve[plot]'"
#: the board's colours (board.css): double dummy light, the main odds blue, the recommendation green
FLOOR, MAIN, CHOSEN = "#b0bec5", "#5c6bc0", "#1b8a3a"


def check_plot(path: str) -> None:
    """Before any work: a suffix that can be drawn, a directory that can be written, and matplotlib.

    >>> check_plot("odds.jpg")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.CalasolveError: --plot 'odds.jpg': unknown suffix '.jpg' (use .png or .svg)
    """
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise CalasolveError(f"--plot {path!r}: unknown suffix {suffix or '(none)'!r} (use .png or .svg)")
    folder = Path(path).parent
    if not folder.is_dir():
        raise CalasolveError(f"--plot {path!r}: no such directory {str(folder)!r}")
    if not os.access(folder, os.W_OK) or Path(path).is_dir():
        raise CalasolveError(f"--plot {path!r}: cannot write there")
    _figure()


def _figure() -> Any:
    """matplotlib's Figure, or the one-line error naming the extra."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CalasolveError(NEEDS_MATPLOTLIB) from None
    return Figure


def draw_odds(g: Glance, path: str, title: str) -> None:
    """Each contract's P(make) with its 95% interval, in bidding order: the main odds and, beside
    them, the double-dummy floor; the recommendation in green, the expected game points under each."""
    figure = _figure()
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    rows = [r for r in g.rows if r.choice != "pass"]
    fig = figure(figsize=(max(4.8, 1.2 + 1.25 * len(rows)), 4.4), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.38 if g.floor else 0.6
    main_label = {"played": "under play (own hand only)", "PIMC": "PIMC play (own hand only)",
                  "double dummy": "double dummy (every card seen)"}[g.basis]

    def bars(offset: float, values: list[tuple[float | None, tuple[float, float] | None]], colours: list[str],
             label: str) -> None:
        xs = [i + offset for i in range(len(rows))]
        ps = [p if p is not None else 0.0 for p, _ in values]
        spans = [s if s is not None else (p, p) for p, (_, s) in zip(ps, values)]
        # an error bar cannot be negative, were a point estimate ever outside its interval
        below = [max(0.0, p - lo) for p, (lo, _) in zip(ps, spans)]
        above = [max(0.0, hi - p) for p, (_, hi) in zip(ps, spans)]
        ax.bar(xs, ps, width, color=colours, label=label, yerr=[below, above], capsize=4,
               error_kw={"elinewidth": 1.2, "ecolor": "#1d1d1d"})
        for x, p, (raw, _) in zip(xs, ps, values):
            ax.annotate("-" if raw is None else f"{p:.0%}", (x, 0.01), ha="center", va="bottom", fontsize=8,
                        color="white" if p > 0.12 else "#1d1d1d")

    chosen = [r.choice == g.recommendation for r in rows]
    shift = -width / 2 if g.floor else 0.0
    bars(shift, [(r.p_make, r.p_make_95) for r in rows], [CHOSEN if c else MAIN for c in chosen], main_label)
    if g.floor:
        bars(width / 2, [(r.floor, r.floor_95) for r in rows], [FLOOR] * len(rows), "double dummy (the floor)")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{r.choice}\n{_points(r.points)} pts" for r in rows], fontsize=9)
    for label, best in zip(ax.get_xticklabels(), chosen):
        if best:
            label.set_fontweight("bold")
            label.set_color(CHOSEN)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("P(make), 95% interval")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.axhline(0.5, color="#e1e1e1", linewidth=1, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_xlabel("expected game points" + {"played": " under play", "PIMC": " under PIMC play"}.get(g.basis, ""),
                  fontsize=8)
    fig.suptitle(title, fontsize=10)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, fontsize=8, frameon=False)
    try:
        fig.savefig(path, format=Path(path).suffix.lower()[1:])
    except OSError as err:
        raise CalasolveError(f"--plot {path!r}: cannot write: {err.strerror or err}") from None

