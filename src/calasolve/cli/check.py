"""``calasolve check``: read deal files and report each record, or each error."""

from __future__ import annotations

from typing import Sequence

import click

from ..game.notation import notation
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
def check(files: Sequence[str], as_json: bool, rule_items: Sequence[str], symbols: bool | None, verbose: bool) -> None:
    """Validate deal files and print each record readably.

    Every error of every file is reported, one line each on stderr (and
    nothing on stdout); the exit status is 0 when every record is valid, 2
    otherwise.

    \b
    Example:
      calasolve check examples/example.deal
      calasolve check --verbose --symbols examples/played.deal
    """
    records, errors = check_records(files, rule_items)
    if errors:  # like a linter: the errors only, one line each
        for err in errors[:-1]:
            click.echo(f"calasolve: error: {one_line(str(err))}", err=True)
        raise errors[-1]
    n = notation(symbols)
    for i, record in enumerate(records):
        if as_json:
            emit_json({"record": record.index, "file": record.path, **record.to_dict()})
        else:
            if i:
                click.echo()
            click.echo("\n".join(format_check(record, n, verbose=verbose)))
