"""Every exception class of calasolve, by kind.

* Bad input, which a user can provoke, is a :class:`CalasolveError`, a
  subclass of :class:`ValueError`, so callers can catch it the usual way.
  The command line prints ``str(error)`` on one line and exits with status 2.
* A broken internal invariant (a bug of calasolve, never the input's fault)
  is an :class:`InternalError`, not a :class:`CalasolveError`: the command
  line says so on one line and exits with status 70.
* :class:`Terminated` (SIGTERM) and :class:`Abandoned` (the board's asker
  left) stop work; they are neither.

Every class pickles whole (type, message and fields), so an error raised in
a worker process is the same error in the parent.
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


class RecordError(CalasolveError):
    """A deal record made in memory that breaks a rule of the deal; ``key`` is the deal-file key at fault.

    >>> err = RecordError("soloist 3: must be seat 0, 1 or 2", "soloist")
    >>> str(err), err.key
    ('soloist 3: must be seat 0, 1 or 2', 'soloist')
    """

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.message, self.key))


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


class ExchangeFieldError(ExchangeError):
    """An :class:`ExchangeError` that also names the :class:`~calasolve.game.exchange.Exchange`
    field at fault, so a deal file can point at the line of that field."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field

    def __reduce__(self) -> tuple[type, tuple[str | None, str]]:  # pickles across worker processes
        return (type(self), (self.field, self.args[0]))


class AuctionError(CalasolveError):
    """An illegal call, or an auction result asked for too early or wrongly aggravated."""


class IllegalActionError(CalasolveError):
    """An action the game environment does not take now (:mod:`calasolve.env`): not an action id,
    not legal in this state, or made after the end; the state is left as it was."""


class MatchError(CalasolveError):
    """A match set up or fed wrongly (bad player count, a deal after the end)."""


class KnownCardsError(CalasolveError):
    """Known cards that are malformed or cannot be placed.  ``item`` is the ``WHERE=CARDS``
    text at fault (None for a problem of the whole placement) and ``detail`` the problem,
    so that the command line can name its own option."""

    def __init__(self, detail: str, item: str | None = None) -> None:
        super().__init__(f"known cards {item!r}: {detail}" if item is not None else f"known cards: {detail}")
        self.detail = detail
        self.item = item

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.detail, self.item))


class SolverArgumentError(CalasolveError):
    """An argument the C core refuses (``Solver``, ``GoalSearch`` and the batch functions of
    :mod:`calasolve.search._core`): a position, a size, a goal; the message says which."""


class SolverArgumentTypeError(SolverArgumentError, TypeError):
    """A :class:`SolverArgumentError` of type (a float or a string where an int belongs):
    also a :class:`TypeError`, as it was before it was a :class:`CalasolveError`."""


class BadRequest(CalasolveError):
    """A request the board cannot answer: one line, sent back with a 4xx (or 503) status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type, tuple[str, int]]:  # the board's child sends it whole
        return (type(self), (self.args[0], self.status))


class OutputError(CalasolveError):
    """The output cannot be written (a full disk, a closed stream)."""


class WorkerStartError(CalasolveError):
    """Worker processes cannot start (a memory limit, a module that does not import)."""


class InternalError(Exception):
    """A broken invariant of calasolve: a bug, never bad input (so not a :class:`CalasolveError`).

    The message says what went wrong; the command line reports it on one line
    with a plea to report it, and exits with status 70.
    """


class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread so that ``with`` and ``finally`` blocks run
    (:func:`calasolve.scale.workers.exit_on_sigterm`).

    A :class:`BaseException`, like :class:`KeyboardInterrupt`, so that no
    ``except Exception`` swallows it."""


class Abandoned(Exception):
    """The board's page no longer wants the answer (it closed the request): its work was stopped."""


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
