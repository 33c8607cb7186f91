"""The bid advisor's words: how the game points are obtained, what each policy's estimate is, and
why the recommendation (one sentence)."""

from __future__ import annotations

from typing import Sequence

from ..game.state import CONTRACT_VALUE
from .race import Race, difference_interval

#: How the game points are obtained, as reported in the output.
PAYOFF_METHOD = (
    "null-window tests: 18 thirds for make or fail, then 30 (made) or 6 (failed) for the multiplier; "
    "the goal search only where those leave it open and the contract is still in the race"
)
#: What each policy's estimate is, said in the output next to its name.
POLICY_NOTES = {
    "soloist": {
        "sampled": "the soloist chooses with what they know",
        "learned": "the soloist chooses with what they know, by a network imitating the sampled policy",
        "dd": "the soloist sees every card: an optimistic upper bound",
    },
    "defenders": {
        "dd": "the defenders see every card: conservative for the soloist",
        "heuristic": "plain card sense: leans towards the soloist",
        "sampled": "each defender chooses with what it sees",
        "learned": "each defender chooses with what it sees, by networks imitating the sampled policy",
    },
}


def reason(race: Race, recommendation: str, ties: Sequence[str]) -> str:
    """One sentence on why: the best estimate and what it is a toss-up with."""
    if recommendation == "pass":
        lead = race.leader([t for t in race.tracks if t.n])
        if lead is None:
            return "no contract was sampled"
        if ties:
            return (f"no contract is clearly above the pass line (best: {lead.contract} "
                    f"{lead.mean_payoff():+.2f} game points, a toss-up with passing)")
        return f"every contract's expected game points are below 0 (best: {lead.contract} {lead.mean_payoff():+.2f})"
    track = race.track(recommendation)
    lo, hi = track.payoff_interval()
    text = (f"{recommendation} has the highest expected game points: {track.mean_payoff():+.2f} "
            f"({lo:+.2f} to {hi:+.2f}), value {CONTRACT_VALUE[recommendation]} per defender")
    if ties:
        parts = []
        for other in ties:
            if other == "pass":
                parts.append("passing (not clearly above 0)")
            else:
                dlo, dhi = difference_interval(track, race.track(other))
                parts.append(f"{other} (within {max(abs(dlo), abs(dhi)):.2f} game points)")
        text += "; a toss-up with " + ", ".join(parts)
    return text
