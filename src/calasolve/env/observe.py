"""What each seat has seen of a deal, as strings and as fixed-size tensors (docs/env.md#observations).

:func:`seen_by` gathers it once, from the rules of what a seat sees (docs/rules.md §5,
docs/play.md): its own hand (during the deal, the cards dealt to it so far), every call,
chiamo's called card and where it came from, the card returned (face up), the monte when the
seat took it (the soloist of chiamo and solo) or when it lay face up (scegliete, for everyone),
its own takes and discards, scegliete's split, every card played.  The four views
(:func:`observation_string`, :func:`observation_tensor`, :func:`information_state_string`,
:func:`information_state_tensor`) are made from that alone, so a view cannot show a card its
seat has not seen.

Seats in the tensors are relative to the observer: 0 is the observer, 1 the next seat in
turn order, 2 the one after (the observer's own seat number is the first slice).  The
information state adds to the observation what the observation summarises: the hand as dealt,
the calls in order and the cards played in order, so that it tells apart every two histories
the seat can tell apart (discards and dividete's draw are made lowest card first, so a set is
one sequence).

>>> OBSERVATION_SIZE, INFORMATION_STATE_SIZE
(575, 2109)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.auction import PASS as PASS_CALL
from ..game.cards import NUM_CARDS, Card, Mask, card_name, cards_of, hand_name
from ..game.errors import InternalError, ParameterError
from ..game.state import CONTRACTS, Contract
from .game import MONTE, PHASES, GameState, Phase

__all__ = [
    "INFORMATION_STATE_SIZE", "INFORMATION_STATE_SLICES", "MAX_CALLS", "OBSERVATION_SIZE", "OBSERVATION_SLICES",
    "Seen", "information_state_string", "information_state_tensor", "observation_string", "observation_tensor",
    "seen_by", "tensor_slices",
]

#: The most calls an auction can take in any variant (tests/env/test_game.py enumerates them).
MAX_CALLS = 6
#: Cards played in a deal.
PLAYS = 36

#: The observation tensor's slices, in order: (name, size, what it holds).  Seats are relative.
OBSERVATION_SLICES: tuple[tuple[str, int, str], ...] = (
    ("seat", 3, "the observer's own seat number, one-hot"),
    ("phase", len(PHASES), "the phase, one-hot: " + ", ".join(PHASES)),
    ("to_act", 3, "the seat to act (none at chance nodes and at the end)"),
    ("passed", 3, "each seat has passed"),
    ("bids", 3 * len(CONTRACTS), "each seat's highest bid, one-hot over chiamo..scegliete"),
    ("contract", len(CONTRACTS), "the contract (while the winner of a solissimo declares: solissimo)"),
    ("soloist", 3, "the soloist"),
    ("hand", NUM_CARDS, "the cards the observer holds now"),
    ("called", NUM_CARDS, "chiamo's called card"),
    ("called_from", 4, "where the called card was: a seat, or (last) the monte"),
    ("returned", NUM_CARDS, "the card chiamo's soloist returned (face up)"),
    ("monte_seen", NUM_CARDS, "the monte as dealt, when the observer saw it (its soloist took it; scegliete's face up)"),
    ("takes", 3 * NUM_CARDS, "each seat's monte cards taken, as seen (scegliete's for all, dividete's own)"),
    ("discards", NUM_CARDS, "the discards the observer knows: its own"),
    ("played", 3 * NUM_CARDS, "the cards each seat has played"),
    ("trick", 2 * NUM_CARDS, "the current trick's first and second card"),
    ("trick_leader", 3, "who led the current trick"),
    ("card_thirds", 3, "the thirds in the cards each seat has won, / 35"),
    ("tricks_won", 3, "the tricks each seat has won, / 12"),
)
#: The information-state tensor: the observation's slices, then these.
INFORMATION_STATE_SLICES: tuple[tuple[str, int, str], ...] = OBSERVATION_SLICES + (
    ("dealt", NUM_CARDS, "the observer's hand as dealt (during the deal: so far)"),
    ("calls", MAX_CALLS * 9, "the calls in order, each: the caller (3) and pass or a contract (6), one-hot"),
    ("plays", PLAYS * NUM_CARDS, "the cards played in order, one-hot each"),
)
OBSERVATION_SIZE = sum(size for _, size, _ in OBSERVATION_SLICES)
INFORMATION_STATE_SIZE = sum(size for _, size, _ in INFORMATION_STATE_SLICES)


@dataclass(frozen=True)
class Seen:
    """Everything ``seat`` has seen, and nothing else: what every view is made of."""

    seat: int
    phase: Phase
    #: the seat to act, None at a chance node or the end
    to_act: int | None
    calls: tuple[tuple[int, str], ...]
    contract: Contract | None
    soloist: int | None
    hand: Mask
    dealt: Mask
    call: Card | None
    call_from: int | None
    returned: Card | None
    monte: Mask
    takes: tuple[Mask, Mask, Mask]
    discards: Mask
    #: the cards played in order, and the play's public summary
    plays: tuple[Card, ...]
    played: tuple[Mask, Mask, Mask]
    trick: tuple[Card, ...]
    trick_leader: int | None
    card_thirds: tuple[int, int, int]
    tricks_won: tuple[int, int, int]
    #: the lines of the information-state string: what happened, as this seat saw it
    events: tuple[str, ...]
    returns: tuple[float, float, float]


def seen_by(state: GameState, seat: int, events: bool = True) -> Seen:
    """What ``seat`` has seen of ``state`` (see the module doc); without ``events`` (the tensors and the
    observation string do not show them) ``Seen.events`` is left empty, which saves most of the work."""
    contract = state.contract or (state.bid if state.phase == "declare" else None)
    soloist = state.soloist
    took_monte = seat == soloist and (contract == "solo" or (contract == "chiamo" and state.call is not None))
    face_up = contract == "scegliete" and state.phase != "declare"
    if contract == "scegliete":
        takes = (state.takes[0], state.takes[1], state.takes[2])
    else:
        own = [0, 0, 0]
        own[seat] = state.takes[seat]
        takes = (own[0], own[1], own[2])
    play = state.play
    played = [0, 0, 0]
    if play is not None:
        for trick in play.tricks:
            for i, card in enumerate(trick.cards):
                played[trick.seat_of(i)] |= 1 << card
        for i, card in enumerate(play.trick):
            played[(play.leader + i) % 3] |= 1 << card
    to_act = state.current_player
    return Seen(
        seat=seat,
        phase=state.phase,
        to_act=to_act if to_act >= 0 else None,
        calls=tuple(state.auction.calls),
        contract=contract,
        soloist=soloist,
        hand=state.held(seat),
        dealt=state.dealt[seat],
        call=state.call,
        call_from=state.call_from,
        returned=state.returned,
        monte=state.monte if took_monte or face_up else 0,
        takes=takes,
        discards=state.discards[seat],
        plays=tuple(play.history) if play is not None else (),
        played=(played[0], played[1], played[2]),
        trick=tuple(play.trick) if play is not None else (),
        trick_leader=play.leader if play is not None and not play.is_over else None,
        card_thirds=(play.card_thirds[0], play.card_thirds[1], play.card_thirds[2]) if play is not None else (0, 0, 0),
        tricks_won=(play.tricks_won[0], play.tricks_won[1], play.tricks_won[2]) if play is not None else (0, 0, 0),
        events=tuple(line for line in (e.as_seen_by(seat) for e in state.events) if line) if events else (),
        returns=state.returns(),
    )


class _Writer:
    """Fills a tensor slice by slice, in the order of the slices' table (checked at the end)."""

    def __init__(self, slices: tuple[tuple[str, int, str], ...]) -> None:
        self.slices = slices
        self.out = np.zeros(sum(size for _, size, _ in slices), dtype=np.float32)
        self.at = 0
        self.index = 0

    def next(self, name: str) -> np.ndarray:
        expected, size, _ = self.slices[self.index]
        if expected != name:  # the writer follows the table, or the docs' table lies
            raise InternalError(f"the tensor's slice {self.index} is {expected!r}, written as {name!r}")
        view = self.out[self.at:self.at + size]
        self.at += size
        self.index += 1
        return view

    def done(self) -> np.ndarray:
        if self.index != len(self.slices):
            raise InternalError(f"the tensor was written up to slice {self.index} of {len(self.slices)}")
        return self.out


