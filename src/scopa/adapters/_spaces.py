"""The spaces and observations the Gymnasium and PettingZoo environments share."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from scopa.adapters import MATCH_TOTAL_CAP, match_totals_seen, observation_high
from scopa.adapters._arrays import observation_array
from scopa.encoding import FACT_CHOICES, ActionEncoding, action_mask, legal_move_facts
from scopa.match import Match
from scopa.rules import Rules
from scopa.state import GameState, view

Observation = dict[str, npt.NDArray[Any]]
"""An observation: `"observation"` (float32), `"action_mask"` (int8), and with move facts
`"move_facts"` (float32)."""

FACT_HIGH = (1.0, 1.0, 10.0, 5.0, 2.0, *[1.0] * 4, 4.0, *[1.0] * 6, 2.0, 2.0)
"""The largest value of each move fact: the cards won are at most 40 (/ 4), their denari
10 (/ 2), their sevens, sixes and Aces 4 each (/ 2), the cards left on the table at most
40 (/ 10)."""


def observation_space(
    rules: Rules, encoding: ActionEncoding, whole_match: bool, move_facts: bool = False
) -> spaces.Dict:
    """The space of one player's observations; a match's adds each side's total."""
    high = list(observation_high(rules))
    if whole_match:
        high += [MATCH_TOTAL_CAP] * rules.number_of_sides
    entries: dict[str, spaces.Space[Any]] = {
        "observation": spaces.Box(0.0, np.array(high, dtype=np.float32), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (encoding.count(rules),), dtype=np.int8),
    }
    if move_facts:
        facts_high = np.tile(np.array(FACT_HIGH, dtype=np.float32), 40 * FACT_CHOICES)
        entries["move_facts"] = spaces.Box(0.0, facts_high, dtype=np.float32)
    return spaces.Dict(entries)


def action_array(
    position: GameState, player: int, encoding: ActionEncoding
) -> npt.NDArray[np.int8]:
    """`player`'s action mask: its legal ids, or none when it is not to move."""
    if position.current_player == player:
        mask = action_mask(position, encoding)
    else:
        mask = bytearray(encoding.count(position.rules))
    return np.frombuffer(mask, dtype=np.int8)


def observe(
    position: GameState,
    player: int,
    encoding: ActionEncoding,
    match: Match | None,
    move_facts: bool = False,
) -> Observation:
    """`player`'s observation of the hand being played (and of the match, if one is given).

    The mask comes from the position's own legal moves, computed once per position. With
    `move_facts`, [`legal_move_facts`][scopa.encoding.legal_move_facts] of the player's
    view (zeros when the player is not to move).
    """
    seen = view(position, player)
    vector = observation_array(seen)
    if match is not None:
        totals = np.array(match_totals_seen(match, player), dtype=np.float32)
        vector = np.concatenate((vector, totals))
    observed: Observation = {
        "observation": vector,
        "action_mask": action_array(position, player, encoding),
    }
    if move_facts:
        observed["move_facts"] = np.array(legal_move_facts(seen), dtype=np.float32)
    return observed
