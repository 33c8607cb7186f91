"""The wording of every command's results: check, solve (with the searched exchange), analyse,
rules, bench and advise, in one card notation (:mod:`calasolve.game.notation`).
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..game.cards import MAKE_THIRDS, Card, parse_hand, mask_thirds
from ..game.exchange import Exchange
from ..game.state import CONTRACTS, DEFENDER_EXCHANGE, SOLOIST_EXCHANGE, PlayState
from ..types.advice import LEARNED_INTERVAL_METHOD
from ..types.arena import ArenaResult
from ..types.playout import PlayAdvice
from ..types.exchange import ExchangeResult
from ..types.table import SEATS, DDTable, TableEntry
from ..types.table import fraction_text, signed
from ..game.notation import (
    TRICK_COLUMNS, as_notation, exchange_block, exchange_text, hand_diagram, Notation, plural, position_block,
    role, side, table_diagram, trick_lines,
)
from ..types.record import record_header
from .glance import Glance, glance, points_text as _points

if TYPE_CHECKING:
    from ..advice.race import Race

__all__ = [
    "format_arena",
    "format_check",
    "format_solve",
    "format_rules",
    "format_bench",
    "format_exchange_search",
    "format_analysis",
    "format_advice",
    "advice_bar_label",
    "format_play_advice",
    "glance_lines",
    "headline",
    "format_table",
]


# -- check --------------------------------------------------------------------

def format_check(record: Any, symbols: Notation | bool = False, *, verbose: bool = False) -> list[str]:
    """``check``: the record in brief, or with ``verbose`` its diagrams (as dealt, the
    exchange, at the first lead, and where the ``played`` cards stop)."""
    n = as_notation(symbols)
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

def _exchange_words(record: Any, ex: Exchange, n: Notation) -> str:
    """An exchange on one line: ``call 3C (from seat 1), return 4C, discard 6B 5C FD 7D``."""
    return exchange_text(ex, record.contract, record.soloist, record.hands, record.monte, n, aside=True)


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


def format_exchange_search(record: Any, ex: ExchangeResult, symbols: Notation | bool = False) -> list[str]:
    """The searched exchange: the best one, the alternatives (equivalent returns folded)
    and, for dividete, every draw and the mean."""
    n = as_notation(symbols)
    if ex.draws:
        out = [f"  dividete: the draw is chance; for each draw, the defenders' best discards (mean {ex.mean:.2f} thirds):"]
        for draw in ex.draws:
            out.append(f"    {_exchange_words(record, draw.exchange, n)}: {plural(draw.value, 'third')}")
        best = _exchange_words(record, ex.exchange, n)
        out.append(f"  worst draw for the soloist, played below: {best}")
        return out + _unproven(record, ex)
    chooser = "the defenders' best" if record.contract in DEFENDER_EXCHANGE else "best"
    # cut by the time limit, it is the best found, not the best: the label says so before the line that explains
    found = "" if ex.proven else " found within the time limit"
    alts = list(ex.alternatives)
    folded = _fold_returns(record, alts, n) or [(_exchange_words(record, ex.exchange, n), ex.value)]
    out = [f"  {chooser} exchange{found} (double dummy): {folded[0][0]} -> {plural(folded[0][1], 'third')}"]
    for text, value in folded[1:]:
        out.append(f"    also: {text} -> {plural(value, 'third')}")
    if len(folded) < len(alts):
        out.append(f"    (of the {len(alts)} best exchanges, those that differ only in the card given back, "
                   f"for the same value, share a line)")
    return out + _unproven(record, ex)


def _unproven(record: Any, ex: ExchangeResult) -> list[str]:
    """The line that says a time limit cut the search, and what is proven, in a player's terms
    (:class:`~calasolve.types.exchange.BestKnown`: a bound that says nothing is left out)."""
    if ex.proven:
        return []
    found = "the worst draw found so far" if ex.draws else "this is the best found so far"
    lines = [f"  not proven: the time limit cut the search; {found}: {ex.known.text()}"]
    for i, draw in enumerate(ex.draws, 1):
        if not draw.proven:
            lines.append(f"    draw {i} of {len(ex.draws)} (listed above): {draw.known.text()}")
    return lines


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
    n = as_notation(symbols)
    out = record_header(record)
    ex = result.exchange
    solved = record.with_(exchange=ex.exchange) if ex is not None else record
    if record.contract != "solissimo":
        if ex is not None and ex.searched:
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
    n = as_notation(symbols)
    out = record_header(record)
    start = record.start_state()
    if record.contract != "solissimo":
        out += exchange_block(record, n)
    ex = analysis.exchange
    if ex is not None:
        best = _exchange_words(record, ex.best_fields, n)
        judged = "the best there is" if ex.cost == 0 else f"costs the {ex.chosen_by} {plural(ex.cost, 'third')}"
        out.append(f"  exchange, chosen by the {ex.chosen_by}: {plural(ex.actual, 'third')} for the soloist "
                   f"against {ex.best} with the best ({best}): {judged}")
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
    from ..advice.prose import POLICY_NOTES

    if advice.soloist_policy == "sampled":
        return f"sampled ({advice.candidates} choices x {advice.redeals} re-deals)"
    return f"{advice.soloist_policy} ({POLICY_NOTES['soloist'][advice.soloist_policy]})"


def _defender_text(advice: Any) -> str:
    if advice.defender_policy == "sampled":
        return f"sampled ({advice.candidates} choices x {advice.redeals} re-deals each)"
    return str(advice.defender_policy)


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


#: the width the short advice keeps to (a terminal's)
WIDTH = 80
#: the P(make) bar's cells
BAR_CELLS = 10


def format_advice(advice: Any, symbols: Notation | bool = False, *, explain: bool = False) -> list[str]:
    """The readable report of ``calasolve advise`` (the default and ``--play dd``): the hand, the
    answer on one line, one table in bidding order and a line on what it rests on, within 80
    columns; with ``explain`` also the method and every contract in detail (wide tables)."""
    n = as_notation(symbols)
    lines = _hand_lines(advice, n) + [""] + glance_lines(glance(advice), n, explain=explain)
    if explain:
        lines += _advice_method_lines(advice)
    return lines + _aggravation_note(advice)


def format_play_advice(play: PlayAdvice, symbols: Notation | bool = False, *, advice: Any = None,
                       explain: bool = False) -> list[str]:
    """The readable report of ``advise --play pimc|both``: the hand, the answer and one table of
    the deals played out by PIMC players (with ``both``, the double-dummy ``advice`` as the floor),
    within 80 columns; with ``explain`` also the method and every contract in detail (wide tables),
    the double-dummy advice's first."""
    n = as_notation(symbols)
    lines = _hand_lines(advice if advice is not None else play, n) + [""]
    lines += glance_lines(glance(advice, play), n, explain=explain)
    if explain:
        if advice is not None:
            lines += _advice_method_lines(advice)
        lines += _play_method_lines(play, n, policies=advice is None)
    return lines + (_aggravation_note(advice) if advice is not None else [])


