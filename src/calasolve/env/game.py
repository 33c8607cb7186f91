"""The whole deal as a state machine: deal -> auction -> exchange decisions -> 12 tricks -> game points.

:class:`GameState` is pure Python on top of :mod:`calasolve.game` (the auction of
:class:`~calasolve.game.auction.Auction`, the exchange's rules of :mod:`calasolve.game.exchange`,
the play and the scoring of :class:`~calasolve.game.state.PlayState`): every decision's legal
actions in the space of :mod:`calasolve.env.actions`, the chance outcomes with their
probabilities, and the returns.  The phases (docs/env.md#phases):

- ``deal`` (chance): 36 cards one at a time, the first 12 to seat 0, then seat 1, then seat 2;
  the 4 left are the monte.
- ``auction``: the calls of docs/rules.md §4 in the rules' ``auction`` and ``aggravations``;
  all passing ends a void deal (returns 0).
- ``declare``: under ``aggravations=declared`` the winner of a solissimo plays it, or
  aggravates it to dividete or scegliete.
- chiamo: ``call`` (a card the soloist does not hold), then ``return`` when a defender handed it
  over, then ``discard``; solo: ``discard``; solissimo: none.
- dividete: ``draw`` (chance: the 2 monte cards of the first defender, lowest first; the other
  defender takes the other 2), then each defender's ``discard``.
- scegliete: ``split`` (the first defender shares the face-up monte out), then each
  defender's ``discard``.
- ``discard``: one card at a time, each higher than the seat's previous discard, so that a set
  of discards is one sequence of actions (no transpositions).
- ``play``: 36 cards; then ``over``.

>>> from calasolve.game.sampling import rng_for
>>> state = GameState()
>>> state.sample_chance(rng_for(1, 0)); state.phase, state.current_player
('auction', 0)
>>> for call in ("pass", "solo", "pass"):
...     state.apply(PASS if call == "pass" else bid_action(call))
>>> state.phase, state.soloist, state.contract, state.current_player
('discard', 1, 'solo', 1)
>>> state.apply(60)
Traceback (most recent call last):
...
calasolve.game.errors.IllegalActionError: action 60 (split 2111): not legal in the discard phase (seat 1 discards one of its cards)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from math import comb
from typing import Sequence

import numpy as np

from ..game.auction import PASS as PASS_CALL
from ..game.auction import AGGRAVATIONS, Auction
from ..game.cards import FULL_DECK, Card, Mask, card_name, cards_of, hand_name, popcount
from ..game.errors import AuctionError, CalasolveError, IllegalActionError, InternalError
from ..game.exchange import Exchange, apply_exchange, called_from
from ..game.rules import STANDARD, Rules
from ..game.state import Contract, DealResult, PlayState, defender_seats, first_leader
from ..types.record import Record
from ..types.view import record_auction
from .actions import NUM_ACTIONS, PASS, SPLIT_BASE, SPLITS, action_contract, action_name, bid_action, split_action

__all__ = [
    "CHANCE_PLAYER", "DEAL_STEPS", "Event", "GameState", "MONTE", "PHASES", "TERMINAL_PLAYER", "Phase",
]

#: The current player of a chance node and of the end, as pyspiel numbers them.
CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
#: The cards chance deals one by one (the monte is the 4 left).
DEAL_STEPS = 36
#: ``call_from`` when chiamo's called card was in the monte.
MONTE = 3

Phase = str
PHASES: tuple[Phase, ...] = ("deal", "auction", "declare", "call", "return", "discard", "draw", "split", "play", "over")
_EVERYONE = 0b111


@dataclass(frozen=True)
class Event:
    """Something that happened, as the seats saw it: ``seen_by`` (a bit per seat) see ``text``;
    the others see ``blind`` (empty: they see nothing).  The information-state strings are these."""

    text: str
    seen_by: int = _EVERYONE
    blind: str = ""

    def as_seen_by(self, seat: int) -> str:
        return self.text if self.seen_by >> seat & 1 else self.blind


def _bit(card: Card) -> Mask:
    return 1 << card


def _cards(mask: Mask) -> str:
    return " ".join(card_name(c) for c in cards_of(mask)) or "-"


class GameState:
    """One deal from the first card dealt to the game points (see the module doc).

    Everything is public to the code: what each seat may see is :mod:`calasolve.env.observe`'s
    business.  :meth:`apply` takes an action of the player to move (or a chance outcome) and
    raises :class:`~calasolve.game.errors.IllegalActionError`, leaving the state as it was, for
    any other.
    """

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.rules = rules
        self.phase: Phase = "deal"
        #: every action applied, chance outcomes included
        self.history: list[int] = []
        #: what happened, as each seat saw it
        self.events: list[Event] = []
        #: the hands as dealt (during the deal: so far) and the monte as dealt
        self.dealt: list[Mask] = [0, 0, 0]
        self.monte: Mask = 0
        #: the cards each seat holds until the play (in the exchange: with what it took); then :meth:`held`
        self.hands: list[Mask] = [0, 0, 0]
        self.auction = Auction(rules)
        self.bid: Contract | None = None
        self.contract: Contract | None = None
        self.soloist: int | None = None
        #: chiamo: the card called and where it was (a seat, or :data:`MONTE`); the card returned
        self.call: Card | None = None
        self.call_from: int | None = None
        self.returned: Card | None = None
        #: per seat: the monte cards taken (dividete, scegliete) and the cards discarded
        self.takes: list[Mask] = [0, 0, 0]
        self.discards: list[Mask] = [0, 0, 0]
        #: the seats still to discard, in order, and how many each still discards
        self.discarders: list[int] = []
        self.to_discard: list[int] = [0, 0, 0]
        self.play: PlayState | None = None
        self.result: DealResult | None = None

    # -- the state ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE_PLAYER` at a chance node, :data:`TERMINAL_PLAYER` at the end."""
        phase = self.phase
        if phase in ("deal", "draw"):
            return CHANCE_PLAYER
        if phase == "over":
            return TERMINAL_PLAYER
        if phase == "auction":
            assert self.auction.to_speak is not None
            return self.auction.to_speak
        if phase == "discard":
            return self.discarders[0]
        if phase == "play":
            assert self.play is not None
            return self.play.to_move
        assert self.soloist is not None
        return defender_seats(self.soloist)[0] if phase == "split" else self.soloist

    @property
    def is_chance(self) -> bool:
        return self.phase in ("deal", "draw")

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    @property
    def void(self) -> bool:
        """All three passed: the deal ended without play."""
        return self.is_terminal and self.contract is None

    def held(self, seat: int) -> Mask:
        """The cards ``seat`` holds now (in the play: not yet played)."""
        return self.play.hands[seat] if self.play is not None else self.hands[seat]

    def returns(self) -> tuple[float, float, float]:
        """The game points of each seat (docs/rules.md §8): the payments once the deal is over, else 0."""
        if self.result is None:
            return 0.0, 0.0, 0.0
        a, b, c = self.result.payments
        return float(a), float(b), float(c)

    def legal_actions(self) -> list[int]:
        """The actions the player to move may take (the chance outcomes at a chance node), ascending."""
        return list(cards_of(self.legal_bits()))

    def legal_bits(self) -> int:
        """:meth:`legal_actions` as a bit set (bit ``a`` for action ``a``): cards are already masks."""
        phase = self.phase
        if phase == "deal":
            return FULL_DECK & ~(self.dealt[0] | self.dealt[1] | self.dealt[2])
        if phase == "draw":
            return sum(1 << a for a, _ in self.chance_outcomes())
        if phase == "auction":
            calls = self.auction.legal_calls()
            return sum(1 << (PASS if c == PASS_CALL else bid_action(c)) for c in calls)
        if phase == "declare":
            return sum(1 << bid_action(c) for c in ("solissimo", *AGGRAVATIONS))
        if phase == "call":
            assert self.soloist is not None
            return FULL_DECK & ~self.hands[self.soloist]
        if phase == "return":
            assert self.soloist is not None and self.call is not None
            return self.hands[self.soloist] & ~_bit(self.call)
        if phase == "discard":
            return self._discardable()
        if phase == "split":
            return ((1 << SPLITS) - 1) << SPLIT_BASE
        if phase == "play":
            assert self.play is not None
            return self.play.legal()
        return 0

    def legal_mask(self) -> np.ndarray:
        """:meth:`legal_actions` as a 0/1 vector of :data:`~calasolve.env.actions.NUM_ACTIONS` int8."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.is_chance:
            mask[self.legal_actions()] = 1
        return mask

    def _discardable(self) -> Mask:
        # each discard is higher than the seat's previous one and leaves enough cards above it for the rest
        seat = self.discarders[0]
        need = self.to_discard[seat]
        floor = self.discards[seat].bit_length()  # the lowest card id still allowed
        pool = [c for c in cards_of(self.hands[seat]) if c >= floor]
        return sum(_bit(c) for c in pool[: len(pool) - need + 1]) if len(pool) >= need else 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of a chance node with their probabilities (empty elsewhere).

        The deal: each card not dealt yet, uniformly.  Dividete's draw: the first defender's
        next monte card, lowest first, with the probability that makes each pair 1/6."""
        if self.phase == "deal":
            left = FULL_DECK & ~(self.dealt[0] | self.dealt[1] | self.dealt[2])
            n = popcount(left)
            return [(c, 1.0 / n) for c in cards_of(left)]
        if self.phase == "draw":
            first = self._first_defender()
            need = 2 - popcount(self.takes[first])
            floor = self.takes[first].bit_length()
            avail = [c for c in cards_of(self.monte) if c >= floor]
            total = comb(len(avail), need)
            # the i-th available card is the lowest of the rest of the pair in comb(n - i - 1, need - 1) pairs
            return [(c, comb(len(avail) - i - 1, need - 1) / total) for i, c in enumerate(avail)
                    if len(avail) - i - 1 >= need - 1]
        return []

    def sample_chance(self, rng: np.random.Generator) -> None:
        """Resolve every chance node from here on (the deal, dividete's draw) with ``rng``."""
        while self.is_chance:
            if self.phase == "deal":  # uniform: a card not dealt yet
                left = list(cards_of(FULL_DECK & ~(self.dealt[0] | self.dealt[1] | self.dealt[2])))
                self.apply(left[int(rng.integers(len(left)))])
                continue
            outcomes = self.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            self.apply(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])

    def clone(self) -> "GameState":
        return copy.deepcopy(self)

    # -- moves -------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply the player to move's ``action`` (a chance outcome at a chance node)."""
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action!r}: not an action id (0..{NUM_ACTIONS - 1})")
        if self.phase == "over":
            raise IllegalActionError(f"action {action} ({action_name(action)}): the deal is over")
        if not self.legal_bits() >> action & 1:
            raise IllegalActionError(f"action {action} ({action_name(action)}): not legal in the {self.phase} phase "
                                     f"({self._expected()})")
        getattr(self, "_on_" + self.phase)(action)
        self.history.append(action)

    def _expected(self) -> str:
        who = self.current_player
        return {
            "deal": "chance deals a card not dealt yet",
            "auction": f"seat {who} passes or bids: {', '.join(self.auction.legal_calls())}",
            "declare": f"seat {who} declares solissimo, dividete or scegliete",
            "call": f"seat {who} calls a card it does not hold",
            "return": f"seat {who} returns one of its cards but the called one",
            "discard": f"seat {who} discards one of its cards",
            "draw": "chance draws a monte card",
            "split": f"seat {who} shares the monte out: a split action",
            "play": f"seat {who} plays a legal card",
        }[self.phase]

    def _on_deal(self, card: Card) -> None:
        seat = len(self.history) // 12
        self.dealt[seat] |= _bit(card)
        self.hands[seat] |= _bit(card)
        self.events.append(Event(f"dealt {card_name(card)}", 1 << seat))
        if len(self.history) + 1 == DEAL_STEPS:
            self.monte = FULL_DECK & ~(self.dealt[0] | self.dealt[1] | self.dealt[2])
            self.phase = "auction"

    def _on_auction(self, action: int) -> None:
        seat = self.current_player
        call = action_contract(action) or PASS_CALL
        self.auction.call(call)
        self.events.append(Event(f"seat {seat} {call}"))
        if not self.auction.is_over:
            return
        result = self.auction.result()
        if result.void:
            self.phase = "over"
            return
        self.soloist, self.bid = result.soloist, result.bid  # type: ignore[assignment]
        if self.rules.aggravations == "declared" and result.bid == "solissimo":
            self.phase = "declare"
        else:
            self._start(result.bid)  # type: ignore[arg-type]

    def _on_declare(self, action: int) -> None:
        contract = action_contract(action)
        assert contract is not None
        try:
            self.auction.result(contract if contract != "solissimo" else None)
        except AuctionError as err:  # the legal actions are the auction's: a refusal here is a bug
            raise InternalError(f"declaring {contract}: {err}") from None
        self.events.append(Event(f"seat {self.soloist} plays {contract}"))
        self._start(contract)

    def _start(self, contract: Contract) -> None:
        """The contract is known: on to its exchange."""
        soloist = self.soloist
        assert soloist is not None
        self.contract = contract
        if contract == "chiamo":
            self.phase = "call"
        elif contract == "solo":
            self._take_monte()
            self._discard_next([soloist], [4])
        elif contract == "solissimo":
            self._start_play()
        elif contract == "dividete":
            self.phase = "draw"
        else:
            self.events.append(Event(f"the monte face up: {_cards(self.monte)}"))
            self.phase = "split"

    def _take_monte(self) -> None:
        soloist = self.soloist
        assert soloist is not None
        self.hands[soloist] |= self.monte
        self.events.append(Event(f"seat {soloist} takes the monte: {_cards(self.monte)}", 1 << soloist,
                                 f"seat {soloist} takes the monte"))

    def _on_call(self, card: Card) -> None:
        soloist = self.soloist
        assert soloist is not None
        holder = called_from(self.dealt, self.monte, card)
        self.call = card
        self.call_from = MONTE if holder is None else holder
        if holder is None:
            self.events.append(Event(f"seat {soloist} calls {card_name(card)}: in the monte"))
        else:
            self.hands[holder] &= ~_bit(card)
            self.hands[soloist] |= _bit(card)
            self.events.append(Event(f"seat {soloist} calls {card_name(card)}: handed over by seat {holder}"))
        self._take_monte()
        if holder is None:
            self._discard_next([soloist], [4])
        else:
            self.phase = "return"

    def _on_return(self, card: Card) -> None:
        soloist, holder = self.soloist, self.call_from
        assert soloist is not None and holder is not None
        self.returned = card
        self.hands[soloist] &= ~_bit(card)
        self.hands[holder] |= _bit(card)
        self.events.append(Event(f"seat {soloist} returns {card_name(card)} to seat {holder}"))
        self._discard_next([soloist], [4])

    def _discard_next(self, seats: Sequence[int], counts: Sequence[int]) -> None:
        self.discarders = [s for s, n in zip(seats, counts) if n]
        for s, n in zip(seats, counts):
            self.to_discard[s] = n
        self.phase = "discard"

    def _on_discard(self, card: Card) -> None:
        seat = self.discarders[0]
        self.hands[seat] &= ~_bit(card)
        self.discards[seat] |= _bit(card)
        self.to_discard[seat] -= 1
        self.events.append(Event(f"seat {seat} discards {card_name(card)}", 1 << seat, f"seat {seat} discards"))
        if self.to_discard[seat] == 0:
            self.discarders.pop(0)
            if not self.discarders:
                self._start_play()

    def _first_defender(self) -> int:
        assert self.soloist is not None
        return defender_seats(self.soloist)[0]

    def _on_draw(self, card: Card) -> None:
        first = self._first_defender()
        other = 3 - first - (self.soloist or 0)
        self.takes[first] |= _bit(card)
        self.hands[first] |= _bit(card)
        self.events.append(Event(f"seat {first} draws {card_name(card)}", 1 << first, f"seat {first} draws"))
        if popcount(self.takes[first]) == 2:
            self.takes[other] = self.monte & ~self.takes[first]
            self.hands[other] |= self.takes[other]
            self.events.append(Event(f"seat {other} takes the other two: {_cards(self.takes[other])}", 1 << other,
                                     f"seat {other} takes the other two"))
            self._discard_next([first, other], [2, 2])

    def _on_split(self, action: int) -> None:
        first = self._first_defender()
        other = 3 - first - (self.soloist or 0)
        k = action - SPLIT_BASE
        monte = list(cards_of(self.monte))
        for i, card in enumerate(monte):
            self.takes[first if k >> i & 1 else other] |= _bit(card)
        for seat in (first, other):
            self.hands[seat] |= self.takes[seat]
        self.events.append(Event(f"seat {first} takes {_cards(self.takes[first])}, seat {other} takes {_cards(self.takes[other])}"))
        self._discard_next([first, other], [popcount(self.takes[first]), popcount(self.takes[other])])

    def _start_play(self) -> None:
        soloist, contract = self.soloist, self.contract
        assert soloist is not None and contract is not None
        hands, monte = apply_exchange(self.dealt, self.monte, contract, soloist, self.exchange())
        if list(hands) != self.hands:  # the exchange's rules and this machine tell the same story
            raise InternalError(f"the exchange left {[hand_name(h) for h in self.hands]}, its rules say "
                                f"{[hand_name(h) for h in hands]}")
        self.play = PlayState(hands, monte, soloist, first_leader(contract, soloist, self.rules))
        self.phase = "play"

    def _on_play(self, card: Card) -> None:
        play = self.play
        assert play is not None and self.contract is not None
        seat = play.to_move
        play.play(card)
        self.events.append(Event(f"seat {seat} plays {card_name(card)}"))
        if play.is_over:
            self.result = play.result(self.contract, self.rules)
            self.phase = "over"

    # -- the deal as data ----------------------------------------------------------------
    def exchange(self) -> Exchange:
        """The exchange made so far, as :class:`~calasolve.game.exchange.Exchange` fields."""
        contract = self.contract
        d = self.discards
        # every exchange discards 4 cards in all: the discards are given once all are made
        discards = (d[0], d[1], d[2]) if popcount(d[0] | d[1] | d[2]) == 4 else None
        if contract in ("chiamo", "solo"):
            return Exchange(call=self.call, returned=self.returned, discards=discards)
        if contract in ("dividete", "scegliete") and self.phase not in ("draw", "split"):
            t = self.takes
            return Exchange(takes=(t[0], t[1], t[2]), discards=discards)
        return Exchange()

    def record(self) -> Record:
        """The deal as a :class:`~calasolve.types.record.Record` (hands as dealt, the auction, the exchange, the
        cards played), once the play has begun: what :func:`calasolve.solve` and the card players take."""
        if self.play is None or self.contract is None or self.soloist is None:
            raise CalasolveError(f"the deal is a record only once the play has begun (now: {self.phase})")
        d = self.dealt
        return Record((d[0], d[1], d[2]), self.monte, self.contract, self.soloist, played=tuple(self.play.history),
                      rules=self.rules, exchange=self.exchange(), auction=tuple(c for _, c in self.auction.calls))

    @classmethod
    def from_record(cls, record: Record) -> "GameState":
        """The game that ``record`` tells: its hands dealt, its auction (the plainest one for its contract when
        it gives none), its exchange as far as it goes, then its cards played; the inverse of :meth:`record`.

        >>> from calasolve.records.dealfile import parse_deal_text
        >>> [rec] = parse_deal_text("hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\\nmonte: R4.-.3F.-\\n"
        ...                         "contract: solissimo\\nsoloist: 0\\nplayed: 3S 5S")
        >>> g = GameState.from_record(rec)
        >>> g.phase, g.current_player, g.record().auction, g.record() == rec.with_(auction=("solissimo",))
        ('play', 2, ('solissimo',), True)
        """
        if record.leader is not None and record.leader != first_leader(record.contract, record.soloist, record.rules):
            raise CalasolveError(f"{record.where()}: leader {record.leader} is not the rules' first leader; "
                                 "a game has no other")
        g = cls(record.rules)
        for hand in record.hands:
            for card in cards_of(hand):
                g.apply(card)
        for call in record.auction or record_auction(record.contract, record.soloist, record.rules):
            g.apply(PASS if call == PASS_CALL else bid_action(call))
        if g.phase == "declare":
            g.apply(bid_action(record.contract))
        ex = record.exchange
        while g.phase not in ("play", "over"):
            phase, seat = g.phase, g.current_player
            if phase == "call" and ex.call is not None:
                g.apply(ex.call)
            elif phase == "return" and ex.returned is not None:
                g.apply(ex.returned)
            elif phase in ("draw", "split") and ex.takes is not None:
                first = g._first_defender()
                if phase == "split":
                    g.apply(split_action(g.monte, ex.takes[first]))
                else:
                    g.apply(min(cards_of(ex.takes[first] & ~g.takes[first])))
            elif phase == "discard" and ex.discards is not None:
                g.apply(min(cards_of(ex.discards[seat] & ~g.discards[seat])))
            else:
                return g  # the record stops in its exchange: the decision there is next
        for card in record.played:
            g.apply(card)
        return g

    def action_text(self, action: int) -> str:
        """``action`` as the player to move would say it here (``call 3B``, ``bid solo``, ``split: 1 takes AB 3D``)."""
        phase = self.phase
        if phase == "split" and SPLIT_BASE <= action < NUM_ACTIONS:
            k = action - SPLIT_BASE
            mine = sum(_bit(c) for i, c in enumerate(cards_of(self.monte)) if k >> i & 1)
            return f"split: first defender takes {_cards(mine)}, the other {_cards(self.monte & ~mine)}"
        verb = {"auction": "bid", "declare": "declare", "call": "call", "return": "return", "discard": "discard",
                "play": "play", "deal": "deal", "draw": "draw"}.get(phase, "")
        name = action_name(action)
        return name if name == "pass" else f"{verb} {name}".strip()

    def __str__(self) -> str:
        """Every card in view (the state as a whole, not a seat's view): the phase, hands, monte and play."""
        lines = [f"phase {self.phase}" + (f", seat {self.current_player} to act" if self.current_player >= 0 else "")]
        for seat in range(3):
            role = " (soloist)" if seat == self.soloist else ""
            lines.append(f"seat {seat}{role}: {hand_name(self.held(seat))}")
        if self.phase != "deal":
            lines.append(f"monte as dealt: {hand_name(self.monte)}")
        calls = " ".join(f"{s}:{c}" for s, c in self.auction.calls)
        if calls:
            lines.append(f"calls: {calls}" + (f"; contract {self.contract}" if self.contract else ""))
        if self.exchange() != Exchange():
            lines.append(f"exchange: {self.exchange().to_dict()}")
        if self.play is not None and self.play.history:
            lines.append("played: " + " ".join(card_name(c) for c in self.play.history))
        if self.is_terminal:
            lines.append(f"returns: {self.returns()}" + (" (void: all passed)" if self.void else ""))
        return "\n".join(lines)
