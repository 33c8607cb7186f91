"""Par: the auction's outcome when every player sees all cards (docs/rules.md §9).

Given each seat's expected game points for every (soloist, contract) pair of
a deal, the double-dummy table, :func:`par` plays the auction of
docs/rules.md §4 by backward induction: at each turn the player to speak
makes the call that leads to the most game points *for themselves*, knowing
that every later player does the same.  A won solissimo under
``aggravations=declared`` is followed by its winner's choice of keeping it or
aggravating it to dividete or scegliete, the same way.

Ties go to the least committing call: pass before any bid, a lower bid before
a higher one, and solissimo kept before an aggravation.  Game points are
exact fractions (dividete's are means over six draws), so ties are exact.

>>> from calasolve.game.state import CONTRACTS, payments
>>> gp = {(s, c): payments(c, s, False, 1) for s in range(3) for c in CONTRACTS}
>>> par(gp).void                      # every contract fails: everyone passes
True
>>> gp[(1, "solo")] = payments("solo", 1, True, 1)      # but seat 1 makes a solo
>>> p = par(gp)
>>> p.soloist, p.contract, p.calls, [str(x) for x in p.payments]
(1, 'solo', ((0, 'pass'), (1, 'solo'), (2, 'pass')), ['-2', '4', '-2'])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from ..game.auction import AGGRAVATIONS, Auction, AuctionResult
from ..game.errors import CalasolveError
from ..game.rules import STANDARD, Rules

#: Expected game points of seats 0, 1, 2.
Payments = tuple[Fraction, Fraction, Fraction]
#: The table par reads: (soloist, contract) -> expected game points of seats 0, 1, 2.
GamePoints = Mapping[tuple[int, str], Sequence[int | float | Fraction]]

_NOBODY: Payments = (Fraction(0), Fraction(0), Fraction(0))


@dataclass(frozen=True)
class Par:
    """The par outcome: the par auction (who becomes soloist in which contract) and the game points.

    ``bid`` is the winning bid and ``contract`` what is played (a solissimo's
    aggravation under ``aggravations=declared``); all three are ``None`` when
    every seat passes.  ``calls`` is the par auction, as (seat, call) pairs.
    """

    auction: AuctionResult
    payments: Payments

    @property
    def soloist(self) -> int | None:
        return self.auction.soloist

    @property
    def bid(self) -> str | None:
        return self.auction.bid

    @property
    def contract(self) -> str | None:
        return self.auction.contract

    @property
    def calls(self) -> tuple[tuple[int, str], ...]:
        return self.auction.calls

    @property
    def void(self) -> bool:
        return self.auction.void

    def text(self) -> str:
        """The par in words.

        >>> from calasolve.game.auction import run_auction
        >>> Par(run_auction("pass solo pass"), (Fraction(-2), Fraction(4), Fraction(-2))).text()
        'par: seat 1 plays solo (seat 0 pass, seat 1 solo, seat 2 pass); game points -2 +4 -2'
        """
        calls = ", ".join(f"seat {seat} {call}" for seat, call in self.calls)
        if self.void:
            return f"par: all pass ({calls}); nothing is scored"
        raised = f", aggravated to {self.contract}" if self.contract != self.bid else ""
        points = " ".join(signed(p) for p in self.payments)
        return f"par: seat {self.soloist} plays {self.contract} ({calls}{raised}); game points {points}"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Par":
        """The par of :meth:`to_dict`'s form, such that ``to_dict`` gives ``d`` back; equal to the par it
        was made of when its game points are fractions of denominator up to a million (a table's are
        means over at most six draws), as the JSON has them as decimals."""
        a, b, c = (_fraction(x) for x in d["game_points"])
        return cls(AuctionResult.from_dict(d), (a, b, c))

    def to_dict(self) -> dict[str, object]:
        """The auction's JSON (:meth:`~calasolve.game.auction.AuctionResult.to_dict`) and the ``game_points``."""
        return {**self.auction.to_dict(), "game_points": [float(p) for p in self.payments]}


def _fraction(x: float) -> Fraction:
    """The fraction a decimal was written from: the simplest near it that gives it back (16/3 for 5.333...)."""
    near = Fraction(x).limit_denominator(1_000_000)
    return near if float(near) == x else Fraction(x)


def fraction_text(x: Fraction) -> str:
    """A whole number as it is, another to one decimal: ``4``, ``5.3``."""
    return str(int(x)) if x.denominator == 1 else f"{float(x):.1f}"


def signed(x: Fraction) -> str:
    """Game points with their sign: ``+4``, ``-2``, ``0``."""
    return ("+" if x > 0 else "") + fraction_text(x)


def check_table(entries: Iterable[tuple[int, str]], rules: Rules = STANDARD) -> None:
    """The error :func:`par` gives for a table that has only ``entries`` (soloist, contract), raised
    before their game points are read: the entries par reads, and their order, do not depend on them."""
    par(dict.fromkeys(entries, _NOBODY), rules)


def _payments(game_points: GamePoints, soloist: int, contract: str) -> Payments:
    try:
        row = game_points[(soloist, contract)]
    except KeyError:
        raise CalasolveError(f"par: the table has no entry for seat {soloist} in {contract}") from None
    a, b, c = (Fraction(x) for x in row)
    return a, b, c


def par(game_points: GamePoints, rules: Rules = STANDARD) -> Par:
    """The par outcome of a deal from its game points (see the module doc).

    ``game_points[(s, c)]`` are the game points of seats 0, 1, 2 when seat
    ``s`` plays contract ``c``; every contract of the ``aggravations``
    variant's ladder (and the aggravations under ``declared``) is needed for
    each seat.
    """
    memo: dict[tuple[object, ...], tuple[tuple[tuple[int, str], ...], Payments, str | None]] = {}

    def finish(auction: Auction) -> tuple[Payments, str | None]:
        seat, bid = auction.high_seat, auction.high
        if seat is None or bid is None:
            return _NOBODY, None
        options: list[str] = [bid]
        if rules.aggravations == "declared" and bid == "solissimo":
            options += AGGRAVATIONS
        best = max(options, key=lambda c: (_payments(game_points, seat, c)[seat], -options.index(c)))
        return _payments(game_points, seat, best), best

    def rest(auction: Auction) -> tuple[tuple[tuple[int, str], ...], Payments, str | None]:
        """The remaining par calls from this point, their game points and the contract played."""
        key = (auction.high, auction.high_seat, tuple(auction.passed), auction.to_speak)
        if key in memo:
            return memo[key]
        if auction.is_over:
            payments, contract = finish(auction)
            out: tuple[tuple[tuple[int, str], ...], Payments, str | None] = ((), payments, contract)
        else:
            seat = auction.to_speak
            assert seat is not None
            best: tuple[tuple[tuple[int, str], ...], Payments, str | None] | None = None
            for call in auction.legal_calls():  # pass first, then the bids upwards: ties keep the earlier
                after = _replay(auction, call)
                calls, payments, contract = rest(after)
                if best is None or payments[seat] > best[1][seat]:
                    best = (((seat, call), *calls), payments, contract)
            assert best is not None
            out = best
        memo[key] = out
        return out

    calls, payments, contract = rest(Auction(rules))
    final = _replay_all(rules, calls)
    return Par(final.result(contract if contract != final.high else None), payments)


def _replay(auction: Auction, call: str) -> Auction:
    after = _replay_all(auction.rules, auction.calls)
    after.call(call)
    return after


def _replay_all(rules: Rules, calls: Sequence[tuple[int, str]]) -> Auction:
    auction = Auction(rules)
    for _, call in calls:
        auction.call(call)
    return auction

