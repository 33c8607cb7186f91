"""Cards, hands and their notation.

A card is a small int ``0..39``: ``suit * 10 + rank``, where ``suit`` is
0..3 in the canonical order Bastoni, Spade, Coppe, Denari and ``rank`` is
0..9 from the *lowest* card (4) to the highest (3).  Higher rank number means
a stronger card, so "the highest card of a suit" is the highest set bit of a
mask.  A hand (or any set of cards) is an ``int`` bit mask with bit ``card``
set for every card it holds; the C core uses the same layout in a
``uint64_t``.

>>> card_name(parse_card("3B")), card_name(parse_card("kd"))
('3B', 'RD')
>>> hand_name(parse_hand("32A7.RC5.F64.A"))
'32A7.RC5.F64.A'
>>> popcount(parse_hand("32A7.RC5.F64.A"))
11
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .errors import CardError, value_text

Card = int
Mask = int

SUITS = "BSCD"
SUIT_SYMBOLS = "♣♠♥♦"
SUIT_NAMES = ("Bastoni", "Spade", "Coppe", "Denari")

#: Rank characters from the lowest (index 0) to the highest (index 9).
RANKS = "4567FCRA23"
#: Rank characters highest first, the order of the notation.
RANKS_HIGH_FIRST = RANKS[::-1]
_RANK_SYNONYMS = {"K": "R", "Q": "C", "J": "F"}

#: Card value in thirds of a point, by rank index (4,5,6,7 = 0; F,C,R = 1; A = 3; 2,3 = 1).
RANK_THIRDS = (0, 0, 0, 0, 1, 1, 1, 3, 1, 1)
#: Thirds for winning the last trick.
LAST_TRICK_THIRDS = 3
#: Thirds in a whole deal: the 40 cards plus the last.
TOTAL_THIRDS = 35
#: Thirds the soloist needs to make the contract (6 points).
MAKE_THIRDS = 18

NUM_CARDS = 40
FULL_DECK: Mask = (1 << NUM_CARDS) - 1
SUIT_MASKS: tuple[Mask, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))


def suit_of(card: Card) -> int:
    """The suit index 0..3 of ``card``.

    >>> suit_of(parse_card("AC"))
    2
    """
    return card // 10


def rank_of(card: Card) -> int:
    """The rank index 0 (the 4) .. 9 (the 3) of ``card``.

    >>> rank_of(parse_card("3S")), rank_of(parse_card("4S"))
    (9, 0)
    """
    return card % 10


def make_card(suit: int, rank: int) -> Card:
    """The card of suit index ``suit`` and rank index ``rank``.

    >>> card_name(make_card(3, 7))
    'AD'
    """
    return suit * 10 + rank


def card_thirds(card: Card) -> int:
    """The card's value in thirds of a point.

    >>> [card_thirds(parse_card(t)) for t in ("AB", "3B", "FB", "7B")]
    [3, 1, 1, 0]
    """
    return RANK_THIRDS[card % 10]


def bit(card: Card) -> Mask:
    """The one-card mask of ``card``."""
    return 1 << card


def popcount(mask: Mask) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards of ``mask`` in increasing id order (suit B first, low rank first).

    >>> [card_name(c) for c in cards_of(parse_hand("3.-.-.A4"))]
    ['3B', '4D', 'AD']
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding ``cards``.

    >>> hand_name(mask_of([parse_card("3B"), parse_card("AD")]))
    '3.-.-.A'
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_thirds(mask: Mask) -> int:
    """Total thirds of the cards in ``mask``.

    >>> mask_thirds(FULL_DECK) + LAST_TRICK_THIRDS
    35
    """
    return (_SUIT_THIRDS[mask & 1023] + _SUIT_THIRDS[mask >> 10 & 1023] + _SUIT_THIRDS[mask >> 20 & 1023]
            + _SUIT_THIRDS[mask >> 30 & 1023])


#: The thirds of each set of one suit's ranks (a suit's 10 bits): the searches' players ask millions of times.
_SUIT_THIRDS = tuple(sum(RANK_THIRDS[r] for r in range(10) if ranks >> r & 1) for ranks in range(1024))


def last_trick_bonus(monte: Mask) -> int:
    """The thirds that go with the last trick: its own :data:`LAST_TRICK_THIRDS` and the cards of ``monte``.

    >>> last_trick_bonus(0), last_trick_bonus(parse_hand("A.-.-.3"))
    (3, 7)
    """
    return LAST_TRICK_THIRDS + mask_thirds(monte)


def display_order(mask: Mask) -> list[Card]:
    """The cards of ``mask`` in reading order: suits B, S, C, D, ranks highest first.

    >>> [card_name(c) for c in display_order(parse_hand("4A.-.-.3"))]
    ['AB', '4B', '3D']
    """
    return sorted(cards_of(mask), key=lambda c: (c // 10, -(c % 10)))


def _normalise_suit(ch: str, where: str) -> int:
    if ch in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(ch)
    up = ch.upper()
    if len(up) == 1 and up in SUITS:
        return SUITS.index(up)
    raise CardError(f"{where}: unknown suit {ch!r} (use B S C D or ♣ ♠ ♥ ♦)")


def _normalise_rank(ch: str, where: str) -> int:
    up = _RANK_SYNONYMS.get(ch.upper(), ch.upper())
    if len(up) == 1 and up in RANKS:
        return RANKS.index(up)
    raise CardError(f"{where}: unknown rank {ch!r} (use 3 2 A R C F 7 6 5 4, or K Q J)")


def _text(value: object, what: str) -> str:
    """``value`` if it is a str: what the parsers take (anything else is a :class:`CardError`)."""
    if not isinstance(value, str):
        raise CardError(f"{what} {value_text(value)}: must be a str, not {type(value).__name__}")
    return value


def _card_id(card: object) -> int:
    """``card`` as a card id 0..39 (a :class:`CardError` for anything else)."""
    import operator

    try:
        number = operator.index(card)  # type: ignore[arg-type]
    except TypeError:
        number = -1
    if isinstance(card, bool) or not 0 <= number < NUM_CARDS:
        raise CardError(f"card id {value_text(card)} is not in 0..39")
    return number


def _mask(mask: object) -> int:
    """``mask`` as a set of cards (an int of 40 bits; a :class:`CardError` for anything else)."""
    import operator

    try:
        number = operator.index(mask)  # type: ignore[arg-type]
    except TypeError:
        number = -1
    if isinstance(mask, bool) or not 0 <= number < 1 << NUM_CARDS:
        raise CardError(f"card mask {value_text(mask)} is not a set of cards 0..39")
    return number


def parse_card(token: str) -> Card:
    """Parse a card token: rank then suit, case-insensitive, ``K Q J`` and ``♣♠♥♦`` accepted.

    >>> parse_card("3B"), parse_card("4b"), parse_card("A♦"), parse_card("QC") == parse_card("CC")
    (9, 0, 37, True)
    >>> parse_card("1B")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.CardError: card '1B': unknown rank '1' (use 3 2 A R C F 7 6 5 4, or K Q J)
    """
    text = _text(token, "card").strip()
    where = f"card {token!r}"
    if len(text) != 2:
        raise CardError(f"{where}: a card is a rank and a suit, like 3B or AC")
    return make_card(_normalise_suit(text[1], where), _normalise_rank(text[0], where))


def card_name(card: Card) -> str:
    """The canonical token of ``card``.

    >>> card_name(0), card_name(39)
    ('4B', '3D')
    """
    card = _card_id(card)
    return RANKS[card % 10] + SUITS[card // 10]


def card_symbol(card: Card) -> str:
    """The card with its suit symbol, for display.

    >>> card_symbol(parse_card("AC"))
    'A♥'
    """
    return RANKS[card % 10] + SUIT_SYMBOLS[card // 10]


def parse_hand(text: str) -> Mask:
    """Parse hand notation: four dot-separated groups B.S.C.D of ranks; ``-`` or nothing for a void.

    >>> hand_name(parse_hand("kqj..-.3"))
    'RCF.-.-.3'
    >>> parse_hand("32.A")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.CardError: hand '32.A': needs four suit groups separated by dots, found 2
    """
    where = f"hand {_text(text, 'hand')!r}"
    groups = text.strip().split(".")
    if len(groups) != 4:
        raise CardError(f"{where}: needs four suit groups separated by dots, found {len(groups)}")
    mask = 0
    for suit, group in enumerate(groups):
        if group == "-":
            continue
        for ch in group:
            card = make_card(suit, _normalise_rank(ch, where))
            if mask >> card & 1:
                raise CardError(f"{where}: {card_name(card)} appears twice")
            mask |= 1 << card
    return mask


def hand_name(mask: Mask) -> str:
    """Canonical hand notation, ranks highest first, ``-`` for a void.

    >>> hand_name(0)
    '-.-.-.-'
    """
    mask = _mask(mask)
    groups = []
    for suit in range(4):
        ranks = "".join(RANKS[r] for r in range(9, -1, -1) if mask >> (suit * 10 + r) & 1)
        groups.append(ranks or "-")
    return ".".join(groups)


def parse_cards(text: str) -> list[Card]:
    """Parse whitespace- or comma-separated card tokens, keeping their order.

    >>> [card_name(c) for c in parse_cards("3B, kd 4c")]
    ['3B', 'RD', '4C']
    """
    return [parse_card(tok) for tok in _text(text, "cards").replace(",", " ").split()]


def cards_name(cards: Iterable[Card]) -> str:
    """Card tokens separated by spaces.

    >>> cards_name([9, 39])
    '3B 3D'
    """
    return " ".join(card_name(c) for c in cards)


def parse_cards_or_hand(text: str) -> Mask:
    """A set of cards in hand notation (has dots) or as card tokens.

    >>> parse_cards_or_hand("3B AD") == parse_cards_or_hand("3.-.-.A")
    True
    """
    if "." in _text(text, "cards"):
        return parse_hand(text)
    cards = parse_cards(text)
    mask = mask_of(cards)
    if popcount(mask) != len(cards):
        raise CardError(f"cards {text!r}: a card appears twice")
    return mask


def strength(mask: Mask) -> int:
    """Hand strength used to pick the soloist in the benchmark suites:
    3s and 2s count 2, Aces 3, other honours (R C F) 1.

    >>> strength(parse_hand("32A.-.-.RCF7"))
    10
    """
    weights = (0, 0, 0, 0, 1, 1, 1, 3, 2, 2)
    return sum(weights[c % 10] for c in cards_of(mask))
