"""CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(python3 -m pip install -e '\.\[test\]' && .*?)\n```", readme)
    assert len(commands) == 1, "the README's test command"
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    # before it, only the system browser the board's tests drive is installed
    assert ci[-1] == commands[0].replace("pip install -e", "pip install -q -e")
    assert all("chromium" in line or line.strip() == "fi" for line in ci[:-1]), ci
    assert "make -C csrc test test-asan" in commands[0]  # the sanitizers too


def test_fuzz_tool_runs() -> None:
    """A short run of tools/fuzz.py (a maintainer runs it longer): no finding."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fuzz", ROOT / "tools" / "fuzz.py")
    assert spec and spec.loader
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    linux = Path("/proc/self/stat").exists() and Path("/dev/full").exists()  # what the fault runs use
    for target, cases in (("deal", 60), ("api", 60), ("cli", 60), ("faults", 4 if linux else 0)):
        assert fuzz.run(target, cases=cases, seed=16) == 0, target
