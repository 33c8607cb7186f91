"""The examples in README.md run as written."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

from calasolve.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_readme_doctests() -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)  # the README's paths are relative to the repository
    try:
        result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    finally:
        os.chdir(cwd)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_error_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's bad deal file gives the error line the README shows."""
    block = re.search(r"\$ cat bad\.deal\n(.*?)\$ calasolve check bad\.deal\n(.*?)\n```",
                      (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert block, "the README's bad.deal example"
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
