"""``calasolve board``: serve the analysis board for deal files."""

from __future__ import annotations

from typing import Sequence

import click

from ..game.errors import CalasolveError
from .bulk import load_records
from .options import rule_option, tt_option


@click.command("board")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (other than 127.0.0.1 opens the board to the network).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="The port to listen on (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the URL but do not open a browser.")
@rule_option
@tt_option
def board_cmd(file: str | None, host: str, port: int, no_browser: bool, rule_items: Sequence[str], tt_mb: int) -> None:
    """Start the analysis board: a local web page to study deals.

    The page shows the table with every legal card's double-dummy value,
    plays and takes back cards, graphs a played deal's evaluation with its
    mistakes, searches the exchange and charts the advice for a hand.
    FILE's records are listed on the page (the only file the board reads);
    records can also be pasted.  Ctrl-C stops the server.  Needs the extra
    calasolve[board].

    \b
    Examples:
      calasolve board examples/played.deal
      calasolve board --no-browser --port 8080 examples/example.deal
    """
    try:
        from ..board.server import serve
    except ImportError as err:
        raise CalasolveError(f"the board needs the optional extra: pip install 'calasolve[board]' ({err})") from None
    records = load_records([file], rule_items) if file else []
    serve(records, path=file, host=host, port=port, open_browser=not no_browser, tt_mb=tt_mb, echo=click.echo)
