"""Train MaskablePPO on classic Scopa against a random opponent, and draw its learning curve.

    python -m pip install -e ".[gymnasium]" --group train
    python docs/examples/maskable_ppo.py [--minutes 10] [--out learning-curve.svg]

The learner plays one seat of a hand of classic Scopa (`ScopaGymEnv`, compact action
encoding: 2,560 ids), against `RandomAgent` in the other seat; the seat changes from
episode to episode. The policy sees the observation vector and acts only among the legal
ids (the mask). Every `--every` steps the policy, playing its most likely legal action, is
measured in a tournament of paired deals against `RandomAgent`; at the end also against
`GreedyAgent`. The margins (points per hand, the policy's side minus the other's) and their
95% intervals are printed and drawn.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import gymnasium
import matplotlib
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import scopa
from scopa.adapters.gymnasium import ScopaGymEnv
from scopa.agents import GreedyAgent, RandomAgent
from scopa.encoding import COMPACT, ActionEncoding, action_mask, move_of_action, observation
from scopa.tournament import tournament

matplotlib.use("Agg")
from matplotlib import pyplot

RULES = scopa.find_variant("classic")


class EitherSeat(gymnasium.Wrapper[Any, Any, Any, Any]):
    """The learner's seat drawn anew at each reset; observations without the mask."""

    def __init__(self, seed: int, encoding: ActionEncoding = COMPACT) -> None:
        self.seats = [
            ScopaGymEnv(RULES, RandomAgent(), seat, encoding=encoding) for seat in range(2)
        ]
        super().__init__(self.seats[0])
        self.observation_space = self.seats[0].observation_space["observation"]
        self.rng = random.Random(seed)
        self.mask = np.zeros(self.action_space.n, dtype=bool)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """A new hand, in a seat drawn at random."""
        self.env = self.seats[self.rng.randrange(2)]
        obs, info = self.env.reset(**kwargs)
        self.mask = obs["action_mask"].astype(bool)
        return obs["observation"], info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner's play, then the opponent's up to the learner's next turn."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.mask = obs["action_mask"].astype(bool)
        return obs["observation"], float(reward), terminated, truncated, info


def legal_ids(env: EitherSeat) -> np.ndarray:
    """The mask of the legal ids in the learner's position."""
    return env.mask


class PolicyAgent:
    """A `scopa` agent that plays the policy's most likely legal action from its view."""

    def __init__(self, model: MaskablePPO, encoding: ActionEncoding) -> None:
        self.model = model
        self.encoding = encoding

    def choose(self, seen: scopa.PlayerView, rng: random.Random) -> scopa.Move:
        """The move of the policy's most likely legal action."""
        obs = np.asarray(observation(seen), dtype=np.float32)
        mask = np.frombuffer(action_mask(seen, self.encoding), dtype=np.int8).astype(bool)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return move_of_action(seen, int(action), self.encoding)


def measure(
    model: MaskablePPO, encoding: ActionEncoding, opponent: Any, deals: int
) -> tuple[float, float, float]:
    """The policy's margin per hand against `opponent`, with its 95% interval."""
    agents = [PolicyAgent(model, encoding), opponent]
    result = tournament(RULES, agents, deals=deals, seed=12345)
    low, high = result.agents[0].margin_interval
    return result.agents[0].margin_per_hand, low, high


def main() -> None:
    """Train, measuring as it goes; then measure against greedy and draw the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--every", type=int, default=10_240, help="steps between measures")
    parser.add_argument("--deals", type=int, default=200, help="paired deals per measure")
    parser.add_argument("--out", default="learning-curve.svg", help="the picture")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--n-steps", type=int, default=2048, help="steps per update")
    parser.add_argument("--encoding", choices=["compact", "flat"], default="compact")
    args = parser.parse_args()
    torch.set_num_threads(1)  # one thread: the environment and the updates take turns
    encoding = ActionEncoding(args.encoding)
    env = ActionMasker(EitherSeat(args.seed, encoding), legal_ids)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=256,
        learning_rate=args.learning_rate,
        ent_coef=0.01,
        gamma=1.0,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    curve: list[tuple[int, float, float, float]] = [
        (0, *measure(model, encoding, RandomAgent(), args.deals))
    ]
    print(f"{0:>8} steps   0.0 min   against random {curve[-1][1]:+.3f}", flush=True)
    start = time.perf_counter()
    steps = 0
    while time.perf_counter() - start < args.minutes * 60:
        model.learn(args.every, reset_num_timesteps=False)
        steps += args.every
        minutes = (time.perf_counter() - start) / 60
        curve.append((steps, *measure(model, encoding, RandomAgent(), args.deals)))
        margin, low, high = curve[-1][1:]
        print(
            f"{steps:>8} steps {minutes:5.1f} min   against random {margin:+.3f} "
            f"({low:+.3f}, {high:+.3f})",
            flush=True,
        )
    greedy = measure(model, encoding, GreedyAgent(), args.deals)
    print(f"at the end, against greedy {greedy[0]:+.3f} ({greedy[1]:+.3f}, {greedy[2]:+.3f})")
    figure, axes = pyplot.subplots(figsize=(7, 4))
    xs = [point[0] for point in curve]
    axes.plot(xs, [point[1] for point in curve], marker="o", label="against RandomAgent")
    axes.fill_between(xs, [p[2] for p in curve], [p[3] for p in curve], alpha=0.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    at_end = "against GreedyAgent, at the end"
    axes.axhline(greedy[0], color="tab:red", linestyle="--", label=at_end)
    axes.set_xlabel("training steps (the learner's plays)")
    axes.set_ylabel("margin per hand (95% interval)")
    axes.set_title("MaskablePPO on classic Scopa, compact encoding")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out)
    print(f"learning curve written to {args.out}")


if __name__ == "__main__":
    main()
