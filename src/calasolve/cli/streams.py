"""The process and stream plumbing of :func:`calasolve.cli.main`: standard streams that cannot show
the suit symbols, output that cannot be written, signal handlers, one-line error messages.
"""

from __future__ import annotations

import codecs
import os
import signal
import sys
import threading
from typing import Any

import click

from ..game.cards import SUIT_SYMBOLS, SUITS
from ..game.errors import InternalError, OutputError, ParameterError

#: Exit status of a bug of calasolve (an :class:`InternalError`, or an exception no command
#: expects): ``EX_SOFTWARE`` of sysexits.h, so that it is never taken for bad input (2).
INTERNAL_STATUS = 70


def suits_as_letters(err: UnicodeError) -> tuple[str, int]:
    """Encoding error handler for a terminal or file that cannot show ♣♠♥♦ (e.g.
    cp1252): the suits become the letters of the card notation (A♣ -> AB), any
    other character a backslash escape."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    bad = err.object[err.start : err.end]
    return "".join(SUITS[SUIT_SYMBOLS.index(ch)] if ch in SUIT_SYMBOLS else ch.encode("unicode_escape").decode("ascii")
                   for ch in bad), err.end


codecs.register_error("calasolve-suits", suits_as_letters)


def one_line(text: str) -> str:
    """An error message kept on one line (a file name may hold a line break)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def internal_error_line(exc: BaseException) -> str:
    """A bug of calasolve as the one line the user sees: an :class:`InternalError`'s message,
    or any other exception's type and message, and a plea to report it."""
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not become the traceback this line replaces
        text = ""
    if not isinstance(exc, InternalError) or not text:
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"calasolve: internal error: {one_line(text)} (this is a bug in calasolve; please report it with the command that caused it)"


def fit_streams() -> None:
    """Let stdout and stderr write what their encoding cannot (never a traceback)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            SUIT_SYMBOLS.encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="calasolve-suits")
        except AttributeError:  # a stream without an encoding (a test's capture): text anyway
            pass


def option_message(exc: ParameterError, command: Any) -> str:
    """A library's :class:`ParameterError` said with the command's option for the
    parameter (``tt_mb`` -> ``--tt-mb``) when the command has one."""
    for param in getattr(command, "params", ()):
        if param.name == exc.parameter and isinstance(param, click.Option):
            option = max(param.opts, key=len)
            return f"{option} {exc.value}: {exc.problem}"
    return str(exc)


class CheckedOutput:
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


def drop_unwritten_output(stream: Any) -> None:
    """Point ``stream``'s file at /dev/null, so the interpreter's exit does not retry
    (and report) what could not be written."""
    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, AttributeError, ValueError):  # no file behind it (a test's capture)
        pass


def say(text: str) -> None:
    """A line on stderr, if stderr can take it (``2>&-``, ``2>/dev/full``: the exit status still tells)."""
    try:
        click.echo(text, err=True)
    except OSError:
        pass


def set_signals(handlers: dict[int, Any]) -> dict[int, Any]:
    """Install signal handlers (main thread only); returns the ones they replace."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, handler) for signum, handler in handlers.items()}
