"""The auction (docs/rules.md §4): who becomes the soloist, and in which contract.

Calls are strings: ``pass`` or a contract name, case-insensitive.  Seats
speak in the order 0 → 1 → 2 (→ 0 in the open variant); a bid must be
strictly higher on the ladder than the highest bid so far.

- ``auction=single`` (standard): each seat speaks at most once, seat 0 first
  and the dealer, seat 2, last.  The highest bid wins.
- ``auction=open``: calls go round, skipping players who passed (they may not
  re-enter), until the two others have passed after the highest bid.  A
  pass made before any bid counts too: ``pass chiamo pass`` ends with seat 1,
  since seat 0 is out for good.
- ``aggravations=declared`` (standard): the ladder is chiamo < solo <
  solissimo and solissimo ends the auction at once (nothing can outbid it).
  Its winner may then aggravate it to ``dividete`` or ``scegliete``: the
  ``aggravation`` argument, which is not a call.
- ``aggravations=bids`` (``000_``): dividete and scegliete are ordinary bids
  above solissimo.  ``000_`` says only that each player has one chance to
  overbid a lower contract, so solissimo no longer ends the auction (it can
  still be outbid); scegliete, the top of the ladder, does.  The general
  rule in both variants: the top bid of the ladder ends the auction.

If every seat passes the deal is void (``result.void``); what happens to the
dealer then is the match's business (``void_redeal``, see :mod:`calasolve.game.match`).

>>> r = run_auction(["pass", "chiamo", "solo"])
>>> r.soloist, r.contract
(2, 'solo')
>>> r = run_auction("solissimo", aggravation="scegliete")   # solissimo ends it
>>> r.soloist, r.bid, r.contract
(0, 'solissimo', 'scegliete')
>>> run_auction("pass pass pass").void
True
>>> run_auction("solo chiamo")
Traceback (most recent call last):
...
calasolve.game.errors.AuctionError: call 2 'chiamo' by seat 1: a bid must be higher than solo (legal: pass, solissimo)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .errors import AuctionError
from .rules import STANDARD, Rules

PASS = "pass"
#: The bidding ladder, lowest first, for each ``aggravations`` variant.
LADDERS: dict[str, tuple[str, ...]] = {
    "declared": ("chiamo", "solo", "solissimo"),
    "bids": ("chiamo", "solo", "solissimo", "dividete", "scegliete"),
}
#: What a won solissimo may be aggravated to under ``aggravations=declared``.
AGGRAVATIONS = ("dividete", "scegliete")


@dataclass(frozen=True)
class AuctionResult:
    """The outcome: the soloist's seat, the winning bid and the contract played
    (the bid, or its aggravation), all ``None`` for a void deal."""

    soloist: int | None
    bid: str | None
    contract: str | None
    #: every call in order, as (seat, call)
    calls: tuple[tuple[int, str], ...]

    @property
    def void(self) -> bool:
        """All three passed: the deal is not played."""
        return self.soloist is None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "AuctionResult":
        """The outcome of :meth:`to_dict`'s form (other keys are ignored): ``AuctionResult.from_dict(a.to_dict()) == a``."""
        return cls(d["soloist"], d["bid"], d["contract"], tuple((seat, call) for seat, call in d["calls"]))

    def to_dict(self) -> dict[str, object]:
        return {
            "soloist": self.soloist,
            "bid": self.bid,
            "contract": self.contract,
            "void": self.void,
            "calls": [[seat, call] for seat, call in self.calls],
        }


