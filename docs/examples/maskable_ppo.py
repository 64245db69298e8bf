"""Train MaskablePPO on classic Scopa against a random opponent, and draw its learning curve.

    python -m pip install -e ".[gymnasium]" --group train
    python docs/examples/maskable_ppo.py [--minutes 10] [--out learning-curve.svg]

The learner plays one seat of a hand of classic Scopa (`ScopaGymEnv`, compact action
encoding: 2,560 ids) against `RandomAgent`; the seat is drawn anew for every hand. It sees
the observation vector followed by a few facts about each legal move (what the move wins,
whether it sweeps, what it leaves on the table), and acts only among the legal ids (the
mask). Its network scores every legal move with the same small weights, whichever the
card, so what it learns about one card holds for all of them.

Training stops after `--minutes` of wall time. Every `--every` steps the policy, playing
its most likely legal action, is measured in a tournament of paired deals against
`RandomAgent`; at the end, on more deals, against `RandomAgent` and `GreedyAgent`. The
margins (points per hand, the policy's side minus the other's) and their 95% intervals are
printed and drawn.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from typing import Any

import gymnasium
import matplotlib
import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.type_aliases import Schedule
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

import scopa
from scopa.adapters.gymnasium import ScopaGymEnv
from scopa.agents import Agent, GreedyAgent, RandomAgent
from scopa.encoding import (
    COMPACT,
    COMPACT_OPTIONS,
    action_count,
    action_mask,
    move_of_action,
    observation,
    observation_size,
)
from scopa.masks import RANK_MASKS, cards_of
from scopa.tournament import tournament

matplotlib.use("Agg")
from matplotlib import pyplot

RULES = scopa.find_variant("classic")
ACTIONS = action_count(RULES, COMPACT)
OBSERVATION = observation_size(RULES)
CHOICES = 3
"""The legal moves of each card that get facts (a card has more about once in 1,000)."""
SLOTS = 40 * CHOICES
"""The moves the policy scores: slot `CHOICES * i + k` is the `k`-th move of card `i`."""
SLOT_IDS = [COMPACT_OPTIONS * index + k for index in range(40) for k in range(CHOICES)]
"""The compact id of each slot."""
FACTS = 12
"""The facts about one move (see `move_facts`)."""
SETTEBELLO = scopa.Card.parse("7D").index
DENARI = (1 << 10) - 1
SEVENS = RANK_MASKS[7]


def move_facts(seen: scopa.PlayerView, move: scopa.Move) -> list[float]:
    """What a move does, as numbers from 0 to about 1, from the player's view.

    The facts: it is legal; it captures; the cards it wins (the played card included),
    the denari and the sevens among them; whether it wins the settebello; whether it
    sweeps the table (a scopa); whether it leaves a table of 10 or less, which one card
    might sweep; and the played card's value, and whether it is a denaro, a seven, the
    settebello.
    """
    card = move.card
    taken = move.captured_mask
    won = taken | 1 << card.index if taken else 0
    left = cards_of(seen.table_mask & ~taken | (0 if taken else 1 << card.index))
    return [
        1.0,
        float(taken != 0),
        won.bit_count() / 4,
        (won & DENARI).bit_count() / 2,
        (won & SEVENS).bit_count() / 2,
        float(won >> SETTEBELLO & 1),
        float(taken != 0 and taken == seen.table_mask),
        float(0 < sum(other.value for other in left) <= 10),
        card.value / 10,
        float(DENARI >> card.index & 1),
        float(card.value == 7),
        float(card.index == SETTEBELLO),
    ]


def features(seen: scopa.PlayerView) -> np.ndarray:
    """The observation vector, then the facts of every slot (zeros where no move is)."""
    facts = np.zeros((40, CHOICES, FACTS), dtype=np.float32)
    choices = [0] * 40
    for move in seen.legal_moves():
        index = move.card.index
        if choices[index] < CHOICES:
            facts[index, choices[index]] = move_facts(seen, move)
        choices[index] += 1
    return np.concatenate([np.asarray(observation(seen), dtype=np.float32), facts.ravel()])


def legal_ids(seen: scopa.PlayerView) -> np.ndarray:
    """The mask of the legal compact ids, as booleans."""
    return np.frombuffer(action_mask(seen, COMPACT), dtype=np.int8).astype(bool)


class LearnerSeat(gymnasium.Env[np.ndarray, np.int64]):
    """A hand against `opponent`, in a seat drawn anew at each reset, observed by `features`.

    Its `action_masks()` gives MaskablePPO the legal ids of the learner's position.
    """

    def __init__(self, opponent: Agent, seed: int) -> None:
        self.seats = [ScopaGymEnv(RULES, opponent, seat, encoding=COMPACT) for seat in range(2)]
        self.env = self.seats[0]
        size = OBSERVATION + SLOTS * FACTS
        self.observation_space = spaces.Box(0.0, np.inf, (size,), dtype=np.float32)
        self.action_space = spaces.Discrete(ACTIONS)
        self.rng = random.Random(seed)

    def seen(self) -> scopa.PlayerView:
        """The learner's view of the hand."""
        return scopa.view(self.env.position, self.env.seat)

    def action_masks(self) -> np.ndarray:
        """The legal ids of the learner's position."""
        return legal_ids(self.seen())

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new hand, in a seat drawn at random."""
        if seed is not None:
            self.rng.seed(seed)
        self.env = self.seats[self.rng.randrange(2)]
        _, info = self.env.reset(seed=self.rng.randrange(1 << 63))
        return features(self.seen()), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's play, then the opponent's up to the learner's next turn.

        The reward is 0 until the hand ends, then the learner's side's points minus the
        other side's.
        """
        _, reward, terminated, truncated, info = self.env.step(action)
        return features(self.seen()), float(reward), terminated, truncated, info


