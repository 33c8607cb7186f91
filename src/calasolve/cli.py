"""The ``calasolve`` command line.

``check``, ``solve`` and ``analyse`` read deal files (see README.md),
``advise`` a hand; every command prints readable text or, with ``--json``,
JSON objects one per line, and reports bad input as one line on stderr with
exit status 2 (never a traceback).
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterator, Sequence, TypeVar

import click

from . import __version__, engines
from .cards import SUIT_SYMBOLS, SUITS, hand_name
from .defaults import DEFAULT_GOAL_MB, DEFAULT_PRECISION, DEFAULT_SAMPLES, DEFAULT_THIRDS_SAMPLES
from .errors import CalasolveError, OutputError, ParameterError
from .game import CONTRACTS
from .limits import MAX_DEALS, MAX_JOBS, MAX_SAMPLES, MAX_SEED, MAX_TABLE_MB, MAX_THIRDS, MAX_TOP
from .rules import RULE_HELP, VARIANTS, Rules
from .stats import percentile
from .text import ENV_SYMBOLS, format_bench, format_rules, format_solve, notation, record_label
from .workers import SIGTERM_STATUS, Terminated, exit_on_sigterm, stop_all, worker_pool

F = TypeVar("F", bound=Callable[..., Any])

SEAT_ROLES = ("soloist", "defender", "defender")


# -- shared options ------------------------------------------------------------

def json_option(text: str = "One JSON object per record per line.") -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help=text)


def rule_option(f: F) -> F:
    return click.option(
        "--rule",
        "rule_items",
        multiple=True,
        metavar="NAME=VALUE",
        help="A rules variant (repeatable), e.g. --rule stramazzo=off; see 'calasolve rules'.",
    )(f)


_JOBS_HELP = "Parallel worker processes (default: all cores when there are several records)."


def jobs_option(text: str = _JOBS_HELP) -> Callable[[F], F]:
    return click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None, help=text)


def scheduler_options(f: F) -> F:
    f = click.option(
        "--scheduler-timeout", type=click.FloatRange(0.1, 3600), default=10.0, show_default=True,
        help="With --scheduler: seconds to wait for the scheduler and a first worker.",
    )(f)
    return click.option(
        "--scheduler", metavar="ADDRESS|local[:N]", default=None,
        help="Run on a Dask cluster: a scheduler's address (tcp://HOST:8786) or local:N worker processes; needs calasolve[dask].",
    )(f)


def tt_option(f: F) -> F:
    return click.option(
        "--tt-mb",
        type=click.IntRange(1, MAX_TABLE_MB),
        default=32,
        show_default=True,
        help="Transposition table size per solver, in MiB (one the machine cannot allocate is an error).",
    )(f)


def symbols_option(f: F) -> F:
    return click.option(
        "--symbols/--letters",
        "symbols",
        default=None,
        help=f"Suits in the text as symbols (A♣) or letters (AB, the default; {ENV_SYMBOLS}=1 makes symbols the default).",
    )(f)


@contextmanager
def known_errors() -> Iterator[None]:
    """Known cards at fault, reported with the ``--known`` option that gave them."""
    from .sampling import KnownCardsError

    try:
        yield
    except KnownCardsError as err:
        where = f" {err.item!r}" if err.item is not None else ""
        raise CalasolveError(f"--known{where}: {err.detail}") from None


def files_argument(f: F) -> F:
    # "-" reads standard input
    return click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))(f)


# -- helpers ---------------------------------------------------------------------

def load_records(files: Sequence[str], rule_items: Sequence[str]) -> list[Any]:
    """Every record of every file, with ``--rule`` overrides applied over each record's own rules."""
    from .dealfile import parse_deal_bytes, read_deal_file

    Rules.parse(rule_items)  # an unknown name or value fails before any file is read
    records = []
    for path in files:
        if path == "-":
            read = parse_deal_bytes(_read_stdin(), "<stdin>")
        else:
            read = read_deal_file(path)
        for record in read:
            if rule_items:
                record = record.with_(rules=Rules.parse(rule_items, base=record.rules))
            records.append(record)
    return records


