"""The learned card player: a small network over what the seat sees, with the contract-minded PIMC
player for the last tricks (docs/play.md, "The learned player").

The network is a perceptron (two hidden layers of 256 rectified units) fitted by
``python -m calasolve.train`` to the cards the contract-minded PIMC player
(:class:`~calasolve.play.target.ContractPimcPlayer`, 8 layouts) chose on
self-play deals; its weights ship with the package (``learned_cards.npz``) and
run on numpy alone.  Its input (:func:`features`) is what the seat to move
knows, seats counted from it: its own cards, the cards each seat has played,
the trick so far, the cards it knows to be with each other seat or in the
monte and where each unseen card may be (:func:`~calasolve.play.knowledge.view_of`),
and the contract, the soloist's seat, the trick's leader and the thirds taken; then
what follows from those (:func:`with_derived`): which of its cards an opponent may
still beat, the highest card of each suit out, the cards that take the trick.

The last ``endgame`` tricks (8 by default) are played by the contract-minded
PIMC player: there its searches are cheap, and the end of a deal is where
imitation errs most (docs/experiments.md).  ``endgame=12`` is that player
throughout, ``0`` the network throughout; ``defender_endgame`` sets a
defender's apart.  Its layouts are the core's
(``sampler="core"``), so each of its decisions is one call of the C core;
``sampler="numpy"`` deals those of ``PimcPlayer`` instead, as an earlier
version did.

:func:`play_out_many` plays many deals together, one forward pass for every
deal whose seat to move decides by a network.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Mapping, Sequence

import numpy as np

from ..game.defaults import DEFAULT_ENDGAME
from ..game.cards import RANK_THIRDS, Card, cards_of, mask_thirds, popcount
from ..game.errors import CalasolveError, ParameterError
from ..game.limits import check_int
from ..game.state import CONTRACTS, TRICKS, PlayState
from ..search.engines import CoreSolver
from ..types.play import PlayedDeal
from ..types.record import Record
from .knowledge import MONTE, view_masks
from .players import MAX_PIMC_SAMPLES, Player, play_choice, play_start
from .target import ContractPimcPlayer, Sampler

__all__ = [
    "DEFAULT_LEARNED_LAYOUTS", "LearnedPlayer", "N_FEATURES", "Network", "VIEW_FEATURES", "default_network",
    "features", "features_many", "network_cards", "play_out_many", "view_features_many", "with_derived",
]

#: What the seat sees, as the training data keeps it: per card 12 planes (mine; played by the mover, the next
#: seat, the one after; the trick's first and second card; known to be with the next seat, the one after, in
#: the monte; may be with each of those three), then 17 of context (the contract, the soloist and the leader
#: relative to the mover, the trick's length, the thirds each side took, the tricks played).
VIEW_FEATURES = 12 * 40 + 17
#: The network's input: the view, then what follows from it (:func:`with_derived`): per card 4 planes (my
#: cards no card an opponent may hold beats, those one such card beats, the highest card of each suit in
#: another hand, my cards that would take the trick now), per suit 4 counts (mine, those an opponent may hold,
#: those the next seat may hold, the one after), which other seat takes the trick so far, and the thirds in it.
N_FEATURES = VIEW_FEATURES + 4 * 40 + 4 * 4 + 2 + 1
#: Each card's thirds, in card order.
_CARD_THIRDS = np.array(RANK_THIRDS * 4, dtype=np.float32)
#: From this many positions on, numpy works out the derived numbers faster than the masks do.
_NUMPY_FROM = 12
#: Its layouts per decision (those of the players the network imitates).
DEFAULT_LEARNED_LAYOUTS = 8
#: The weights shipped with the package.
WEIGHTS = "learned_cards.npz"


def features(record: Record, state: PlayState) -> np.ndarray:
    """The network's input for the seat to move (float32, :data:`N_FEATURES`)."""
    row: np.ndarray = features_many([(record, state)])[0]
    return row


def features_many(positions: Sequence[tuple[Record, PlayState]]) -> np.ndarray:
    """:func:`features` of many positions, a row each: :func:`with_derived` of :func:`view_features_many`, for
    a few positions worked out on their masks (numpy's calls would cost a row more than its network does)."""
    n = len(positions)
    if n >= _NUMPY_FROM:
        return with_derived(view_features_many(positions))
    masks = np.zeros((n, 16), dtype="<u8")
    numbers = np.zeros((n, 17 + 19), dtype=np.float32)
    for i, (record, state) in enumerate(positions):
        planes, ctx = _planes(record, state)
        derived, extra = _derived(planes, (record.soloist - state.to_move) % 3, (state.leader - state.to_move) % 3)
        masks[i], numbers[i] = planes + derived, ctx + extra
    bits = _unpack(masks).astype(np.float32)
    return np.concatenate([bits[:, :12].reshape(n, 480), numbers[:, :17], bits[:, 12:].reshape(n, 160), numbers[:, 17:]],
                          axis=1)


