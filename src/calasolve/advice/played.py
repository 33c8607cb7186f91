"""The default advice's played side: each contract's odds when nobody sees the hidden cards, from
the double-dummy samples and a few paired play-outs (docs/advisor.md, "Played odds (the default)").

The double-dummy race judges ``n`` sampled deals of a contract; the first
``play_samples`` of those same deals are also played out
(:mod:`calasolve.advice.realplay`) by PIMC players on every seat, who see only
their own hands: the contract-minded player by default, the defenders'
exchange by the ``sampled`` policy (each defender chooses with what it sees).
The played estimate is the double-dummy mean over all ``n`` deals plus the
mean gap, played minus double dummy, over the deals played out:

    P_played = P_dd(n) + [mean over m of (played_i - dd_i)]

Both parts are unbiased, so the sum is; the pairing takes out most of the
deals' spread (a strong hand makes both ways, a weak one fails both ways),
so few play-outs are enough for the gap where the two rarely differ.  The
95% interval is where two 97.5% intervals of the same number meet (the
union bound): the paired one, itself the sum of the double-dummy part's
confidence sequence (valid whatever the race's stopping) and the gap's on
a fixed number of deals, 98.75% each (for P(make), the discordant deals'
shares bounded by Wilson intervals; for game points, the mean ± z
standard errors, the double-dummy deals left open counting at either
end); and the deals played out read alone (Wilson; mean ± z standard
errors), which is the narrower where the two often differ.  The point
estimate is the paired one, inside that interval.

The play-outs are tasks of their own, seeded by the seed and the sample
alone, so the answer is the same for any ``jobs`` and on a Dask executor.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import NormalDist
from typing import Sequence

from ..game.errors import InternalError
from ..game.state import CONTRACT_VALUE, CONTRACTS, Contract
from ..search.payoff import multiplier_of
from ..types.advice import PlayedAdvice, PlayedEstimate
from .race import Race, Track, difference_interval
from ..types.playout import PlayedSample
from .realplay import PlayChunk, PlayTask
from .settings import AdviceSettings
from .stats import mean_se, wilson

__all__ = [
    "PLAYED_INTERVAL_METHOD", "dd_pairs", "gap_difference", "paired_estimate", "play_chunks", "played_advice",
    "played_players",
]

#: The 5% of a played interval: half to the paired estimate (double dummy plus the gap, a quarter
#: each), half to the deals played out read alone; the interval is where both say.
PART_ALPHA = 0.0125
DIRECT_ALPHA = 0.025
#: The discordant deals' four Wilson bounds share the gap's share.
Z_DISCORDANT = NormalDist().inv_cdf(1 - PART_ALPHA / 4)
Z_GAP = NormalDist().inv_cdf(1 - PART_ALPHA / 2)
Z_DIRECT = NormalDist().inv_cdf(1 - DIRECT_ALPHA / 2)
#: A difference between two contracts: the double-dummy difference and the gaps' difference, 2.5% each.
DIFF_ALPHA = 0.025
Z_DIFF = NormalDist().inv_cdf(1 - DIFF_ALPHA / 2)

PLAYED_INTERVAL_METHOD = (
    "95% by the union bound of two 97.5% intervals, intersected: the paired estimate (double dummy over every "
    "sample, its confidence sequence at 98.75%, plus the gap played minus double dummy on the deals played out "
    "at 98.75%: Wilson on the discordant deals for P(make), mean ± z standard errors for game points) and the "
    "deals played out alone (Wilson for P(make), mean ± z standard errors for game points)"
)


def _meet(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """Where two intervals of one quantity both hold; their hull when they do not meet (one of them failed)."""
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else (min(a[0], b[0]), max(a[1], b[1]))


def played_players(settings: AdviceSettings) -> str:
    """Who played the deals out, in words."""
    kind = "contract-minded" if settings.players == "contract" else "thirds-minded"
    return f"{kind} PIMC on every seat, {settings.layouts} layouts a decision"


def play_chunks(settings: AdviceSettings, race: Race) -> list[PlayChunk]:
    """The play-outs: the first ``play_samples`` deals of every contract, one deal a task; a deal the
    race has no full double-dummy judgement of (it stopped sooner, or asked only the upper end) is
    also judged double dummy by its task, as the race would have."""
    playing = replace(settings, defender_policy="sampled", dd=False)
    chunks = []
    for i in range(settings.deals):
        for track in sorted(race.tracks, key=lambda t: CONTRACTS.index(t.contract)):
            known = i < track.n and track.outcomes[i].makes is not None
            # the exchange the race made, where the play-out's policy is the race's: not made twice
            same = settings.policy_of(track.contract) == playing.policy_of(track.contract)
            made = track.outcomes[i].exchange if i < track.n and same else None
            chunks.append(PlayChunk(playing, (PlayTask(i, track.contract, made),), None if known else settings))
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
    dd_make = [d for d, _, _ in pairs]
    dd_low = [float(lo) for _, lo, _ in pairs]
    dd_high = [float(hi) for _, _, hi in pairs]
    m = len(played)
    made = [s.makes for s in played]
    b = sum(1 for p, d in zip(made, dd_make) if p and not d)
    c = sum(1 for p, d in zip(made, dd_make) if d and not p)
    lb, ub = wilson(b, m, Z_DISCORDANT)
    lc, uc = wilson(c, m, Z_DISCORDANT)
    gap_p, gap_p_95 = (b - c) / m, (lb - uc, ub - lc)
    dd_p = float(track.makes().mean())
    dd_lo, dd_hi = track.p_make_interval(PART_ALPHA)
    paired_95 = (max(0.0, dd_lo + gap_p_95[0]), min(1.0, dd_hi + gap_p_95[1]))
    p_95 = _meet(paired_95, wilson(sum(made), m, Z_DIRECT))
    p_make = min(p_95[1], max(p_95[0], dd_p + gap_p))

    points = [float(s.points) for s in played]
    d_mid = mean_se([p - (lo + hi) / 2 for p, lo, hi in zip(points, dd_low, dd_high)])[0]
    d_lo, se_lo = mean_se([p - hi for p, hi in zip(points, dd_high)])
    d_hi, se_hi = mean_se([p - lo for p, lo in zip(points, dd_low)])
    low, high = float(track.low), float(track.high)
    direct, se_direct = mean_se(points)
    if m > 1:
        gap_95 = (d_lo - Z_GAP * se_lo, d_hi + Z_GAP * se_hi)
        alone = (max(low, direct - Z_DIRECT * se_direct), min(high, direct + Z_DIRECT * se_direct))
    else:  # one deal has no spread to speak of: only the range holds
        gap_95, alone = (low - high, high - low), (low, high)
    plo, phi = track.payoff_interval(PART_ALPHA)
    pts_95 = _meet((max(low, plo + gap_95[0]), min(high, phi + gap_95[1])), alone)
    pts = min(pts_95[1], max(pts_95[0], track.mean_payoff() + d_mid))

    thirds, se_thirds = mean_se([float(s.thirds) for s in played])
    counts: dict[int, int] = {}
    for s in played:
        k = multiplier_of(s.points, contract, settings.rules)
        counts[k] = counts.get(k, 0) + 1
    return PlayedEstimate(
        contract=contract, deals=m, makes=sum(made), dd_makes=sum(dd_make), p_make=p_make, p_make_95=p_95,
        gap_p_make=gap_p, gap_p_make_95=gap_p_95, mean_payoff=pts, payoff_95=pts_95, gap_payoff=d_mid,
        gap_payoff_95=gap_95, mean_thirds=thirds, se_thirds=se_thirds,
        multipliers={k: v / m for k, v in sorted(counts.items())}, seconds=sum(s.seconds for s in played),
    )


def gap_difference(a: Track, a_played: Sequence[PlayedSample], b: Track, b_played: Sequence[PlayedSample]
                   ) -> tuple[float, float]:
    """The 95% interval of ``a``'s expected game points under play minus ``b``'s: the double-dummy
    difference's confidence sequence (97.5%) plus the gaps' difference paired on the same deals
    (97.5%, mean ± z standard errors); the contracts are sampled on the same cards."""
    dlo, dhi = difference_interval(a, b, DIFF_ALPHA)
    pa, pb = dd_pairs(a, a_played), dd_pairs(b, b_played)
    # a's gap at its low end minus b's at its high end, and the reverse
    lo = [(x.points - ha) - (y.points - lb) for x, y, (_, _, ha), (_, lb, _) in zip(a_played, b_played, pa, pb)]
    hi = [(x.points - la) - (y.points - hb) for x, y, (_, la, _), (_, _, hb) in zip(a_played, b_played, pa, pb)]
    mlo, slo = mean_se(lo)
    mhi, shi = mean_se(hi)
    if len(lo) < 2:  # one deal: only the range of the gaps' difference holds
        span = (a.high - a.low) + (b.high - b.low)
        return dlo - span, dhi + span
    return dlo + mlo - Z_DIFF * slo, dhi + mhi + Z_DIFF * shi


def played_advice(race: Race, played: Sequence[PlayedSample], settings: AdviceSettings) -> PlayedAdvice:
    """Every contract's played estimate and the recommendation made on them: the contract of highest
    expected game points under play, or pass when none is above 0.  A toss-up with it: pass when its
    interval reaches 0, another contract when the interval of their difference (paired, as the
    contracts are sampled on the same deals) reaches 0."""
    estimates = []
    mine: dict[str, list[PlayedSample]] = {}
    for track in race.tracks:
        mine[track.contract] = sorted((s for s in played if s.contract == track.contract), key=lambda s: s.index)
        estimates.append(paired_estimate(track, mine[track.contract], settings))
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
            lo, hi = gap_difference(a, mine[best], race.track(e.contract), mine[e.contract])
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
        defender_policy="sampled", interval_method=PLAYED_INTERVAL_METHOD,
    )
