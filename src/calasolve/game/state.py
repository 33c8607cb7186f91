"""The play of a deal and its scoring (docs/rules.md §5-§8).

Contracts, who leads, legal cards, trick winners, a :class:`PlayState` that
plays a deal card by card, and :func:`score` that turns the final thirds
into points, make/fail, the multiplier and the payment.

>>> from calasolve.game.cards import parse_cards
>>> trick_thirds(parse_cards("RB AB 2B"))        # docs/rules.md §7 worked example
5
>>> trick_winner(parse_cards("RB AB 2B"), leader=0)
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence, get_args

from .cards import (
    last_trick_bonus,
    MAKE_THIRDS,
    RANK_THIRDS,
    SUIT_MASKS,
    Card,
    Mask,
    card_name,
    hand_name,
    mask_thirds,
    popcount,
)
from .errors import CalasolveError, IllegalPlayError, ParameterError
from .limits import check_int, check_mask, check_optional_int
from .rules import STANDARD, Rules

#: A contract's name.
Contract = Literal["chiamo", "solo", "solissimo", "dividete", "scegliete"]
#: The contracts, lowest first.
CONTRACTS: tuple[Contract, ...] = get_args(Contract)
#: Value per defender ``v`` of each contract (docs/rules.md §5).
CONTRACT_VALUE: dict[str, int] = {"chiamo": 1, "solo": 2, "solissimo": 4, "dividete": 8, "scegliete": 16}
#: Contracts in which the soloist takes the monte.
SOLOIST_EXCHANGE: tuple[Contract, ...] = ("chiamo", "solo")
#: Contracts in which the defenders take the monte.
DEFENDER_EXCHANGE: tuple[Contract, ...] = ("dividete", "scegliete")
TRICKS = 12


def parse_contract(text: str) -> Contract:
    """A contract name, case-insensitive.

    >>> parse_contract(" Solo ")
    'solo'
    >>> parse_contract("grand")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.CalasolveError: unknown contract 'grand' (use chiamo, solo, solissimo, dividete or scegliete)
    """
    name = text.strip().lower()
    for contract in CONTRACTS:
        if name == contract:
            return contract
    raise CalasolveError(f"unknown contract {text.strip()!r} (use chiamo, solo, solissimo, dividete or scegliete)")


def first_leader(contract: Contract, soloist: int, rules: Rules = STANDARD) -> int:
    """Who leads the first trick (docs/rules.md §6).

    >>> first_leader("solo", 2), first_leader("solissimo", 2), first_leader("solissimo", 2, Rules(first_lead="eldest"))
    (0, 2, 0)
    """
    if rules.first_lead == "eldest" or contract in SOLOIST_EXCHANGE:
        return 0
    return soloist


def legal_cards(hand: Mask, trick: Sequence[Card]) -> Mask:
    """The cards of ``hand`` that may be played to ``trick``: follow suit if able.

    >>> from calasolve.game.cards import parse_hand, parse_cards
    >>> hand_name(legal_cards(parse_hand("3.4.-.A"), parse_cards("5S")))
    '-.4.-.-'
    >>> hand_name(legal_cards(parse_hand("3.-.-.A"), parse_cards("5S")))
    '3.-.-.A'
    """
    if not trick:
        return hand
    follow = hand & SUIT_MASKS[trick[0] // 10]
    return follow or hand


def trick_winner(trick: Sequence[Card], leader: int) -> int:
    """The seat that wins a complete ``trick`` led by ``leader``."""
    led = trick[0] // 10
    best = 0
    for i, card in enumerate(trick):
        if card // 10 == led and card > trick[best]:
            best = i
    return (leader + best) % 3


def trick_thirds(trick: Sequence[Card]) -> int:
    """Thirds held by the cards of ``trick``."""
    return sum(RANK_THIRDS[c % 10] for c in trick)


def defender_seats(soloist: int) -> tuple[int, int]:
    """The two defenders' seats, in play order after the soloist.

    >>> defender_seats(1)
    (2, 0)
    """
    return ((soloist + 1) % 3, (soloist + 2) % 3)


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led it, its three cards in play order, who won it."""

    leader: int
    cards: tuple[Card, Card, Card]
    winner: int

    @property
    def thirds(self) -> int:
        return trick_thirds(self.cards)

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % 3


