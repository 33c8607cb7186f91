"""``calasolve advise``: Monte Carlo bidding advice for a hand."""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from typing import Any, Mapping, Sequence

import click
from click.core import ParameterSource

from ..game.defaults import (
    DEFAULT_CARD_LAYOUTS, DEFAULT_ENDGAME, DEFAULT_EXCHANGE_ENDGAME, DEFAULT_SEAT_CANDIDATES, DEFAULT_SEAT_LAYOUTS,
    DEFAULT_GOAL_MB, DEFAULT_LEARNED_DEALS, DEFAULT_PLAY_PIMC_SAMPLES, DEFAULT_PLAY_SAMPLES, DEFAULT_PLAYED_DEALS,
    DEFAULT_PLAYED_LAYOUTS, DEFAULT_PLAYED_RACE_SAMPLES, DEFAULT_PRECISION, DEFAULT_SAMPLES, DEFAULT_THIRDS_SAMPLES,
)
from ..game.limits import MAX_SAMPLES, MAX_SEED, MAX_TABLE_MB
from ..game.rules import Rules
from ..game.sampling import parse_known
from ..game.state import CONTRACTS
from ..play.players import MAX_PIMC_SAMPLES
from ..advice.checks import fold_options
from ..game.errors import CalasolveError
from ..advice.settings import PLAY_MODES, PLAYERS, AdviceSettings
from ..types.advice import Advice
from ..types.playout import PlayAdvice
from ..game.cards import hand_name
from ..game.notation import notation
from .bulk import NoBar, check_scheduler, emit_json
from .options import F, jobs_option, json_option, known_errors, rule_option, scheduler_options, symbols_option, tt_option
from .glance import glance
from .plot import check_plot, draw_odds
from .seattext import format_seat_advice
from .text import advice_bar_label, format_advice, format_play_advice


#: the advisor's own options, in the order --help shows them
ADVICE_OPTIONS = (
    click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="The hand's seat (who leads depends on it)."),
    click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=None,
                 help=f"The cap on deals sampled per contract (with --fixed: exactly this many) [default: "
                      f"{DEFAULT_SAMPLES}; {DEFAULT_PLAYED_RACE_SAMPLES} with --play played and PIMC players]."),
    click.option("--precision", type=click.FloatRange(0, 100, min_open=True), default=DEFAULT_PRECISION * 100, show_default=True,
                 help="The 95% half-width wanted on the recommended contract's P(make), in percentage points."),
    click.option("--fixed", is_flag=True, help="No sequential stopping: sample every contract --samples times (slow: minutes)."),
    click.option("--thirds-samples", type=click.IntRange(0, MAX_SAMPLES), default=None,
                 help=f"Samples per contract that also get their exact final thirds (the mean thirds) [default: the "
                      f"deals played out by PIMC players ({DEFAULT_PLAYED_DEALS}) with --play played, "
                      f"{DEFAULT_THIRDS_SAMPLES} otherwise]."),
    click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Random seed: same seed, same answer."),
    click.option("--contracts", default=",".join(CONTRACTS), show_default=True, help="Comma-separated contracts to estimate."),
    click.option("--known", multiple=True, metavar="WHERE=CARDS", help="Pin cards: a seat 0-2 or 'monte', e.g. --known 1=3B (repeatable)."),
    click.option("--policy", type=click.Choice(["sampled", "dd", "learned"]), default="sampled", show_default=True,
                 help="The soloist's exchange policy (solo, chiamo): sampled, dd (sees every card; "
                      "an exact exchange search per sample, minutes), or learned (the sampled policy's choices by a "
                      "network; what the learned players' play-outs use)."),
    click.option("--defender-policy", type=click.Choice(["dd", "heuristic", "sampled", "learned"]), default="dd",
                 show_default=True,
                 help="The defenders' exchange policy (dividete, scegliete): dd, the double-dummy best "
                      "(conservative for the soloist), heuristic, cheaper but kinder to the soloist, sampled, "
                      "each defender choosing with what it sees (as a real defender would), or learned, the sampled "
                      "policy's choices by small networks (what the learned players' play-outs use)."),
    click.option("--play", "play_mode", type=click.Choice(list(PLAY_MODES)), default="played", show_default=True,
                 help="How the sampled deals are played: played (double dummy, and the played odds from the first "
                      "--play-samples deals of each contract played out by players who see one hand: the learned "
                      "players' read alone, PIMC players' paired with double dummy; the recommendation on the "
                      "played odds), dd (double dummy alone), pimc "
                      "(a plain estimate: the first --play-samples deals played out), or both (pimc, and double "
                      "dummy with the gap on the same deals)."),
    click.option("--players", type=click.Choice(list(PLAYERS)), default=None,
                 help="Who plays the deals out: learned (a network over what the seat sees, contract-minded PIMC for "
                      "the last eight tricks; the default of --play played), contract (PIMC playing for the contract, "
                      "the method before the learned players) or pimc (PIMC playing for thirds; the default of "
                      "--play pimc and both)."),
    click.option("--play-samples", type=click.IntRange(1, MAX_SAMPLES), default=None,
                 help=f"Deals played out per contract [default: {DEFAULT_LEARNED_DEALS} by the learned players, "
                      f"{DEFAULT_PLAYED_DEALS} by PIMC players with --play played, {DEFAULT_PLAY_SAMPLES} with pimc "
                      "or both]."),
    click.option("--pimc-samples", type=click.IntRange(1, MAX_PIMC_SAMPLES), default=None,
                 help=f"Layouts of the unseen cards per PIMC decision [default: {DEFAULT_PLAYED_LAYOUTS} with --play "
                      f"played, {DEFAULT_PLAY_PIMC_SAMPLES} with pimc or both]."),
)


