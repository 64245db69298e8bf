"""OpenSpiel adapter: a hand or a whole match of Scopa as the Python game `"python_scopa"`.

Importing this module registers the game, so that `pyspiel.load_game` finds it. A game is
one hand, or with `episode="match"` a whole match (below). Chance deals a hand card by
card: each chance outcome is a card index (0 to 39) of a card in play (all 40 unless
`ranks` or `suits` leave some out), in dealing order (see [`scopa.state`][scopa.state]).
A deal the misdeal rule would annul is never dealt: each card's probability is its share
of the deals that the rule accepts and that begin with the cards dealt so far, which is
exactly the distribution of shuffling again until the rule accepts (as
[`GameState.new`][scopa.GameState.new] does). With no misdeal rule the cards not dealt
yet are equally likely. So a hand has exactly one chance node per card in play, and
`max_game_length` is a true bound. Then the players act with the action ids of
[`scopa.encoding`][scopa.encoding], and the returns at the end of a hand are those of
[`hand_returns`][scopa.adapters.hand_returns]: zero-sum with two sides, general-sum with
more.

Game parameters (all optional):

| parameter | type | default | meaning |
|---|---|---|---|
| `variant` | str | `"classic"` | the preset, by any name `find_variant` knows |
| `dealer` | int | 0 | the player who deals |
| `capture_priority` | str | `""` | a `CapturePriority` value; empty: the preset's |
| `misdeal` | str | `""` | a `MisdealRule` value; empty: the preset's |
| `compulsory_capture` | str | `""` | a `CompulsoryCapture` value; empty: the preset's |
| `leftovers` | str | `""` | a `Leftovers` value; empty: the preset's |
| `scopa_on_last_play` | bool | False | the `Rules` knob |
| `must_play_capturing_card_if_any` | bool | False | deprecated: `compulsory_capture` |
| `leftovers_to_last_capturer` | bool | True | deprecated: `leftovers` |
| `ranks` | str | `""` | the ranks in play, such as `"1,6,7"`; empty: the preset's |
| `suits` | str | `""` | the suits in play by letter, such as `"DC"`; empty: the preset's |
| `encoding` | str | `"compact"` | the action ids: `"compact"` or `"flat"` (see `ActionEncoding`) |
| `hand_size` | int | 0 | the cards of each player's deal; 0: the preset's |
| `episode` | str | `"hand"` | `"hand"` for one hand, `"match"` for a whole match |
| `match_reward` | str | `"win"` | how a match pays: `"win"` or `"stakes"` (match only) |
| `target` | int | 0 | the points that win a match; 0: the preset's (match only) |
| `max_hands` | int | 0 | the most hands of a match; 0: four times the target (match only) |
| `move_facts` | bool | False | the tensors end with the observer's move facts (see below) |
| `sorted_deal` | bool | False | each group of a deal is dealt in increasing order (below) |

With `sorted_deal=True`, chance deals the cards of each group (a player's cards of one
deal, or the first table) in increasing card index, so that a deal of the same cards in
another order within its groups, which plays the same hand, is one chance sequence and not
many: two cards to a player are one sequence rather than two, and the tree of `scopa-mini`
is eight times smaller. The deals keep their distribution: each accepted deal, as the cards
each player and the table get, is as likely as without the parameter (each card's weight is
the number of accepted deals in increasing order that begin with the cards dealt so far).
Exact methods, which walk the whole tree, use it (see [solving a small Scopa](../solving.md)).

The preset sets the number of players and every knob not listed. An enum knob is given
by its value, such as `capture_priority="min-cards"` or `misdeal="none"`. The bool knob
`scopa_on_last_play` is off in every preset, and a game always uses the value of its
parameter. The two deprecated bool parameters, which the enum knobs `compulsory_capture`
and `leftovers` replace, act only at the value that is not their default, with a
`DeprecationWarning`. The rules check `hand_size` and `target`: the
cards after the first table must split into deals of `hand_size` cards to each player.
The parameters marked "match only" are refused in a game of one hand.

With `episode="match"` a game is a whole [`Match`][scopa.Match] to the target, as the
PettingZoo and Gymnasium environments play it with the same parameters: `dealer` deals
the first hand and the deal passes on as the match says, chance deals each hand card by
card as above, and the returns are 0 until the match is over, then those of
[`match_returns`][scopa.adapters.match_returns]: +1 for the players of the winning side
and -1 for the others (`match_reward="win"`), or the settlement of the side under the
rules' stakes (such as the tretre brilli) minus the best other side's
(`match_reward="stakes"`). A match always ends: one that has no winner after `max_hands`
hands (sides tied at the top play on) ends there, and every return is 0.
`max_game_length` is `max_hands` times a hand's cards dealt and its plays. A match's
observation and information-state tensors end with each side's match total divided by
the target, the player's side first
([`match_totals_seen`][scopa.adapters.match_totals_seen]); its strings begin with the
number of the hand and the totals (`match hand 2 totals 7/4`), and the information-state
string ends with every play of the earlier hands (`hands ...`, one hand after another).
The information-state tensor has the plays of the hand in progress only.

Observations come from a Python observer: the information-state string is the
[`PlayerView`][scopa.PlayerView] written out in full (its `key`: own hand, table, piles,
scope, hand sizes, stock size, turn, dealer, last capturer and every play of the hand), the
observation string is the same without the plays, the observation tensor is
[`scopa.encoding.observation`][scopa.encoding.observation], and the information-state
tensor is [`scopa.encoding.information_state`][scopa.encoding.information_state]: the
observation followed by one slot per play of the hand, in order
([`InformationStateLayout`][scopa.encoding.InformationStateLayout]). While the cards are
dealt, a player sees only the cards dealt to them and to the table so far, and the slots
of the plays are 0.

With the game parameter `move_facts=True`, both tensors end (after a match's totals) with
[`legal_move_facts`][scopa.encoding.legal_move_facts] of the observer's view (2,160 more
values, all 0 when the observer is not to move, while dealing, and for an observer that
does not see the player's own cards, since the facts show them); an observer's `dict`
holds them apart as `"move_facts"`. They are a game parameter and not an observer
parameter because OpenSpiel's learners read `observation_tensor` and
`information_state_tensor`, which come from an observer made without parameters; a game
parameter also travels with the game's string, so a game loaded from it observes the same.

Examples:
    >>> import pyspiel
    >>> import scopa.adapters.openspiel
    >>> game = pyspiel.load_game("python_scopa", {"variant": "scopa-4"})
    >>> game.num_players(), game.num_distinct_actions()
    (4, 2560)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 40)
    >>> game.information_state_tensor_size()
    3286
    >>> match = pyspiel.load_game("python_scopa", {"variant": "tretre", "episode": "match"})
    >>> match.max_hands, match.max_utility(), match.observation_tensor_size()
    (36, 1.0, 174)
"""

