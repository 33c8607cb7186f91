"""Self-play training data for the learned card player: deals, their exchange, and every card decision
of the contract-minded PIMC players who play them.

Deal ``d`` of a mix is a function of ``d`` and the mix alone: the cards from
:func:`~calasolve.game.sampling.rng_for` ``(12345, d)``; the strongest hand
(:func:`~calasolve.game.cards.strength`) is the soloist; its contract is, in the
``rule`` mix, the one :func:`~calasolve.env.agents.rule_bid` gives it 7 times in
10 and one at random otherwise, in the ``stakes`` mix one of solissimo, dividete
and scegliete at random (the contracts where a card costs most, and which the
bidding rule rarely reaches).  The rest of the cards are dealt as the advice
deals a sample for that hand, the exchange made as its play-outs make it (the
``sampled`` policies), and the deal played by
:class:`~calasolve.play.target.ContractPimcPlayer` (8 layouts) on every seat.
Each decision with more than one legal card is a row: what the mover sees
(:func:`~calasolve.play.learned.view_features_many`), its legal cards, the card chosen.
In a later round (DAgger) the deal is played by the learned players of the round
before instead, and the positions their network decides are the rows, each
labelled with the card the PIMC player would have chosen there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..advice.realplay import pimc_seed, played_exchange
from ..advice.samples import deal_sample
from ..advice.settings import AdviceSettings
from ..env.agents import rule_bid
from ..game.cards import Card, cards_of, popcount, strength
from ..game.errors import CalasolveError, ParameterError
from ..game.rules import STANDARD
from ..game.sampling import rng_for
from ..game.state import CONTRACTS, Contract, PlayState
from ..play.learned import DEFAULT_LEARNED_LAYOUTS, VIEW_FEATURES, LearnedPlayer, Network, view_features_many
from ..play.players import play_out
from ..play.target import ContractPimcPlayer
from ..search.solving import default_solver
from ..types.record import Record

__all__ = ["CHUNK", "MIXES", "TRAINING_ENDGAME", "Chunk", "Rows", "chunks_of", "deal_rows", "generate", "training_deal"]

#: How the soloist's contract is chosen (see the module doc).
MIXES = ("rule", "stakes")
#: The contracts of the ``stakes`` mix.
STAKES: tuple[Contract, ...] = ("solissimo", "dividete", "scegliete")
#: Deals per data file at most (a file is generated, kept and held out from as a whole).
CHUNK = 2000
#: The deals' own seed (the cards of deal d: rng_for(DEAL_SEED, d)).
DEAL_SEED = 12345
#: The learner's endgame in the DAgger rounds: its network's positions are the rows, so this is fixed with the data
#: that made the shipped weights, whatever the players' default (docs/play.md).
TRAINING_ENDGAME = 6


@dataclass(frozen=True)
class Rows:
    """Card decisions: what the seat saw (n x VIEW_FEATURES; the network's input adds what follows from it,
    :func:`~calasolve.play.learned.with_derived`), legal cards (n x 40) and the cards chosen (n)."""

    x: np.ndarray
    legal: np.ndarray
    chosen: np.ndarray

    @classmethod
    def join(cls, parts: Iterable[Rows]) -> Rows:
        parts = list(parts)
        if not parts:
            return cls(np.zeros((0, VIEW_FEATURES), np.float32), np.zeros((0, 40), np.bool_), np.zeros(0, np.int64))
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("x", "legal", "chosen")))

    def save(self, path: str) -> None:
        np.savez_compressed(path, X=self.x, M=self.legal, y=self.chosen)

    @classmethod
    def load(cls, path: str) -> Rows:
        with np.load(path) as data:
            rows = cls(data["X"], data["M"], data["y"].astype(np.int64))
        if rows.x.ndim != 2 or rows.x.shape[1] != VIEW_FEATURES or rows.legal.shape != (len(rows.x), 40):
            raise CalasolveError(f"{path}: not card decisions ({VIEW_FEATURES} numbers of a view and 40 legal flags a row)")
        return rows


@dataclass(frozen=True)
class Chunk:
    """Deals ``first`` to ``first + count - 1`` of ``mix``: one data file; in ``round`` 0 played by the PIMC
    players, in a later round by the learned players of the round before, labelled by PIMC."""

    mix: str
    first: int
    count: int
    round: int = 0

    @property
    def name(self) -> str:
        return f"{self.mix}-{self.first}-{self.count}" + (f"-r{self.round}" if self.round else "") + ".npz"


def chunks_of(mix: str, first: int, count: int, round: int = 0) -> list[Chunk]:
    """``count`` deals of ``mix`` from ``first`` as files of at most :data:`CHUNK` deals, as even as may be.

    >>> [c.name for c in chunks_of("stakes", 20000, 3600)]
    ['stakes-20000-1800.npz', 'stakes-21800-1800.npz']
    """
    if mix not in MIXES:
        raise ParameterError("mix", mix, f"unknown mix (use {', '.join(MIXES)})")
    n = max(1, math.ceil(count / CHUNK))
    size = math.ceil(count / n)
    return [Chunk(mix, d, min(size, first + count - d), round) for d in range(first, first + count, size)]


def training_deal(mix: str, d: int, solver: Any) -> tuple[Record, int]:
    """Deal ``d`` of ``mix`` with its exchange made, and its players' seed (see the module doc)."""
    rng = rng_for(DEAL_SEED, d)
    order = rng.permutation(40)
    hands = [sum(1 << int(c) for c in order[12 * s:12 * s + 12]) for s in range(3)]
    seat = int(np.argmax([strength(h) for h in hands]))
    if mix == "rule":
        want = rule_bid(hands[seat], STANDARD)
        contract = want if want is not None and rng.random() < 0.7 else CONTRACTS[int(rng.integers(5))]
    else:
        contract = STAKES[int(rng.integers(len(STAKES)))]
    settings = AdviceSettings(hand=hands[seat], seat=seat, seed=d, defender_policy="sampled", jobs=1)
    h, monte = deal_sample(settings, 0)
    exchange, _ = played_exchange(settings, 0, contract, h, monte, solver, None)
    record = Record(hands=h, monte=monte, contract=contract, soloist=seat, rules=settings.rules, exchange=exchange)
    return record, pimc_seed(settings, 0, contract)


