"""The defenders' ``sampled`` exchange policy (dividete, scegliete): each defender chooses with
what it sees, as the soloist's ``sampled`` policy does (:mod:`calasolve.advice.policies`).

* **Dividete.**  The 2 + 2 draw of the monte is blind: :func:`~calasolve.advice.policies.random_draw`
  from the sample's generator, the same draw as under the other defender policies.  Then each
  defender, seeing its own 14 cards and nothing else, takes a few discard pairs by a static
  estimate (:func:`defender_keep_score`: keep high cards, sure tricks and the low cards that guard
  a point card; throw low cards; a short suit may be emptied) and keeps the one under which the
  soloist makes 18 thirds in the fewest re-deals of the 26 cards it cannot see (12 to the
  soloist, 14 to its partner, who discards its own statically best pair in each re-deal).
* **Scegliete.**  The monte is face up.  The split is agreed between two proposals: each
  defender proposes the split that beats the contract most often in its own re-deals of the
  24 cards it cannot see (both defenders' discards by the static estimate), among its plain
  split (each monte card to itself when it holds at least as many of the card's suit as its
  partner holds on average, half the unseen ones; else to the partner) and the same with one of
  its least clear cards going the other way.  The defenders agree on the proposal that made
  fewer in its proposer's re-deals (ties: the first defender's, the one after the soloist): the
  defender who expects more from its split has its way.  Then each defender discards as many
  as it took, chosen as in dividete, knowing what its partner took (face up).

Every choice reads only the choosing defender's knowledge: its hand, its takes, the monte when
it was face up and its partner's takes then.  The re-deals come from the sample's generator
(after dividete's draw), each decision from its own stream, so the exchange is reproducible
and no decision's re-deals depend on another's.  A choice costs at most candidates x re-deals
null-window searches at 18 thirds (:func:`fewest_makes` stops a candidate once it cannot beat
the best so far).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..game.cards import (
    FULL_DECK, MAKE_THIRDS, RANK_THIRDS, SUIT_MASKS, Card, Mask, cards_of, last_trick_bonus, mask_of, mask_thirds, popcount,
)
from ..game.errors import CalasolveError
from ..game.exchange import Exchange, Hands
from ..game.rules import Rules
from ..game.state import Contract, defender_seats, first_leader
from ..game.defaults import DEFAULT_CANDIDATES, DEFAULT_REDEALS
from .policies import discard_candidates, keep_score, random_draw

__all__ = [
    "defender_keep_score", "defender_discard_choices", "fewest_makes", "propose_split", "sampled_defender_discards",
    "sampled_defender_exchange", "split_candidates", "static_discards",
]

#: What guarding a point card adds to a low card's keep score (a low card scores 0-3, an ace 19).
GUARD_BONUS = 6
#: How many discard sets, best first by the estimate, are screened for ``candidates`` distinct ones.
_POOL_FACTOR = 8
#: The decisions of one exchange, each with its own stream: dividete uses the first two.
_STREAMS = 4


def defender_keep_score(card: Card, mine: Mask) -> int:
    """How much a defender wants to keep ``card``: :func:`~calasolve.advice.policies.keep_score`
    (rank, thirds, a sure trick) plus :data:`GUARD_BONUS` for a guard.  A point card that is not
    a sure trick needs as many cards below it as there are higher cards out (to follow with when
    they are led); the lowest cards of the suit, as many as its most exposed point card needs
    and has, are its guards.

    >>> from calasolve.game.cards import parse_card, parse_cards_or_hand
    >>> hand = parse_cards_or_hand("A54.-.-.7")          # the ace of bastoni, 3 and 2 out
    >>> [defender_keep_score(parse_card(c), hand) for c in ("AB", "5B", "4B", "7D")]
    [19, 7, 6, 3]
    """
    base = keep_score(card, mine)
    suit = card // 10
    held = [r for r in range(10) if mine >> (suit * 10 + r) & 1]  # low to high
    need = 0
    for i, r in enumerate(held):
        if not RANK_THIRDS[r]:
            continue
        higher_out = sum(1 for q in range(r + 1, 10) if not mine >> (suit * 10 + q) & 1)
        need = max(need, min(higher_out, i))  # i: the cards held below it
    return base + (GUARD_BONUS if card % 10 in held[:need] else 0)


def static_discards(hand: Mask, n: int) -> Mask:
    """The ``n`` discards a defender makes by the static estimate alone (0 for none): how a
    defender's re-deals have its partner discard."""
    if n == 0:
        return 0
    return discard_candidates(hand, n, 1, keep=defender_keep_score)[0]