from __future__ import annotations

import functools
import math
import random
import warnings
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from scopa._checks import check_int, check_number, check_type, is_int, quote
from scopa.adapters import (
    Episode,
    MatchReward,
    check_episode,
    hand_returns,
    match_returns,
    match_totals_seen,
    return_bound,
    rules_of,
)
from scopa.adapters._arrays import observation_array
from scopa.cards import DECK, Card, Deck, format_cards
from scopa.encoding import (
    FACT_CHOICES,
    MOVE_FACTS,
    ActionEncoding,
    InformationStateLayout,
    action_of,
    information_state,
    legal_actions,
    legal_move_facts,
    move_of_action,
)
from scopa.errors import IllegalMoveError, InvalidArgumentError, ScopaError
from scopa.masks import cards_of
from scopa.match import Match
from scopa.rules import (
    MAX_TARGET,
    CapturePriority,
    CompulsoryCapture,
    Leftovers,
    MisdealRule,
    Rules,
    _upgraded_knobs,
    find_variant,
    variant_names,
)
from scopa.stakes import BrilliEconomy
from scopa.state import GameState, PlayerView, view

__all__ = [
    "GAME_NAME",
    "PARAMETERS",
    "InformationStateCount",
    "ScopaGame",
    "ScopaObserver",
    "ScopaState",
    "count_information_states",
    "rules_from_parameters",
]

GAME_NAME = "python_scopa"
"""The short name the game is registered under."""

PARAMETERS: dict[str, str | int | bool] = {
    "variant": "classic",
    "dealer": 0,
    "capture_priority": "",
    "misdeal": "",
    "compulsory_capture": "",
    "leftovers": "",
    "scopa_on_last_play": False,
    "must_play_capturing_card_if_any": False,
    "leftovers_to_last_capturer": True,
    "ranks": "",
    "suits": "",
    "encoding": "compact",
    "hand_size": 0,
    "episode": "hand",
    "match_reward": "win",
    "target": 0,
    "max_hands": 0,
    "move_facts": False,
    "sorted_deal": False,
}
"""The game parameters and their defaults."""

_ENUM_KNOBS: dict[str, type[Enum]] = {
    "capture_priority": CapturePriority,
    "misdeal": MisdealRule,
    "compulsory_capture": CompulsoryCapture,
    "leftovers": Leftovers,
}
_DEPRECATED_KNOBS = {
    "must_play_capturing_card_if_any": 'compulsory_capture="capturing-card"',
    "leftovers_to_last_capturer": 'leftovers="nobody"',
}
"""The deprecated bool parameters, each with the parameter that replaces its other value."""
_INT_KNOBS = ("hand_size", "target")  # 0: the preset's
_MATCH_ONLY = ("match_reward", "target", "max_hands")
_MOST_HANDS = 4 * MAX_TARGET
_MAX_PLAYERS = max(find_variant(name).players for name in variant_names())
_RESAMPLE_ATTEMPTS = 1000


def rules_from_parameters(parameters: Mapping[str, Any]) -> Rules:
    """The rules that game parameters describe (missing ones take their defaults).

    Raises:
        RulesError: an unknown preset, or a knob value the rules refuse.
        ValueError: an unknown parameter, an unknown `capture_priority` or `misdeal`, or
            `ranks` or `suits` text that names no ranks or suits.
    """
    unknown = set(parameters) - set(PARAMETERS)
    unknown.discard("encoding")  # how actions are numbered, not a rule
    if unknown:
        raise InvalidArgumentError(
            f"unknown parameters {quote(sorted(unknown))}; known: {', '.join(PARAMETERS)}"
        )
    merged = {**PARAMETERS, **parameters}
    rules = rules_of(str(merged["variant"]))
    changes: dict[str, Any] = {"scopa_on_last_play": bool(merged["scopa_on_last_play"])}
    changes.update((knob, merged[knob]) for knob in _INT_KNOBS if merged[knob] != 0)
    for knob, kind in _ENUM_KNOBS.items():
        value = str(merged[knob])
        if value:
            choices = {member.value: member for member in kind}
            if value not in choices:
                raise InvalidArgumentError(
                    f"{knob} must be one of {', '.join(choices)}, not {quote(value)}"
                )
            changes[knob] = choices[value]
    changes.update(_cards_in_play(merged))
    old = {knob: bool(merged[knob]) for knob in _DEPRECATED_KNOBS}
    old = {knob: value for knob, value in old.items() if value != PARAMETERS[knob]}
    for knob in old:
        warnings.warn(
            f"the game parameter {knob} is deprecated: use {_DEPRECATED_KNOBS[knob]}",
            DeprecationWarning,
            stacklevel=2,
        )
    rules = attrs.evolve(rules, **changes)
    return attrs.evolve(rules, **_upgraded_knobs(rules, old))


