"""The knobs of `Rules` that the batch engine knows (internal; importable without JAX).

[`scopa.batch`][scopa.batch] plays every knob listed here, whatever its value. A knob
that `Rules` gains later is played only at its default until it is listed here (and the
engine honours it): rules that set it otherwise are refused, naming it. A test that runs
without JAX checks that every knob of `Rules` is listed.
"""

from __future__ import annotations

import functools
from typing import Final

import attrs

from scopa.rules import Rules

KNOWN: Final = {
    "players": "the deal and the turns",
    "sides": "scoring",
    "hand_size": "the deal",
    "table_size": "the deal",
    "ranks": "the deal",
    "suits": "the deal and scoring",
    "capture_by_rank": "the moves",
    "capture_by_sum": "the moves",
    "capture_to_fifteen": "the moves",
    "capture_priority": "the moves",
    "compulsory_capture": "the moves",
    "ace_captures_all": "the moves",
    "ace_sweep_is_scopa": "the scope",
    "ace_with_ace_on_table": "the moves",
    "ace_on_empty_table_captures_itself": "the piles",
    "first_table": "the deal",
    "first_table_to_eldest": "the deal",
    "matta": "the deal and the declarations",
    "declarations": "the moves, the observation and scoring",
    "ace_first_lead_forbidden": "the moves",
    "scopa_on_last_play": "the scope",
    "leftovers": "the end of the hand",
    "misdeal": "the deal",
    "target": "the match",
    "tiebreak": "the match",
    "lowest_total_wins": "the rewards and the match",
    "claim_out": "the moves and the match",
    "scoring": "scoring",
    "move_time_limit": "the match",
    "stakes": "the match",
}
"""Each knob the batch engine knows, and what it changes there ("the match": nothing in a
hand, which the batch engine plays; the match layer reads it)."""


def knobs() -> tuple[str, ...]:
    """The knobs of `Rules`: the fields that make rules equal (not `name`, a label)."""
    return tuple(field.name for field in attrs.fields(Rules) if field.eq)


@functools.cache
def _defaults() -> Rules:
    return Rules()


def unknown_knobs(rules: Rules) -> tuple[str, ...]:
    """The knobs of `rules` the batch engine does not know, set to other than their default."""
    default = _defaults()
    return tuple(
        name
        for name in knobs()
        if name not in KNOWN and getattr(rules, name) != getattr(default, name)
    )
