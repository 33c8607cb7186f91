"""``calasolve check``: read deal files and report each record, or each error."""

from __future__ import annotations

import re
from typing import Sequence

import click

from ..game.errors import DealFileError
from ..game.notation import notation
from ..types.record import Record
from ..types.view import View, format_view, seat_view
from .bulk import check_records, emit_json
from .options import files_argument, json_option, rule_option, symbols_option
from .streams import one_line
from .text import format_check


@click.command()
@files_argument
@json_option()
@rule_option
@symbols_option
@click.option("--verbose", "-v", is_flag=True, help="Hand diagrams: as dealt, the exchange, at the first lead, where the play stops.")
@click.option("--view", "view_at", metavar="SEAT[@N]", default=None,
              help="Print each record as seat SEAT sees it after N cards played (default: all of played), "
                   "as a view record that check reads back.")
def check(files: Sequence[str], as_json: bool, rule_items: Sequence[str], symbols: bool | None, verbose: bool,
          view_at: str | None) -> None:
    """Validate deal files and print each record readably.

    Every error of every file is reported, one line each on stderr (and
    nothing on stdout); the exit status is 0 when every record is valid, 2
    otherwise.

    \b
    Example:
      calasolve check examples/example.deal
      calasolve check --verbose --symbols examples/played.deal
      calasolve check --view 1@6 examples/played.deal
    """
    point = _view_point(view_at)
    records, errors = check_records(files, rule_items)
    if errors:  # like a linter: the errors only, one line each
        for err in errors[:-1]:
            click.echo(f"calasolve: error: {one_line(str(err))}", err=True)
        raise errors[-1]
    if point is not None:
        _print_views(records, *point, as_json=as_json)
        return
    n = notation(symbols)
    for i, record in enumerate(records):
        if isinstance(record, View):
            if as_json:
                emit_json({"record": record.index, "file": record.path, **record.to_dict()})
            else:
                click.echo("\n".join(([""] if i else []) + _view_lines(record)))
            continue
        if as_json:
            emit_json({"record": record.index, "file": record.path, **record.to_dict()})
        else:
            if i:
                click.echo()
            click.echo("\n".join(format_check(record, n, verbose=verbose)))


def _view_point(text: str | None) -> tuple[int, int | None] | None:
    """``--view SEAT[@N]`` as (seat, cards played or None for all)."""
    if text is None:
        return None
    found = re.fullmatch(r"\s*([012])\s*(?:@\s*(\d+))?\s*", text)
    if found is None:
        raise click.BadParameter(f"{text!r}: a seat 0, 1 or 2, optionally @N for after N cards played (e.g. 1@6)",
                                 param_hint="'--view'")
    return int(found.group(1)), None if found.group(2) is None else int(found.group(2))


def _print_views(records: Sequence[Record | View], seat: int, played: int | None, *, as_json: bool) -> None:
    views = []
    for record in records:
        if isinstance(record, View):
            raise DealFileError(f"record {record.index} is already seat {record.seat}'s view; --view needs whole deals",
                                path=record.path, line=record.line)
        if played is not None and played > len(record.played):
            line = (record.key_lines or {}).get("played", record.line)
            raise DealFileError(f"played: --view {seat}@{played} asks for {played} cards played, the record gives "
                                f"{len(record.played)}", path=record.path, line=line)
        views.append(seat_view(record, seat, played))
    for i, view in enumerate(views):
        if as_json:
            emit_json(view.to_dict())
        else:
            click.echo(("\n" if i else "") + format_view(view))


def _view_lines(view: View) -> list[str]:
    """A view read by ``check``: where it is from, then its deal-file text."""
    where = f"{view.path}:{view.line}" if view.path else f"record {view.index}"
    return [f"record {view.index} ({where}): seat {view.seat}'s view"] + ["  " + line for line in format_view(view).split("\n")]
