"""The flat form of ``calasolve solve --json``: one object of scalars per record.

``calasolve solve --flat`` prints, one a line, the ``--json`` object with
every value a string, number, boolean or null, so that a large run loads
straight into a data frame (``pandas.read_json(path, lines=True)``, or
``polars.read_ndjson(path)``), one column per key:

* the deal: ``hands`` (the three hands as dealt, seat 0 first) and ``monte``;
* ``cards``: each legal card's value, best first, as ``CARD=VALUE`` words;
  ``best_card`` the first of them;
* ``line``: the double-dummy line as card tokens separated by spaces
  (``tricks`` is left out: it is the line cut in threes);
* a nested object's keys joined with ``_`` (``exchange_searched``,
  ``exchange_best_text``); ``exchange_alternatives`` is left out (the
  ``--json`` form has it).

>>> flatten({"record": 1, "cards": {"AS": 20, "3S": 18}, "line": ["AS", "4S"],
...          "tricks": [{"leader": 0}], "exchange": {"searched": True, "best": {"text": "discard AC"},
...          "alternatives": []}})
{'record': 1, 'cards': 'AS=20 3S=18', 'best_card': 'AS', 'line': 'AS 4S', 'exchange_searched': True, 'exchange_best_text': 'discard AC'}
"""

from __future__ import annotations

import json
from typing import Any

from ..types.jsonout import dumps

#: Keys of the ``--json`` object that the flat form leaves out (derivable, or lists of objects).
DROPPED = frozenset({"tricks", "alternatives"})

_SCALARS = (str, int, float, bool, type(None))


def _words(value: Any) -> str:
    """A value of a card mapping as a word: booleans in JSON spelling."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``obj`` (a ``--json`` object) with only scalar values (see the module doc)."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key in DROPPED:
            continue
        name = prefix + key
        if key == "cards" and isinstance(value, dict):
            out[name] = " ".join(f"{card}={_words(v)}" for card, v in value.items())
            out[prefix + "best_card"] = next(iter(value), None)
        elif isinstance(value, dict):
            out.update(flatten(value, name + "_"))
        elif isinstance(value, (list, tuple)):
            if all(isinstance(v, _SCALARS) for v in value):
                out[name] = " ".join(_words(v) for v in value)
            else:
                out[name] = dumps(value)
        else:
            out[name] = value
    return out
