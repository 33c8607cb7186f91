"""Fits the early estimate (``calasolve.exchange.estimate``: ``SOLOIST_FIT``, ``DEFENCE_NET``).

``--side soloist``: for each training deal (random and strong suites, deals apart from the 0-79 the
early answers are measured on) the chiamo is searched for 10 s on one core, its value ``v`` the best
found; then 1,500 of its candidates are labelled with null-window tests, the first 800 of the early
order and 700 drawn at random from the rest, each "near" when its value is at least ``v - 1``.
``--side defence``: the same for dividete's draws 0, 2 and 4 (the defenders discard; 300 and 300
candidates a draw), "near" when the soloist's value is at most ``v + 1``.

The soloist's weights: a logistic regression of "near" on the candidates' summed
:func:`~calasolve.exchange.estimate.suit_features` (each deal's features centred, each list weighing
the same, an L2 penalty).  The defenders' network (:class:`~calasolve.exchange.estimate.SuitNet`): each
list's near candidates ranked first by a softmax over the list (so a deal's level does not matter),
Adam from a fixed seed, an L2 penalty; ``--write-net`` writes it where the package reads it.
Either way it prints how well a fit on the first two thirds of the deals ranks the candidates of the
rest (the area under the ROC curve per list, and the share of near candidates among each list's first 20,
against the estimate in use), so that a change can be judged before the search is measured with
``report_early.py``.

    python3 benchmarks/fit_early.py --data /tmp/fit_soloist.jsonl                    # about 10 minutes on 2 cores
    python3 benchmarks/fit_early.py --side defence --deals 30 --data /tmp/fit_defence.jsonl
    python3 benchmarks/fit_early.py --data /tmp/fit_soloist.jsonl --fit-only         # the fit again, from the data
    python3 benchmarks/fit_early.py --side defence --deals 30 --data /tmp/fit_defence.jsonl --fit-only \
        --write-net src/calasolve/exchange/defence_net.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from suites import random_suite, strong_suite  # noqa: E402

from calasolve.exchange import candidates as C  # noqa: E402
from calasolve.exchange.estimate import SuitNet, suit_features, suit_signature  # noqa: E402
from calasolve.exchange.search import best_exchange  # noqa: E402
from calasolve.search.engines import make_solver  # noqa: E402
from calasolve.types.record import Record  # noqa: E402

SUITES = {"random": random_suite, "strong": strong_suite}
#: Per side: the contract, the candidates labelled per list (the early order's first, then drawn at random)
#: and dividete's draws labelled.
SIDES = {"soloist": ("chiamo", 800, 700), "defence": ("dividete", 300, 300)}
DRAWS = (0, 2, 4)


def record(suite: str, i: int, contract: str) -> tuple[Record, int]:
    d = SUITES[suite](i + 1)[i]
    return Record(hands=d.hands, monte=d.monte, contract=contract, soloist=d.soloist), d.leader


def batch_of(rec: Record, draw: int | None) -> C.Batch:
    """The candidates of a chiamo (``draw`` None), or of one of dividete's draws."""
    if draw is None:
        layouts = C.soloist_layouts(rec.hands, rec.monte, rec.contract, rec.soloist, rec.exchange)
    else:
        layouts = C.defender_layouts(rec.hands, rec.monte, rec.soloist, [C.dividete_draws(rec.monte, rec.soloist)[draw]])
    return C.enumerate_candidates(layouts, rec.soloist)


def label(job: tuple[str, str, int, float]) -> list[dict[str, Any]]:
    """One training deal: the best found within the limit, and its sampled candidates' labels (a list each)."""
    side, suite, i, limit = job
    contract, head, drawn = SIDES[side]
    rec, leader = record(suite, i, contract)
    solver = make_solver(32)
    result = best_exchange(rec, solver=solver, top=1, jobs=1, time_limit=limit)
    rng = np.random.default_rng(2 * i + (suite == "strong"))
    rows = []
    for draw in DRAWS if side == "defence" else (None,):
        found = result.value if draw is None else result.draws[draw].value
        b = batch_of(rec, draw)
        # the order the search makes: a chiamo is one list, whose climb moves it between layouts; a draw one of six
        order = C.early_order(b, rec.soloist, draw is None, None, C.climb_moves(b, rec.soloist) if draw is None else None)
        sample = np.concatenate([order[:head], rng.choice(order[head:], size=min(drawn, len(order) - head),
                                                           replace=False)])
        # near: at least found - 1 for the soloist; at most found + 1, i.e. not found + 2, for the defence
        reached, _ = solver.reaches_batch(np.ascontiguousarray(b.hands[sample]), np.ascontiguousarray(b.bonus[sample]),
                                          leader, rec.soloist, found - 1 if draw is None else found + 2)
        near = list(reached) if draw is None else [1 - x for x in reached]
        rows.append({"suite": suite, "deal": i, "draw": draw, "found": found, "sample": sample.tolist(), "near": near})
    return rows


