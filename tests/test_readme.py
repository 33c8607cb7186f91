"""The examples in README.md run as written."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

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
