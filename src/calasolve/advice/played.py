"""The default advice's played side: each contract's odds when nobody sees the hidden cards
(docs/advisor.md, "Played odds (the default)").

**The learned players** (the default, :func:`alone_estimate`): the first ``play_samples`` (300)
sampled deals of each contract are played out by :class:`~calasolve.play.learned.LearnedPlayer`
on every seat, the defenders' exchange by the ``learned`` policy, and read alone: P(make) by the
Clopper-Pearson interval, the game points and two contracts' difference on the same deals by the
betting interval in their known range, each at 95% for that fixed number of deals.

**PIMC players** (``players="contract"`` or ``"pimc"``), a few play-outs paired with double dummy:
the double-dummy race judges ``n`` sampled deals of a contract; the first
``play_samples`` of those same deals are also played out
(:mod:`calasolve.advice.realplay`) by PIMC players on every seat, who see only
their own hands, the defenders' exchange by the ``sampled`` policy (each
defender chooses with what it sees).
The played estimate is the double-dummy mean over all ``n`` deals plus the
mean gap, played minus double dummy, over the deals played out:

    P_played = P_dd(n) + [mean over m of (played_i - dd_i)]

Both parts are unbiased, so the sum is; the pairing takes out most of the
deals' spread (a strong hand makes both ways, a weak one fails both ways),
so few play-outs are enough for the gap where the two rarely differ.  The
95% interval is where two 97.5% intervals of the same number meet (the
union bound): the paired one, itself the sum of the double-dummy part's
confidence sequence (valid whatever the race's stopping) and the gap's on
a fixed number of deals, 98.75% each; and the deals played out read alone,
which is the narrower where the two often differ.  Every part is valid for
any number of deals, however few: a proportion (P(make), the discordant
deals' shares) by the Clopper-Pearson interval, a mean of game points by
the betting interval for values in a known range (the contract's least
and greatest game points, :mod:`calasolve.advice.confseq`), so eight equal
outcomes still leave the interval as wide as eight deals allow.  The
point estimate is that of the narrower part (the paired one, or the deals
played out alone), and the interval is widened to hold it where the two
parts' meeting would leave it out.

The play-outs are tasks of their own, seeded by the seed and the sample
alone, so the answer is the same for any ``jobs`` and on a Dask executor.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..game.errors import InternalError
from ..game.state import CONTRACT_VALUE, CONTRACTS, Contract
from ..game.defaults import DEFAULT_ENDGAME
from ..search.payoff import multiplier_of
from ..types.advice import LEARNED_INTERVAL_METHOD, PlayedAdvice, PlayedEstimate
from .confseq import interval as bounded_interval, lower_bound, upper_bound
from .race import Race, Track, difference_interval
from ..types.playout import PlayedSample
from .realplay import PlayChunk, PlayTask
from .settings import AdviceSettings
from .stats import clopper_pearson, mean_se

__all__ = [
    "PLAYED_INTERVAL_METHOD", "alone_estimate", "bounded_mean", "dd_pairs", "gap_difference",
    "paired_estimate", "play_chunks", "played_advice", "played_policies", "played_difference", "played_players",
]

#: The 5% of a played interval: half to the paired estimate (double dummy plus the gap, a quarter
#: each), half to the deals played out read alone; the interval is where both say.
PART_ALPHA = 0.0125
DIRECT_ALPHA = 0.025
#: A difference between two contracts: the double-dummy difference and the gaps' difference, 2.5% each.
DIFF_ALPHA = 0.025

PLAYED_INTERVAL_METHOD = (
    "95% by the union bound of two 97.5% intervals, intersected: the paired estimate (double dummy over every "
    "sample, its confidence sequence at 98.75%, plus the gap played minus double dummy on the deals played out "
    "at 98.75%) and the deals played out alone; each valid for any number of deals: Clopper-Pearson for "
    "P(make) and the discordant deals, the betting interval within the contract's range for game points; "
    "the estimate is the narrower part's"
)


def _meet(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """Where two intervals of one quantity both hold; their hull when they do not meet (one of them failed)."""
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else (min(a[0], b[0]), max(a[1], b[1]))


def _held(paired: tuple[float, tuple[float, float]], alone: tuple[float, tuple[float, float]]
          ) -> tuple[float, tuple[float, float]]:
    """The estimate of the narrower of two (estimate, interval) parts, and where the two intervals meet,
    widened to hold that estimate (a wider interval covers whenever the narrower one does)."""
    (pe, pi), (ae, ai) = paired, alone
    estimate = pe if pi[1] - pi[0] <= ai[1] - ai[0] else ae
    lo, hi = _meet(pi, ai)
    return estimate, (min(lo, estimate), max(hi, estimate))


def bounded_mean(values: Sequence[float], low: float, high: float, alpha: float) -> tuple[float, float]:
    """A ``1 - alpha`` interval of the mean of values known to lie in [``low``, ``high``], valid for any
    fixed number of them (the betting interval); the range itself when there are none.

    >>> [round(v, 2) for v in bounded_mean([8.0] * 8, -24, 24, 0.05)]
    [-6.08, 15.84]
    """
    if not values:
        return float(low), float(high)
    lo, hi = bounded_interval(values, low, high, alpha, horizon=len(values))
    return float(lo), float(hi)


def played_players(settings: AdviceSettings) -> str:
    """Who played the deals out, in words."""
    if settings.players == "learned":
        return (f"the learned player on every seat (its network, then contract-minded PIMC for the last "
                f"{DEFAULT_ENDGAME} tricks, {settings.layouts} layouts a decision)")
    kind = "contract-minded" if settings.players == "contract" else "thirds-minded"
    return f"{kind} PIMC on every seat, {settings.layouts} layouts a decision"


def played_policies(settings: AdviceSettings) -> tuple[str, str]:
    """The exchange policies of the play-outs, the soloist's and the defenders': the learned networks for
    the learned players; else the soloist's as the race's, the defenders' ``sampled`` (each with what it
    sees)."""
    return ("learned", "learned") if settings.players == "learned" else (settings.policy, "sampled")


#: Deals a worker plays out together with the learned players (one forward pass a step for all of them).
LEARNED_CHUNK = 25


def play_chunks(settings: AdviceSettings, race: Race) -> list[PlayChunk]:
    """The play-outs: the first ``play_samples`` deals of every contract, one deal a task; a deal the
    race has no full double-dummy judgement of (it stopped sooner, or asked only the upper end) is
    also judged double dummy by its task, as the race would have."""
    soloist_policy, defender_policy = played_policies(settings)
    playing = replace(settings, policy=soloist_policy, defender_policy=defender_policy, dd=False)
    if settings.players == "learned":
        return _learned_chunks(settings, race, playing)
    chunks = []
    for i in range(settings.deals):
        for track in sorted(race.tracks, key=lambda t: CONTRACTS.index(t.contract)):
            known = i < track.n and track.outcomes[i].makes is not None
            # the exchange the race made, where the play-out's policy is the race's: not made twice
            same = settings.policy_of(track.contract) == playing.policy_of(track.contract)
            made = track.outcomes[i].exchange if i < track.n and same else None
            chunks.append(PlayChunk(playing, (PlayTask(i, track.contract, made),), None if known else settings))
    return chunks


def _learned_chunks(settings: AdviceSettings, race: Race, playing: AdviceSettings) -> list[PlayChunk]:
    """The learned players' play-outs: the first ``play_samples`` deals of every contract, not judged double
    dummy (their odds are read alone), :data:`LEARNED_CHUNK` deals of one contract a chunk."""
    chunks = []
    for track in sorted(race.tracks, key=lambda t: CONTRACTS.index(t.contract)):
        same = settings.policy_of(track.contract) == playing.policy_of(track.contract)
        tasks = [PlayTask(i, track.contract, track.outcomes[i].exchange if i < track.n and same else None)
                 for i in range(settings.deals)]
        chunks += [PlayChunk(playing, tuple(tasks[k:k + LEARNED_CHUNK])) for k in range(0, len(tasks), LEARNED_CHUNK)]
    return chunks


def dd_pairs(track: Track, played: Sequence[PlayedSample]) -> list[tuple[bool, int, int]]:
    """Each deal played out's double-dummy judgement (made, and the game points' low and high ends):
    the task's own when it judged the deal, else the race's of that sample."""
    out = []
    for s in played:
        if s.dd_makes is not None and s.dd_points_low is not None and s.dd_points_high is not None:
            out.append((s.dd_makes, s.dd_points_low, s.dd_points_high))
            continue
        o = track.outcomes[s.index]
        if o.makes is None:
            raise InternalError(f"sample {s.index} of {track.contract} has no double-dummy make-test to pair with")
        out.append((o.makes, o.payoff_low, o.payoff_high))
    return out


def paired_estimate(track: Track, played: Sequence[PlayedSample], settings: AdviceSettings) -> PlayedEstimate:
    """One contract's played estimate from its race track and its deals played out (see the module doc)."""
    contract: Contract = track.contract
    pairs = dd_pairs(track, played)
    m = len(played)
    made = [s.makes for s in played]
    dd_make = [d for d, _, _ in pairs]
    gap_p, gap_p_95 = _make_gap(made, dd_make)
    dd_lo, dd_hi = track.p_make_interval(PART_ALPHA)
    paired_p = (min(1.0, max(0.0, float(track.makes().mean()) + gap_p)),
                (max(0.0, dd_lo + gap_p_95[0]), min(1.0, dd_hi + gap_p_95[1])))
    p_make, p_95 = _held(paired_p, (sum(made) / m, clopper_pearson(sum(made), m, DIRECT_ALPHA)))

    points = [float(s.points) for s in played]
    d_mid, gap_95 = _points_gap(points, pairs, float(track.low), float(track.high))
    low, high = float(track.low), float(track.high)
    plo, phi = track.payoff_interval(PART_ALPHA)
    paired_pts = (min(high, max(low, track.mean_payoff() + d_mid)),
                  (max(low, plo + gap_95[0]), min(high, phi + gap_95[1])))
    pts, pts_95 = _held(paired_pts, (sum(points) / m, bounded_mean(points, low, high, DIRECT_ALPHA)))

    thirds, se_thirds = mean_se([float(s.thirds) for s in played])
    return PlayedEstimate(
        contract=contract, deals=m, makes=sum(made), dd_makes=sum(dd_make), p_make=p_make, p_make_95=p_95,
        gap_p_make=gap_p, gap_p_make_95=gap_p_95, mean_payoff=pts, payoff_95=pts_95, gap_payoff=d_mid,
        gap_payoff_95=gap_95, mean_thirds=thirds, se_thirds=se_thirds,
        multipliers=_multipliers(played, track.contract, settings), seconds=sum(s.seconds for s in played),
    )


