"""A match ledger: a session of scored deals with 3 or 4 players (docs/rules.md §2, §4, §8).

**Where everyone sits.**  Players are numbered by table position ``0..n-1``
going counter-clockwise, so player ``p + 1`` (mod n) sits on player ``p``'s
right.  The game moves counter-clockwise (``000_``: "sentido anti-horário";
``002_``: "da antihorario ... rota a la derecha"): each player hands the turn
to the player on their right.  For a deal with dealer ``d``:

- seat 0, the eldest hand, is the player to the dealer's right, ``d + 1``;
- seat 1 is ``d + 2`` and seat 2 is ``d + 3`` (mod n): with three players
  that is the dealer themself, with four it is the fourth player, while the
  dealer sits the hand out.

After each hand the deal passes to the right: the next dealer is ``d + 1``,
the seat 0 of the hand just played.  A void deal (all passed) passes the
deal on the same way, unless ``void_redeal=same_dealer``.

**When it ends.**  ``match=session9`` (standard): after 9 scored deals (void
deals do not count); the highest balance wins and exact ties share.
``match=target21`` / ``target31``: as soon as a scored deal leaves someone at
21 (31) or more; among several there, the highest balance wins, and if the
highest is tied the match goes on, one deal at a time, until after some deal
a single player is highest at or above the target.

>>> from calasolve.game.state import score
>>> m = Match(players=4, dealer=3)
>>> m.seats()                      # dealer 3 sits out, 0 is to their right
Seating(dealer=3, players=(0, 1, 2), sits_out=3)
>>> made_solo = score("solo", soloist_thirds=18, soloist_tricks=7,
...                   soloist_card_thirds=15, defender_card_thirds=17, soloist=0)
>>> m.record(made_solo).payments   # seat 0 = player 0 wins +4
(4, -2, -2, 0)
>>> m.seats()                      # the deal passed to the right: player 0 deals
Seating(dealer=0, players=(1, 2, 3), sits_out=0)
>>> m.balances, m.deals_scored, m.is_over
((4, -2, -2, 0), 1, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from .errors import MatchError
from .state import DealResult
from .rules import STANDARD, Rules

#: Scored deals in a ``session9`` match.
SESSION_DEALS = 9
#: The balance to reach in each target variant.
TARGETS = {"target21": 21, "target31": 31}


class Seating(NamedTuple):
    """Who plays a deal: the dealer, the players in seats 0, 1, 2, who sits out."""

    dealer: int
    players: tuple[int, int, int]
    sits_out: int | None


@dataclass(frozen=True)
class DealRecord:
    """One recorded deal: where everyone sat, its result (None: void) and
    what each player won, indexed by player."""

    seating: Seating
    result: DealResult | None
    payments: tuple[int, ...]

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DealRecord":
        """The deal of :meth:`to_dict`'s form: ``DealRecord.from_dict(r.to_dict()) == r``."""
        a, b, c = d["seats"]
        result = None if d["result"] is None else DealResult.from_dict(d["result"])
        return cls(Seating(d["dealer"], (a, b, c), d["sits_out"]), result, tuple(d["payments"]))

    def to_dict(self) -> dict[str, object]:
        return {
            "dealer": self.seating.dealer,
            "seats": list(self.seating.players),
            "sits_out": self.seating.sits_out,
            "void": self.result is None,
            "result": self.result.to_dict() if self.result else None,
            "payments": list(self.payments),
        }


class Match:
    """The ledger of a match; ``dealer`` is the first dealer's table position."""

    def __init__(self, players: int = 3, rules: Rules = STANDARD, dealer: int = 0) -> None:
        if players not in (3, 4):
            raise MatchError(f"a match has 3 or 4 players, not {players}")
        if not 0 <= dealer < players:
            raise MatchError(f"dealer {dealer}: table positions are 0..{players - 1}")
        self.players = players
        self.rules = rules
        #: the dealer of the next deal
        self.dealer = dealer
        self._balances = [0] * players
        self._history: list[DealRecord] = []

    @property
    def balances(self) -> tuple[int, ...]:
        """Each player's running balance, by table position."""
        return tuple(self._balances)

    @property
    def history(self) -> tuple[DealRecord, ...]:
        """Every deal recorded, void ones included, in order."""
        return tuple(self._history)

    @property
    def deals_scored(self) -> int:
        return sum(1 for rec in self._history if rec.result is not None)

    def seats(self) -> Seating:
        """Who deals, who sits in seats 0, 1, 2, and who sits out, for the next deal."""
        d, n = self.dealer, self.players
        players = ((d + 1) % n, (d + 2) % n, (d + 3) % n)
        return Seating(d, players, d if n == 4 else None)

    def record(self, result: DealResult | None) -> DealRecord:
        """Record the next deal's result (``None``: a void deal) and move the deal on."""
        if self.is_over:
            raise MatchError(f"the match is over (winners: {list(self.winners)}); no more deals")
        if result is not None and not isinstance(result, DealResult):
            raise MatchError(f"record a DealResult or None for a void deal, not {type(result).__name__}")
        seating = self.seats()
        payments = [0] * self.players
        if result is not None:
            for seat, player in enumerate(seating.players):
                payments[player] = result.payments[seat]
                self._balances[player] += result.payments[seat]
        rec = DealRecord(seating, result, tuple(payments))
        self._history.append(rec)
        if result is not None or self.rules.void_redeal == "next_dealer":
            self.dealer = (self.dealer + 1) % self.players
        return rec

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning players once the match is over (several on a session tie), else ()."""
        top = max(self._balances)
        leaders = tuple(p for p, bal in enumerate(self._balances) if bal == top)
        if self.rules.match == "session9":
            return leaders if self.deals_scored >= SESSION_DEALS else ()
        # Balances change only on scored deals, so looking at them now is
        # looking at them after the last scored deal.
        return leaders if top >= TARGETS[self.rules.match] and len(leaders) == 1 else ()

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Match":
        """The ledger of :meth:`to_dict`'s form as it stood: its players, rules, next dealer, balances and
        history as written (``deals_scored``, ``is_over`` and ``winners`` follow from them).  A ledger
        compares by identity: the one read back is another with the same state and the same JSON."""
        match = cls(d["players"], Rules.from_dict(d["rules"]), d["dealer"])
        balances = list(d["balances"])
        if len(balances) != match.players:
            raise MatchError(f"{len(balances)} balances for {match.players} players")
        match._balances = balances
        match._history = [DealRecord.from_dict(rec) for rec in d["history"]]
        return match

    def to_dict(self) -> dict[str, object]:
        return {
            "players": self.players,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "balances": list(self._balances),
            "deals_scored": self.deals_scored,
            "is_over": self.is_over,
            "winners": list(self.winners),
            "history": [rec.to_dict() for rec in self._history],
        }
