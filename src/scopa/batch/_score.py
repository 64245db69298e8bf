"""The scoring of a hand on the batch engine: the library's scoring components in JAX.

Each of the library's components ([`COMPONENTS`][scopa.COMPONENTS]) has a function
here that gives, from what each side took, the same points as its `score` method and the
side its category makes win the match outright (-1 for none), as its
`CategoryScore.wins_match`. A test checks that every component has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from scopa._checks import quote
from scopa.errors import RulesError
from scopa.rules import Rules
from scopa.scoring import (
    COMPONENTS,
    AssoDueTre,
    CardPoints,
    Carte,
    Declarations,
    Denari,
    Grande,
    MissingSuit,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    ReBello,
    Scope,
    ScoringComponent,
    Settebello,
)

Array = jax.Array

_LOWEST: Final = int(np.iinfo(np.int32).min)
"""Below every figure: what an ineligible side shows."""
_SEVEN_OF_DENARI: Final = 6
_KING_OF_DENARI: Final = 9
_SEVEN: Final = 6  # the index of rank 7 among the ranks 1 to 10


class Taken(NamedTuple):
    """What the sides took in a hand, as the components score it (`Captures`)."""

    piles: Array
    """`bool[sides, 40]`: the cards each side captured."""
    scope: Array
    """`int32[sides]`: the scope each side made."""
    declared: Array
    """`int32[sides]`: the points each side declared."""
    suits: tuple[int, ...]
    """The suits in play (not traced)."""


Points = tuple[Array, Array]
"""A category's points (`int32[sides]`) and the side it makes win the match (-1: none)."""
_NOBODY: Final = -1


def _nobody(points: Array) -> Points:
    return points.astype(jnp.int32), jnp.asarray(_NOBODY, jnp.int32)


def _winner(wins: Array) -> Array:
    """The first side for which `wins` holds, or -1."""
    return jnp.where(jnp.any(wins), jnp.argmax(wins), _NOBODY).astype(jnp.int32)


def strict_max(figures: Array, eligible: Array) -> Array:
    """One point (int32) to the unique eligible side with the highest figure."""
    shown = jnp.where(eligible, figures, _LOWEST)
    winners = eligible & (shown == jnp.max(shown))
    return (winners & (jnp.sum(winners) == 1)).astype(jnp.int32)


def _scope(component: Scope, hand: Taken) -> Points:
    return _nobody(hand.scope * component.value)


def _most(component: Carte | Denari, hand: Taken) -> Points:
    cards = hand.piles if isinstance(component, Carte) else hand.piles[:, :10]
    counts = jnp.sum(cards, axis=1, dtype=jnp.int32)
    threshold = component.threshold
    eligible = jnp.ones_like(counts, bool) if threshold is None else counts >= threshold
    return _nobody(strict_max(counts, eligible))


def _settebello(component: Settebello, hand: Taken) -> Points:
    return _nobody(hand.piles[:, _SEVEN_OF_DENARI])


def _re_bello(component: ReBello, hand: Taken) -> Points:
    return _nobody(hand.piles[:, _KING_OF_DENARI])


def _napola(component: Napola, hand: Taken) -> Points:
    run = jnp.sum(jnp.cumprod(hand.piles[:, :10], axis=1), axis=1, dtype=jnp.int32)
    points = jnp.where(run >= 3, jnp.minimum(run, component.most), 0)
    winner = _winner(run == 10) if component.napoleone_wins_match else jnp.asarray(_NOBODY)
    return points.astype(jnp.int32), winner.astype(jnp.int32)


def _grande(component: Grande, hand: Taken) -> Points:
    run = jnp.sum(jnp.cumprod(hand.piles[:, 9:4:-1], axis=1), axis=1, dtype=jnp.int32)
    return _nobody(jnp.where(run >= 3, run + 2 if component.extends else 5, 0))


def _asso_due_tre(component: AssoDueTre, hand: Taken) -> Points:
    points = jnp.sum(hand.piles[:, :3] * jnp.arange(1, 4), axis=1, dtype=jnp.int32)
    winner = _winner(points == 6) if component.trio_wins_match else jnp.asarray(_NOBODY)
    return points, winner.astype(jnp.int32)


def _ponino(component: Ponino, hand: Taken) -> Points:
    knights = jnp.all(hand.piles.reshape(-1, 4, 10)[:, :, 8], axis=1)
    return _nobody(jnp.where(knights, hand.scope, 0))