def alone_estimate(track: Track, played: Sequence[PlayedSample], settings: AdviceSettings) -> PlayedEstimate:
    """One contract's played estimate from its deals played out alone (the learned players': hundreds of
    deals, more than the race judged): P(make) by Clopper-Pearson, the game points by the betting interval
    in the contract's range, each at 95%; the gaps to double dummy on the deals the race judged too."""
    m = len(played)
    made = [s.makes for s in played]
    points = [float(s.points) for s in played]
    low, high = float(track.low), float(track.high)
    judged = [(s, track.outcomes[s.index]) for s in played
              if s.index < track.n and track.outcomes[s.index].makes is not None]
    if judged:
        gap_p, gap_p_95 = _make_gap([s.makes for s, _ in judged], [bool(o.makes) for _, o in judged])
        gap_pts, gap_95 = _points_gap([float(s.points) for s, _ in judged],
                                      [(bool(o.makes), o.payoff_low, o.payoff_high) for _, o in judged], low, high)
    else:
        gap_p, gap_p_95, gap_pts, gap_95 = 0.0, (-1.0, 1.0), 0.0, (low - high, high - low)
    thirds, se_thirds = mean_se([float(s.thirds) for s in played])
    return PlayedEstimate(
        contract=track.contract, deals=m, makes=sum(made), dd_makes=sum(1 for _, o in judged if o.makes),
        p_make=sum(made) / m, p_make_95=clopper_pearson(sum(made), m, 0.05), gap_p_make=gap_p, gap_p_make_95=gap_p_95,
        mean_payoff=sum(points) / m, payoff_95=bounded_mean(points, low, high, 0.05), gap_payoff=gap_pts,
        gap_payoff_95=gap_95, mean_thirds=thirds, se_thirds=se_thirds,
        multipliers=_multipliers(played, track.contract, settings), seconds=sum(s.seconds for s in played),
    )