def check_deal(hands: object, monte: object, soloist: object, leader: object, tricks_left: object = None) -> None:
    """The arguments of :class:`PlayState` (a ``ParameterError`` naming the bad one):
    three disjoint hands, a monte apart from them worth at most 12 thirds, seats
    0..2, 0..12 tricks left.  Whether the hands fit the trick in play is checked
    when the position is solved (:meth:`PlayState.check`)."""
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 3:
        raise ParameterError("hands", hands, "must be 3 masks of cards, one per seat")
    masks = [check_mask("hands", h) for h in hands]  # type: ignore[attr-defined]
    if masks[0] & masks[1] or masks[0] & masks[2] or masks[1] & masks[2]:
        raise ParameterError("hands", hands, "two hands share a card")
    m = check_mask("monte", monte)
    if m & (masks[0] | masks[1] | masks[2]):
        raise ParameterError("monte", monte, "shares a card with a hand")
    if mask_thirds(m) > 12:
        raise ParameterError("monte", monte, "is worth more than 12 thirds (4 cards at most)")
    check_int("soloist", soloist, 0, 2)
    check_int("leader", leader, 0, 2)
    check_optional_int("tricks_left", tricks_left, 0, 12)


def check_position(
    hands: Sequence[object], trick: Sequence[object], leader: object, soloist: object, monte: object,
    parameter: str = "position",
) -> None:
    """A position in play, as the C core checks it (see :meth:`PlayState.check`)."""
    def bad(problem: str) -> ParameterError:
        return ParameterError(parameter, None, problem, show_value=False)

    try:
        masks = [check_mask("hand", h) for h in hands]
        cards = [check_int("trick card", c, 0, 39) for c in trick]
        lead = check_int("leader", leader, 0, 2)
        check_int("soloist", soloist, 0, 2)
        m = check_mask("monte", monte)
    except (ParameterError, TypeError) as err:
        raise bad(str(err)) from None
    if len(masks) != 3:
        raise bad("must have 3 hands")
    seen = 0
    for mask in masks:
        if mask & seen:
            raise bad("two hands share a card")
        seen |= mask
    if len(cards) > 2:
        raise bad("the current trick holds more than 2 cards")
    for c in cards:
        if seen >> c & 1:
            raise bad(f"trick card {card_name(c)} is also in a hand or played twice")
        seen |= 1 << c
    if m & seen or mask_thirds(m) > 12:
        raise bad("the monte shares a card with the play or is worth more than 12 thirds")
    n = popcount(masks[(lead + len(cards)) % 3])
    for i in range(3):
        if popcount(masks[(lead + i) % 3]) != (n - 1 if i < len(cards) else n):
            raise bad("inconsistent hand sizes for the current trick")
    if cards and n == 0:
        raise bad("the player to move holds no card")
    if len(cards) == 2 and cards[1] // 10 != cards[0] // 10 and masks[(lead + 1) % 3] & SUIT_MASKS[cards[0] // 10]:
        raise bad("the second card of the trick did not follow suit")