def _read_stdin() -> bytes:
    """Standard input's bytes; a closed or unreadable one is the deal file's error."""
    from .errors import DealFileError

    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if stream is None:  # `calasolve solve - <&-`
        raise DealFileError("cannot read standard input: it is closed", path="<stdin>")
    try:
        data = stream.read()
    except OSError as err:
        raise DealFileError(f"cannot read standard input: {err.strerror or err}", path="<stdin>") from None
    if not isinstance(data, bytes):  # a text stream without a buffer (a test's stand-in)
        data = data.encode("utf-8")
    return data


def check_records(files: Sequence[str], rule_items: Sequence[str]) -> tuple[list[Any], list[CalasolveError]]:
    """Every valid record of every file and every error found in them, in file and line order."""
    from .dealfile import check_deal_bytes, check_deal_file

    Rules.parse(rule_items)  # an unknown name or value fails before any file is read
    records: list[Any] = []
    errors: list[CalasolveError] = []
    for path in files:
        if path == "-":
            read, bad = check_deal_bytes(_read_stdin(), "<stdin>")
        else:
            read, bad = check_deal_file(path)
        errors += bad
        for record in read:
            if rule_items:
                try:
                    record = record.with_(rules=Rules.parse(rule_items, base=record.rules))
                except CalasolveError as err:
                    errors.append(err)
                    continue
            records.append(record)
    return records, errors


def _failure(record: Any, exc: CalasolveError) -> "Failure":
    """A record's error, saying once where (the record's own errors name its file and line)."""
    text = str(exc)
    if record.path and text.startswith(f"{record.path}:"):
        return Failure(text)
    return Failure(f"{record_label(record)}: {text}")


def emit_json(obj: dict[str, Any]) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def pool_map(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int | None) -> Iterator[Any]:
    """``map`` over ``items``, in worker processes when there is more than one job; order kept."""
    if jobs is None:
        jobs = (os.cpu_count() or 1) if len(items) > 1 else 1
    jobs = min(jobs, len(items)) or 1
    if jobs == 1:
        yield from map(fn, items)
        return
    with worker_pool(jobs) as pool:
        yield from pool.map(fn, items, chunksize=1)


def bulk_map(
    fn: Callable[[Any], Any], items: Sequence[Any], jobs: int | None, scheduler: str | None, timeout: float
) -> Iterator[Any]:
    """:func:`pool_map`, or on the Dask cluster ``scheduler`` names (:mod:`calasolve.scale`); order kept."""
    if scheduler is None:
        yield from pool_map(fn, items, jobs)
        return
    from .scale import chunk_size, dask_map

    with dask_map(scheduler, timeout) as dmap:
        yield from dmap.map(fn, items, chunksize=chunk_size(len(items), dmap.workers))


def check_scheduler(scheduler: str | None, jobs: int | None) -> None:
    """``--scheduler`` well formed, alone (its cluster has its own workers), and Dask installed."""
    if scheduler is None:
        return
    if jobs is not None:
        raise CalasolveError("--jobs and --scheduler do not go together (the cluster has its own workers)")
    from .scale import require_dask, parse_scheduler

    parse_scheduler(scheduler)
    require_dask()


def print_results(
    records: Sequence[Any], results: Iterator[Any], as_json: bool, format_text: Callable[[Any, Any], list[str]],
    flat: bool = False,
) -> None:
    """Print each record's result as it arrives, in the file's order; stop at the first failure.
    ``flat``: JSON in the flat form of :mod:`calasolve.flat`, with the deal."""
    for i, (record, result) in enumerate(zip(records, results)):
        if isinstance(result, Failure):
            raise CalasolveError(result.message)
        if flat:
            from .flat import flatten

            deal = {"hands": " ".join(hand_name(h) for h in record.hands), "monte": hand_name(record.monte)}
            emit_json(flatten({"record": record.index, "file": record.path, **result.to_dict(), **deal}))
        elif as_json:
            # "file" after "record": with several files, records count from 1 in each
            emit_json({"record": record.index, "file": record.path, **result.to_dict()})
        else:
            if i:
                click.echo()
            click.echo("\n".join(format_text(record, result)))


