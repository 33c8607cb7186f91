"""The ``calasolve`` command line.

``check``, ``solve`` and ``analyse`` read deal files (see README.md),
``advise`` a hand; every command prints readable text or, with ``--json``,
JSON objects one per line, and reports bad input as one line on stderr with
exit status 2, a bug of its own as one line with exit status 70 (never a traceback).

The top layer: a module per command (``check``, ``rules``, ``solve``, ``table``,
``analyse``, ``play``, ``advise``, ``deal``, ``bench``, ``board``, ``arena``), registered on the
group here; their shared options (``options``), the bulk plumbing of records
in and results out over worker processes or Dask (``bulk``), the process and
stream plumbing of :func:`main` (``streams``), the wording of every
result (``text``), the advice at a glance (``glance``) and its chart
(``plot``, matplotlib, imported only for ``advise --plot``).  May import every other layer; nothing imports it but
``calasolve.__main__``.  A command keeps its heavy imports inside its
function, so that ``calasolve --help`` or ``calasolve rules`` start fast.
"""

from __future__ import annotations

import os
import signal
import sys
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Sequence

import click

from .. import __version__
from ..game.errors import CalasolveError, OutputError, ParameterError, Terminated
from ..scale.workers import SIGTERM_STATUS, exit_on_sigterm, stop_all
from .advise import advise_cmd
from .analyse import analyse_cmd
from .arena import arena_cmd
from .bench import bench_cmd
from .board import board_cmd
from .check import check
from .deal import deal_cmd
from .play import play_cmd
from .rules import rules
from .solve import solve_cmd
from .table import table_cmd
from .streams import (INTERNAL_STATUS, CheckedOutput, drop_unwritten_output, fit_streams, internal_error_line, one_line,
                      option_message, say, set_signals)

__all__ = ["cli", "main"]


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
      calasolve table examples/example.deal
      calasolve analyse examples/played.deal
      calasolve play --players pimc,dd,dd examples/example.deal
      calasolve advise --seed 1 32AR.32A.3A.2A5
      calasolve bench --deals 50
      calasolve arena --agents pimc,heuristic --deals 50
    """


for _command in (check, rules, solve_cmd, table_cmd, analyse_cmd, play_cmd, advise_cmd, deal_cmd, bench_cmd, board_cmd,
                 arena_cmd):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; errors become one line on stderr and exit status 2, a bug of
    calasolve (an :class:`InternalError`, or any exception no command expects) one line and 70.

    Every way out stops the worker processes first (:mod:`calasolve.scale.workers`):
    the end of the work, an error, Ctrl-C (exit status 130), SIGTERM (143), a
    reader that closed the pipe (exit status 0, as for any filter).  Output
    that cannot be written (a full disk, stdout closed) is an error (2).

    The context is made and invoked here rather than through ``cli.main``,
    which would turn a closed pipe (``calasolve solve ... | head``) into a
    silent exit status 1 before this function could see it."""
    args = list(argv) if argv is not None else sys.argv[1:]
    fit_streams()
    saved = set_signals({signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)})
    if saved:
        exit_on_sigterm()
    invoked: list[click.Context] = []
    real_stdout = sys.stdout
    try:
        code = _invoke(args, real_stdout, invoked)
    except (Exception, KeyboardInterrupt, Terminated) as exc:
        code = _failure_status(exc, invoked[0] if invoked else None, real_stdout)
    finally:
        # a second Ctrl-C or SIGTERM must not interrupt the workers' shutdown
        set_signals({signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: signal.SIG_IGN})
        try:
            stop_all()
        finally:
            sys.stdout = real_stdout
            set_signals(saved)
    sys.exit(code)


def _invoke(args: list[str], real_stdout: Any, invoked: list[click.Context]) -> int:
    """Run the command of ``args`` with its output checked as written; its exit status (0, or that of
    ``--help`` and ``--version``).  The group's context goes into ``invoked``, for an error's wording."""
    if real_stdout is None:  # `calasolve ... >&-`
        raise OutputError("cannot write the output: standard output is closed")
    sys.stdout = CheckedOutput(real_stdout)
    code = 0
    try:
        with cli.make_context("calasolve", args) as ctx:
            invoked.append(ctx)
            cli.invoke(ctx)
    except click.exceptions.Exit as exc:  # --help, --version
        code = exc.exit_code
    sys.stdout.flush()  # a closed pipe shows here at the latest
    return code


def _failure_status(exc: BaseException, group: click.Context | None, real_stdout: Any) -> int:
    """Say on one line what stopped the command, and return its exit status (a closed pipe: exit 0 now)."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        say(exc.ctx.get_help() if exc.ctx else str(exc))
        return 2
    if isinstance(exc, click.UsageError):
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        say(f"calasolve: error: {one_line(exc.format_message())}{hint}")
        return 2
    if isinstance(exc, click.ClickException):
        say(f"calasolve: error: {one_line(exc.format_message())}")
        return 2
    if isinstance(exc, OutputError):
        drop_unwritten_output(real_stdout)
        say(f"calasolve: error: {one_line(str(exc))}")
        return 2
    if isinstance(exc, ParameterError):
        command = cli.commands.get(group.invoked_subcommand or "") if group is not None else None
        say(f"calasolve: error: {one_line(option_message(exc, command))}")
        return 2
    if isinstance(exc, CalasolveError):
        say(f"calasolve: error: {one_line(str(exc))}")
        return 2
    if isinstance(exc, MemoryError):
        say(f"calasolve: error: out of memory{f' ({one_line(str(exc))})' if str(exc) else ''}")
        return 2
    if isinstance(exc, ImportError):  # a module that cannot load (a memory limit): no traceback
        say(f"calasolve: error: cannot load {exc.name or 'a module'}: {one_line(str(exc).strip()) or 'import failed'}")
        return 2
    if isinstance(exc, BrokenProcessPool):
        say("calasolve: error: a worker process died (killed, or out of memory)")
        return 2
    if isinstance(exc, click.exceptions.Abort):
        say("calasolve: aborted")
        return 130
    if isinstance(exc, KeyboardInterrupt):
        say("calasolve: interrupted")
        return 130
    if isinstance(exc, Terminated):
        say("calasolve: terminated")
        return SIGTERM_STATUS
    if isinstance(exc, BrokenPipeError):
        # `calasolve solve ... | head`: the reader went away; not an error of ours
        stop_all()
        os._exit(0)
    # InternalError, or any other bug: one line, never a traceback
    say(internal_error_line(exc))
    return INTERNAL_STATUS
