"""The default advice's played side: each contract's odds when nobody sees the hidden cards, from
the double-dummy samples and a few paired play-outs (docs/advisor.md, "Played odds").

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
so few play-outs are enough for the gap.  The interval is the sum of two
97.5% intervals (so 95% by the union bound): the double-dummy part's
confidence sequence, valid whatever the race's stopping, and the gap's on a
fixed number of deals: for P(make), the discordant deals' shares bounded by
Wilson intervals (played makes where double dummy fails, and the reverse);
for game points, the mean ± z standard errors (normal approximation), the
double-dummy deals left open counting at either end.

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
from .race import Race, Track
from .realplay import PlayChunk, PlayedSample, PlayTask
from .settings import AdviceSettings
from .stats import mean_se, wilson

__all__ = ["PLAYED_INTERVAL_METHOD", "paired_estimate", "play_chunks", "played_advice", "played_players"]

#: Each side of the union bound: the double-dummy part's and the gap's share of the 5%.
PART_ALPHA = 0.025
#: The discordant deals' two Wilson intervals share the gap's 2.5%.
Z_DISCORDANT = NormalDist().inv_cdf(1 - PART_ALPHA / 4)
Z_GAP = NormalDist().inv_cdf(1 - PART_ALPHA / 2)

PLAYED_INTERVAL_METHOD = (
    "double dummy over every sample plus the gap (played minus double dummy) on the deals played out, paired; "
    "95% by the union bound of the double-dummy confidence sequence (97.5%) and the gap's fixed-n interval "
    "(97.5%: Wilson on the discordant deals for P(make), mean ± z standard errors for game points)"
)


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
            chunks.append(PlayChunk(playing, (PlayTask(i, track.contract),), None if known else settings))
    return chunks


def paired_estimate(track: Track, played: Sequence[PlayedSample], seconds: float, settings: AdviceSettings) -> PlayedEstimate:
    """One contract's played estimate from its race track and its deals played out (see the module doc)."""
    contract: Contract = track.contract
    dd_make: list[bool] = []
    dd_low: list[float] = []
    dd_high: list[float] = []
    for s in played:
        if s.dd_makes is not None and s.dd_points_low is not None and s.dd_points_high is not None:
            dd_make.append(s.dd_makes)
            dd_low.append(s.dd_points_low)
            dd_high.append(s.dd_points_high)
        else:
            o = track.outcomes[s.index]
            if o.makes is None:
                raise InternalError(f"sample {s.index} of {contract} has no double-dummy make-test to pair with")
            dd_make.append(o.makes)
            dd_low.append(o.payoff_low)
            dd_high.append(o.payoff_high)
    m = len(played)
    made = [s.makes for s in played]
    b = sum(1 for p, d in zip(made, dd_make) if p and not d)
    c = sum(1 for p, d in zip(made, dd_make) if d and not p)
    lb, ub = wilson(b, m, Z_DISCORDANT)
    lc, uc = wilson(c, m, Z_DISCORDANT)
    gap_p, gap_p_95 = (b - c) / m, (lb - uc, ub - lc)
    dd_p = float(track.makes().mean())
    dd_lo, dd_hi = track.p_make_interval(PART_ALPHA)
    p_make = min(1.0, max(0.0, dd_p + gap_p))
    p_95 = (max(0.0, dd_lo + gap_p_95[0]), min(1.0, dd_hi + gap_p_95[1]))

    points = [float(s.points) for s in played]
    d_mid = mean_se([p - (lo + hi) / 2 for p, lo, hi in zip(points, dd_low, dd_high)])[0]
    d_lo, se_lo = mean_se([p - hi for p, hi in zip(points, dd_high)])
    d_hi, se_hi = mean_se([p - lo for p, lo in zip(points, dd_low)])
    gap_95 = (d_lo - Z_GAP * se_lo, d_hi + Z_GAP * se_hi)
    low, high = float(track.low), float(track.high)
    pts = min(high, max(low, track.mean_payoff() + d_mid))
    plo, phi = track.payoff_interval(PART_ALPHA)
    pts_95 = (max(low, plo + gap_95[0]), min(high, phi + gap_95[1]))

    thirds, se_thirds = mean_se([float(s.thirds) for s in played])
    counts: dict[int, int] = {}
    for s in played:
        k = multiplier_of(s.points, contract, settings.rules)
        counts[k] = counts.get(k, 0) + 1
    return PlayedEstimate(
        contract=contract, deals=m, makes=sum(made), dd_makes=sum(dd_make), p_make=p_make, p_make_95=p_95,
        gap_p_make=gap_p, gap_p_make_95=gap_p_95, mean_payoff=pts, payoff_95=pts_95, gap_payoff=d_mid,
        gap_payoff_95=gap_95, mean_thirds=thirds, se_thirds=se_thirds,
        multipliers={k: v / m for k, v in sorted(counts.items())}, seconds=seconds,
    )


def played_advice(race: Race, played: Sequence[PlayedSample], settings: AdviceSettings) -> PlayedAdvice:
    """Every contract's played estimate and the recommendation made on them: the contract of highest
    expected game points under play, or pass when none is above 0; the choices whose interval
    reaches the best's are a toss-up with it."""
    estimates = []
    for track in race.tracks:
        mine = sorted((s for s in played if s.contract == track.contract), key=lambda s: s.index)
        estimates.append(paired_estimate(track, mine, sum(s.seconds for s in mine), settings))
    top = max(estimates, key=lambda e: (e.mean_payoff, -CONTRACTS.index(e.contract)))
    best = top.contract if top.mean_payoff > 0 else "pass"
    ties: list[str] = []
    if best == "pass":
        ties = [e.contract for e in estimates if e.payoff_95[1] >= 0]
        why = (f"no contract's expected game points under play are above 0 (best: {top.contract} "
               f"{top.mean_payoff:+.2f}, {top.payoff_95[0]:+.2f} to {top.payoff_95[1]:+.2f})")
    else:
        ties = [e.contract for e in estimates if e is not top and e.payoff_95[1] >= top.payoff_95[0]]
        if top.payoff_95[0] <= 0:
            ties.append("pass")
        why = (f"{best} has the highest expected game points under play: {top.mean_payoff:+.2f} "
               f"({top.payoff_95[0]:+.2f} to {top.payoff_95[1]:+.2f}), P(make) {top.p_make:.0%}, "
               f"value {CONTRACT_VALUE[best]} per defender")
    ties.sort(key=lambda c: CONTRACTS.index(c) if c in CONTRACTS else len(CONTRACTS))
    if ties:
        why += "; a toss-up with " + ", ".join("passing" if c == "pass" else c for c in ties)
    return PlayedAdvice(
        estimates=tuple(sorted(estimates, key=lambda e: CONTRACTS.index(e.contract))), recommendation=best,
        toss_up=tuple(ties), reason=why, players=played_players(settings), layouts=settings.layouts,
        defender_policy="sampled", interval_method=PLAYED_INTERVAL_METHOD,
    )
