"""``calasolve rules``: the rule variants and their values."""

from __future__ import annotations

import click

from ..game.rules import RULE_HELP, VARIANTS
from .bulk import emit_json
from .options import json_option
from .text import format_rules


@click.command()
@json_option("One JSON object: each variant's values, the standard one and what it means.")
def rules(as_json: bool) -> None:
    """List the rules variants and their values (the standard value first).

    \b
    Example:
      calasolve rules
    """
    if as_json:
        emit_json({
            "rules": [
                {"name": name, "values": list(values), "standard": values[0], "help": RULE_HELP[name]}
                for name, values in VARIANTS.items()
            ]
        })
        return
    click.echo("\n".join(format_rules(VARIANTS, RULE_HELP)))
