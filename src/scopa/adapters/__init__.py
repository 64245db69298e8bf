"""Adapters to game and learning frameworks, one module per framework.

Each module imports its framework when it is imported, and this package imports none of
them, so `import scopa` never needs a framework. Install the matching extra first:

| module | framework | extra | provides |
|---|---|---|---|
| `scopa.adapters.openspiel` | OpenSpiel | `scopa[openspiel]` | the game `"python_scopa"` |
| `scopa.adapters.pettingzoo` | PettingZoo | `scopa[pettingzoo]` | `ScopaEnv`, an AEC environment |
| `scopa.adapters.gymnasium` | Gymnasium | `scopa[gymnasium]` | `ScopaGymEnv`, one learner's seat |
| `scopa.adapters.gymnasium_batch` | Gymnasium | `scopa[jax,gymnasium]` | `ScopaVectorEnv` |
| `scopa.adapters.pgx` | pgx | `scopa[pgx]` | `Scopa`, a `pgx.Env` |

All act with the action ids of [`scopa.encoding`][scopa.encoding]. For the first three, a
game (OpenSpiel) or an episode (the environments) is one hand by default, paid at its end
as [`hand_returns`][scopa.adapters.hand_returns] says, or with `episode="match"` a whole
[`Match`][scopa.Match] to the rules' target, hand after hand, paid at its end as
[`match_returns`][scopa.adapters.match_returns] says; observations then also carry each
side's match totals ([`match_totals_seen`][scopa.adapters.match_totals_seen]). The two on
the batch engine ([`scopa.batch`][scopa.batch]) pay as their frameworks do: the vector
environment plays one hand and pays `hand_returns`; the pgx environment plays one hand,
or with `episode="match"` a whole match ([`MatchEnv`][scopa.batch.MatchEnv]), and pays
zero-sum rewards between -1 and 1, as pgx's games pay (a hand's scaled by
[`return_bound`][scopa.adapters.return_bound]). The helpers below need no framework.

**Move facts.** Each adapter can add to its observations, as an option that is off by
default, [`legal_move_facts`][scopa.encoding.legal_move_facts] of the observer's view: 2,160
numbers that say what each legal move does (what it wins, whether it sweeps, what it
leaves), so that a network need not first learn from the cards which move captures what.
Gymnasium and PettingZoo take `move_facts=True` and add a `"move_facts"` entry to the
observation dict; OpenSpiel takes the game parameter `move_facts=True` and appends them to
its observation and information-state tensors. They are all 0 when the observer is not to
move. The facts are laid out by compact id (the `k`-th legal move of the card of index `c`
in slot `3 c + k`) under either encoding: under the flat one, a slot's move has the flat id
[`action_of`][scopa.encoding.action_of] gives, not a fixed one. The vector environment of
`scopa.adapters.gymnasium_batch` and the pgx environment do not offer them (the batch
engine gives them with [`Env.move_facts`][scopa.batch.Env.move_facts]).

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
from typing import Literal

from scopa._checks import quote
from scopa.board import match_text, state_text
from scopa.encoding import ObservationLayout
from scopa.errors import InvalidArgumentError
from scopa.match import Match
from scopa.rules import Rules, find_variant
from scopa.scoring import CardPoints, Carte, Denari, Napola, Primiera, ReBello, Scope, Settebello
from scopa.state import GameState

__all__ = [
    "MATCH_TOTAL_CAP",
    "UNKNOWN_COMPONENT_BOUND",
    "Episode",
    "MatchReward",
    "check_episode",
    "hand_returns",
    "match_returns",
    "match_totals_seen",
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


Episode = Literal["hand", "match"]
"""What an environment's episode is: one hand, or a whole match to the rules' target."""

MatchReward = Literal["win", "stakes"]
"""How a match episode pays: by who won, or by the rules' stakes."""


