"""The analysis board: ``calasolve board [FILE]`` serves a page to study deals in the browser.

The page (``static/``: plain HTML, CSS and JavaScript, nothing from the
network) talks to a small JSON API (:mod:`calasolve.board.server`,
docs/board.md) whose handlers call the same Python API as the
command line.  The server needs the optional extra ``calasolve[board]``
(Starlette and uvicorn); :mod:`calasolve.board.views` does not.

An interface layer: may import the advice, the deals, the card players, the
exchange search, the search, the records and the game; only :mod:`calasolve.cli` imports it
(``calasolve board``).  The handlers import the heavier modules on first use.
"""
