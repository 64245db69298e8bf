"""Agents always play legal moves, over every preset; greedy's heuristic by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import GameState, Move, Rules, view
from scopa.agents import Agent, GreedyAgent, RandomAgent, SearchAgent, play_hand
from tests.helpers import CLASSIC, every_preset, lead
from tests.strategies import PRESETS, states

AGENTS: list[Agent] = [RandomAgent(), GreedyAgent(), SearchAgent(iterations=2)]


@every_preset
@settings(max_examples=10)
@given(data=st.data())
def test_agents_only_play_legal_moves(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    if state.is_terminal:
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for agent in AGENTS:
        assert isinstance(agent, Agent)
        assert agent.choose(state, rng) in state.legal_moves()
        assert agent.choose(view(state), rng) in state.legal_moves()


@pytest.mark.parametrize("rules", PRESETS[:4], ids=[r.name for r in PRESETS[:4]])
def test_agents_play_whole_hands(rules: Rules) -> None:
    players = {p: AGENTS[p % len(AGENTS)] for p in range(rules.players)}
    end = play_hand(GameState.new(rules, seed=9), players, random.Random(1))
    assert end.is_terminal


def test_greedy_takes_a_scopa() -> None:
    # 7D can sweep {3C, 4S}; laying 9B would leave 3+4+9 = 16 on the table
    state = lead(CLASSIC, "7D 9B", "3C 4S")
    assert GreedyAgent().choose(state, random.Random(0)) == Move.parse("7Dx3C+4S")


def test_greedy_prefers_the_settebello() -> None:
    # 7C may take 7D (settebello) and 7B is left; 2C must take 2S: 7D is worth far more
    state = lead(CLASSIC, "7C 2C", "7D 2S 9B")
    assert GreedyAgent().choose(state, random.Random(0)) == Move.parse("7Cx7D")


def test_greedy_lays_the_cheapest_card_safely() -> None:
    # nothing captures: laying 10B leaves 10+9 = 19 (safe); laying 1C leaves 10; 10B is also
    # worth less (0.25 against 0.75)
    state = lead(CLASSIC, "10B 1C", "9S")
    assert GreedyAgent().choose(state, random.Random(0)) == Move.parse("10B")


def test_search_uses_a_clock_only_when_given_one() -> None:
    ticks = iter(range(1000))
    calls: list[int] = []

    def clock() -> float:
        value = next(ticks)
        calls.append(value)
        return float(value)

    state = GameState.new(CLASSIC, seed=4)
    agent = SearchAgent(iterations=50, seconds=2.0, clock=clock)
    assert agent.choose(state, random.Random(0)) in state.legal_moves()
    assert 2 <= len(calls) <= 4  # the budget of 2 "seconds" ends the search early
    assert (
        SearchAgent(iterations=3, seconds=1.0).choose(state, random.Random(0))
        in state.legal_moves()
    )