def advice_options(f: F) -> F:
    """The advisor's own options on a command (shared decorators, as the other options are)."""
    for option in reversed(ADVICE_OPTIONS):
        f = option(f)
    return f


@click.command("advise")
@click.argument("hand", nargs=-1, required=True)
@advice_options
@json_option("One JSON object: every contract's estimate and the recommendation.")
@click.option("--explain", is_flag=True,
              help="After the answer and its table, the method: the sampling and its stopping, the exchange "
                   "policies, the players, the interval methods, and every contract in detail (wide tables).")
@click.option("--plot", "plot_path", default=None, metavar="FILE",
              help="Also draw each contract's P(make) with its 95% interval, played and double dummy side by side, "
                   "to FILE (.png or .svg; needs the extra calasolve[plot]).")
@symbols_option
@rule_option
@jobs_option("Parallel worker processes, one solver each (default: all cores).")
@tt_option
@click.option("--goal-mb", type=click.IntRange(1, MAX_TABLE_MB), default=DEFAULT_GOAL_MB, show_default=True,
              help="The payoff goal search's memo per worker, in MiB (one the machine cannot allocate is an error).")
@scheduler_options
@click.option("--layouts", type=click.IntRange(2, MAX_SAMPLES), default=None,
              help=f"With a view: the deals each option is played on [default: {DEFAULT_SEAT_LAYOUTS}; "
                   f"{DEFAULT_CARD_LAYOUTS} for a card].")
@click.option("--endgame", type=click.IntRange(0, 12), default=None,
              help=f"With a view: the last tricks of each play-out searched by the learned players [default: "
                   f"{DEFAULT_ENDGAME} for a call, {DEFAULT_EXCHANGE_ENDGAME} for an exchange, 0 (the network alone) "
                   "for a card].")
@click.option("--candidates", type=click.IntRange(1, 100), default=DEFAULT_SEAT_CANDIDATES, show_default=True,
              help="With a view: the exchange candidates valued (the learned policy's and the static estimate's best).")
