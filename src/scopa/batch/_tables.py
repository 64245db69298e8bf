"""The capture tables of the batch engine, built once with numpy at import.

A capture of two or more cards adding up to a rank `r` has a *pattern*: how many cards of
each rank 1 to 9 it takes. There are 108 patterns for the ranks 2 to 10, at most 26 rank
sets (the ranks a pattern uses, its *support*) per rank, at most 4 ranks in a support and
at most 3 patterns per support. On a table holding `c[q]` cards of rank `q`, a pattern
stands for `prod(comb(c[q], m[q]))` captures. The engine builds the `k`-th capture in the
order of [`legal_moves`][scopa.GameState.legal_moves] (by set of ranks, then by cards)
from these tables, without listing card sets.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

RANKS: Final = 10
"""The ranks, Ace (1) to King (10)."""
MOST_OF_A_RANK: Final = 4
"""The cards of one rank."""
MAX_SET: Final = 7
"""The most cards a sum capture takes (1 + 1 + 1 + 1 + 2 + 2 + 2 = 10)."""
MAX_SUPPORT: Final = 4
"""The most ranks a sum capture takes (1 + 2 + 3 + 4 = 10)."""


def _patterns(rank: int) -> list[tuple[int, ...]]:
    """The patterns adding up to `rank`: cards taken of each rank 1 to 9, two cards or more.

    In increasing order of the tuples of counts: the counts of rank 1 are chosen first,
    then those of rank 2, and so on, each from 0 up to what the rest of the sum allows.
    """
    found: list[tuple[int, ...]] = []

    def extend(counts: tuple[int, ...], left: int) -> None:
        value = len(counts) + 1  # the rank whose count is chosen now
        if value == RANKS:
            if left == 0 and sum(counts) >= 2:
                found.append(counts)
            return
        for taken in range(min(MOST_OF_A_RANK, left // value) + 1):
            extend((*counts, taken), left - value * taken)

    extend((), rank)
    return found


def _support(pattern: tuple[int, ...]) -> int:
    """A pattern's set of ranks, bit `q - 1` for rank `q` (the order of the legal moves)."""
    return sum(1 << q for q, m in enumerate(pattern) if m)


Table = npt.NDArray[np.int32]
_PATTERNS: Final = [_patterns(rank) if rank >= 2 else [] for rank in range(RANKS + 1)]


def _by_support(by_rank: list[list[tuple[int, ...]]]) -> tuple[Table, Table, Table]:
    """The patterns of each rank (`by_rank[rank]`) grouped by support, in increasing order.

    Returns `ranks[rank, support, place]`, the support's ranks in increasing order (0
    past its last), `counts[rank, support, slot, place]`, the cards of each of those ranks
    a pattern takes, and `sizes[rank, support, slot]`, the pattern's cards (-1 for an empty
    slot).
    """
    supports = max(len({_support(p) for p in patterns}) for patterns in by_rank)
    slots = 3
    ranks = np.zeros((RANKS + 1, supports, MAX_SUPPORT), dtype=np.int32)
    counts = np.zeros((RANKS + 1, supports, slots, MAX_SUPPORT), dtype=np.int32)
    sizes = np.full((RANKS + 1, supports, slots), -1, dtype=np.int32)
    for rank, patterns in enumerate(by_rank):
        for place, support in enumerate(sorted({_support(p) for p in patterns})):
            used = [q for q in range(RANKS - 1) if support >> q & 1]
            ranks[rank, place, : len(used)] = [q + 1 for q in used]
            grouped = [p for p in patterns if _support(p) == support]
            assert len(grouped) <= slots
            for slot, pattern in enumerate(grouped):
                counts[rank, place, slot, : len(used)] = [pattern[q] for q in used]
                sizes[rank, place, slot] = sum(pattern)
    return ranks, counts, sizes


SUPPORT_RANKS, SUPPORT_COUNTS, SUPPORT_SIZES = _by_support(_PATTERNS)
"""The patterns of each rank by support, in the order of the legal moves: the support's
ranks, the cards of each a pattern takes, and the pattern's cards (-1: no pattern)."""
