"""calasolve: double-dummy solver and hand analyser for Calabresella (Terziglio)."""

from __future__ import annotations

__version__ = "0.1.0"
