"""The types layer: what calasolve's answers are made of, as data.

Records (a deal as written), views (what one seat knows of a deal), the results of solving a position, of an
exchange search, of the double-dummy table, of an analysis, of the advisor
of a played deal and of the arena: frozen dataclasses with ``to_dict``/``from_dict``, in
modules named for what they hold.  Below the parsers (``records``) and the
searches that produce them; above ``game`` only (and may import nothing
else of the package).
"""
