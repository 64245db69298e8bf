"""Collect the examples of the README and the documentation as tests, and the test options.

Every fenced ```python block runs; a block written as a doctest (`>>>` lines) also checks
its printed output. Unlike a docstring, a page writes an empty line within the output as
an empty line, not as `<BLANKLINE>`, so that it reads well wherever it is shown. A page
can skip the blocks that need an optional extra with `<!-- skip: start needs("numpy") -->`
… `<!-- skip: end -->`: they run when the modules are installed and are skipped, with the
reason and at the example's own line, when they are not.

`python -m pytest --no-skips` fails the run if any test was skipped: with every extra
installed, nothing should be.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Generator
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from typing import Any

import pytest
from sybil import Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.integration.pytest import SybilItem
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

EXTRAS = {
    "numpy": ("gymnasium", "pettingzoo", "openspiel"),
    "gymnasium": ("gymnasium",),
    "pettingzoo": ("pettingzoo",),
    "pyspiel": ("openspiel",),
    "distributed": ("dask",),
    "pgx": ("pgx",),
    "mctx": ("pgx",),
}
"""The optional extras that install each module the examples need."""


def needs(*modules: str) -> str | None:
    """Why a block must be skipped: the first of `modules` that is not installed, if any."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            extras = [f"`{extra}`" for extra in EXTRAS.get(module, ())]
            where = (
                "an optional extra"
                if not extras
                else f"the extra {extras[0]}"
                if len(extras) == 1
                else f"any of the extras {', '.join(extras)}"
            )
            return f"needs {module}, from {where} (see pyproject.toml)"
    return None


def _setup(namespace: dict[str, Any]) -> None:
    namespace["needs"] = needs


class SessionParser(DocTestStringParser):
    """Reads the statements of a session and their output, empty lines of output included."""

    _EXAMPLE_RE = re.compile(
        r"""
        (?P<source>
            (?:^(?P<indent>[ ]*)>>>.*)      # a statement
            (?:\n[ ]*\.\.\..*)*)          # and its continuation lines
        \n?
        (?P<want>(?:
            (?:^[ ]*\n)*                    # empty lines, where more output follows
            (?![ ]*$)(?![ ]*>>>).+$\n?      # a line of output
        )*)
        """,
        re.MULTILINE | re.VERBOSE,
    )


class SessionBlockParser(PythonCodeBlockParser):
    """The ```python blocks of a page: a session is read by `SessionParser`."""

    def __init__(self, doctest_optionflags: int) -> None:
        super().__init__(doctest_optionflags=doctest_optionflags)
        self.doctest_parser = SessionParser(DocTestEvaluator(doctest_optionflags))


pytest_collect_file = Sybil(
    parsers=[SessionBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE), SkipParser()],
    patterns=["README.md", "docs/*.md", "docs/**/*.md"],
    setup=_setup,
).pytest()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Report a skipped example of the documentation at its page and line.

    Without this, the skip would be reported where pytest turns it into its own.
    """
    report = yield
    if report.skipped and isinstance(item, SybilItem) and isinstance(report.longrepr, tuple):
        report.longrepr = (item.example.path, item.example.line, report.longrepr[2])
    return report


# Python files of the documentation that are not tests: the reference's Griffe extension
# and the training example, which need the `docs` group and the `train` group. The site's
# hooks (docs/hooks/) need neither, and their examples run as tests.
collect_ignore_glob = ["docs/griffe_reference.py", "docs/examples/*.py"]

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
# A trained policy plays with numpy (the extra "policy").
if importlib.util.find_spec("numpy") is None:
    collect_ignore.append("src/scopa/policy.py")
# The pgx adapter needs JAX and pgx (the extra "pgx").
if importlib.util.find_spec("jax") is None or importlib.util.find_spec("pgx") is None:
    collect_ignore.append("src/scopa/adapters/pgx.py")
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


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    """Count the skipped tests by reason, a line for each reason.

    A run without the optional extras skips many tests for a few reasons; `-rs` (or `-ra`)
    lists each skipped test instead.
    """
    if any(char in config.getoption("reportchars") for char in "sSaA"):
        return
    counts: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else "skipped"
        reason = reason.removeprefix("Skipped: ")
        counts[reason] = counts.get(reason, 0) + 1
    if counts:
        terminalreporter.section("skipped, by reason (-rs lists each test)", sep="-")
        for reason, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            terminalreporter.write_line(f"{count:5}  {reason}")


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
