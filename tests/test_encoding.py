"""Action ids, masks and observation vectors, over every preset."""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
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
    PlayerView,
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
    InformationStateLayout,
    action_count,
    action_flags,
    action_mask,
    action_of,
    information_state,
    information_state_size,
    legal_actions,
    move_of_action,
    observation,
    observation_counts,
    observation_scale,
    observation_size,
)
from tests.helpers import CLASSIC, cards, every_preset, lead
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


@every_preset
@settings(max_examples=10)
@given(data=st.data())
def test_observation_counts_divided_by_their_scale_are_the_observation(
    rules: Rules, data: st.DataObject
) -> None:
    state = data.draw(states(st.just(rules)))
    seen = view(state, data.draw(st.integers(0, rules.players - 1)))
    counts = observation_counts(seen)
    scale = observation_scale(rules)
    assert len(counts) == len(scale) == observation_size(rules)
    assert [count / by for count, by in zip(counts, scale, strict=True)] == observation(seen)
    n = rules.players
    base = 80 + 40 * n  # the hand sizes, then the scope, then the stock
    assert scale[base : base + n] == (rules.hand_size,) * n
    assert scale[base + 2 * n] == 40
    assert set(scale[:base] + scale[base + n : base + 2 * n] + scale[base + 2 * n + 1 :]) == {1}
    assert counts[base + 2 * n] == len(state.stock)


def test_observations_of_ten_players() -> None:
    rules = attrs.evolve(CLASSIC, name="ten", players=10, hand_size=4, table_size=0)
    state = GameState.new(rules, seed=1)
    seen = view(state, 7)
    vector = observation(seen)
    assert len(vector) == observation_size(rules) == 82 + 45 * 10
    # seats count from player 7: player 0, who deals, is seat 3
    base = 80 + 40 * 10
    assert vector[base : base + 10] == [1.0] * 10  # every hand full
    dealer = vector[base + 3 * 10 + 1 : base + 4 * 10 + 1]
    assert dealer.index(1.0) == (state.dealer - 7) % 10 == 3
    counts, scale = observation_counts(seen), observation_scale(rules)
    assert [count / by for count, by in zip(counts, scale, strict=True)] == vector


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
            move_of_action(state, action, FLAT)
    with pytest.raises(IllegalMoveError, match="not on the table"):
        move_of_action(state, OFFSETS[6] + 2, FLAT)  # 7D takes 7C, which is not on the table
    with pytest.raises(IllegalMoveError, match="capture"):
        action_of(state, Move.parse("7Dx1C+2C"), FLAT)
    for action in (-1, 2560, True, "3"):
        with pytest.raises(IllegalMoveError, match="not an id"):
            move_of_action(state, action)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        action_of(state, Move.parse("7Dx3C+4S"))  # 7D must take the 7 of equal rank
    with pytest.raises(TypeError, match="encoding"):
        legal_actions(state, "flat")  # type: ignore[arg-type]


POSITION_FUNCTIONS = {
    "legal_actions": legal_actions,
    "action_mask": action_mask,
    "action_flags": action_flags,
    "move_of_action": lambda position: move_of_action(position, 0),
    "action_of": lambda position: action_of(position, Move.parse("7D")),
}
RULES_FUNCTIONS = {
    "action_count": action_count,
    "action_count flat": lambda rules: action_count(rules, FLAT),
    "observation_size": observation_size,
    "observation_scale": observation_scale,
    "information_state_size": information_state_size,
    "for_rules": InformationStateLayout.for_rules,
}


@pytest.mark.parametrize("function", POSITION_FUNCTIONS.values(), ids=POSITION_FUNCTIONS)
def test_ids_are_of_positions_only(function: Callable[[object], object]) -> None:
    # Compiled, the function's own check comes first; both name the types expected.
    with pytest.raises(TypeError, match="GameState"):
        function("classic")


@pytest.mark.parametrize("function", RULES_FUNCTIONS.values(), ids=RULES_FUNCTIONS)
def test_sizes_are_of_rules_only(function: Callable[[object], object]) -> None:
    with pytest.raises(TypeError, match="Rules"):
        function("classic")


@pytest.mark.parametrize("encode", [observation, observation_counts, information_state])
def test_vectors_are_of_views_only(encode: Callable[[PlayerView], object]) -> None:
    state = GameState.new(CLASSIC, seed=1)
    with pytest.raises(TypeError, match="PlayerView"):
        encode(state)  # type: ignore[arg-type]