class Failure:
    """A record that could not be processed: carries its one-line message back from a worker."""

    def __init__(self, message: str) -> None:
        self.message = message


# -- the group -----------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="calasolve")
def cli() -> None:
    """calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio).

    \b
    Examples:
      calasolve check examples/example.deal
      calasolve solve examples/example.deal
      calasolve solve --json --objective payoff examples/example.deal
      calasolve analyse examples/played.deal
      calasolve advise --seed 1 32AR.32A.3A.2A5
      calasolve bench --deals 50
    """


@cli.command()
@files_argument
@json_option()
@rule_option
@symbols_option
@click.option("--verbose", "-v", is_flag=True, help="Hand diagrams: as dealt, the exchange, at the first lead, where the play stops.")
def check(files: Sequence[str], as_json: bool, rule_items: Sequence[str], symbols: bool | None, verbose: bool) -> None:
    """Validate deal files and print each record readably.

    Every error of every file is reported, one line each on stderr (and
    nothing on stdout); the exit status is 0 when every record is valid, 2
    otherwise.

    \b
    Example:
      calasolve check examples/example.deal
      calasolve check --verbose --symbols examples/played.deal
    """
    from .text import format_check

    records, errors = check_records(files, rule_items)
    if errors:  # like a linter: the errors only, one line each
        for err in errors[:-1]:
            click.echo(f"calasolve: error: {_one_line(str(err))}", err=True)
        raise errors[-1]
    n = notation(symbols)
    for i, record in enumerate(records):
        if as_json:
            emit_json({"record": record.index, "file": record.path, **record.to_dict()})
        else:
            if i:
                click.echo()
            click.echo("\n".join(format_check(record, n, verbose=verbose)))


@cli.command()
@json_option("One JSON object: each variant's values, the standard one and what it means.")
def rules(as_json: bool) -> None:
    """List the rules variants and their values (the standard value first).

    \b
    Example:
      calasolve rules
    """
    if as_json:
        emit_json({
            "rules": [
                {"name": name, "values": list(values), "standard": values[0], "help": RULE_HELP[name]}
                for name, values in VARIANTS.items()
            ]
        })
        return
    click.echo("\n".join(format_rules(VARIANTS, RULE_HELP)))


def _solve_one(job: tuple[Any, dict[str, Any]]) -> Any:
    from .solving import solve

    record, opts = job
    solver = engines.solver(opts["tt_mb"])
    objective = opts.get("objective", "thirds")
    if objective == "payoff":
        from .payoff import goal_search

        goal_search(opts["goal_mb"])  # a memo too large is the option's error, not the record's
    try:
        # solve searches a missing exchange itself (the API's code path)
        return solve(record, target=opts["target"], solver=solver, objective=objective, top=opts["top"],
                     jobs=opts.get("exchange_jobs", 1), time_limit=opts.get("time_limit"))
    except CalasolveError as exc:
        return _failure(record, exc)


@cli.command("solve")
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
@click.option("--goal-mb", type=click.IntRange(1, MAX_TABLE_MB), default=8, show_default=True,
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
    opts = {"tt_mb": tt_mb, "target": target, "top": top, "objective": objective, "goal_mb": goal_mb,
            "exchange_jobs": exchange_jobs, "time_limit": time_limit}
    results = bulk_map(_solve_one, [(r, opts) for r in records], jobs, scheduler, scheduler_timeout)
    n = notation(symbols)
    print_results(records, results, as_json, lambda record, result: format_solve(record, result, n), flat=flat)


def _analyse_one(job: tuple[Any, dict[str, Any]]) -> Any:
    from .analysis import analyse

    record, opts = job
    solver = engines.solver(opts["tt_mb"])  # a table too large is the option's error, not the record's
    try:
        return analyse(record, solver=solver, exchange=opts["exchange"])
    except CalasolveError as exc:
        return _failure(record, exc)


@cli.command("analyse")
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
    from .text import format_analysis

    n = notation(symbols)
    records = load_records(files, rule_items)
    check_scheduler(scheduler, jobs)
    results = bulk_map(_analyse_one, [(r, {"tt_mb": tt_mb, "exchange": not no_exchange}) for r in records], jobs,
                       scheduler, scheduler_timeout)
    print_results(records, results, as_json, lambda record, result: format_analysis(record, result, n))


@cli.command("advise")
@click.argument("hand", nargs=-1, required=True)
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="The hand's seat (who leads depends on it).")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=DEFAULT_SAMPLES, show_default=True,
              help="The cap on deals sampled per contract (with --fixed: exactly this many).")
