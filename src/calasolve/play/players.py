"""Card players: double dummy, Perfect Information Monte Carlo (PIMC), and a plain heuristic.

A player chooses the card to play for the seat to move of a deal in play (a
record, whose exchange is complete, and its :class:`~calasolve.game.PlayState`).

- :class:`DoubleDummyPlayer` sees all cards: it plays a card of best
  double-dummy value (the soloist's final thirds, or the payoff).
- :class:`PimcPlayer` sees what its seat sees (:mod:`calasolve.play.knowledge`):
  it deals the unseen cards ``samples`` times consistently with that, solves
  every layout double dummy with the core, and plays the card with the best
  mean over the layouts (Ginsberg's GIB; Long, Sturtevant, Buro and Furtak,
  AAAI 2010, for Skat).  The layouts are a function of the seed and the
  position only, so a decision is reproducible; worker processes may share
  them (``pool``) without changing the choice (docs/play.md).
- :class:`HeuristicPlayer` sees its own hand and the trick: a baseline.

Ties go to the lowest card (lowest rank, then suit order): a player
indifferent between cards keeps its high ones.

:func:`play_on` plays a record on with a player per seat, card by card; :func:`play_out` to the end.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Iterator, Literal, Mapping, Protocol, Sequence

from ..game.cards import Card, Mask, card_thirds, cards_of, rank_of, suit_of
from ..game.errors import CalasolveError, IllegalPlayError, InternalError, ParameterError
from ..game.limits import check_int
from ..game.sampling import rng_for
from ..game.state import PlayState, legal_cards, trick_winner
from ..types.record import Record, check_record
from ..search import engines
from ..search.engines import CoreSolver
from ..search.payoff import payoff_card_values
from ..search.solving import default_solver, final_card_values
from .knowledge import deal_layout, view_of
from ..types.play import PlayedDeal

Objective = Literal["thirds", "payoff"]
#: A layout of the unseen cards: the three hands and the monte.
Layout = tuple[tuple[Mask, Mask, Mask], Mask]
#: Layouts per PIMC decision when none is asked for.
DEFAULT_PIMC_SAMPLES = 20
MAX_PIMC_SAMPLES = 10_000


class Player(Protocol):
    """Chooses the card for the seat to move (``state.to_move``)."""

    name: str

    def choose(self, record: Record, state: PlayState) -> Card: ...


def lowest_first(card: Card) -> tuple[int, int]:
    """The tie order: lowest rank first, then suit order."""
    return rank_of(card), suit_of(card)


def pick(values: Mapping[Card, float], maximise: bool) -> Card:
    """The card of best value for the side (max for the soloist, min for the defenders); ties to the lowest card.

    >>> from calasolve.game.cards import parse_card, card_name
    >>> card_name(pick({parse_card("3B"): 5, parse_card("4B"): 5, parse_card("AS"): 2}, maximise=True))
    '4B'
    """
    sign = -1 if maximise else 1
    return min(values, key=lambda c: (sign * values[c], lowest_first(c)))


def _values(state: PlayState, record: Record, solver: CoreSolver, objective: Objective) -> dict[Card, int]:
    thirds = final_card_values(solver, state)
    if objective == "thirds":
        return thirds
    return payoff_card_values(state, record.contract, record.rules, thirds=thirds)


@dataclass
class DoubleDummyPlayer:
    """Sees all cards and plays a double-dummy best card."""

    solver: CoreSolver | None = None
    objective: Objective = "thirds"
    name: str = "dd"

    def choose(self, record: Record, state: PlayState) -> Card:
        legal = list(cards_of(state.legal()))
        if len(legal) == 1:
            return legal[0]
        values = _values(state, record, self.solver or default_solver(), self.objective)
        return pick(values, state.to_move == state.soloist)


@dataclass
class PimcStats:
    """What a PIMC player did: decisions, layouts drawn, distinct layouts solved and the time spent."""

    decisions: int = 0
    layouts: int = 0
    solved: int = 0
    seconds: float = 0.0


@dataclass
class PimcPlayer:
    """Samples the unseen cards and plays the card with the best mean double-dummy value (see the module doc)."""

    samples: int = DEFAULT_PIMC_SAMPLES
    seed: int = 0
    solver: CoreSolver | None = None
    objective: Objective = "thirds"
    name: str = "pimc"
    stats: PimcStats = field(default_factory=PimcStats)
    #: Worker processes sharing each decision's layouts (``workers`` of them, each with its own core solver, not
    #: ``solver``); the choice is the same without.
    pool: Executor | None = field(default=None, repr=False, compare=False)
    workers: int = 1
    #: The workers' table size (MiB; None: the default).
    tt_mb: int | None = None

    def __post_init__(self) -> None:
        check_int("samples", self.samples, 1, MAX_PIMC_SAMPLES)
        check_int("seed", self.seed, 0, 2**63 - 1)
        check_int("workers", self.workers, 1, 1024)
        if self.objective not in ("thirds", "payoff"):
            raise ParameterError("objective", self.objective, "unknown objective (use thirds or payoff)")

    def layouts(self, record: Record, state: PlayState) -> list[Layout]:
        """The layouts of the unseen cards this decision solves (a function of the seed and the position)."""
        view = view_of(record, state, state.to_move)
        rng = rng_for(self.seed, len(state.history))
        return [deal_layout(view, rng) for _ in range(self.samples)]

    def means(self, record: Record, state: PlayState) -> dict[Card, float]:
        """Each legal card's mean value over the layouts of this decision."""
        start = time.perf_counter()
        layouts = self.layouts(record, state)
        # late in a deal few layouts remain: a layout drawn again is solved once (the same values)
        distinct = list(dict.fromkeys(layouts))
        solved = dict(zip(distinct, self._solve(record, state, distinct)))
        totals: dict[Card, int] = {c: 0 for c in cards_of(state.legal())}
        for layout in layouts:
            for card, value in solved[layout].items():
                totals[card] += value
        self.stats.solved += len(distinct)
        self.stats.decisions += 1
        self.stats.layouts += self.samples
        self.stats.seconds += time.perf_counter() - start
        return {c: t / self.samples for c, t in totals.items()}

    def _solve(self, record: Record, state: PlayState, layouts: Sequence[Layout]) -> list[dict[Card, int]]:
        if self.pool is None or self.workers < 2 or len(layouts) < 2:
            solver = self.solver or default_solver()
            return [_values(_with_layout(state, h, m), record, solver, self.objective) for h, m in layouts]
        # interleaved shares keep the workers' loads alike; integer sums make the result the same for any split
        k = min(self.workers, len(layouts))
        tasks = [(record, state, layouts[i::k], self.objective, self.tt_mb) for i in range(k)]
        out: list[dict[Card, int]] = [{} for _ in layouts]
        for i, share in enumerate(self.pool.map(layout_values, tasks)):
            out[i::k] = share
        return out

    def choose(self, record: Record, state: PlayState) -> Card:
        legal = list(cards_of(state.legal()))
        if len(legal) == 1:
            return legal[0]
        return pick(self.means(record, state), state.to_move == state.soloist)


