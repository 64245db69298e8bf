"""The capture tables of the batch engine, built once with numpy from the scalar ones.

Every set of two or more cards whose ranks add up to a rank `r` (2 to 10) is listed once,
as two words (card bits 0–31 and 32–39), with its rank and its number of cards. The sets
come in two orders: rank by rank in the order of
[`legal_moves`][scopa.GameState.legal_moves] (by set of ranks, then by cards), to find the
`k`-th capture of a card; and rank by rank, size by size, to count the captures of each
size with one running sum.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from scopa.encoding import _SUM_SETS

RANKS: Final = 10
"""The ranks, Ace (1) to King (10)."""
MAX_SET: Final = 7
"""The most cards a sum capture takes (1 + 1 + 1 + 1 + 2 + 2 + 2 = 10)."""


def _ranks_of(mask: int) -> int:
    """The set of ranks of some cards (bit r - 1 for rank r), as in `scopa.moves`."""
    return (mask | mask >> 10 | mask >> 20 | mask >> 30) & 1023


def _play_order(rank: int) -> list[int]:
    """The sets adding up to `rank` in the order of `legal_moves`: rank set, then cards."""
    return sorted(_SUM_SETS[rank], key=lambda mask: (_ranks_of(mask), mask))


class SetTable:
    """One listing of the sum sets: words, ranks and sizes, and where each group starts."""

    def __init__(self, masks: list[int], ranks: list[int]) -> None:
        self.low: Final = np.array([m & 0xFFFFFFFF for m in masks], dtype=np.uint32)
        self.high: Final = np.array([m >> 32 for m in masks], dtype=np.uint32)
        self.rank: Final = np.array(ranks, dtype=np.int32)
        self.size: Final = np.array([m.bit_count() for m in masks], dtype=np.int32)


def _play_table() -> SetTable:
    masks: list[int] = []
    ranks: list[int] = []
    for rank in range(1, RANKS + 1):
        found = _play_order(rank)
        masks += found
        ranks += [rank] * len(found)
    return SetTable(masks, ranks)


def _count_table() -> tuple[SetTable, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The sets by rank and size, and where each (rank, size) group starts and stops.

    `starts[r, s]` and `stops[r, s]` bound the sets of rank `r` and `s` cards (ranks 0 to
    10, sizes 0 to `MAX_SET`; the groups that cannot occur are empty).
    """
    masks: list[int] = []
    ranks: list[int] = []
    starts = np.zeros((RANKS + 1, MAX_SET + 1), dtype=np.int32)
    stops = np.zeros((RANKS + 1, MAX_SET + 1), dtype=np.int32)
    for rank in range(RANKS + 1):
        for size in range(MAX_SET + 1):
            starts[rank, size] = len(masks)
            found = [m for m in _SUM_SETS[rank] if m.bit_count() == size]
            masks += found
            ranks += [rank] * len(found)
            stops[rank, size] = len(masks)
    return SetTable(masks, ranks), starts, stops


PLAY: Final = _play_table()
"""The sum sets in the order of the legal moves."""
COUNT, COUNT_STARTS, COUNT_STOPS = _count_table()
"""The sum sets by rank and size, and where each group starts and stops."""
