"""``calasolve advise --play``: dd unchanged, pimc and both in text and strict JSON, bad values as one line."""

from __future__ import annotations

import json

import pytest
from steady import steady
from strict_json import strict_loads

from cli_run import run

HAND = "32AR.32A.3A.2A5"
QUICK = ["--seed", "3", "--samples", "4", "--contracts", "solissimo,dividete", "--jobs", "1"]
PLAY = ["--play-samples", "2", "--pimc-samples", "2"]


def test_play_dd_is_the_default_advice_without_its_played_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, default, _ = run(["advise", "--json", *PLAY, *QUICK, HAND], capsys)
    # with the default's exact thirds: those of the deals it plays out (2)
    code_dd, dd, _ = run(["advise", "--json", "--play", "dd", "--thirds-samples", "2", *PLAY, *QUICK, HAND], capsys)
    assert code == code_dd == 0
    both, alone = json.loads(default), json.loads(dd)
    assert "play" not in alone and "played" not in alone and both["basis"] == "played" and both["thirds_samples"] == 2
    # the default's double-dummy side, its recommendation put back, is --play dd's
    dd_side = {k: v for k, v in both.items() if k not in ("basis", "played", "dd_recommendation", "dd_toss_up", "dd_reason")}
    dd_side.update(recommendation=both["dd_recommendation"], toss_up=both["dd_toss_up"], reason=both["dd_reason"])
    assert steady(dd_side) == steady(alone)


def test_play_both_json_is_strict_and_holds_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", "--json", "--play", "both", *PLAY, *QUICK, HAND], capsys)
    assert code == 0, err
    obj = strict_loads(out)
    _, plain, _ = run(["advise", "--json", "--play", "dd", *QUICK, HAND], capsys)
    # the double-dummy advice first, as --play dd
    assert steady({k: v for k, v in obj.items() if k not in ("play", "pimc")}) == steady(json.loads(plain))
    assert obj["play"] == "both" and obj["pimc"]["play_samples"] == 2 and obj["pimc"]["pimc_samples"] == 2
    for c in obj["pimc"]["contracts"]:
        assert c["deals"] == c["pimc"]["deals"] == c["dd"]["deals"] == 2
        assert set(c["gap"]) >= {"p_make", "se_p_make", "points", "se_points", "points_95", "thirds", "se_thirds"}
        assert c["gap"]["p_make"] == pytest.approx(c["pimc"]["p_make"] - c["dd"]["p_make"])
    assert obj["pimc"]["best"] in ("solissimo", "dividete", "pass")


def test_play_pimc_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", "--json", "--play", "pimc", *PLAY, *QUICK, HAND], capsys)
    assert code == 0, err
    obj = strict_loads(out)
    assert obj["play"] == "pimc" and "recommendation" not in obj  # no double-dummy advice asked
    assert all(c["dd"] is None and c["gap"] is None for c in obj["contracts"])
    code, text, _ = run(["advise", "--play", "pimc", *PLAY, *QUICK, HAND], capsys)
    # the answer first, one table of the PIMC odds (no double-dummy floor: none was asked), within 80 columns
    lines = text.splitlines()
    answer = lines[lines.index("") + 1]
    assert code == 0 and answer.startswith((f"Bid {obj['best']}:", "Pass")) and "P(make) under PIMC play" in text
    assert "DD floor" not in text and max(map(len, lines)) <= 80 and lines[-1].endswith("(--explain: how)")
    assert "best under PIMC play:" not in text
    code, text, _ = run(["advise", "--play", "pimc", "--explain", *PLAY, *QUICK, HAND], capsys)
    assert code == 0 and "under PIMC play" in text and "best under PIMC play:" in text
    assert "seat 0 holds" in text and "DD:" not in text


def test_play_both_text_shows_the_gap(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(["advise", "--play", "both", *PLAY, *QUICK, HAND], capsys)
    # the PIMC odds are the answer, the double-dummy advice the floor beside them
    assert code == 0 and "P(make) under PIMC play" in text and "DD floor" in text and "gap: P(make)" not in text
    assert max(map(len, text.splitlines())) <= 80
    code, text, _ = run(["advise", "--play", "both", "--explain", *PLAY, *QUICK, HAND], capsys)
    assert code == 0 and "recommendation:" in text and "under PIMC play" in text and "gap: P(make)" in text
    assert text.count("seat 0 holds") == 1


@pytest.mark.parametrize("argv, fragment", [
    (["--play", "bogus"], "--play"),
    (["--play", "pimc", "--play-samples", "0"], "--play-samples"),
    (["--play", "pimc", "--pimc-samples", "0"], "--pimc-samples"),
])
def test_bad_play_values_are_one_line(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", *argv, HAND], capsys)
    assert code == 2 and out == "" and fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
