"""Options and arguments the commands share: ``--json``, ``--rule``, ``--jobs``, ``--scheduler``, ``--tt-mb``,
``--symbols``, the FILE arguments, and known errors as one line.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

import click

from ..game.defaults import DEFAULT_TT_MB
from ..game.errors import CalasolveError
from ..game.limits import MAX_JOBS, MAX_TABLE_MB
from ..game.errors import KnownCardsError
from ..game.notation import ENV_SYMBOLS

F = TypeVar("F", bound=Callable[..., Any])


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
        default=DEFAULT_TT_MB,
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
    try:
        yield
    except KnownCardsError as err:
        where = f" {err.item!r}" if err.item is not None else ""
        raise CalasolveError(f"--known{where}: {err.detail}") from None


def files_argument(f: F) -> F:
    # "-" reads standard input
    return click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))(f)
