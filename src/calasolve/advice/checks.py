"""The advisor's arguments in the loose forms the API takes (a hand as text, any iterable of contracts,
a mapping of known cards) made into :class:`~calasolve.advice.settings.AdviceSettings` fields,
in the calling process, with the API's errors; :func:`fold_options` folds a public front's keywords
into its settings in one place."""

from __future__ import annotations

from typing import Any, Collection, Iterable, Mapping, cast

from ..game.cards import Mask, parse_cards_or_hand, popcount
from ..game.errors import CalasolveError, ParameterError
from ..game.limits import check_instance
from ..game.state import Contract
from .settings import AdviceSettings


def parse_advice_hand(text: str) -> Mask:
    """A 12-card hand in hand notation or as card tokens.

    >>> from calasolve.game.cards import hand_name
    >>> hand_name(parse_advice_hand("3B 2B AB 7B RS CS 5S FC 6C 4C AD RD"))
    '32A7.RC5.F64.AR'
    """
    mask = parse_cards_or_hand(text)
    if popcount(mask) != 12:
        raise CalasolveError(f"hand {text!r}: has {popcount(mask)} cards, a hand has 12")
    return mask


def hand_mask(hand: Mask | str) -> Mask:
    """A hand given as text parsed; a mask as given (the settings check it)."""
    return parse_advice_hand(hand) if isinstance(hand, str) else hand


def contract_choice(contracts: Iterable[str]) -> tuple[Contract, ...]:
    """The contracts once each, in the order given (the settings check their names).

    >>> contract_choice([])
    Traceback (most recent call last):
    ...
    calasolve.game.errors.ParameterError: contracts []: no contract to estimate
    """
    if isinstance(contracts, str):
        raise ParameterError("contracts", contracts, "must be a sequence of contract names, not one string")
    try:
        chosen = tuple(dict.fromkeys(contracts))
    except TypeError:
        raise ParameterError("contracts", contracts, "must be a sequence of contract names") from None
    if not chosen:
        # the value as given: the command line's message says `[]`
        raise ParameterError("contracts", contracts, "no contract to estimate")
    return cast("tuple[Contract, ...]", chosen)


def known_items(known: Mapping[object, Mask] | None) -> tuple[tuple[object, Mask], ...]:
    """The known cards' places and cards (the settings check them)."""
    if known is not None and not isinstance(known, Mapping):
        raise ParameterError("known", known, "must be a mapping of a seat 0..2 or 'monte' to cards")
    return tuple((known or {}).items())


def fold_options(
    front: str, hand: Mask | str | None, settings: AdviceSettings | None, options: Mapping[str, Any],
    refused: Collection[str] = (),
) -> AdviceSettings:
    """The settings of the public ``front`` (``advise``, ``advise_play``): ``settings`` with ``options``
    (its fields by name, in the API's loose forms) and ``hand`` put in, or new settings from them.  A
    field in ``refused`` is not an option of that front; an unknown keyword is a ``TypeError``, as
    Python makes it for a function's keywords.

    >>> fold_options("advise", "32AR.32A.3A.2A5", None, {"seed": 3, "contracts": ["solo"]}).contracts
    ('solo',)
    >>> fold_options("advise", None, None, {"sed": 3})
    Traceback (most recent call last):
    ...
    TypeError: advise() got an unexpected keyword argument 'sed'
    """
    allowed = {f for f in AdviceSettings.__dataclass_fields__ if f not in ("hand", "derived")} - set(refused)
    for name in options:
        if name not in allowed:
            raise TypeError(f"{front}() got an unexpected keyword argument {name!r}")
    given = dict(options)
    if hand is not None:
        given["hand"] = hand_mask(hand)
    if "contracts" in given:
        given["contracts"] = contract_choice(given["contracts"])
    if "known" in given:
        given["known"] = known_items(given["known"])
    if settings is None:
        if hand is None:
            raise TypeError(f"{front}() needs a hand, or settings that hold one")
        return AdviceSettings(**given)
    check_instance("settings", settings, AdviceSettings, "an AdviceSettings")
    return settings.replace(**given)
