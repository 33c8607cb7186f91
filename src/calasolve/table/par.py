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

from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from ..game.auction import AGGRAVATIONS, Auction
from ..game.errors import CalasolveError
from ..game.rules import STANDARD, Rules
from ..types.table import Par, Payments

#: The table par reads: (soloist, contract) -> expected game points of seats 0, 1, 2.
GamePoints = Mapping[tuple[int, str], Sequence[int | float | Fraction]]

_NOBODY: Payments = (Fraction(0), Fraction(0), Fraction(0))


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

