"""Train a move-scoring policy on the batch engine against greedy play, and save it as `.npz`.

    python -m pip install -e ".[jax]" --group train
    python docs/examples/train_policy.py [--iterations 50] [--seed 0] [--out policy.npz]
        [--curve policy-curve.svg]

The learner plays one seat of a hand of classic Scopa on `scopa.batch` (1,024 hands at a
time, each deal played twice, once from each seat) against the greedy heuristic of
`GreedyAgent`, written in JAX from the move facts. Training against that fixed opponent, not against
itself, aims the ten minutes at the opponent to beat: greedy play punishes a careless
move at once, so the policy learns to leave the table safe and to take what matters.

The policy is the network of `scopa.policy`: it scores each legal move from the move's
facts and a summary of the observation, with the same weights for every move, and plays
the best score. It learns by proximal policy optimization (clipped ratios, a value of the
position as the baseline, no discount: the reward is the hand's margin, the learner's
side's points minus the other's, at the end of the hand).

Every `--every` iterations, the policy (playing its best move) is measured against the
JAX greedy on fresh paired deals; at the end the saved policy is measured on the scalar
engine through `scopa.policy.PolicyAgent` against `GreedyAgent` and `RandomAgent`, 1,000
paired deals each, with 95% intervals. The run is reproducible: the same seed and
iterations give the same parameters on the same JAX version.

The parameters go to `--out` and the picture of the learning curve to `--curve`, by
default beside the parameters: `--out runs/policy.npz` draws `runs/policy-curve.svg`.
"""

from __future__ import annotations

import argparse
import functools
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import scopa
from scopa.agents import GreedyAgent, RandomAgent
from scopa.batch import Env, State
from scopa.encoding import MOVE_FACTS
from scopa.policy import PolicyAgent, save_parameters
from scopa.tournament import tournament

Params = dict[str, jax.Array]
RULES = scopa.find_variant("classic")
ENV = Env(RULES)
PLAYS = RULES.plays_per_hand


# ------------------------------------------------------------------ the network


def init_params(key: jax.Array, width: int) -> Params:
    """Small random weights for `scopa.policy`'s network of `width`, and a value head."""
    sizes = {
        "summary": (ENV.observation_size, width),
        "hidden": (MOVE_FACTS + width, width),
        "value_hidden": (width, width),
    }
    params: Params = {}
    for name, (rows, columns) in sizes.items():
        key, drawn = jax.random.split(key)
        params[name] = jax.random.normal(drawn, (rows, columns)) / np.sqrt(rows)
        params[name + "_bias"] = jnp.zeros(columns)
    for name in ("score", "value"):
        key, drawn = jax.random.split(key)
        params[name] = jax.random.normal(drawn, (width,)) * 0.01
        params[name + "_bias"] = jnp.zeros(())
    return params


def scores(params: Params, observation: jax.Array, facts: jax.Array) -> jax.Array:
    """Each move's score (`[slots]`), as `scopa.policy` computes it."""
    summary = jnp.tanh(observation @ params["summary"] + params["summary_bias"])
    paired = jnp.concatenate(
        [facts, jnp.broadcast_to(summary, (facts.shape[0], *summary.shape))], 1
    )
    hidden = jnp.tanh(paired @ params["hidden"] + params["hidden_bias"])
    return hidden @ params["score"] + params["score_bias"]


def value(params: Params, observation: jax.Array) -> jax.Array:
    """The expected margin of the hand from here, for the player to move."""
    summary = jnp.tanh(observation @ params["summary"] + params["summary_bias"])
    hidden = jnp.tanh(summary @ params["value_hidden"] + params["value_hidden_bias"])
    return hidden @ params["value"] + params["value_bias"]


# ------------------------------------------------------------------ greedy, from the facts


