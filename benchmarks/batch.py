"""Batch benchmark: the JAX batch engine beside the scalar engine and its adapters, in one run.

    python benchmarks/batch.py [--quick] [--seconds S] [--rounds R] [--variant NAME]
                               [--sizes 1024,4096,16384] [--policy-sizes 4096]

Every loop plays complete hands with random legal plays, and prints hands per second and
plays per second (each hand has the rules' `plays_per_hand` plays: 36 in classic). The
batch engine's loops compute the mask and the observation of the player to move at every
play, as its `step` always does:

- `batch N` (N from `--sizes`: 1,024, 4,096 and 16,384 hands at once unless told; give
  `--sizes 4096,65536,1048576` on an accelerator, where the large batches are fastest): one
  jitted call deals N hands with `vmap(init)` and plays them to the end in a `fori_loop`,
  each play a uniformly random legal id of each hand drawn on the device with
  `vmap(Env.random_action)` and played with `vmap(step)`; timed after its compile and one
  call, with `block_until_ready`;
- `batch N, sample_action` and `batch N, categorical` (N from `--policy-sizes`, 4,096
  unless told): the same loop with the plays drawn as a policy draws them, from 2,560
  logits per hand, with `vmap(Env.sample_action)` and with `jax.random.categorical` over the
  logits masked by `legal_action_mask`. The logits are random normal values given to the
  call (drawn once, before the timing): the loops measure the draw, not a network;
- `batch 4,096, a call per play`: the `batch` loop with a jitted call to deal and one per
  play (as a training loop that acts between plays calls it);
- `batch 4,096, choice from the mask`: as `batch 4,096`, the random legal id drawn by
  reading the 2,560 entries of each mask (`random_legal_actions`), as a policy that reads
  the mask does;
- `vector env 4,096`: `ScopaVectorEnv` (`scopa.adapters.gymnasium_batch`), the learner's
  random legal actions drawn with NumPy, the opponent's on the device;
- `playout`, `encoding`, `pettingzoo`, `gymnasium`: the scalar engine's random playout
  (`playout.py`), the same with the mask and observation of `scopa.encoding` at each play,
  and the scalar PettingZoo and Gymnasium adapters, in the loops of `adapters.py`.

The benchmark needs the extras `jax` and `gymnasium`.
The column `× gymnasium` is each loop's hands per second over the Gymnasium adapter's. For
the fused loops, `hands/CPU-s` counts the hands per second of this process's CPU time (all
its threads': a fairer measure where other work shares the cores) and `compile s` the
seconds the loop took to compile. The rates of the loops drawing from logits over the
`random_action` loop of the same size follow the table, by wall time and by CPU time.
Then the batch engine's cost is split on 4,096 positions from the middle of hands: a whole
`vmap(step)`, and alone the pieces it is made of, each jitted by itself (they are fused
inside the step, so the pieces need not add up to it): the legal captures and the mask of
the player to move, the observation, both with the move books (`_with_choices`, the part of
the step after a play), and the capture search of a play; and beside them the legal
choices the loops make at each play (uniform from the counts of legal ids and from the
mask; from logits with `sample_action` and with `categorical`). The pieces are the
engine's private functions; a piece the engine no longer has is shown as n/a.

The script runs unchanged on an accelerator: JAX uses the first of `jax.devices()`. The
figures of the scalar loops are per core; the batch engine's use what JAX is given.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from adapters import (  # the modules beside this one
    encoded,
    gymnasium_loop,
    hands_per_second,
    installed,
    native,
    pettingzoo_loop,
    scopa_env,
)
from playout import BUILD

import scopa
from scopa.adapters.gymnasium_batch import random_legal_actions
from scopa.batch import Env, State
from scopa.encoding import COMPACT_OPTIONS, observation_counts


class Rate(NamedTuple):
    """A loop's hands and plays per second; for a fused loop, also its seconds to compile and
    its hands per second of this process's CPU time (all its threads')."""

    hands: float
    plays: float
    compiling: float | None = None
    cpu_hands: float | None = None


Chooser = Callable[[State, jax.Array, jax.Array], jax.Array]
"""Legal actions for a batch of states, from a key and the logits of each hand."""


def by_counts(env: Env) -> Chooser:
    """`Env.random_action` on each state: uniform, from the legal ids of each card."""

    def choose(states: State, key: jax.Array, logits: jax.Array) -> jax.Array:
        size = states.current_player.shape[0]
        actions: jax.Array = jax.vmap(env.random_action)(states, jax.random.split(key, size))
        return actions

    return choose


def from_mask(states: State, key: jax.Array, logits: jax.Array) -> jax.Array:
    """`random_legal_actions` of the masks: uniform, reading all 2,560 entries of each."""
    return random_legal_actions(states.legal_action_mask, key)


def by_sampler(env: Env) -> Chooser:
    """`Env.sample_action` on each state: the softmax of the logits over the legal ids."""

    def choose(states: State, key: jax.Array, logits: jax.Array) -> jax.Array:
        size = states.current_player.shape[0]
        keys = jax.random.split(key, size)
        actions: jax.Array = jax.vmap(env.sample_action)(states, logits, keys)
        return actions

    return choose


def by_categorical(states: State, key: jax.Array, logits: jax.Array) -> jax.Array:
    """`jax.random.categorical` over the logits masked by the legal ids: the same law."""
    masked = jnp.where(states.legal_action_mask, logits, -jnp.inf)
    actions: jax.Array = jax.random.categorical(key, masked).astype(jnp.int32)
    return actions


def whole_hands(env: Env, size: int, choose: Chooser) -> jax.stages.Wrapped:
    """One jitted call of a key and logits (`[size, 2560]`): deal `size` hands and play
    them out; the number of hands ended."""
    plays = env.rules.plays_per_hand

    def play(logits: jax.Array, carry: tuple[State, jax.Array]) -> tuple[State, jax.Array]:
        states, key = carry
        key, draw = jax.random.split(key)
        return jax.vmap(env.step)(states, choose(states, draw, logits)), key

    @jax.jit
    def run(key: jax.Array, logits: jax.Array) -> jax.Array:
        key, deal = jax.random.split(key)
        states = jax.vmap(env.init)(jax.random.split(deal, size))
        states, _ = jax.lax.fori_loop(0, plays, lambda _, carry: play(logits, carry), (states, key))
        ended: jax.Array = states.terminated.sum()
        return ended

    return run


def timed(run: Callable[[], Any], seconds: float) -> tuple[float, float, Any]:
    """Seconds per call of `run` (compiled already), over at least `seconds`; the seconds of
    this process's CPU time per call; its last result.

    Each call's result is waited for.
    """
    calls = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while True:
        result = jax.block_until_ready(run())  # type: ignore[no-untyped-call]
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls, (time.process_time() - cpu_start) / calls, result


def batch_rate(env: Env, size: int, choose: Chooser, seconds: float, seed: int) -> Rate:
    """The fused loop of `choose`, with random normal logits given to every call."""
    keys = iter(jax.random.split(jax.random.key(seed), 10_000))
    logits = jax.block_until_ready(  # type: ignore[no-untyped-call]
        jax.random.normal(jax.random.key(seed), (size, env.num_actions))
    )
    start = time.perf_counter()
    run = whole_hands(env, size, choose).lower(jax.random.key(0), logits).compile()
    compiling = time.perf_counter() - start
    jax.block_until_ready(run(next(keys), logits))  # type: ignore[no-untyped-call]
    per_call, cpu_per_call, ended = timed(lambda: run(next(keys), logits), seconds)
    assert int(ended) == size, f"{ended} of {size} hands ended"
    plays = size * env.rules.plays_per_hand
    return Rate(size / per_call, plays / per_call, compiling, size / cpu_per_call)


def batch_per_play_rate(env: Env, size: int, seconds: float, seed: int) -> Rate:
    """The batch loop with one jitted call to deal and one per play."""
    key = jax.random.key(0)
    dealing = jax.jit(lambda key: jax.vmap(env.init)(jax.random.split(key, size)))
    deal = dealing.lower(key).compile()

    choose = by_counts(env)

    def play_once(states: State, key: jax.Array) -> State:
        played: State = jax.vmap(env.step)(states, choose(states, key, jnp.zeros(())))
        return played

    play = jax.jit(play_once).lower(deal(key), key).compile()
    plays = env.rules.plays_per_hand
    keys = iter(jax.random.split(jax.random.key(seed), 100_000))

    def hand() -> State:
        states: State = deal(next(keys))
        for _ in range(plays):
            states = play(states, next(keys))
        return states

    per_hand, _, _ = timed(hand, seconds)
    return Rate(size / per_hand, size * plays / per_hand)


def vector_env_rate(rules: scopa.Rules, size: int, seconds: float, seed: int) -> Rate:
    """`ScopaVectorEnv` with the learner's random legal actions drawn on the host."""
    from scopa.adapters.gymnasium_batch import ScopaVectorEnv

    env = ScopaVectorEnv(size, rules, seat=None)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)

    def act(masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        counts = masks.sum(axis=1)
        rank = np.floor(rng.random(len(masks)) * counts)
        chosen: np.ndarray[Any, Any] = np.argmax(np.cumsum(masks, axis=1) > rank[:, None], axis=1)
        return chosen

    obs, *_ = env.step(act(obs["action_mask"]))  # compile
    hands = 0
    start = time.perf_counter()
    while True:
        obs, _, terminated, _, _ = env.step(act(obs["action_mask"]))
        hands += int(terminated.sum())
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and hands:
            return Rate(hands / elapsed, hands * rules.plays_per_hand / elapsed)


def scalar_rate(
    loop: Callable[[scopa.Rules, int], None], rules: scopa.Rules, seconds: float
) -> Rate:
    rate = hands_per_second(loop, rules, seconds, 1)
    return Rate(rate, rate * rules.plays_per_hand)


def mid_hand(env: Env, size: int, seed: int) -> tuple[State, jax.Array]:
    """`size` positions from the middle of random hands, and a random legal action of each."""
    key = jax.random.key(seed)
    states = jax.vmap(env.init)(jax.random.split(key, size))
    step = jax.jit(jax.vmap(env.step))
    for play in range(env.rules.plays_per_hand // 2):
        draw = jax.random.fold_in(key, play)
        states = step(states, random_legal_actions(states.legal_action_mask, draw))
    return states, random_legal_actions(states.legal_action_mask, jax.random.split(key)[1])


def pieces(env: Env) -> dict[str, Callable[[State, jax.Array], Any] | None]:
    """The parts of a step to time on their own (None: the engine has no such function)."""
    choices = getattr(env, "_choices", None)
    observe = getattr(env, "_observe", None)
    with_choices = getattr(env, "_with_choices", None)
    taken = getattr(env, "_taken", None)

    def mover_hand(state: State) -> jax.Array:
        hand: jax.Array = state._hands[jnp.maximum(state.current_player, 0)]
        return hand

    return {
        "step (all of it)": lambda state, action: env.step(state, action),
        "captures and mask": None
        if choices is None
        else lambda state, _: choices(mover_hand(state), state._table),
        "observation": None
        if observe is None
        else lambda state, _: observe(state, state.current_player),
        "mask, observation, books": None
        if with_choices is None
        else lambda state, _: with_choices(state),
        "capture search of a play": None
        if taken is None
        else lambda state, action: taken(
            state, action // COMPACT_OPTIONS, action % COMPACT_OPTIONS
        ),
    }


def batch_sizes(text: str) -> list[int]:
    """Batch sizes written with commas between them, as `--sizes` takes them."""
    try:
        found = [int(part) for part in text.split(",")]
    except ValueError:
        found = []
    if not found or min(found) < 1:
        raise argparse.ArgumentTypeError(f"not batch sizes separated by commas: {text[:40]!r}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (noisier figures)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per loop and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the median is shown)")
    parser.add_argument("--variant", default="classic", help="preset to play")
    parser.add_argument(
        "--sizes",
        type=batch_sizes,
        default=[1024, 4096, 16384],
        help="the batch sizes of the random_action loop, separated by commas "
        "(default 1024,4096,16384; on an accelerator 4096,65536,1048576)",
    )
    parser.add_argument(
        "--policy-sizes",
        type=batch_sizes,
        default=[4096],
        help="the batch sizes of the loops that draw from logits (default 4096)",
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.rounds = 0.0, 1  # one call of each loop
    rules = scopa.find_variant(args.variant)
    env = Env(rules)
    load = os.getloadavg()
    print(
        f"scopa {scopa.__version__} ({BUILD}), variant {args.variant}, Python "
        f"{sys.version.split()[0]}, jax {jax.__version__} on {jax.devices()}"
    )
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")

    loops: dict[str, Callable[[int], Rate]] = {}
    # the random_action loop at every size, so that each policy loop has it beside it
    for size in sorted({*args.sizes, *args.policy_sizes}):
        loops[f"batch {size:,}"] = functools.partial(
            batch_rate, env, size, by_counts(env), args.seconds
        )
    for size in args.policy_sizes:
        loops[f"batch {size:,}, sample_action"] = functools.partial(
            batch_rate, env, size, by_sampler(env), args.seconds
        )
        loops[f"batch {size:,}, categorical"] = functools.partial(
            batch_rate, env, size, by_categorical, args.seconds
        )
    loops["batch 4,096, a call per play"] = functools.partial(
        batch_per_play_rate, env, 4096, args.seconds
    )
    loops["batch 4,096, choice from the mask"] = functools.partial(
        batch_rate, env, 4096, from_mask, args.seconds
    )
    if installed("gymnasium"):
        loops["vector env 4,096"] = functools.partial(vector_env_rate, rules, 4096, args.seconds)
    loops["playout"] = lambda seed: scalar_rate(native, rules, args.seconds)
    loops["encoding"] = lambda seed: scalar_rate(encoded(observation_counts), rules, args.seconds)
    if installed("pettingzoo"):
        pettingzoo = pettingzoo_loop(scopa_env)
        loops["pettingzoo"] = lambda seed: scalar_rate(pettingzoo, rules, args.seconds)
    if installed("gymnasium"):
        gymnasium = gymnasium_loop()
        loops["gymnasium"] = lambda seed: scalar_rate(gymnasium, rules, args.seconds)

    rates: dict[str, list[Rate]] = {name: [] for name in loops}
    for round_ in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(loop(round_ + 1))

    def median(name: str, field: str) -> float | None:
        found = [getattr(rate, field) for rate in rates[name]]
        known = [value for value in found if value is not None]
        return statistics.median(known) if known else None

    hands = {name: statistics.median(rate.hands for rate in rates[name]) for name in loops}
    plays = {name: statistics.median(rate.plays for rate in rates[name]) for name in loops}
    cpu_hands = {name: median(name, "cpu_hands") for name in loops}
    reference = hands.get("gymnasium")
    print(
        f"\n{'loop':<36}{'hands/s':>12}{'plays/s':>14}{'× gymnasium':>13}"
        f"{'hands/CPU-s':>13}{'compile s':>11}"
    )
    for name in loops:
        ratio = f"{hands[name] / reference:>13,.1f}" if reference else f"{'':>13}"
        cpu = cpu_hands[name]
        compiling = median(name, "compiling")
        extra = "" if cpu is None or compiling is None else f"{cpu:>13,.0f}{compiling:>11.1f}"
        print(f"{name:<36}{hands[name]:>12,.0f}{plays[name]:>14,.0f}{ratio}{extra}")
    if reference and "batch 4,096" in hands:
        gain = hands["batch 4,096"] / reference
        print(f"batch 4,096 over the Gymnasium adapter: {gain:,.1f}× (target 5×, stretch 10×)")
    for size in args.policy_sizes:
        names = [
            f"batch {size:,}",
            f"batch {size:,}, sample_action",
            f"batch {size:,}, categorical",
        ]
        shown = []
        for rates_of in (hands, cpu_hands):
            uniform, sampled, categorical = (rates_of[name] or math.nan for name in names)
            shown.append(
                f"sample_action {sampled / uniform:.2f}, categorical {categorical / uniform:.3f}"
            )
        print(
            f"batch {size:,} drawing from logits, over random_action: {shown[0]}; "
            f"by CPU time: {shown[1]} (target for sample_action 0.5)"
        )

    states, actions = mid_hand(env, 4096, 3)
    print(f"\nthe batch engine's step on {4096:,} positions from the middle of hands")
    print(f"{'piece':<36}{'ms per call':>12}{'ns per hand':>14}")
    for name, piece in pieces(env).items():
        if piece is None:
            print(f"{name:<36}{'n/a':>12}")
            continue
        compiled = jax.jit(jax.vmap(piece)).lower(states, actions).compile()
        call = functools.partial(compiled, states, actions)
        seconds = statistics.median(timed(call, args.seconds / 4)[0] for _ in range(args.rounds))
        print(f"{name:<36}{seconds * 1e3:>12.2f}{seconds / 4096 * 1e9:>14,.0f}")
    key = jax.random.key(0)
    logits = jax.random.normal(key, (4096, env.num_actions))
    for name, choose in (
        ("random choice, from counts", by_counts(env)),
        ("random choice, from the mask", from_mask),
        ("draw from logits, sample_action", by_sampler(env)),
        ("draw from logits, categorical", by_categorical),
    ):
        draw = jax.jit(choose).lower(states, key, logits).compile()
        seconds = statistics.median(
            timed(functools.partial(draw, states, key, logits), args.seconds / 4)[0]
            for _ in range(args.rounds)
        )
        print(f"{name:<36}{seconds * 1e3:>12.2f}{seconds / 4096 * 1e9:>14,.0f}")
    load = os.getloadavg()
    print(f"\nload average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
