"""``calasolve table``: the double-dummy table of each record's deal, and its par."""

from __future__ import annotations

import time
from contextlib import ExitStack
from functools import partial
from typing import Sequence

import click

from ..game.errors import CalasolveError
from ..types import jsonout
from ..types.record import record_label
from .bulk import bulk_map, check_scheduler, emit_json, load_records, open_map, output_file
from .options import files_argument, jobs_option, json_option, rule_option, scheduler_options, tt_option
from .text import format_table


@click.command("table")
@files_argument
@json_option("One JSON object per record per line: its 15 entries and the par.")
@rule_option
@jobs_option("Parallel worker processes (default: all cores); the entries of a deal (dividete's: each draw) are "
             "shared out among them.")
@tt_option
@click.option("--time-limit", type=click.FloatRange(0, None, min_open=True), default=None, metavar="S",
              help="Early tables: no exchange search tests a candidate after S seconds (per record), so every "
                   "entry has an answer by about then; those cut are marked not proven, the par provisional.")
@scheduler_options
@click.option("--cut/--no-cut", default=None,
              help="Cut each exchange search into tasks of a few seconds, so that many workers share a table (the "
                   "default with --scheduler, without --time-limit): the same table, at more CPU in all.")
@click.option("--task-log", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write each task's kind, CPU seconds and wall span to FILE, one JSON object per line.")
def table_cmd(
    files: Sequence[str], as_json: bool, rule_items: Sequence[str], jobs: int | None, tt_mb: int,
    time_limit: float | None, scheduler: str | None, scheduler_timeout: float, cut: bool | None, task_log: str | None,
) -> None:
    """The double-dummy table of each record's deal as dealt, and its par.

    For every seat as soloist in every contract: the soloist's final thirds
    after the double-dummy-best exchange (dividete: the mean of the six
    draws), whether the contract is made, and the game points.  Then the
    par: the auction's outcome when every player sees all cards and bids for
    their own game points (docs/rules.md §9).  The records' contract,
    soloist, exchange and cards played are not used; their rules are.

    \b
    Examples:
      calasolve table examples/example.deal
      calasolve table --json --jobs 2 examples/example.deal
      calasolve table --time-limit 5 examples/example.deal
      calasolve table --scheduler local:2 --task-log tasks.jsonl examples/example.deal
    """
    from ..table.batch import dd_tables

    if cut and time_limit is not None:
        raise CalasolveError("--cut and --time-limit do not go together (a cut table is exact)")
    cut = (scheduler is not None and time_limit is None) if cut is None else cut
    records = load_records(files, rule_items)
    check_scheduler(scheduler, jobs)
    origin = time.time()
    with ExitStack() as stack:
        log = None if task_log is None else stack.enter_context(output_file(task_log))
        if cut:
            on_workers = stack.enter_context(open_map(jobs, scheduler, scheduler_timeout))
        else:
            on_workers = partial(bulk_map, jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout)
        tables = dd_tables(records, map=on_workers, tt_mb=tt_mb, time_limit=time_limit, cut=cut)
        for i, (record, table) in enumerate(zip(records, tables)):
            if log is not None:
                for task in table.tasks:
                    log.write(jsonout.dumps({"record": record.index, "file": record.path, **task.to_dict(origin)}) + "\n")
            if as_json:
                emit_json({"record": record.index, "file": record.path, **table.to_dict()})
            else:
                if i:
                    click.echo()
                click.echo("\n".join(format_table(record_label(record), table)))