def _cards_in_play(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The `ranks` and `suits` knobs the parameters give (`"1,3,7"`, `"DC"`), if any."""
    changes: dict[str, Any] = {}
    ranks = str(parameters["ranks"]).replace(" ", "")
    if ranks:
        numbers = ranks.split(",")
        if not all(number.isdigit() for number in numbers):
            raise InvalidArgumentError(
                f"ranks must be numbers separated by commas, such as '1,3,7', not {quote(ranks)}"
            )
        changes["ranks"] = tuple(int(number) for number in numbers)
    suits = str(parameters["suits"]).upper()
    if suits:
        if not set(suits) <= set("DCSB"):
            raise InvalidArgumentError(
                f"suits must be suit letters among D, C, S and B, such as 'DC', not {quote(suits)}"
            )
        changes["suits"] = tuple("DCSB".index(letter) for letter in suits)
    return changes


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Scopa",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


class _Setup:
    """What every state of one game shares; copies share it too.

    `max_hands` is 0 in a game of one hand.
    """

    __slots__ = (
        "dealer",
        "encoding",
        "first_deal",
        "in_play",
        "match_reward",
        "max_hands",
        "players",
        "rules",
        "sorted_deal",
        "table_end",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        encoding: ActionEncoding,
        match_reward: MatchReward,
        max_hands: int,
        sorted_deal: bool = False,
    ) -> None:
        self.rules = rules
        self.sorted_deal = sorted_deal
        self.dealer = dealer
        self.encoding = encoding
        self.match_reward = match_reward
        self.max_hands = max_hands
        self.players = rules.players
        self.first_deal = rules.players * rules.hand_size
        self.table_end = self.first_deal + rules.table_size
        self.in_play = tuple(card.index for card in cards_of(rules.in_play_mask))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        arguments = (
            self.rules,
            self.dealer,
            self.encoding,
            self.match_reward,
            self.max_hands,
            self.sorted_deal,
        )
        return (_Setup, arguments)

    def group(self, position: int) -> tuple[int, int]:
        """The positions (start, end) of the group that holds a position of the deal.

        A group is the cards one player gets at one deal, or the first table.
        """
        size = self.rules.hand_size
        if self.first_deal <= position < self.table_end:
            return self.first_deal, self.table_end
        base = 0 if position < self.first_deal else self.table_end
        start = base + (position - base) // size * size
        return start, start + size


class _Node:
    """The immutable content of a state: the deal so far, then the scopa position.

    In a whole-match game, `match` holds the match: `None` while its first hand is dealt,
    then the match that waits for its next hand's deck while that hand is dealt, and the
    match whose `state` is `position` while a hand is played.
    """

    __slots__ = ("dealt", "match", "position", "setup")

    def __init__(
        self,
        setup: _Setup,
        dealt: tuple[int, ...],
        position: GameState | None,
        match: Match | None = None,
    ) -> None:
        self.setup = setup
        self.dealt = dealt
        self.position = position
        self.match = match

    @property
    def dealer(self) -> int:
        """The dealer of the hand being dealt or played."""
        if self.position is not None:
            return self.position.dealer
        if self.match is None:
            return self.setup.dealer
        return (self.match.first_dealer + len(self.match.hands)) % self.setup.players

    @property
    def is_over(self) -> bool:
        """Whether the game is over: the hand, or the match (won, or at its last hand)."""
        match = self.match
        if match is None:
            return self.position is not None and self.position.is_terminal
        return match.is_over or (match.awaiting_deal and len(match.hands) >= self.setup.max_hands)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Node, (self.setup, self.dealt, self.position, self.match))


def _rank_counts(cards: Iterable[int]) -> tuple[int, ...]:
    """How many of the cards are of each rank (Ace first)."""
    counts = [0] * 10
    for card in cards:
        counts[card % 10] += 1
    return tuple(counts)


@functools.lru_cache(maxsize=4096)
def _annulled_completions(
    misdeal: MisdealRule, table: tuple[int, ...], left: int
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ways `left` more cards complete a first table into one the misdeal rule annuls.

    `table` holds the rank counts of the table so far (Ace first). Each way is given by the
    ranks it adds, as `(rank, count)` pairs. The misdeal rules look at ranks only, so a
    table is judged by any one set of cards with its rank counts.
    """
    found = []

    def extend(rank: int, left: int, counts: list[int]) -> None:
        if left == 0:
            shown = 0
            for r, count in enumerate(counts):
                for suit in range(count):
                    shown |= 1 << (10 * suit + r)
            if misdeal.annuls_mask(shown):
                added = tuple(
                    (r, c - t) for r, (c, t) in enumerate(zip(counts, table, strict=True)) if c > t
                )
                found.append(added)
            return
        if rank == 10:
            return
        for taken in range(min(left, 4 - counts[rank]) + 1):
            counts[rank] += taken
            extend(rank + 1, left - taken, counts)
            counts[rank] -= taken

    extend(0, left, list(table))
    return tuple(found)


def _accepted_tables(
    misdeal: MisdealRule, remaining: tuple[int, ...], table: tuple[int, ...], left: int
) -> int:
    """How many ways `left` more cards complete a first table the misdeal rule accepts.

    `remaining` and `table` are the rank counts of the cards not dealt yet and of the table
    so far: every choice of `left` remaining cards, less those that make a table the rule
    annuls.
    """
    total = math.comb(sum(remaining), left)
    for added in _annulled_completions(misdeal, table, left):
        ways = 1
        for rank, count in added:
            ways *= math.comb(remaining[rank], count)
        total -= ways
    return total


def _deal_weight(setup: _Setup, dealt: tuple[int, ...]) -> int:
    """How many accepted first tables can follow the cards dealt.

    With the table's last card, 1 if the rule accepts the table and 0 if it annuls it;
    after it, 1 (the table was judged with its last card).
    """
    if len(dealt) > setup.table_end:
        return 1
    table = dealt[setup.first_deal :]
    remaining = _rank_counts(set(setup.in_play).difference(dealt))
    left = setup.rules.table_size - len(table)
    return _accepted_tables(setup.rules.misdeal, remaining, _rank_counts(table), left)


def _sorted_weight(setup: _Setup, dealt: tuple[int, ...]) -> int:
    """How many accepted deals in increasing order within their groups begin with `dealt`.

    Up to a factor that depends on `len(dealt)` only: the ways to fill the groups after the
    next one and the first table, which are the same for every such beginning.
    """
    count = len(dealt)
    if count > 1 and setup.group(count - 1) == setup.group(count - 2) and dealt[-1] <= dealt[-2]:
        return 0  # the last card is not above the one before it in its group
    if count >= setup.table_end:
        if count == setup.table_end and not _deal_weight(setup, dealt):
            return 0  # the first table is annulled
        if count == len(setup.in_play):
            return 1
    remaining = set(setup.in_play).difference(dealt)
    start, end = setup.group(count)  # the group the next card goes to
    last = dealt[-1] if count > start else -1
    above = _rank_counts(card for card in remaining if card > last)
    if count >= setup.table_end:
        return math.comb(sum(above), end - count)
    misdeal = setup.rules.misdeal
    if start == setup.first_deal:  # the first table
        table = _rank_counts(dealt[start:])
        return _accepted_tables(misdeal, above, table, end - count)
    return _sorted_hand_weight(
        misdeal, above, _rank_counts(remaining), end - count, setup.rules.table_size
    )


@functools.lru_cache(maxsize=4096)
def _sorted_hand_weight(
    misdeal: MisdealRule, above: tuple[int, ...], pool: tuple[int, ...], size: int, table: int
) -> int:
    """The ways to end a player's group before the first table, and then deal an accepted table.

    `above` holds the rank counts of the cards the group may still take (those above its
    last card), `pool` those of every card not dealt yet, `size` the cards the group still
    needs and `table` the first table's size. The other groups before the table are the
    same factor for every way, and left out.
    """
    if misdeal is MisdealRule.NONE:
        return math.comb(sum(above), size) * math.comb(sum(pool) - size, table)
    total = 0

    def extend(rank: int, left: int, ways: int, rest: list[int]) -> None:
        nonlocal total
        if left == 0:
            total += ways * _accepted_tables(misdeal, tuple(rest), (0,) * 10, table)
            return
        if rank == 10:
            return
        for taken in range(min(left, above[rank]) + 1):
            rest[rank] -= taken
            extend(rank + 1, left - taken, ways * math.comb(above[rank], taken), rest)
            rest[rank] += taken

    extend(0, size, 1, list(pool))
    return total


def _most_sorted_weight(setup: _Setup, count: int) -> int:
    """A bound on `_sorted_weight` of the beginnings of `count` cards (in the same units)."""
    if count == len(setup.in_play):
        return 1
    left = len(setup.in_play) - count
    end = setup.group(count)[1]
    bound = math.comb(left, end - count)
    if count < setup.first_deal:
        bound *= math.comb(left - (end - count), setup.rules.table_size)
    return bound


def _match_setup(merged: Mapping[str, Any], rules: Rules) -> tuple[Episode, MatchReward, int]:
    """The episode, match reward and most hands of a game's parameters, checked.

    Raises:
        InvalidArgumentError: an unknown episode or match reward, stakes for rules without
            them, a parameter of a match in a game of one hand, or a bad `max_hands`.
    """
    episode, reward, most = merged["episode"], merged["match_reward"], merged["max_hands"]
    check_episode(rules, episode, reward)
    if episode == "hand":
        given = [knob for knob in _MATCH_ONLY if merged[knob] != PARAMETERS[knob]]
        if given:
            raise InvalidArgumentError(
                f"{', '.join(given)}: parameters of a whole match; add episode='match'"
            )
        return episode, reward, 0
    if not is_int(most) or not 0 <= most <= _MOST_HANDS:
        raise InvalidArgumentError(
            f"max_hands must be an int from 1 to {_MOST_HANDS:,}, or 0 for 4 times the "
            f"target, not {quote(most)}"
        )
    return episode, reward, most or 4 * rules.target


def _utility_bound(rules: Rules, episode: Episode, reward: MatchReward) -> float:
    """The most any player's return can be, in size.

    Raises:
        InvalidArgumentError: a reward by stakes that are not brilli (no bound is known).
    """
    if episode == "hand":
        return return_bound(rules)
    if reward == "win":
        return 1.0
    stakes = rules.stakes
    if not isinstance(stakes, BrilliEconomy):
        raise InvalidArgumentError(
            f"{rules.name}'s stakes are not brilli, and no bound on them is known: "
            "use match_reward='win'"
        )
    return float(stakes.hand_pot * stakes.paid_hands + stakes.match_bonus)


class ScopaGame(pyspiel.Game):  # type: ignore[misc]
    """A hand or a whole match of Scopa as an OpenSpiel game; build it with `pyspiel.load_game`.

    Args:
        params: the game parameters (see the module documentation).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        merged = {**PARAMETERS, **(params or {})}
        rules = rules_from_parameters(merged)
        dealer = merged["dealer"]
        check_number(dealer, rules.players, "dealer", InvalidArgumentError)
        encodings = {member.value: member for member in ActionEncoding}
        encoding = encodings.get(str(merged["encoding"]))
        if encoding is None:
            raise InvalidArgumentError(
                f"encoding must be one of {', '.join(encodings)}, not {quote(merged['encoding'])}"
            )
        episode, reward, max_hands = _match_setup(merged, rules)
        move_facts = merged["move_facts"]
        check_type(move_facts, bool, "move_facts")
        sorted_deal = merged["sorted_deal"]
        check_type(sorted_deal, bool, "sorted_deal")
        two_sides = rules.number_of_sides == 2
        bound = _utility_bound(rules, episode, reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.count(rules),
            max_chance_outcomes=40,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if two_sides else None,
            max_game_length=max(max_hands, 1) * (rules.deck_size + rules.plays_per_hand),
        )
        utility = pyspiel.GameType.Utility
        game_type = _game_type(utility.ZERO_SUM if two_sides else utility.GENERAL_SUM)
        super().__init__(game_type, info, merged)
        self._setup = _Setup(rules, dealer, encoding, reward, max_hands, sorted_deal)
        self._move_facts = move_facts

    @property
    def rules(self) -> Rules:
        """The rules of the hands."""
        return self._setup.rules

    @property
    def dealer(self) -> int:
        """The player who deals (in a match, the first hand)."""
        return self._setup.dealer

    @property
    def sorted_deal(self) -> bool:
        """Whether each group of a deal is dealt in increasing order (the game parameter)."""
        return self._setup.sorted_deal

    @property
    def max_hands(self) -> int | None:
        """The most hands of a match; `None` in a game of one hand."""
        return self._setup.max_hands or None

    def new_initial_state(self) -> ScopaState:
        """The state before the first card is dealt."""
        return ScopaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ScopaObserver:
        """An observer of the given type (a single player's view, with or without plays).

        Raises:
            ValueError: observer parameters are given, or the type shows every player's
                private cards or no public information.
        """
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes only params without a type
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise InvalidArgumentError(
                f"the Scopa observer takes no parameters, got {quote(dict(params))}"
            )
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise InvalidArgumentError(
                "the Scopa observer shows the public information and at most one player's cards"
            )
        return ScopaObserver(
            self.rules,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
            whole_match=self.max_hands is not None,
            move_facts=self._move_facts,
        )


class ScopaState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: dealing (chance), playing, or the end of the game."""

    def __init__(self, game: ScopaGame) -> None:
        super().__init__(game)
        self._node = _Node(game._setup, (), None)

    # ------------------------------------------------------------------ scopa side

    @property
    def position(self) -> GameState | None:
        """The scopa position once the cards of the hand are dealt; `None` while dealing."""
        return self._node.position

    @property
    def match(self) -> Match | None:
        """The match so far, in a whole-match game.

        `None` in a game of one hand, and while the first hand of a match is dealt. While a
        later hand is dealt, the match waits for its deck
        ([`awaiting_deal`][scopa.Match.awaiting_deal]).
        """
        return self._node.match

    @property
    def dealt(self) -> tuple[int, ...]:
        """The card indices of the hand dealt so far, in dealing order."""
        return self._node.dealt

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        """The player to act, `PlayerId.CHANCE` while dealing, `PlayerId.TERMINAL` at the end."""
        node = self._node
        if node.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if node.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = node.position.current_player
        assert player is not None  # the hand goes on
        return player

    def _legal_actions(self, player: int) -> list[int]:
        position = self._node.position
        if position is None or position.current_player != player:
            return []
        return legal_actions(position, self._node.setup.encoding)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may be dealt next, with their probabilities.

        Each card's weight is the number of accepted first tables that can follow it (with
        `sorted_deal`, the number of accepted deals in increasing order that begin with the
        cards dealt and it); the cards no accepted deal can follow are left out.
        """
        node = self._node
        if node.position is not None:
            return []
        dealt = node.dealt
        remaining = [index for index in node.setup.in_play if index not in dealt]
        if node.setup.sorted_deal:
            sorted_weights = [_sorted_weight(node.setup, (*dealt, index)) for index in remaining]
            whole = sum(sorted_weights)
            return [(i, w / whole) for i, w in zip(remaining, sorted_weights, strict=True) if w]
        if len(dealt) >= node.setup.table_end:  # the first table is out: all alike
            return [(index, 1 / len(remaining)) for index in remaining]
        by_rank: dict[int, int] = {}  # the weight depends on the card's rank only
        for index in remaining:
            if index % 10 not in by_rank:
                by_rank[index % 10] = _deal_weight(node.setup, (*dealt, index))
        weights = [by_rank[index % 10] for index in remaining]
        total = sum(weights)
        return [(index, w / total) for index, w in zip(remaining, weights, strict=True) if w]

    def _apply_action(self, action: int) -> None:
        node = self._node
        setup = node.setup
        position = node.position
        match = node.match
        if position is not None:
            move = move_of_action(position, int(action), setup.encoding)
            if match is None:
                self._node = _Node(setup, node.dealt, position.apply(move))
                return
            match = match.apply(move)
            if match.awaiting_deal and len(match.hands) < setup.max_hands:
                self._node = _Node(setup, (), None, match)  # the next hand is dealt from here
            else:
                self._node = _Node(setup, node.dealt, match.state, match)
            return
        if action not in setup.in_play or action in node.dealt:
            raise IllegalMoveError(f"card {action} cannot be dealt now")
        dealt = (*node.dealt, int(action))
        if setup.sorted_deal:
            if not _sorted_weight(setup, dealt):
                raise IllegalMoveError(
                    f"card {action} cannot be dealt now: no accepted deal in increasing order "
                    "within its groups begins with the cards dealt and it"
                )
        elif not _deal_weight(setup, dealt):
            raise IllegalMoveError(f"card {action} would make a deal the misdeal rule annuls")
        if len(dealt) == len(setup.in_play):
            aside = (index for index in range(40) if index not in setup.in_play)
            deck = Deck(DECK[i] for i in (*dealt, *aside))
            if not setup.max_hands:
                position = GameState.new(setup.rules, deck=deck, dealer=setup.dealer)
            elif match is None:
                match = Match.new(setup.rules, decks=(deck,), first_dealer=setup.dealer)
                position = match.state
            else:
                match = match.deal(deck)
                position = match.state
        self._node = _Node(setup, dealt, position, match)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}" if 0 <= action < 40 else f"deal #{action}"
        position = self._node.position
        if position is not None:
            try:
                return str(move_of_action(position, int(action), self._node.setup.encoding))
            except ScopaError:
                pass
        return f"action #{action}"

    def is_terminal(self) -> bool:
        """Whether the game is over: the hand, or the match (won, or at its last hand)."""
        return self._node.is_over

    def returns(self) -> list[float]:
        """Each player's return: 0 until the end, then as in `hand_returns`.

        In a whole-match game, as in [`match_returns`][scopa.adapters.match_returns]: 0
        for everyone in a match that reached `max_hands` without a winner.
        """
        node = self._node
        if node.match is not None:
            return list(match_returns(node.match, node.setup.match_reward))
        if node.position is None or not node.position.is_terminal:
            return [0.0] * node.setup.players
        return list(hand_returns(node.position))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> ScopaState:
        """A state `player_id` cannot tell from this one, drawn at random.

        The sampler's draws seed a `random.Random`. The cards the player has not seen are
        dealt again uniformly ([`PlayerView.resample`][scopa.PlayerView.resample]), and the
        new state is built by replaying the earlier hands of a match as they were, then a
        deal and the plays of the hand, so its history is complete. Under rules where a
        play reveals something about a hand (`CompulsoryCapture.CAPTURING_CARD`,
        `ace_first_lead_forbidden`), draws whose plays would be illegal are rejected; after
        1000 rejections the state is built from the drawn position without a history.
        """
        high = int(probability_sampler() * (1 << 53))
        low = int(probability_sampler() * (1 << 53))
        rng = random.Random(high << 53 | low)
        node = self._node
        history = self.history()
        plays = 0 if node.position is None else len(node.position.history)
        earlier = history[: max(0, len(history) - len(node.dealt) - plays)]
        sort = node.setup.sorted_deal
        if node.position is None:
            return self._replay(earlier, self._redeal_unseen(player_id, rng), ())
        seen = view(node.position, player_id)
        world = seen.resample(rng)
        for _ in range(_RESAMPLE_ATTEMPTS):
            try:
                return self._replay(earlier, _deck_order(world, sort), world.history)
            except IllegalMoveError:
                world = seen.resample(rng)
        order = _deck_order(world, sort)
        match = node.match
        if match is not None:
            match = attrs.evolve(match, state=world, deck=Deck(DECK[i] for i in order))
        fallback = ScopaState(self.get_game())
        fallback._node = _Node(node.setup, order, world, match)
        return fallback

    def _redeal_unseen(self, player: int, rng: random.Random) -> tuple[int, ...]:
        """The cards dealt so far, with those `player` has not seen dealt again.

        A draw is kept with a probability in proportion to the accepted first tables that
        can follow it (with `sorted_deal`, its groups put in increasing order, to the accepted
        deals that begin with it), so that the draws follow the game's own chance
        distribution.
        """
        node = self._node
        setup = node.setup
        dealt = list(node.dealt)
        hidden = [i for i in range(len(dealt)) if not _sees(node, player, i)]
        seen = {dealt[i] for i in range(len(dealt))} - {dealt[i] for i in hidden}
        unseen = [card for card in setup.in_play if card not in seen]
        if setup.sorted_deal:
            weight: Callable[[tuple[int, ...]], int] = functools.partial(_sorted_weight, setup)
            most = _most_sorted_weight(setup, len(dealt))
        else:
            weight = functools.partial(_deal_weight, setup)
            left = max(0, setup.table_end - max(len(dealt), setup.first_deal))
            most = math.comb(len(setup.in_play) - len(dealt), left)  # the most any draw allows
        while True:
            rng.shuffle(unseen)
            for i, card in zip(hidden, unseen, strict=False):
                dealt[i] = card
            if setup.sorted_deal:
                dealt = _sorted_groups(setup, dealt)
            if rng.random() * most < weight(tuple(dealt)):
                return tuple(dealt)

    def _replay(
        self, earlier: list[int], order: tuple[int, ...], plays: tuple[tuple[int, Any], ...]
    ) -> ScopaState:
        """A new state after the actions `earlier`, the deal `order` and the `plays`."""
        state: ScopaState = self.get_game().new_initial_state()
        for action in earlier:
            state.apply_action(action)
        for card in order:
            state.apply_action(card)
        for _, move in plays:
            position = state._node.position
            assert position is not None
            if move not in position.legal_moves():
                raise IllegalMoveError(f"'{move}' is not legal in the drawn deal")
            state.apply_action(action_of(position, move, state._node.setup.encoding))
        return state

    def __str__(self) -> str:
        node = self._node
        if node.position is not None:
            text = node.position.to_text()
        else:
            text = f"dealing: {format_cards(DECK[i] for i in node.dealt)}"
        return text if node.setup.max_hands == 0 else f"{_match_text(node)}\n{text}"


def _sees(node: _Node, player: int, position: int) -> bool:
    """Whether `player` sees the card dealt at `position` of the deal of `node`'s hand."""
    setup = node.setup
    if position >= setup.first_deal:
        return position < setup.table_end
    size = setup.rules.hand_size
    return (node.dealer + 1 + position // size) % setup.players == player


def _match_text(node: _Node) -> str:
    """The match of a node in a line: the hand's number and each side's total."""
    match = node.match
    if match is None:
        return "match hand 1 totals " + "/".join("0" * node.setup.rules.number_of_sides)
    number = match.hand_number + (node.position is None)
    return f"match hand {number} totals {'/'.join(map(str, match.totals))}"


def _sorted_groups(setup: _Setup, dealt: list[int]) -> list[int]:
    """The cards dealt, each group's in increasing order."""
    ordered = list(dealt)
    start = 0
    while start < len(ordered):
        end = min(setup.group(start)[1], len(ordered))
        ordered[start:end] = sorted(ordered[start:end])
        start = end
    return ordered


def _deck_order(world: GameState, sort: bool = False) -> tuple[int, ...]:
    """A deck order that deals `world`: the plays of each round come from that round's deal.

    With `sort`, each player's cards of each deal are in increasing order, and so is the
    table (as `sorted_deal` deals them).
    """
    rules = world.rules
    n = rules.players
    per_deal = n * rules.hand_size
    rounds = rules.deals_per_hand
    history = world.history
    current = len(history) // per_deal
    dealt = [[0] * n for _ in range(rounds)]
    for i, (player, move) in enumerate(history):
        dealt[i // per_deal][player] |= 1 << move.card.index
    if current < rounds:
        for player, hand in enumerate(world.hands):
            for card in hand:
                dealt[current][player] |= 1 << card.index
    seats = [(world.dealer + 1 + k) % n for k in range(n)]
    hands: list[int] = []
    for r in range(min(current + 1, rounds)):
        for player in seats:
            hands.extend(i for i in range(40) if dealt[r][player] >> i & 1)
    stock = [card.index for card in world.stock]
    if sort:
        size = rules.hand_size
        stock = [
            card
            for start in range(0, len(stock), size)
            for card in sorted(stock[start : start + size])
        ]
    used = set(hands) | set(stock)
    table = [card.index for card in cards_of(rules.in_play_mask) if card.index not in used]
    return (*hands[:per_deal], *table, *hands[per_deal:], *stock)


class ScopaObserver:
    """An OpenSpiel Python observer of Scopa states (see the module documentation).

    Args:
        rules: the rules of the game.
        perfect_recall: whether to include the plays of the hand (information states), and
            in a whole match those of the earlier hands (in its strings).
        private: whether to include the observing player's own cards.
        whole_match: whether the game is a whole match: its tensors end with each side's
            match total, its strings begin with the hand's number and the totals.
        move_facts: whether the tensors end with the player's move facts (after the
            totals of a match).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        perfect_recall: bool,
        private: bool,
        whole_match: bool = False,
        move_facts: bool = False,
    ) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.whole_match = whole_match
        self.move_facts = move_facts
        self.layout = InformationStateLayout.for_rules(rules)
        size = self.layout.size if perfect_recall else self.layout.observation.size
        if whole_match:
            size += rules.number_of_sides
        facts = 40 * FACT_CHOICES * MOVE_FACTS if move_facts else 0
        self.tensor: npt.NDArray[np.float32] = np.zeros(size + facts, np.float32)
        name = "info_state" if perfect_recall else "observation"
        self.dict: dict[str, npt.NDArray[np.float32]] = {name: self.tensor[:size]}
        if move_facts:
            self.dict["move_facts"] = self.tensor[size:]

    def set_from(self, state: ScopaState, player: int) -> None:
        """Write the observation (or information state) of `state` by `player` into `tensor`."""
        node = state._node
        hand_size = self.layout.size if self.perfect_recall else self.layout.observation.size
        self._set_hand(node, player, self.tensor[:hand_size])
        if self.whole_match:
            match = node.match
            totals = self.dict["info_state" if self.perfect_recall else "observation"][hand_size:]
            totals[:] = 0.0 if match is None else match_totals_seen(match, player)
        if self.move_facts:
            facts = self.dict["move_facts"]
            if node.position is None or not self.private:
                facts[:] = 0.0
            else:
                facts[:] = legal_move_facts(view(node.position, player))

    def _set_hand(self, node: _Node, player: int, tensor: npt.NDArray[np.float32]) -> None:
        """Write what `player` sees of the hand of `node` into `tensor`."""
        layout = self.layout.observation
        if node.position is not None:
            seen = view(node.position, player)
            if self.perfect_recall:
                tensor[:] = information_state(seen)
            else:
                observation_array(seen, out=tensor)
            if not self.private:
                tensor[layout.hand] = 0.0
            return
        tensor.fill(0.0)
        setup = node.setup
        for i, card in enumerate(node.dealt):
            if _sees(node, player, i):
                if i >= setup.first_deal:
                    tensor[layout.table.start + card] = 1.0
                elif self.private:
                    tensor[layout.hand.start + card] = 1.0

    def string_from(self, state: ScopaState, player: int) -> str:
        """The observation (or information state) of `state` by `player`, as text."""
        node = state._node
        text = self._hand_string(node, player)
        if not self.whole_match:
            return text
        text = f"{_match_text(node)} {text}"
        if self.perfect_recall and node.match is not None:
            hands = (" ".join(f"{p}:{m}" for p, m in hand.history) for hand in node.match.hands)
            text += " hands " + ("|".join(hands) or "-")
        return text

    def _hand_string(self, node: _Node, player: int) -> str:
        """What `player` sees of the hand of `node`, as text."""
        if node.position is not None:
            return _view_text(view(node.position, player), self.private, self.perfect_recall)
        setup = node.setup
        hand: list[Card] = []
        table: list[Card] = []
        for i, card in enumerate(node.dealt):
            if _sees(node, player, i):
                (table if i >= setup.first_deal else hand).append(DECK[card])
        parts = [f"p{player}", f"dealing {len(node.dealt)}/{len(setup.in_play)}"]
        if self.private:
            parts.append(f"hand {format_cards(sorted(hand))}")
        parts.append(f"table {format_cards(sorted(table))}")
        return " ".join(parts)


def _view_text(seen: PlayerView, private: bool, plays: bool) -> str:
    """A view written out in full (with `plays`, everything its `key` holds)."""

    def number(value: int | None) -> str:
        return "-" if value is None else str(value)

    parts = [
        f"p{seen.player}",
        f"dealer {seen.dealer}",
        f"turn {number(seen.current_player)}",
        f"last {number(seen.last_capturer)}",
    ]
    if private:
        parts.append(f"hand {format_cards(sorted(seen.hand))}")
    parts += [
        f"table {format_cards(sorted(seen.table))}",
        "piles " + "/".join(format_cards(sorted(pile)) for pile in seen.piles),
        "scope " + "/".join(map(str, seen.scope)),
        "sizes " + "/".join(map(str, seen.hand_sizes)),
        f"stock {seen.stock_size}",
    ]
    if seen.rules.declarations:
        parts.append("shown " + "/".join(format_cards(sorted(c)) for c in seen.revealed))
        parts.append("declared " + "/".join(map(str, seen.declared)))
    if plays:
        parts.append("plays " + (" ".join(f"{p}:{m}" for p, m in seen.history) or "-"))
    return " ".join(parts)


@attrs.frozen
class InformationStateCount:
    """What a walk of a game's tree found: its information states, and those that hide cards.

    A position is what every player holds and what each later deal of the stock gives to
    whom: two states of one information state are the same position when no card is
    elsewhere.
    """

    information_states: int
    """The information states where a player acts."""
    hidden: int
    """Those of them that hold more than one position: the player does not know where some
    card is."""
    most_positions: int
    """The most positions one information state holds."""
    states: int
    """The states of the game walked: chance, decision and terminal."""
    complete: bool
    """Whether the walk covered the whole tree (and not only its first `max_states` states)."""


def count_information_states(
    game: ScopaGame, *, max_states: int | None = None
) -> InformationStateCount:
    """Walk a game's tree and count its information states, and the positions of each.

    In a game of perfect information once dealt, every information state holds exactly one
    position; in one with cards a player cannot see, some hold several. The walk is depth
    first, each state's children in the order of their actions, and it stops after
    `max_states` states when that is given (the whole tree of a hand of `classic` is far
    too large to walk). A game with `sorted_deal=True` has the same information states and
    positions in a smaller tree.

    Examples:
        >>> import pyspiel
        >>> mini = pyspiel.load_game("python_scopa", {"variant": "scopa-mini", "sorted_deal": True})
        >>> count = count_information_states(mini)
        >>> count.hidden, count.most_positions, count.complete
        (0, 1, True)

    Raises:
        TypeError: `game` is not a game of this module, or `max_states` is not an int.
        InvalidArgumentError: `max_states` is less than 1.
    """
    check_type(game, ScopaGame, "game")
    if max_states is not None and check_int(max_states, "max_states") < 1:
        raise InvalidArgumentError(f"max_states must be at least 1, not {max_states}")
    size = game.rules.hand_size
    positions: dict[str, set[object]] = {}
    pending: list[ScopaState] = [game.new_initial_state()]
    walked = 0
    while pending and (max_states is None or walked < max_states):
        state = pending.pop()
        walked += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [action for action, _ in state.chance_outcomes()]
        else:
            position = state.position
            assert position is not None  # a player acts
            stock = position.stock
            deals = tuple(frozenset(stock[i : i + size]) for i in range(0, len(stock), size))
            key = state.information_state_string()
            positions.setdefault(key, set()).add((position.hands, deals))
            actions = state.legal_actions()
        pending.extend(state.child(action) for action in reversed(actions))
    counts = [len(found) for found in positions.values()]
    return InformationStateCount(
        information_states=len(counts),
        hidden=sum(count > 1 for count in counts),
        most_positions=max(counts, default=0),
        states=walked,
        complete=not pending,
    )


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, ScopaGame)