def advise_cmd(
    hand: Sequence[str], as_json: bool, explain: bool, plot_path: str | None, symbols: bool | None,
    scheduler: str | None, scheduler_timeout: float, layouts: int | None, endgame: int | None, candidates: int,
    **options: Any,
) -> None:
    """Advise a bid for a 12-card HAND: every contract's chances by Monte Carlo;
    or, given a deal file of views (FILE), advise each view's seat at the decision it faces.

    HAND is hand notation (32A7.RC5.F64.AR) or 12 card tokens.  For each
    contract the unseen cards are dealt at random, the exchange is made by
    the chosen policy and the deal is solved double dummy; by default (--play
    played) the first --play-samples deals of each contract (300) are also
    played out by the learned players, who see only their own hand, and the
    played odds are read from those deals (--players contract: 8 deals by
    PIMC players, and double dummy plus the gap on them).  The samples come in rounds,
    and a contract stops being sampled once its question is settled: out
    (its expected game points are below the pass line or another
    contract's, with confidence), settled or at the cap.

    The answer comes first, on one line: the bid with the highest expected
    game points under play (or pass), its P(make) and expected game points
    with their 95% intervals, and the bids as good within the noise (the two
    closest).  Then one table, a row per contract in bidding order (pass at
    0): P(make) with a bar, the expected game points, and the double-dummy
    P(make) beside them as the floor.  --explain adds the method (sampling
    and stopping, exchange policies, players, interval methods) and every
    contract in detail: mean thirds, multipliers, the gap; --json prints all
    of it; --plot FILE draws each contract's P(make).

    --play dd gives the double-dummy odds alone.  With --play pimc the first
    --play-samples deals of each contract are played out plainly by PIMC
    players on all three seats (each sees only its own hand and what the
    play showed); --play both adds the double-dummy advice, and double dummy
    on those deals with the gap per contract (--explain).

    \b
    Examples:
      calasolve advise 32AR.32A.3A.2A5
      calasolve advise --explain --plot odds.png 32AR.32A.3A.2A5
      calasolve advise --seat 2 --samples 1000 --seed 7 3B 2B AB RB 3S 2S AS 3C AC 2D AD 5D
      calasolve advise --contracts solo,solissimo --json 32AR.32A.3A.2A5
      calasolve advise --play both --play-samples 8 --contracts solo 32AR.32A.3A.2A5
      calasolve advise examples/views.txt

    A view (docs/deal-format.md, "A seat's view") is what one seat knows: its hand, the
    calls so far, the exchange as it saw it, the cards played.  The advice
    values every option of its next decision (a call, keeping or aggravating
    solissimo, chiamo's call, the return and discards, the split, a card; the
    exchange's strongest --candidates) by playing the rest of the deal out on
    --layouts deals consistent with the view, drawn as the calls heard make
    them likely (docs/seat.md); only --seed, --layouts, --endgame,
    --candidates, --jobs, --json and --symbols apply.
    """
    if len(hand) == 1 and os.path.isfile(hand[0]):
        _advise_views(hand[0], as_json, symbols, (layouts, endgame, candidates), options)
        return
    with known_errors():
        settings = _settings(hand, options)
    check_scheduler(scheduler, settings.jobs)
    if plot_path is not None:
        check_plot(plot_path)  # before minutes of work, not after
    from ..scale.cluster import dask_map

    with known_errors(), dask_map(scheduler, scheduler_timeout) if scheduler else nullcontext() as executor:
        result, played = _run(settings, sys.stderr.isatty() and not as_json, executor)
    if plot_path is not None:
        odds = glance(result, played)
        answer = "pass" if odds.recommendation == "pass" else f"bid {odds.recommendation}"
        draw_odds(odds, plot_path, f"{hand_name(settings.hand)}, seat {settings.seat}: {answer}")
    if as_json:
        _emit_json(result, played, settings.play)
        return
    n = notation(symbols)
    if played is not None:
        lines = format_play_advice(played, n, advice=result, explain=explain)
    else:
        assert result is not None
        lines = format_advice(result, n, explain=explain)
    click.echo("\n".join(lines))


#: the options a view's advice takes (the others are the hand advisor's)
_VIEW_OPTIONS = ("seed", "layouts", "endgame", "candidates", "jobs", "as_json", "symbols")


