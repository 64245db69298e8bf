"""The PettingZoo adapter: the AEC API, masked play, rewards and seeding."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test, render_test  # type: ignore[import-untyped]

from scopa import IllegalMoveError, InvalidArgumentError, find_variant, variant_names, view
from scopa.adapters import hand_returns
from scopa.adapters.pettingzoo import ScopaEnv
from scopa.board import match_text, state_text
from scopa.encoding import (
    ACTION_COUNT,
    COMPACT,
    FLAT,
    MOVE_FACTS,
    legal_actions,
    legal_move_facts,
    observation,
    observation_size,
)

# The API test warns about any observation that is not a bare array, as the classic
# PettingZoo environments' dict of "observation" and "action_mask" is.
DICT_OBSERVATIONS = (
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
)


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize("variant", variant_names())
def test_api(variant: str) -> None:
    api_test(ScopaEnv(variant, render_mode="ansi"), num_cycles=50, verbose_progress=False)


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize("variant", ["classic", "scopa-3", "scopone"])
def test_api_with_the_flat_encoding(variant: str) -> None:
    api_test(ScopaEnv(variant, encoding=FLAT), num_cycles=50, verbose_progress=False)


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize(("variant", "reward"), [("classic", "win"), ("tretre", "stakes")])
def test_api_on_match_episodes(variant: str, reward: Any) -> None:
    env = ScopaEnv(variant, episode="match", match_reward=reward)
    api_test(env, num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("variant", ["classic", "scopa-4", "tretre"])
def test_match_episodes_pay_at_the_end_of_the_match(variant: str) -> None:
    stakes = find_variant(variant).stakes is not None
    env = ScopaEnv(variant, episode="match", match_reward="stakes" if stakes else "win")
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    rules = env.rules
    hands_seen = 0
    while not env.match.is_over:
        assert not any(env.rewards.values())
        agent = env.agent_selection
        obs = env.observe(agent)
        assert obs["observation"].shape == (observation_size(rules) + rules.number_of_sides,)
        player = env.possible_agents.index(agent)
        own = rules.side_of(player)
        totals = obs["observation"][-rules.number_of_sides :]
        assert totals[0] == np.float32(env.match.totals[own] / rules.target)
        hands_seen = max(hands_seen, len(env.match.hands))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    match = env.match
    assert hands_seen + 1 == len(match.hands) or match.claim is not None
    for player, agent in enumerate(env.possible_agents):
        side = rules.side_of(player)
        if stakes:
            settlement = match.settlement
            assert settlement is not None
            expected = float(settlement[side] - settlement[1 - side])
        else:
            expected = 1.0 if side == match.winner else -1.0
        assert env.rewards[agent] == expected
        assert env.terminations[agent]


def test_spaces() -> None:
    env = ScopaEnv("scopa-4")
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    space = env.observation_space("player_2")
    assert space is env.observation_space("player_2")
    assert space["observation"].shape == (observation_size(env.rules),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (2560,)
    assert space["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == 2560
    flat = ScopaEnv("scopa-4", encoding=FLAT)
    assert flat.observation_space("player_1")["action_mask"].shape == (ACTION_COUNT,)
    assert flat.action_space("player_3").n == ACTION_COUNT
    with pytest.raises(InvalidArgumentError, match="flat encoding"):
        ScopaEnv("cirulla", encoding=FLAT)
    with pytest.raises(TypeError, match="encoding"):
        ScopaEnv("classic", encoding=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "seed"),
    [("classic", 1), ("scopa-4", 2), ("scopone", 3), ("cirulla", 4), ("scopa-a-15", 5)],
)
def test_masked_random_play_is_always_legal(variant: str, seed: int) -> None:
    env = ScopaEnv(variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    plays = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            env.step(None)
            continue
        assert reward == 0
        position = env.position
        player = env.possible_agents.index(agent)
        assert position.current_player == player
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == legal_actions(position)
        expected = np.array(observation(view(position, player)), dtype=np.float32)
        assert np.array_equal(obs["observation"], expected)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        assert env.position.history[-1][0] == player
        plays += 1
    assert plays == find_variant(variant).plays_per_hand
    assert env.agents == []


@pytest.mark.parametrize("variant", ["classic", "scopa-3", "scopa-4", "escoba", "scopa-a-perdere"])
def test_rewards_come_at_the_end(variant: str) -> None:
    env = ScopaEnv(variant)
    env.reset(seed=4)
    while not env.position.is_terminal:
        assert not any(env.rewards.values())
        env.step(legal_actions(env.position)[0])
    expected = hand_returns(env.position)
    for player, agent in enumerate(env.possible_agents):
        assert env.rewards[agent] == expected[player]
        assert env.terminations[agent]
        assert env.last()[2]
    if env.rules.number_of_sides == 2:
        assert sum(env.rewards.values()) == 0


def test_reset_with_a_seed_is_reproducible() -> None:
    env = ScopaEnv("scopa-4")
    env.reset(seed=7)
    first = env.position
    env.reset()
    second = env.position
    env.reset(seed=7)
    assert env.position == first
    env.reset()
    assert env.position == second
    assert first != second


def test_illegal_actions_raise() -> None:
    env = ScopaEnv("classic")
    env.reset(seed=5)
    illegal = next(a for a in range(2560) if a not in legal_actions(env.position))
    with pytest.raises(IllegalMoveError):
        env.step(illegal)
    with pytest.raises(IllegalMoveError, match="None"):
        env.step(None)


def test_render() -> None:
    env = ScopaEnv("classic", render_mode="ansi")
    assert env.render() is None  # nothing to show before the first reset
    env.reset(seed=6)
    text = env.render()
    assert isinstance(text, str)
    assert text == str(env._state)  # the state's text picture
    assert "table" in text
    quiet = ScopaEnv("classic")
    quiet.reset(seed=6)
    assert quiet.render() is None


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_render_test(episode: Any, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> ScopaEnv:
        return ScopaEnv("scopa-4", render_mode=render_mode, episode=episode)

    render_test(make)
    assert "player 3" in capsys.readouterr().out


def test_human_rendering_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = ScopaEnv("classic", render_mode="human")
    env.reset(seed=6)
    printed = capsys.readouterr().out
    assert printed == state_text(env.position) + "\n"
    assert "to play: player" in printed
    env.step(legal_actions(env.position)[0])
    assert capsys.readouterr().out == state_text(env.position) + "\n"
    assert env.render() is None
    assert capsys.readouterr().out == state_text(env.position) + "\n"


def test_a_match_renders_with_its_totals(capsys: pytest.CaptureFixture[str]) -> None:
    env = ScopaEnv("tretre", render_mode="human", episode="match")
    env.reset(seed=2)
    assert capsys.readouterr().out == match_text(env.match) + "\n"
    summary = "tretre match to 9 points, hand 1\npoints  player 0 0, player 1 0"
    assert match_text(env.match).startswith(summary)
    ansi = ScopaEnv("tretre", render_mode="ansi", episode="match")
    ansi.reset(seed=2)
    assert ansi.render() == match_text(ansi.match)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="dealer"):
        ScopaEnv("classic", dealer=2)
    with pytest.raises(ValueError, match="render_mode"):
        ScopaEnv("classic", render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        _ = ScopaEnv("classic").position


# --------------------------------------------------------------------------- move facts


@pytest.mark.filterwarnings(*DICT_OBSERVATIONS)
@pytest.mark.parametrize(("variant", "encoding"), [("classic", COMPACT), ("scopa-4", FLAT)])
def test_api_with_move_facts(variant: str, encoding: Any) -> None:
    env = ScopaEnv(variant, encoding=encoding, move_facts=True)
    api_test(env, num_cycles=50, verbose_progress=False)


@pytest.mark.parametrize(("variant", "seed"), [("classic", 1), ("scopa-4", 2), ("escoba", 3)])
def test_move_facts_are_the_agents_and_zero_when_not_to_move(variant: str, seed: int) -> None:
    env = ScopaEnv(variant, move_facts=True)
    space = env.observation_space("player_0")
    assert space["move_facts"].shape == (2160,)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            assert not obs["move_facts"].any()
            env.step(None)
            continue
        player = env.possible_agents.index(agent)
        facts = obs["move_facts"]
        expected = np.array(legal_move_facts(view(env.position, player)), dtype=np.float32)
        assert np.array_equal(facts, expected)
        # the first fact of a slot marks a move: slot 3 c + k for the compact id 64 c + k
        present = [slot for slot in range(120) if facts[MOVE_FACTS * slot] == 1.0]
        ids = legal_actions(env.position)
        assert present == [3 * (a // 64) + a % 64 for a in ids if a % 64 < 3]
        for other in env.agents:
            if other != agent:
                seen = env.observe(other)
                assert space.contains(seen)
                assert not seen["move_facts"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_move_facts_are_off_by_default_and_must_be_a_bool() -> None:
    env = ScopaEnv("classic")
    env.reset(seed=2)
    assert sorted(env.observe("player_1")) == ["action_mask", "observation"]
    with pytest.raises(TypeError, match="move_facts must be a bool, not NoneType"):
        ScopaEnv("classic", move_facts=None)  # type: ignore[arg-type]
