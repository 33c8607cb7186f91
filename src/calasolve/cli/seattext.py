"""The readable report of ``advise`` on a seat's view: what the seat knows, the answer, one table."""

from __future__ import annotations

import textwrap

from ..game.notation import Notation, hand_diagram
from ..types.seat import SeatAdvice
from ..types.view import View

__all__ = ["format_seat_advice"]

#: the report's width, as the other reports'
WIDTH = 80

_ASKED = {
    "call": "a call in the auction", "declare": "keep solissimo or aggravate it", "chiamo-call": "the card to call",
    "return": "the card to give back and the discards", "discards": "the discards", "split": "how to share the monte",
    "card": "the card to play",
}


def _span(pair: tuple[float, float]) -> str:
    return f"[{pair[0]:+.1f}, {pair[1]:+.1f}]"


def _known_lines(view: View, n: Notation) -> list[str]:
    calls = " ".join(view.calls) if view.calls else "none yet"
    lines = [f"{view.where()}: seat {view.seat} holds"] + ["  " + line for line in hand_diagram(view.hand, n)]
    lines.append(f"the calls: {calls}")
    if view.contract is not None:
        lines.append(f"the contract: {view.contract} by seat {view.soloist}")
    if view.monte is not None:
        lines.append(f"the monte: {n.mask(view.monte)}")
    if view.played:
        lines.append(f"played: {n.cards(view.played)}")
    return lines


def format_seat_advice(advice: SeatAdvice, view: View, n: Notation) -> list[str]:
    """What the seat knows, the answer on one line, then a row per option (best first): the seat's mean game
    points with their 95% interval, how far behind the best it is (on the same deals), and for a card the
    soloist's double-dummy final thirds."""
    best = advice.options[0]
    verdict = "clearly best" if advice.clear else "not clearly better than " + ", ".join(
        o.option for o in advice.options[1:] if o.behind_95[0] <= 0)
    lines = _known_lines(view, n) + [""]
    lines += textwrap.wrap(f"{_ASKED[advice.decision].capitalize()}: {advice.recommendation}, {best.points:+.2f} game "
                           f"points {_span(best.points_95)}; {verdict}", WIDTH, subsequent_indent="    ")
    lines.append("")
    width = max(len("option"), *(len(o.option) for o in advice.options))
    dd = advice.decision == "card"
    head = f"{'option':<{width}}  {'game points':>11} {'95%':<16} {'behind':>7} {'95%':<16}"
    lines.append((head + ("  dd thirds" if dd else "")).rstrip())
    for o in advice.options:
        behind = f"{o.behind:>7.2f} {_span(o.behind_95):<16}" if o is not best else f"{'-':>7} {'':<16}"
        row = f"{o.option:<{width}}  {o.points:>+11.2f} {_span(o.points_95):<16} {behind}"
        if dd and o.dd is not None:
            row += f"  {o.dd:>9.1f}"
        lines.append(row.rstrip())
    lines.append("")
    footer = (f"{advice.layouts} deals per option from the bidding model's posterior ({advice.proposed} drawn to keep "
              f"them), the rest played by the {advice.players}; seed {advice.seed}; {advice.seconds:.1f} s.")
    if advice.resampled:
        footer += (f" The calls heard are unlikely under the bidding model: {advice.resampled} of the deals were "
                   f"drawn by weight from the {advice.proposed} consistent ones.")
    lines += textwrap.wrap(footer, WIDTH)
    return lines