def _signature(kept: Mask, partner: Mask, discards: Mask) -> tuple[Any, ...]:
    """What a defender's discards leave in play, up to equivalent cards: per suit, high to low,
    who holds each card still in play (the defender, its partner as known, or unknown) and its
    thirds; and the thirds discarded.  Equal signatures score the same in every re-deal."""
    sig: list[Any] = [mask_thirds(discards)]
    for u in range(4):
        row = []
        for card in range(u * 10 + 9, u * 10 - 1, -1):
            if discards >> card & 1:
                continue
            who = "D" if kept >> card & 1 else "P" if partner >> card & 1 else "U"
            row.append((who, RANK_THIRDS[card % 10]))
        sig.append(tuple(row))
    return tuple(sig)


def defender_discard_choices(mine: Mask, partner_known: Mask, n: int, count: int) -> list[Mask]:
    """The ``count`` best discard sets of ``n`` cards from ``mine`` by the static estimate, no
    two equivalent (a set equivalent to a better one would score the same in every re-deal)."""
    out: list[Mask] = []
    seen: set[tuple[Any, ...]] = set()
    for discards in discard_candidates(mine, n, count * _POOL_FACTOR, keep=defender_keep_score):
        sig = _signature(mine & ~discards, partner_known, discards)
        if sig not in seen:
            seen.add(sig)
            out.append(discards)
            if len(out) == count:
                break
    return out


def _worlds(
    unknown: Mask, soloist: int, partner: int, partner_known: Mask, partner_unknown: int, redeals: int,
    rng: np.random.Generator,
) -> list[list[Mask]]:
    """``redeals`` deals of the ``unknown`` cards: ``partner_unknown`` of them to the partner
    (besides the ``partner_known`` cards), the rest to the soloist; 0 for the chooser's seat."""
    pool = np.array(list(cards_of(unknown)), dtype=np.int64)
    worlds = []
    for _ in range(redeals):
        order = rng.permutation(pool)
        world = [0, 0, 0]
        world[partner] = partner_known | mask_of(int(c) for c in order[:partner_unknown])
        world[soloist] = mask_of(int(c) for c in order[partner_unknown:])
        worlds.append(world)
    return worlds


Position = tuple[Hands, int]


def fewest_makes(choices: Sequence[Sequence[Position]], leader: int, soloist: int, solver: Any) -> tuple[int, int]:
    """The index of the choice under which the soloist reaches 18 thirds in the fewest worlds
    (``choices[i][w]``: the hands and the last-trick bonus of choice i in world w), and that
    count; ties: the first, the better estimate.

    The defenders' mirror of :func:`~calasolve.advice.policies.most_makes`: a challenger is out
    as soon as it has made as many worlds as the best so far, so it meets first the worlds where
    the best made, in batches of :func:`calasolve.search._core.reaches_batch` no longer than the
    makes it can still afford (a batch stops at failures, not at makes): it is never tested
    past the point where it is out.  The first choice is tested in full, and so is every choice
    that wins; nothing beats a choice that made nowhere.
    """
    best, best_index = -1, 0
    best_made: list[bool] = []
    for index, positions in enumerate(choices):
        if best == 0:
            break
        n = len(positions)
        order = sorted(range(n), key=lambda w: not best_made[w]) if best_made else list(range(n))
        made = [False] * n
        makes = tested = 0
        while tested < n:
            size = n - tested if best < 0 else best - makes
            chunk = order[tested : tested + size]
            results, _ = solver.reaches_batch(
                [positions[w][0] for w in chunk], [positions[w][1] for w in chunk], leader, soloist, MAKE_THIRDS, 0
            )
            for w, r in zip(chunk, results):
                made[w] = r == 1
            makes += sum(r == 1 for r in results)
            tested += len(chunk)
            if 0 <= best <= makes:
                break
        if best < 0 or makes < best:
            best, best_index, best_made = makes, index, made
    return best_index, best


def _position(hands: list[Mask], discards: Mask) -> Position:
    return (hands[0], hands[1], hands[2]), last_trick_bonus(discards)


def sampled_defender_discards(
    mine: Mask, n: int, seat: int, soloist: int, leader: int, solver: Any, rng: np.random.Generator, *,
    partner: tuple[Mask, int], candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS,
) -> Mask:
    """The ``n`` discards of the defender at ``seat`` holding ``mine`` (its hand and its takes), by
    the fewest soloist makes over ``redeals`` re-deals of the cards it cannot see.

    ``partner`` is what the defender knows of its partner's takes: the cards when it saw them
    (scegliete), else 0, and how many it took (and so discards).  In each re-deal the
    partner holds 12 cards and its takes (the known ones among them) and discards by the
    static estimate (:func:`static_discards`); the soloist holds the other 12.
    """
    if n == 0:
        return 0
    partner_known, partner_takes = partner
    choices = defender_discard_choices(mine, partner_known, n, candidates)
    if len(choices) == 1:
        return choices[0]
    other = 3 - seat - soloist
    unknown = FULL_DECK & ~mine & ~partner_known
    worlds = _worlds(unknown, soloist, other, partner_known, 12 + partner_takes - popcount(partner_known), redeals, rng)
    theirs = [static_discards(w[other], partner_takes) for w in worlds]
    table = []
    for discards in choices:
        row = []
        for w, pd in zip(worlds, theirs):
            h = list(w)
            h[seat] = mine & ~discards
            h[other] &= ~pd
            row.append(_position(h, discards | pd))
        table.append(row)
    return choices[fewest_makes(table, leader, soloist, solver)[0]]


