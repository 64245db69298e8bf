"""The captures of the batch engine: how many a played card has, and the `k`-th of them.

A table is `bool[40]` (a card's index is `10 * suit + rank - 1`), or its counts by rank.
Captures come in the order of [`legal_moves`][scopa.GameState.legal_moves]: by set of
ranks, then by cards (see `scopa.batch._tables`).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np

from scopa.batch import _tables

Array = jax.Array

CARDS: Final = 40
_COMB: Final = np.array(
    [[0] + [math.comb(n, k) for k in range(5)] + [0] for n in range(5)], np.int32
)
"""`comb(n, k)` at `[n, k + 1]` for `n` from 0 to 4, `k` from -1 to 5 (0 outside 0 to n)."""


def comb(n: Array, k: Array | int) -> Array:
    """`comb(n, k)` for `n` from 0 to 4 and any `k` (int32), elementwise."""
    return jnp.asarray(_COMB)[n, jnp.clip(k + 1, 0, 6)]


def by_rank(table: Array) -> Array:
    """The cards of each rank 1 to 10 on a table (`int32[10]`, rank `q` at `q - 1`)."""
    return jnp.sum(table.reshape(4, 10), axis=0, dtype=jnp.int32)


def sum_captures(counts: Array, *, fewest: bool) -> tuple[Array, Array]:
    """By rank: the captures of two or more table cards adding up to it, and their size.

    `counts[q - 1]` is the number of table cards of rank `q`. Returns the number of
    captures (int32[11]) and, with `fewest`, the number of cards they take, keeping only
    those with the fewest cards (int32[11], 0 where there is none; all 0 without
    `fewest`). The ranks are added one by one, counting the subsets by their total (and
    the fewest cards of each total): the captures of rank `r` are the subsets of the
    lower ranks adding up to `r`, read before rank `r` is added.
    """
    none = 8  # more cards than a sum capture takes (seven at most: 1 + 1 + 1 + 1 + 2 + 2 + 2)
    totals = jnp.arange(11)

    def add(carried: tuple[Array, Array], rank: Array) -> tuple[tuple[Array, Array], Any]:
        ways, size = carried  # by total: the subsets, and the fewest cards of one
        options = [(ways, size)]
        for taken in range(1, 5):
            shift = rank * taken
            source = jnp.clip(totals - shift, 0, 10)
            more = jnp.where(totals >= shift, ways[source], 0) * comb(counts[rank - 1], taken)
            options.append((more, jnp.where(more > 0, size[source] + taken, none)))
        if fewest:
            size = functools.reduce(jnp.minimum, [s for _, s in options])
            ways = functools.reduce(jnp.add, [jnp.where(s == size, w, 0) for w, s in options])
        else:
            ways = functools.reduce(jnp.add, [w for w, _ in options])
        return (ways, size), (carried[0][rank], carried[1][rank])

    start = (jnp.where(totals == 0, 1, 0), jnp.where(totals == 0, 0, none))
    (ways, size), (below, fewest_below) = jax.lax.scan(add, start, jnp.arange(1, 10))
    found = jnp.concatenate([jnp.zeros(1, jnp.int32), below, ways[10:]])
    if not fewest:
        return found, jnp.zeros(11, jnp.int32)
    sizes = jnp.concatenate([jnp.zeros(1, jnp.int32), fewest_below, size[10:]])
    return found, jnp.where(found > 0, sizes, 0)


def fifteen_captures(counts: Array) -> Array:
    """By played rank: the captures of table cards adding up to fifteen with it (int32[11]).

    `counts[q - 1]` is the number of table cards of rank `q`. The ranks are added one by
    one, counting the subsets of the table by their total, up to 14; a card of rank `r`
    takes the subsets of total `15 - r`, one card or more.
    """
    totals = jnp.arange(_tables.FIFTEEN)

    def add(ways: Array, rank: Array) -> tuple[Array, None]:
        more = [ways]
        for taken in range(1, 5):
            shift = rank * taken
            source = jnp.clip(totals - shift, 0, _tables.FIFTEEN - 1)
            more.append(jnp.where(totals >= shift, ways[source], 0) * comb(counts[rank - 1], taken))
        return functools.reduce(jnp.add, more), None

    start = jnp.where(totals == 0, 1, 0).astype(jnp.int32)
    ways, _ = jax.lax.scan(add, start, jnp.arange(1, _tables.RANKS + 1))
    played = jnp.arange(_tables.RANKS + 1)
    return jnp.where(played >= 1, ways[jnp.clip(_tables.FIFTEEN - played, 0, 14)], 0)


_SUMS: Final = (_tables.SUPPORT_RANKS, _tables.SUPPORT_COUNTS, _tables.SUPPORT_SIZES)
_FIFTEENS: Final = (_tables.FIFTEEN_RANKS, _tables.FIFTEEN_COUNTS, _tables.FIFTEEN_SIZES)


def kth_sum(table: Array, rank: Array, size: Array, k: Array) -> Array:
    """The `k`-th capture of two or more table cards adding up to `rank` (bool[40]).

    With a `size` (not 0), only the captures of that many cards count.
    """
    return _kth(_SUMS, table, rank, size, k)


def kth_fifteen(table: Array, rank: Array, k: Array) -> Array:
    """The `k`-th capture of table cards adding up to fifteen with a card of `rank` (bool[40])."""
    return _kth(_FIFTEENS, table, rank, jnp.asarray(0), k)


def _kth(
    tables: tuple[np.ndarray, np.ndarray, np.ndarray],
    table: Array,
    rank: Array,
    size: Array,
    k: Array,
) -> Array:
    """The `k`-th capture of the patterns of a played `rank` in `tables` (bool[40]).

    In the order of the legal moves: by set of ranks, then by cards. With a `size` (not 0),
    only the captures of that many cards count. The set of ranks comes first, from the
    number of captures of each; then the cards, from the highest index down: the captures
    without a card come before those with it, so the card is taken when `k` is past them.
    """
    counts_by_rank = jnp.concatenate([jnp.zeros(1, jnp.int32), by_rank(table)])
    ranks = jnp.asarray(tables[0])[rank]  # [support, place]: 0 past the last
    counts = jnp.asarray(tables[1])[rank]  # [support, slot, place]
    sizes = jnp.asarray(tables[2])[rank]  # [support, slot]
    wanted = (sizes >= 0) & ((size == 0) | (sizes == size))
    found = jnp.prod(comb(counts_by_rank[ranks][:, None, :], counts), axis=-1)
    per_support = jnp.sum(jnp.where(wanted, found, 0), axis=1)
    ends = jnp.cumsum(per_support)
    support = jnp.sum(ends <= k)
    k = k - (ends[support] - per_support[support])
    ranks, counts, wanted = ranks[support], counts[support], wanted[support]
    on_table = table.reshape(4, 10)[:, jnp.maximum(ranks - 1, 0)] & (ranks > 0)  # [suit, place]
    places = jnp.arange(_tables.MAX_SUPPORT)

    def decide(step: Array, carried: tuple[Array, ...]) -> tuple[Array, ...]:
        # the cards from the highest index down: suits from the last, ranks from the highest
        k, left, have, ways, taken = carried
        suit = 3 - step // _tables.MAX_SUPPORT
        place = _tables.MAX_SUPPORT - 1 - step % _tables.MAX_SUPPORT
        here = places == place
        candidate = on_table[suit, place]
        remaining = left[place] - candidate.astype(jnp.int32)
        without = jnp.where(here, comb(remaining, counts[:, place] - have[place])[:, None], ways)
        before = jnp.sum(jnp.where(wanted, jnp.prod(without, axis=1), 0))
        take = candidate & (k >= before)
        taking = have[place] + take.astype(jnp.int32)
        ways = jnp.where(here, comb(remaining, counts[:, place] - taking)[:, None], without)
        return (
            k - jnp.where(take, before, 0),
            jnp.where(here, remaining, left),
            jnp.where(here, taking, have),
            ways,
            taken.at[suit, place].set(take),
        )

    left = counts_by_rank[ranks] * (ranks > 0)  # the cards of each place still to decide
    have = jnp.zeros(_tables.MAX_SUPPORT, jnp.int32)  # the cards of each place taken
    ways = comb(left, counts)  # [slot, place]: the ways to complete each pattern
    taken = jnp.zeros((4, _tables.MAX_SUPPORT), bool)
    carried = jax.lax.fori_loop(0, 4 * _tables.MAX_SUPPORT, decide, (k, left, have, ways, taken))
    cards = jnp.arange(4)[:, None] * 10 + ranks - 1  # [suit, place]
    return jnp.zeros(CARDS, bool).at[jnp.where(carried[4], cards, CARDS)].set(True, mode="drop")
