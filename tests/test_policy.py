"""The trained policy as an agent: parameter files, choices, the shipped policy."""

from __future__ import annotations

import io
import pickle
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='needs numpy, from the extra "policy"')

from scopa import GameState, InvalidArgumentError, Move, find_variant, variant_names, view  # noqa: E402
from scopa.agents import Agent, GreedyAgent, play_hand  # noqa: E402
from scopa.encoding import MOVE_FACTS, observation_size  # noqa: E402
from scopa.policy import FORMAT, PolicyAgent, load_parameters, save_parameters  # noqa: E402
from scopa.tournament import tournament  # noqa: E402
from tests.helpers import position  # noqa: E402

CLASSIC = find_variant("classic")
WIDTH = 4


def hand_made(observations: int = 172, fact: int = 1, sign: float = 1.0) -> dict[str, Any]:
    """A network whose score is `sign * tanh(facts[fact])`: one hidden unit reads one fact."""
    hidden = np.zeros((MOVE_FACTS + WIDTH, WIDTH), np.float32)
    hidden[fact, 0] = 1.0
    score = np.zeros(WIDTH, np.float32)
    score[0] = sign
    return {
        "summary": np.zeros((observations, WIDTH), np.float32),
        "summary_bias": np.zeros(WIDTH, np.float32),
        "hidden": hidden,
        "hidden_bias": np.zeros(WIDTH, np.float32),
        "score": score,
        "score_bias": np.zeros((), np.float32),
    }


def lead() -> GameState:
    """Player 0 holds 7D 3C 10B over 2B 5D 9C: only 7D can capture (2B 5D)."""
    return position(CLASSIC, ["7D 3C 10B", "4S 5S 6S"], "2B 5D 9C", stock="9D 9S 9B 1D 1C 1S")


def test_a_hand_made_network_plays_by_its_fact() -> None:
    seen = view(lead(), 0)
    # Scoring "it captures" (fact 1): the capture 7D x 2B 5D scores tanh(1), the lays 0.
    taker = PolicyAgent(hand_made(fact=1))
    assert taker.choose(seen, random.Random(0)) == Move.parse("7D x 2B 5D")
    scores = taker.scores(seen)
    moves = seen.legal_moves()
    assert scores[moves.index(Move.parse("7D x 2B 5D"))] == pytest.approx(np.tanh(1.0))
    assert scores[moves.index(Move.parse("3C"))] == 0.0
    # Scoring minus the played card's value (fact 10): the lowest card, 3C, is laid.
    low = PolicyAgent(hand_made(fact=10, sign=-1.0))
    assert low.choose(seen, random.Random(0)) == Move.parse("3C")


def test_the_file_round_trip(tmp_path: Path) -> None:
    arrays = hand_made()
    arrays["value"] = np.ones(WIDTH, np.float32)  # not the policy's: left out
    path = tmp_path / "policy.npz"
    save_parameters(path, arrays, CLASSIC)
    loaded = load_parameters(path)
    assert sorted(loaded) == sorted(hand_made())
    assert all(np.array_equal(loaded[name], array) for name, array in hand_made().items())
    with np.load(path) as stored:
        assert int(stored["format"]) == FORMAT
        assert str(stored["variant"]) == "classic"
    agent = PolicyAgent.load(path)
    assert agent.choose(view(lead(), 0), random.Random(0)) == Move.parse("7D x 2B 5D")


def _saved(arrays: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, format=np.array(FORMAT), **arrays)
    return buffer.getvalue()


