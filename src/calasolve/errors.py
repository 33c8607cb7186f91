"""Exceptions raised by calasolve.

Every error a user can provoke with bad input is a :class:`CalasolveError`,
a subclass of :class:`ValueError`, so callers can catch it the usual way.
The command line prints ``str(error)`` on one line and exits with status 2.
"""

from __future__ import annotations


class CalasolveError(ValueError):
    """Base class of every input error calasolve raises."""


class CardError(CalasolveError):
    """A card or hand that cannot be parsed."""


class RuleError(CalasolveError):
    """An unknown variant name or value."""


class IllegalPlayError(CalasolveError):
    """A card that may not be played (not held, or a failure to follow suit)."""


class ExchangeError(CalasolveError):
    """An exchange that contradicts docs/rules.md §5."""


class TableSizeError(CalasolveError):
    """A transposition table the machine cannot allocate (the size asked for is the bad input).

    ``tt_mb`` is the size asked for, so that a caller (the command line) can
    name its own option for it.
    """

    def __init__(self, message: str, tt_mb: int) -> None:
        super().__init__(message)
        self.tt_mb = tt_mb

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.args[0], self.tt_mb))


class DealFileError(CalasolveError):
    """A malformed deal file; the message names the file and the line.

    >>> str(DealFileError("no card here", path="x.deal", line=3))
    'x.deal:3: no card here'
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        where = path or "<deal>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # keep path and line when the error crosses a process boundary (``--jobs``)
        return (_rebuild_deal_file_error, (type(self), self.message, self.path, self.line))


def _rebuild_deal_file_error(cls: type, message: str, path: str | None, line: int | None) -> DealFileError:
    return cls(message, path=path, line=line)  # type: ignore[no-any-return]
