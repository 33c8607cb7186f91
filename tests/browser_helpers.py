"""What the browser tests share: Debian's Chromium driven by Playwright, and a board started on a deal file."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CALASOLVE_CHROMIUM", "/usr/bin/chromium")
ARTEFACTS = Path(os.environ.get("CALASOLVE_ARTEFACTS", Path(tempfile.gettempdir()) / "calasolve-board"))


def launch(sync_api: Any) -> Iterator[Any]:
    """A Chromium browser (Playwright's own download is not used: the system browser, by its path)."""
    with sync_api.sync_playwright() as p:
        # CI runs as root in a container: no sandbox there, and a small /dev/shm
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


def start_board(path: str, server: list[subprocess.Popen[str]] | None = None) -> Iterator[str]:
    """``calasolve board`` on ``path``: its URL until the generator is closed, then the server stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "calasolve", "board", "--no-browser", path],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    if server is not None:
        server.append(proc)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("calasolve board: http://"), line
        yield line.split()[2]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


class WatchedPage:
    """A new page of ``browser`` at ``url``, with the console's errors kept (``errors``) and screenshots saved
    under :data:`ARTEFACTS`; ``options`` go to ``browser.new_page``."""

    def __init__(self, browser: Any, url: str, **options: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 1000}, **options)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.watch(self.page)
        self.page.goto(url)

    def watch(self, page: Any) -> None:
        """What a subclass listens to before the page loads."""

    def shot(self, name: str) -> None:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
