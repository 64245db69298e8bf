"""Observations as numpy arrays, made from their counts (for every adapter)."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from scopa.encoding import observation_counts, observation_scale
from scopa.rules import Rules
from scopa.state import PlayerView


@functools.lru_cache(maxsize=64)
def _scale(rules: Rules) -> npt.NDArray[np.float32]:
    scale = np.array(observation_scale(rules), dtype=np.float32)
    scale.flags.writeable = False
    return scale


def observation_array(
    seen: PlayerView, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """[`observation`][scopa.encoding.observation] as `float32`, into `out` if given.

    The same numbers, made in one division of the counts by their scale.
    """
    counts = np.frombuffer(observation_counts(seen), dtype=np.uint8)
    return np.divide(counts, _scale(seen.rules), out=out, dtype=np.float32)
