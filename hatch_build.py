"""Build hook: compile the hot modules of a wheel with mypyc, or leave the wheel pure Python.

A wheel built from this source compiles `COMPILED` with mypyc when it can. It builds the
pure-Python wheel instead, with a warning, when it cannot: an interpreter other than
CPython, no mypyc or no C compiler, or any failure of the compilation. Editable installs
and the source distribution are always pure Python, and so is any build with the
environment variable `SCOPA_PURE_PYTHON` set to a non-empty value other than `0`.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = ("_checks", "_memo", "_search_core", "_shuffle", "encoding", "masks", "moves", "state")
"""The modules of `scopa` that are compiled: those playouts, learners and searches run through."""

PURE_PYTHON = "SCOPA_PURE_PYTHON"
"""The environment variable that asks for a pure-Python wheel."""


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile `COMPILED` into the wheel when it can (see the module's documentation)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add the compiled modules to the wheel, or say why the wheel stays pure Python."""
        if self.target_name != "wheel" or version == "editable":
            return
        why_not = _why_pure()
        if why_not is None:
            self._work = Path(tempfile.mkdtemp(prefix="scopa-build-"))
            try:
                built = _compile(Path(self.root) / "src", self._work)
            except (Exception, SystemExit) as error:  # mypyc exits on a type error
                why_not = f"the compilation failed ({type(error).__name__}: {error})"
            else:
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                for path, name in built:
                    build_data["force_include"][str(path)] = name
                return
        self.app.display_warning(f"scopa: building a pure-Python wheel: {why_not}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compiler's working folder."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


def _why_pure() -> str | None:
    """Why the wheel must be pure Python, or `None` if compiling may be tried."""
    if os.environ.get(PURE_PYTHON, "") not in ("", "0"):
        return f"{PURE_PYTHON} is set"
    if sys.implementation.name != "cpython":
        return f"mypyc does not compile for {sys.implementation.name}"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return None


def _compile(source: Path, work: Path) -> list[tuple[Path, str]]:
    """Compile the modules of `source/scopa`; the built files and their names in the wheel."""
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    # mypyc names the modules after their paths, so it runs in a copy of the package.
    shutil.copytree(source / "scopa", work / "scopa")
    here = Path.cwd()
    os.chdir(work)
    try:
        extensions = mypycify(
            [f"scopa/{name}.py" for name in COMPILED], opt_level="3", group_name="scopa"
        )
        command = build_ext(Distribution({"name": "scopa", "ext_modules": extensions}))
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = sorted((work / "lib").rglob(f"*{suffix}"))
    if len(built) < len(COMPILED):
        raise RuntimeError(f"expected {len(COMPILED)} modules, built {len(built)}")
    return [(path, path.relative_to(work / "lib").as_posix()) for path in built]
