"""The install hints of the optional extras say how to install them from where scopa came."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from scopa._extras import install_hint

ROOT = Path(__file__).resolve().parent.parent


class _Installed:
    """A distribution whose `direct_url.json` says what pip recorded."""

    def __init__(self, recorded: str | None) -> None:
        self.recorded = recorded

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return self.recorded


def _installed_from(monkeypatch: pytest.MonkeyPatch, recorded: object) -> None:
    text = recorded if recorded is None or isinstance(recorded, str) else json.dumps(recorded)
    monkeypatch.setattr(metadata, "distribution", lambda name: _Installed(text))


def test_from_an_index_the_hint_names_the_published_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _installed_from(monkeypatch, None)  # pip records no direct URL for an index
    assert install_hint("policy") == 'pip install "scopa[policy]"'


def test_without_an_installed_distribution_the_hint_names_the_published_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> None:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    assert install_hint("jax") == 'pip install "scopa[jax]"'


def test_from_a_checkout_the_hint_installs_from_that_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checkout = tmp_path / "my scopa"
    checkout.mkdir()
    _installed_from(monkeypatch, {"url": checkout.as_uri(), "dir_info": {}})
    monkeypatch.chdir(tmp_path)
    assert install_hint("policy") == f'pip install "{os.fspath(checkout)}[policy]"'
    monkeypatch.chdir(checkout)
    assert install_hint("policy") == 'pip install ".[policy]"'


def test_from_an_editable_checkout_the_hint_stays_editable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _installed_from(monkeypatch, {"url": tmp_path.as_uri(), "dir_info": {"editable": True}})
    monkeypatch.chdir(tmp_path)
    assert install_hint("jax") == 'pip install -e ".[jax]"'


@pytest.mark.parametrize(
    "recorded",
    [
        "not json",
        {"url": "https://example.org/scopa.tar.gz", "archive_info": {}},
        {"dir_info": {}},
        ["a", "list"],
    ],
)
def test_an_unreadable_or_remote_origin_gives_the_published_package(
    monkeypatch: pytest.MonkeyPatch, recorded: object
) -> None:
    _installed_from(monkeypatch, recorded)
    assert install_hint("cli") == 'pip install "scopa[cli]"'


@pytest.mark.parametrize(("module", "extra"), [("scopa.policy", "policy"), ("scopa.batch", "jax")])
def test_a_module_without_its_extra_says_how_to_install_it_from_here(
    module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    blocked = "numpy" if extra == "policy" else "jax"
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\nsys.modules[{blocked!r}] = None\nimport {module}\n"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert "ImportError" in done.stderr
    assert f'"{extra}" installs: {install_hint(extra)}' in done.stderr