def greedy_values(facts: jax.Array) -> jax.Array:
    """`GreedyAgent`'s value of each move (see its documentation), from the move's facts.

    A capture: 10 for a scopa, and for each card won 0.25, 1 more for a denaro, 1.5 for a
    seven, 1 for a six, 0.5 for an Ace, 6 for the settebello. A card laid: minus half its
    worth. A table left that one card could sweep: minus 3.
    """
    won = facts[:, 2] + 2 * facts[:, 3] + 3 * facts[:, 4] + 6 * facts[:, 5]
    won += 2 * facts[:, 16] + facts[:, 17]
    seven, denaro = facts[:, 12], facts[:, 11]
    ace, six = facts[:, 10] == 0.1, facts[:, 10] == 0.6
    worth = 0.25 + denaro + 1.5 * seven + 6 * facts[:, 13] + six + 0.5 * ace
    taking = won + 10 * facts[:, 6]
    return jnp.where(facts[:, 1] > 0, taking, -0.5 * worth) - 3 * facts[:, 7]


# ------------------------------------------------------------------ playing hands


def play(
    params: Params, key: jax.Array, hands: int, explore: bool
) -> tuple[dict[str, jax.Array], jax.Array]:
    """Play `hands` hands (each deal twice, the learner in either seat) to the end.

    Returns the learner's decisions (observation, facts, legal slots, slot chosen, its
    log-probability, and whether the learner was to move) by step, and each hand's
    margin for the learner.
    """
    deal_keys = jax.random.split(key, hands // 2 + 1)
    key = deal_keys[-1]
    keys = jnp.repeat(deal_keys[:-1], 2, axis=0)
    seats = jnp.arange(hands) % 2
    states = jax.vmap(ENV.init)(keys, jnp.zeros(hands, jnp.int32))

    def turn(carried: tuple[State, jax.Array], _: Any) -> tuple[Any, Any]:
        states, key = carried
        key, drawn, noise = jax.random.split(key, 3)
        ids, facts = jax.vmap(ENV.move_facts)(states)
        legal = ids >= 0
        logits = jax.vmap(scores, (None, 0, 0))(params, states.observation, facts)
        logits = jnp.where(legal, logits, -1e9)
        mine = jax.random.categorical(drawn, logits) if explore else jnp.argmax(logits, axis=1)
        ties = jax.random.uniform(noise, ids.shape, maxval=0.01)
        theirs = jnp.argmax(jnp.where(legal, jax.vmap(greedy_values)(facts) + ties, -1e9), 1)
        learner = states.current_player == seats
        slot = jnp.where(learner, mine, theirs)
        action = jnp.take_along_axis(ids, slot[:, None], 1)[:, 0]
        log_prob = jax.nn.log_softmax(logits)[jnp.arange(hands), mine]
        record = {
            "observation": states.observation,
            "facts": facts,
            "legal": legal,
            "slot": mine,
            "log_prob": log_prob,
            "learner": learner & ~states.terminated,
        }
        states = jax.vmap(ENV.step)(states, jnp.maximum(action, 0))
        margin = (
            states.rewards[jnp.arange(hands), seats] - states.rewards[jnp.arange(hands), 1 - seats]
        )
        return (states, key), (record, margin)

    _, (records, margins) = jax.lax.scan(turn, (states, key), None, length=PLAYS)
    return records, jnp.sum(margins, axis=0)


# ------------------------------------------------------------------ learning


def adam(
    params: Params, grads: Params, moments: tuple[Params, Params, jax.Array], rate: float
) -> tuple[Params, tuple[Params, Params, jax.Array]]:
    """One Adam step (beta 0.9 and 0.999)."""
    first, second, count = moments
    count = count + 1
    first = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, first, grads)
    second = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, second, grads)
    correction = jnp.sqrt(1 - 0.999**count) / (1 - 0.9**count)
    params = jax.tree.map(
        lambda p, m, v: p - rate * correction * m / (jnp.sqrt(v) + 1e-8), params, first, second
    )
    return params, (first, second, count)