@lru_cache(maxsize=None)
def _features_of(mine: int, left: int, right: int) -> tuple[int, ...]:
    return suit_features(suit_signature((mine, left, right), 0, 0))


def features(hands: np.ndarray, soloist: int) -> np.ndarray:
    """The suit features of positions (``hands``: (n, 3) masks at the first lead), (n, 4, features)."""
    seats = [hands[:, soloist], hands[:, (soloist + 1) % 3], hands[:, (soloist + 2) % 3]]
    out = np.zeros((len(hands), 4, len(_features_of(0, 0, 0))))
    for u in range(4):
        keys = np.stack([(x >> np.uint64(10 * u)) & np.uint64(0x3FF) for x in seats], axis=1).astype(np.int64)
        distinct, inverse = np.unique(keys[:, 0] << 20 | keys[:, 1] << 10 | keys[:, 2], return_inverse=True)
        table = np.array([_features_of(int(k >> 20), int(k >> 10 & 0x3FF), int(k & 0x3FF)) for k in distinct])
        out[:, u] = table[inverse]
    return out


def fit(rows: list[dict[str, Any]], l2: float) -> np.ndarray:
    """Logistic regression by Newton's method: the weights of the summed features (no intercept: a deal's level
    does not change its order)."""
    X = np.concatenate([r["X"].sum(axis=1) - r["X"].sum(axis=1).mean(axis=0) for r in rows])
    y = np.concatenate([r["y"] for r in rows]).astype(float)
    weight = np.concatenate([np.full(len(r["y"]), len(y) / len(rows) / len(r["y"])) for r in rows])
    scale = X.std(axis=0) + 1e-9
    Z = np.hstack([X / scale, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    penalty = l2 * np.r_[np.ones(len(w) - 1), 0.0]
    for _ in range(30):
        p = 1 / (1 + np.exp(-Z @ w))
        grad = Z.T @ (weight * (p - y)) + penalty * w
        hess = (Z * (weight * p * (1 - p))[:, None]).T @ Z + np.diag(penalty)
        w -= np.linalg.solve(hess, grad)
    return np.asarray(w[:-1] / scale)


#: The defenders' network: hidden units per suit, then second-layer units, the L2 penalty and Adam's steps and rate.
NET_HIDDEN, NET_SECOND, NET_L2, NET_STEPS, NET_RATE = 16, 16, 0.03, 400, 0.01


def fit_net(rows: list[dict[str, Any]]) -> SuitNet:
    """The defenders' network: each list's near candidates scored first by a softmax over the list (cross-entropy
    against the near ones, each list weighing the same), features standardised, full-batch Adam from seed 0."""
    every = np.concatenate([r["X"] for r in rows]).reshape(-1, rows[0]["X"].shape[2])
    mean, scale = every.mean(axis=0), every.std(axis=0) + 1e-9
    data = [((r["X"] - mean) / scale, r["y"] / r["y"].sum()) for r in rows]
    rng = np.random.default_rng(0)
    n = every.shape[1]
    p = {"w1": rng.normal(0, 0.3, (n, NET_HIDDEN)), "b1": np.zeros(NET_HIDDEN),
         "w2": rng.normal(0, 0.3, (NET_HIDDEN, NET_SECOND)), "b2": np.zeros(NET_SECOND),
         "w3": rng.normal(0, 0.1, NET_SECOND), "linear": np.zeros(n)}
    first, second = {k: np.zeros_like(v) for k, v in p.items()}, {k: np.zeros_like(v) for k, v in p.items()}
    for t in range(1, NET_STEPS + 1):
        g = {k: NET_L2 * v if k[0] in "wl" else np.zeros_like(v) for k, v in p.items()}
        for X, target in data:
            a1 = X @ p["w1"] + p["b1"]
            z = np.maximum(a1, 0).sum(axis=1)
            a2 = z @ p["w2"] + p["b2"]
            summed = X.sum(axis=1)
            score = np.maximum(a2, 0) @ p["w3"] + summed @ p["linear"]
            e = np.exp(score - score.max())
            d = (e / e.sum() - target) / len(data)
            g["w3"] += np.maximum(a2, 0).T @ d
            g["linear"] += summed.T @ d
            d2 = np.outer(d, p["w3"]) * (a2 > 0)
            g["w2"] += z.T @ d2
            g["b2"] += d2.sum(axis=0)
            d1 = (d2 @ p["w2"].T)[:, None, :] * (a1 > 0)
            g["w1"] += np.einsum("nuf,nuh->fh", X, d1)
            g["b1"] += d1.sum(axis=(0, 1))
        for k in p:
            first[k] = 0.9 * first[k] + 0.1 * g[k]
            second[k] = 0.999 * second[k] + 0.001 * g[k] ** 2
            p[k] -= NET_RATE * (first[k] / (1 - 0.9**t)) / (np.sqrt(second[k] / (1 - 0.999**t)) + 1e-8)
    # the standardisation folded into the weights: the network reads the features as they are
    return SuitNet(p["w1"] / scale[:, None], p["b1"] - (mean / scale) @ p["w1"], p["w2"], p["b2"], p["w3"],
                   p["linear"] / scale)


def net_score(net: SuitNet, X: np.ndarray) -> np.ndarray:
    """The network's score of positions from their suit features ((n, 4, features)): higher, nearer."""
    return net.value(net.terms(X).sum(axis=1))


def auc(score: np.ndarray, y: np.ndarray) -> float | None:
    if y.all() or not y.any():
        return None
    rank = np.empty(len(score))
    rank[np.argsort(score, kind="stable")] = np.arange(len(score))
    return float((rank[y].mean() - (y.sum() - 1) / 2) / (~y).sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", choices=sorted(SIDES), default="soloist")
    ap.add_argument("--first", type=int, default=200, help="the first training deal of each suite (default 200)")
    ap.add_argument("--deals", type=int, default=60, help="training deals per suite (default 60)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds of search for each deal's best (default 10)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--l2", type=float, default=3.0)
    ap.add_argument("--data", required=True, help="the labelled candidates, one list a line (appended to, reused)")
    ap.add_argument("--fit-only", action="store_true", help="fit from the data file, label nothing")
    ap.add_argument("--write-net", help="--side defence: write the network fitted on every list to this file")
    args = ap.parse_args()
    contract = SIDES[args.side][0]
    path = Path(args.data)
    done = {(r["suite"], r["deal"]) for r in map(json.loads, path.read_text().splitlines())} if path.exists() else set()
    todo = [(args.side, s, i, args.limit) for i in range(args.first, args.first + args.deals) for s in SUITES
            if (s, i) not in done]
    if todo and not args.fit_only:
        start = time.perf_counter()
        with ProcessPoolExecutor(args.jobs) as pool, path.open("a") as out:
            for k, rows in enumerate(pool.map(label, todo), 1):
                out.writelines(json.dumps(row) + "\n" for row in rows)
                out.flush()
                if sys.stdout.isatty():  # a progress line, quiet when the output is not a terminal
                    print(f"\r{k}/{len(todo)} deals labelled, {time.perf_counter() - start:.0f} s", end="", flush=True)
        print(f"{len(todo)} deals labelled in {time.perf_counter() - start:.0f} s")
    sign = 1.0 if args.side == "soloist" else -1.0  # the defence's estimate: the soloist's prospects, lowest first
    rows = []
    for r in map(json.loads, path.read_text().splitlines()):
        rec, _ = record(r["suite"], r["deal"], contract)
        b = batch_of(rec, r["draw"])
        sample = np.array(r["sample"])
        r["X"], r["y"], r["early"] = features(b.hands[sample], rec.soloist), np.array(r["near"]) == 1, sign * b.early[sample]
        if 0 < r["y"].sum() < len(r["y"]):  # a list all near, or none, says nothing of the order
            rows.append(r)
    cut = args.first + args.deals * 2 // 3
    train, held = [r for r in rows if r["deal"] < cut], [r for r in rows if r["deal"] >= cut]
    net = args.side == "defence"

    def scorer(fitted: Any) -> Any:
        if net:
            return lambda r: net_score(fitted, r["X"])
        return lambda r: r["X"].sum(axis=1) @ fitted

    def judged(score: Any) -> str:
        aucs = [a for r in held if (a := auc(score(r), r["y"])) is not None]
        top = [r["y"][np.argsort(-score(r), kind="stable")[:20]].mean() for r in held]
        return f"mean AUC {np.mean(aucs):.3f}, near among the first 20 {np.mean(top):.3f}"

    if train and held:
        fitted = fit_net(train) if net else fit(train, args.l2)
        print(f"fitted on deals {args.first}-{cut - 1}, on deals {cut}-{args.first + args.deals - 1} ({len(held)} lists): "
              f"{judged(scorer(fitted))}; the early estimate in use: {judged(lambda r: r['early'])}")
    if net:
        whole = fit_net(rows)
        print(f"the network from all {len(rows)} lists" + (f", written to {args.write_net}" if args.write_net else ""))
        if args.write_net:
            Path(args.write_net).write_text(json.dumps(whole.to_dict()) + "\n")
        return
    w = sign * fit(rows, args.l2)
    print(f"weights from all {len(rows)} lists:")
    print("(" + ", ".join(f"{x:.3f}" for x in w) + ")")


if __name__ == "__main__":
    main()
