"""A first learned card player, as an experiment (issue #58; docs/experiments.md, "A learned card player by
imitation, first try").  Three steps, each seeded:

    python3 benchmarks/learned_cards_prototype.py generate --first 0 --deals 2000 --out d0.npz
    python3 benchmarks/learned_cards_prototype.py fit d0.npz d1.npz --out weights.npz      # needs PyTorch
    python3 benchmarks/learned_cards_prototype.py evaluate --first 50000 --deals 150 --weights weights.npz

``generate``: deal ``d`` is a function of ``d`` alone; the strongest hand (:func:`calasolve.game.cards.strength`)
is the soloist, in the contract ``rule_bid`` gives it (7 times in 10, else a contract at random), the rest of
the cards dealt as the advice deals a sample, the exchange as the advice's play-outs make it (the ``sampled``
policies), then the deal is played by contract-minded PIMC players (8 layouts) on every seat; each card
decision with a choice is kept: the mover's features (what its seat sees, :func:`features`), the legal cards
and the card chosen.  ``fit``: a two-layer perceptron (256 units each) over the features, its logits masked to
the legal cards, fitted by cross-entropy to the cards chosen (Adam, torch seed 0); the last tenth of the rows
(later deals) held out.  ``evaluate``: deals numbered apart from the training ones, each played three times
from the same exchange: PIMC on every seat, the learned player as soloist against PIMC defenders, and PIMC
soloist against learned defenders; the soloist's game points compared deal by deal.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from calasolve.advice.realplay import pimc_seed, played_exchange
from calasolve.advice.samples import deal_sample
from calasolve.advice.settings import AdviceSettings
from calasolve.env.agents import rule_bid
from calasolve.game.cards import Card, cards_of, popcount, strength
from calasolve.game.rules import STANDARD
from calasolve.game.sampling import rng_for
from calasolve.game.state import CONTRACTS, PlayState
from calasolve.play.knowledge import MONTE, view_of
from calasolve.play.players import Player, play_out
from calasolve.play.target import ContractPimcPlayer
from calasolve.search import engines
from calasolve.types.record import Record

#: per card: mine, played by each seat (relative to the mover), the current trick's first and second card,
#: known at the next seat, the one after, the monte, and may be at each of those three; then the context
N_FEATURES = 12 * 40 + 17


def features(record: Record, state: PlayState) -> np.ndarray:
    """What the seat to move sees, as a vector (seats relative to it)."""
    m = state.to_move
    view = view_of(record, state, m)
    f = np.zeros((12, 40), dtype=np.float32)
    for c in cards_of(state.hands[m]):
        f[0, c] = 1
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            f[1 + (t.leader + i - m) % 3, c] = 1
    for i, c in enumerate(state.trick):
        f[1 + (state.leader + i - m) % 3, c] = 1
        f[4 + i, c] = 1
    for r in (1, 2):
        for c in cards_of(view.placed[(m + r) % 3]):
            f[5 + r, c] = 1
    for c in cards_of(view.placed[MONTE]):
        f[8, c] = 1
    for c, bits in view.unseen.items():
        for r in (1, 2):
            if bits >> ((m + r) % 3) & 1:
                f[8 + r, c] = 1
        if bits >> MONTE & 1:
            f[11, c] = 1
    ctx = np.zeros(17, dtype=np.float32)
    ctx[CONTRACTS.index(record.contract)] = 1
    ctx[5 + (record.soloist - m) % 3] = 1
    ctx[8 + len(state.trick)] = 1
    ctx[11 + (state.leader - m) % 3] = 1
    s = record.soloist
    ctx[14] = state.captured[s] / 35
    ctx[15] = (sum(state.captured) - state.captured[s]) / 35
    ctx[16] = len(state.tricks) / 12
    return np.concatenate([f.ravel(), ctx])


def deal(d: int, solver: Any) -> tuple[Record, int]:
    """Deal ``d``'s record after its exchange, and the PIMC players' seed."""
    rng = rng_for(12345, d)
    order = rng.permutation(40)
    hands = [sum(1 << int(c) for c in order[12 * s:12 * s + 12]) for s in range(3)]
    seat = int(np.argmax([strength(h) for h in hands]))
    want = rule_bid(hands[seat], STANDARD)
    contract = want if want is not None and rng.random() < 0.7 else CONTRACTS[int(rng.integers(5))]
    settings = AdviceSettings(hand=hands[seat], seat=seat, seed=d, defender_policy="sampled", jobs=1)
    h, monte = deal_sample(settings, 0)
    exchange, _ = played_exchange(settings, 0, contract, h, monte, solver, None)
    record = Record(hands=h, monte=monte, contract=contract, soloist=seat, rules=settings.rules, exchange=exchange)
    return record, pimc_seed(settings, 0, contract)


class Recorder:
    """A player that plays another's card and keeps each decision with a choice."""

    def __init__(self, inner: Player, rows: list[tuple[np.ndarray, np.ndarray, Card]]) -> None:
        self.inner, self.rows, self.name = inner, rows, inner.name

    def choose(self, record: Record, state: PlayState) -> Card:
        card = self.inner.choose(record, state)
        legal = state.legal()
        if popcount(legal) > 1:
            mask = np.zeros(40, dtype=np.bool_)
            mask[list(cards_of(legal))] = True
            self.rows.append((features(record, state), mask, card))
        return card