class PlayState:
    """A deal in play: the hands after the exchange, the monte, the tricks so far.

    ``hands`` are the cards still held; ``trick`` is the current trick's cards,
    led by ``leader``.  The monte goes to whoever wins the last trick.

    >>> from calasolve.game.cards import parse_hand, parse_card
    >>> st = PlayState([parse_hand("3.-.-.-"), parse_hand("A.-.-.-"), parse_hand("-.4.-.-")],
    ...                parse_hand("-.-.-.-"), soloist=0, leader=0, tricks_left=1)
    >>> st.play(parse_card("3B")); st.play(parse_card("AB")); st.play(parse_card("4S"))
    >>> st.is_over, st.captured[0]
    (True, 7)
    """

    def __init__(
        self,
        hands: Sequence[Mask],
        monte: Mask,
        soloist: int,
        leader: int,
        *,
        tricks_left: int | None = None,
    ) -> None:
        check_deal(hands, monte, soloist, leader, tricks_left)
        self.hands: list[Mask] = list(hands)
        self.monte = monte
        self.soloist = soloist
        self.leader = leader
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.history: list[Card] = []
        #: thirds captured by each seat (cards, then the monte and the last at the end)
        self.captured = [0, 0, 0]
        #: thirds captured in cards only (no monte, no last): the stramazzo count
        self.card_thirds = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.last_winner: int | None = None
        self.total_tricks = tricks_left if tricks_left is not None else popcount(self.hands[leader])

    def check(self, parameter: str = "position") -> None:
        """Raise :class:`~calasolve.game.errors.ParameterError` unless this is a position
        the solver can take: the same checks as the C core's, made first in Python
        so that a state changed by hand fails with the project's error."""
        check_position(self.hands, self.trick, self.leader, self.soloist, self.monte, parameter)

    # -- state ---------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == self.total_tricks

    def legal(self) -> Mask:
        """Mask of the cards the player to move may play."""
        if self.is_over:
            return 0
        return legal_cards(self.hands[self.to_move], self.trick)

    def side_thirds(self) -> tuple[int, int]:
        """(soloist, defenders) thirds captured so far."""
        s = self.captured[self.soloist]
        return s, sum(self.captured) - s

    @property
    def last_bonus(self) -> int:
        """What the winner of the last trick adds: the monte's thirds and the last."""
        return last_trick_bonus(self.monte)

    # -- moves ---------------------------------------------------------------
    def play(self, card: Card) -> None:
        """Play ``card`` for the player to move; raises :class:`IllegalPlayError`."""
        if self.is_over:
            raise IllegalPlayError(f"{card_name(card)}: the deal is over, all {self.total_tricks} tricks are played")
        seat = self.to_move
        if not isinstance(card, int) or not 0 <= card < 40:
            raise IllegalPlayError(f"{card!r}: not a card id (0..39)")
        if not self.hands[seat] >> card & 1:
            raise IllegalPlayError(f"{card_name(card)}: seat {seat} does not hold it (holds {hand_name(self.hands[seat])})")
        if not self.legal() >> card & 1:
            led = card_name(self.trick[0])
            raise IllegalPlayError(f"{card_name(card)}: seat {seat} must follow the suit of {led}")
        self.play_legal(card)

    def play_legal(self, card: Card) -> None:
        """:meth:`play` a card taken from :meth:`legal`, unchecked: the searches in Python play millions."""
        seat = (self.leader + len(self.trick)) % 3
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        self.history.append(card)
        if len(self.trick) == 3:
            winner = trick_winner(self.trick, self.leader)
            done = Trick(self.leader, (self.trick[0], self.trick[1], self.trick[2]), winner)
            self.tricks.append(done)
            self.tricks_won[winner] += 1
            self.captured[winner] += done.thirds
            self.card_thirds[winner] += done.thirds
            self.trick = []
            self.leader = winner
            if self.is_over:
                self.last_winner = winner
                self.captured[winner] += self.last_bonus
                self.card_thirds[winner] += mask_thirds(self.monte)

    def undo(self) -> Card:
        """Take back the last card played and return it."""
        if not self.history:
            raise IllegalPlayError("nothing to undo: no card has been played")
        card = self.history.pop()
        if not self.trick:
            done = self.tricks.pop()
            if self.last_winner is not None:
                self.captured[done.winner] -= self.last_bonus
                self.card_thirds[done.winner] -= mask_thirds(self.monte)
                self.last_winner = None
            self.tricks_won[done.winner] -= 1
            self.captured[done.winner] -= done.thirds
            self.card_thirds[done.winner] -= done.thirds
            self.leader = done.leader
            self.trick = list(done.cards)
        self.trick.pop()
        self.hands[(self.leader + len(self.trick)) % 3] |= 1 << card
        return card

    def copy(self) -> "PlayState":
        other = PlayState.__new__(PlayState)
        d = other.__dict__
        d.update(self.__dict__)
        d["hands"], d["trick"], d["tricks"], d["history"] = self.hands[:], self.trick[:], self.tricks[:], self.history[:]
        d["captured"], d["card_thirds"], d["tricks_won"] = self.captured[:], self.card_thirds[:], self.tricks_won[:]
        return other

    def result(self, contract: Contract, rules: Rules = STANDARD) -> "DealResult":
        """The score of the finished deal."""
        if not self.is_over:
            raise CalasolveError(f"the deal is not over: {len(self.tricks)} of {self.total_tricks} tricks played")
        if self.total_tricks != TRICKS:
            # cappotto and the 35-thirds total only make sense for a whole deal
            raise CalasolveError(f"only a whole 12-trick deal can be scored (this one had {self.total_tricks})")
        defenders = defender_seats(self.soloist)
        return score(
            contract,
            soloist_thirds=self.captured[self.soloist],
            soloist_tricks=self.tricks_won[self.soloist],
            soloist_card_thirds=self.card_thirds[self.soloist],
            defender_card_thirds=sum(self.card_thirds[d] for d in defenders),
            soloist=self.soloist,
            rules=rules,
        )


#: The arguments the solver methods take for a position: hands, trick, leader, soloist, last bonus.
CorePosition = tuple[tuple[Mask, Mask, Mask], tuple[Card, ...], int, int, int]


def core_position(state: PlayState) -> CorePosition:
    """The arguments the core takes for ``state`` (the one place they are built)."""
    h = state.hands
    return (h[0], h[1], h[2]), tuple(state.trick), state.leader, state.soloist, state.last_bonus


