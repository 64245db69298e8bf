"""Batched hands on JAX: the rules as pure functions of fixed-shape arrays.

It needs the extra `jax`: from a checkout of the source, `python -m pip install ".[jax]"`
in its folder; once the package is published, `python -m pip install "scopa[jax]"`.
[`Env`][scopa.batch.Env] plays one hand of some rules as functions that `jax.jit` compiles
and `jax.vmap` batches, in the style of `pgx`:

    >>> import jax
    >>> from scopa import find_variant
    >>> from scopa.batch import Env
    >>> env = Env(find_variant("classic"))
    >>> states = jax.vmap(env.init)(jax.random.split(jax.random.key(0), 8))
    >>> states.legal_action_mask.shape, states.observation.shape
    ((8, 2560), (8, 172))
    >>> actions = jax.numpy.argmax(states.legal_action_mask, axis=1)  # each first legal id
    >>> states = jax.jit(jax.vmap(env.step))(states, actions)
    >>> bool(states.illegal_action.any())
    False

A [`State`][scopa.batch.State] shows the player to move, the legal compact action ids
([`scopa.encoding`][scopa.encoding]), the observation of the player to move, the rewards of
the step and whether the hand is over. The engine gives, position by position, the same
player to move, mask, observation and points as [`GameState`][scopa.GameState] with
[`action_mask`][scopa.encoding.action_mask] and [`observation`][scopa.encoding.observation].
[`MatchEnv`][scopa.batch.MatchEnv] plays whole matches, hand after hand to the target, as
[`Match`][scopa.Match] plays them, paying who won or the tretre brilli at the end.

It plays every knob of [`Rules`][scopa.Rules], and so every preset: captures to fifteen,
first tables that sweep, declarations and claims, and decks of fewer cards among them. A
scoring component of your own raises [`RulesError`][scopa.RulesError], which says what to
do instead. Arrays are 32-bit: the engine never needs `jax_enable_x64`.
"""

from __future__ import annotations

from scopa._extras import needs_extra

try:
    import jax as _jax
except ImportError:
    raise ImportError(needs_extra("scopa.batch", "JAX", "jax")) from None

from scopa.batch._env import Env, Rewards, State
from scopa.batch._match import MatchEnv, MatchState

__all__ = ["Env", "MatchEnv", "MatchState", "Rewards", "State"]

del _jax
