"""The capture tables of the batch engine, built once with numpy at import.

A capture of several table cards adding up to a total has a *pattern*: how many cards of
each rank it takes. On a table holding `c[q]` cards of rank `q`, a pattern stands for
`prod(comb(c[q], m[q]))` captures. The ranks a pattern uses are its *support*; the engine
builds the `k`-th capture in the order of [`legal_moves`][scopa.GameState.legal_moves] (by
set of ranks, then by cards) from these tables, without listing card sets.

Two kinds of capture have tables: by sum (two or more cards of ranks 1 to 9 adding up to
the played card's rank, 2 to 10: 108 patterns, at most 26 supports of a rank and 3
patterns of a support) and to fifteen (one or more cards of any rank adding up to 15 with
the played card: 5 to 14: 373 patterns, at most 66 supports and 5 patterns of a support).
No capture of either kind takes more than 4 ranks.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

RANKS: Final = 10
"""The ranks, Ace (1) to King (10)."""
MOST_OF_A_RANK: Final = 4
"""The cards of one rank."""
MAX_SUPPORT: Final = 4
"""The most ranks a capture takes (1 + 2 + 3 + 4 = 10 for a sum, 1 + 2 + 3 + 8 = 14 to
fifteen)."""
FIFTEEN: Final = 15
"""What a capture to fifteen adds up to with the played card."""


def _patterns(total: int, highest: int, fewest: int) -> list[tuple[int, ...]]:
    """The patterns adding up to `total`: cards taken of each rank 1 to `highest`.

    Only those of at least `fewest` cards, in increasing order of the tuples of counts:
    the counts of rank 1 are chosen first, then those of rank 2, and so on, each from 0 up
    to what the rest of the total allows.
    """
    found: list[tuple[int, ...]] = []

    def extend(counts: tuple[int, ...], left: int) -> None:
        value = len(counts) + 1  # the rank whose count is chosen now
        if value > highest:
            if left == 0 and sum(counts) >= fewest:
                found.append(counts)
            return
        for taken in range(min(MOST_OF_A_RANK, left // value) + 1):
            extend((*counts, taken), left - value * taken)

    extend((), total)
    return found


def _support(pattern: tuple[int, ...]) -> int:
    """A pattern's set of ranks, bit `q - 1` for rank `q` (the order of the legal moves)."""
    return sum(1 << q for q, m in enumerate(pattern) if m)


Table = npt.NDArray[np.int32]
_PATTERNS: Final = [_patterns(rank, RANKS - 1, 2) if rank >= 2 else [] for rank in range(RANKS + 1)]
"""By played rank: the patterns of the captures by sum (two cards or more of ranks 1 to 9)."""
_FIFTEEN_PATTERNS: Final = [
    _patterns(FIFTEEN - rank, RANKS, 1) if rank >= 1 else [] for rank in range(RANKS + 1)
]
"""By played rank: the patterns of the captures to fifteen (one card or more, any rank)."""


def _by_support(by_rank: list[list[tuple[int, ...]]]) -> tuple[Table, Table, Table]:
    """The patterns of each played rank (`by_rank[rank]`) grouped by support, in increasing order.

    Returns `ranks[rank, support, place]`, the support's ranks in increasing order (0
    past its last), `counts[rank, support, slot, place]`, the cards of each of those ranks
    a pattern takes, and `sizes[rank, support, slot]`, the pattern's cards (-1 for an empty
    slot).
    """
    groups: list[dict[int, list[tuple[int, ...]]]] = []  # by rank: the patterns of each support
    for patterns in by_rank:
        grouped: dict[int, list[tuple[int, ...]]] = {}
        for pattern in patterns:
            grouped.setdefault(_support(pattern), []).append(pattern)
        groups.append(grouped)
    supports = max(len(grouped) for grouped in groups)
    slots = max(len(found) for grouped in groups for found in grouped.values())
    ranks = np.zeros((RANKS + 1, supports, MAX_SUPPORT), dtype=np.int32)
    counts = np.zeros((RANKS + 1, supports, slots, MAX_SUPPORT), dtype=np.int32)
    sizes = np.full((RANKS + 1, supports, slots), -1, dtype=np.int32)
    for rank, grouped in enumerate(groups):
        for place, support in enumerate(sorted(grouped)):
            used = [q for q in range(RANKS) if support >> q & 1]
            ranks[rank, place, : len(used)] = [q + 1 for q in used]
            for slot, pattern in enumerate(grouped[support]):
                counts[rank, place, slot, : len(used)] = [pattern[q] for q in used]
                sizes[rank, place, slot] = sum(pattern)
    return ranks, counts, sizes


SUPPORT_RANKS, SUPPORT_COUNTS, SUPPORT_SIZES = _by_support(_PATTERNS)
"""The patterns of the sums of each played rank by support, in the order of the legal
moves: the support's ranks, the cards of each a pattern takes, and the pattern's cards (-1:
no pattern)."""
FIFTEEN_RANKS, FIFTEEN_COUNTS, FIFTEEN_SIZES = _by_support(_FIFTEEN_PATTERNS)
"""The same for the captures to fifteen of each played rank."""
