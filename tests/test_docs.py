"""The documentation covers every preset and every public name."""

from __future__ import annotations

from pathlib import Path

import pytest

import scopa

DOCS = Path(__file__).resolve().parent.parent / "docs"
REFERENCE = (DOCS / "reference.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", scopa.variant_names())
def test_every_preset_has_its_page(name: str) -> None:
    page = DOCS / "variants" / f"{name}.md"
    assert page.exists(), f"no docs page for the preset {name!r}"
    assert f'"{name}"' in page.read_text(encoding="utf-8")
    assert f"variants/{name}.md" in (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", scopa.__all__)
def test_every_public_name_is_in_the_reference(name: str) -> None:
    assert f"::: scopa.{name}\n" in REFERENCE + "\n", f"scopa.{name} is not in the API reference"
