"""Move facts: what each legal move does, as numbers (known answers computed by hand)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from scopa import Card, GameState, IllegalMoveError, Move, find_variant, view
from scopa.encoding import (
    COMPACT,
    FACT_CHOICES,
    MOVE_FACTS,
    action_of,
    legal_actions,
    legal_move_facts,
    move_facts,
    move_of_action,
)
from tests.helpers import position
from tests.strategies import states

CLASSIC = find_variant("classic")


def lead_position() -> GameState:
    """Player 0 holds 7D 3C 10B over a table of 2B 5D 9C.

    Player 1 holds 4S 5S 6S and six cards are left to deal (the three other nines among
    them); the dealer, player 1, has captured every other card, so player 0 has not seen
    exactly those nine cards.
    """
    return position(
        CLASSIC,
        ["7D 3C 10B", "4S 5S 6S"],
        "2B 5D 9C",
        stock="9D 9S 9B 1D 1C 1S",
        piles=["", "*"],
    )


def slot(card_index: int, k: int) -> slice:
    """Where `legal_move_facts` keeps the `k`-th move of a card."""
    start = MOVE_FACTS * (FACT_CHOICES * card_index + k)
    return slice(start, start + MOVE_FACTS)


def test_a_capture_of_the_settebello() -> None:
    seen = view(lead_position(), 0)
    facts = move_facts(seen, Move.parse("7D x 2B 5D"))
    # It wins 7D 2B 5D (3 cards: 0.75; denari 7D 5D: 2/2; one seven: 1/2; the settebello),
    # leaves 9C (not empty; 9 <= 10; the unseen 9D 9S 9B could take it: 3/4; one card: 0.1),
    # plays a 7 (0.7) that is a denaro, a seven, the settebello; no seven is left.
    assert facts == [
        *[
            1.0,
            1.0,
            0.75,
            1.0,
            0.5,
            1.0,
            0.0,
            1.0,
            0.75,
            0.1,
            0.7,
            1.0,
            1.0,
            1.0,
            0.0,
            0.0,
            0.0,
            0.0,
        ]
    ]


def test_a_lay_down() -> None:
    seen = view(lead_position(), 0)
    facts = move_facts(seen, Move.parse("3C"))
    # Laying 3C leaves 2B 5D 9C 3C: 4 cards adding up to 19, beyond one card's reach.
    assert facts == [
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.4,
        0.3,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]


def test_a_scopa_and_a_table_left_to_sweep() -> None:
    state = position(CLASSIC, ["7C 2S", "1D 4D"], "3D 4C 7D", stock="", piles=["", "*"])
    seen = view(state, 0)
    # 7C takes 3D 4C or 7D, never both: no scopa. 7C x 7D leaves 3D 4C (7: the unseen
    # 7S 7B could sweep... but player 0 has seen every card outside player 1's hand, which
    # holds no seven): 0 unseen sevens.
    assert move_facts(seen, Move.parse("7C x 7D")) == [
        *[1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 0.0, 1.0, 0.0, 0.2, 0.7, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    ]
    # 2S is laid: 3D 4C 7D 2S adds up to 16.
    assert move_facts(seen, Move.parse("2S"))[7:10] == [0.0, 0.0, 0.4]
    sweep = position(CLASSIC, ["7C 2S", "1D 4D"], "3D 4C", stock="", piles=["", "*"])
    # 7C x 3D 4C empties the table: a scopa; it wins one denaro and one seven.
    assert move_facts(view(sweep, 0), Move.parse("7C x 3D 4C")) == [
        *[1.0, 1.0, 0.75, 0.5, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.7, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    ]


def test_the_primiera_cards_won() -> None:
    state = position(CLASSIC, ["7C 2S", "1D 4D"], "1S 6B", stock="", piles=["", "*"])
    # 7C x 1S 6B wins a seven, a six and an Ace (3 cards, no denaro) and sweeps.
    assert move_facts(view(state, 0), Move.parse("7C x 1S 6B")) == [
        *[1.0, 1.0, 0.75, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.7, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5]
    ]


def test_the_layout_by_compact_id() -> None:
    seen = view(lead_position(), 0)
    values = legal_move_facts(seen)
    assert len(values) == 40 * FACT_CHOICES * MOVE_FACTS == 2160
    # 7D is card 6, 3C card 12, 10B card 39; each has one legal move (k = 0).
    assert values[slot(6, 0)] == move_facts(seen, Move.parse("7D x 2B 5D"))
    assert values[slot(12, 0)] == move_facts(seen, Move.parse("3C"))
    assert values[slot(39, 0)] == move_facts(seen, Move.parse("10B"))
    filled = {6 * FACT_CHOICES, 12 * FACT_CHOICES, 39 * FACT_CHOICES}
    empty = [k for k in range(40 * FACT_CHOICES) if k not in filled]
    assert all(values[MOVE_FACTS * k : MOVE_FACTS * (k + 1)] == [0.0] * MOVE_FACTS for k in empty)


@settings(max_examples=60, deadline=None)
@given(states())
def test_every_legal_move_in_its_compact_slot(state: GameState) -> None:
    if state.is_terminal:
        return
    seen = view(state)
    values = legal_move_facts(seen)
    for move in seen.legal_moves():  # a card's choices past the 64th have facts, and no slot
        facts = move_facts(seen, move)
        assert len(facts) == MOVE_FACTS
        assert facts[0] == 1.0
        assert all(facts[i] in (0.0, 1.0) for i in (1, 5, 6, 7, 11, 12, 13, 14))
        assert min(facts) >= 0.0
    for action in legal_actions(seen, COMPACT):
        card, k = divmod(action, 64)
        if k < FACT_CHOICES:
            assert values[slot(card, k)] == move_facts(seen, move_of_action(seen, action))


def test_a_card_with_more_than_64_choices() -> None:
    # escoba: 2C takes any cards of the table adding up to 13; past its 64th choice a move
    # has facts but no compact id, and no slot
    rules = find_variant("escoba")
    state = position(rules, ["2C 9S", "8D 9D"], "1-5D 1-6B 1S", stock="", piles=["", "*"])
    seen = view(state)
    moves = [m for m in seen.legal_moves() if m.card == Card.parse("2C")]
    assert len(moves) > 64
    last = moves[-1]
    assert move_facts(seen, last)[:2] == [1.0, 1.0]
    with pytest.raises(IllegalMoveError, match="no compact id"):
        action_of(seen, last)


def test_bad_arguments() -> None:
    state = lead_position()
    with pytest.raises(TypeError, match="PlayerView"):
        move_facts(state, Move.parse("3C"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Move"):
        move_facts(view(state, 0), "3C")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PlayerView"):
        legal_move_facts(state)  # type: ignore[arg-type]
