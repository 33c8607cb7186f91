"""``calasolve deal``: random deal records to a spec, as a deal file."""

from __future__ import annotations

import os
from typing import Any, Iterator, Sequence

import click

from ..game.errors import CalasolveError
from ..game.limits import MAX_DEALS, MAX_SEED
from ..game.rules import Rules
from ..game.sampling import parse_known
from ..game.state import CONTRACTS, Contract
from ..types.record import format_record
from ..search import engines
from .bulk import Failure, bulk_map, check_scheduler, output_file, pool_imap
from .options import jobs_option, known_errors, rule_option, scheduler_options, tt_option


def _deal_one(job: tuple[Any, int, int, int]) -> Any:
    """One record of the run (a worker's unit of work with --played): the record, or its failure."""
    from ..deals.dealer import deal_one

    spec, seed, index, tt_mb = job
    solver = engines.solver(tt_mb)  # a table too large is the option's error, not the record's
    try:
        return deal_one(spec, seed, index, solver)
    except CalasolveError as exc:
        return Failure(exc)


@click.command("deal")
@click.option("--count", "-n", type=click.IntRange(1, MAX_DEALS), default=1, show_default=True, help="Records to write.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Random seed: same seed, same records.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="The deal file to write (default: standard output).")
@click.option("--contract", default="solissimo", show_default=True, help=f"The contract: {', '.join(CONTRACTS)}, or random.")
@click.option("--soloist", default="random", show_default=True,
              help="A seat 0-2, random, or strongest (the highest calasolve.game.cards.strength: 3s and 2s 2, Aces 3, R C F 1).")
@click.option("--leader", type=click.IntRange(0, 2), default=None, help="The first leader (default: the rules' default, no leader line).")
@click.option("--known", multiple=True, metavar="WHERE=CARDS", help="Pin cards: a seat 0-2 or 'monte', e.g. --known 1=3B (repeatable).")
@click.option("--min-strength", type=click.IntRange(0, 40), default=0, show_default=True, help="The soloist's least hand strength.")
@click.option("--max-strength", type=click.IntRange(0, 40), default=40, show_default=True, help="The soloist's greatest hand strength.")
@click.option("--played", type=click.IntRange(0, 35), default=0, show_default=True,
              help="Stop this many cards into a double-dummy line: mid-play positions.  Other contracts than "
                   "solissimo first get their exchange written: the double-dummy best (dividete: drawn takes, "
                   "the defenders' best discards).")
@rule_option
@jobs_option("With --played: worker processes making records side by side (default: all cores when there are "
             "several records).  The records are the same for any number.")
@tt_option
@scheduler_options
def deal_cmd(
    count: int, seed: int, output: str, contract: Contract, soloist: str, leader: int | None, known: Sequence[str],
    min_strength: int, max_strength: int, played: int, rule_items: Sequence[str], jobs: int | None, tt_mb: int,
    scheduler: str | None, scheduler_timeout: float,
) -> None:
    """Write random deals to a deal file, reproducibly for a seed.

    Each record is dealt uniformly (around the --known cards) and named
    after its seed and number; deals whose soloist falls outside the
    strength range are dealt again.  Records are written as they are made,
    so the count can be large.  The output passes 'calasolve check'.

    With --played K each record stops K cards into a double-dummy line.  A
    contract with an exchange then gets it in the record first, chosen
    double dummy: the soloist's best call, return and discards (chiamo,
    solo), the defenders' best split and discards (scegliete); in dividete
    the takes are drawn at random (they are chance) and the defenders'
    discards are their best for them.  Without --played the exchange is
    left out, for 'calasolve solve' to search.  With --played the records
    are made side by side on --jobs worker processes (or a Dask cluster,
    --scheduler) and written in order; they are the same for any number.

    \b
    Examples:
      calasolve deal --count 1000 --seed 1 -o random.deal
      calasolve deal -n 100 --soloist strongest --min-strength 20 --played 6
      calasolve deal -n 20 --contract solo --played 9
      calasolve deal -n 10 --contract random --known 0=32A.-.-.- --known monte=3D
    """
    from ..deals.dealer import DealSpec, generate_deals, parse_soloist

    with known_errors():
        spec = DealSpec(contract=contract.strip().lower(), soloist=parse_soloist(soloist), leader=leader,
                        known=parse_known(list(known)), min_strength=min_strength, max_strength=max_strength,
                        played=played, rules=Rules.parse(rule_items))
        spec.check()
    check_scheduler(scheduler, jobs)
    records: Iterator[Any]
    if not played:
        records = generate_deals(spec, count=count, seed=seed)
    else:
        engines.solver(tt_mb)  # a table the machine cannot allocate fails here, before any output
        jobs_list = ((spec, seed, i, tt_mb) for i in range(count))
        workers = min(jobs or os.cpu_count() or 1, count)
        if scheduler is not None:
            records = bulk_map(_deal_one, list(jobs_list), None, scheduler, scheduler_timeout)
        elif workers > 1:
            records = pool_imap(_deal_one, jobs_list, workers)  # lazily: a long run streams out
        else:
            records = map(_deal_one, jobs_list)
    with output_file(output) as out:
        for i, record in enumerate(records):
            if isinstance(record, Failure):
                record.raise_error()
            out.write(("\n" if i else "") + format_record(record) + "\n")