@click.option("--precision", type=click.FloatRange(0, 100, min_open=True), default=DEFAULT_PRECISION * 100, show_default=True,
              help="The 95% half-width wanted on the recommended contract's P(make), in percentage points.")
@click.option("--fixed", is_flag=True, help="No sequential stopping: sample every contract --samples times (slow: minutes).")
@click.option("--thirds-samples", type=click.IntRange(0, MAX_SAMPLES), default=DEFAULT_THIRDS_SAMPLES, show_default=True,
              help="Samples per contract that also get their exact final thirds (the mean thirds).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Random seed: same seed, same answer.")
@click.option("--contracts", default=",".join(CONTRACTS), show_default=True, help="Comma-separated contracts to estimate.")
@click.option("--known", multiple=True, metavar="WHERE=CARDS", help="Pin cards: a seat 0-2 or 'monte', e.g. --known 1=3B (repeatable).")
@click.option("--policy", type=click.Choice(["sampled", "dd"]), default="sampled", show_default=True,
              help="The soloist's exchange policy (solo, chiamo): sampled, or dd (sees every card; "
                   "an exact exchange search per sample, minutes).")
@click.option("--defender-policy", type=click.Choice(["dd", "heuristic"]), default="dd", show_default=True,
              help="The defenders' exchange policy (dividete, scegliete): dd, the double-dummy best "
                   "(conservative for the soloist), or heuristic, cheaper but kinder to the soloist.")
@json_option("One JSON object: every contract's estimate and the recommendation.")
@symbols_option
@rule_option
@jobs_option("Parallel worker processes, one solver each (default: all cores).")
@tt_option
@click.option("--goal-mb", type=click.IntRange(1, MAX_TABLE_MB), default=DEFAULT_GOAL_MB, show_default=True,
              help="The payoff goal search's memo per worker, in MiB (one the machine cannot allocate is an error).")
@scheduler_options
def advise_cmd(
    hand: Sequence[str],
    seat: int,
    samples: int,
    precision: float,
    fixed: bool,
    thirds_samples: int,
    seed: int,
    contracts: str,
    known: Sequence[str],
    policy: str,
    defender_policy: str,
    as_json: bool,
    symbols: bool | None,
    rule_items: Sequence[str],
    jobs: int | None,
    tt_mb: int,
    goal_mb: int,
    scheduler: str | None,
    scheduler_timeout: float,
) -> None:
    """Advise a bid for a 12-card HAND: every contract's chances by Monte Carlo.

    HAND is hand notation (32A7.RC5.F64.AR) or 12 card tokens.  For each
    contract the unseen cards are dealt at random, the exchange is made by
    the chosen policy and the deal is solved double dummy.  The samples come
    in rounds, and a contract stops being sampled once its question is
    settled: out (its expected game points are below the pass line or
    another contract's, with confidence), settled (the answer, its P(make)
    as precise as asked) or at the cap.  Reported: P(make) with a 95%
    interval valid under this stopping, mean thirds, expected game points
    and the multipliers' chances.  The recommendation is the contract with
    the highest expected game points, or pass; a toss-up says so.

    \b
    Examples:
      calasolve advise 32AR.32A.3A.2A5
      calasolve advise --seat 2 --samples 1000 --seed 7 3B 2B AB RB 3S 2S AS 3C AC 2D AD 5D
      calasolve advise --contracts solo,solissimo --json 32AR.32A.3A.2A5
    """
    from .advisor import advise, parse_advice_hand
    from .race import Race
    from .text import advice_bar_label, format_advice
    from .sampling import parse_known

    rules_ = Rules.parse(rule_items)
    mask = parse_advice_hand(" ".join(hand))
    chosen = [c.strip().lower() for c in contracts.split(",") if c.strip()]
    show = sys.stderr.isatty() and not as_json
    check_scheduler(scheduler, jobs)
    from .scale import dask_map

    with known_errors(), dask_map(scheduler, scheduler_timeout) if scheduler else nullcontext() as executor, \
            click.progressbar(length=samples * len(chosen), label=advice_bar_label(None, fixed=fixed, policy=policy),
                              file=sys.stderr) if show else _NoBar() as bar:

        def on_round(race: Race) -> None:
            # a contract that stops early gives back its share of the bar
            bar.length = sum(t.n if not t.active else samples for t in race.tracks) if show else 0
            bar.label = advice_bar_label(race, fixed=fixed, policy=policy)

        result = advise(
            mask, seat=seat, samples=samples, seed=seed, jobs=jobs, policy=policy,
            defender_policy=defender_policy, contracts=chosen, known=parse_known(list(known)),
            rules=rules_, tt_mb=tt_mb, goal_mb=goal_mb, precision=precision / 100, fixed=fixed,
            thirds_samples=thirds_samples, progress=bar.update, on_round=on_round, executor=executor,
        )
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo("\n".join(format_advice(result, notation(symbols))))