def _hand_lines(advice: Any, n: Notation) -> list[str]:
    """Whose hand, under which rules, what else is known, and the hand's diagram."""
    rules = f", rules {advice.rules.describe()}" if advice.rules.changes() else ""
    lines = textwrap.wrap(f"seat {advice.seat} holds ({plural(mask_thirds(advice.hand), 'third')}){rules}:", WIDTH,
                          subsequent_indent=" " * 4)
    if advice.known:
        known = ", ".join(f"{where} {n.mask(parse_hand(cards))}" for where, cards in advice.known.items())
        lines += textwrap.wrap("known: " + known, WIDTH, subsequent_indent=" " * 7, break_on_hyphens=False)
    return lines + ["  " + line for line in hand_diagram(advice.hand, n)]


def glance_lines(g: Glance, symbols: Notation | bool = False, *, explain: bool = False) -> list[str]:
    """The answer first, then the table, then what it rests on (the advice's short form)."""
    return [headline(g), ""] + _glance_table(g, as_notation(symbols)) + ["", _footer(g, explain)]


def _percent(p: float | None) -> str:
    """A P(make): ``81%``, ``<1%``, ``-`` where none exists."""
    if p is None or math.isnan(p):
        return "-"
    return "<1%" if 0 < p < 0.005 else f"{p:.0%}"


