"""The commands' bulk plumbing: reading the records (files or standard input), mapping them over
worker processes or a Dask cluster, printing each result as it comes (text or JSON), failures
per record, and the silent progress bar when stderr is not a terminal.
"""

from __future__ import annotations

import copy
import os
import sys
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, NoReturn, Sequence

import click

from ..game.cards import hand_name
from ..game.errors import CalasolveError, DealFileError, OutputError
from ..game.rules import Rules
from ..types import jsonout
from ..types.record import record_label
from ..records.dealfile import check_entries_bytes, check_entries_file, parse_deal_bytes, read_deal_file
from ..records.flat import flatten
from ..scale.submit import PoolMap, Waves
from ..scale.workers import worker_pool


def load_records(files: Sequence[str], rule_items: Sequence[str]) -> list[Any]:
    """Every record of every file, with ``--rule`` overrides applied over each record's own rules."""
    Rules.parse(rule_items)  # an unknown name or value fails before any file is read
    records = []
    for path in files:
        if path == "-":
            read = parse_deal_bytes(read_stdin(), "<stdin>")
        else:
            read = read_deal_file(path)
        for record in read:
            if rule_items:
                record = record.with_(rules=Rules.parse(rule_items, base=record.rules))
            records.append(record)
    return records


def read_stdin() -> bytes:
    """Standard input's bytes; a closed or unreadable one is the deal file's error."""
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
    """Every valid record or seat's view of every file and every error found in them, in file and line order."""
    Rules.parse(rule_items)  # an unknown name or value fails before any file is read
    records: list[Any] = []
    errors: list[CalasolveError] = []
    for path in files:
        if path == "-":
            read, bad = check_entries_bytes(read_stdin(), "<stdin>")
        else:
            read, bad = check_entries_file(path)
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


def failure(record: Any, exc: CalasolveError) -> "Failure":
    """A record's error, saying once where (the record's own errors name its file and line)."""
    if record.path and str(exc).startswith(f"{record.path}:"):
        return Failure(exc)
    return Failure(exc, record_label(record))


def emit_json(obj: dict[str, Any]) -> None:
    click.echo(jsonout.dumps(obj))


#: A ``map``: a function over a list, the results in the list's order.
Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], Iterator[Any]]


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


def pool_imap(fn: Callable[[Any], Any], items: Iterable[Any], jobs: int, ahead: int = 4) -> Iterator[Any]:
    """``map`` over ``items`` on ``jobs`` worker processes, order kept, lazily: at most ``ahead`` x ``jobs``
    items are taken before their results are given (an endless stream of items works)."""
    pending: deque[Any] = deque()
    with worker_pool(jobs) as pool:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= ahead * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def bulk_map(
    fn: Callable[[Any], Any], items: Sequence[Any], jobs: int | None, scheduler: str | None, timeout: float
) -> Iterator[Any]:
    """:func:`pool_map`, or on the Dask cluster ``scheduler`` names (:mod:`calasolve.scale.cluster`); order kept."""
    if scheduler is None:
        yield from pool_map(fn, items, jobs)
        return
    from ..scale.cluster import chunk_size, dask_map

    with dask_map(scheduler, timeout) as dmap:
        yield from dmap.map(fn, items, chunksize=chunk_size(len(items), dmap.workers))


@contextmanager
def open_map(jobs: int | None, scheduler: str | None, timeout: float) -> Iterator[Mapper]:
    """A ``map`` that several calls share (one worker pool, or one Dask cluster), one item per task, order kept,
    and a submitter of single tasks (:mod:`calasolve.scale.submit`): for work in stages, where each stage's tasks
    come from the one before."""
    if scheduler is not None:
        from ..scale.cluster import DaskTasks, dask_map

        with dask_map(scheduler, timeout) as dmap:
            yield DaskTasks(dmap)
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        yield Waves(map)
        return
    with worker_pool(jobs) as pool:
        yield PoolMap(pool, jobs)


@contextmanager
def output_file(path: str) -> Iterator[Any]:
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



def check_scheduler(scheduler: str | None, jobs: int | None) -> None:
    """``--scheduler`` well formed, alone (its cluster has its own workers), and Dask installed."""
    if scheduler is None:
        return
    if jobs is not None:
        raise CalasolveError("--jobs and --scheduler do not go together (the cluster has its own workers)")
    from ..scale.cluster import parse_scheduler, require_dask

    parse_scheduler(scheduler)
    require_dask()


def print_results(
    records: Sequence[Any], results: Iterator[Any], as_json: bool, format_text: Callable[[Any, Any], list[str]],
    flat: bool = False,
) -> None:
    """Print each record's result as it arrives, in the file's order; stop at the first failure.
    ``flat``: JSON in the flat form of :mod:`calasolve.records.flat`, with the deal."""
    for i, (record, result) in enumerate(zip(records, results)):
        if isinstance(result, Failure):
            result.raise_error()
        if flat:
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
    """A record that could not be processed: carries its error back from a worker whole (its
    class and fields pickle with it), and ``where`` it happened unless the error says so itself."""

    def __init__(self, error: CalasolveError, where: str | None = None) -> None:
        self.error = error
        self.where = where

    @property
    def message(self) -> str:
        """The one line the user sees."""
        return f"{self.where}: {self.error}" if self.where else str(self.error)

    def raise_error(self) -> NoReturn:
        """Raise the worker's error here: of its own class, with its fields, worded as :attr:`message`."""
        if self.where is None:
            raise self.error
        error = copy.copy(self.error)  # the fields kept, the message with the record in front
        error.args = (self.message,)
        raise error


class NoBar:
    """The progress bar when stderr is not a terminal: silent (iterates ``items``)."""

    length: int = 0
    label: str = ""

    def __init__(self, items: Any = ()) -> None:
        self.items = items

    def __iter__(self) -> Any:
        return iter(self.items)

    def __enter__(self) -> "NoBar":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        pass
