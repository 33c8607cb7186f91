"""Training data and fit of the ``learned`` exchange policies (:mod:`calasolve.advice.learned_exchange`).

Deal ``d`` (cards from :func:`~calasolve.game.sampling.rng_for` ``(EXCHANGE_SEED, d)``, the last four
the monte) has the strongest hand as soloist, in dividete for an even ``d`` and scegliete for an odd
one; the defenders exchange by the ``sampled`` policy (dividete's draw first, from the deal's
generator).  Each defender's discards are a row of the discard data (its features, its cards, the
cards it discarded), scegliete's split a row of the split data (the first defender's features, the
monte, the cards it took).  The same deal, in chiamo for an even ``d`` and solo for an odd one, gives
a row of the soloist's data: the soloist's features, the cards that may leave its hand, the cards that
left (discarded or returned) under the soloist's ``sampled`` policy (its re-deals from the deal's
generator, apart from the defenders').  The fit: for each head a perceptron (128 and 128 rectified units), a
logit a card, binary cross-entropy on the cards that could be chosen (Adam, 30 passes, torch seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from ..advice.defence import sampled_defender_exchange
from ..advice.learned_exchange import discard_features, soloist_features, split_features
from ..advice.policies import random_draw, sampled_soloist_exchange
from ..game.cards import Mask, strength
from ..game.rules import STANDARD
from ..game.sampling import rng_for
from ..game.state import Contract, defender_seats, first_leader
from ..search.solving import default_solver
from .fit import require_torch

__all__ = ["EXCHANGE_SEED", "HEADS", "Heads", "exchange_rows", "fit_exchange", "generate_exchange", "soloist_row"]

EXCHANGE_SEED = 54321
HIDDEN = 128
#: The heads, in the order of their weights' prefixes (:data:`PREFIX`).
HEADS = ("discard", "split", "soloist")
PREFIX = {"discard": "d", "split": "s", "soloist": "o"}


def _mask(cards: Mask) -> np.ndarray:
    out = np.zeros(40, dtype=np.bool_)
    out[[c for c in range(40) if cards >> c & 1]] = True
    return out


@dataclass(frozen=True)
class Heads:
    """Rows of each head: (features, choosable cards, chosen cards) for the defenders' discards, the split
    and the soloist's exchange."""

    discard: tuple[np.ndarray, np.ndarray, np.ndarray]
    split: tuple[np.ndarray, np.ndarray, np.ndarray]
    soloist: tuple[np.ndarray, np.ndarray, np.ndarray]

    @classmethod
    def join(cls, parts: Iterable[Heads]) -> Heads:
        parts = list(parts)
        return cls(*(tuple(np.concatenate([getattr(p, h)[i] for p in parts]) for i in range(3))  # type: ignore[arg-type]
                     for h in HEADS))

    def save(self, path: str) -> None:
        np.savez_compressed(path, **{f"{PREFIX[h]}{k}": getattr(self, h)[i] for h in HEADS for i, k in enumerate("xmy")})

    @classmethod
    def load(cls, path: str) -> Heads:
        with np.load(path) as f:
            return cls(*(tuple(f[f"{PREFIX[h]}{k}"] for k in "xmy") for h in HEADS))


def exchange_rows(d: int) -> Heads:
    """Deal ``d``'s defenders' decisions under the ``sampled`` policy (see the module doc)."""
    rng = rng_for(EXCHANGE_SEED, d)
    order = rng.permutation(40)
    hands = [sum(1 << int(c) for c in order[12 * s:12 * s + 12]) for s in range(3)]
    monte = sum(1 << int(c) for c in order[36:])
    soloist = int(np.argmax([strength(h) for h in hands]))
    contract: Contract = "dividete" if d % 2 == 0 else "scegliete"
    draw = random_draw(monte, soloist, rng) if contract == "dividete" else None
    ex = sampled_defender_exchange((hands[0], hands[1], hands[2]), monte, contract, soloist, STANDARD,
                                   default_solver(), rng, takes=draw)
    assert ex.takes is not None and ex.discards is not None
    dx, dm, dy = [], [], []
    for seat in defender_seats(soloist):
        partner = 3 - seat - soloist
        seen = ex.takes[partner] if contract == "scegliete" else 0
        mine = hands[seat] | ex.takes[seat]
        n = bin(ex.takes[seat]).count("1")
        if n:
            dx.append(discard_features(mine, ex.takes[seat], seen, contract, n, seat, soloist))
            dm.append(_mask(mine))
            dy.append(_mask(ex.discards[seat]))
    sx, sm, sy = [], [], []
    if contract == "scegliete":
        first = defender_seats(soloist)[0]
        sx.append(split_features(hands[first], monte, first, soloist))
        sm.append(_mask(monte))
        sy.append(_mask(ex.takes[first]))

    def stack(rows: list[np.ndarray], width: int, dtype: Any) -> np.ndarray:
        return np.stack(rows) if rows else np.zeros((0, width), dtype=dtype)

    own: Contract = "chiamo" if d % 2 == 0 else "solo"
    ox = soloist_row(hands, monte, soloist, own, rng)
    return Heads((stack(dx, 129, np.float32), stack(dm, 40, np.bool_), stack(dy, 40, np.bool_)),
                 (stack(sx, 82, np.float32), stack(sm, 40, np.bool_), stack(sy, 40, np.bool_)),
                 tuple(a[None, :] for a in ox))  # type: ignore[arg-type]


