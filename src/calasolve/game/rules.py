"""The ruleset: the standard rules of docs/rules.md and its named variants.

A :class:`Rules` value is immutable and hashable.  Variants are chosen by
name, exactly as docs/rules.md writes them (``stramazzo=off``, ``payment=plus``,
...), from the command line (``--rule name=value``), from a deal record
(``rules: name=value ...``) or from Python:

>>> Rules().stramazzo
'on'
>>> Rules.parse(["stramazzo=off", "payment=plus"]).describe()
'stramazzo=off payment=plus'
>>> Rules.parse(["stramazo=off"])
Traceback (most recent call last):
...
calasolve.game.errors.RuleError: unknown rule 'stramazo' (known: auction, void_redeal, aggravations, first_lead, stramazzo, payment, match)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Iterable, Mapping

from .errors import RuleError

#: Each rule's allowed values, the standard one first, with the docs/rules.md section.
VARIANTS: dict[str, tuple[str, ...]] = {
    # §4: one round of bidding (standard) or bidding round until two pass.
    "auction": ("single", "open"),
    # §4: an all-pass deal passes the deal on (standard) or the same dealer redeals.
    "void_redeal": ("next_dealer", "same_dealer"),
    # §4: dividete/scegliete are aggravations of a won solissimo (standard) or ordinary bids.
    "aggravations": ("declared", "bids"),
    # §6: seat 0 leads chiamo and solo, the soloist the rest (standard); or seat 0 always.
    "first_lead": ("standard", "eldest"),
    # §8: the stramazzo multiplier x3 (standard on).
    "stramazzo": ("on", "off"),
    # §8: zero-sum payment (standard) or the "plus" payment of 000_.
    "payment": ("zerosum", "plus"),
    # §8: a session of 9 scored deals (standard) or first to 21 / 31.
    "match": ("session9", "target21", "target31"),
}

#: Short help for each rule, shown by ``calasolve rules``.
RULE_HELP: dict[str, str] = {
    "auction": "single: each player speaks once from seat 0; open: bidding goes round until two pass after a bid",
    "void_redeal": "next_dealer: an all-pass deal passes the deal on; same_dealer: the same dealer deals again",
    "aggravations": "declared: dividete/scegliete aggravate a won solissimo; bids: they are bids above solissimo",
    "first_lead": "standard: seat 0 leads chiamo and solo, the soloist the rest; eldest: seat 0 always leads",
    "stramazzo": "on: x3 when the side that lost holds under 3 thirds in cards; off: no stramazzo",
    "payment": "zerosum: soloist +-2vm, each defender -+vm; plus: made pays the soloist +vm, failed pays each defender +vm",
    "match": "session9: 9 scored deals, highest balance wins; target21/target31: first to 21/31",
}


@dataclass(frozen=True)
class Rules:
    """One ruleset; every field defaults to the standard rule."""

    auction: str = "single"
    void_redeal: str = "next_dealer"
    aggravations: str = "declared"
    first_lead: str = "standard"
    stramazzo: str = "on"
    payment: str = "zerosum"
    match: str = "session9"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value not in VARIANTS[f.name]:
                allowed = ", ".join(VARIANTS[f.name])
                raise RuleError(f"rule {f.name}: unknown value {value!r} (allowed: {allowed})")

    @classmethod
    def parse(cls, items: Iterable[str], base: "Rules | None" = None) -> "Rules":
        """Rules from ``name=value`` strings, applied over ``base`` (default: standard).
        Names and values are case-insensitive, like contract names.

        >>> Rules.parse(["first_lead=eldest"]).first_lead
        'eldest'
        >>> Rules.parse(["Stramazzo=OFF"]).stramazzo
        'off'
        """
        changes: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            name, value = name.strip().lower(), value.strip().lower()
            if not sep or not name or not value:
                raise RuleError(f"rule {item!r}: write it as name=value, e.g. stramazzo=off")
            if name not in VARIANTS:
                raise RuleError(f"unknown rule {name!r} (known: {', '.join(VARIANTS)})")
            changes[name] = value
        return (base or cls()).with_(changes)

    def with_(self, changes: Mapping[str, str]) -> "Rules":
        """A copy with some rules changed (names and values validated)."""
        for name in changes:
            if name not in VARIANTS:
                raise RuleError(f"unknown rule {name!r} (known: {', '.join(VARIANTS)})")
        return replace(self, **dict(changes))

    def changes(self) -> dict[str, str]:
        """The rules that differ from the standard ruleset.

        >>> Rules(payment="plus").changes()
        {'payment': 'plus'}
        """
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != VARIANTS[f.name][0]}

    def describe(self) -> str:
        """The non-standard rules as ``name=value`` words, or ``standard``."""
        changed = self.changes()
        return " ".join(f"{k}={v}" for k, v in changed.items()) or "standard"

    @classmethod
    def from_dict(cls, d: Mapping[str, str]) -> "Rules":
        """The rules of :meth:`to_dict`'s form, names and values checked (a rule left out is the standard one):
        ``Rules.from_dict(r.to_dict()) == r``."""
        return cls().with_(d)

    def to_dict(self) -> dict[str, str]:
        """Every rule and its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


STANDARD = Rules()