@dataclass(frozen=True)
class DealResult:
    """The score of one deal (docs/rules.md §7, §8)."""

    contract: Contract
    soloist: int
    soloist_thirds: int
    defender_thirds: int
    soloist_points: int
    defender_points: int
    makes: bool
    soloist_tricks: int
    #: 'cappotto', 'stramazzo' or None
    bonus: str | None
    multiplier: int
    #: game points won by seats 0, 1, 2 (negative = paid)
    payments: tuple[int, int, int] = field(default=(0, 0, 0))

    @property
    def soloist_payoff(self) -> int:
        return self.payments[self.soloist]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DealResult":
        """The result of :meth:`to_dict`'s form: ``DealResult.from_dict(r.to_dict()) == r``."""
        a, b, c = d["payments"]
        return cls(d["contract"], d["soloist"], d["soloist_thirds"], d["defender_thirds"], d["soloist_points"],
                   d["defender_points"], d["makes"], d["soloist_tricks"], d["bonus"], d["multiplier"], (a, b, c))

    def to_dict(self) -> dict[str, object]:
        return {
            "contract": self.contract,
            "soloist": self.soloist,
            "soloist_thirds": self.soloist_thirds,
            "defender_thirds": self.defender_thirds,
            "soloist_points": self.soloist_points,
            "defender_points": self.defender_points,
            "makes": self.makes,
            "soloist_tricks": self.soloist_tricks,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
            "payments": list(self.payments),
        }


def multiplier(
    *,
    makes: bool,
    soloist_tricks: int,
    soloist_card_thirds: int,
    defender_card_thirds: int,
    rules: Rules = STANDARD,
) -> tuple[int, str | None]:
    """The multiplier ``m`` and its name (docs/rules.md §8).

    Cappotto (all or no tricks to the soloist) x2 comes first; otherwise
    stramazzo x3 when the side that lost holds fewer than 3 thirds in
    captured cards (the monte counts if it took it, the last does not).

    >>> multiplier(makes=True, soloist_tricks=12, soloist_card_thirds=32, defender_card_thirds=0)
    (2, 'cappotto')
    >>> multiplier(makes=True, soloist_tricks=11, soloist_card_thirds=30, defender_card_thirds=2)
    (3, 'stramazzo')
    >>> multiplier(makes=True, soloist_tricks=11, soloist_card_thirds=30, defender_card_thirds=2, rules=Rules(stramazzo="off"))
    (1, None)
    """
    if soloist_tricks in (0, TRICKS):
        return 2, "cappotto"
    losers = defender_card_thirds if makes else soloist_card_thirds
    if rules.stramazzo == "on" and losers < 3:
        return 3, "stramazzo"
    return 1, None


def payments(contract: Contract, soloist: int, makes: bool, m: int, rules: Rules = STANDARD) -> tuple[int, int, int]:
    """Game points moved for seats 0, 1, 2 (docs/rules.md §8).

    >>> payments("solo", 0, True, 1)        # the worked example: +4, -2, -2
    (4, -2, -2)
    >>> payments("solo", 0, False, 1, Rules(payment="plus"))
    (0, 2, 2)
    """
    v = CONTRACT_VALUE[contract] * m
    out = [0, 0, 0]
    if rules.payment == "zerosum":
        sign = 1 if makes else -1
        for seat in range(3):
            out[seat] = 2 * v * sign if seat == soloist else -v * sign
    else:
        for seat in range(3):
            if makes and seat == soloist:
                out[seat] = v
            elif not makes and seat != soloist:
                out[seat] = v
    return out[0], out[1], out[2]


def score(
    contract: Contract,
    *,
    soloist_thirds: int,
    soloist_tricks: int,
    soloist_card_thirds: int,
    defender_card_thirds: int,
    soloist: int = 0,
    rules: Rules = STANDARD,
) -> DealResult:
    """Score a deal from the soloist's final thirds and tricks.

    ``soloist_thirds`` includes the monte and the last if the soloist won the
    last trick; the ``*_card_thirds`` counts include the monte when that side
    took it but never the last (they decide stramazzo).

    >>> r = score("solo", soloist_thirds=18, soloist_tricks=7, soloist_card_thirds=15, defender_card_thirds=17)
    >>> (r.soloist_points, r.defender_points, r.makes, r.payments)
    (6, 5, True, (4, -2, -2))
    >>> score("solo", soloist_thirds=17, soloist_tricks=7, soloist_card_thirds=17, defender_card_thirds=15).makes
    False
    """
    defender_thirds = 35 - soloist_thirds
    makes = soloist_thirds >= MAKE_THIRDS
    m, bonus = multiplier(
        makes=makes,
        soloist_tricks=soloist_tricks,
        soloist_card_thirds=soloist_card_thirds,
        defender_card_thirds=defender_card_thirds,
        rules=rules,
    )
    return DealResult(
        contract=contract,
        soloist=soloist,
        soloist_thirds=soloist_thirds,
        defender_thirds=defender_thirds,
        soloist_points=soloist_thirds // 3,
        defender_points=defender_thirds // 3,
        makes=makes,
        soloist_tricks=soloist_tricks,
        bonus=bonus,
        multiplier=m,
        payments=payments(contract, soloist, makes, m, rules),
    )
