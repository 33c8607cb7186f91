"""The text output: golden files for every format, one notation per output, the diagrams.

The golden outputs live in tests/golden/; after a deliberate change of the
text, rewrite them with ``python3 -m pytest tests/cli/test_text.py --update-golden``
and read the diff as a card player would before committing it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calasolve.search import engines
from calasolve.game.cards import parse_hand
from cli_run import run
from calasolve.game.notation import LETTERS, SYMBOLS, hand_diagram, notation, plural, table_diagram

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"

#: name -> command line (paths relative to the repository, as the output shows them)
CASES = {
    "check": ["check", "examples/example.deal", "examples/played.deal"],
    "check-verbose": ["check", "--verbose", "examples/example.deal"],
    "check-verbose-symbols": ["check", "--verbose", "--symbols", "examples/played.deal"],
    "solve": ["solve", "--jobs", "1", "examples/example.deal"],
    "solve-symbols": ["solve", "--jobs", "1", "--symbols", "examples/example.deal"],
    "solve-target": ["solve", "--jobs", "1", "--target", "18", "examples/example.deal"],
    "solve-payoff": ["solve", "--jobs", "1", "--objective", "payoff", "examples/example.deal"],
    "solve-exchanges": ["solve", "--jobs", "1", "--top", "4", "tests/golden/exchanges.deal"],
    "analyse": ["analyse", "--jobs", "1", "examples/played.deal"],
    "analyse-symbols": ["analyse", "--jobs", "1", "--symbols", "examples/played.deal"],
}

#: a card token in letters (rank then suit letter) and in symbols
LETTER_CARD = re.compile(r"(?<![\w'])[3-7FCRA2][BSCD](?![\w'])")
SYMBOL_CARD = re.compile(r"[3-7FCRA2][♣♠♥♦]")


@pytest.fixture
def fresh_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository root with a new solver and no notation setting."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CALASOLVE_SYMBOLS", raising=False)
    engines.forget()


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, capsys: pytest.CaptureFixture[str], fresh_cli: None, update_golden: bool) -> None:
    code, out, err = run(CASES[name], capsys)
    assert code == 0 and err == ""
    path = GOLDEN / f"{name}.txt"
    if update_golden:
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8"), f"{name}: rerun with --update-golden and review the diff"


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_notation_per_output(name: str) -> None:
    """No golden output mixes letter cards (AB) and symbol cards (A♣)."""
    text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    symbols = "--symbols" in CASES[name]
    assert bool(SYMBOL_CARD.search(text)) == symbols
    assert not any(ch in text for ch in "♣♠♥♦") or symbols
    if symbols:
        assert not LETTER_CARD.search(text), LETTER_CARD.search(text)
    else:
        assert LETTER_CARD.search(text)


def test_environment_turns_symbols_on(capsys: pytest.CaptureFixture[str], fresh_cli: None,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALASOLVE_SYMBOLS", "1")
    _, with_env, _ = run(["check", "--verbose", "examples/played.deal"], capsys)
    assert with_env == (GOLDEN / "check-verbose-symbols.txt").read_text(encoding="utf-8")
    _, letters, _ = run(["check", "--verbose", "--letters", "examples/played.deal"], capsys)
    assert "♣" not in letters and LETTER_CARD.search(letters)


def test_json_stays_in_letters(capsys: pytest.CaptureFixture[str], fresh_cli: None,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALASOLVE_SYMBOLS", "1")
    code, out, _ = run(["solve", "--json", "--jobs", "1", "examples/example.deal"], capsys)
    assert code == 0 and not any(ch in out for ch in "♣♠♥♦")


def test_notation_choice() -> None:
    assert notation(environ={}) is LETTERS and notation(environ={"CALASOLVE_SYMBOLS": "yes"}) is SYMBOLS
    assert notation(False, environ={"CALASOLVE_SYMBOLS": "1"}) is LETTERS
    assert notation(environ={"CALASOLVE_SYMBOLS": "0"}) is LETTERS


def test_hand_diagram_lists_each_suit_high_to_low() -> None:
    hand = parse_hand("4A.-.7C.32")
    assert hand_diagram(hand) == ["Bastoni A 4", "Spade   -", "Coppe   C 7", "Denari  3 2"]
    assert hand_diagram(hand, True) == ["♣ A 4", "♠ -", "♥ C 7", "♦ 3 2"]
    assert hand_diagram(hand, SYMBOLS) == hand_diagram(hand, True)


def test_table_diagram_places_the_seats() -> None:
    hands = [parse_hand("32A7.RC5.F64.A"), parse_hand("F6.32A.A7.RCF4"), parse_hand("CR54.F764.32.-")]
    lines = table_diagram(hands, soloist=0, notes={0: "leads"}, indent="")
    assert lines[0].startswith("seat 2, defender (") and "seat 1, defender (" in lines[0]
    assert lines[5].strip() == "seat 0, soloist, leads (11 thirds)"
    assert len(lines) == 10 and lines[9].strip() == "Denari  A"


def test_plural() -> None:
    assert [plural(n, "third") for n in (0, 1, 2)] == ["0 thirds", "1 third", "2 thirds"]
