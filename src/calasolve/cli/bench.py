"""``calasolve bench``: solve a benchmark suite and report nodes and times."""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

import click

from ..advice.stats import percentile
from ..game.limits import MAX_THIRDS
from ..search.engines import make_solver
from ..search.suites import random_suite, strong_suite
from .bulk import NoBar, emit_json
from .options import json_option, tt_option
from .text import format_bench


@click.command("bench")
@click.option("--suite", type=click.Choice(["strong", "random"]), default="strong", show_default=True,
              help="strong: solissimo deals, the strongest hand leads; random: random soloist and leader.")
@click.option("--deals", type=click.IntRange(1, 10_000), default=200, show_default=True, help="Deals of the suite to solve.")
@click.option("--target", type=click.IntRange(0, MAX_THIRDS), default=None,
              help="Time the boolean search 'reaches T thirds?' instead of the full solve.")
@click.option("--no-tt", is_flag=True, help="Ablation: no transposition table.")
@click.option("--no-equivalence", is_flag=True, help="Ablation: no equivalent-card pruning.")
@click.option("--no-canonical", is_flag=True, help="Ablation: no suit canonicalisation in table keys.")
@click.option("--no-ordering", is_flag=True, help="Ablation: no move ordering.")
@json_option("One JSON object per deal, then a summary object.")
@tt_option
def bench_cmd(
    suite: str,
    deals: int,
    target: int | None,
    no_tt: bool,
    no_equivalence: bool,
    no_canonical: bool,
    no_ordering: bool,
    as_json: bool,
    tt_mb: int,
) -> None:
    """Time the solver on a fixed, seeded suite of full deals (one core).

    The full solve is the exact value plus every root card's value (what
    `calasolve solve` computes before the line).  Prints the median, the
    90th percentile and the slowest time per deal, the node rate and the
    signature (the nodes searched: any change to the search changes it);
    with --json one object per deal, then a summary object.

    \b
    Examples:
      calasolve bench --deals 50
      calasolve bench --target 18
      calasolve bench --suite random --no-tt --deals 20
    """
    cases = (strong_suite if suite == "strong" else random_suite)(deals)
    solver = make_solver(tt_mb, tt=not no_tt, equivalence=not no_equivalence,
                         canonical_suits=not no_canonical, ordering=not no_ordering)
    times, nodes = [], []
    show = sys.stderr.isatty() and not as_json
    with click.progressbar(cases, label=f"{suite} suite", file=sys.stderr) if show else NoBar(cases) as bar:
        for i, deal in enumerate(bar):
            start = time.perf_counter()
            if target is None:
                values = solver.card_values(*deal.args()).values()
                answer: Any = max(values) if deal.leader == deal.soloist else min(values)
            else:
                hands, trick, leader, soloist, bonus = deal.args()
                answer = solver.reaches(hands, trick, leader, soloist, bonus, target)
            times.append(time.perf_counter() - start)
            nodes.append(solver.nodes)
            if as_json:
                emit_json({"deal": i, "answer": answer, "seconds": round(times[-1], 6), "nodes": nodes[-1]})
    summary: dict[str, Any] = {
        "suite": suite,
        "deals": len(times),
        "task": "full solve (value + every root card)" if target is None else f"reaches {target}",
        "switches": {"tt": not no_tt, "equivalence": not no_equivalence, "canonical_suits": not no_canonical,
                     "ordering": not no_ordering},
        "median_ms": statistics.median(times) * 1e3,
        "p90_ms": percentile(times, 0.9) * 1e3,
        "slowest_ms": max(times) * 1e3,
        "total_s": sum(times),
        "nodes_per_s": sum(nodes) / sum(times) if sum(times) else 0.0,
        "signature": sum(nodes),
    }
    if as_json:
        emit_json({"summary": summary})
        return
    click.echo("\n".join(format_bench(summary)))