def view_features_many(positions: Sequence[tuple[Record, PlayState]]) -> np.ndarray:
    """What the seat to move sees in each position (:data:`VIEW_FEATURES`, a row each): the card planes as
    masks, unpacked together."""
    masks = np.zeros((len(positions), 12), dtype="<u8")
    ctx = np.zeros((len(positions), 17), dtype=np.float32)
    for i, (record, state) in enumerate(positions):
        masks[i], ctx[i] = _planes(record, state)
    return np.concatenate([_unpack(masks).reshape(len(positions), 480).astype(np.float32), ctx], axis=1)


def with_derived(view: np.ndarray) -> np.ndarray:
    """The network's input from rows of :func:`view_features_many`: each row, then what follows from it
    (:data:`N_FEATURES`).  Trick taking turns on which cards an opponent may still hold above one's own,
    which a small network finds hard to work out from the planes of cards played."""
    n = len(view)
    p = view[:, :480].reshape(n, 12, 4, 10) > 0.5  # plane, suit, rank (low to high)
    ctx = view[:, 480:]  # as _planes writes it
    mine, trick1, trick2 = p[:, 0], p[:, 4], p[:, 5]
    with_next, with_after = p[:, 6] | p[:, 9], p[:, 7] | p[:, 10]  # known to be, or may be, in that hand
    soloist = ctx[:, 5:8].argmax(axis=1)  # relative to the mover
    threat = (with_next & (soloist != 2)[:, None, None]) | (with_after & (soloist != 1)[:, None, None])
    held = with_next | with_after
    above = _above(threat)
    masters, beaten_once = mine & (above == 0), mine & (above == 1)
    top_held = held & ~mine & (_above(held | mine) == 0)
    led = np.any(trick1, axis=2)  # the suit led, one-hot (none when the mover leads)
    in_led = (trick1 | trick2) & led[:, :, None]
    takes = mine & led[:, :, None] & (_above(in_led) + in_led == 0)
    planes = np.stack([masters, beaten_once, top_held, takes], axis=1).reshape(n, 160)
    counts = np.stack([mine.sum(2), threat.sum(2), with_next.sum(2), with_after.sum(2)], axis=1)
    ranks = np.arange(10)
    first = (trick1 * ranks).sum(axis=2).max(axis=1)
    second_led = trick2 & led[:, :, None]
    ahead = second_led.any(axis=(1, 2)) & ((second_led * ranks).sum(axis=2).max(axis=1) > first)
    started = led.any(axis=1)
    winner = (ctx[:, 11:14].argmax(axis=1) + ahead) % 3  # the leader's seat, relative to the mover, moved on
    who = np.zeros((n, 2), np.float32)
    who[:, 0] = started & (winner == 1)
    who[:, 1] = started & (winner == 2)
    thirds = ((trick1 | trick2).reshape(n, 40) @ _CARD_THIRDS)[:, None] / 11
    return np.concatenate([view, planes.astype(np.float32), counts.reshape(n, 16).astype(np.float32) / 10, who,
                           thirds.astype(np.float32)], axis=1)


def _above(bits: np.ndarray) -> np.ndarray:
    """For (rows, suit, rank) bits: how many of the same row and suit are set above each rank."""
    counts = bits.astype(np.int8)
    above: np.ndarray = np.cumsum(counts[..., ::-1], axis=-1)[..., ::-1] - counts
    return above


