"""Adapter benchmark: random hands per second through the engine, the encoding and each adapter.

    python benchmarks/adapters.py [--seconds S] [--rounds R] [--variant NAME]

Every loop plays complete hands with uniformly random legal choices:

- `native`: `GameState.new`, then `legal_moves()` and `apply()`;
- `encoding`: the same, with `legal_actions`, `action_mask`, the mover's `observation` and
  `move_of_action` at each step, as a learner would;
- `counts`: the same with `observation_counts` (the bytes an array is made from) instead of
  `observation` (a list of floats);
- `openspiel`: `new_initial_state`, the chance deal, then `legal_actions`, the mover's
  `observation_tensor` and `apply_action`;
- `pettingzoo`: `reset`, then `agent_iter`, `last()` and a masked random `step`;
- `gymnasium`: `reset`, then masked random `step`s against a `RandomAgent`, counting the
  hands in the learner's seat;
- `openspiel floor`, `pettingzoo floor`: the OpenSpiel and PettingZoo loops over a game
  that does nothing but has the shape of a hand (`floors.py`); `openspiel floor, no
  chance` the same game with its hands dealt before the first play (no chance node).

An adapter's loop costs at least its floor's loop plus a native hand (the engine's own
moves), so for each floor the column `adapter at most` shows 1 / (1 / floor + 1): the
most an adapter of that framework can reach, whatever the rest of the library costs.

Each environment is made once per variant and reset for every hand, as a learner does.

The loops run in alternating rounds; each figure is the median over the rounds of the
loop's hands per second divided by the native loop's in the same round. A framework that
is not installed is left out.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import floors  # the modules beside this one
from playout import BUILD, random_hand

import scopa
from scopa.encoding import (
    action_mask,
    legal_actions,
    move_of_action,
    observation,
    observation_counts,
)

Loop = Callable[[scopa.Rules, int], None]
"""Plays one random hand of the rules from a seed."""


def native(rules: scopa.Rules, seed: int) -> None:
    random_hand(rules, seed, random.Random(seed).random)


def encoded(observe: Callable[[scopa.PlayerView], object]) -> Loop:
    def loop(rules: scopa.Rules, seed: int) -> None:
        rng = random.Random(seed)
        state = scopa.GameState.new(rules, seed=seed)
        while not state.is_terminal:
            player = state.current_player
            assert player is not None
            actions = legal_actions(state)
            action_mask(state)
            observe(scopa.view(state, player))
            action = actions[int(rng.random() * len(actions))]
            state = state.apply(move_of_action(state, action))

    return loop


def openspiel_loop(load: Callable[[scopa.Rules], Any]) -> Loop:
    """The OpenSpiel loop over the games `load` gives (one per variant)."""
    games: dict[str, Any] = {}

    def loop(rules: scopa.Rules, seed: int) -> None:
        game = games.get(rules.name)
        if game is None:
            game = games[rules.name] = load(rules)
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards = [card for card, _ in state.chance_outcomes()]
                state.apply_action(cards[int(rng.random() * len(cards))])
                continue
            state.observation_tensor(state.current_player())
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])

    return loop


def scopa_game(rules: scopa.Rules) -> Any:
    """The OpenSpiel game of the adapter for these rules."""
    import pyspiel  # type: ignore[import-not-found]

    import scopa.adapters.openspiel  # noqa: F401  (registers the game)

    return pyspiel.load_game("python_scopa", {"variant": rules.name})


def pettingzoo_loop(make: Callable[[scopa.Rules], Any]) -> Loop:
    """The PettingZoo loop over the environments `make` gives (one per variant)."""
    import numpy as np

    envs: dict[str, Any] = {}

    def loop(rules: scopa.Rules, seed: int) -> None:
        rng = random.Random(seed)
        env = envs.get(rules.name)
        if env is None:
            env = envs[rules.name] = make(rules)
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            actions = np.flatnonzero(obs["action_mask"])
            env.step(int(actions[int(rng.random() * len(actions))]))

    return loop


def scopa_env(rules: scopa.Rules) -> Any:
    """The PettingZoo environment of the adapter for these rules."""
    from scopa.adapters.pettingzoo import ScopaEnv

    return ScopaEnv(rules)


def gymnasium_loop() -> Loop:
    import numpy as np

    from scopa.adapters.gymnasium import ScopaGymEnv
    from scopa.agents import RandomAgent

    envs: dict[str, ScopaGymEnv] = {}

    def loop(rules: scopa.Rules, seed: int) -> None:
        rng = random.Random(seed)
        env = envs.get(rules.name)
        if env is None:
            env = envs[rules.name] = ScopaGymEnv(rules, RandomAgent())
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            actions = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(actions[int(rng.random() * len(actions))]))

    return loop


def hands_per_second(loop: Loop, rules: scopa.Rules, seconds: float, seed: int) -> float:
    hands = 0
    start = time.perf_counter()
    while True:
        for _ in range(5):
            loop(rules, seed * 1_000_003 + hands)
            hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per loop and round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--variant", default="classic", help="preset to play")
    args = parser.parse_args()
    rules = scopa.find_variant(args.variant)
    loops: dict[str, Loop] = {
        "native": native,
        "encoding": encoded(observation),
        "counts": encoded(observation_counts),
    }
    if installed("pyspiel"):
        loops["openspiel"] = openspiel_loop(scopa_game)
        loops["openspiel floor"] = openspiel_loop(floors.openspiel_game)
        loops["openspiel floor, no chance"] = openspiel_loop(
            lambda rules: floors.openspiel_game(rules, chance=False)
        )
    if installed("pettingzoo"):
        loops["pettingzoo"] = pettingzoo_loop(scopa_env)
        loops["pettingzoo floor"] = pettingzoo_loop(floors.pettingzoo_env)
    if installed("gymnasium"):
        loops["gymnasium"] = gymnasium_loop()
    for loop in loops.values():
        hands_per_second(loop, rules, 0.1, 0)  # warm the caches
    rates: dict[str, list[float]] = {name: [] for name in loops}
    ratios: dict[str, list[float]] = {name: [] for name in loops}
    for round_ in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(hands_per_second(loop, rules, args.seconds, round_ + 1))
        for name in loops:
            ratios[name].append(rates[name][-1] / rates["native"][-1])

    print(f"scopa {scopa.__version__} ({BUILD}), variant {args.variant}, {args.rounds} rounds")
    print(f"{'loop':<28}{'hands/s':>10}{'ratio':>8}{'adapter at most':>17}")
    for name in loops:
        rate = statistics.median(rates[name])
        ratio = statistics.median(ratios[name])
        most = f"{1 / (1 / ratio + 1):>17.2f}" if "floor" in name else ""
        print(f"{name:<28}{rate:>10,.0f}{ratio:>8.2f}{most}")


if __name__ == "__main__":
    main()