class MoveScorer(nn.Module):
    """The policy's and the value's networks, for `MovePolicy`.

    The policy gives each slot a score from the slot's facts and a summary of the
    position, with the same weights for every slot. The value is a plain network of the
    whole input.
    """

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        self.latent_dim_pi = SLOTS
        self.latent_dim_vf = width
        self.summary = nn.Sequential(nn.Linear(OBSERVATION, width), nn.Tanh())
        self.score = nn.Sequential(nn.Linear(FACTS + width, width), nn.Tanh(), nn.Linear(width, 1))
        self.value = nn.Sequential(
            nn.Linear(OBSERVATION + SLOTS * FACTS, width),
            nn.Tanh(),
            nn.Linear(width, width),
            nn.Tanh(),
        )

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The slots' scores and the value's latent."""
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        """The score of each slot."""
        facts = features[:, OBSERVATION:].reshape(-1, SLOTS, FACTS)
        summary = self.summary(features[:, :OBSERVATION])
        paired = torch.cat([facts, summary.unsqueeze(1).expand(-1, SLOTS, -1)], dim=2)
        scores: torch.Tensor = self.score(paired)
        return scores.squeeze(2)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        """The value's latent."""
        latent: torch.Tensor = self.value(features)
        return latent


class SlotsToIds(nn.Module):
    """The slots' scores as logits of the compact ids (0 for the ids past the slots)."""

    ids: torch.Tensor

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("ids", torch.tensor(SLOT_IDS))

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        """Logits over every compact id."""
        return scores.new_zeros(scores.shape[0], ACTIONS).index_copy(1, self.ids, scores)


class MovePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy, with `MoveScorer` for networks and `SlotsToIds` for the logits."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = MoveScorer()  # type: ignore[assignment]  # its methods suffice

    def _build(self, lr_schedule: Schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = SlotsToIds()
        self.optimizer = self.optimizer_class(  # as the base class builds it
            self.parameters(),
            lr=lr_schedule(1),  # type: ignore[call-arg]
            **self.optimizer_kwargs,
        )


class PolicyAgent:
    """A `scopa` agent that plays the policy's most likely legal action from its view."""

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def choose(self, seen: scopa.PlayerView, rng: random.Random) -> scopa.Move:
        """The move of the policy's most likely legal action."""
        mask = legal_ids(seen)
        action, _ = self.model.predict(features(seen), action_masks=mask, deterministic=True)
        return move_of_action(seen, int(action), COMPACT)


class Deadline(BaseCallback):
    """Stops the learning once `time.perf_counter()` reaches `at`."""

    def __init__(self, at: float) -> None:
        super().__init__()
        self.at = at

    def _on_step(self) -> bool:
        return time.perf_counter() < self.at


def measure(agent: Agent, opponent: Agent, deals: int) -> tuple[float, float, float]:
    """The agent's margin per hand against `opponent` on paired deals, with its 95% interval."""
    result = tournament(RULES, [agent, opponent], deals=deals, seed=12345)
    low, high = result.agents[0].margin_interval
    return result.agents[0].margin_per_hand, low, high


def train(args: argparse.Namespace) -> tuple[MaskablePPO, list[tuple[int, float, float, float]]]:
    """Train for `args.minutes`, measuring against random as it goes: the model and its curve.

    A point of the curve is the steps so far and the margin with its interval.
    """
    env = DummyVecEnv(
        [functools.partial(LearnerSeat, RandomAgent(), args.seed + n) for n in range(args.envs)]
    )
    model = MaskablePPO(
        MovePolicy,
        env,
        n_steps=args.n_steps,
        batch_size=512,
        n_epochs=4,
        learning_rate=args.learning_rate,
        ent_coef=0.01,
        gamma=1.0,
        seed=args.seed,
    )
    curve = [(0, *measure(PolicyAgent(model), RandomAgent(), args.deals))]
    print(f"{0:>8} steps {0:5.1f} min", shown(curve[-1][1:]), flush=True)
    start = time.perf_counter()
    deadline = start + args.minutes * 60
    while time.perf_counter() < deadline:
        model.learn(args.every, callback=Deadline(deadline), reset_num_timesteps=False)
        curve.append((model.num_timesteps, *measure(PolicyAgent(model), RandomAgent(), args.deals)))
        minutes = (time.perf_counter() - start) / 60
        print(
            f"{model.num_timesteps:>8} steps {minutes:5.1f} min", shown(curve[-1][1:]), flush=True
        )
    return model, curve


def shown(measured: tuple[float, float, float]) -> str:
    """A margin and its interval, as text."""
    margin, low, high = measured
    return f"{margin:+.3f} ({low:+.3f}, {high:+.3f})"


def draw(
    curve: list[tuple[int, float, float, float]],
    greedy: tuple[float, float, float],
    reference: tuple[float, float, float],
    out: str,
) -> None:
    """Draw the curve against random, and the final margin against greedy, to `out`."""
    pyplot.rcParams["svg.hashsalt"] = "scopa"  # the same picture for the same figures
    figure, axes = pyplot.subplots(figsize=(7, 5), layout="constrained")
    steps = [point[0] for point in curve]
    axes.plot(steps, [p[1] for p in curve], marker="o", label="policy against RandomAgent")
    axes.fill_between(steps, [p[2] for p in curve], [p[3] for p in curve], alpha=0.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    label = "GreedyAgent against RandomAgent"
    axes.axhline(reference[0], color="tab:green", linestyle=":", label=label)
    label = "policy against GreedyAgent, at the end"
    axes.axhline(greedy[0], color="tab:red", linestyle="--", label=label)
    axes.set_xlabel("training steps (the learner's plays)")
    axes.set_ylabel("margin per hand (95% interval)")
    axes.set_title("MaskablePPO on classic Scopa, compact encoding")
    figure.legend(loc="outside lower center", ncols=2)
    figure.savefig(out, metadata={"Date": None})


def main() -> None:
    """Train, measuring as it goes; then measure against random and greedy, and draw."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--every", type=int, default=16_384, help="steps between measures")
    parser.add_argument("--deals", type=int, default=100, help="paired deals per measure")
    parser.add_argument("--final-deals", type=int, default=1000, help="paired deals at the end")
    parser.add_argument("--out", default="learning-curve.svg", help="the picture")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--envs", type=int, default=8, help="environments played in turn")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per env and update")
    args = parser.parse_args()
    torch.set_num_threads(1)  # one thread: the environments and the updates take turns
    model, curve = train(args)
    final = measure(PolicyAgent(model), RandomAgent(), args.final_deals)
    greedy = measure(PolicyAgent(model), GreedyAgent(), args.final_deals)
    reference = measure(GreedyAgent(), RandomAgent(), args.final_deals)
    print(f"{args.final_deals} paired deals: against random", shown(final))
    print(f"{args.final_deals} paired deals: against greedy", shown(greedy))
    print(f"{args.final_deals} paired deals: greedy against random", shown(reference))
    draw(curve, greedy, reference, args.out)
    print(f"learning curve written to {args.out}")


if __name__ == "__main__":
    main()