def test_bad_and_truncated_files_are_refused(tmp_path: Path) -> None:
    good = _saved(hand_made())
    path = tmp_path / "policy.npz"
    path.write_bytes(good[: len(good) // 2])
    with pytest.raises(InvalidArgumentError, match="not a policy file"):
        PolicyAgent.load(path)
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(InvalidArgumentError, match="not a policy file"):
        load_parameters(path)
    with pytest.raises(FileNotFoundError):
        load_parameters(tmp_path / "missing.npz")
    missing = hand_made()
    del missing["hidden"]
    with pytest.raises(InvalidArgumentError, match="lacks the array 'hidden'"):
        load_parameters(io.BytesIO(_saved(missing)))
    wrong = hand_made()
    wrong["score"] = np.zeros(WIDTH + 1, np.float32)
    with pytest.raises(InvalidArgumentError, match="'score' must be floats of shape"):
        load_parameters(io.BytesIO(_saved(wrong)))
    broken = hand_made()
    broken["hidden_bias"][0] = np.nan
    with pytest.raises(InvalidArgumentError, match="not finite"):
        load_parameters(io.BytesIO(_saved(broken)))
    buffer = io.BytesIO()
    np.savez(buffer, format=np.array(FORMAT + 1), **hand_made())
    buffer.seek(0)
    with pytest.raises(InvalidArgumentError, match="format 1"):
        load_parameters(buffer)
    with pytest.raises(InvalidArgumentError, match="lacks the array"):
        save_parameters(tmp_path / "x.npz", {"summary": np.zeros((172, 4))}, CLASSIC)


def test_rules_with_another_observation_are_refused() -> None:
    agent = PolicyAgent(hand_made())
    scopone = find_variant("scopone")
    assert observation_size(scopone) != 172
    with pytest.raises(InvalidArgumentError, match="2 players without declarations"):
        agent.check_rules(scopone)
    with pytest.raises(InvalidArgumentError, match="reads observations of 172"):
        agent.choose(view(GameState.new(scopone, seed=1)), random.Random(0))
    with pytest.raises(TypeError, match="PlayerView"):
        agent.choose(GameState.new(CLASSIC, seed=1), random.Random(0))  # type: ignore[arg-type]


def _claimed() -> list[str]:
    return [
        name
        for name in variant_names()
        if observation_size(find_variant(name)) == observation_size(CLASSIC)
    ]


@pytest.mark.parametrize("name", _claimed())
def test_the_shipped_policy_plays_legal_moves(name: str) -> None:
    rules = find_variant(name)
    agent = PolicyAgent()
    agent.check_rules(rules)
    for seed in range(3):
        state = GameState.new(rules, seed=seed)
        while not state.is_terminal:
            move = agent.choose(view(state), random.Random(0))
            assert move in state.legal_moves()
            state = state.apply(move)


def test_the_shipped_policy_is_small_and_beats_greedy_in_a_short_tournament() -> None:
    from importlib import resources

    data = resources.files("scopa").joinpath("data", "classic-policy.npz")
    assert len(data.read_bytes()) < 1_000_000
    # Not a measure of strength (the bots guide has that): the agent plays whole
    # hands in a tournament, and a pickled copy plays the same moves.
    result = tournament(CLASSIC, [PolicyAgent(), GreedyAgent()], deals=20, seed=1)
    assert result.agents[0].hands == 40
    copy = pickle.loads(pickle.dumps(PolicyAgent()))
    state = GameState.new(CLASSIC, seed=5)
    first = play_hand(state, {0: PolicyAgent(), 1: GreedyAgent()}, random.Random(0))
    second = play_hand(state, {0: copy, 1: GreedyAgent()}, random.Random(0))
    assert first.history == second.history


def _command(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scopa", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_command_plays_the_policy() -> None:
    result = _command("simulate", "--agents", "policy,greedy", "--deals", "4", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "policy" in result.stdout
    refused = _command(
        "simulate", "--variant", "scopone", "--agents", "policy,greedy", "--deals", "2"
    )
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert "agent policy: this policy reads observations of 172" in refused.stderr
    # With this seed you deal: the policy leads, then the input ends.
    played = _command("play", "--opponent", "policy", "--seed", "7")
    assert "Traceback" not in played.stderr
    assert "the computer (policy) plays player 1" in played.stdout
    assert "Player 1 plays" in played.stdout


def test_on_a_process_pool_the_policy_plays_the_same() -> None:
    agents: list[Agent] = [PolicyAgent(), GreedyAgent()]
    alone = tournament(CLASSIC, agents, deals=6, seed=8, chunk_size=2)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = tournament(CLASSIC, agents, deals=6, seed=8, chunk_size=2, executor=pool)
    assert pooled == alone


@pytest.mark.filterwarnings("ignore")
def test_on_a_dask_cluster_the_policy_plays_the_same() -> None:
    distributed = pytest.importorskip("distributed", reason='needs dask, from the extra "dask"')
    agents: list[Agent] = [PolicyAgent(), GreedyAgent()]
    alone = tournament(CLASSIC, agents, deals=4, seed=9, chunk_size=2)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = tournament(
            CLASSIC, agents, deals=4, seed=9, chunk_size=2, executor=client.get_executor()
        )
    assert remote == alone
