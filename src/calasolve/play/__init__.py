"""Playing cards without seeing every hand: what a seat knows of a deal in play and the layouts of
the unseen cards consistent with it (:mod:`~calasolve.play.knowledge`), and the card players
(:mod:`~calasolve.play.players`): double dummy, PIMC (Perfect Information Monte Carlo) and a plain
heuristic, with :func:`~calasolve.play.players.play_out` to play a record to the end; the contract-minded
PIMC player (:mod:`~calasolve.play.target`); and the players by name (:mod:`~calasolve.play.factory`).

Imports :mod:`calasolve.search`, :mod:`calasolve.records` and :mod:`calasolve.game`; below
:mod:`calasolve.advice`, :mod:`calasolve.deals` and :mod:`calasolve.table`, which may use its players.
"""
