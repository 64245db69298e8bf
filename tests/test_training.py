"""The training example on the batch engine: reproducible, learning, and played the same
by `PolicyAgent` as it is trained."""

from __future__ import annotations

import argparse
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

jax = pytest.importorskip("jax", reason='needs jax, from the extra "jax"')

import numpy as np  # noqa: E402  (installed with JAX)

from scopa import DECK, Deck, GameState, find_variant, view  # noqa: E402
from scopa.encoding import action_of  # noqa: E402
from scopa.policy import PolicyAgent, save_parameters  # noqa: E402
from tests.helpers import ROOT  # noqa: E402


@pytest.fixture(scope="module")
def example() -> ModuleType:
    path = ROOT / "docs" / "examples" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def settings(**changed: object) -> argparse.Namespace:
    base = {
        "seed": 3,
        "iterations": 3,
        "every": 3,
        "hands": 128,
        "rate": 3e-3,
        "width": 16,
        "measure_hands": 512,
    }
    return argparse.Namespace(**{**base, **changed})


def test_training_is_reproducible_and_learns(example: ModuleType, tmp_path: Path) -> None:
    first, curve = example.train(settings())
    second, _ = example.train(settings())
    assert sorted(first) == sorted(second)
    assert all(np.array_equal(first[name], second[name]) for name in first)
    # the untrained network loses to greedy play; three small iterations gain a point
    (start, *_), (end, *_) = curve[0][2:], curve[-1][2:]
    assert end > start + 1.0, curve
    path = tmp_path / "policy.npz"
    save_parameters(path, {name: np.asarray(array) for name, array in first.items()}, example.RULES)
    agent = PolicyAgent.load(path)
    state = GameState.new(example.RULES, seed=4)
    assert agent.choose(view(state), random.Random(0)) in state.legal_moves()


def test_policy_agent_scores_as_the_training_network(example: ModuleType) -> None:
    params = example.init_params(jax.random.key(5), 8)
    arrays = {name: np.asarray(array) for name, array in params.items()}
    layers = ("summary", "summary_bias", "hidden", "hidden_bias", "score", "score_bias")
    agent = PolicyAgent({name: arrays[name] for name in layers})
    rules = find_variant("classic")
    env = example.ENV
    rng = np.random.default_rng(2)
    for _ in range(5):
        order = rng.permutation(40)
        state = env.deal(order, 0)
        game = GameState.new(rules, deck=Deck([DECK[i] for i in order]), dealer=0)
        for _ in range(int(rng.integers(0, 20))):
            move = game.legal_moves()[-1]
            state = env.step(state, action_of(game, move))
            game = game.apply(move)
        ids, facts = env.move_facts(state)
        trained = np.asarray(example.scores(params, state.observation, facts))
        seen = view(game)
        played = dict(zip(seen.legal_moves(), agent.scores(seen), strict=True))
        for slot, action in enumerate(np.asarray(ids)):
            if action >= 0:
                move = next(m for m in played if action_of(seen, m) == action)
                assert played[move] == pytest.approx(float(trained[slot]), rel=1e-4, abs=1e-5)
