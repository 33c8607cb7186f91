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


class ParameterError(CalasolveError):
    """A bad argument of a public function, or a size that cannot be allocated.

    ``parameter`` is the argument's name as the function spells it (the
    command line shows its own option for it instead, e.g. ``--tt-mb``).

    >>> err = ParameterError("samples", 0, "must be 1..1000000")
    >>> str(err), err.parameter
    ('samples 0: must be 1..1000000', 'samples')
    """

    def __init__(self, parameter: str, value: object, problem: str, show_value: bool = True) -> None:
        self.parameter = parameter
        self.value = value
        self.problem = problem
        self.show_value = show_value
        super().__init__(f"{parameter} {value_text(value)}: {problem}" if show_value else f"{parameter}: {problem}")

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # a worker's error crosses the process boundary whole (``--jobs``)
        return (type(self), (self.parameter, self.value, self.problem, self.show_value))


class OutputError(CalasolveError):
    """The output cannot be written (a full disk, a closed stream)."""


def value_text(value: object, limit: int = 40) -> str:
    """A value as an error message shows it: its repr, cut short.

    >>> value_text(2**70), value_text("x" * 50)
    ('1180591620717411303424', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, int) and not isinstance(value, bool):
        # str() of a huge int is slow, and refused past 4300 digits
        text = str(value) if value.bit_length() <= 256 else f"<an int of {value.bit_length()} bits>"
    else:
        try:
            text = repr(value)
        except Exception:  # a hostile __repr__ must not replace the error being reported
            text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