def _span(pair: tuple[float, float] | None) -> str:
    return "" if pair is None else f"{pair[0] * 100:.0f}-{pair[1] * 100:.0f}%"


def _bar(p: float | None, n: Notation) -> str:
    """P(make) as a bar of :data:`BAR_CELLS` cells, eighths of a cell with ``--symbols``."""
    if p is None or math.isnan(p):
        return " " * BAR_CELLS
    if n.symbols:
        full, part = divmod(round(p * BAR_CELLS * 8), 8)
        return ("█" * full + ("▏▎▍▌▋▊▉"[part - 1] if part else "")).ljust(BAR_CELLS, "·")
    cells = round(p * BAR_CELLS)
    return "#" * cells + "." * (BAR_CELLS - cells)


def headline(g: Glance) -> str:
    """The answer on one line of at most 80 characters: the bid, its P(make) and expected game
    points with their intervals, and the toss-ups closest to it (at most two), in the clearest
    wording that fits."""
    names = ", ".join(g.closest())
    rec = g.row(g.recommendation)
    if rec.choice == "pass":
        if not names:
            return "Pass: every bid clearly loses game points"
        return f"Pass: no bid clearly gains; as good within the noise: {names}"
    p = f"makes {_percent(rec.p_make)}" + (f" ({_span(rec.p_make_95)})" if rec.p_make_95 else "")
    gp = _points(rec.points)
    if rec.points_95 is not None:
        lo, hi = (_points(v) for v in rec.points_95)
        leads = [f"{p}, {gp} game points ({lo} to {hi})", f"{p}, {gp} points ({lo} to {hi})", f"{p}, {gp} pts ({lo}..{hi})"]
    else:
        gp += "" if rec.points_se is None else f" ± {rec.points_se:.1f}"
        leads = [f"{p}, {gp} game points", f"{p}, {gp} points", f"{p}, {gp} pts"]
    tails = ([f"; as good within the noise: {names}", f"; as good: {names}", f"; or {names}"] if names
             else ["; clearly the best"])
    forms = [f"Bid {rec.choice}: {lead}{tail}" for tail in tails for lead in leads]
    forms.append(f"{rec.choice}: {leads[-1]}{tails[-1]}")
    return next((line for line in forms if len(line) <= WIDTH), forms[-1])


def _glance_table(g: Glance, n: Notation) -> list[str]:
    """A row per choice in bidding order: the bar, P(make) and its interval, the expected game points
    and theirs, and the double-dummy floor; ``>`` marks the recommendation, ``~`` its toss-ups."""
    main = {"played": "P(make) under play", "PIMC": "P(make) under PIMC play",
            "double dummy": "P(make) double dummy"}[g.basis]
    pimc = any(r.points_se is not None for r in g.rows)
    head = f"  {'bid':<9} {main:<26}  {'game points' + (' ± SE' if pimc else ' (95%)'):<20}"
    lines = [(head + ("  DD floor" if g.floor else "")).rstrip()]
    for r in g.rows:
        mark = ">" if r.choice == g.recommendation else "~" if r.choice in g.toss_up else " "
        if r.choice == "pass":
            lines.append(f"{mark} {'pass':<9} {'':<26}  {'0':>4}")
            continue
        if r.points_95 is not None:
            spread = f"({_points(r.points_95[0])} to {_points(r.points_95[1])})"
        else:
            spread = "" if r.points_se is None else f"± {r.points_se:.1f}"
        odds = f"{_percent(r.p_make):>4} ({_span(r.p_make_95)})" if r.p_make_95 else _percent(r.p_make)
        row = f"{mark} {r.choice:<9} {_bar(r.p_make, n)} {odds:<15}  {_points(r.points):>4} {spread:<15}"
        if g.floor:
            row += f"  {_percent(r.floor):>4}"
        lines.append(row.rstrip())
    if g.toss_up:
        lines.append("  (> the bid, ~ as good within the noise)")
    return lines


