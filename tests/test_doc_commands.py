"""Every ``calasolve`` command shown in README.md and docs/ runs, as a user would paste it.

The commands are read from the pages' ``sh`` blocks.  Sizes that only make a
run long are shrunk (a few deals instead of thousands, 16 advice samples);
what cannot run here is named, with why.  The README's pandas lines then
read what its pipeline wrote.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: commands that cannot run in a test, and why
NOT_HERE = {
    "calasolve board": "a server that runs until Ctrl-C (tests/test_board_browser.py starts it)",
    "tcp://10.0.0.5:8786": "a cluster started by hand on two machines (tests/test_dask.py runs a real one)",
}
#: commands that take minutes: run with the slow checks (``pytest -m slow``)
SLOW = {"calasolve table examples/example.deal": "15 exchange searches per record, chiamo's among them"}
#: options whose value only sets the size of the run, and the value a test uses
SHRINK = {"-n": 3, "--count": 3, "--deals": 2, "--samples": 16, "--layouts": 8}  # play's PIMC samples: 4


def commands() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                line = line.split("&&")[-1].strip() if "calasolve " in line else ""
                if line.startswith("calasolve "):
                    found.append((page.name, line))
    return found


def shrink(command: str) -> str:
    parts = []
    for stage in command.split(" | "):
        words = shlex.split(stage.split(" > ")[0])
        for i, word in enumerate(words[:-1]):
            if word in SHRINK and words[i + 1].isdigit():
                words[i + 1] = str(min(int(words[i + 1]), SHRINK[word]))
        if words[1] == "play" and "--samples" not in words:
            words += ["--samples", "4"]
        if words[1] == "bench" and "--deals" not in words:
            words += ["--deals", str(SHRINK["--deals"])]
        if words[1] == "advise" and any(w.endswith("views.txt") for w in words):  # a seat's view: its own sizes
            if "--layouts" not in words:
                words += ["--layouts", "8"]
            words += ["--jobs", "1"]
        elif words[1] == "advise":
            words += ["--thirds-samples", "0", "--jobs", "1"]
            if "--samples" not in words:
                words += ["--samples", str(SHRINK["--samples"])]
            if "--play-samples" not in words:
                words += ["--play-samples", "8"]
        parts.append(shlex.join(words) + (" > " + stage.split(" > ")[1] if " > " in stage else ""))
    return " | ".join(parts)


COMMANDS = commands()


def test_the_pages_show_commands() -> None:
    assert len(COMMANDS) >= 20 and {page for page, _ in COMMANDS} >= {"README.md", "cli.md", "scale.md"}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the examples, with ``calasolve`` on PATH as this Python's."""
    where = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "examples", where / "examples")
    (where / "bin").mkdir()
    script = where / "bin" / "calasolve"
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m calasolve "$@"\n')
    script.chmod(0o755)
    return where


@pytest.mark.parametrize("page,command", [
    pytest.param(p, c, marks=[pytest.mark.slow] if any(key in c for key in SLOW) else [], id=f"{p}: {c[:60]}")
    for p, c in COMMANDS
])
def test_every_command_shown_runs(page: str, command: str, workdir: Path) -> None:
    why = next((why for key, why in NOT_HERE.items() if key in command), None)
    if why:
        pytest.skip(why)
    if "--scheduler" in command:
        pytest.importorskip("distributed", reason="--scheduler needs calasolve[dask]")
    env = {**os.environ, "PATH": f"{workdir / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    if "random.deal" in command and "-o random.deal" not in command and not (workdir / "random.deal").exists():
        subprocess.run(["calasolve", "deal", "--count", "3", "--seed", "1", "-o", "random.deal"], env=env, cwd=workdir,
                       check=True)
    run = subprocess.run(["bash", "-o", "pipefail", "-c", shrink(command)], env=env, cwd=workdir,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (shrink(command), run.stderr[-2000:])


def test_the_readme_pandas_lines_read_its_pipeline(workdir: Path) -> None:
    pytest.importorskip("pandas")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [pipeline] = [c for p, c in COMMANDS if p == "README.md" and "strong.jsonl" in c]
    env = {**os.environ, "PATH": f"{workdir / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", "-o", "pipefail", "-c", shrink(pipeline)], env=env, cwd=workdir, check=True, timeout=600)
    [code] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "strong.jsonl" in b]
    run = subprocess.run([sys.executable, "-c", code], cwd=workdir, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert re.fullmatch(r"3 deals: makes \d+\.\d\d% ± \d+\.\d\d%\n", run.stdout), run.stdout