def played_difference(a: Track, a_played: Sequence[PlayedSample], b: Track, b_played: Sequence[PlayedSample]
                      ) -> tuple[float, float]:
    """The 95% interval of ``a``'s expected game points under play minus ``b``'s from the deals played out
    alone, paired on the same cards (the contracts are sampled on the same deals): the betting interval of
    the differences within their range."""
    by_index = {s.index: s for s in b_played}
    diffs = [float(x.points - by_index[x.index].points) for x in a_played if x.index in by_index]
    return bounded_mean(diffs, float(a.low - b.high), float(a.high - b.low), 0.05)


def _multipliers(played: Sequence[PlayedSample], contract: Contract, settings: AdviceSettings) -> dict[int, float]:
    """The share of the deals played out that ended at each multiplier."""
    counts: dict[int, int] = {}
    for s in played:
        k = multiplier_of(s.points, contract, settings.rules)
        counts[k] = counts.get(k, 0) + 1
    return {k: v / len(played) for k, v in sorted(counts.items())}


def _make_gap(made: Sequence[bool], dd_make: Sequence[bool]) -> tuple[float, tuple[float, float]]:
    """P(make) played minus double dummy on the same deals, and its interval at ``1 - PART_ALPHA``: the
    shares of the deals made only in play and only double dummy, each bounded by Clopper-Pearson."""
    m = len(made)
    b = sum(1 for p, d in zip(made, dd_make) if p and not d)
    c = sum(1 for p, d in zip(made, dd_make) if d and not p)
    lb, ub = clopper_pearson(b, m, PART_ALPHA / 2)
    lc, uc = clopper_pearson(c, m, PART_ALPHA / 2)
    return (b - c) / m, (lb - uc, ub - lc)


