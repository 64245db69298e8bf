"""The spaces and observations the Gymnasium and PettingZoo environments share."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from scopa.adapters import MATCH_TOTAL_CAP, match_totals_seen, observation_high
from scopa.adapters._arrays import observation_array
from scopa.encoding import ActionEncoding, action_mask
from scopa.match import Match
from scopa.rules import Rules
from scopa.state import GameState, view

Observation = dict[str, npt.NDArray[Any]]
"""An observation: `"observation"` (float32) and `"action_mask"` (int8)."""


def observation_space(rules: Rules, encoding: ActionEncoding, whole_match: bool) -> spaces.Dict:
    """The space of one player's observations; a match's adds each side's total."""
    high = list(observation_high(rules))
    if whole_match:
        high += [MATCH_TOTAL_CAP] * rules.number_of_sides
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, np.array(high, dtype=np.float32), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.count(rules),), dtype=np.int8),
        }
    )


def observe(
    position: GameState, player: int, encoding: ActionEncoding, match: Match | None
) -> Observation:
    """`player`'s observation of the hand being played (and of the match, if one is given).

    The mask comes from the position's own legal moves, computed once per position.
    """
    vector = observation_array(view(position, player))
    if match is not None:
        totals = np.array(match_totals_seen(match, player), dtype=np.float32)
        vector = np.concatenate((vector, totals))
    if position.current_player == player:
        mask = action_mask(position, encoding)
    else:
        mask = bytearray(encoding.count(position.rules))
    return {
        "observation": vector,
        "action_mask": np.frombuffer(mask, dtype=np.int8),
    }