def check_episode(rules: Rules, episode: Episode, match_reward: MatchReward) -> None:
    """Check the `episode` and `match_reward` arguments of an environment.

    Raises:
        InvalidArgumentError: an unknown episode or match reward, or a reward by stakes
            for a match whose rules have none.
    """
    if episode not in ("hand", "match"):
        raise InvalidArgumentError(f"episode must be 'hand' or 'match', not {quote(episode)}")
    if match_reward not in ("win", "stakes"):
        raise InvalidArgumentError(
            f"match_reward must be 'win' or 'stakes', not {quote(match_reward)}"
        )
    if episode == "match" and match_reward == "stakes" and rules.stakes is None:
        raise InvalidArgumentError(f"{rules.name} has no stakes: use match_reward='win'")


def match_returns(match: Match, reward: MatchReward = "win") -> tuple[float, ...]:
    """Each player's return for a match: 0 until it is over.

    Once it is over, with `reward="win"`: 1 for the players of the winning side, -1 for the
    others. With `reward="stakes"`: the settlement of the player's side under the rules'
    stakes (such as the tretre brilli) minus the best other side's.

    Raises:
        InvalidArgumentError: an unknown reward, or `"stakes"` for rules without stakes.
    """
    rules = match.rules
    check_episode(rules, "match", reward)
    if not match.is_over:
        return (0.0,) * rules.players
    if reward == "win":
        return tuple(
            1.0 if rules.side_of(player) == match.winner else -1.0
            for player in range(rules.players)
        )
    settlement = match.settlement
    assert settlement is not None  # the rules have stakes
    by_side = [
        float(own - max(other for s, other in enumerate(settlement) if s != side))
        for side, own in enumerate(settlement)
    ]
    return tuple(by_side[rules.side_of(player)] for player in range(rules.players))


MATCH_TOTAL_CAP = 2.0
"""The most [`match_totals_seen`][scopa.adapters.match_totals_seen] shows of a total: twice
the target (only sides tied at the top play on past the target)."""


def match_totals_seen(match: Match, player: int) -> list[float]:
    """Each side's match total divided by the target, from `player`'s side on.

    The first value is the player's side's, then the sides after it in side order; each is
    at most [`MATCH_TOTAL_CAP`][scopa.adapters.MATCH_TOTAL_CAP]. Match observations end
    with these values.
    """
    rules = match.rules
    sides = rules.number_of_sides
    own = rules.side_of(player)
    totals = match.totals
    return [min(totals[(own + k) % sides] / rules.target, MATCH_TOTAL_CAP) for k in range(sides)]


def return_bound(rules: Rules) -> float:
    """A bound on the size of any return of [`hand_returns`][scopa.adapters.hand_returns].

    It is the most points one side can score in a hand: a scopa at each of the side's
    plays, the run of denari for the napola, every card of the scoring ranks for card
    points, one point for each other standard category, and
    [`UNKNOWN_COMPONENT_BOUND`][scopa.adapters.UNKNOWN_COMPONENT_BOUND] for any other
    component (one of your own among them). Returns lie between minus the bound and the
    bound.
    """
    side_plays = math.ceil(rules.plays_per_hand / rules.number_of_sides)
    bound = 0
    for component in rules.scoring.components:
        if isinstance(component, Scope):
            bound += abs(component.value) * side_plays
        elif isinstance(component, Napola):
            bound += 10
        elif isinstance(component, CardPoints):
            bound += component.value * 4 * len(component.ranks)
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
    """The part of the environments that holds the hand (and the match) being played."""

    _state: GameState | None = None
    _match: Match | None = None

    @property
    def match(self) -> Match:
        """The match being played, in a match episode.

        Raises:
            RuntimeError: the episode is one hand, or the environment has not been reset.
        """
        if self._match is None:
            raise RuntimeError("only a match episode (episode='match') after reset() has a match")
        return self._match

    @property
    def position(self) -> GameState:
        """The scopa position of the hand being played.

        Raises:
            RuntimeError: the environment has not been reset.
        """
        if self._state is None:
            raise RuntimeError("call reset() before reading the hand")
        return self._state

    def _board(self) -> str:
        """The board as text: the match and its hand in a match episode, else the hand."""
        if self._match is not None:
            return match_text(self._match)
        return state_text(self.position)