def _points_gap(points: Sequence[float], pairs: Sequence[tuple[bool, int, int]], low: float, high: float
                ) -> tuple[float, tuple[float, float]]:
    """The game points played minus double dummy on the same deals (the open double-dummy deals at their
    midpoint), and its interval at ``1 - PART_ALPHA``: each end by a one-sided betting bound, the open
    deals at the end that widens it; a difference lies within the range's span either way."""
    d_mid = mean_se([p - (lo + hi) / 2 for p, (_, lo, hi) in zip(points, pairs)])[0]
    span = high - low
    below = lower_bound([p - hi for p, (_, _, hi) in zip(points, pairs)], -span, span, PART_ALPHA / 2,
                        horizon=len(points))
    above = upper_bound([p - lo for p, (_, lo, _) in zip(points, pairs)], -span, span, PART_ALPHA / 2,
                        horizon=len(points))
    return d_mid, (below, above)


def gap_difference(a: Track, a_played: Sequence[PlayedSample], b: Track, b_played: Sequence[PlayedSample]
                   ) -> tuple[float, float]:
    """The 95% interval of ``a``'s expected game points under play minus ``b``'s: the double-dummy
    difference's confidence sequence (97.5%) plus the gaps' difference paired on the same deals
    (97.5%, each end a one-sided betting bound within the differences' range); the contracts are
    sampled on the same cards."""
    dlo, dhi = difference_interval(a, b, DIFF_ALPHA)
    pa, pb = dd_pairs(a, a_played), dd_pairs(b, b_played)
    # a's gap at its low end minus b's at its high end, and the reverse
    lo = [(x.points - ha) - (y.points - lb) for x, y, (_, _, ha), (_, lb, _) in zip(a_played, b_played, pa, pb)]
    hi = [(x.points - la) - (y.points - hb) for x, y, (_, la, _), (_, _, hb) in zip(a_played, b_played, pa, pb)]
    span = (a.high - a.low) + (b.high - b.low)
    if not lo:
        return dlo - span, dhi + span
    n = len(lo)
    return (dlo + lower_bound(lo, -span, span, DIFF_ALPHA / 2, horizon=n),
            dhi + upper_bound(hi, -span, span, DIFF_ALPHA / 2, horizon=n))


