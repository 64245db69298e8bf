"""Drawing a legal compact id from a policy's logits, card by card (see `Env.sample_action`).

The legal ids of card `c` are `c * COMPACT_OPTIONS + k` for `k` below the card's number of
legal ids, which the batch engine keeps beside the mask. The softmax of the logits over the
legal ids splits in two exact steps: a card with the sum of the exponentials of its legal
logits, then one of its legal ids with its own. Each step inverts a cumulative sum with
one uniform number, so a draw reads only the rows of the cards in the hand and uses two
random numbers, where `jax.random.categorical` adds one to each of the 2,560 logits.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from scopa.encoding import COMPACT_OPTIONS

__all__ = ["sample_action"]

_CARDS = 40


def _invert(weights: jax.Array, uniform: jax.Array) -> jax.Array:
    """The index of `weights` (not all 0) that a uniform number in [0, 1) falls on.

    The index is the first of positive weight whose cumulative weight passes `uniform`
    times the total: index `i` with probability `weights[i] / sum(weights)`, up to float32
    rounding, and never an index of weight 0 (whatever order the sums are rounded in).
    """
    cumulative = jnp.cumsum(weights)
    positive = weights > 0
    total = jnp.max(jnp.where(positive, cumulative, 0.0))
    return jnp.argmax(positive & (cumulative > uniform * total))


@functools.partial(jax.jit, static_argnames=("hand_size",))
def sample_action(
    counts: jax.Array, logits: jax.Array, key: jax.Array, hand_size: int
) -> jax.Array:
    """A legal compact id drawn with probability the softmax of `logits` over the legal ids.

    `counts` (`int32[40]`) holds each card's number of legal ids (0 for a card that cannot
    be played); at most `hand_size` cards have any. `logits` (`[2560]`) is read only at the
    legal ids. When no legal logit is above -inf (or one is NaN), every legal id is equally
    likely; when no id is legal, the result is 0.
    """
    held = counts > 0
    cards = jnp.nonzero(held, size=hand_size, fill_value=0)[0]
    slot_counts = jnp.where(jnp.arange(hand_size) < jnp.sum(held), counts[cards], 0)
    legal = jnp.arange(COMPACT_OPTIONS) < slot_counts[:, None]  # [slot, choice]
    rows = logits.astype(jnp.float32).reshape(_CARDS, COMPACT_OPTIONS)[cards]
    rows = jnp.where(legal, rows, -jnp.inf)
    top = jnp.max(rows)
    drawable = top > -jnp.inf  # False too for a NaN
    weights = jnp.exp(rows - jnp.where(drawable, top, 0.0))  # 0 where not legal
    weights = jnp.where(drawable, weights, legal.astype(jnp.float32))
    uniform = jax.random.uniform(key, (2,))
    slot = _invert(jnp.sum(weights, axis=1), uniform[0])
    choice = _invert(weights[slot], uniform[1])
    action = cards[slot] * COMPACT_OPTIONS + choice
    return jnp.where(jnp.any(held), action, 0).astype(jnp.int32)
