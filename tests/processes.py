"""The processes of this machine as Linux shows them in ``/proc``, for the tests that follow what calasolve starts."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator


def stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (its state first, then its parent, its process
    group, ...); None once the process is gone."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def processes() -> Iterator[tuple[int, list[str]]]:
    """Every process still there: its pid and its :func:`stat` fields."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := stat(int(entry.name))) is not None:
            yield int(entry.name), fields


def children(pid: int, live: bool = False) -> list[int]:
    """The processes whose parent is ``pid`` (``live``: not those that are zombies)."""
    return [p for p, fields in processes() if int(fields[1]) == pid and not (live and fields[0] == "Z")]


def cmdline(pid: int) -> bytes:
    """The process's command line (its arguments joined by NULs); empty once it is gone."""
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""