def _cards_into(view: np.ndarray, mask: Mask) -> None:
    for card in cards_of(mask):  # (faster than numpy's unpackbits for masks of a dozen cards)
        view[card] = 1.0


def _write_observation(seen: Seen, w: _Writer) -> None:
    me = seen.seat

    def rel(seat: int) -> int:
        return (seat - me) % 3

    w.next("seat")[me] = 1.0
    w.next("phase")[PHASES.index(seen.phase)] = 1.0
    to_act = w.next("to_act")
    if seen.to_act is not None:
        to_act[rel(seen.to_act)] = 1.0
    passed, bids = w.next("passed"), w.next("bids")
    for seat, call in seen.calls:
        if call == PASS_CALL:
            passed[rel(seat)] = 1.0
        else:
            row = bids[rel(seat) * len(CONTRACTS):(rel(seat) + 1) * len(CONTRACTS)]
            row[:] = 0.0
            row[CONTRACTS.index(call)] = 1.0
    contract = w.next("contract")
    if seen.contract is not None:
        contract[CONTRACTS.index(seen.contract)] = 1.0
    soloist = w.next("soloist")
    if seen.soloist is not None:
        soloist[rel(seen.soloist)] = 1.0
    _cards_into(w.next("hand"), seen.hand)
    called, called_from = w.next("called"), w.next("called_from")
    if seen.call is not None and seen.call_from is not None:
        called[seen.call] = 1.0
        called_from[3 if seen.call_from == MONTE else rel(seen.call_from)] = 1.0
    returned = w.next("returned")
    if seen.returned is not None:
        returned[seen.returned] = 1.0
    _cards_into(w.next("monte_seen"), seen.monte)
    takes = w.next("takes")
    for seat in range(3):
        _cards_into(takes[rel(seat) * NUM_CARDS:(rel(seat) + 1) * NUM_CARDS], seen.takes[seat])
    _cards_into(w.next("discards"), seen.discards)
    played = w.next("played")
    for seat in range(3):
        _cards_into(played[rel(seat) * NUM_CARDS:(rel(seat) + 1) * NUM_CARDS], seen.played[seat])
    trick = w.next("trick")
    for i, card in enumerate(seen.trick):
        trick[i * NUM_CARDS + card] = 1.0
    leader = w.next("trick_leader")
    if seen.trick_leader is not None:
        leader[rel(seen.trick_leader)] = 1.0
    thirds, tricks = w.next("card_thirds"), w.next("tricks_won")
    for seat in range(3):
        thirds[rel(seat)] = seen.card_thirds[seat] / 35.0
        tricks[rel(seat)] = seen.tricks_won[seat] / 12.0


