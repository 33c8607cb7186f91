"""Random deals for data sets: the generator behind ``calasolve deal``.

Record ``i`` (counting from 0) is a function of the seed and ``i`` only
(:func:`calasolve.game.sampling.rng_for`), so a run is reproducible, any slice
of it can be made alone, and the records stream out one at a time.

The soloist is a given seat, a random one, or the strongest hand as dealt
by :func:`calasolve.game.cards.strength` (3s and 2s count 2, Aces 3, Re,
Cavallo and Fante 1; 0..40 for a hand; ties go to the lowest seat).  The
strength filter applies to the soloist's hand as dealt; deals outside it are
dealt again (from the same record's generator).

With ``played`` (``--played K``) the record stops K cards into a
double-dummy line.  A contract with an exchange first gets one, written in
the record (docs/rules.md §5): the double-dummy-best exchange
(:func:`calasolve.exchange.search.best_exchange`: the soloist's best call,
return and discards in chiamo and solo, the defenders' best split and
discards in scegliete); in dividete, where the takes are chance, the takes
are drawn uniformly (one of the 6 draws, from the record's generator) and
the defenders' discards are their double-dummy best for them.  The line
then starts at the first lead of the position after that exchange, so the
value at the stop is the value after the exchange.

>>> spec = DealSpec(contract="solissimo", soloist="strongest")
>>> a = list(generate_deals(spec, count=3, seed=7))
>>> a == list(generate_deals(spec, count=3, seed=7)), len(a)
(True, 3)
>>> all(strength(r.hands[r.soloist]) == max(strength(h) for h in r.hands) for r in a)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from ..game.cards import Mask, popcount, strength
from ..types.record import Record
from ..game.errors import CalasolveError, KnownCardsError
from ..game.exchange import Exchange
from ..exchange.search import best_exchange
from ..exchange.candidates import dividete_draws
from ..game.state import CONTRACTS, parse_contract
from ..game.rules import STANDARD, Rules
from ..game.sampling import check_known, deal_rest, rng_for
from ..search.engines import make_solver
from ..search.position import Position, solve_position

#: The highest hand strength (every 3, 2, A, R, C and F of the deck).
MAX_STRENGTH = 40
#: Deals tried for one record before the filter is declared unsatisfiable.
MAX_TRIES = 10_000
#: The cards of a whole deal's play.
PLAY_CARDS = 36
#: What ``--soloist`` takes besides a seat.
SOLOIST_CHOICES = ("random", "strongest")


@dataclass(frozen=True)
class DealSpec:
    """What to deal: ``contract`` a contract or ``"random"``; ``soloist`` a seat,
    ``"random"`` or ``"strongest"``; ``leader`` a seat or None (the rules' default);
    ``known`` pinned cards as from :func:`calasolve.game.sampling.parse_known`;
    ``played`` the cards of the double-dummy line already played."""

    contract: str = "solissimo"
    soloist: int | str = "random"
    leader: int | None = None
    known: Mapping[object, Mask] = field(default_factory=dict)
    min_strength: int = 0
    max_strength: int = MAX_STRENGTH
    played: int = 0
    rules: Rules = STANDARD

    def check(self) -> None:
        """A spec that cannot give a valid record is a :class:`CalasolveError`."""
        if self.contract != "random" and self.contract not in CONTRACTS:
            raise CalasolveError(f"--contract {self.contract!r}: not a contract ({', '.join(CONTRACTS)} or random)")
        if self.soloist not in SOLOIST_CHOICES and self.soloist not in (0, 1, 2):
            raise CalasolveError(f"--soloist {self.soloist!r}: a seat 0-2, random or strongest")
        if not 0 <= self.min_strength <= self.max_strength <= MAX_STRENGTH:
            raise CalasolveError(
                f"--min-strength {self.min_strength} --max-strength {self.max_strength}: "
                f"need 0 <= min <= max <= {MAX_STRENGTH}")
        if not 0 <= self.played < PLAY_CARDS:
            raise CalasolveError(f"--played {self.played}: between 0 and {PLAY_CARDS - 1} cards")
        if popcount(self.known.get(0, 0)) > 12:
            raise KnownCardsError(f"{popcount(self.known[0])} cards placed in seat 0, which holds 12")
        check_known(self.known.get(0, 0), 0, self.known)


def parse_soloist(text: str) -> int | str:
    """``--soloist``'s value: a seat or one of :data:`SOLOIST_CHOICES`.

    >>> parse_soloist("2"), parse_soloist("Strongest")
    (2, 'strongest')
    """
    text = text.strip().lower()
    return int(text) if text in ("0", "1", "2") else text


def _soloist(spec: DealSpec, hands: tuple[Mask, Mask, Mask], rng: Any) -> int:
    if spec.soloist == "strongest":
        powers = [strength(h) for h in hands]
        return powers.index(max(powers))
    if spec.soloist == "random":
        return int(rng.integers(3))
    return int(spec.soloist)


def deal_one(spec: DealSpec, seed: int, index: int, solver: Any = None) -> Any:
    """Record ``index`` of the run of ``seed`` (a :class:`~calasolve.types.record.Record`)."""
    rng = rng_for(seed, index)
    for _ in range(MAX_TRIES):
        hands, monte = deal_rest(spec.known.get(0, 0), 0, rng, spec.known)
        soloist = _soloist(spec, hands, rng)
        contract = CONTRACTS[int(rng.integers(len(CONTRACTS)))] if spec.contract == "random" else parse_contract(spec.contract)
        if spec.min_strength <= strength(hands[soloist]) <= spec.max_strength:
            break
    else:
        raise CalasolveError(
            f"no deal in {MAX_TRIES} tries has the soloist's strength in "
            f"{spec.min_strength}..{spec.max_strength}: widen the range (or change --known/--soloist)")
    record = Record(hands=hands, monte=monte, contract=contract, soloist=soloist, leader=spec.leader,
                    rules=spec.rules, name=f"seed {seed} deal {index + 1}")
    if spec.played:
        record = with_exchange(record, rng, solver)
        line = solve_position(Position.from_record(record, solver=solver), all_cards=False).line
        record = record.with_(played=tuple(line[: spec.played]))
    return record


def with_exchange(record: Any, rng: Any, solver: Any = None) -> Any:
    """``record`` with a complete exchange: the double-dummy best, in dividete for
    takes drawn by ``rng`` (see the module doc); a solissimo as it is.

    >>> from calasolve.exchange.search import dividete_draws
    >>> r = deal_one(DealSpec(contract="dividete"), 2, 0)
    >>> done = with_exchange(r, rng_for(2, 0))
    >>> r.needs_exchange, done.needs_exchange, done.exchange.takes in dividete_draws(r.monte, r.soloist)
    (True, False, True)
    """
    if not record.needs_exchange:
        return record
    if record.contract == "dividete" and record.exchange.takes is None:
        draws = dividete_draws(record.monte, record.soloist)
        record = record.with_(exchange=Exchange(takes=draws[int(rng.integers(len(draws)))]))
    return record.with_(exchange=best_exchange(record, solver=solver, top=1).exchange)


def generate_deals(spec: DealSpec, *, count: int, seed: int, solver: Any = None, start: int = 0) -> Iterator[Any]:
    """``count`` records of the run of ``seed`` from record ``start``, one at a time."""
    spec.check()
    if spec.played and solver is None:
        solver = make_solver()
    for index in range(start, start + count):
        yield deal_one(spec, seed, index, solver)
