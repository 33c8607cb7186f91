"""The exception classes: all in one module, each kind where it belongs, each pickling whole."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path

import pytest

import calasolve
from calasolve.game import errors
from calasolve.game.errors import (
    Abandoned,
    AuctionError,
    BadRequest,
    CalasolveError,
    CardError,
    DealFileError,
    ExchangeError,
    ExchangeFieldError,
    IllegalActionError,
    IllegalPlayError,
    InternalError,
    KnownCardsError,
    MatchError,
    OutputError,
    ParameterError,
    RecordError,
    RuleError,
    SolverArgumentError,
    SolverArgumentTypeError,
    Terminated,
    WorkerStartError,
)

SRC = Path(calasolve.__file__).resolve().parent

#: One instance of every exception class of the package, with its fields.
SAMPLES: list[BaseException] = [
    CalasolveError("bad input"),
    CardError("XY: not a card"),
    RuleError("unknown rule 'x'"),
    IllegalPlayError("4S: seat 1 must follow the suit of 4B"),
    IllegalActionError("action 60 (split 2111): not legal in the discard phase (seat 1 discards one of its cards)"),
    ExchangeError("solo: the exchange is incomplete"),
    ExchangeFieldError("discards", "solo: four discards needed"),
    DealFileError("no card here", path="x.deal", line=3),
    RecordError("soloist 3: must be seat 0, 1 or 2", "soloist"),
    ParameterError("samples", 0, "must be 1..1000000"),
    ParameterError("solver", object(), "must be a Solver", show_value=False),
    OutputError("cannot write the output: No space left on device"),
    WorkerStartError("cannot start worker processes: MemoryError"),
    AuctionError("call 2 'solo': out of turn"),
    MatchError("the match is over"),
    KnownCardsError("seat 3 is not a seat", "3=AB"),
    KnownCardsError("more cards than the seats hold"),
    SolverArgumentError("hands must be 3 masks, got 2"),
    SolverArgumentTypeError("leader must be an int, not float"),
    BadRequest("the body is larger than 65536 bytes", 413),
    InternalError("the payoff and thirds searches disagree"),
    Terminated(),
    Abandoned(),
]

#: The fields the classes carry (a ParameterError's ``value`` too, but an object() equals no copy of it).
FIELDS = ("message", "path", "line", "parameter", "problem", "show_value", "field", "detail", "item", "status")


def test_every_exception_class_is_in_errors_py() -> None:
    # the one private exception left elsewhere: records.dealfile._Bad, caught in its own module
    for path in SRC.rglob("*.py"):
        if path.name == "errors.py" and path.parent.name == "game":
            continue
        for line in path.read_text().splitlines():
            if line.startswith("class ") and ("Error" in line or "Exception" in line):
                assert line.startswith("class _Bad(Exception)") and path.name == "dealfile.py", f"{path}: {line}"


def test_every_class_has_a_sample() -> None:
    classes = {c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, BaseException) and c.__module__ == errors.__name__}
    assert classes == {type(e) for e in SAMPLES}


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: type(e).__name__)
def test_pickles_whole(error: BaseException) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error) and copy.args == error.args
    for name in FIELDS:
        if hasattr(error, name):
            assert getattr(copy, name) == getattr(error, name), name


def test_kinds() -> None:
    # a broken invariant is no input error: nothing that catches bad input catches it
    assert not issubclass(InternalError, ValueError)
    assert issubclass(SolverArgumentError, CalasolveError) and issubclass(SolverArgumentTypeError, TypeError)
    assert issubclass(ExchangeFieldError, ExchangeError) and issubclass(BadRequest, CalasolveError)
    assert not issubclass(Terminated, Exception) and not issubclass(Abandoned, CalasolveError)