# The information-state sizes, by hand: the observation (82 + 45 n, and 41 n more with
# declarations), then a slot per play: n seats, 40 for the card, 40 for the captures, and
# 2 more with declarations (busso, tris).
INFORMATION_STATE_SIZES = {
    "classic": 172 + 36 * 82,  # 3124
    "scopa-3": 217 + 36 * 83,  # 3205
    "scopa-4": 262 + 36 * 84,  # 3286
    "scopa-6": 352 + 36 * 86,  # 3448
    "scopone-scientifico": 262 + 40 * 84,  # 3622
    "cirulla": 254 + 36 * 84,  # 3278
}


@pytest.mark.parametrize(("name", "size"), sorted(INFORMATION_STATE_SIZES.items()))
def test_known_information_state_sizes(name: str, size: int) -> None:
    assert information_state_size(find_variant(name)) == size


@every_preset
@settings(max_examples=10)
@given(data=st.data())
def test_information_states_hold_the_observation_and_the_plays(
    rules: Rules, data: st.DataObject
) -> None:
    state = data.draw(states(st.just(rules)))
    player = data.draw(st.integers(0, rules.players - 1))
    seen = view(state, player)
    vector = information_state(seen)
    layout = InformationStateLayout.for_rules(rules)
    assert len(vector) == information_state_size(rules) == layout.size
    assert len(layout.plays) == rules.plays_per_hand
    assert vector[: observation_size(rules)] == observation(seen)
    n = rules.players
    history = state.history
    for slot, place in enumerate(layout.plays):
        values = vector[place]
        if slot >= len(history):
            assert not any(values)
            continue
        mover, move = history[slot]
        assert values[layout.seat].index(1.0) == (mover - player) % n
        assert [i for i, v in enumerate(values[layout.card]) if v] == [move.card.index]
        captured = [DECK[i] for i, v in enumerate(values[layout.captured]) if v]
        assert captured == sorted(move.captured)
        declared = values[layout.declaration]
        assert len(declared) == (2 if rules.declarations else 0)
        assert sum(declared) == (move.declaration is not None)
        assert values[layout.claim] == ([1.0 if move.claim else 0.0] if rules.claim_out else [])


@every_preset
@settings(max_examples=10)
@given(data=st.data())
def test_states_a_player_cannot_tell_apart_give_the_same_information_state(
    rules: Rules, data: st.DataObject
) -> None:
    state = data.draw(states(st.just(rules)))
    player = data.draw(st.integers(0, rules.players - 1))
    seen = view(state, player)
    world = seen.resample(random.Random(data.draw(st.integers(0, 2**32))))
    assert information_state(view(world, player)) == information_state(seen)


def test_the_order_of_the_plays_changes_the_information_state() -> None:
    # Player 1 deals; no card of the hands can take anything from a table of 9s and 10s,
    # nor from the small cards laid beside them. Laying 1D, 2C, 5D or 5D, 2C, 1D ends in
    # the same position, seen the same way, but for the order of the plays.
    start = GameState.from_position(
        CLASSIC,
        hands=[cards("1D 5D 6D"), cards("2C 3C 4C")],
        table=cards("10D 10C 9S 9B"),
        stock=[c for c in DECK if c not in cards("1D 5D 6D 2C 3C 4C 10D 10C 9S 9B")],
        dealer=1,
    )

    def played(order: str) -> GameState:
        state = start
        for text in order.split():
            state = state.apply(Move.parse(text))
        return state

    first, second = played("1D 2C 5D"), played("5D 2C 1D")
    assert first.key == second.key
    for player in (0, 1):
        assert observation(view(first, player)) == observation(view(second, player))
        assert information_state(view(first, player)) != information_state(view(second, player))
    vector = information_state(view(first, 1))
    # the observation is 172 long; a slot is 2 seats, 40 card entries and 40 captures
    assert vector[172:174] == [0.0, 1.0]  # player 0 played first: one seat before player 1
    assert [i for i in range(40) if vector[174 + i]] == [0]  # the 1D
    assert [i for i in range(40) if vector[254 + 2 + i]] == [11]  # then the 2C
    assert [i for i in range(40) if vector[336 + 2 + i]] == [4]  # then the 5D
    assert not any(vector[214:254] + vector[296:336] + vector[378:418])  # no captures
    assert not any(vector[418:])  # no fourth play
