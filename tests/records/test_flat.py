"""``solve --flat``: one object of scalars per record, loadable as a data frame."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from calasolve.cli import main
from calasolve.records.dealfile import read_deal_file

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "example.deal")


def solve(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict]:
    with pytest.raises(SystemExit) as info:
        main(["solve", *argv])
    out, err = capsys.readouterr()
    assert info.value.code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_flat_is_scalars_only_and_agrees_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    flat = solve(["--flat", EXAMPLE], capsys)
    nested = solve(["--json", EXAMPLE], capsys)
    records = read_deal_file(EXAMPLE)
    assert len(flat) == len(nested) == len(records)
    for f, n, r in zip(flat, nested, records):
        assert all(isinstance(v, (str, int, float, bool, type(None))) for v in f.values()), f
        for key in ("record", "file", "name", "contract", "soloist", "soloist_thirds", "makes"):
            assert f[key] == n[key]
        assert f["line"].split() == n["line"]
        assert dict(w.split("=") for w in f["cards"].split()) == {k: str(v) for k, v in n["cards"].items()}
        assert f["best_card"] == next(iter(n["cards"]))
        assert f["hands"] == str(r).split("hands: ")[1].split("\n")[0]


def test_flat_loads_into_pandas(capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    with pytest.raises(SystemExit):
        main(["solve", "--flat", "--target", "18", EXAMPLE])
    frame = pd.read_json(io.StringIO(capsys.readouterr().out), lines=True)
    assert len(frame) == 6 and frame["makes"].dtype == bool
    assert frame["makes"].tolist() == [r["makes"] for r in solve(["--json", "--target", "18", EXAMPLE], capsys)]