def _card_points(component: CardPoints, hand: Taken) -> Points:
    scoring = np.isin(np.arange(40) % 10 + 1, component.ranks)
    counts = jnp.sum(hand.piles & scoring, axis=1, dtype=jnp.int32)
    return _nobody(counts * component.value)


def _declarations(component: Declarations, hand: Taken) -> Points:
    return _nobody(hand.declared)


def _primiera(component: Primiera, hand: Taken) -> Points:
    suits = hand.piles.reshape(-1, 4, 10)
    counts = jnp.sum(suits, axis=1, dtype=jnp.int32)  # [side, rank - 1]
    sevens = counts[:, _SEVEN]
    bonus = jnp.where(sevens == 4, component.all_sevens, 0) if component.all_sevens else 0
    return _nobody(_compared(component, suits, counts, hand.suits) + bonus)


def _compared(component: Primiera, suits: Array, counts: Array, in_play: tuple[int, ...]) -> Array:
    """The point of primiera's comparison, without the bonus for all four sevens."""
    sevens = counts[:, _SEVEN]
    everyone = jnp.ones_like(sevens, bool)
    rule = component.rule
    if rule is PrimieraRule.SETTANTA_3_SEVENS:
        return (sevens >= 3).astype(jnp.int32)
    if rule is PrimieraRule.MOST_SEVENS:
        return strict_max(sevens, everyone)
    if rule is PrimieraRule.MOST_SEVENS_CASCADE:
        # the counts of 7, 6, Ace, 5, 4, 3, 2 compared in turn: one number
        key = jnp.zeros_like(sevens)
        for rank in (7, 6, 1, 5, 4, 3, 2):
            key = key * 5 + counts[:, rank - 1]
        return strict_max(key, everyone)
    held = jnp.any(suits, axis=2)  # [side, suit]
    eligible = jnp.all(held[:, list(in_play)], axis=1)
    if component.missing_suit is MissingSuit.ZERO:
        eligible = everyone
    values = jnp.asarray(component.table.values, jnp.int32)
    if rule is PrimieraRule.BEST_CARDS:
        # the best card of each suit held, sorted from the highest, compared card by card;
        # with 1 added, 0 stands for a suit not held, after those held: one number, in
        # which a side holding fewer suits loses a tie of those it holds, as tuples compare
        best = jnp.max(jnp.where(suits, values + 1, 0), axis=2)  # [side, suit]
        ranked = -jnp.sort(-best, axis=1)
        key = jnp.zeros_like(sevens)
        for place in range(4):
            key = key * 102 + ranked[:, place]
        return strict_max(key, eligible)
    best = jnp.max(jnp.where(suits, values, 0), axis=2)  # [side, suit]
    return strict_max(jnp.sum(best, axis=1), eligible)


_SCORERS: Final[dict[type[Any], Callable[[Any, Taken], Points]]] = {
    Scope: _scope,
    Carte: _most,
    Denari: _most,
    Settebello: _settebello,
    Primiera: _primiera,
    ReBello: _re_bello,
    Napola: _napola,
    Grande: _grande,
    AssoDueTre: _asso_due_tre,
    Ponino: _ponino,
    CardPoints: _card_points,
    Declarations: _declarations,
}
"""The function of each of the library's components ([`COMPONENTS`][scopa.COMPONENTS])."""


def check_components(rules: Rules) -> None:
    """Refuse rules with a scoring component that is not one of the library's own.

    Raises:
        RulesError: a component of your own (the message names it and says what to do).
    """
    for component in rules.scoring.components:
        if type(component) not in COMPONENTS:
            names = ", ".join(kind.__name__ for kind in COMPONENTS)
            raise RulesError(
                f"the batch engine does not score the component {quote(component.name)} "
                f"({type(component).__name__}) of rules {rules.name!r}: it scores the "
                f"library's own components, those of scopa.COMPONENTS ({names}), each "
                f"written in JAX. Make the category of those, or play these rules on the "
                f"scalar engine (GameState, Match); to add a component to the batch engine, "
                f"list its class in scopa.COMPONENTS and write its scoring in JAX in "
                f"scopa/batch/_score.py"
            )


def score(components: tuple[ScoringComponent, ...], hand: Taken) -> Points:
    """The points of each category for each side, and the side that wins the match outright.

    The points are `int32[categories, sides]`; the side is the first category's that has
    one (-1 for none).
    """
    points = []
    winner = jnp.asarray(_NOBODY, jnp.int32)
    found = [_SCORERS[type(component)](component, hand) for component in components]
    for got, wins in reversed(found):
        winner = jnp.where(wins >= 0, wins, winner)
        points.append(got)
    return jnp.stack(points[::-1]), winner
