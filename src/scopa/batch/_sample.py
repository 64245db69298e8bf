"""Drawing a legal compact id from a policy's logits, card by card (see `Env.sample_action`).

The legal ids of card `c` are `c * COMPACT_OPTIONS + k` for `k` below the card's count of
legal ids, which the batch engine keeps beside the mask. A draw with the Gumbel-max trick
over the legal ids, as `jax.random.categorical` makes over the masked logits, splits in two
exact steps: the largest Gumbel-perturbed logit among a card's ids is itself Gumbel
distributed about the log-sum-exp of the card's logits, and which id bears it is
independent of how large it is. So a card is drawn from the log-sum-exps of the cards in
the hand, then an id from the chosen card's logits: `hand_size + COMPACT_OPTIONS` random
numbers, not 2,560, and only the rows of the cards in the hand are read.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from scopa.encoding import COMPACT_OPTIONS

__all__ = ["sample_action"]

_CARDS = 40


@functools.partial(jax.jit, static_argnames=("hand_size",))
def sample_action(
    counts: jax.Array, logits: jax.Array, key: jax.Array, hand_size: int
) -> jax.Array:
    """A legal compact id drawn with probability the softmax of `logits` over the legal ids.

    `counts` (`int32[40]`) holds each card's number of legal ids (0 for a card that cannot
    be played); at most `hand_size` cards have any. `logits` (`[2560]`) is read only at the
    legal ids. When every legal logit is -inf, every legal id is equally likely; when no id
    is legal, the result is 0.
    """
    held = counts > 0
    cards = jnp.nonzero(held, size=hand_size, fill_value=0)[0]
    slot_counts = jnp.where(jnp.arange(hand_size) < jnp.sum(held), counts[cards], 0)
    legal = jnp.arange(COMPACT_OPTIONS) < slot_counts[:, None]  # [slot, choice]
    rows = logits.astype(jnp.float32).reshape(_CARDS, COMPACT_OPTIONS)[cards]
    rows = jnp.where(legal, rows, -jnp.inf)
    totals = jax.nn.logsumexp(rows, axis=1)  # -inf for an empty slot
    # no legal id with a finite logit: all the legal ids alike
    alike = jnp.all(totals == -jnp.inf)
    rows = jnp.where(alike, jnp.where(legal, 0.0, -jnp.inf), rows)
    totals = jnp.where(alike, jnp.log(slot_counts.astype(jnp.float32)), totals)
    noise = jax.random.gumbel(key, (hand_size + COMPACT_OPTIONS,))
    slot = jnp.argmax(totals + noise[:hand_size])
    choice = jnp.argmax(rows[slot] + noise[hand_size:])
    action = cards[slot] * COMPACT_OPTIONS + choice
    return jnp.where(jnp.any(held), action, 0).astype(jnp.int32)
