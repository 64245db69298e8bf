"""The Gymnasium adapter: the environment checker, masked episodes, rewards and seeding."""

from __future__ import annotations

from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from scopa import (  # noqa: E402
    IllegalMoveError,
    InvalidArgumentError,
    find_variant,
    variant_names,
    view,
)
from scopa.adapters import hand_returns  # noqa: E402
from scopa.adapters.gymnasium import ENV_ID, ScopaGymEnv  # noqa: E402
from scopa.agents import GreedyAgent, RandomAgent  # noqa: E402
from scopa.encoding import (  # noqa: E402
    ACTION_COUNT,
    COMPACT,
    FLAT,
    MOVE_FACTS,
    legal_actions,
    legal_move_facts,
    observation,
    observation_size,
)


@pytest.mark.parametrize("variant", variant_names())
def test_check_env(variant: str) -> None:
    seat = find_variant(variant).players - 1
    env = gymnasium.make(
        ENV_ID, variant=variant, seat=seat, illegal_action="random", render_mode="ansi"
    )
    check_env(env.unwrapped)
    env.close()


def test_check_env_on_the_default_environment() -> None:
    env = gymnasium.make(ENV_ID)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(
    ("variant", "reward"), [("classic", "win"), ("tretre", "stakes"), ("scopa-3", "win")]
)
def test_check_env_on_match_episodes(variant: str, reward: Any) -> None:
    env = gymnasium.make(ENV_ID, variant=variant, episode="match", match_reward=reward)
    check_env(env.unwrapped)
    env.close()


def play_match(env: ScopaGymEnv, seed: int) -> tuple[list[float], dict[str, Any], Any]:
    """Play a match episode with masked random actions: the rewards, last info and last obs."""
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    rewards = []
    terminated = False
    info: dict[str, Any] = {}
    while not terminated:
        assert env.observation_space.contains(obs)
        totals = obs["observation"][-env.rules.number_of_sides :]
        own = env.rules.side_of(env.learner_seat)
        assert totals[0] == pytest.approx(env.match.totals[own] / env.rules.target)
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, _, info = env.step(action)
        assert "illegal_action" not in info
        rewards.append(reward)
    return rewards, info, obs


@pytest.mark.parametrize(("variant", "seat"), [("classic", 1), ("scopa-4", 2), ("scopa-3", 0)])
def test_match_episodes_pay_the_winner_at_the_end(variant: str, seat: int) -> None:
    env = ScopaGymEnv(variant, RandomAgent(), seat, episode="match")
    rules = env.rules
    assert env.observation_space["observation"].shape == (
        observation_size(rules) + rules.number_of_sides,
    )
    rewards, info, _ = play_match(env, 3)
    match = env.match
    assert match.is_over
    assert len(match.hands) >= 1
    assert len(rewards) > rules.plays_per_hand // rules.players  # more than one hand
    assert not any(rewards[:-1])
    assert rewards[-1] == (1.0 if rules.side_of(seat) == match.winner else -1.0)
    assert info["winner"] == match.winner
    assert info["totals"] == match.totals
    assert max(match.totals) >= rules.target


def test_match_episodes_can_pay_the_stakes() -> None:
    env = ScopaGymEnv("tretre", RandomAgent(), 0, episode="match", match_reward="stakes")
    rewards, _, _ = play_match(env, 5)
    settlement = env.match.settlement
    assert settlement is not None
    assert rewards[-1] == float(settlement[0] - settlement[1])
    with pytest.raises(InvalidArgumentError, match="no stakes"):
        ScopaGymEnv("classic", episode="match", match_reward="stakes")
    with pytest.raises(InvalidArgumentError, match="episode"):
        ScopaGymEnv("classic", episode="hands")  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="match episode"):
        _ = ScopaGymEnv("classic").match


@pytest.mark.parametrize(("variant", "seat"), [("classic", 0), ("scopa-4", 1), ("scopa-3", 2)])
def test_check_env_with_the_flat_encoding(variant: str, seat: int) -> None:
    env = gymnasium.make(ENV_ID, variant=variant, seat=seat, illegal_action="random", encoding=FLAT)
    check_env(env.unwrapped)
    env.close()


