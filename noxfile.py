"""Developer sessions: `nox -s tests typecheck lint docs bench`; `.ci/run` runs the same checks.

`nox -s bench-batch` runs the batch engine's benchmark; `nox -s catalogs` updates the
message catalogs and compiles them.
"""

from __future__ import annotations

import json
from pathlib import Path

import nox

nox.options.sessions = ["tests", "typecheck", "lint", "docs"]
nox.options.default_venv_backend = "venv"


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite, with the examples of the README, the docs and the docstrings."""
    session.install("--upgrade", "pip")
    session.install("-e", ".[all]", "--group", "test")
    session.run("python", "-m", "pytest", *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """`mypy --strict` over the package, the tests and the benchmarks."""
    session.install("--upgrade", "pip")
    session.install("-e", ".[all]", "--group", "typecheck", "nox")
    session.run("mypy", "--strict")


@nox.session
def lint(session: nox.Session) -> None:
    """`ruff check` and `ruff format --check`."""
    session.install("--upgrade", "pip")
    session.install("--group", "lint")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site with warnings as errors."""
    session.install("--upgrade", "pip")
    session.install("-e", ".[all]", "--group", "docs")  # the reference documents the adapters
    session.run("mkdocs", "build", "--strict", *session.posargs)


@nox.session
def catalogs(session: nox.Session) -> None:
    """Update the `.po` catalogs from the marked messages and compile each `.mo` (see
    `tests/catalogs.py`); `-- --check` changes nothing and fails if one is out of date."""
    session.install("attrs")
    session.run("python", "-m", "tests.catalogs", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """The random-playout benchmark; pass `-- --reference PATH` to compare with a loop.

    It measures the build that `pip install .` gives: compiled where it can be, pure
    Python with `SCOPA_PURE_PYTHON=1` set.
    """
    session.install("--upgrade", "pip")
    session.install(".")
    session.run("python", "benchmarks/playout.py", *session.posargs)


@nox.session(name="bench-batch")
def bench_batch(session: nox.Session) -> None:
    """The batch engine on JAX beside the scalar engine and its adapters; `-- --quick` is short.

    JAX runs on the first of its devices: install JAX for an accelerator in the session to
    measure it there, with the large batches where it is fastest:
    `-- --sizes 4096,65536,1048576 --policy-sizes 4096,65536,1048576`.
    """
    session.install("--upgrade", "pip")
    session.install(".[jax,gymnasium,pettingzoo]")
    session.run("python", "benchmarks/batch.py", *session.posargs)


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation testing of the core modules (slow); prints the killed and surviving mutants."""
    session.install("--upgrade", "pip")
    session.install("-e", ".", "--group", "test", "mutmut==3.8.1")
    session.env["HYPOTHESIS_PROFILE"] = "mutation"
    session.run("mutmut", "run", *session.posargs)
    session.run("mutmut", "results")
    session.run("mutmut", "export-cicd-stats")
    stats = json.loads(Path("mutants/mutmut-cicd-stats.json").read_text())
    detected = stats["killed"] + stats["timeout"] + stats["segfault"]
    session.log(
        f"mutation score: {detected} of {stats['total']} mutants detected "
        f"({100 * detected / stats['total']:.1f}%): {stats['killed']} killed, "
        f"{stats['timeout']} timed out, {stats['segfault']} crashed; "
        f"{stats['survived']} survived, {stats['no_tests']} reached by no test"
    )


@nox.session
def fuzz(session: nox.Session) -> None:
    """The long fuzzing session of the readers; pass `-- -max_total_time=600` for longer."""
    session.install("--upgrade", "pip")
    session.install("-e", ".", "--group", "test", "atheris")
    session.run("python", "fuzz/fuzz_readers.py", *(session.posargs or ["-max_total_time=60"]))