def tensor_slices(tensor: np.ndarray) -> dict[str, np.ndarray]:
    """The named slices of an observation or information-state tensor (views into it), by its size.

    >>> from calasolve.game.sampling import rng_for
    >>> g = GameState(); g.sample_chance(rng_for(1, 0))
    >>> parts = tensor_slices(information_state_tensor(g, 2))
    >>> int(parts["seat"].argmax()), int(parts["dealt"].sum()), len(parts["plays"])
    (2, 12, 1440)
    """
    sizes = {OBSERVATION_SIZE: OBSERVATION_SLICES, INFORMATION_STATE_SIZE: INFORMATION_STATE_SLICES}
    slices = sizes.get(len(tensor))
    if slices is None:
        raise ParameterError("tensor", f"{len(tensor)} values",
                             f"an observation has {OBSERVATION_SIZE}, an information state {INFORMATION_STATE_SIZE}")
    out, at = {}, 0
    for name, size, _ in slices:
        out[name] = tensor[at:at + size]
        at += size
    return out


def observation_tensor(state: GameState, seat: int) -> np.ndarray:
    """``seat``'s observation as :data:`OBSERVATION_SIZE` float32 values in [0, 1] (:data:`OBSERVATION_SLICES`)."""
    w = _Writer(OBSERVATION_SLICES)
    _write_observation(seen_by(state, seat, events=False), w)
    return w.done()


def information_state_tensor(state: GameState, seat: int) -> np.ndarray:
    """``seat``'s information state as :data:`INFORMATION_STATE_SIZE` float32 values (:data:`INFORMATION_STATE_SLICES`)."""
    seen = seen_by(state, seat, events=False)
    w = _Writer(INFORMATION_STATE_SLICES)
    _write_observation(seen, w)
    _cards_into(w.next("dealt"), seen.dealt)
    calls = w.next("calls")
    for i, (caller, call) in enumerate(seen.calls):
        calls[i * 9 + (caller - seat) % 3] = 1.0
        calls[i * 9 + 3 + (0 if call == PASS_CALL else 1 + CONTRACTS.index(call))] = 1.0
    plays = w.next("plays")
    for i, card in enumerate(seen.plays):
        plays[i * NUM_CARDS + card] = 1.0
    return w.done()


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def observation_string(state: GameState, seat: int) -> str:
    """``seat``'s observation in a few lines: the phase, its hand, the calls, the exchange as it saw it, the play."""
    s = seen_by(state, seat, events=False)
    head = f"seat {seat}, {s.phase}" + (f", seat {s.to_act} to act" if s.to_act is not None else "")
    lines = [head, f"hand {hand_name(s.hand)}"]
    if s.calls:
        lines.append("calls " + ", ".join(f"{seat_} {call}" for seat_, call in s.calls))
    if s.contract is not None:
        lines.append(f"contract {s.contract}, soloist seat {s.soloist}")
    if s.call is not None:
        where = "the monte" if s.call_from == MONTE else f"seat {s.call_from}"
        lines.append(f"called {card_name(s.call)} from {where}" +
                     (f", returned {card_name(s.returned)}" if s.returned is not None else ""))
    if s.monte:
        lines.append(f"monte {hand_name(s.monte)}")
    if any(s.takes):
        lines.append("takes " + ", ".join(f"seat {t} {hand_name(m)}" for t, m in enumerate(s.takes) if m))
    if s.discards:
        lines.append(f"discarded {hand_name(s.discards)}")
    if s.plays:
        lines.append("played " + ", ".join(f"seat {t} {hand_name(m)}" for t, m in enumerate(s.played)))
        if s.trick:
            lines.append(f"trick {_names(s.trick)} led by seat {s.trick_leader}")
        lines.append("won " + ", ".join(f"seat {t} {s.tricks_won[t]} tricks {s.card_thirds[t]} thirds" for t in range(3)))
    if s.phase == "over":
        lines.append("returns " + " ".join(f"{r:+g}" for r in s.returns))
    return "\n".join(lines)


def information_state_string(state: GameState, seat: int) -> str:
    """Everything that happened as ``seat`` saw it, in order: one line each (its own cards dealt, every
    call, the exchange as it saw it, every card played)."""
    s = seen_by(state, seat)
    return "\n".join((f"seat {seat}", *s.events))
