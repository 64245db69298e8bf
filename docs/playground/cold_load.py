"""Measure the playground page's cold load: from opening it to a first board to play.

Serve a built site (with its own runtime: see `docs/playground/install`) on 127.0.0.1 and
open its playground page `--runs` times, each in a new headless Chromium with an empty
profile, so that nothing is cached, and no network: no host name but 127.0.0.1 resolves.
The page marks when Pyodide has started (`python`), when the library is imported
(`library`) and when the first hand is dealt and can be played (`playable`), in
milliseconds from the start of the navigation; the load average of the machine is printed
beside each run, as other work on it slows the load.

    mkdocs build --site-dir /tmp/site && python docs/playground/cold_load.py /tmp/site

It needs selenium (the dependency group `site`) and Debian's `chromium` and
`chromium-driver`.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import tempfile
import threading
from pathlib import Path
from typing import Any

MARKS = ("python", "library", "playable")
"""The page's marks, in the order they come: `scopa-playground-` and the word."""
READ_MARKS = """
const done = arguments[arguments.length - 1];
const marks = () => Object.fromEntries(performance.getEntriesByType("mark")
    .filter((mark) => mark.name.startsWith("scopa-playground-"))
    .map((mark) => [mark.name.slice(17), Math.round(mark.startTime)]));
scopaPlayground.ready.then(() => done(marks()), (error) => done({error: error.message}));
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Write nothing."""


def cold_load(address: str, chromium: str, chromedriver: str) -> dict[str, int]:
    """The page's marks in one new browser, with an empty profile and no network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            f"--user-data-dir={profile}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(chromedriver))
        try:
            driver.set_script_timeout(120)
            driver.get(address + "playground/")
            marks: dict[str, Any] = driver.execute_async_script(READ_MARKS)
        finally:
            driver.quit()
    if "error" in marks:
        raise SystemExit(f"the playground did not start: {marks['error']}")
    return marks


def main() -> None:
    """Measure the cold loads and print each, then the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site, with the playground's runtime")
    parser.add_argument("--runs", type=int, default=5, help="cold loads to measure (5)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    options = parser.parse_args()
    if not (options.site / "playground" / "pyodide" / "pyodide.asm.wasm").is_file():
        raise SystemExit(f"{options.site} has no runtime of its own: run docs/playground/install")
    handler = functools.partial(_Quiet, directory=str(options.site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        address = f"http://127.0.0.1:{server.server_address[1]}/"
        runs = []
        for run in range(options.runs):
            load = os.getloadavg()[0]
            marks = cold_load(address, options.chromium, options.chromedriver)
            runs.append(marks)
            shown = ", ".join(f"{mark} {marks[mark]:,} ms" for mark in MARKS)
            print(f"run {run + 1}: {shown} (load average {load:.1f})")
        server.shutdown()
    medians = ", ".join(
        f"{mark} {statistics.median(r[mark] for r in runs):,.0f} ms" for mark in MARKS
    )
    print(f"median of {len(runs)}: {medians}")


if __name__ == "__main__":
    main()
