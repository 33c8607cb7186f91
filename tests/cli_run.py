"""Running the ``calasolve`` command in the test's process, as the command-line tests do."""

from __future__ import annotations

import pytest

from calasolve.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``calasolve ARGV``: its exit status, standard output and standard error."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err
