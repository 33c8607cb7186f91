"""Shared pytest options and fixtures: ``--update-golden`` rewrites the golden outputs
under tests/golden/ (and tests/data/signature.json); ``solver`` is a C solver per module."""

from __future__ import annotations

import pytest

from calasolve.search.engines import CoreSolver, make_solver


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite tests/golden/*.txt from the current output instead of comparing.")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="module")
def solver() -> CoreSolver:
    """One C solver (16 MiB table) per test module."""
    return make_solver(16)