def _advise_views(path: str, as_json: bool, symbols: bool | None, asked: tuple[int | None, int | None, int],
                  options: Mapping[str, Any]) -> None:
    """``advise FILE``: every view of the file advised at its decision (a whole record is an error)."""
    from ..records.dealfile import read_entries
    from ..scale.workers import worker_pool
    from ..seat.advice import advise_view
    from ..types.view import View

    ctx = click.get_current_context()
    for param in ctx.command.params:
        if param.name not in _VIEW_OPTIONS and param.name != "hand" and \
                ctx.get_parameter_source(param.name or "") == ParameterSource.COMMANDLINE:
            raise CalasolveError(f"{param.opts[0]}: does not apply to a view (a view takes only --seed, --layouts, "
                                 "--endgame, --candidates, --jobs, --json, --symbols)")
    entries = read_entries(path)
    for entry in entries:
        if not isinstance(entry, View):
            raise CalasolveError(f"{entry.where()}: a whole deal; advise takes a hand or a seat's view "
                                 "('view: SEAT', docs/deal-format.md)")
    layouts, endgame, candidates = asked
    jobs = options["jobs"] or os.cpu_count() or 1
    n = notation(symbols)
    with worker_pool(jobs) if jobs > 1 else nullcontext() as pool:
        for i, view in enumerate(entries):
            assert isinstance(view, View)
            result = advise_view(view, layouts=layouts, endgame=endgame, seed=options["seed"], candidates=candidates,
                                 jobs=jobs, pool=pool)
            if as_json:
                emit_json({**result.to_dict(), "view": view.to_dict()})
            else:
                click.echo(("\n" if i else "") + "\n".join(format_seat_advice(result, view, n)))


def _settings(hand: Sequence[str], options: Mapping[str, Any]) -> AdviceSettings:
    """The command's options as the advisor's settings, built once (the API's loose forms folded as
    :func:`~calasolve.advice.advisor.advise` folds them)."""
    chosen = [c.strip().lower() for c in options["contracts"].split(",") if c.strip()]
    play_mode = options["play_mode"]
    return fold_options("advise", " ".join(hand), None, {
        "seat": options["seat"], "samples": options["samples"], "seed": options["seed"], "jobs": options["jobs"],
        "policy": options["policy"], "defender_policy": options["defender_policy"], "contracts": chosen,
        "known": parse_known(list(options["known"])), "rules": Rules.parse(options["rule_items"]),
        "precision": options["precision"] / 100, "fixed": options["fixed"], "thirds_samples": options["thirds_samples"],
        "tt_mb": options["tt_mb"], "goal_mb": options["goal_mb"], "play": play_mode, "players": options["players"],
        "play_samples": options["play_samples"], "pimc_samples": options["pimc_samples"], "dd": play_mode == "both",
    })


def _run(settings: AdviceSettings, show: bool, executor: Any) -> tuple[Advice | None, PlayAdvice | None]:
    """The double-dummy advice (unless --play pimc) and the deals played out (--play pimc or both),
    each with its progress bar when ``show``."""
    from ..advice.advisor import run_advice
    from ..advice.playadvice import run_play_advice
    from ..advice.race import Race

    result: Advice | None = None
    played: PlayAdvice | None = None
    chosen, fixed, policy = len(settings.contracts), settings.fixed, settings.policy
    # the play-outs of --play played come after the race, on the same bar
    extra = settings.deals * chosen if settings.play == "played" else 0
    if settings.play != "pimc":
        with click.progressbar(length=settings.cap * chosen + extra,
                               label=advice_bar_label(None, fixed=fixed, policy=policy),
                               file=sys.stderr) if show else NoBar() as bar:

            def on_round(race: Race) -> None:
                # a contract that stops early gives back its share of the bar
                bar.length = sum(t.n if not t.active else settings.cap for t in race.tracks) + extra if show else 0
                bar.label = advice_bar_label(race, fixed=fixed, policy=policy)

            result = run_advice(settings, progress=bar.update, on_round=on_round, executor=executor)
    if settings.play in ("pimc", "both"):
        with click.progressbar(length=settings.deals * chosen, label="playing out (PIMC)",
                               file=sys.stderr) if show else NoBar() as bar:
            played = run_play_advice(settings, progress=bar.update, executor=executor)
    return result, played


def _emit_json(result: Advice | None, played: PlayAdvice | None, play_mode: str) -> None:
    if played is None:
        assert result is not None
        emit_json(result.to_dict())
    elif result is None:
        emit_json({"play": play_mode, **played.to_dict()})
    else:
        emit_json({**result.to_dict(), "play": play_mode, "pimc": played.to_dict()})