@cli.command("deal")
@click.option("--count", "-n", type=click.IntRange(1, MAX_DEALS), default=1, show_default=True, help="Records to write.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, help="Random seed: same seed, same records.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="The deal file to write (default: standard output).")
@click.option("--contract", default="solissimo", show_default=True, help=f"The contract: {', '.join(CONTRACTS)}, or random.")
@click.option("--soloist", default="random", show_default=True,
              help="A seat 0-2, random, or strongest (the highest calasolve.cards.strength: 3s and 2s 2, Aces 3, R C F 1).")
@click.option("--leader", type=click.IntRange(0, 2), default=None, help="The first leader (default: the rules' default, no leader line).")
@click.option("--known", multiple=True, metavar="WHERE=CARDS", help="Pin cards: a seat 0-2 or 'monte', e.g. --known 1=3B (repeatable).")
@click.option("--min-strength", type=click.IntRange(0, 40), default=0, show_default=True, help="The soloist's least hand strength.")
@click.option("--max-strength", type=click.IntRange(0, 40), default=40, show_default=True, help="The soloist's greatest hand strength.")
@click.option("--played", type=click.IntRange(0, 35), default=0, show_default=True,
              help="Stop this many cards into a double-dummy line: mid-play positions.  Other contracts than "
                   "solissimo first get their exchange written: the double-dummy best (dividete: drawn takes, "
                   "the defenders' best discards).")
