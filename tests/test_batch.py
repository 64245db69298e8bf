"""The batch engine on JAX plays exactly as the scalar engine, and refuses bad input.

The lockstep tests deal the same deck orders to both engines, play the same random legal
actions, and compare at every step the player to move, the action mask and the
observation, and at the end the points. `SCOPA_BATCH_HANDS=100000 python -m pytest
tests/test_batch.py -k lockstep` plays more hands per preset (the default is 2,000 for
`classic`, `tretre` and `scopone-scientifico`).
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from typing import Any

import attrs
import numpy as np
import pytest

from scopa import Deck, GameState, find_variant, view
from scopa.cards import DECK
from scopa.encoding import action_mask, legal_actions, move_of_action, observation
from scopa.errors import IllegalMoveError, InvalidArgumentError, InvalidStateError, RulesError
from scopa.rules import Rules
from scopa.scoring import (
    AssoDueTre,
    Captures,
    CardPoints,
    Carte,
    Denari,
    Grande,
    MissingSuit,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    ReBello,
    Scope,
    ScoringRules,
    Settebello,
)
from scopa.cards import Card
from tests.helpers import ROOT

jax = pytest.importorskip("jax", reason="needs JAX, from the optional extra jax")
jnp = jax.numpy

from scopa.batch import Env, State  # noqa: E402
from scopa.batch._env import _KNOBS  # noqa: E402

HANDS = int(os.environ.get("SCOPA_BATCH_HANDS", "2000"))
CHUNK = 2000  # hands played together (one compiled shape)


def _dealt(rules: Rules, order: np.ndarray, dealer: int) -> GameState | None:  # type: ignore[type-arg]
    """The scalar engine's hand of a deck order, or None when it refuses the deal."""
    try:
        return GameState.new(rules, deck=Deck([DECK[i] for i in order]), dealer=dealer)
    except InvalidStateError:
        return None


def _array(values: Any) -> np.ndarray:  # type: ignore[type-arg]
    return np.asarray(values)


def _side_points(game: GameState) -> list[float]:
    points = game.hand_score().points
    sides = game.rules.number_of_sides
    return [float(points[player % sides]) for player in range(game.rules.players)]


def _check_misdeal(states: State, i: int) -> None:
    assert bool(states.misdeal[i]) and bool(states.terminated[i])
    assert int(states.current_player[i]) == -1
    assert not _array(states.legal_action_mask[i]).any()
    assert not _array(states.rewards[i]).any() and not _array(states.observation[i]).any()


def lockstep(rules: Rules, hands: int, seed: int) -> dict[str, int]:
    """Play `hands` random hands on both engines in lockstep; fail at the first difference.

    Returns how many hands were played and how many deals were annulled.
    """
    env = Env(rules)
    deal = jax.jit(jax.vmap(env.deal))
    step = jax.jit(jax.vmap(env.step))
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    played = annulled = 0
    for start in range(0, hands, CHUNK):
        size = min(CHUNK, hands - start)
        orders = np.argsort(rng.random((size, 40)), axis=1).astype(np.int32)
        dealers = rng.integers(0, rules.players, size, dtype=np.int32)
        states = deal(orders, dealers)
        games = [_dealt(rules, orders[i], int(dealers[i])) for i in range(size)]
        for i, game in enumerate(games):
            if game is None:
                _check_misdeal(states, i)
                annulled += 1
            else:
                assert not bool(states.misdeal[i])
        while any(game is not None and not game.is_terminal for game in games):
            to_move = _array(states.current_player)
            masks = _array(states.legal_action_mask)
            seen_all = _array(states.observation)
            assert not _array(states.rewards).any()
            actions = np.zeros(size, np.int32)
            for i, game in enumerate(games):
                if game is None or game.is_terminal:
                    continue
                seen = view(game)
                where = f"hand {start + i}, position {game.to_text()!r}"
                assert to_move[i] == game.current_player, where
                expected = np.frombuffer(action_mask(seen), np.int8).astype(bool)
                assert np.array_equal(masks[i], expected), where
                assert np.array_equal(seen_all[i], np.array(observation(seen), np.float32)), where
                actions[i] = pick.choice(legal_actions(seen))
            states = step(states, actions)
            for i, game in enumerate(games):
                if game is None or game.is_terminal:
                    continue
                assert not bool(states.illegal_action[i])
                game = games[i] = game.apply(move_of_action(game, int(actions[i])))
                if game.is_terminal:
                    where = f"hand {start + i}, position {game.to_text()!r}"
                    assert bool(states.terminated[i]) and int(states.current_player[i]) == -1
                    assert not _array(states.legal_action_mask[i]).any()
                    assert _array(states.rewards[i]).tolist() == _side_points(game), where
                    last = np.array(observation(view(game, game.dealer)), np.float32)
                    assert np.array_equal(_array(states.observation[i]), last), where
                    states = _without_rewards(states, i)
                    played += 1
    return {"played": played, "annulled": annulled}


def _without_rewards(states: State, i: int) -> State:
    """The batch with hand `i`'s rewards set to 0, so that later steps can check for 0."""
    return dataclasses.replace(states, rewards=states.rewards.at[i].set(0.0))


@pytest.mark.parametrize("name", ["classic", "tretre", "scopone-scientifico"])
def test_lockstep_with_the_scalar_engine(name: str) -> None:
    result = lockstep(find_variant(name), HANDS, seed=sum(map(ord, name)))
    assert result["played"] + result["annulled"] == HANDS
    assert result["played"] > 0.9 * HANDS
