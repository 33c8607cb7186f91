"""The tables of several records over one ``map`` (the analogue of endplay's ``calc_all_tables``).

:func:`dd_tables` splits every record's table into its parts
(:func:`~calasolve.table.ddtable.table_parts`: the entries, each dividete
entry as its 6 draws, dearest contracts first), runs all the parts of all the
records through one ``map`` (the builtin one, a process pool's, a Dask
cluster's), and puts each record's table back together
(:func:`~calasolve.table.ddtable.assemble`) as soon as its parts are in.
"""

from __future__ import annotations

import builtins
import time
from itertools import islice
from typing import Iterable, Iterator

from ..game.errors import CalasolveError, ParameterError
from ..game.limits import MAX_TABLE_MB, check_optional_int, check_optional_seconds
from ..types.record import Record
from ..types.record import record_label
from ..search import engines
from ..types.table import DDTable, TableEntry
from ..scale.submit import Mapper
from .cut import cut_tables
from .ddtable import TablePart, assemble, named_error, part_tasks, table_part, table_parts


def dd_tables(
    records: Iterable[Record], *, map: Mapper = builtins.map, tt_mb: int | None = None, time_limit: float | None = None,
    cut: bool = False,
) -> Iterator[DDTable]:
    """The double-dummy table and par of each record's deal as dealt (:func:`~calasolve.table.ddtable.dd_table`),
    in the records' order, each as soon as its parts are done.

    All the parts of all the records go to one call of ``map``, so a pool of workers stays busy
    from the first record to the last.  Each process solves with its own kept solver
    (:func:`calasolve.search.engines.solver`, a ``tt_mb`` MiB table; None: the size it has, or the
    default).  The records are checked before any work starts; an error in a record's table names
    the record.

    ``time_limit``: early tables, about ``time_limit`` seconds each: the k-th record's exchange searches
    test no candidate after k x ``time_limit`` seconds from now, and an entry they cut is not ``proven``
    (its par provisional).  None: exact.

    ``cut``: each exchange search cut in tasks of a few seconds for a cluster of many workers
    (:mod:`calasolve.table.cut`: the same tables, at more CPU in all); exact only (no ``time_limit``).
    Given a submitter of single tasks (:mod:`calasolve.scale.submit`: ``ProcessPoolExecutor.map`` brings its
    pool's, the command's workers and clusters are such), each search moves on as soon as its own tasks are
    done; a plain ``map`` runs the stages one after another.  Each table carries the log of its tasks
    (``DDTable.tasks``)."""
    tt_mb = check_optional_int("tt_mb", tt_mb, 1, MAX_TABLE_MB)  # here, not in every worker
    check_optional_seconds("time_limit", time_limit)
    if cut and time_limit is not None:
        raise ParameterError("time_limit", time_limit, "a table cut for a cluster is exact: give no time limit")
    listed = list(records)
    parts = [table_parts(record) for record in listed]
    if cut:
        return cut_tables(listed, map, tt_mb)
    start = time.time()
    # one deadline per record, a limit apart: the pool works through the records in order
    deadlines = [None if time_limit is None else start + (k + 1) * time_limit for k in range(len(listed))]
    results = map(table_job, [(part, tt_mb, deadline) for of_record, deadline in zip(parts, deadlines)
                              for part in of_record])
    return _tables(listed, [len(p) for p in parts], iter(results))


def table_job(job: tuple[TablePart, int | None, float | None]) -> TableEntry:
    """One part of a table on this process's solver, with its table's deadline (a :func:`time.time`; None:
    exact): what :func:`dd_tables` gives its ``map``.  Its error crosses back whole (its class and fields);
    :func:`dd_tables` names the record."""
    part, tt_mb, deadline = job
    return table_part(part, engines.solver(tt_mb), deadline)


def _tables(records: list[Record], sizes: list[int], results: Iterator[TableEntry]) -> Iterator[DDTable]:
    try:
        for record, size in zip(records, sizes):
            try:
                entries = list(islice(results, size))
            except ParameterError as exc:
                if exc.parameter == "tt_mb":  # the table size asked for, not the record's fault
                    raise
                raise named_error(record, exc) from None
            except CalasolveError as exc:
                raise named_error(record, exc) from None
            if len(entries) != size:
                raise CalasolveError(f"{record_label(record)}: the map gave {len(entries)} of the table's {size} parts")
            yield assemble(record, entries, part_tasks(entries))
    finally:
        # a pool's results end with the tables (or the first error): its workers stop now, not when collected
        close = getattr(results, "close", None)
        if close is not None:
            close()