def layout_values(task: tuple[Record, PlayState, Sequence[Layout], Objective, int | None]) -> list[dict[Card, int]]:
    """Each layout's card values with this process's solver: a worker's share of a PIMC decision."""
    record, state, layouts, objective, tt_mb = task
    solver = engines.solver(tt_mb)
    return [_values(_with_layout(state, h, m), record, solver, objective) for h, m in layouts]


def _with_layout(state: PlayState, hands: Sequence[Mask], monte: Mask) -> PlayState:
    """``state`` with the hands and monte of a sampled layout (the tricks played stay)."""
    out = state.copy()
    out.hands = list(hands)
    out.monte = monte
    return out


@dataclass
class HeuristicPlayer:
    """A baseline that sees only its own hand and the trick.

    Leading: the highest card of its longest suit.  Following: the cheapest
    card that wins the trick when its side is not already winning it and the
    trick holds points (or the last trick is coming); otherwise the card worth
    least.  Void: it throws the card worth least when the other side wins
    the trick, and its most valuable card when its own side does.
    """

    name: str = "heuristic"

    def choose(self, record: Record, state: PlayState) -> Card:
        seat = state.to_move
        hand = state.hands[seat]
        legal = list(cards_of(legal_cards(hand, state.trick)))
        if len(legal) == 1:
            return legal[0]
        if not state.trick:
            suits = [sum(1 for c in cards_of(hand) if suit_of(c) == s) for s in range(4)]
            longest = max(range(4), key=lambda s: (suits[s], -s))
            return max((c for c in legal if suit_of(c) == longest), key=rank_of)
        led = suit_of(state.trick[0])
        winner = trick_winner(state.trick, state.leader)
        side = _side(seat, state.soloist)
        partner_wins = _side(winner, state.soloist) == side and winner != seat
        cheap = min(legal, key=lambda c: (card_thirds(c), rank_of(c)))
        if suit_of(legal[0]) != led:  # void: nothing here can win
            return max(legal, key=lambda c: (card_thirds(c), -rank_of(c))) if partner_wins else cheap
        best_on_table = max((c for c in state.trick if suit_of(c) == led), key=rank_of)
        winners = [c for c in legal if rank_of(c) > rank_of(best_on_table)]
        points = sum(card_thirds(c) for c in state.trick)
        last = len(state.tricks) == state.total_tricks - 1
        if winners and not partner_wins and (points or last or len(state.trick) == 2):
            return min(winners, key=rank_of)
        return cheap


