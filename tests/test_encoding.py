"""Action ids, masks and observation vectors, over every preset."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    DECK,
    Card,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Move,
    Rules,
    find_variant,
    view,
)
from scopa.encoding import (
    ACTION_COUNT,
    COMPACT,
    COMPACT_OPTIONS,
    FLAT,
    OFFSETS,
    ActionEncoding,
    action_flags,
    action_mask,
    action_of,
    legal_actions,
    move_of_action,
    observation,
    observation_size,
)
from tests.helpers import CLASSIC, every_preset, lead
from tests.strategies import states


def _encodings(rules: Rules) -> list[ActionEncoding]:
    """The encodings that number these rules' moves (flat has no ids for some rules)."""
    flat_ok = not (rules.capture_to_fifteen or rules.declarations or rules.claim_out)
    return [COMPACT, FLAT] if flat_ok else [COMPACT]


@every_preset
@settings(max_examples=25)
@given(data=st.data())
def test_action_ids_round_trip_and_masks_match(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    for encoding in _encodings(rules):
        actions = legal_actions(state, encoding)
        assert actions == sorted(set(actions))
        assert len(actions) == len(state.legal_moves())
        assert {move_of_action(state, a, encoding) for a in actions} == set(state.legal_moves())
        for move in state.legal_moves():
            action = action_of(state, move, encoding)
            assert move_of_action(state, action, encoding) == move
            if encoding is COMPACT:
                assert action // COMPACT_OPTIONS == move.card.index
        mask = action_mask(state, encoding)
        flags = action_flags(state, encoding)
        assert len(mask) == len(flags) == encoding.count(rules)
        assert [i for i, m in enumerate(mask) if m] == actions
        assert [i for i, f in enumerate(flags) if f] == actions
        seen = view(state)
        expected = actions if seen.player == state.current_player else []
        assert legal_actions(seen, encoding) == expected


@every_preset
def test_the_flat_encoding_is_refused_where_it_has_no_ids(rules: Rules) -> None:
    state = GameState.new(rules, seed=1)
    assert COMPACT.count(rules) == 40 * COMPACT_OPTIONS == 2560
    if FLAT in _encodings(rules):
        assert FLAT.count(rules) == ACTION_COUNT
        return
    for call in (
        lambda: FLAT.count(rules),
        lambda: legal_actions(state, FLAT),
        lambda: action_mask(state, FLAT),
        lambda: move_of_action(state, 0, FLAT),
    ):
        with pytest.raises(InvalidArgumentError, match="flat encoding"):
            call()


def test_compact_ids_follow_the_order_of_the_legal_moves() -> None:
    # 7D can take 7B, or 3C+4S; 2B is laid: three moves, two of them of card 7D (index 6)
    state = lead(CLASSIC, "7D 2B", "7B 3C 4S")
    assert state.legal_moves() == (Move.parse("7Dx7B"), Move.parse("2B"))
    assert legal_actions(state) == [6 * 64, 31 * 64]
    fifteen = lead(find_variant("scopa-a-15"), "7D 2B", "8B 3C 5S 1S")
    moves = fifteen.legal_moves()
    # 7D + 8B = 15 and 7D + 3C + 5S = 15; 2B + 3C + 5S + 1S... = 11, 2B cannot make 15
    seven = [m for m in moves if m.card == Card.parse("7D")]
    assert [action_of(fifteen, m) for m in seven] == [6 * 64 + k for k in range(len(seven))]
    assert {str(m) for m in seven} == {"7Dx8B", "7Dx3C+5S"}
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        move_of_action(fifteen, 6 * 64 + len(seven))


@every_preset
@settings(max_examples=25)
@given(data=st.data())
def test_observations_have_the_documented_layout(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    player = data.draw(st.integers(0, rules.players - 1))
    seen = view(state, player)
    vector = observation(seen)
    n = rules.players
    extra = 41 * n if rules.declarations else 0
    assert len(vector) == observation_size(rules) == 82 + 45 * n + extra
    assert [DECK[i] for i in range(40) if vector[i]] == sorted(state.hands[player])
    assert [DECK[i] for i in range(40) if vector[40 + i]] == sorted(state.table)
    for k in range(n):
        pile = state.piles[(player + k) % n]
        assert [DECK[i] for i in range(40) if vector[80 + 40 * k + i]] == sorted(pile)
    base = 80 + 40 * n
    assert vector[base] == len(state.hands[player]) / rules.hand_size
    assert vector[base + n] == state.scope[player]
    assert vector[base + 2 * n] == len(state.stock) / 40
    turn = vector[base + 2 * n + 1 : base + 3 * n + 1]
    if state.current_player is None:
        assert sum(turn) == 0
    else:
        assert turn.index(1.0) == (state.current_player - player) % n
    assert sum(vector[base + 3 * n + 1 : base + 4 * n + 1]) == 1
    assert sum(vector[base + 4 * n + 1 : base + 5 * n + 2]) == 1
    if rules.declarations:
        shown = base + 5 * n + 2
        for k in range(n):
            seat = (player + k) % n
            cards = [DECK[i] for i in range(40) if vector[shown + 40 * k + i]]
            assert cards == sorted(seen.revealed[seat])
            assert vector[shown + 40 * n + k] == seen.declared[seat]


def test_the_action_space_has_the_documented_size_and_blocks() -> None:
    assert ACTION_COUNT == 16280
    sums = [0, 0, 6, 20, 47, 96, 186, 340, 597, 1020, 1698]
    assert sum(6 + sums[i % 10 + 1] for i in range(40)) == ACTION_COUNT
    assert OFFSETS[0] == 0
    assert OFFSETS[1] == 6  # the Ace of denari has no sums: a block of 6
    assert OFFSETS[2] == 6 + 12  # the 2 of denari: 6 + the 6 pairs of Aces
    assert OFFSETS[3] == 18 + 26  # the 3 of denari: 6 + 20 sets adding up to 3


def test_known_action_ids() -> None:
    state = lead(CLASSIC, "7D 2B", "7B 3C 4S")
    # 7D is card 6; its block starts after those of 1D..6D, of 6 + their sum sets each
    start = sum(6 + [0, 0, 6, 20, 47, 96, 186][r] for r in range(1, 7))
    assert OFFSETS[6] == start
    # 7D takes 7B (bastoni, suit 3): offset 1 + 3
    assert action_of(state, Move.parse("7Dx7B"), FLAT) == start + 4
    # 2B is laid: the first id of its block
    assert action_of(state, Move.parse("2B"), FLAT) == OFFSETS[31]
    assert legal_actions(state, FLAT) == [start + 4, OFFSETS[31]]
    # a sweeping Ace takes the whole table: offset 5
    assi = find_variant("scopa-d-assi")
    sweep = lead(assi, "1D", "3C 4S")
    assert legal_actions(sweep, FLAT) == [OFFSETS[0] + 5]
    assert move_of_action(sweep, OFFSETS[0] + 5, FLAT) == Move.parse("1Dx3C+4S")


def test_bad_action_ids_are_refused() -> None:
    state = lead(CLASSIC, "7D 2B", "7B 3C 4S")
    for action in (-1, ACTION_COUNT, True, "3"):
        with pytest.raises(IllegalMoveError, match="not an id"):
            move_of_action(state, action, FLAT)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="not on the table"):
        move_of_action(state, OFFSETS[6] + 2, FLAT)  # 7D takes 7C, which is not on the table
    with pytest.raises(IllegalMoveError, match="capture"):
        action_of(state, Move.parse("7Dx1C+2C"), FLAT)
    for action in (-1, 2560, True, "3"):
        with pytest.raises(IllegalMoveError, match="not an id"):
            move_of_action(state, action)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        action_of(state, Move.parse("7Dx3C+4S"))  # 7D must take the 7 of equal rank
    with pytest.raises(TypeError, match="encoding"):
        legal_actions(state, "flat")  # type: ignore[arg-type]
