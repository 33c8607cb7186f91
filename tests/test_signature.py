"""The search's signature: node counts on fixed work, kept in tests/data/signature.json.

Like Stockfish's ``bench``: a change that alters what the C core searches (an
ordering, a bound, a table policy) changes the node counts, and so fails here
even when every value stays right.  A deliberate change rewrites the file with
``python3 -m pytest tests/test_signature.py --update-golden``; say why in the
commit message.  The refactorings that must not change the search (issue #18)
keep it as it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calasolve import best_exchange, read_deal_file
from calasolve.cli import main
from calasolve.search.engines import make_solver

ROOT = Path(__file__).resolve().parent.parent
SIGNATURE = ROOT / "tests" / "data" / "signature.json"

#: name -> the `calasolve bench` arguments whose summary's signature is kept
BENCH = {
    "strong 40": ["--deals", "40"],
    "random 40": ["--suite", "random", "--deals", "40"],
    "strong 40 reaches 18": ["--deals", "40", "--target", "18"],
}


def _bench_signature(argv: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    with pytest.raises(SystemExit) as info:
        main(["bench", "--json", *argv])
    out, _ = capsys.readouterr()
    assert info.value.code in (0, None)
    lines = [json.loads(line) for line in out.splitlines()]
    signature = lines[-1]["summary"]["signature"]
    assert signature == sum(line["nodes"] for line in lines[:-1])
    return int(signature)


def _exchange_nodes() -> dict[str, int]:
    # the list search (cs_best_of) on every contract's exchange, one fresh solver per record
    out = {}
    for rec in read_deal_file(str(ROOT / "tests" / "golden" / "exchanges.deal")):
        out[rec.name or "?"] = best_exchange(rec, solver=make_solver(32), top=4).nodes
    return out


def test_signature(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    got = {"bench": {name: _bench_signature(argv, capsys) for name, argv in BENCH.items()},
           "exchange --top 4": _exchange_nodes()}
    if update_golden:
        SIGNATURE.write_text(json.dumps(got, indent=2) + "\n", encoding="utf-8")
    assert got == json.loads(SIGNATURE.read_text(encoding="utf-8"))