@rule_option
@tt_option
def deal_cmd(
    count: int, seed: int, output: str, contract: str, soloist: str, leader: int | None, known: Sequence[str],
    min_strength: int, max_strength: int, played: int, rule_items: Sequence[str], tt_mb: int,
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
    left out, for 'calasolve solve' to search.

    \b
    Examples:
      calasolve deal --count 1000 --seed 1 -o random.deal
      calasolve deal -n 100 --soloist strongest --min-strength 20 --played 6
      calasolve deal -n 20 --contract solo --played 9
      calasolve deal -n 10 --contract random --known 0=32A.-.-.- --known monte=3D
    """
    from .dealer import DealSpec, generate_deals, parse_soloist
    from .dealfile import format_record
    from .sampling import parse_known

    with known_errors():
        spec = DealSpec(contract=contract.strip().lower(), soloist=parse_soloist(soloist), leader=leader,
                        known=parse_known(list(known)), min_strength=min_strength, max_strength=max_strength,
                        played=played, rules=Rules.parse(rule_items))
        spec.check()
    solver = engines.solver(tt_mb) if played else None
    with _output_file(output) as out:
        for i, record in enumerate(generate_deals(spec, count=count, seed=seed, solver=solver)):
            out.write(("\n" if i else "") + format_record(record) + "\n")


@contextmanager
def _output_file(path: str) -> Iterator[Any]:
    """Standard output for ``-``, else the file opened for writing (its failure one line)."""
    if path == "-":
        yield sys.stdout
        return
    try:
        stream = open(path, "w", encoding="utf-8")
    except OSError as err:
        raise CalasolveError(f"{path}: cannot write: {err.strerror or err}") from None
    with stream:
        try:
            yield stream
        except OSError as err:
            if isinstance(err, BrokenPipeError):
                raise
            raise OutputError(f"{path}: cannot write: {err.strerror or err}") from None


@cli.command("bench")
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
    import statistics
    import time

    from .solving import make_solver
    from .suites import random_suite, strong_suite

    cases = (strong_suite if suite == "strong" else random_suite)(deals)
    solver = make_solver(tt_mb, tt=not no_tt, equivalence=not no_equivalence,
                         canonical_suits=not no_canonical, ordering=not no_ordering)
    times, nodes = [], []
    show = sys.stderr.isatty() and not as_json
    with click.progressbar(cases, label=f"{suite} suite", file=sys.stderr) if show else _NoBar(cases) as bar:
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


@cli.command("board")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (other than 127.0.0.1 opens the board to the network).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="The port to listen on (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the URL but do not open a browser.")
@rule_option
@tt_option
def board_cmd(file: str | None, host: str, port: int, no_browser: bool, rule_items: Sequence[str], tt_mb: int) -> None:
    """Start the analysis board: a local web page to study deals.

    The page shows the table with every legal card's double-dummy value,
    plays and takes back cards, graphs a played deal's evaluation with its
    mistakes, searches the exchange and charts the advice for a hand.
    FILE's records are listed on the page (the only file the board reads);
    records can also be pasted.  Ctrl-C stops the server.  Needs the extra
    calasolve[board].

    \b
    Examples:
      calasolve board examples/played.deal
      calasolve board --no-browser --port 8080 examples/example.deal
    """
    try:
        from .board.server import serve
    except ImportError as err:
        raise CalasolveError(f"the board needs the optional extra: pip install 'calasolve[board]' ({err})") from None
    records = load_records([file], rule_items) if file else []
    serve(records, path=file, host=host, port=port, open_browser=not no_browser, tt_mb=tt_mb, echo=click.echo)


class _NoBar:
    """The progress bar when stderr is not a terminal: silent (iterates ``items``)."""

    length: int = 0
    label: str = ""

    def __init__(self, items: Any = ()) -> None:
        self.items = items

    def __iter__(self) -> Any:
        return iter(self.items)

    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        pass


# -- entry point -------------------------------------------------------------

def _suits_as_letters(err: UnicodeError) -> tuple[str, int]:
    """Encoding error handler for a terminal or file that cannot show ♣♠♥♦ (e.g.
    cp1252): the suits become the letters of the card notation (A♣ -> AB), any
    other character a backslash escape."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    bad = err.object[err.start : err.end]
    return "".join(SUITS[SUIT_SYMBOLS.index(ch)] if ch in SUIT_SYMBOLS else ch.encode("unicode_escape").decode("ascii")
                   for ch in bad), err.end


codecs.register_error("calasolve-suits", _suits_as_letters)


def _one_line(text: str) -> str:
    """An error message kept on one line (a file name may hold a line break)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _fit_streams() -> None:
    """Let stdout and stderr write what their encoding cannot (never a traceback)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            SUIT_SYMBOLS.encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="calasolve-suits")
        except AttributeError:  # a stream without an encoding (a test's capture): text anyway
            pass


def _option_message(exc: ParameterError, command: Any) -> str:
    """A library's :class:`ParameterError` said with the command's option for the
    parameter (``tt_mb`` -> ``--tt-mb``) when the command has one."""
    for param in getattr(command, "params", ()):
        if param.name == exc.parameter and isinstance(param, click.Option):
            option = max(param.opts, key=len)
            return f"{option} {exc.value}: {exc.problem}"
    return str(exc)