def _footer(g: Glance, explain: bool) -> str:
    """How many deals the numbers rest on, and how long they took."""
    parts = [f"{plural(g.solved, 'deal')} solved double dummy"] if g.solved else []
    if g.played:
        parts.append(f"{g.played} played out" if parts else f"{plural(g.played, 'deal')} played out by PIMC players")
    rests = f"{', '.join(parts)}; " if parts else ""
    return f"{rests}{g.seconds:.1f} s" + ("" if explain else " (--explain: how)")


def _aggravation_note(advice: Any) -> list[str]:
    if advice.recommendation in DEFENDER_EXCHANGE and advice.defender_policy != "dd":
        # a defence that does not see every card is the optimistic one: an aggravation deserves the worst case too
        how = "by plain heuristic" if advice.defender_policy == "heuristic" else "each with what it sees"
        return [f"note: the defenders exchanged {how}; before aggravating,",
                "  check it against defenders who see every card (the dd defender policy)"]
    return []


def _advice_method_lines(advice: Any) -> list[str]:
    """The method and every contract in detail (``--explain``): the sampling and the exchange
    policies, the double-dummy table best first, the played one, the recommendations and the
    interval methods."""
    from ..advice.prose import PAYOFF_METHOD
    from ..advice.race import INTERVAL_METHOD

    sampling = (f"{advice.samples} samples per contract" if advice.fixed else
                f"sequential sampling, up to {advice.samples} samples per contract, "
                f"P(make) to ±{advice.precision:.0%}")
    lines = [
        "",
        f"{sampling}, seed {advice.seed}",
        f"exchange policies: soloist {_soloist_text(advice)}, defenders {_defender_text(advice)}"
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
    if advice.played is not None:
        lines += _played_lines(advice)
        lines += ["", f"recommendation, on the played odds: {advice.recommendation} ({advice.reason})",
                  f"double dummy alone (the floor): {advice.dd_recommendation} ({advice.dd_reason})"]
    else:
        lines += ["", f"recommendation: {advice.recommendation} ({advice.reason})"]
    lines.append("intervals: 95% " + INTERVAL_METHOD + "; game points by " + PAYOFF_METHOD)
    if advice.played is not None:
        lines.append("played intervals: " + advice.played.interval_method)
    return lines


def _played_lines(advice: Any) -> list[str]:
    """The default advice's played side: every contract under play, beside its double-dummy P(make)."""
    played = advice.played
    deals = played.estimates[0].deals if played.estimates else 0
    # the learned players' deals are read alone, PIMC's paired with double dummy
    alone = played.interval_method == LEARNED_INTERVAL_METHOD
    how = "the first" if alone else "double dummy above plus the gap on the first"
    lines = [
        "",
        f"under play (nobody sees the hidden cards): {how} {plural(deals, 'deal')} of each contract played out by "
        f"{played.players}; the defenders' exchange {played.defender_policy}",
        "",
        f"  {'contract':<10} {'P(make)':>7} {'95% interval':>12} {'DD':>6} {'gap':>6} "
        f"{'game points':>11} {'95% interval':>16}  multipliers (played deals)",
    ]
    dd = {e.contract: e for e in advice.estimates}
    for e in played.ranked():
        lo, hi = e.p_make_95
        plo, phi = e.payoff_95
        mult = " ".join(f"x{k} {_share(v)}" for k, v in sorted(e.multipliers.items()))
        lines.append(
            f"  {e.contract:<10} {e.p_make:>7.1%} {f'{lo:.0%}-{hi:.0%}':>12} {dd[e.contract].p_make:>6.0%} "
            f"{100 * e.gap_p_make:>+5.0f}% {e.mean_payoff:>+11.2f} {f'{plo:+.2f} to {phi:+.2f}':>16}  {mult}"
        )
    return lines


def _play_method_lines(play: PlayAdvice, n: Notation, *, policies: bool) -> list[str]:
    """``--play pimc|both`` in detail (``--explain``): how the deals were played, each contract's
    deals (with ``both``, double dummy on the same deals and the gap), the best choice."""
    lines = [""]
    if policies:
        lines.append(f"exchange policies: soloist {_soloist_text(play)}, defenders {_defender_text(play)}"
                     + (f"; rules {play.rules.describe()}" if play.rules.changes() else ""))
    dd = any(e.dd is not None for e in play.estimates)
    lines += [
        f"under PIMC play: the first {plural(play.play_samples, 'sampled deal')} of each contract (seed {play.seed}), "
        f"the exchange by the same policies, played out by PIMC players on all three seats "
        f"({play.pimc_samples} layouts a decision, playing for "
        f"{'thirds' if play.players == 'pimc' else 'the contract'})",
        "",
    ]
    head = f"  {'contract':<10} {'deals':>5}  {'P(make)':>7} {'95% interval':>12} {'game points':>14} {'thirds':>12}"
    if dd:
        head += f"   {'DD: P(make)':>11} {'game points':>14}   {'gap: P(make)':>13} {'game points':>14} {'thirds':>12}"
    lines.append(head)
    for e in play.ranked():
        p = e.pimc
        lo, hi = p.p_make_95
        row = (f"  {e.contract:<10} {p.deals:>5}  {p.p_make:>7.1%} {f'{lo:.0%}-{hi:.0%}':>12} "
               f"{_pm(p.mean_points, p.se_points, 2):>14} {_pm(p.mean_thirds, p.se_thirds, 1, sign=False):>12}")
        if e.dd is not None and e.gap is not None:
            g = e.gap
            # game points the advice's tests leave open: the range, as the advice shows them
            dd_points = (f"{e.dd.points_range[0]:+.1f}..{e.dd.points_range[1]:+.1f}" if e.dd.open
                         else _pm(e.dd.mean_points, e.dd.se_points, 2))
            gap_points = (f"{g.points_range[0]:+.1f}..{g.points_range[1]:+.1f}" if e.dd.open
                          else _pm(g.points, g.se_points, 2))
            row += (f"   {e.dd.p_make:>11.1%} {dd_points:>14}   "
                    f"{_pm(100 * g.p_make, 100 * g.se_p_make, 1) + '%':>13} {gap_points:>14} "
                    f"{_pm(g.thirds, g.se_thirds, 1):>12}" + (f"  ({e.dd.open} open)" if e.dd.open else ""))
        lines.append(row)
    ties = f"; not separated from {', '.join(play.toss_up)}" if play.toss_up else ""
    lines += ["", f"best under PIMC play: {play.best}{ties} (mean game points, pass = 0)",
              "intervals: " + play.interval_method + ("; gap = PIMC - double dummy, deal by deal" if dd else "")]
    return lines


def _pm(mean: float, se: float, digits: int, sign: bool = True) -> str:
    """A mean and its standard error: ``+1.25 ± 0.40``.

    >>> _pm(1.25, 0.4, 2), _pm(23.456, 1.2, 1, sign=False)
    ('+1.25 ± 0.40', '23.5 ± 1.2')
    """
    return f"{mean:{'+' if sign else ''}.{digits}f} ± {se:.{digits}f}"


# -- calasolve table ---------------------------------------------------------------

def cell(entry: TableEntry) -> str:
    """``24* | +4``: left of ``|`` the play for thirds, right of it the play for game points.

    Left: the soloist's thirds when both sides play for thirds, ``*`` when made.  Right: the soloist's
    game points when both sides play for game points (and ``x2``/``x3``), and where that play ends with
    other thirds than the left's can pay, its thirds: ``2 | -64 x2 at 0`` (2 thirds when the defenders
    play for thirds, but they sweep every trick when they play for game points).

    Dividete: the mean thirds, the lowest and highest of the six draws, how many make, and the mean game points,
    e.g. ``10.7 (10-11) 0/6 | -16``.
    """
    gp = signed(entry.game_points[entry.soloist])
    ms = {o.multiplier for o in entry.outcomes}
    times = f" x{ms.pop()}" if len(ms) == 1 and 1 not in ms else ""
    early = "" if entry.proven else " ?"  # a time limit cut its exchange search: a better exchange may exist
    if len(entry.outcomes) > 1:
        return (f"{fraction_text(entry.thirds)} ({entry.low}-{entry.high}) {entry.made}/{len(entry.outcomes)}"
                f" | {gp}{times}{early}")
    only = entry.outcomes[0]
    at = "" if only.points_thirds is None else f" at {only.points_thirds}"
    return f"{only.thirds}{'*' if only.makes else ''} | {gp}{times}{at}{early}"


def format_table(label: str, table: DDTable) -> list[str]:
    """The table of one record: a row per seat as soloist, a column per contract, then the par."""
    rows = [["", *CONTRACTS]]
    for seat in SEATS:
        rows.append([f"seat {seat}", *(cell(table.entry(seat, c)) for c in CONTRACTS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        label,
        "  double dummy, after each soloist's best exchange; left of |: the soloist's thirds when both sides play"
        " for thirds (* made);",
        "  right of |: the soloist's game points when both sides play for game points (x2 cappotto, x3 stramazzo;"
        " at N: that play's thirds, where the left's cannot pay them);",
        "  dividete: mean thirds (lowest-highest) of the 6 draws, draws made | mean game points",
    ]
    if not table.proven:
        lines.append("  ?: an early answer: the time limit cut its exchange search, so a better exchange may exist"
                     " (its numbers are exact for the exchange found)")
    lines += ["  " + "   ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip() for row in rows]
    par = table.par.text()
    lines.append("  " + (par if table.proven else par.replace("par:", "par (provisional: it rests on early answers):", 1)))
    return lines


def format_arena(result: ArenaResult, source: str) -> list[str]:
    """``calasolve arena``'s report: the standings (game points per deal ± standard error), each pair's
    paired difference and the confidence that the first is stronger, and what it cost."""
    n = len(result.deals)
    seatings = len(result.deals[0].games) if result.deals else 0
    lines = [f"arena: {' vs '.join(result.agents)}, {plural(n, 'duplicate deal')} ({source}), {seatings} seatings each, "
             f"rules {result.rules.describe()}, seed {result.seed}"]
    width = max(len(a) for a in result.agents)
    lines.append(f"  {'agent':<{width}}  game points per deal   soloist (made)   CPU per decision")
    for s in result.standings:
        per = s.seconds / s.decisions if s.decisions else 0.0
        made = f"{s.soloist} ({s.makes})"
        lines.append(f"  {s.agent:<{width}}  {s.mean:+9.3f} ± {s.se:<8.3f}   {made:<15}  {per * 1000:.2f} ms")
    for c in result.comparisons:
        lines.append(f"  {c.a} - {c.b}: {c.mean:+.3f} ± {c.se:.3f} game points per deal; "
                     f"P({c.a} stronger) = {100 * c.confidence:.1f}%")
    games = sum(len(d.games) for d in result.deals)
    lines.append(f"  {games} games in {result.seconds:.1f} s: {result.deals_per_second:.2f} deals/s")
    return lines
