"""The sequential advisor against the fixed-sample reference runs of the benchmark hands.

``tests/data/advise_reference.json`` holds, for every hand of
:data:`calasolve.search.suites.ADVISE_HANDS`, a run of 2,000 samples per contract
with seed 1 and the defaults (``benchmarks/advise_reference.py`` made it).
Where that run separates its two best choices by more than its own 95%
margin, the sequential advisor (defaults, seed 1) must recommend the same;
elsewhere it must report a toss-up.  The default run checks the three
hands that race fastest; ``-m slow`` checks them all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calasolve.advice.advisor import advise

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "advise_reference.json").read_text())["hands"]
QUICK = {"32A.32A.32A.32A", "7654.7654.765.7", "32ARC.32A.3A.A5"}


def _cases() -> list[object]:
    return [
        pytest.param(row, id=f"{row['hand']}@{row['seat']}",
                     marks=() if row["hand"] in QUICK else (pytest.mark.slow,))
        for row in REFERENCE
    ]


def test_the_reference_covers_the_suite() -> None:
    from calasolve.search.suites import ADVISE_HANDS

    assert [(r["hand"], r["seat"]) for r in REFERENCE] == [(h.hand, h.seat) for h in ADVISE_HANDS]
    assert all(r["samples"] == 2000 for r in REFERENCE)


@pytest.mark.parametrize("row", _cases())
def test_sequential_advice_matches_the_fixed_run(row: dict[str, object]) -> None:
    advice = advise(str(row["hand"]), play="dd", seat=int(row["seat"]), seed=int(row["seed"]), jobs=2)  # type: ignore[call-overload]
    if row["separated"]:
        assert advice.recommendation == row["first"], (advice.reason, row)
    else:
        assert advice.toss_up, (advice.reason, row)