class Auction:
    """An auction in progress, fed one call at a time.

    >>> a = Auction(Rules(auction="open"))
    >>> a.call("chiamo"); a.call("solo"); a.call("pass")
    >>> a.to_speak, a.legal_calls()          # seat 0 may outbid seat 1's solo
    (0, ['pass', 'solissimo'])
    >>> a.call("pass"); a.is_over, a.result().soloist
    (True, 1)
    """

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.rules = rules
        self.ladder = LADDERS[rules.aggravations]
        self.calls: list[tuple[int, str]] = []
        self.passed = [False, False, False]
        self.high: str | None = None
        self.high_seat: int | None = None
        #: the seat to call next, None once the auction is over
        self.to_speak: int | None = 0

    @property
    def is_over(self) -> bool:
        return self.to_speak is None

    def legal_calls(self) -> list[str]:
        """The calls the seat to speak may make (none once the auction is over)."""
        if self.is_over:
            return []
        start = self.ladder.index(self.high) + 1 if self.high else 0
        return [PASS, *self.ladder[start:]]

    def call(self, text: str, seat: int | None = None) -> None:
        """Make the next call; raises :class:`AuctionError`.

        ``seat``, if given, is who claims to speak: it must be the seat to speak.

        >>> a = Auction(); a.call("pass")
        >>> a.call("solo", seat=0)
        Traceback (most recent call last):
        ...
        calasolve.game.errors.AuctionError: call 2 'solo' by seat 0: seat 0 has passed and may not speak again
        """
        call = text.strip().lower()
        where = f"call {len(self.calls) + 1} {text.strip()!r}"
        if self.to_speak is None:
            raise AuctionError(f"{where}: the auction is over, no one may speak ({self._summary()})")
        if seat is not None and seat != self.to_speak:
            where += f" by seat {seat}"
            if seat in (0, 1, 2) and self.passed[seat]:
                raise AuctionError(f"{where}: seat {seat} has passed and may not speak again")
            raise AuctionError(f"{where}: out of turn, seat {self.to_speak} is to speak")
        seat = self.to_speak
        where += f" by seat {seat}"
        if call != PASS:
            if call not in self.ladder:
                if call in AGGRAVATIONS:
                    raise AuctionError(
                        f"{where}: {call} is not a bid under aggravations=declared; "
                        "win the auction with solissimo, then aggravate it"
                    )
                raise AuctionError(f"{where}: unknown call (use pass or {', '.join(self.ladder)})")
            if self.high and self.ladder.index(call) <= self.ladder.index(self.high):
                raise AuctionError(
                    f"{where}: a bid must be higher than {self.high} (legal: {', '.join(self.legal_calls())})"
                )
            self.high, self.high_seat = call, seat
        else:
            self.passed[seat] = True
        self.calls.append((seat, call))
        self.to_speak = self._next_speaker(seat)

    def _next_speaker(self, seat: int) -> int | None:
        if self.high == self.ladder[-1]:
            return None  # nothing can outbid the top of the ladder
        if self.rules.auction == "single":
            # Seats speak once each, in order, so the n-th call is seat n's.
            return len(self.calls) if len(self.calls) < 3 else None
        # Open: the next player who has not passed.  Reaching the highest
        # bidder again means both others passed after the bid.
        for step in (1, 2, 3):
            nxt = (seat + step) % 3
            if not self.passed[nxt]:
                return None if nxt == self.high_seat else nxt
        return None  # all three passed

    def _summary(self) -> str:
        if self.high_seat is None:
            return "all passed"
        return f"seat {self.high_seat} won with {self.high}"

    def result(self, aggravation: str | None = None) -> AuctionResult:
        """The result of the finished auction, with the soloist's optional aggravation."""
        if not self.is_over:
            raise AuctionError(
                f"the auction is not over: seat {self.to_speak} to speak (legal: {', '.join(self.legal_calls())})"
            )
        contract = self.high
        if aggravation is not None:
            agg = aggravation.strip().lower()
            if self.rules.aggravations != "declared":
                raise AuctionError(
                    f"aggravation {aggravation!r}: with aggravations=bids, "
                    "dividete and scegliete are bids, not aggravations"
                )
            if agg not in AGGRAVATIONS:
                raise AuctionError(f"aggravation {aggravation!r}: use dividete or scegliete")
            if self.high != "solissimo":
                raise AuctionError(
                    f"aggravation {aggravation!r}: only a won solissimo may be aggravated ({self._summary()})"
                )
            contract = agg
        return AuctionResult(self.high_seat, self.high, contract, tuple(self.calls))


def run_auction(
    calls: Iterable[str | tuple[int, str]] | str, rules: Rules = STANDARD, aggravation: str | None = None
) -> AuctionResult:
    """Run a whole auction from its calls and return its result.

    ``calls`` is a sequence of calls, each a string (made by the seat to
    speak) or a ``(seat, call)`` pair (checked to be that seat's turn), or one
    string of whitespace-separated calls.

    Raises :class:`AuctionError` on an illegal call (a bid not higher, a call
    after a pass or after the end), on calls that stop before the auction is
    over, and on an aggravation that is not allowed.

    >>> run_auction("chiamo pass solo pass", Rules(auction="open")).soloist
    2
    >>> run_auction("chiamo pass pass pass")
    Traceback (most recent call last):
    ...
    calasolve.game.errors.AuctionError: call 4 'pass': the auction is over, no one may speak (seat 0 won with chiamo)
    """
    if isinstance(calls, str):
        calls = calls.split()
    auction = Auction(rules)
    for call in calls:
        if isinstance(call, tuple):
            auction.call(call[1], seat=call[0])
        else:
            auction.call(call)
    return auction.result(aggravation)
