"""Hypothesis strategies shared by the tests: rules, decks and reachable states."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import reject
from hypothesis import strategies as st

from scopa import (
    DECK,
    AceOnAce,
    CapturePriority,
    CompulsoryCapture,
    Deck,
    GameState,
    Leftovers,
    Rules,
    RulesError,
    find_variant,
    variant_names,
)

PRESETS = [find_variant(name) for name in variant_names()]
presets = st.sampled_from(PRESETS)


@st.composite
def rules(draw: st.DrawFn) -> Rules:
    """A preset, sometimes with its capturing and end-of-hand knobs changed.

    Changes that leave no way to score a point (nothing can be captured) make rules that
    are refused, since no match under them could end: those draws are rejected.
    """
    base = draw(presets)
    if draw(st.booleans()):
        return base
    changes: dict[str, Any] = {
        "capture_priority": draw(st.sampled_from(CapturePriority)),
        "compulsory_capture": draw(st.sampled_from(CompulsoryCapture)),
        "scopa_on_last_play": draw(st.booleans()),
        "leftovers": draw(st.sampled_from(Leftovers)),
        "capture_by_rank": draw(st.booleans()),
        "capture_by_sum": draw(st.booleans()),
        "ace_captures_all": draw(st.booleans()),
        "ace_sweep_is_scopa": draw(st.booleans()),
        "ace_with_ace_on_table": draw(st.sampled_from(AceOnAce)),
        "ace_on_empty_table_captures_itself": draw(st.booleans()),
        "ace_first_lead_forbidden": draw(st.booleans()),
        "capture_to_fifteen": draw(st.booleans()),
    }
    try:
        return attrs.evolve(base, **changes)
    except RulesError:
        reject()


decks = st.permutations(DECK).map(Deck)
seeds = st.integers(min_value=0, max_value=2**64 - 1)


any_rules = rules()


@st.composite
def states(draw: st.DrawFn, rules: st.SearchStrategy[Rules] = any_rules) -> GameState:
    """A state reached from a random deal by random legal play (possibly the end of the hand)."""
    chosen = draw(rules)
    state = GameState.new(chosen, seed=draw(seeds), dealer=draw(st.integers(0, chosen.players - 1)))
    for _ in range(draw(st.integers(0, chosen.plays_per_hand))):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        state = state.apply(moves[draw(st.integers(0, len(moves) - 1))])
    return state


def play_out(state: GameState, choices: st.DataObject) -> GameState:
    """Play random legal moves drawn from `choices` to the end of the hand."""
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[choices.draw(st.integers(0, len(moves) - 1))])
    return state
