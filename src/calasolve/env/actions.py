"""The environment's one discrete action space (docs/env.md#actions): 62 actions for every decision.

=========  ==========================================================================
action     meaning
=========  ==========================================================================
0..39      a card id (:mod:`calasolve.game.cards`): chiamo's call, the card returned,
           a discard (one card at a time), a card played; chance: a card dealt or drawn
40         pass (the auction)
41..45     a contract, chiamo .. scegliete: a bid, or the winner of a solissimo
           declaring what it plays (solissimo, dividete or scegliete)
46..61     scegliete's split: bit ``i`` of ``action - 46`` set gives the ``i``-th lowest
           monte card to the first defender (the seat after the soloist), clear to the other
=========  ==========================================================================

>>> action_name(3), action_name(PASS), action_name(bid_action("solo")), action_name(SPLIT_BASE + 0b0011)
('7B', 'pass', 'solo', 'split 1122')
>>> action_contract(45), NUM_ACTIONS
('scegliete', 62)
"""

from __future__ import annotations

from ..game.cards import NUM_CARDS, Mask, card_name, cards_of
from ..game.state import CONTRACTS, Contract

__all__ = [
    "BID_BASE", "NUM_ACTIONS", "PASS", "SPLIT_BASE", "SPLITS", "action_contract", "action_name", "bid_action", "is_card", "split_action",
]

#: The auction's pass.
PASS = NUM_CARDS
#: ``BID_BASE + i`` is the ``i``-th contract of :data:`calasolve.game.state.CONTRACTS`, lowest first.
BID_BASE = PASS + 1
#: ``SPLIT_BASE + k``: scegliete's split ``k`` (see the module doc).
SPLIT_BASE = BID_BASE + len(CONTRACTS)
#: How many ways the 4 monte cards can be shared between the two defenders.
SPLITS = 16
NUM_ACTIONS = SPLIT_BASE + SPLITS


def is_card(action: int) -> bool:
    """The action is a card id."""
    return 0 <= action < NUM_CARDS


def bid_action(contract: str) -> int:
    """The action that bids (or declares) ``contract``.

    >>> bid_action("chiamo"), bid_action("scegliete")
    (41, 45)
    """
    return BID_BASE + CONTRACTS.index(contract)


def action_contract(action: int) -> Contract | None:
    """The contract a bid action names, None for any other action."""
    if BID_BASE <= action < SPLIT_BASE:
        return CONTRACTS[action - BID_BASE]
    return None


def split_action(monte: Mask, takes: Mask) -> int:
    """Scegliete's split action giving the first defender ``takes`` of ``monte`` (the other takes the rest)."""
    return SPLIT_BASE + sum(1 << i for i, c in enumerate(cards_of(monte)) if takes >> c & 1)


def action_name(action: int) -> str:
    """The action in a few characters, without its state: a card token, ``pass``, a contract, or
    ``split`` and, for each monte card lowest first, the defender taking it (1 the first, 2 the other)."""
    if is_card(action):
        return card_name(action)
    if action == PASS:
        return "pass"
    contract = action_contract(action)
    if contract is not None:
        return contract
    if SPLIT_BASE <= action < NUM_ACTIONS:
        k = action - SPLIT_BASE
        return "split " + "".join("1" if k >> i & 1 else "2" for i in range(4))
    return f"<action {action}>"
