"""Collect the examples of the README and the documentation as tests, and the test options.

Every fenced ```python block runs; a block written as a doctest (`>>>` lines) also checks
its printed output. A page can skip the blocks that need an optional extra with
`<!-- skip: start needs("numpy") -->` … `<!-- skip: end -->`: they run when the modules are
installed and are skipped, with the reason, when they are not.

`python -m pytest --no-skips` fails the run if any test was skipped: with every extra
installed, nothing should be.
"""

from __future__ import annotations

import importlib.util
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from typing import Any

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser


def needs(*modules: str) -> str | None:
    """Why a block must be skipped: the first of `modules` that is not installed, if any."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            return f"needs {module}, from an optional extra (see pyproject.toml)"
    return None


def _setup(namespace: dict[str, Any]) -> None:
    namespace["needs"] = needs


pytest_collect_file = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE),
        SkipParser(),
    ],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
    setup=_setup,
).pytest()

# Python files that are not tests: the documentation's build helpers.
collect_ignore_glob = ["docs/*.py", "docs/**/*.py"]

# The adapters' docstrings need their frameworks (the optional extras); skip those missing.
_FRAMEWORKS = {
    "openspiel": "pyspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
    "_spaces": "gymnasium",  # the spaces the two environments share
    "_arrays": "numpy",  # the observation arrays of all three
}
collect_ignore = [
    f"src/scopa/adapters/{module}.py"
    for module, framework in _FRAMEWORKS.items()
    if importlib.util.find_spec(framework) is None
]
# The batch engine needs JAX (the extra "jax").
if importlib.util.find_spec("jax") is None:
    collect_ignore_glob.append("src/scopa/batch/*.py")
# Its Gymnasium vector environment needs Gymnasium too.
if importlib.util.find_spec("jax") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore.append("src/scopa/adapters/gymnasium_batch.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add `--no-skips`."""
    parser.addoption(
        "--no-skips",
        action="store_true",
        help="fail the run if any test is skipped (for a run with every extra installed)",
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With `--no-skips`, a run that skipped anything fails."""
    if not session.config.getoption("--no-skips"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = reporter.stats.get("skipped", [])
    if skipped and exitstatus == pytest.ExitCode.OK:
        reporter.write_line(f"--no-skips: {len(skipped)} tests were skipped", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
