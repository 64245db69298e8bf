"""Which build of the library the tests run against: compiled with mypyc, or Python source.

The session header of the test run names it. Set `SCOPA_EXPECT_COMPILED` to `1` (or `0`)
to make the run fail unless the compiled (or the pure-Python) build is the one imported.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import scopa

PLAYING_MODULES = (
    "_checks",
    "_memo",
    "_search_core",
    "_shuffle",
    "encoding",
    "masks",
    "moves",
    "state",
)


def test_the_playing_modules_are_all_compiled_or_all_source() -> None:
    files = [
        Path(importlib.import_module(f"scopa.{name}").__file__ or "") for name in PLAYING_MODULES
    ]
    compiled = [path.suffix != ".py" for path in files]
    assert compiled == [scopa.COMPILED] * len(files), files


def test_the_build_is_the_one_asked_for() -> None:
    expected = os.environ.get("SCOPA_EXPECT_COMPILED", "")
    assert expected in ("", "0", "1"), f"SCOPA_EXPECT_COMPILED is {expected!r}, not 0 or 1"
    if expected:
        assert scopa.COMPILED is (expected == "1"), scopa.state.__file__
