"""``calasolve play``: play each record out with a chosen player per seat (PIMC, double dummy or a
heuristic), then review the play as ``analyse`` does."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

import click

from ..game.cards import card_name, parse_card
from ..game.exchange import Exchange
from ..game.errors import CalasolveError
from ..game.limits import MAX_SEED
from ..game.sampling import rng_for
from ..play.factory import PLAYERS, make_player
from ..play.players import DEFAULT_PIMC_SAMPLES, MAX_PIMC_SAMPLES, play_out
from ..types.play import PlayedDeal
from ..game.notation import notation
from ..scale.workers import worker_pool
from ..search import engines
from .bulk import bulk_map, check_scheduler, failure, load_records, print_results
from .options import files_argument, jobs_option, json_option, rule_option, scheduler_options, symbols_option, tt_option
from .text import format_analysis

if TYPE_CHECKING:
    from ..types.analysis import Analysis
    from ..types.record import Record


def _play_one(job: tuple[Any, dict[str, Any]], pool: Any = None, workers: int = 1) -> Any:
    from ..deals.analysis import analyse
    from ..deals.dealer import with_exchange

    record, opts = job
    solver = engines.solver(opts["tt_mb"])
    try:
        searched = record.needs_exchange
        if searched:  # as `deal --played`: the double-dummy best exchange, dividete's takes drawn for the seed
            record = with_exchange(record, rng_for(opts["seed"], record.index), solver)
        players = [make_player(name, samples=opts["samples"], seed=opts["seed"], solver=solver, pool=pool,
                               workers=workers, tt_mb=opts["tt_mb"]) for name in opts["players"]]
        played = play_out(record, players)
        return PlayedResult(played, analyse(played.record, solver=solver, exchange=False), searched)
    except CalasolveError as exc:
        return failure(record, exc)


def _shared_layouts(records: Sequence[Any], opts: dict[str, Any], workers: int) -> Iterator[Any]:
    with worker_pool(workers) as pool:
        for record in records:
            yield _play_one((record, opts), pool, workers)


@dataclass(frozen=True)
class PlayedResult:
    """A record played out by the chosen players, and the analysis of that play."""

    played: PlayedDeal
    analysis: Analysis
    searched: bool

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], record: Record) -> "PlayedResult":
        """The result of :meth:`to_dict`'s form for ``record``, the record played (the JSON names it by
        file and number, not by its cards): equal to the result it was made of, ``seconds`` to the microsecond."""
        from ..types.analysis import Analysis  # on use, as the command imports the analyser

        names = d["players"]
        played = record.with_(exchange=Exchange.from_dict(d["exchange"]), played=tuple(parse_card(c) for c in d["played"]))
        return cls(PlayedDeal(played, (names[0], names[1], names[2]), d["seconds"]), Analysis.from_dict(d["analysis"]),
                   d["exchange_searched"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.played.players),
            "exchange_searched": self.searched,
            "exchange": self.played.record.exchange.to_dict(),
            "played": [card_name(c) for c in self.played.record.played],
            "seconds": round(self.played.seconds, 6),
            "analysis": self.analysis.to_dict(),
        }


def _parse_players(text: str) -> tuple[str, str, str]:

    names = [t.strip().lower() for t in text.split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3 or any(n not in PLAYERS for n in names):
        raise click.BadParameter(f"{text!r}: one player for all seats or three, comma-separated, from {', '.join(PLAYERS)}")
    return names[0], names[1], names[2]


@click.command("play")
@files_argument
@json_option()
@click.option("--players", default="pimc", show_default=True, metavar="P|P0,P1,P2",
              help="Who plays: pimc (sees its own hand, samples the rest), contract (as pimc, but plays for the contract), "
                   "learned (a network over what its seat sees, contract for the last eight tricks), dd (sees every card) "
                   "or heuristic; one for every seat or one per seat 0,1,2.")
@click.option("--samples", type=click.IntRange(1, MAX_PIMC_SAMPLES), default=DEFAULT_PIMC_SAMPLES, show_default=True,
              help="Layouts of the unseen cards a PIMC (contract, learned) player solves per decision.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Random seed: same seed, same play.")
@rule_option
@jobs_option("Parallel worker processes (default: all cores): the records, or with fewer records than workers "
             "each PIMC decision's layouts, are shared out among them; the play is the same for any number.")
@tt_option
@symbols_option
@scheduler_options
def play_cmd(
    files: Sequence[str], as_json: bool, players: str, samples: int, seed: int, rule_items: Sequence[str],
    jobs: int | None, tt_mb: int, symbols: bool | None, scheduler: str | None, scheduler_timeout: float,
) -> None:
    """Play each record out from its `played:` point with a chosen player per seat, and review the play.

    A PIMC player sees what its seat sees (its hand, the cards played, the
    voids shown, the exchange as it saw it), deals the unseen cards --samples
    times consistently with that, solves each layout double dummy and plays
    the card with the best mean (with fewer records than --jobs, the workers
    share each decision's layouts: the play is the same for any --jobs).  The
    play is then reviewed as `analyse` does: every card's double-dummy cost,
    the mistakes and the result.  A record without its exchange gets the
    double-dummy best first (dividete: the takes drawn for the seed), as
    `deal --played` does.

    \b
    Examples:
      calasolve play examples/example.deal
      calasolve play --players pimc,dd,dd --samples 40 --seed 1 examples/example.deal
      calasolve play --json --players heuristic examples/played.deal
    """
    seats = _parse_players(players)
    n = notation(symbols)
    records = load_records(files, rule_items)
    check_scheduler(scheduler, jobs)
    opts = {"tt_mb": tt_mb, "players": seats, "samples": samples, "seed": seed}
    jobs_wanted = (os.cpu_count() or 1) if jobs is None else jobs
    if scheduler is None and "pimc" in seats and samples > 1 and len(records) < jobs_wanted:
        # fewer records than workers: the workers share each decision's layouts instead (the same play)
        results = _shared_layouts(records, opts, min(jobs_wanted, samples))
    else:
        results = bulk_map(_play_one, [(r, opts) for r in records], jobs, scheduler, scheduler_timeout)

    def text(record: Any, result: PlayedResult) -> list[str]:
        who = ", ".join(f"seat {s} {name}" for s, name in enumerate(result.played.players))
        sampled = {"pimc", "contract"} & set(result.played.players)
        pimc = f" ({samples} layouts a PIMC decision, seed {seed})" if sampled else ""
        searched = "; the exchange searched double dummy" if result.searched else ""
        lines = format_analysis(result.played.record, result.analysis, n)
        return [lines[0], f"  played by {who}{pimc}{searched}", *lines[1:]]

    print_results(records, results, as_json, text)
