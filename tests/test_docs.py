"""The documentation covers every preset and every public name."""

from __future__ import annotations

import importlib
import re

import pytest

import scopa
from tests.helpers import ROOT

DOCS = ROOT / "docs"
# The API reference has a page per module; the names are looked up in all of them.
REFERENCE = "\n".join(
    page.read_text(encoding="utf-8") for page in sorted((DOCS / "reference").glob("*.md"))
)


@pytest.mark.parametrize("name", scopa.variant_names())
def test_every_preset_has_its_page(name: str) -> None:
    page = DOCS / "variants" / f"{name}.md"
    assert page.exists(), f"no docs page for the preset {name!r}"
    assert f'"{name}"' in page.read_text(encoding="utf-8")
    assert f"variants/{name}.md" in (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", scopa.__all__)
def test_every_public_name_is_in_the_reference(name: str) -> None:
    assert f"::: scopa.{name}\n" in REFERENCE + "\n", f"scopa.{name} is not in the API reference"


# The modules documented under their own name in the API reference, each with the
# frameworks it imports (the adapters need theirs; skip one whose framework is missing).
DOCUMENTED_MODULES = {
    "scopa.cards": None,
    "scopa.errors": None,
    "scopa.rules": None,
    "scopa.scoring": None,
    "scopa.stakes": None,
    "scopa.moves": None,
    "scopa.state": None,
    "scopa.match": None,
    "scopa.svg": None,
    "scopa.board": None,
    "scopa.cli": None,
    "scopa.masks": None,
    "scopa.encoding": None,
    "scopa.agents": None,
    "scopa.search": None,
    "scopa.tournament": None,
    "scopa.records": None,
    "scopa.adapters": None,
    "scopa.adapters.openspiel": "pyspiel",
    "scopa.adapters.pettingzoo": "pettingzoo",
    "scopa.adapters.gymnasium": "gymnasium",
    "scopa.batch": "jax",
    "scopa.adapters.gymnasium_batch": "jax gymnasium",
}


@pytest.mark.parametrize("module_name", DOCUMENTED_MODULES)
def test_every_name_of_a_documented_module_is_in_the_reference(module_name: str) -> None:
    framework = DOCUMENTED_MODULES[module_name]
    for needed in (framework or "").split():
        pytest.importorskip(needed, reason=f"needs {needed}, from an optional extra")
    module = importlib.import_module(module_name)
    entries = set(re.findall(r"^::: (\S+)$", REFERENCE, flags=re.MULTILINE))
    missing = []
    for name in module.__all__:
        # A name that the package also exports may be documented under the package.
        exported = name in scopa.__all__ and getattr(scopa, name) is getattr(module, name)
        if f"{module_name}.{name}" not in entries and not (exported and f"scopa.{name}" in entries):
            missing.append(name)
    assert not missing, f"{module_name}: {missing} not in the API reference"
