"""Deal records and how they are written: the deal-file reader and writer, the notation and
diagrams of cards, hands, positions and tricks, and the flat form of ``solve --json``.

Imports only :mod:`calasolve.game`; the search and everything above may import it.
"""