class _CheckedOutput:
    """Standard output whose write failures (a full disk: ``> /dev/full``) are an
    :class:`OutputError`; a closed pipe stays a :class:`BrokenPipeError`."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: Any) -> int:
        try:
            return self._stream.write(text)  # type: ignore[no-any-return]
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(f"cannot write the output: {err.strerror or err}") from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(f"cannot write the output: {err.strerror or err}") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_unwritten_output(stream: Any) -> None:
    """Point ``stream``'s file at /dev/null, so the interpreter's exit does not retry
    (and report) what could not be written."""
    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, AttributeError, ValueError):  # no file behind it (a test's capture)
        pass


def _say(text: str) -> None:
    """A line on stderr, if stderr can take it (``2>&-``, ``2>/dev/full``: the exit status still tells)."""
    try:
        click.echo(text, err=True)
    except OSError:
        pass


def _set_signals(handlers: dict[int, Any]) -> dict[int, Any]:
    """Install signal handlers (main thread only); returns the ones they replace."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum, handler in handlers.items()}


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; errors become one line on stderr and exit status 2.

    Every way out stops the worker processes first (:mod:`calasolve.workers`):
    the end of the work, an error, Ctrl-C (exit status 130), SIGTERM (143), a
    reader that closed the pipe (exit status 0, as for any filter).  Output
    that cannot be written (a full disk, stdout closed) is an error (2).

    The context is made and invoked here rather than through ``cli.main``,
    which would turn a closed pipe (``calasolve solve ... | head``) into a
    silent exit status 1 before this function could see it."""
    import signal

    args = list(argv) if argv is not None else sys.argv[1:]
    code = 0
    _fit_streams()
    saved = _set_signals({signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)})
    if saved:
        exit_on_sigterm()
    group: Any = None
    real_stdout = sys.stdout
    try:
        if real_stdout is None:  # `calasolve ... >&-`
            raise OutputError("cannot write the output: standard output is closed")
        sys.stdout = _CheckedOutput(real_stdout)
        try:
            with cli.make_context("calasolve", args) as ctx:
                group = ctx
                cli.invoke(ctx)
        except click.exceptions.Exit as exc:  # --help, --version
            code = exc.exit_code
        sys.stdout.flush()  # a closed pipe shows here at the latest
    except click.exceptions.NoArgsIsHelpError as exc:
        _say(exc.ctx.get_help() if exc.ctx else str(exc))
        code = 2
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        _say(f"calasolve: error: {_one_line(exc.format_message())}{hint}")
        code = 2
    except click.ClickException as exc:
        _say(f"calasolve: error: {_one_line(exc.format_message())}")
        code = 2
    except OutputError as exc:
        _drop_unwritten_output(real_stdout)
        _say(f"calasolve: error: {_one_line(str(exc))}")
        code = 2
    except ParameterError as exc:
        command = cli.commands.get(group.invoked_subcommand or "") if group is not None else None
        _say(f"calasolve: error: {_one_line(_option_message(exc, command))}")
        code = 2
    except CalasolveError as exc:
        _say(f"calasolve: error: {_one_line(str(exc))}")
        code = 2
    except MemoryError as exc:
        _say(f"calasolve: error: out of memory{f' ({_one_line(str(exc))})' if str(exc) else ''}")
        code = 2
    except BrokenProcessPool:
        _say("calasolve: error: a worker process died (killed, or out of memory)")
        code = 2
    except click.exceptions.Abort:
        _say("calasolve: aborted")
        code = 130
    except KeyboardInterrupt:
        _say("calasolve: interrupted")
        code = 130
    except Terminated:
        _say("calasolve: terminated")
        code = SIGTERM_STATUS
    except BrokenPipeError:
        # `calasolve solve ... | head`: the reader went away; not an error of ours
        stop_all()
        os._exit(0)
    finally:
        # a second Ctrl-C or SIGTERM must not interrupt the workers' shutdown
        _set_signals({signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: signal.SIG_IGN})
        try:
            stop_all()
        finally:
            sys.stdout = real_stdout
            _set_signals(saved)
    sys.exit(code)