def _side(seat: int, soloist: int) -> int:
    return 0 if seat == soloist else 1


def play_choice(state: PlayState, player: Player, card: Card) -> None:
    """Play ``player``'s choice for the seat to move: an illegal card is a bug of that player
    (an :class:`InternalError` naming it, the seat and the card), never a silent wrong play."""
    seat = state.to_move
    try:
        state.play(card)
    except IllegalPlayError as err:
        raise InternalError(f"player {player.name!r} (seat {seat}) chose a card it may not play: {err}") from None


def play_on(record: Record, players: Sequence[Player]) -> Iterator[Card]:
    """Play ``record`` on from its ``played`` point, ``players[s]`` choosing seat ``s``'s cards: each card
    once played, to the end of the deal (a caller wanting fewer stops asking)."""
    state = play_start(record, players)
    yield from _moves(record, players, state)


def play_out(record: Record, players: Sequence[Player]) -> PlayedDeal:
    """Play ``record`` from its ``played`` point to the end, ``players[s]`` choosing seat ``s``'s cards."""
    start = time.perf_counter()
    state = play_start(record, players)
    for _ in _moves(record, players, state):
        pass
    names = (players[0].name, players[1].name, players[2].name)
    return PlayedDeal(record.played_on(state), names, time.perf_counter() - start)


def play_start(record: Record, players: Sequence[Player]) -> PlayState:
    """The position a play-out starts from, once its record and players are checked."""
    check_record("record", record)
    if len(players) != 3:
        raise ParameterError("players", players, "needs one player per seat (3)")
    if record.needs_exchange:
        raise CalasolveError(f"{record.where()}: the exchange is incomplete; give it or let the exchange be searched first")
    return record.state()


def _moves(record: Record, players: Sequence[Player], state: PlayState) -> Iterator[Card]:
    """The players' cards from ``state`` to the end of the deal, each played on ``state`` before it is yielded."""
    while not state.is_over:
        player = players[state.to_move]
        card = player.choose(record, state)
        play_choice(state, player, card)
        yield card


__all__ = [
    "DEFAULT_PIMC_SAMPLES", "DoubleDummyPlayer", "HeuristicPlayer", "PimcPlayer", "PimcStats",
    "Player", "layout_values", "pick", "play_choice", "play_on", "play_out", "play_start",
]
