"""``calasolve table``: the double-dummy table of each record's deal, and its par."""

from __future__ import annotations

from functools import partial
from typing import Sequence

import click

from ..types.record import record_label
from .bulk import bulk_map, check_scheduler, emit_json, load_records
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
def table_cmd(
    files: Sequence[str], as_json: bool, rule_items: Sequence[str], jobs: int | None, tt_mb: int,
    time_limit: float | None, scheduler: str | None, scheduler_timeout: float,
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
    """
    from ..table.batch import dd_tables

    records = load_records(files, rule_items)
    check_scheduler(scheduler, jobs)
    on_workers = partial(bulk_map, jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout)
    for i, (record, table) in enumerate(zip(records, dd_tables(records, map=on_workers, tt_mb=tt_mb, time_limit=time_limit))):
        if as_json:
            emit_json({"record": record.index, "file": record.path, **table.to_dict()})
        else:
            if i:
                click.echo()
            click.echo("\n".join(format_table(record_label(record), table)))
