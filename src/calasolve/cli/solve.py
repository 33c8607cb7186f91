"""``calasolve solve``: solve every record of deal files double dummy (searching a missing exchange)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

import click

from ..game.defaults import DEFAULT_GOAL_MB
from ..game.errors import CalasolveError
from ..game.limits import MAX_TABLE_MB, MAX_THIRDS, MAX_TOP
from ..types.record import Record
from ..game.notation import notation
from ..search import engines
from ..search.payoff import goal_search
from ..types.solution import Objective
from .bulk import bulk_map, check_scheduler, failure, load_records, print_results
from .options import files_argument, jobs_option, json_option, rule_option, scheduler_options, symbols_option, tt_option
from .text import format_solve


@dataclass(frozen=True)
class SolveRunOptions:
    """The command's options every record is solved with (built once; sent whole with each record)."""

    tt_mb: int
    target: int | None
    top: int
    objective: Objective
    goal_mb: int
    #: processes for one record's exchange search
    exchange_jobs: int
    time_limit: float | None


def _solve_one(job: tuple[Record, SolveRunOptions]) -> Any:
    from ..exchange.solve import solve

    record, opts = job
    solver = engines.solver(opts.tt_mb)
    if opts.objective == "payoff":
        goal_search(opts.goal_mb)  # a memo too large is the option's error, not the record's
    try:
        # solve searches a missing exchange itself (the API's code path)
        return solve(record, target=opts.target, solver=solver, objective=opts.objective, top=opts.top,
                     jobs=opts.exchange_jobs, time_limit=opts.time_limit)
    except CalasolveError as exc:
        return failure(record, exc)


@click.command("solve")
@files_argument
@json_option()
@rule_option
@jobs_option("Parallel worker processes: the records' (default: all cores when there are several records), "
             "or one record's exchange search (default: all cores).")
@tt_option
@click.option("--target", type=click.IntRange(0, MAX_THIRDS), default=None,
              help="Only decide whether the soloist reaches T thirds (18 = makes).")
@click.option("--top", type=click.IntRange(1, MAX_TOP), default=10, show_default=True,
              help="Exchange alternatives shown when the record gives no exchange.")
@click.option("--objective", type=click.Choice(["thirds", "payoff"]), default="thirds", show_default=True,
              help="thirds: maximise the soloist's card points; payoff: the game points (cappotto, stramazzo).")
@click.option("--goal-mb", type=click.IntRange(1, MAX_TABLE_MB), default=DEFAULT_GOAL_MB, show_default=True,
              help="With --objective payoff: the goal search's memo per worker, in MiB.")
@click.option("--time-limit", type=click.FloatRange(0, None, min_open=True), default=None, metavar="S",
              help="Stop the exchange search after S seconds: the best exchange found so far, marked not proven, "
                   "with a proven bound on the best.")
@scheduler_options
@click.option("--flat", is_flag=True, help="JSON with scalar values only, one object a line (loads into pandas as columns; see README).")
@symbols_option
def solve_cmd(
    files: Sequence[str],
    as_json: bool,
    scheduler: str | None,
    scheduler_timeout: float,
    flat: bool,
    rule_items: Sequence[str],
    jobs: int | None,
    tt_mb: int,
    target: int | None,
    top: int,
    objective: str,
    goal_mb: int,
    time_limit: float | None,
    symbols: bool | None,
) -> None:
    """Solve deal records double-dummy: the value, every card's value, the best line.

    Each record is solved from the point its `played:` line reaches (the
    first lead when there is none).  The value is the soloist's final
    thirds (0..35; 18 makes the contract) under best play by both sides.

    \b
    Examples:
      calasolve solve examples/example.deal
      calasolve solve --json --jobs 2 examples/example.deal
      calasolve solve --target 18 examples/example.deal
      calasolve solve --flat examples/example.deal > values.jsonl
    """
    records = load_records(files, rule_items)
    if objective == "payoff" and target is not None:
        raise CalasolveError("--target asks about thirds; it does not go with --objective payoff")
    check_scheduler(scheduler, jobs)
    # one record: its exchange search uses the cores; several: the records do
    exchange_jobs = (jobs or os.cpu_count() or 1) if len(records) == 1 and scheduler is None else 1
    opts = SolveRunOptions(tt_mb=tt_mb, target=target, top=top, objective="payoff" if objective == "payoff" else "thirds",
                           goal_mb=goal_mb, exchange_jobs=exchange_jobs, time_limit=time_limit)
    results = bulk_map(_solve_one, [(r, opts) for r in records], jobs, scheduler, scheduler_timeout)
    n = notation(symbols)
    print_results(records, results, as_json, lambda record, result: format_solve(record, result, n), flat=flat)