def _planes(record: Record, state: PlayState) -> tuple[list[int], list[float]]:
    """The 12 card planes of :data:`VIEW_FEATURES` as masks, and the 17 numbers of context."""
    m = state.to_move
    view = view_masks(record, state, m)
    start, _ = record.after_exchange()
    planes = [state.hands[m], 0, 0, 0, 0, 0, 0, 0, view.placed[MONTE], 0, 0, 0]
    for r in range(3):  # what each seat has played: what it held at the first lead and holds no more
        seat = (m + r) % 3
        planes[1 + r] = start[seat] & ~state.hands[seat]
    for i, c in enumerate(state.trick):
        planes[4 + i] = 1 << c
    may = view.may
    for r in (1, 2):
        planes[5 + r] = view.placed[(m + r) % 3]
        planes[8 + r] = may[(m + r) % 3]
    planes[11] = may[MONTE]
    ctx = [0.0] * 17
    ctx[CONTRACTS.index(record.contract)] = 1
    ctx[5 + (record.soloist - m) % 3] = 1
    ctx[8 + len(state.trick)] = 1
    ctx[11 + (state.leader - m) % 3] = 1
    s = record.soloist
    ctx[14] = state.captured[s] / 35
    ctx[15] = (sum(state.captured) - state.captured[s]) / 35
    ctx[16] = len(state.tricks) / 12
    return planes, ctx


def _derived(planes: list[int], soloist: int, leader: int) -> tuple[list[int], list[float]]:
    """What :func:`with_derived` adds, from a position's 12 planes (masks) and the soloist's and the leader's seats
    relative to the mover: its 4 planes as masks, then its 19 numbers."""
    mine, first, second_card = planes[0], planes[4], planes[5]
    with_next, with_after = planes[6] | planes[9], planes[7] | planes[10]
    threat = (with_next if soloist != 2 else 0) | (with_after if soloist != 1 else 0)
    held = with_next | with_after
    masters = beaten_once = top_held = takes = 0
    counts: list[float] = []
    for suit in range(4):
        shift = 10 * suit
        m, t, h = mine >> shift & 1023, threat >> shift & 1023, held >> shift & 1023
        top, below = t.bit_length(), (t & ~(1 << t.bit_length() >> 1)).bit_length()
        masters |= m >> top << top << shift  # above every threat
        beaten_once |= (m & ((1 << top) - 1)) >> below << below << shift  # between the highest two
        highest = 1 << (m | h).bit_length() >> 1
        top_held |= (highest & h & ~m) << shift
        counts.append(m.bit_count() / 10)
    for plane in (threat, with_next, with_after):
        counts += [(plane >> 10 * suit & 1023).bit_count() / 10 for suit in range(4)]
    who = [0.0, 0.0]
    thirds = 0
    if first:
        led = (first.bit_length() - 1) // 10
        shift = 10 * led
        on_table = ((first | second_card) >> shift & 1023).bit_length()
        takes = (mine >> shift & 1023) >> on_table << on_table << shift
        ahead = second_card > first and (second_card.bit_length() - 1) // 10 == led
        who[(leader + ahead) % 3 - 1] = 1.0
        thirds = mask_thirds(first | second_card)
    return [masters, beaten_once, top_held, takes], counts + who + [thirds / 11]


@dataclass(frozen=True)
class Network:
    """A perceptron: ``layers`` of (weights, bias), rectified between them; 40 logits out, one per card."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """The card network in an ``.npz`` as the trainer writes it (:meth:`from_weights`)."""
        with np.load(path) as data:
            return cls.from_weights({k: data[k] for k in data.files}, where=str(path))

    @classmethod
    def from_weights(cls, weights: Mapping[str, np.ndarray], prefix: str = "", inputs: int = N_FEATURES,
                     where: str = "weights", what: str = "a card network") -> Network:
        """The network of weights ``{prefix}wK`` (inputs x outputs) and biases ``{prefix}bK``, layers in the
        order of K; one of ``inputs`` inputs and 40 outputs, else an error naming ``where`` and ``what``."""
        w = prefix + "w"
        order = sorted(int(k[len(w):]) for k in weights if k.startswith(w) and k[len(w):].isdigit())
        layers = tuple((np.asarray(weights[f"{w}{i}"], np.float32), np.asarray(weights[f"{prefix}b{i}"], np.float32))
                       for i in order)
        if not layers or layers[0][0].shape[0] != inputs or layers[-1][0].shape[1] != 40:
            raise CalasolveError(f"{where}: not {what} ({inputs} inputs, 40 outputs)")
        return cls(layers)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The cards' logits for a batch of inputs (rows)."""
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < len(self.layers) - 1:
                np.maximum(x, 0, out=x)
        return x


@lru_cache(maxsize=1)
def default_network() -> Network:
    """The network shipped with the package."""
    with resources.as_file(resources.files(__package__).joinpath(WEIGHTS)) as path:
        return Network.load(path)


