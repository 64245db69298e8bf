"""Adapters to game and learning frameworks, one module per framework.

Each module imports its framework when it is imported, and this package imports none of
them, so `import scopa` never needs a framework. Install the matching extra first:

| module | framework | extra | provides |
|---|---|---|---|
| `scopa.adapters.openspiel` | OpenSpiel | `scopa[openspiel]` | the game `"python_scopa"` |
| `scopa.adapters.pettingzoo` | PettingZoo | `scopa[pettingzoo]` | `ScopaEnv`, an AEC environment |
| `scopa.adapters.gymnasium` | Gymnasium | `scopa[gymnasium]` | `ScopaGymEnv`, one learner's seat |

All three play one hand per game or episode, act with the action ids of
[`scopa.encoding`][scopa.encoding], and pay at the end of the hand what
[`hand_returns`][scopa.adapters.hand_returns] says. The helpers below need no framework.

Examples:
    >>> from scopa import GameState, find_variant
    >>> state = GameState.new(find_variant("classic"), seed=5)
    >>> while not state.is_terminal:
    ...     state = state.apply(state.legal_moves()[0])
    >>> returns = hand_returns(state)
    >>> returns[0] == -returns[1]
    True
"""

from __future__ import annotations

import math

from scopa.encoding import ObservationLayout
from scopa.rules import Rules, find_variant
from scopa.scoring import Carte, Denari, Napola, Primiera, ReBello, Scope, Settebello
from scopa.state import GameState

__all__ = [
    "UNKNOWN_COMPONENT_BOUND",
    "hand_returns",
    "observation_high",
    "return_bound",
    "rules_of",
]

UNKNOWN_COMPONENT_BOUND = 40
"""The most points per hand [`return_bound`][scopa.adapters.return_bound] assumes for a
scoring component it does not know."""


def rules_of(variant: str | Rules) -> Rules:
    """The rules a `variant` argument names: a preset name or alias, or `Rules` as they are.

    Raises:
        RulesError: no preset has that name.
        TypeError: `variant` is neither a string nor `Rules`.
    """
    if isinstance(variant, Rules):
        return variant
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a preset name or Rules, not {type(variant).__name__}")
    return find_variant(variant)


def hand_returns(state: GameState) -> tuple[float, ...]:
    """Each player's return: their side's points minus the best other side's points.

    The points are those of [`GameState.hand_score`][scopa.GameState.hand_score], final
    once the hand is over. Partners get the same return. With two sides the returns add up
    to zero. With more sides they do not: the side alone at the top gets its lead over the
    runner-up, every other side minus its gap to the top, and sides tied at the top get 0.
    Under rules where the lowest total wins (`lowest_total_wins`), points count against a
    side: its return is the best other side's points minus its own.
    """
    rules = state.rules
    points = state.hand_score().points
    sign = -1 if rules.lowest_total_wins else 1
    by_side = []
    for side, own in enumerate(points):
        best_other = max(sign * p for s, p in enumerate(points) if s != side)
        by_side.append(float(sign * own - best_other))
    return tuple(by_side[rules.side_of(player)] for player in range(rules.players))


def return_bound(rules: Rules) -> float:
    """A bound on the size of any return of [`hand_returns`][scopa.adapters.hand_returns].

    It is the most points one side can score in a hand: a scopa at each of the side's
    plays, the run of denari for the napola, one point for each other standard category,
    and [`UNKNOWN_COMPONENT_BOUND`][scopa.adapters.UNKNOWN_COMPONENT_BOUND] for a scoring
    component of your own. Returns lie between minus the bound and the bound.
    """
    side_plays = math.ceil(rules.plays_per_hand / rules.number_of_sides)
    bound = 0
    for component in rules.scoring.components:
        if isinstance(component, Scope):
            bound += abs(component.value) * side_plays
        elif isinstance(component, Napola):
            bound += 10
        elif isinstance(component, (Carte, Denari, Settebello, ReBello, Primiera)):
            bound += 1
        else:
            bound += UNKNOWN_COMPONENT_BOUND
    return float(max(bound, 1))


def observation_high(rules: Rules) -> tuple[float, ...]:
    """The largest value of each entry of [`observation`][scopa.encoding.observation].

    Every entry is at most 1, except the scope counts, which are at most the number of
    plays in a hand, and the declared points, which are at most 10 for each deal of a hand.
    Every entry is at least 0.
    """
    layout = ObservationLayout.of(rules.players, rules.declarations)
    high = [1.0] * layout.size
    high[layout.scope] = [float(rules.plays_per_hand)] * rules.players
    deals = rules.plays_per_hand // (rules.players * rules.hand_size)
    high[layout.declared] = [10.0 * deals] * (rules.players if rules.declarations else 0)
    return tuple(high)


class _PositionHolder:
    """The part of the environments that holds the hand being played."""

    _state: GameState | None = None

    @property
    def position(self) -> GameState:
        """The scopa position of the hand being played.

        Raises:
            RuntimeError: the environment has not been reset.
        """
        if self._state is None:
            raise RuntimeError("call reset() before reading the hand")
        return self._state
