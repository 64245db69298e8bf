"""The cards in play: the `ranks` and `suits` knobs of `Rules`, and what they rule out (internal).

A game may be played with a subset of the 40 cards: the cards whose rank is among the
`ranks` and whose suit is among the `suits`. Cards keep their index (so masks and
encodings keep their sizes); the cards out of play are set aside before dealing. Rules that
name cards out of play (the settebello without the 7 of denari, the napola without the
low denari…) are refused here, with the knob that rules them out.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, TypeVar

from scopa._checks import is_int, quote
from scopa.cards import Card, Rank, Suit
from scopa.errors import RulesError
from scopa.masks import CardMask
from scopa.scoring import (
    AssoDueTre,
    CardPoints,
    Carte,
    Denari,
    Grande,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    ReBello,
    ScoringComponent,
    Settebello,
)

if TYPE_CHECKING:
    from scopa.rules import Rules

ALL_RANKS: Final = tuple(Rank)
"""The ten ranks, the default of `Rules.ranks`."""
ALL_SUITS: Final = tuple(Suit)
"""The four suits, the default of `Rules.suits`."""

_E = TypeVar("_E", Rank, Suit)


def _members(kind: type[_E], value: object, knob: str) -> tuple[_E, ...]:
    """`value` as a sorted tuple of distinct members of `kind`, checked."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{knob} must be a tuple of {kind.__name__}s, not {quote(value)}")
    items = tuple(value)
    low, high = int(min(kind)), int(max(kind))
    for item in items:
        if not is_int(item):
            raise TypeError(f"{knob} must hold {kind.__name__}s or ints, not {quote(item)}")
        if not low <= item <= high:
            raise RulesError(
                f"{knob} must hold {kind.__name__}s from {low} to {high}, not {quote(item)}"
            )
    if not items:
        raise RulesError(f"{knob} must name at least one {kind.__name__.lower()} in play")
    return tuple(kind(item) for item in sorted(set(items)))


def to_ranks(value: Iterable[int]) -> tuple[Rank, ...]:
    """The `ranks` knob: the ranks in play, sorted and distinct.

    Raises:
        RulesError: no rank, or a number that is not a rank.
        TypeError: not an iterable of ints.
    """
    return _members(Rank, value, "ranks")


def to_suits(value: Iterable[int]) -> tuple[Suit, ...]:
    """The `suits` knob: the suits in play, sorted and distinct.

    Raises:
        RulesError: no suit, or a number that is not a suit.
        TypeError: not an iterable of ints.
    """
    return _members(Suit, value, "suits")


@functools.cache
def in_play_mask(ranks: tuple[Rank, ...], suits: tuple[Suit, ...]) -> CardMask:
    """The mask of the cards of these ranks and suits."""
    mask = 0
    for suit in suits:
        for rank in ranks:
            mask |= 1 << (10 * suit + rank - 1)
    return CardMask(mask)


def _named(cards: Iterable[Card], mask: int) -> str | None:
    """The first of `cards` out of play, as text, or `None` when all are in play."""
    for card in cards:
        if not mask >> card.index & 1:
            return str(card)
    return None


def _denari(*ranks: int) -> tuple[Card, ...]:
    return tuple(Card(Rank(rank), Suit.DENARI) for rank in ranks)


def _why_component(component: ScoringComponent, rules: Rules) -> str | None:
    """Why a library category cannot be scored with the cards in play, if it cannot."""
    mask = rules.in_play_mask
    name = repr(component.name)
    needed: tuple[Card, ...] = ()
    if isinstance(component, Settebello):
        needed = _denari(7)
    elif isinstance(component, ReBello):
        needed = _denari(10)
    elif isinstance(component, (Napola, AssoDueTre)):
        needed = _denari(1, 2, 3)
    elif isinstance(component, Grande):
        needed = _denari(8, 9, 10)
    elif isinstance(component, Ponino):
        needed = tuple(Card(Rank.CAVALLO, suit) for suit in Suit)
    missing = _named(needed, mask)
    if missing is not None:
        return f"{name} scores the {missing}, which is not in play"
    napoleone = isinstance(component, Napola) and component.napoleone_wins_match
    if napoleone and rules.ranks != ALL_RANKS:
        return f"{name} wins the match with all ten denari, which are not all in play"
    if isinstance(component, Denari):
        if Suit.DENARI not in rules.suits:
            return f"{name} counts the denari, which are not in play"
        if component.threshold is not None and component.threshold > len(rules.ranks):
            return f"{name} needs {component.threshold} denari of the {len(rules.ranks)} in play"
    if (
        isinstance(component, Carte)
        and component.threshold is not None
        and component.threshold > rules.deck_size
    ):
        return f"{name} needs {component.threshold} cards of the {rules.deck_size} in play"
    if isinstance(component, CardPoints) and not set(component.ranks) & set(rules.ranks):
        return f"{name} scores ranks {list(component.ranks)}, none of them in play"
    if isinstance(component, Primiera):
        return _why_primiera(component, rules)
    return None


def _why_primiera(component: Primiera, rules: Rules) -> str | None:
    """Why a primiera cannot be scored with the cards in play, if it cannot."""
    name = repr(component.name)
    sevens = len(rules.suits) if Rank.SETTE in rules.ranks else 0
    if component.all_sevens and sevens < 4:
        return f"{name} gives points for all four sevens, which are not all in play"
    if component.rule is PrimieraRule.SETTANTA_3_SEVENS and sevens < 3:
        return f"{name} needs three sevens, and only {sevens} are in play"
    if component.rule is PrimieraRule.MOST_SEVENS and not sevens:
        return f"{name} counts the sevens, which are not in play"
    return None


def why_out_of_play(rules: Rules) -> str | None:
    """Why `rules` cannot be played with their cards in play, or `None` if they can.

    The deal must fit the deck, the matta be in play, and every library scoring category
    find the cards it scores.
    """
    cards = rules.deck_size
    per_deal = rules.players * rules.hand_size
    dealt = cards - rules.table_size
    if dealt < per_deal or dealt % per_deal:
        return (
            f"{dealt} cards after the table (of {cards} in play) do not split into deals of "
            f"{rules.hand_size} cards to each of {rules.players} players"
        )
    if rules.matta is not None and not rules.in_play_mask >> rules.matta.index & 1:
        return f"the matta {rules.matta} is not in play"
    for component in rules.scoring.components:
        why = _why_component(component, rules)
        if why is not None:
            return why
    return None