def split_candidates(mine: Mask, monte: Mask, count: int) -> list[Mask]:
    """A defender's candidate takes in scegliete, as it sees them (its hand ``mine`` and the face-up
    ``monte``): its plain split first, each monte card to itself when it holds at least as many of
    the card's suit as its partner holds on average (half the unseen ones), then the same with one
    card going the other way, least clear first (the smallest difference of lengths).

    >>> from calasolve.game.cards import hand_name, parse_cards_or_hand
    >>> mine = parse_cards_or_hand("32AR7.CF6.5.654")   # long in bastoni, 3 of 7 spade and denari left
    >>> [hand_name(t) for t in split_candidates(mine, parse_cards_or_hand("C.3.7.A"), 3)]
    ['C.3.-.A', 'C.-.-.A', 'C.3.-.-']
    """
    unseen = FULL_DECK & ~mine & ~monte
    plain = 0
    clarity = []
    for c in cards_of(monte):
        suit = SUIT_MASKS[c // 10]
        margin = popcount(mine & suit) - popcount(unseen & suit) / 2
        if margin >= 0:
            plain |= 1 << c
        clarity.append((abs(margin), c))
    out = [plain]
    for _, c in sorted(clarity):
        if len(out) >= count:
            break
        out.append(plain ^ (1 << c))
    return out


def propose_split(
    mine: Mask, monte: Mask, seat: int, soloist: int, leader: int, solver: Any, rng: np.random.Generator, *,
    candidates: int = DEFAULT_CANDIDATES, redeals: int = DEFAULT_REDEALS,
) -> tuple[Mask, int]:
    """The scegliete takes the defender at ``seat`` proposes for itself (its partner takes the rest
    of the monte) and the re-deals it made in: among :func:`split_candidates`, the fewest soloist
    makes over ``redeals`` re-deals of the 24 cards it cannot see, both defenders discarding by the
    static estimate."""
    partner = 3 - seat - soloist
    options = split_candidates(mine, monte, candidates)
    worlds = _worlds(FULL_DECK & ~mine & ~monte, soloist, partner, 0, 12, redeals, rng)
    table = []
    for takes in options:
        given = monte & ~takes
        md = static_discards(mine | takes, popcount(takes))
        row = []
        for w in worlds:
            pd = static_discards(w[partner] | given, popcount(given))
            h = list(w)
            h[seat] = (mine | takes) & ~md
            h[partner] = (w[partner] | given) & ~pd
            row.append(_position(h, md | pd))
        table.append(row)
    index, makes = fewest_makes(table, leader, soloist, solver)
    return options[index], makes


def sampled_defender_exchange(
    hands: Hands, monte: Mask, contract: Contract, soloist: int, rules: Rules, solver: Any,
    rng: np.random.Generator, *, takes: Hands | None = None, candidates: int = DEFAULT_CANDIDATES,
    redeals: int = DEFAULT_REDEALS,
) -> Exchange:
    """The defenders' exchange under the ``sampled`` policy (see the module doc).  ``takes`` is
    dividete's draw (drawn from ``rng`` when not given) or a scegliete split already agreed (agreed
    here when not given)."""
    if contract not in ("dividete", "scegliete"):
        raise CalasolveError(f"{contract}: the defenders exchange only in dividete and scegliete")
    leader = first_leader(contract, soloist, rules)
    first, second = defender_seats(soloist)
    if contract == "dividete" and takes is None:
        takes = random_draw(monte, soloist, rng)
    streams = [np.random.default_rng(int(s)) for s in rng.integers(0, 2**63 - 1, size=_STREAMS)]
    kw = dict(candidates=candidates, redeals=redeals)
    if takes is None:
        mine_a, made_a = propose_split(hands[first], monte, first, soloist, leader, solver, streams[2], **kw)
        mine_b, made_b = propose_split(hands[second], monte, second, soloist, leader, solver, streams[3], **kw)
        split = [0, 0, 0]
        split[first], split[second] = (mine_a, monte & ~mine_a) if made_a <= made_b else (monte & ~mine_b, mine_b)
        takes = (split[0], split[1], split[2])
    assert takes is not None
    discards = [0, 0, 0]
    for i, seat in enumerate((first, second)):
        partner = second if seat == first else first
        seen = takes[partner] if contract == "scegliete" else 0
        discards[seat] = sampled_defender_discards(
            hands[seat] | takes[seat], popcount(takes[seat]), seat, soloist, leader, solver, streams[i],
            partner=(seen, popcount(takes[partner])), **kw,
        )
    return Exchange(takes=takes, discards=(discards[0], discards[1], discards[2]))