class Learned:
    """The fitted perceptron as a card player (numpy only, one decision at a time)."""

    name = "learned"

    def __init__(self, path: str) -> None:
        w = np.load(path)
        self.layers = [(w[f"w{i}"], w[f"b{i}"]) for i in (0, 2, 4)]
        self.seconds, self.calls = 0.0, 0

    def choose(self, record: Record, state: PlayState) -> Card:
        legal = list(cards_of(state.legal()))
        if len(legal) == 1:
            return legal[0]
        start = time.process_time()
        x = features(record, state)
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < 2:
                x = np.maximum(x, 0)
        self.seconds += time.process_time() - start
        self.calls += 1
        return max(legal, key=lambda c: float(x[c]))


def generate(args: argparse.Namespace) -> None:
    solver = engines.solver()
    rows: list[tuple[np.ndarray, np.ndarray, Card]] = []
    start = time.process_time()
    for d in range(args.first, args.first + args.deals):
        record, seed = deal(d, solver)
        play_out(record, [Recorder(ContractPimcPlayer(samples=8, seed=seed, solver=solver), rows) for _ in range(3)])
    np.savez_compressed(args.out, X=np.stack([r[0] for r in rows]), M=np.stack([r[1] for r in rows]),
                        y=np.array([r[2] for r in rows]))
    print(f"{len(rows)} decisions from {args.deals} deals in {time.process_time() - start:.0f} s of CPU")


def fit(args: argparse.Namespace) -> None:
    import torch

    torch.manual_seed(0)
    data = [np.load(f) for f in args.data]
    X, M, y = (np.concatenate([d[k] for d in data]) for k in ("X", "M", "y"))
    cut = int(len(y) * 0.9)
    xt, mt, yt = torch.from_numpy(X[:cut]), torch.from_numpy(M[:cut]), torch.from_numpy(y[:cut].astype(np.int64))
    xv, mv, yv = torch.from_numpy(X[cut:]), torch.from_numpy(M[cut:]), torch.from_numpy(y[cut:].astype(np.int64))
    model = torch.nn.Sequential(torch.nn.Linear(X.shape[1], 256), torch.nn.ReLU(), torch.nn.Linear(256, 256),
                                torch.nn.ReLU(), torch.nn.Linear(256, 40))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(yt))
        for i in range(0, len(yt), 512):
            idx = perm[i:i + 512]
            loss = torch.nn.functional.cross_entropy(model(xt[idx]).masked_fill(~mt[idx], -1e9), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            held = (model(xv).masked_fill(~mv, -1e9).argmax(1) == yv).float().mean().item()
        print(f"epoch {epoch}: held-out agreement with PIMC's card {held:.3f}", flush=True)
    linear = [(i, layer) for i, layer in enumerate(model) if isinstance(layer, torch.nn.Linear)]
    np.savez(args.out, **{f"w{i}": layer.weight.detach().numpy().T.copy() for i, layer in linear},
             **{f"b{i}": layer.bias.detach().numpy().copy() for i, layer in linear})


def evaluate(args: argparse.Namespace) -> None:
    solver = engines.solver()
    learned = Learned(args.weights)
    rows: list[tuple[str, dict[str, int], dict[str, bool]]] = []
    for d in range(args.first, args.first + args.deals):
        record, seed = deal(d, solver)
        points: dict[str, int] = {}
        makes: dict[str, bool] = {}
        for name, soloist, defence in (("pimc", False, False), ("soloist", True, False), ("defence", False, True)):
            players: list[Player] = [learned if (soloist if s == record.soloist else defence)
                                     else ContractPimcPlayer(samples=8, seed=seed, solver=solver) for s in range(3)]
            result = play_out(record, players).record.state().result(record.contract, record.rules)
            points[name], makes[name] = result.soloist_payoff, result.makes
        rows.append((record.contract, points, makes))
    n = len(rows)
    base = np.array([r[1]["pimc"] for r in rows], dtype=float)
    for name in ("soloist", "defence"):
        diff = np.array([r[1][name] for r in rows], dtype=float) - base
        made = np.mean([r[2][name] for r in rows])
        print(f"learned {name}: the soloist's game points {diff.mean():+.3f} ± {diff.std(ddof=1) / np.sqrt(n):.3f} "
              f"against PIMC on every seat; makes {made:.3f} against {np.mean([r[2]['pimc'] for r in rows]):.3f}")
    print(f"{learned.calls} learned decisions, {1e3 * learned.seconds / max(1, learned.calls):.3f} ms each, one at a time")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--first", type=int, default=0)
    g.add_argument("--deals", type=int, default=2000)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--epochs", type=int, default=int(os.environ.get("EPOCHS", "8")))
    f.add_argument("--out", required=True)
    e = sub.add_parser("evaluate")
    e.add_argument("--first", type=int, default=50000)
    e.add_argument("--deals", type=int, default=150)
    e.add_argument("--weights", required=True)
    args = ap.parse_args()
    {"generate": generate, "fit": fit, "evaluate": evaluate}[args.step](args)


if __name__ == "__main__":
    main()
