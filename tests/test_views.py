"""Player views, information-set keys and resampling, over every preset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import GameState, InvalidArgumentError, PlayerView, Rules, view
from tests.helpers import CLASSIC, chi_square, chi_square_critical, every_preset
from tests.strategies import states


@every_preset
@settings(max_examples=20)
@given(data=st.data())
def test_a_view_holds_no_hidden_card(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    for player in range(rules.players):
        seen = view(state, player)
        shown = set().union(*state.revealed)  # the cards declarations showed to everyone
        others = set().union(*(h for p, h in enumerate(state.hands) if p != player))
        hidden = (others | set(state.stock)) - shown
        visible = {*seen.hand, *seen.table, *(c for pile in seen.piles for c in pile)}
        assert not visible & hidden
        assert seen.unseen == frozenset(hidden)
        assert seen.revealed == state.revealed
        assert all(cards <= hand for cards, hand in zip(seen.revealed, state.hands, strict=True))
        assert seen.hand == state.hands[player]
        assert seen.hand_sizes == tuple(len(h) for h in state.hands)
        assert seen.stock_size == len(state.stock)
        assert seen.history == state.history
        assert seen.hand_score() == state.hand_score()


@every_preset
@settings(max_examples=20)
@given(data=st.data())
def test_resampling_keeps_the_view(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    player = data.draw(st.integers(0, rules.players - 1))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    world = view(state, player).resample(rng)
    assert view(world, player) == view(state, player)
    assert view(world, player).key == view(state, player).key
    assert world.history == state.history
    others = [h for p, h in enumerate(world.hands) if p != player]
    shown = set().union(*world.revealed)
    assert world.revealed == state.revealed
    assert set().union(*others, world.stock) - shown == view(state, player).unseen
    # the redealt state plays on like any other
    if not world.is_terminal:
        assert world.legal_moves()
        assert set(view(state, player).legal_moves()) == (
            set(state.legal_moves()) if state.current_player == player else set()
        )


def test_views_are_values() -> None:
    state = GameState.new(CLASSIC, seed=3)
    a, b = view(state, 0), view(state, 0)
    assert a == b
    assert hash(a) == hash(b)
    assert a != view(state, 1)
    assert a != "view"
    assert "PlayerView of player 0" in repr(a)
    with pytest.raises(AttributeError):
        a.hand = frozenset()  # type: ignore[misc]
    with pytest.raises(TypeError):
        PlayerView()  # type: ignore[call-arg]
    with pytest.raises(InvalidArgumentError):
        view(state, 2)


def test_the_key_tells_the_order_of_plays() -> None:
    state = GameState.new(CLASSIC, seed=8)
    first = state.apply(state.legal_moves()[0])
    second = first.apply(first.legal_moves()[0])
    assert view(second, 0).key != view(first, 0).key
    assert len(view(second, 0).history) == 2


def test_resampling_is_uniform_over_the_unseen_cards() -> None:
    state = GameState.new(CLASSIC, seed=21)
    seen = view(state, 0)
    unseen = sorted(seen.unseen)
    # each unseen card lands in the opponent's hand (3 slots of 33) or one of 30 stock places
    slots = 1 + seen.stock_size
    counts = {card: [0] * slots for card in unseen}
    rng = random.Random(5)
    rounds = 6000
    for _ in range(rounds):
        world = seen.resample(rng)
        for card in world.hands[1]:
            counts[card][0] += 1
        for position, card in enumerate(world.stock):
            counts[card][1 + position] += 1
    probabilities = [3 / 33] + [1 / 33] * seen.stock_size
    statistic = sum(chi_square(row, probabilities) for row in counts.values())
    assert statistic < chi_square_critical(len(unseen) * (slots - 1))