@dataclass
class LearnedPlayer:
    """The network's card until the last ``endgame`` tricks, then the contract-minded PIMC player's
    (``samples`` layouts, ``seed``); see the module doc.  ``defender_endgame``: a defender's tricks searched, when
    not ``endgame``'s.

    >>> LearnedPlayer().searched, LearnedPlayer(endgame=0).searched, LearnedPlayer(defender_endgame=6).searched
    ((8, 8), (0, 0), (8, 6))
    """

    endgame: int = DEFAULT_ENDGAME
    samples: int = DEFAULT_LEARNED_LAYOUTS
    seed: int = 0
    solver: CoreSolver | None = field(default=None, repr=False)
    network: Network | None = field(default=None, repr=False)
    #: who deals the endgame's layouts (:class:`~calasolve.play.target.ContractPimcPlayer`'s ``sampler``)
    sampler: Sampler = "core"
    name: str = "learned"
    defender_endgame: int | None = None

    def __post_init__(self) -> None:
        check_int("endgame", self.endgame, 0, TRICKS)
        if self.defender_endgame is not None:
            check_int("defender_endgame", self.defender_endgame, 0, TRICKS)
        check_int("samples", self.samples, 1, MAX_PIMC_SAMPLES)
        self.search = ContractPimcPlayer(self.samples, self.seed, self.solver, sampler=self.sampler)
        if self.network is None:
            self.network = default_network()

    @property
    def searched(self) -> tuple[int, int]:
        """The tricks searched at the end of the deal: (as soloist, as a defender)."""
        return self.endgame, self.endgame if self.defender_endgame is None else self.defender_endgame

    def by_network(self, state: PlayState) -> bool:
        """Whether the network decides this position (a choice to make before the seat's endgame)."""
        endgame = self.searched[state.to_move != state.soloist]
        return len(state.tricks) < TRICKS - endgame and popcount(state.legal()) > 1

    def choose(self, record: Record, state: PlayState) -> Card:
        if self.by_network(state):
            assert self.network is not None
            return network_cards(self.network, [(record, state)])[0]
        legal = state.legal()
        if popcount(legal) == 1:
            return next(iter(cards_of(legal)))
        return self.search.choose(record, state)


def network_cards(network: Network, positions: Sequence[tuple[Record, PlayState]]) -> list[Card]:
    """``network``'s cards for many positions, in one forward pass: the highest logit among each one's legal cards."""
    logits = network.logits(features_many(positions))
    legal = _unpack([s.legal() for _, s in positions]).astype(np.bool_)
    return [int(c) for c in np.where(legal, logits, -np.inf).argmax(axis=1)]


def _unpack(masks: Sequence[int] | np.ndarray) -> np.ndarray:
    """Card masks (any shape) as their 40 cards' bits, 0 or 1, on one more last axis."""
    packed = np.asarray(masks, dtype="<u8")
    bits = np.unpackbits(packed.reshape(-1, 1).view(np.uint8), axis=1, bitorder="little")
    return bits[:, :40].reshape(*packed.shape, 40)


def play_out_many(records: Sequence[Record], players: Sequence[Sequence[Player]]) -> list[PlayedDeal]:
    """Play each record out from its ``played`` point, ``players[i][s]`` choosing seat ``s``'s cards of deal ``i``;
    the positions a :class:`LearnedPlayer`'s network decides advance together, one forward pass per network and
    step.  The same cards as :func:`~calasolve.play.players.play_out` deal by deal."""
    if len(players) != len(records):
        raise ParameterError("players", len(players), f"needs one set of players per record ({len(records)})")
    start = time.perf_counter()
    states = [play_start(record, seats) for record, seats in zip(records, players)]
    while True:
        batches: dict[int, tuple[Network, list[int]]] = {}
        for i, state in enumerate(states):
            if state.is_over:
                continue
            player = players[i][state.to_move]
            if isinstance(player, LearnedPlayer) and player.network is not None and player.by_network(state):
                batches.setdefault(id(player.network), (player.network, []))[1].append(i)
            else:
                play_choice(state, player, player.choose(records[i], state))
        if not batches and all(s.is_over for s in states):
            break
        for network, idx in batches.values():
            for i, card in zip(idx, network_cards(network, [(records[i], states[i]) for i in idx])):
                play_choice(states[i], players[i][states[i].to_move], card)
    seconds = (time.perf_counter() - start) / max(1, len(records))
    return [PlayedDeal(r.played_on(state), tuple(p.name for p in seats), seconds)  # type: ignore[arg-type]
            for r, seats, state in zip(records, players, states)]
