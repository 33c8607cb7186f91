"""Fitting the card network to the recorded decisions (PyTorch, the ``train`` extra).

A perceptron of two hidden layers (256 rectified units each) over
:func:`~calasolve.play.learned.features` (the recorded views, with what follows
from them), its 40 logits masked to the legal cards, fitted by cross-entropy to
the cards the PIMC players chose (Adam, learning rate 1e-3, weight decay 1e-5,
batches of 512, 6 passes: more overfit).  Each decision is
weighted by the square root of its contract's stake (chiamo 1, solo 2,
solissimo 4, dividete 8, scegliete 16): a scegliete card costs sixteen times a
chiamo card, and unweighted imitation defended scegliete worst
(docs/experiments.md).  The last tenth of each data file (its latest deals) is
held out and reported.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..game.errors import CalasolveError
from ..game.state import CONTRACTS
from ..play.learned import N_FEATURES, with_derived
from .data import Rows

__all__ = ["CONTEXT", "HIDDEN", "STAKE", "fit", "require_torch", "split", "weights_of"]

#: Units per hidden layer.
HIDDEN = 256
#: Where the context starts in the features (the contract's one-hot first).
CONTEXT = 12 * 40
#: Each contract's stake (its game points for a plain make), in CONTRACTS order.
STAKE = {"chiamo": 1, "solo": 2, "solissimo": 4, "dividete": 8, "scegliete": 16}


def require_torch() -> Any:
    """PyTorch, or a one-line error naming the extra that installs it."""
    try:
        import torch
    except ImportError:
        raise CalasolveError("training needs PyTorch: pip install 'calasolve[train]'") from None
    return torch


def split(files: Sequence[Rows], held: float = 0.1) -> tuple[Rows, Rows]:
    """The rows to fit and the rows held out: the last ``held`` of each file (its latest deals)."""
    cuts = [int(len(f.chosen) * (1 - held)) for f in files]
    fitted = Rows.join(Rows(f.x[:c], f.legal[:c], f.chosen[:c]) for f, c in zip(files, cuts))
    kept = Rows.join(Rows(f.x[c:], f.legal[c:], f.chosen[c:]) for f, c in zip(files, cuts))
    return fitted, kept


def weights_of(rows: Rows) -> np.ndarray:
    """Each decision's weight in the loss: the square root of its contract's stake."""
    stakes = np.sqrt(np.array([STAKE[c] for c in CONTRACTS], dtype=np.float32))
    out: np.ndarray = stakes[rows.x[:, CONTEXT:CONTEXT + len(CONTRACTS)].argmax(axis=1)]
    return out


def fit(files: Sequence[Rows], *, seed: int = 0, epochs: int = 6, log: Any = print) -> dict[str, np.ndarray]:
    """The fitted network's weights (``w0, b0, ...``, inputs x outputs, as
    :meth:`~calasolve.play.learned.Network.load` reads them); ``log`` is given a line an epoch."""
    torch = require_torch()
    torch.manual_seed(seed)
    fitted, held = split(files)
    x, m, y = (torch.from_numpy(a) for a in (with_derived(fitted.x), fitted.legal, fitted.chosen))
    w = torch.from_numpy(weights_of(fitted))
    xv, mv, yv = (torch.from_numpy(a) for a in (with_derived(held.x), held.legal, held.chosen))
    nn = torch.nn
    model = nn.Sequential(nn.Linear(N_FEATURES, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 40))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y))
        for i in range(0, len(y), 512):
            idx = order[i:i + 512]
            loss = nn.functional.cross_entropy(model(x[idx]).masked_fill(~m[idx], -1e9), y[idx], reduction="none")
            loss = (loss * w[idx]).sum() / w[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            agree = (model(xv).masked_fill(~mv, -1e9).argmax(1) == yv).float().mean().item() if len(yv) else float("nan")
        log(f"epoch {epoch + 1}/{epochs}: {len(y)} decisions fitted, {len(yv)} held out, "
            f"{100 * agree:.1f}% of the held-out cards as PIMC chose them")
    linear = [layer for layer in model if isinstance(layer, nn.Linear)]
    out = {f"w{i}": layer.weight.detach().numpy().T.astype(np.float32) for i, layer in enumerate(linear)}
    out.update({f"b{i}": layer.bias.detach().numpy().astype(np.float32) for i, layer in enumerate(linear)})
    return out