class _Recorder:
    """Keeps each decision with a choice, labelled by the PIMC player; plays the PIMC player's card, or
    the ``learner``'s where it decides (the positions the learner reaches, with the card it should play)."""

    def __init__(self, label: ContractPimcPlayer, rows: list[tuple[np.ndarray, np.ndarray, Card]],
                 learner: LearnedPlayer | None) -> None:
        self.label, self.rows, self.learner, self.name = label, rows, learner, label.name

    def choose(self, record: Record, state: PlayState) -> Card:
        if self.learner is not None and not self.learner.by_network(state):
            return self.learner.choose(record, state)
        card = self.label.choose(record, state)
        legal = state.legal()
        if popcount(legal) > 1:
            mask = np.zeros(40, dtype=np.bool_)
            mask[list(cards_of(legal))] = True
            self.rows.append((view_features_many([(record, state)])[0], mask, card))
        return card if self.learner is None else self.learner.choose(record, state)


def deal_rows(task: tuple[str, int, Network | None]) -> Rows:
    """The decisions of one training deal ``(mix, d, learner's network)`` (a worker's unit)."""
    mix, d, network = task
    solver = default_solver()
    record, seed = training_deal(mix, d, solver)
    rows: list[tuple[np.ndarray, np.ndarray, Card]] = []
    learner = None if network is None else LearnedPlayer(TRAINING_ENDGAME, seed=seed, solver=solver, network=network)
    play_out(record, [_Recorder(ContractPimcPlayer(DEFAULT_LEARNED_LAYOUTS, seed, solver), rows, learner)
                      for _ in range(3)])
    if not rows:
        return Rows.join([])
    return Rows(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), np.array([r[2] for r in rows], np.int64))


def generate(chunk: Chunk, network: Network | None = None, mapper: Any = None) -> Rows:
    """Every labelled decision of a chunk's deals, in deal order: played by PIMC, or with ``network`` by the
    learned player (``mapper``: anything with ``map``, a worker pool or a Dask map; None: this process)."""
    deals: Sequence[tuple[str, int, Network | None]] = [(chunk.mix, d, network)
                                                         for d in range(chunk.first, chunk.first + chunk.count)]
    parts = map(deal_rows, deals) if mapper is None else mapper.map(deal_rows, deals, chunksize=8)
    return Rows.join(parts)
