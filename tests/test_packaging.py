"""The distributions are ready to publish, and the built wheel works on its own."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import attrs
import pytest

from tests.helpers import ROOT


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the pure-Python wheel, built from this checkout without network access.

    The compiler's build requirements are not checked: a pure-Python wheel does not use them.
    """
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            *(sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check"),
            *("--outdir", str(out), str(ROOT)),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "PIP_NO_INDEX": "1", "SCOPA_PURE_PYTHON": "1"},
    )
    return out


def wheel_of(dist: Path) -> Path:
    (wheel,) = dist.glob("scopa-*.whl")
    return wheel


def test_twine_accepts_both_distributions(dist: Path) -> None:
    files = sorted(dist.iterdir())
    assert sorted(f.suffix for f in files) == [".gz", ".whl"]
    result = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_the_wheel_has_its_types_licence_readme_and_classifiers(dist: Path) -> None:
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        names = wheel.namelist()
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = wheel.read(metadata_name).decode()
    assert "scopa/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in metadata
    assert "Description-Content-Type: text/markdown" in metadata
    assert "Classifier: Typing :: Typed" in metadata
    assert "Requires-Dist: attrs" in metadata
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert metadata.split("\n\n", 1)[1].strip() == readme.strip()
    # nothing but the package and its metadata
    assert {n.split("/")[0] for n in names} == {"scopa", metadata_name.split("/")[0]}


def test_the_wheel_holds_the_italian_catalog_that_gettext_reads(dist: Path) -> None:
    import gettext
    import io

    catalog = "scopa/locale/it/LC_MESSAGES/scopa"
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        names = wheel.namelist()
        compiled = wheel.read(f"{catalog}.mo")
    assert f"{catalog}.po" in names
    assert compiled == (ROOT / "src" / f"{catalog}.mo").read_bytes()
    read = gettext.GNUTranslations(io.BytesIO(compiled))
    assert read.pgettext("rank", "Ace") == "asso"


def test_the_sdist_holds_the_sources_tests_and_licence(dist: Path) -> None:
    import tarfile

    (sdist,) = dist.glob("scopa-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("src/scopa/__init__.py", "src/scopa/py.typed", "tests/test_state.py"):
        assert needed in names
    assert {"LICENSE", "README.md", "pyproject.toml", "PKG-INFO"} <= names
    assert not any(name.startswith((".ci/", ".git/", ".venv/")) for name in names)


def test_the_wheel_installed_alone_runs_the_readme_examples(dist: Path, tmp_path: Path) -> None:
    # A fresh environment holding only the wheel; attrs, its one dependency, comes from this
    # environment's site-packages (added after the new environment's own, so offline).
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            str(wheel_of(dist)),
        ],
        check=True,
        capture_output=True,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    attrs_home = Path(attrs.__file__).resolve().parent.parent
    Path(site, "dependencies.pth").write_text(f"{attrs_home}\n", encoding="utf-8")
    examples = "\n".join(
        re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    )
    # The README writes an empty line of output as one (see conftest.py); doctest reads it
    # as <BLANKLINE>: each empty line that more output follows.
    examples = re.sub(
        r"^[ ]*\n(?=(?:[ ]*\n)*(?![ ]*>>>)[ ]*\S)", "<BLANKLINE>\n", examples, flags=re.M
    )
    script = tmp_path / "readme_examples.py"
    script.write_text(
        "import doctest, sys, scopa\n"
        f"assert scopa.__file__.startswith({str(Path(site).resolve())!r}), scopa.__file__\n"
        "test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, 'README', None, 0)\n"
        f"flags = {doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE}\n"
        "result = doctest.DocTestRunner(optionflags=flags).run(test)\n"
        "print(result.attempted, 'examples')\n"
        "sys.exit(1 if result.failed or not result.attempted else 0)\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [str(python), "-I", str(script)],
        input=examples,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert int(run.stdout.split()[0]) >= 10