def soloist_row(hands: list[Mask], monte: Mask, soloist: int, contract: Contract, rng: np.random.Generator
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The soloist's exchange in ``contract`` under the ``sampled`` policy, as a row (see the module doc)."""
    ex = sampled_soloist_exchange((hands[0], hands[1], hands[2]), monte, contract, soloist, STANDARD, default_solver(),
                                  np.random.default_rng(int(rng.integers(2**63 - 1))))
    assert ex.discards is not None
    mine = hands[soloist] | monte
    returns = False
    if ex.call is not None:
        mine |= 1 << ex.call
        returns = ex.returned is not None
    leaving = ex.discards[soloist] | (1 << ex.returned if ex.returned is not None else 0)
    allowed = mine & ~(1 << ex.call) if returns and ex.call is not None else mine
    leads = first_leader(contract, soloist, STANDARD) == soloist
    return soloist_features(mine, monte, ex.call, contract, returns, leads), _mask(allowed), _mask(leaving)


def generate_exchange(first: int, count: int, mapper: Any = None) -> Heads:
    """Deals ``first`` to ``first + count - 1``'s rows, in deal order (``mapper``: a pool's or Dask's map)."""
    deals = range(first, first + count)
    return Heads.join(map(exchange_rows, deals) if mapper is None else mapper.map(exchange_rows, deals, chunksize=8))


def _fit_head(x: np.ndarray, m: np.ndarray, y: np.ndarray, seed: int, epochs: int, log: Any, name: str) -> list[Any]:
    torch = require_torch()
    torch.manual_seed(seed)
    cut = int(len(x) * 0.9)
    xt, mt, yt = (torch.from_numpy(a[:cut]) for a in (x, m, y))
    xv, mv, yv = (torch.from_numpy(a[cut:]) for a in (x, m, y))
    nn = torch.nn
    model = nn.Sequential(nn.Linear(x.shape[1], HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 40))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    for epoch in range(epochs):
        order = torch.randperm(len(xt))
        for i in range(0, len(xt), 256):
            idx = order[i:i + 256]
            loss = nn.functional.binary_cross_entropy_with_logits(model(xt[idx]), yt[idx].float(), reduction="none")
            loss = (loss * mt[idx]).sum() / mt[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        z = model(xv).masked_fill(~mv, -1e9)
        if name != "split":
            k = yv.sum(1)
            ranks = z.argsort(1, descending=True)
            same = [set(ranks[i, :int(k[i])].tolist()) == set(torch.nonzero(yv[i]).flatten().tolist()) for i in range(len(k))]
        else:
            same = [bool(((z[i] > 0) & mv[i]).eq(yv[i] & mv[i]).all()) for i in range(len(z))]
    log(f"{name}: {cut} rows fitted, {len(xv)} held out, {100 * np.mean(same) if same else float('nan'):.1f}% of the "
        "held-out choices exactly the sampled policy's")
    return [layer for layer in model if isinstance(layer, nn.Linear)]


def fit_exchange(data: Sequence[Heads], *, seed: int = 0, epochs: int = 30, log: Any = print) -> dict[str, np.ndarray]:
    """Every head's weights (``dw0, db0, ..., sw0, ..., ow0, ...``, as :func:`~calasolve.advice.learned_exchange.default_networks`
    reads them)."""
    heads = Heads.join(data)
    out: dict[str, np.ndarray] = {}
    for name in HEADS:
        prefix = PREFIX[name]
        x, m, y = getattr(heads, name)
        for i, layer in enumerate(_fit_head(x, m, y, seed, epochs, log, name)):
            out[f"{prefix}w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            out[f"{prefix}b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    return out