def test_spaces() -> None:
    env = ScopaGymEnv("scopa-4")
    space = env.observation_space
    assert space["observation"].shape == (observation_size(env.rules),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (2560,)
    assert space["action_mask"].dtype == np.int8
    assert env.action_space.n == 2560
    assert isinstance(env.opponent, GreedyAgent)
    flat = ScopaGymEnv("scopa-4", encoding=FLAT)
    assert flat.observation_space["action_mask"].shape == (ACTION_COUNT,)
    assert flat.action_space.n == ACTION_COUNT
    with pytest.raises(InvalidArgumentError, match="flat encoding"):
        ScopaGymEnv("escoba", encoding=FLAT)
    with pytest.raises(TypeError, match="encoding"):
        ScopaGymEnv("classic", encoding="flat")  # type: ignore[arg-type]


def play_episode(env: ScopaGymEnv, seed: int) -> tuple[list[float], dict[str, Any], int]:
    """Play one episode with random legal actions; the rewards, the last info and the steps."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    rewards = []
    steps = 0
    terminated = False
    info: dict[str, Any] = {}
    while not terminated:
        assert env.observation_space.contains(obs)
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == legal_actions(env.position, env.encoding)
        assert env.position.current_player == env.learner_seat
        expected = np.array(observation(view(env.position, env.learner_seat)), np.float32)
        assert np.array_equal(obs["observation"][: len(expected)], expected)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        assert "illegal_action" not in info
        rewards.append(reward)
        steps += 1
    assert not obs["action_mask"].any()
    return rewards, info, steps


@pytest.mark.parametrize(
    ("variant", "seat", "opponent"),
    [
        ("classic", 0, RandomAgent()),
        ("classic", 1, GreedyAgent()),
        ("scopa-4", 2, GreedyAgent()),
        ("scopone-scientifico", 3, RandomAgent()),
        ("escoba", 0, GreedyAgent()),
        ("cirulla", 1, GreedyAgent()),
        ("scopa-a-perdere", 0, RandomAgent()),
    ],
)
def test_masked_random_episodes(variant: str, seat: int, opponent: Any) -> None:
    env = ScopaGymEnv(variant, opponent, seat)
    rules = find_variant(variant)
    for seed in range(3):
        rewards, info, steps = play_episode(env, seed)
        assert steps == rules.plays_per_hand // rules.players
        assert not any(rewards[:-1])
        position = env.position
        assert position.is_terminal
        assert rewards[-1] == hand_returns(position)[seat]
        assert info["points"] == position.hand_score().points
        assert {player for player, _ in position.history} == set(range(rules.players))


@pytest.mark.parametrize(
    ("variant", "episode"), [("classic", "hand"), ("scopa-4", "hand"), ("scopa-3", "match")]
)
def test_check_env_with_the_seat_drawn(variant: str, episode: Any) -> None:
    env = gymnasium.make(ENV_ID, variant=variant, seat=None, episode=episode)
    check_env(env.unwrapped)
    env.close()


def test_the_seat_drawn_for_each_episode() -> None:
    env = ScopaGymEnv("scopa-3", RandomAgent(), seat=None)
    with pytest.raises(RuntimeError, match="seat=None"):
        _ = env.learner_seat
    seats = []
    for seed in range(30):
        _, info = env.reset(seed=seed)
        seat = info["seat"]
        assert seat == env.learner_seat
        seats.append(seat)
        rewards, _, steps = play_episode(env, seed)  # the learner acts only in its seat
        assert env.learner_seat == seat  # the same seed draws the same seat
        assert steps == 12  # 36 plays, one in three the learner's
        assert rewards[-1] == hand_returns(env.position)[seat]
    assert env.seat is None
    assert set(seats) == {0, 1, 2}


def test_a_fixed_seat_is_in_the_info() -> None:
    env = ScopaGymEnv("scopa-4", seat=2)
    assert env.learner_seat == 2
    for seed in range(3):
        _, info = env.reset(seed=seed)
        assert info == {"seat": 2}


def test_reset_with_a_seed_is_reproducible() -> None:
    env = ScopaGymEnv("scopa-4", RandomAgent(), seat=3)
    first = play_episode(env, 11)
    first_hand = env.position
    second = play_episode(env, 11)
    assert first == second
    assert env.position == first_hand
    play_episode(env, 12)
    assert env.position != first_hand


def test_illegal_actions_raise_when_asked() -> None:
    env = ScopaGymEnv("classic", illegal_action="raise")
    env.reset(seed=1)
    illegal = next(a for a in range(env.action_space.n) if a not in legal_actions(env.position))
    with pytest.raises(IllegalMoveError, match="not legal for seat 0"):
        env.step(illegal)


def test_illegal_actions_are_replaced_by_default() -> None:
    env = ScopaGymEnv("classic")
    env.reset(seed=1)
    illegal = next(a for a in range(env.action_space.n) if a not in legal_actions(env.position))
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    assert [player for player, _ in env.position.history].count(0) == 1


def test_a_finished_hand_needs_a_reset() -> None:
    env = ScopaGymEnv("classic")
    play_episode(env, 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_render() -> None:
    env = ScopaGymEnv("classic", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str)
    assert text == str(env._state)  # the state's text picture
    quiet = ScopaGymEnv("classic")
    quiet.reset(seed=3)
    assert quiet.render() is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        ScopaGymEnv("classic", seat=2)
    with pytest.raises(ValueError, match="dealer"):
        ScopaGymEnv("classic", dealer=-1)
    with pytest.raises(ValueError, match="render_mode"):
        ScopaGymEnv("classic", render_mode="human")
    with pytest.raises(ValueError, match="illegal_action"):
        ScopaGymEnv("classic", illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="opponent"):
        ScopaGymEnv("classic", opponent="greedy")  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="reset"):
        _ = ScopaGymEnv("classic").position


# --------------------------------------------------------------------------- move facts


def present_slots(facts: Any) -> list[int]:
    """The slots whose first fact says a move is there."""
    return [slot for slot in range(120) if facts[MOVE_FACTS * slot] == 1.0]


def slots_of_legal_ids(position: Any) -> list[int]:
    """The slot of each legal compact id `64 c + k` with `k` below 3: `3 c + k`."""
    return [3 * (a // 64) + a % 64 for a in legal_actions(position) if a % 64 < 3]


@pytest.mark.parametrize(
    ("variant", "episode", "encoding"),
    [("classic", "hand", COMPACT), ("scopa-4", "match", COMPACT), ("scopa-3", "hand", FLAT)],
)
def test_check_env_with_move_facts(variant: str, episode: Any, encoding: Any) -> None:
    env = gymnasium.make(
        ENV_ID, variant=variant, episode=episode, encoding=encoding, move_facts=True
    )
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(("variant", "seat"), [("classic", 1), ("scopa-4", 2), ("cirulla", 0)])
def test_move_facts_are_those_of_the_learners_view(variant: str, seat: int) -> None:
    env = ScopaGymEnv(variant, RandomAgent(), seat, move_facts=True)
    assert env.observation_space["move_facts"].shape == (2160,)
    assert env.observation_space["move_facts"].dtype == np.float32
    rng = np.random.default_rng(seat)
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            facts = obs["move_facts"]
            expected = np.array(legal_move_facts(view(env.position, seat)), dtype=np.float32)
            assert np.array_equal(facts, expected)
            assert present_slots(facts) == slots_of_legal_ids(env.position)
            assert np.array_equal(env.action_masks(), obs["action_mask"] == 1)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, done, _, _ = env.step(action)
        assert env.observation_space.contains(obs)
        assert not obs["move_facts"].any()
        assert not env.action_masks().any()


def test_move_facts_are_off_by_default() -> None:
    env = ScopaGymEnv("classic")
    obs, _ = env.reset(seed=4)
    assert sorted(obs) == ["action_mask", "observation"]
    assert "move_facts" not in env.observation_space.spaces
    assert env.move_facts is False


def test_a_move_facts_option_that_is_not_a_bool_is_refused() -> None:
    with pytest.raises(TypeError, match="move_facts must be a bool, not str"):
        ScopaGymEnv("classic", move_facts="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="move_facts must be a bool, not int"):
        gymnasium.make(ENV_ID, move_facts=1)