def loss(params: Params, batch: dict[str, jax.Array]) -> jax.Array:
    """The clipped policy loss, the value loss and an entropy bonus, on learner decisions."""
    logits = jax.vmap(scores, (None, 0, 0))(params, batch["observation"], batch["facts"])
    logits = jnp.where(batch["legal"], logits, -1e9)
    log_probs = jax.nn.log_softmax(logits)
    chosen = jnp.take_along_axis(log_probs, batch["slot"][:, None], 1)[:, 0]
    ratio = jnp.exp(chosen - batch["log_prob"])
    advantage = batch["advantage"]
    clipped = jnp.clip(ratio, 0.8, 1.2) * advantage
    policy = -jnp.minimum(ratio * advantage, clipped)
    values = jax.vmap(value, (None, 0))(params, batch["observation"])
    probs = jnp.exp(log_probs)
    entropy = -jnp.sum(jnp.where(batch["legal"], probs * log_probs, 0.0), axis=1)
    weight = batch["weight"]
    total = policy + 0.5 * (values - batch["return"]) ** 2 - 0.01 * entropy
    return jnp.sum(total * weight) / jnp.sum(weight)


@functools.partial(jax.jit, static_argnames=("hands", "epochs", "minibatches"))
def iteration(
    params: Params,
    moments: tuple[Params, Params, jax.Array],
    key: jax.Array,
    rate: float,
    hands: int,
    epochs: int = 4,
    minibatches: int = 4,
) -> tuple[Params, tuple[Params, Params, jax.Array], jax.Array]:
    """Play a batch of hands exploring, then take PPO steps on the learner's decisions."""
    key, played = jax.random.split(key)
    records, margins = play(params, played, hands, explore=True)
    flat = jax.tree.map(lambda x: x.reshape(PLAYS * hands, *x.shape[2:]), records)
    returns = jnp.broadcast_to(margins, (PLAYS, hands)).reshape(-1)
    values = jax.vmap(value, (None, 0))(params, flat["observation"])
    advantage = returns - values
    weight = flat["learner"].astype(jnp.float32)
    mean = jnp.sum(advantage * weight) / jnp.sum(weight)
    spread = jnp.sqrt(jnp.sum((advantage - mean) ** 2 * weight) / jnp.sum(weight)) + 1e-6
    batch = {**flat, "advantage": (advantage - mean) / spread, "return": returns, "weight": weight}
    size = PLAYS * hands // minibatches

    def epoch(carried: Any, drawn: jax.Array) -> tuple[Any, None]:
        order = jax.random.permutation(drawn, PLAYS * hands)

        def step(carried: Any, part: jax.Array) -> tuple[Any, None]:
            params, moments = carried
            taken = jax.tree.map(lambda x: x[part], batch)
            grads = jax.grad(loss)(params, taken)
            return adam(params, grads, moments, rate), None

        parts = order[: size * minibatches].reshape(minibatches, size)
        return jax.lax.scan(step, carried, parts)[0], None

    (params, moments), _ = jax.lax.scan(epoch, (params, moments), jax.random.split(key, epochs))
    return params, moments, jnp.mean(margins)


@functools.partial(jax.jit, static_argnames=("hands",))
def against_greedy(params: Params, key: jax.Array, hands: int) -> jax.Array:
    """The margins of the best-move policy against the JAX greedy, on paired deals."""
    _, margins = play(params, key, hands, explore=False)
    return margins.reshape(-1, 2).mean(axis=1)  # one figure per deal, both seats


def interval(margins: np.ndarray) -> tuple[float, float, float]:
    """The mean and its 95% interval."""
    mean = float(margins.mean())
    half = 1.96 * float(margins.std(ddof=1)) / np.sqrt(len(margins))
    return mean, mean - half, mean + half


def train(args: argparse.Namespace) -> tuple[Params, list[tuple[int, float, float, float, float]]]:
    """Train for `args.iterations`: the parameters, and the curve measured on the way.

    A point of the curve: the iteration, the seconds so far, the margin and its interval.
    """
    key = jax.random.key(args.seed)
    key, drawn = jax.random.split(key)
    params = init_params(drawn, args.width)
    zeros = jax.tree.map(jnp.zeros_like, params)
    moments = (zeros, zeros, jnp.zeros(()))
    measure_key = jax.random.key(args.seed + 1)
    curve = []
    start = time.perf_counter()
    for number in range(args.iterations + 1):
        if number % args.every == 0 or number == args.iterations:
            figures = interval(np.asarray(against_greedy(params, measure_key, args.measure_hands)))
            seconds = time.perf_counter() - start
            curve.append((number, seconds, *figures))
            print(f"{number:>5} it {seconds / 60:5.1f} min  vs greedy (JAX)", shown(figures))
        if number < args.iterations:
            key, drawn = jax.random.split(key)
            params, moments, _ = iteration(params, moments, drawn, args.rate, args.hands)
    return params, curve


