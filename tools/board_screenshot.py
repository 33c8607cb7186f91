"""Take the README's screenshot of the board (docs/board.png) with headless Chromium.

    python3 tools/board_screenshot.py [--chromium /usr/bin/chromium] [--out docs/board.png]

It starts ``calasolve board --no-browser examples/played.deal``, opens the
first record (a played deal: the table, its card values and the evaluation
graph with the mistakes) and saves the page.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "board.png")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "calasolve", "board", "--no-browser", "examples/played.deal"],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = server.stdout.readline().split()[2]  # type: ignore[union-attr]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
            page.goto(url)
            page.wait_for_selector("#graph svg circle.mistake")
            # a position with a trick on the table: after the first mistake's trick starts
            page.locator("circle.mistake").first.click()
            page.wait_for_selector(".card.legal .val")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(args.out), full_page=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    print(args.out)


if __name__ == "__main__":
    main()
