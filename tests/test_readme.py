"""The examples of README.md and of the reference pages in docs/ run as written."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

from calasolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_doctests(page: Path) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)  # the pages' paths are relative to the repository
    try:
        result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    finally:
        os.chdir(cwd)
    assert result.failed == 0


def test_the_readme_and_the_api_page_have_doctests() -> None:
    for page in (ROOT / "README.md", ROOT / "docs" / "api.md"):
        assert ">>> " in page.read_text(encoding="utf-8"), page


def test_deal_format_error_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The deal format's bad deal file gives the error line the page shows."""
    block = re.search(r"\$ cat bad\.deal\n(.*?)\$ calasolve check bad\.deal\n(.*?)\n```",
                      (ROOT / "docs" / "deal-format.md").read_text(encoding="utf-8"), re.S)
    assert block, "the deal format's bad.deal example"
    (tmp_path / "bad.deal").write_text(block.group(1), encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(SystemExit) as info:
            main(["check", "bad.deal"])
    finally:
        os.chdir(cwd)
    assert info.value.code == 2
    assert capsys.readouterr().err.strip() == block.group(2)


def test_every_error_class_named_exists() -> None:
    """The pages name only error classes that exist (they once named a TableSizeError)."""
    import builtins

    import calasolve.game.errors

    for page in PAGES:
        for name in set(re.findall(r"`(?:calasolve\.)?(?:errors\.)?([A-Z]\w*Error)\b", page.read_text(encoding="utf-8"))):
            assert hasattr(calasolve.game.errors, name) or hasattr(builtins, name), (page.name, name)


def test_the_documented_table_and_memo_defaults_are_the_code_s() -> None:
    """One home for the defaults (calasolve.game.defaults): the command line and the pages say them."""
    from calasolve.cli import cli
    from calasolve.game.defaults import DEFAULT_GOAL_MB, DEFAULT_TT_MB

    for name in ("solve", "advise"):
        params = {p.name: p for p in cli.commands[name].params}
        assert params["goal_mb"].default == DEFAULT_GOAL_MB and params["tt_mb"].default == DEFAULT_TT_MB
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert re.findall(r"\| `--goal-mb N` \|[^|]*\(default (\d+)", page) == [str(DEFAULT_GOAL_MB)] * 2
    assert re.findall(r"\| `--tt-mb N` \|[^|]*\(default (\d+)", page) == [str(DEFAULT_TT_MB)]
