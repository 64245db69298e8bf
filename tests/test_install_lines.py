"""The install lines of the batch engine and of the policy work from where a reader stands.

`scopa` is installed from a checkout until it is published: a page or a docstring that
names an extra gives the line that works from the checkout (`".[jax]"`), and names the
published package (`"scopa[jax]"`) only as what works once it is published.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers import ROOT


def _docstring(module: Path) -> str:
    text = ast.get_docstring(ast.parse(module.read_text(encoding="utf-8")))
    assert text is not None
    return text


PLACES = {
    "docs/batch.md": ("jax", (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")),
    "scopa.batch": ("jax", _docstring(ROOT / "src" / "scopa" / "batch" / "__init__.py")),
    "scopa.policy": ("policy", _docstring(ROOT / "src" / "scopa" / "policy.py")),
    "docs/reference/policy.md": (
        "policy",
        (ROOT / "docs" / "reference" / "policy.md").read_text(encoding="utf-8"),
    ),
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_the_install_line_works_from_a_checkout(place: str) -> None:
    extra, text = PLACES[place]
    assert f'pip install ".[{extra}]"' in text
    for paragraph in re.split(r"\n\s*\n", text):
        if f'"scopa[{extra}]"' in paragraph:
            assert "published" in paragraph, paragraph


def test_the_bots_guide_installs_the_policy_from_a_checkout() -> None:
    guide = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = guide.split("### The trained policy", 1)[1].split("\n### ", 1)[0]
    assert 'pip install ".[policy]"' in section
    assert 'once the package is published,\n`"scopa[policy]"`' in section
