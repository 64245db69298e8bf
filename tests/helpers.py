"""Small helpers shared by the known-answer tests."""

from __future__ import annotations

import re
from collections.abc import Iterable

from scopa import DECK, Card

_RUN = re.compile(r"(\d+)-(\d+)([DCSB])")


def card_list(text: str) -> list[Card]:
    """The cards of a space-separated list such as `"3C 4S 1-5D"`, in the order written."""
    found: list[Card] = []
    for token in text.split():
        run = _RUN.fullmatch(token)
        if run is None:
            found.append(Card.parse(token))
        else:
            low, high, suit = int(run[1]), int(run[2]), run[3]
            found.extend(Card.parse(f"{rank}{suit}") for rank in range(low, high + 1))
    assert len(set(found)) == len(found), f"a card is repeated in {text!r}"
    return found


def cards(text: str) -> frozenset[Card]:
    """The cards of a space-separated list such as `"3C 4S 1-5D"`."""
    return frozenset(card_list(text))


def rest_of(*groups: Iterable[Card]) -> frozenset[Card]:
    """Every card of the deck that is in none of the groups."""
    used: set[Card] = set()
    for group in groups:
        used.update(group)
    return frozenset(card for card in DECK if card not in used)
