"""Train a stock MaskablePPO on classic Scopa with move facts, and draw its learning curve.

    python -m pip install -e ".[gymnasium]" --group train
    python docs/examples/maskable_ppo.py [--minutes 10] [--out learning-curve.svg]

The learner plays one seat of a hand of classic Scopa in the registered Gymnasium
environment, `gymnasium.make("scopa/Scopa-v0", move_facts=True)`, against its default
opponent, `GreedyAgent`; half the environments seat it first to play, half as the dealer.
Its observations add to the view the facts of each legal move (`"move_facts"`: what it
wins, whether it sweeps, what it leaves), and the environment's `action_masks()` gives
MaskablePPO the legal ids. The policy is MaskablePPO's own `"MultiInputPolicy"`, with its
default network.

Training stops after `--minutes` of the process's CPU time spent learning (one PyTorch
thread). Every `--every` steps the policy, playing its most likely legal action, is
measured in a tournament of paired deals against `RandomAgent` (not counted in the
training time); at the end, on more deals, against `RandomAgent` and `GreedyAgent`. The
margins (points per hand, the policy's side minus the other's) and their 95% intervals are
printed and drawn.
"""

from __future__ import annotations

import argparse
import functools
import random
import time

import gymnasium
import matplotlib
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import scopa
from scopa.adapters.gymnasium import ENV_ID
from scopa.agents import Agent, GreedyAgent, RandomAgent
from scopa.encoding import action_mask, legal_move_facts, move_of_action, observation
from scopa.tournament import tournament

matplotlib.use("Agg")
from matplotlib import pyplot

RULES = scopa.find_variant("classic")


def make_env(seat: int) -> gymnasium.Env[dict[str, np.ndarray], np.int64]:
    """The registered environment, with move facts, the learner in `seat`."""
    return gymnasium.make(ENV_ID, variant=RULES, seat=seat, move_facts=True)


class PolicyAgent:
    """A `scopa` agent that plays the policy's most likely legal action from its view."""

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def choose(self, seen: scopa.PlayerView, rng: random.Random) -> scopa.Move:
        """The move of the policy's most likely legal action."""
        mask = np.frombuffer(action_mask(seen), dtype=np.int8)
        observed: dict[str, np.ndarray] = {
            "observation": np.array(observation(seen), dtype=np.float32),
            "action_mask": mask,
            "move_facts": np.array(legal_move_facts(seen), dtype=np.float32),
        }
        action, _ = self.model.predict(observed, action_masks=mask != 0, deterministic=True)
        return move_of_action(seen, int(action))


class Deadline(BaseCallback):
    """Stops the learning once the process has spent `seconds` of CPU time in it."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.spent = 0.0
        self.since = 0.0

    def used(self) -> float:
        """The CPU seconds spent learning so far (within a `learn` call, up to now)."""
        return self.spent + time.process_time() - self.since

    def _on_training_start(self) -> None:
        self.since = time.process_time()

    def _on_step(self) -> bool:
        return self.used() < self.seconds

    def _on_training_end(self) -> None:
        self.spent += time.process_time() - self.since


def measure(agent: Agent, opponent: Agent, deals: int) -> tuple[float, float, float]:
    """The agent's margin per hand against `opponent` on paired deals, with its 95% interval."""
    result = tournament(RULES, [agent, opponent], deals=deals, seed=12345)
    low, high = result.agents[0].margin_interval
    return result.agents[0].margin_per_hand, low, high


def shown(measured: tuple[float, float, float]) -> str:
    """A margin and its interval, as text."""
    margin, low, high = measured
    return f"{margin:+.3f} ({low:+.3f}, {high:+.3f})"


Curve = list[tuple[int, float, float, float, float]]
"""The points of a curve: steps, CPU minutes of training, margin and its interval."""


def train(args: argparse.Namespace) -> tuple[MaskablePPO, Curve]:
    """Train for `args.minutes` of CPU time, measuring against random as it goes."""
    env = DummyVecEnv([functools.partial(make_env, n % 2) for n in range(args.envs)])
    deadline = Deadline(args.minutes * 60)
    rate: float = args.learning_rate

    def learning_rate(_: float) -> float:  # falls linearly to 0 over the CPU budget
        return rate * max(0.0, 1.0 - deadline.used() / deadline.seconds)

    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        learning_rate=learning_rate,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        gamma=1.0,
        ent_coef=args.ent_coef,
        seed=args.seed,
    )
    curve: Curve = []
    while True:
        point = measure(PolicyAgent(model), RandomAgent(), args.deals)
        curve.append((model.num_timesteps, deadline.spent / 60, *point))
        print(
            f"{model.num_timesteps:>8} steps {deadline.spent / 60:5.2f} CPU min",
            shown(point),
            flush=True,
        )
        if deadline.spent >= deadline.seconds:
            return model, curve
        model.learn(args.every, callback=deadline, reset_num_timesteps=False)


def draw(
    curve: Curve,
    greedy: tuple[float, float, float],
    reference: tuple[float, float, float],
    out: str,
) -> None:
    """Draw the curve against random, and the final margin against greedy, to `out`."""
    pyplot.rcParams["svg.hashsalt"] = "scopa"  # the same picture for the same figures
    figure, axes = pyplot.subplots(figsize=(7, 5), layout="constrained")
    minutes = [point[1] for point in curve]
    axes.plot(minutes, [p[2] for p in curve], marker="o", label="policy against RandomAgent")
    axes.fill_between(minutes, [p[3] for p in curve], [p[4] for p in curve], alpha=0.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    label = "GreedyAgent against RandomAgent"
    axes.axhline(reference[0], color="tab:green", linestyle=":", label=label)
    label = "policy against GreedyAgent, at the end"
    axes.axhline(greedy[0], color="tab:red", linestyle="--", label=label)
    axes.set_xlabel("CPU minutes of training (one thread)")
    axes.set_ylabel("margin per hand (95% interval)")
    axes.set_title("MaskablePPO, stock network, on classic Scopa with move facts")
    figure.legend(loc="outside lower center", ncols=2)
    figure.savefig(out, metadata={"Date": None})


def main() -> None:
    """Train, measuring as it goes; then measure against random and greedy, and draw."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="CPU minutes of training")
    parser.add_argument("--every", type=int, default=16_384, help="steps between measures")
    parser.add_argument("--deals", type=int, default=100, help="paired deals per measure")
    parser.add_argument("--final-deals", type=int, default=1000, help="paired deals at the end")
    parser.add_argument("--out", default="learning-curve.svg", help="the picture")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="environments played in turn")
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--n-steps", type=int, default=256, help="steps per env and update")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--ent-coef", type=float, default=0.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.process_time()
    model, curve = train(args)
    final = measure(PolicyAgent(model), RandomAgent(), args.final_deals)
    greedy = measure(PolicyAgent(model), GreedyAgent(), args.final_deals)
    reference = measure(GreedyAgent(), RandomAgent(), args.final_deals)
    print(f"{args.final_deals} paired deals: against random", shown(final))
    print(f"{args.final_deals} paired deals: against greedy", shown(greedy))
    print(f"{args.final_deals} paired deals: greedy against random", shown(reference))
    total = (time.process_time() - start) / 60
    print(f"CPU time: {curve[-1][1]:.2f} min training, {total:.2f} min in all")
    draw(curve, greedy, reference, args.out)
    print(f"learning curve written to {args.out}")


if __name__ == "__main__":
    main()
