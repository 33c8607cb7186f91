"""``calasolve arena``: duplicate matches between agents of the environment (docs/env.md#the-arena)."""

from __future__ import annotations

import sys
import time
from functools import partial
from typing import Any, Sequence

import click

from ..game.errors import CalasolveError
from ..game.limits import MAX_SEED
from ..game.rules import Rules
from .bulk import NoBar, bulk_map, check_scheduler, emit_json, load_records
from .options import jobs_option, json_option, rule_option, scheduler_options, tt_option
from .text import format_arena

#: Generated deals when no file and no --deals are given.
DEFAULT_DEALS = 100


def _agents(text: str) -> tuple[str, ...]:
    # agent specs hold commas of their own (pimc:samples=8,bidding=advisor): a new agent starts at a known name
    from ..seat.agent import ALL_AGENTS as AGENTS

    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        name = part.split(":")[0].strip().lower()
        if not specs or name in AGENTS:
            specs.append(part)
        elif "=" not in part:  # not an option of the agent before: a name, but not an agent's
            raise click.BadParameter(f"{text!r}: unknown agent {name!r} (use {', '.join(AGENTS)})")
        else:
            specs[-1] += "," + part
    if len(specs) not in (2, 3):
        raise click.BadParameter(f"{text!r}: two or three agents, comma-separated, e.g. pimc,heuristic")
    return tuple(specs)


@click.command("arena")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--agents", "agent_text", default="pimc,heuristic", show_default=True, metavar="A,B[,C]",
              help="Two or three agents: random, heuristic, pimc, learned, dd or table, each with options as "
                   "NAME:KEY=VALUE,... (pimc: samples, bidding=rule|advisor, candidates, redeals, "
                   "play=pimc|contract|learned; learned: samples, bidding, candidates, redeals; dd: "
                   "objective=thirds|payoff; table: layouts, budget (seconds a decision), cards=advice|learned).")
@click.option("--deals", type=click.IntRange(1, 10**7), default=None,
              help=f"Deals to play: generated from --seed (default {DEFAULT_DEALS}), or the first of the FILES' records.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
              help="Random seed of the deals generated, the agents and dividete's draws: same seed, same games.")
@json_option("One JSON object: the standings, the comparisons and every game.")
@rule_option
@jobs_option("Parallel worker processes (default: all cores); the games are shared out among them.")
@tt_option
@scheduler_options
def arena_cmd(
    files: Sequence[str], agent_text: str, deals: int | None, seed: int, as_json: bool, rule_items: Sequence[str],
    jobs: int | None, tt_mb: int, scheduler: str | None, scheduler_timeout: float,
) -> None:
    """Duplicate matches between agents: every deal under every seating, so the cards' luck cancels.

    Two agents A and B play each deal six times: A alone in each seat against
    two B, then B alone against two A; three agents play it in the six
    permutations of the seats.  Each agent plays the whole deal, auction,
    exchange and cards (docs/env.md).  The report gives each agent's game
    points per deal (the mean over the seats it held) with a standard error,
    and for each pair the paired difference and the one-sided confidence that
    the first is stronger.  The deals are generated from --seed, or read from
    FILES (their hands and monte as dealt; their contract, exchange, play and
    rules are not used: --rule gives the rules of every game).

    \b
    Examples:
      calasolve arena --agents heuristic,random --deals 20 --seed 1
      calasolve arena --agents pimc:samples=8,heuristic --deals 300 --jobs 2 --json
      calasolve arena --agents dd,pimc:samples=8,heuristic --deals 3 examples/example.deal
    """
    from ..env.arena import arena, random_deals, summarise
    from ..seat.agent import make_table_agent

    agents = _agents(agent_text)
    rules = Rules.parse(rule_items)
    check_scheduler(scheduler, jobs)
    if files:
        records = load_records(files, [])
        if not records:
            raise CalasolveError("the files hold no record")
        dealt = [(r.hands, r.monte) for r in records][:deals]
        source = ", ".join(files)
    else:
        dealt = random_deals(deals or DEFAULT_DEALS, seed)
        source = f"generated, seed {seed}"
    on_workers = partial(bulk_map, jobs=jobs, scheduler=scheduler, timeout=scheduler_timeout)
    start = time.perf_counter()
    show = sys.stderr.isatty() and not as_json
    played: list[Any] = []
    with click.progressbar(length=len(dealt), label="duplicate deals", file=sys.stderr) if show else NoBar() as bar:
        for deal in arena(dealt, agents, rules=rules, seed=seed, map=on_workers, tt_mb=tt_mb,
                          factory=make_table_agent):
            played.append(deal)
            bar.update(1)
    result = summarise(agents, played, rules=rules, seed=seed, seconds=time.perf_counter() - start)
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo("\n".join(format_arena(result, source)))
