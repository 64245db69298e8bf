"""Sets of cards as 40-bit masks, the library's fast inside.

A card's bit is its [`index`][scopa.Card.index] (`10 * suit + rank - 1`), so `1D` is bit 0
and `10B` bit 39. States, views and moves show their cards as `frozenset`s of
[`Card`][scopa.Card]s, and also as masks (`table_mask`, `hand_masks`, `captured_mask`…) for
code that needs speed, such as encodings for learning agents.

Examples:
    >>> from scopa import Card
    >>> mask = mask_of([Card.parse("1D"), Card.parse("10B")])
    >>> mask == 1 | 1 << 39, list(bits(mask)), cards_of(mask)
    (True, [0, 39], (Card.parse('1D'), Card.parse('10B')))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, NewType

from scopa.cards import DECK, Card

__all__ = ["ALL_CARDS", "RANK_MASKS", "CardMask", "bits", "cards_of", "mask_of"]

CardMask = NewType("CardMask", int)
"""A set of cards: bit `i` is set for the card of index `i`."""

ALL_CARDS = CardMask((1 << 40) - 1)
"""The mask of the 40 cards."""

RANK_MASKS: tuple[CardMask, ...] = tuple(
    CardMask(sum(1 << (10 * suit + rank - 1) for suit in range(4)) if rank else 0)
    for rank in range(11)
)
"""`RANK_MASKS[r]`: the mask of the four cards of rank `r` (`RANK_MASKS[0]` is empty)."""

# For each suit, the cards of every 10-bit chunk of a mask.
_SUIT_CARDS: Final = tuple(
    tuple(tuple(DECK[10 * suit + i] for i in range(10) if m >> i & 1) for m in range(1024))
    for suit in range(4)
)


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return CardMask(mask)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in index order."""
    d, c, s, b = _SUIT_CARDS
    return d[mask & 1023] + c[mask >> 10 & 1023] + s[mask >> 20 & 1023] + b[mask >> 30 & 1023]


def bits(mask: int) -> Iterator[int]:
    """The card indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
