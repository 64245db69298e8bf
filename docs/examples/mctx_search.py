"""Honest search with mctx on the pgx environment, against greedy play on paired deals.

    python -m pip install -e ".[pgx]"
    python docs/examples/mctx_search.py [--deals 100] [--simulations 32] [--worlds 4]

Each move of the searching player is chosen by mctx's `gumbel_muzero_policy` run over
`--worlds` states drawn with `Scopa.resample` from that player's point of view: the other
hand and the stock dealt again among the deals that agree with what the player has seen,
so that the search never reads a card it could not know. The recurrent function steps the
pgx environment from the resampled root, as pgx's AlphaZero example steps its games. There
is no network: the prior is uniform over the legal moves, and a leaf's value is the result
of one random playout to the end of the hand (`Scopa.random_action`). The policies the
search gives in the worlds are added up, and the move with the most weight is played.

It plays `--deals` paired deals of classic Scopa against `GreedyAgent`, each deal twice
with the searcher in either seat; the greedy player chooses on the scalar position of each
state (`Scopa.position`). It prints the searcher's mean margin per hand in points (its
side's points minus the other's) with a 95% interval, and the time each searched move
costs (wall clock and CPU, after the search is compiled).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx  # type: ignore[import-untyped]
import numpy as np

from scopa import view
from scopa.adapters.pgx import Scopa, State, make
from scopa.agents import GreedyAgent
from scopa.encoding import action_of

Search = Any  # a compiled function: (states, key) -> actions
_LOWEST = float(np.finfo(np.float32).min)  # the logit of an illegal action


def playout_values(env: Scopa, states: State, key: jax.Array) -> jax.Array:
    """Each state's value for its player to move: the rewards of one random playout."""
    count = states.current_player.shape[0]
    player = states.current_player

    def unfinished(carried: tuple[State, jax.Array, jax.Array]) -> jax.Array:
        return ~jnp.all(carried[0].terminated)

    def play(carried: tuple[State, jax.Array, jax.Array]) -> tuple[State, jax.Array, jax.Array]:
        states, total, key = carried
        key, drawn = jax.random.split(key)
        actions = jax.vmap(env.random_action)(states, jax.random.split(drawn, count))
        states = jax.vmap(env.step)(states, actions)  # no reward once a hand is over
        return states, total + states.rewards[jnp.arange(count), player], key

    start = (states, jnp.zeros(count), key)
    _, total, _ = jax.lax.while_loop(unfinished, play, start)
    return jnp.where(states.terminated, 0.0, total)


def uniform_prior(states: State) -> jax.Array:
    """Equal logits for the legal actions (all of them once the hand is over)."""
    return jnp.where(states.legal_action_mask, 0.0, _LOWEST)


def make_search(env: Scopa, simulations: int, worlds: int) -> Search:
    """A compiled search: one action for each state of a batch, from its player's view."""

    def recurrent_fn(
        params: Any, key: jax.Array, action: jax.Array, states: State
    ) -> tuple[Any, State]:
        del params
        mover = states.current_player
        states = jax.vmap(env.step)(states, action)
        output = mctx.RecurrentFnOutput(
            reward=states.rewards[jnp.arange(action.shape[0]), mover],
            # the sides alternate: the next value is the other side's
            discount=jnp.where(states.terminated, 0.0, -1.0),
            prior_logits=uniform_prior(states),
            value=playout_values(env, states, key),
        )
        return output, states

    @jax.jit
    def search(states: State, key: jax.Array) -> jax.Array:
        count = states.current_player.shape[0]
        drawn, valued, searched = jax.random.split(key, 3)
        copies = jax.tree_util.tree_map(lambda x: jnp.repeat(x, worlds, axis=0), states)
        roots = jax.vmap(env.resample)(copies, jax.random.split(drawn, count * worlds))
        root = mctx.RootFnOutput(
            prior_logits=uniform_prior(roots),
            value=playout_values(env, roots, valued),
            embedding=roots,
        )
        policy = mctx.gumbel_muzero_policy(
            params=(),
            rng_key=searched,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            invalid_actions=~roots.legal_action_mask,
            qtransform=mctx.qtransform_completed_by_mix_value,
            gumbel_scale=1.0,
        )
        weights = policy.action_weights.reshape(count, worlds, -1).sum(axis=1)
        return jnp.argmax(jnp.where(states.legal_action_mask, weights, -1.0), axis=1)

    return search


class Result(NamedTuple):
    """What a run measured."""

    margins: np.ndarray  # float[deals, 2]: the searcher's margin in points, in either seat
    illegal: int  # actions played that were not legal (none, if all goes well)
    searched: int  # moves chosen by the search, the first call's excluded
    seconds: float  # their wall-clock time
    cpu_seconds: float  # their CPU time (all threads)


def play(env: Scopa, deals: int, simulations: int, worlds: int, seed: int) -> Result:
    """Play `deals` paired deals, the searcher in seat 0 then in seat 1 of each."""
    hands = 2 * deals
    search = make_search(env, simulations, worlds)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(seed)
    key, dealt = jax.random.split(key)
    states = init(jnp.repeat(jax.random.split(dealt, deals), 2, axis=0))  # each deal twice
    seats = np.arange(hands) % 2
    greedy, rng = GreedyAgent(), random.Random(seed)
    illegal = searched = 0
    seconds = cpu_seconds = 0.0
    first = True
    while not bool(states.terminated.all()):
        players = np.asarray(states.current_player)
        mine = np.flatnonzero(players == seats)  # half the hands: one of each pair
        actions = np.zeros(hands, np.int32)
        key, drawn = jax.random.split(key)
        clock, cpu = time.perf_counter(), time.process_time()
        chosen = search(jax.tree_util.tree_map(lambda x, mine=mine: x[mine], states), drawn)
        actions[mine] = np.asarray(chosen)
        if not first:
            seconds += time.perf_counter() - clock
            cpu_seconds += time.process_time() - cpu
            searched += len(mine)
        first = False
        for i in np.flatnonzero(players != seats):
            hand = jax.tree_util.tree_map(lambda x, i=i: x[i], states)
            seen = view(env.position(hand), int(players[i]))
            actions[i] = action_of(seen, greedy.choose(seen, rng))
        masks = np.asarray(states.legal_action_mask)
        illegal += int((~masks[np.arange(hands), actions]).sum())
        states = step(states, jnp.asarray(actions))
    rewards = np.asarray(states.rewards)[np.arange(hands), seats] * env.reward_scale
    return Result(rewards.reshape(deals, 2), illegal, searched, seconds, cpu_seconds)


def main(argv: list[str] | None = None) -> Result:
    """Run the measure and print it."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="paired deals to play")
    parser.add_argument("--simulations", type=int, default=32, help="simulations per world")
    parser.add_argument("--worlds", type=int, default=4, help="resampled deals per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = make("classic")
    result = play(env, args.deals, args.simulations, args.worlds, args.seed)
    per_deal = result.margins.mean(axis=1)
    half_width = 1.96 * per_deal.std(ddof=1) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else 0
    print(
        f"{args.deals} paired deals of classic, {args.worlds} worlds x {args.simulations} "
        f"simulations a move, on {jax.devices()[0].platform}: margin per hand against "
        f"GreedyAgent {per_deal.mean():+.2f} ± {half_width:.2f} points"
    )
    if result.searched:
        print(
            f"{result.searched} searched moves: {1000 * result.seconds / result.searched:.1f} ms "
            f"each (wall clock), {1000 * result.cpu_seconds / result.searched:.1f} ms of CPU"
        )
    print(f"illegal actions: {result.illegal}")
    return result


if __name__ == "__main__":
    main()