def shown(figures: tuple[float, float, float]) -> str:
    """A margin and its interval, as text."""
    margin, low, high = figures
    return f"{margin:+.3f} ({low:+.3f}, {high:+.3f})"


def measure(agent: PolicyAgent, opponent: Any, deals: int) -> tuple[float, float, float]:
    """The policy's margin per hand against `opponent` on the scalar engine, paired deals."""
    result = tournament(RULES, [agent, opponent], deals=deals, seed=12345)
    low, high = result.agents[0].margin_interval
    return result.agents[0].margin_per_hand, low, high


def draw(
    curve: list[tuple[int, float, float, float, float]], final: dict[str, Any], out: str
) -> None:
    """Draw the curve against the JAX greedy and the final scalar figures, to `out`."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    pyplot.rcParams["svg.hashsalt"] = "scopa"  # the same picture for the same figures
    figure, axes = pyplot.subplots(figsize=(7, 5), layout="constrained")
    minutes = [point[1] / 60 for point in curve]
    axes.plot(minutes, [p[2] for p in curve], marker="o", label="policy against greedy (JAX)")
    axes.fill_between(minutes, [p[3] for p in curve], [p[4] for p in curve], alpha=0.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    label = "at the end, against GreedyAgent (scalar engine)"
    axes.axhline(final["greedy"][0], color="tab:red", linestyle="--", label=label)
    axes.set_xlabel("training time (minutes of wall time)")
    axes.set_ylabel("margin per hand (95% interval)")
    axes.set_title("A move-scoring policy on classic Scopa, trained on scopa.batch")
    figure.legend(loc="outside lower center", ncols=2)
    figure.savefig(out, metadata={"Date": None})


def curve_path(out: str, curve: str | None) -> str:
    """Where the learning curve is drawn: `curve`, or else beside the parameters `out`.

    Beside `out` is in its folder, under its name with `-curve.svg` for its suffix.
    """
    if curve is not None:
        return curve
    parameters = Path(out)
    return str(parameters.with_name(f"{parameters.stem}-curve.svg"))


def main() -> None:
    """Train, save, measure on the scalar engine, and draw."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50, help="training iterations")
    parser.add_argument("--hands", type=int, default=1024, help="hands per iteration")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--width", type=int, default=64, help="the network's width")
    parser.add_argument("--every", type=int, default=10, help="iterations between measures")
    parser.add_argument("--measure-hands", type=int, default=4096, help="hands per measure")
    parser.add_argument("--deals", type=int, default=1000, help="paired deals at the end")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz", help="the parameters")
    parser.add_argument(
        "--curve",
        help="the picture of the learning curve (default: beside --out, as NAME-curve.svg)",
    )
    args = parser.parse_args()
    curve_file = curve_path(args.out, args.curve)
    started = time.perf_counter()
    params, curve = train(args)
    trained = time.perf_counter() - started
    save_parameters(args.out, {name: np.asarray(array) for name, array in params.items()}, RULES)
    print(f"trained in {trained / 60:.1f} min of wall time; parameters saved to {args.out}")
    agent = PolicyAgent.load(args.out)
    final = {
        "greedy": measure(agent, GreedyAgent(), args.deals),
        "random": measure(agent, RandomAgent(), args.deals),
    }
    for name, figures in final.items():
        print(f"{args.deals} paired deals (scalar engine): against {name}", shown(figures))
    draw(curve, final, curve_file)
    print(f"learning curve written to {curve_file}")


if __name__ == "__main__":
    main()
