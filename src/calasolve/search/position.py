"""A position to step through card by card, with double-dummy values on demand.

:class:`Position` is the teaching and study interface: build it from a deal
record, ask for the value of every legal card, play one, undo, and so on to
the end.  All calls share one solver and its transposition table, so each
step after the first is cheap.

>>> from calasolve.records.dealfile import parse_deal_text
>>> text = '''
... hands: 32AR.32A.32A.32 7654.765.765.76 CF.RCF4.RCF4.RC
... monte: -.-.-.AF54
... contract: solissimo
... soloist: 0
... '''
>>> pos = Position.from_record(parse_deal_text(text)[0])
>>> pos.to_move, pos.value()
(0, 35)
>>> pos.play("3B"); pos.play("7B"); pos.play("CB")
>>> pos.to_move, len(pos.history)
(0, 3)
>>> pos.undo()
'CB'
>>> result = solve_position(pos)              # the same as pos.solve()
>>> result.soloist_thirds, result.to_move, result.name
(35, 2, None)
"""

from __future__ import annotations

from ..game.cards import Card, card_name, cards_of, parse_card
from ..types.record import Record, check_record
from ..game.errors import CalasolveError, ParameterError
from ..game.state import CONTRACTS, Contract, DealResult, PlayState, core_position
from ..game.limits import check_instance
from ..game.rules import STANDARD, Rules
from .engines import CoreSolver
from ..types.solution import CardValues, Objective, SolveResult
from .solving import Labels, SolveOptions, check_solver, default_solver, final_card_values, solve_state
from ..game.notation import notation, position_block

__all__ = ["Position", "solve_position"]


class Position:
    """A deal in play with double-dummy values; see the module doc.

    The one position type: a :class:`~calasolve.types.record.Record` is data (a deal as
    written), a position is state (the play so far, to step through and solve).  Make one with
    :meth:`from_record`, or from a bare :class:`~calasolve.game.state.PlayState` with its
    ``contract`` (None: unknown, so no payoff and no :meth:`result`) and ``rules``; ``name`` and
    ``record`` label its results.
    """

    def __init__(
        self,
        state: PlayState,
        *,
        contract: Contract | None = None,
        rules: Rules = STANDARD,
        solver: CoreSolver | None = None,
        name: str | None = None,
        record: int | None = None,
    ) -> None:
        check_instance("state", state, PlayState, "a PlayState")
        state.check("state")
        if contract is not None and (not isinstance(contract, str) or contract not in CONTRACTS):
            raise ParameterError("contract", contract, f"unknown contract (use {', '.join(CONTRACTS)})")
        check_instance("rules", rules, Rules, "a Rules")
        check_solver("solver", solver)
        self.state = state
        self.contract = contract
        self.rules = rules
        self.solver = solver or default_solver()
        self.name = name
        self.record = record

    @classmethod
    def from_record(cls, record: Record, *, solver: CoreSolver | None = None) -> "Position":
        """The position a record's ``played:`` line reaches (its exchange must be complete)."""
        check_record("record", record)
        if record.needs_exchange:
            raise CalasolveError("the record's exchange is not complete: calasolve.solve searches it first")
        return cls(record.state(), contract=record.contract, rules=record.rules, solver=solver, name=record.name,
                   record=record.index)

    @property
    def labels(self) -> Labels:
        """What this position's results say of it."""
        return Labels(self.contract, self.rules, self.name, self.record)

    # -- state -------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat to play, or None when the deal is over."""
        return None if self.state.is_over else self.state.to_move

    @property
    def history(self) -> list[Card]:
        return list(self.state.history)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, in id order."""
        return list(cards_of(self.state.legal()))

    # -- moves -----------------------------------------------------------------
    def play(self, card: Card | str) -> None:
        """Play a card (an id or a token such as ``'3B'``) for the player to move."""
        self.state.play(parse_card(card) if isinstance(card, str) else card)

    def undo(self) -> str:
        """Take back the last card; returns its token."""
        return card_name(self.state.undo())

    # -- values ----------------------------------------------------------------
    def value(self) -> int:
        """The soloist's final thirds under best play from here."""
        if self.state.is_over:
            return self.state.captured[self.state.soloist]
        captured = self.state.captured[self.state.soloist]
        return captured + self.solver.value(*core_position(self.state))

    def values(self) -> CardValues:
        """Each legal card's value (the soloist's final thirds if it is played now), best first,
        keyed like :attr:`SolveResult.cards <calasolve.search.solving.SolveResult>` (card ids; tokens look up too)."""
        if self.state.is_over:
            return CardValues()
        values = final_card_values(self.solver, self.state)
        return CardValues.ordered(values, maximise=self.state.to_move == self.state.soloist)

    def __repr__(self) -> str:
        st = self.state
        where = "over" if st.is_over else f"seat {st.to_move} to play"
        played = " ".join(card_name(c) for c in st.history) or "-"
        return f"<Position {self.contract or 'deal'} for seat {st.soloist}: {where}, played {played}>"

    def __str__(self) -> str:
        """The hands still held around the table, the cards on the table and the monte."""
        return "\n".join([f"{self.contract or 'deal'} for seat {self.state.soloist}"]
                         + position_block(self.state, notation()))

    def solve(self, *, target: int | None = None, all_cards: bool = True, line: bool = True,
              objective: Objective = "thirds") -> SolveResult:
        """The full :func:`solve_position` answer for this position, with its own solver."""
        return solve_position(self, target=target, all_cards=all_cards, line=line, objective=objective)

    def result(self) -> DealResult:
        """The score of the finished deal."""
        if not self.state.is_over:
            raise CalasolveError("the deal is not over yet: result() needs all 12 tricks played")
        if self.contract is None:
            raise CalasolveError("the position has no contract: result() needs one to score the deal")
        return self.state.result(self.contract, self.rules)


def solve_position(
    position: Position,
    *,
    target: int | None = None,
    all_cards: bool = True,
    line: bool = True,
    objective: Objective = "thirds",
    solver: CoreSolver | None = None,
) -> SolveResult:
    """Solve ``position`` double-dummy: its value, every legal card's and one best line.

    ``target`` (final thirds, 0..35) asks only "does the soloist reach it?";
    ``all_cards=False`` skips the per-card values; ``line=False`` skips the line;
    ``objective="payoff"`` plays for game points (the position needs its contract).
    ``solver``: the position's own when None.  A record whose exchange is missing is
    :func:`calasolve.solve`'s, which searches the exchange first.
    """
    options = SolveOptions(target, all_cards, line, objective)
    check_solver("solver", solver)
    check_instance("position", position, Position, "a Position (Position.from_record(record) for a record)")
    return solve_state(position.state, position.labels, options, solver or position.solver)
