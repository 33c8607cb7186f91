"""``calasolve analyse``: review the played cards (and the exchange) of every record."""

from __future__ import annotations

from typing import Any, Sequence

import click

from ..game.errors import CalasolveError
from ..game.notation import notation
from ..search import engines
from .bulk import bulk_map, check_scheduler, failure, load_records, print_results
from .options import files_argument, jobs_option, json_option, rule_option, scheduler_options, symbols_option, tt_option
from .text import format_analysis


def _analyse_one(job: tuple[Any, dict[str, Any]]) -> Any:
    from ..deals.analysis import analyse

    record, opts = job
    solver = engines.solver(opts["tt_mb"])  # a table too large is the option's error, not the record's
    try:
        return analyse(record, solver=solver, exchange=opts["exchange"])
    except CalasolveError as exc:
        return failure(record, exc)


@click.command("analyse")
@files_argument
@json_option()
@rule_option
@jobs_option()
@tt_option
@click.option("--no-exchange", is_flag=True, help="Skip judging the exchange against the best one (that search can be slow).")
@symbols_option
@scheduler_options
def analyse_cmd(
    files: Sequence[str], as_json: bool, rule_items: Sequence[str], jobs: int | None, tt_mb: int, no_exchange: bool,
    symbols: bool | None, scheduler: str | None, scheduler_timeout: float,
) -> None:
    """Review played deals: the double-dummy cost of every card played.

    For each card of a record's `played:` line: the double-dummy value
    (soloist's final thirds) before and after it, its cost to the side that
    played it (0 = optimal) and the best alternatives; mistakes per seat;
    the trick where the contract's fate changed hands; for a partly played
    deal, the best continuation.  For an exchange contract, the exchange
    made is judged against the double-dummy-best one (--no-exchange skips it).

    \b
    Examples:
      calasolve analyse examples/played.deal
      calasolve analyse --json examples/played.deal
    """
    n = notation(symbols)
    records = load_records(files, rule_items)
    check_scheduler(scheduler, jobs)
    results = bulk_map(_analyse_one, [(r, {"tt_mb": tt_mb, "exchange": not no_exchange}) for r in records], jobs,
                       scheduler, scheduler_timeout)
    print_results(records, results, as_json, lambda record, result: format_analysis(record, result, n))