def played_advice(race: Race, played: Sequence[PlayedSample], settings: AdviceSettings) -> PlayedAdvice:
    """Every contract's played estimate and the recommendation made on them: the contract of highest
    expected game points under play, or pass when none is above 0.  A toss-up with it: pass when its
    interval reaches 0, another contract when the interval of their difference (paired, as the
    contracts are sampled on the same deals) reaches 0."""
    estimates = []
    mine: dict[str, list[PlayedSample]] = {}
    for track in race.tracks:
        mine[track.contract] = sorted((s for s in played if s.contract == track.contract), key=lambda s: s.index)
        estimate = alone_estimate if settings.players == "learned" else paired_estimate
        estimates.append(estimate(track, mine[track.contract], settings))
    top = max(estimates, key=lambda e: (e.mean_payoff, -CONTRACTS.index(e.contract)))
    best = top.contract if top.mean_payoff > 0 else "pass"
    parts: list[tuple[str, str]] = []
    if best == "pass":
        parts = [(e.contract, f"{e.contract} (up to {e.payoff_95[1]:+.2f})") for e in estimates if e.payoff_95[1] >= 0]
        why = (f"no contract's expected game points under play are above 0 (best: {top.contract} "
               f"{top.mean_payoff:+.2f}, {top.payoff_95[0]:+.2f} to {top.payoff_95[1]:+.2f})")
    else:
        a = race.track(best)
        for e in estimates:
            if e is top:
                continue
            difference = played_difference if settings.players == "learned" else gap_difference
            lo, hi = difference(a, mine[best], race.track(e.contract), mine[e.contract])
            if lo <= 0:
                parts.append((e.contract, f"{e.contract} (within {max(abs(lo), abs(hi)):.2f} game points)"))
        if top.payoff_95[0] <= 0:
            parts.append(("pass", "passing (not clearly above 0)"))
        why = (f"{best} has the highest expected game points under play: {top.mean_payoff:+.2f} "
               f"({top.payoff_95[0]:+.2f} to {top.payoff_95[1]:+.2f}), P(make) {top.p_make:.0%}, "
               f"value {CONTRACT_VALUE[best]} per defender")
    parts.sort(key=lambda p: CONTRACTS.index(p[0]) if p[0] in CONTRACTS else len(CONTRACTS))
    if parts:
        why += "; a toss-up with " + ", ".join(text for _, text in parts)
    return PlayedAdvice(
        estimates=tuple(sorted(estimates, key=lambda e: CONTRACTS.index(e.contract))), recommendation=best,
        toss_up=tuple(c for c, _ in parts), reason=why, players=played_players(settings), layouts=settings.layouts,
        defender_policy=played_policies(settings)[1],
        interval_method=LEARNED_INTERVAL_METHOD if settings.players == "learned" else PLAYED_INTERVAL_METHOD,
    )
