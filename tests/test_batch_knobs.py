"""The batch engine knows every knob of `Rules`: a test that runs without JAX.

A knob added to `Rules` must be listed in `scopa._batch_knobs.KNOWN` once the batch engine
plays it; until then the engine plays it only at its default.
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest

from scopa import Rules, find_variant
from scopa._batch_knobs import KNOWN, knobs, unknown_knobs
from tests.helpers import ROOT


def test_every_knob_of_the_rules_is_known() -> None:
    # the fields that make rules equal: `name` is a label, not a knob
    fields = {field.name for field in attrs.fields(Rules) if field.eq}
    assert set(knobs()) == fields
    assert "name" not in fields
    missing = sorted(fields - set(KNOWN))
    assert not missing, f"the batch engine does not list the knobs {missing}"
    assert set(KNOWN) <= fields  # and lists no knob that Rules lacks


def test_a_knob_not_known_is_refused_only_off_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # as a knob added to Rules later would be
    monkeypatch.setattr(
        "scopa._batch_knobs.KNOWN", {k: v for k, v in KNOWN.items() if k != "target"}
    )
    classic = find_variant("classic")
    assert unknown_knobs(classic) == ()  # target=11, the default
    assert unknown_knobs(attrs.evolve(classic, target=21)) == ("target",)
    assert unknown_knobs(find_variant("escoba")) == ("target",)


def test_the_knobs_are_read_without_jax() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nsys.modules['jax'] = None\nimport scopa._batch_knobs\n"
            "assert 'scopa.batch' not in sys.modules\n",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
