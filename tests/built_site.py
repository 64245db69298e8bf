"""The documentation site, built once per test session, served on localhost, and a browser.

The fixtures `site`, `address` and `browser` are shared by the tests of the site
(`tests/test_site.py`) and of its playground page (`tests/test_playground.py`), through
`tests/conftest.py`: the site is built with `mkdocs build --strict`, which needs the `docs`
dependency group; the browser is Debian's headless Chromium, driven by selenium (the `site`
group, and the packages `chromium` and `chromium-driver`). A fixture that lacks one of
these skips its tests, saying which.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.helpers import ROOT

NEEDS_SELENIUM = "needs selenium: install the dependency group `site`"
LOCAL_ONLY = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
"""Chromium's host rules that leave every name but 127.0.0.1 unresolved: no request leaves."""


class Browser(Protocol):
    """The part of selenium's `Chrome` driver that the test uses (typed here, untyped there)."""

    def get(self, url: str) -> None:
        """Load a page and wait for it."""

    def execute_script(self, script: str, *args: Any) -> Any:
        """Run JavaScript in the page and return its result."""

    def execute_async_script(self, script: str, *args: Any) -> Any:
        """Run JavaScript that calls back with its result."""

    def execute_cdp_cmd(self, cmd: str, cmd_args: dict[str, Any]) -> Any:
        """Send a command of the DevTools protocol."""

    def get_log(self, log_type: str) -> list[dict[str, Any]]:
        """The log entries since the last call."""

    def find_element(self, by: str, value: str) -> Any:
        """The first element found, such as by `"css selector"`."""


def _chromium() -> tuple[str, str]:
    """The paths of Chromium and its driver, or a skip that says which one is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.skip(
            "needs Chromium and its driver (Debian: apt-get install chromium chromium-driver)"
        )
    return browser, driver


@pytest.fixture(scope="session")
def site() -> Iterator[Path]:
    """The site built with `mkdocs build --strict` into a temporary folder."""
    pytest.importorskip("mkdocs", reason="needs mkdocs: install the dependency group `docs`")
    with tempfile.TemporaryDirectory() as folder:
        built = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", folder],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr[-3000:]}"
        yield Path(folder)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site's files without writing a line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        """Write nothing."""


@pytest.fixture(scope="session")
def address(site: Path) -> Iterator[str]:
    """The address of the site served on localhost from a thread."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()
        thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium, shared by every page, that reaches nothing but the site.

    No host name but 127.0.0.1 resolves, and the requests it makes are in its `performance`
    log.
    """
    webdriver = pytest.importorskip("selenium.webdriver", reason=NEEDS_SELENIUM)
    service = pytest.importorskip("selenium.webdriver.chrome.service", reason=NEEDS_SELENIUM)
    chromium, chromedriver = _chromium()
    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--host-resolver-rules={LOCAL_ONLY}",
            f"--user-data-dir={profile}",
        ):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True})
        driver = webdriver.Chrome(options=options, service=service.Service(chromedriver))
        try:
            driver.set_page_load_timeout(60)
            driver.set_script_timeout(30)
            yield driver
        finally:
            driver.quit()
