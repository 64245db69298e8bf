"""Hypothesis settings: no deadline (timing is never asserted).

Set `HYPOTHESIS_PROFILE` to `thorough` for a longer run, or to `mutation` for the short,
deterministic run of the mutation-testing session. Under continuous integration (`CI` set)
the examples are derandomized, so that a run there repeats a run made here with `CI=true`.
"""

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import scopa
from scopa.state import _PLAYS
from tests.built_site import address, browser, site  # noqa: F401 - shared: built once a session

settings.register_profile("default", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.register_profile("mutation", deadline=None, max_examples=15, derandomize=True)
settings.register_profile("ci", deadline=None, derandomize=True)
default = "ci" if os.environ.get("CI") else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))


@pytest.fixture(autouse=True)
def _rules_read_afresh() -> None:
    """Read each test's rules afresh, not from what earlier tests or the imports left.

    The state keeps what the play of a hand needs from its rules, per rules value. Without
    this, a rules value first used while the tests were collected would never be read again
    during a test, and a fault in reading it (a mutant, in mutation testing) would go unseen.
    """
    _PLAYS.clear()


@pytest.fixture(autouse=True, scope="module")
def _compiled_code_freed() -> Iterator[None]:
    # Each module of the batch engine's tests compiles hundreds of functions; freed after the
    # module, so that one process running every test module does not pile up compiled code
    # (whose memory maps, past the system's limit, make XLA's compiler crash).
    yield
    jax = sys.modules.get("jax")
    if jax is not None:
        jax.clear_caches()


def pytest_report_header() -> str:
    """Name the build under test: compiled with mypyc, or Python source."""
    build = "compiled with mypyc" if scopa.COMPILED else "pure Python"
    return f"scopa {scopa.__version__}, {build}, from {Path(scopa.__file__).parent}"
