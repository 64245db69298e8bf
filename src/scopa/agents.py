"""Agents: players that choose a move from what their player can see.

An agent's `choose(seen, rng)` takes the [`PlayerView`][scopa.PlayerView] of the player to
move and a `random.Random` for any randomness it needs, and returns a legal move. A view
holds no card its player has not seen, so an agent cannot read the other hands or the
stock. [`play_hand`][scopa.agents.play_hand] and [`play_match`][scopa.agents.play_match]
give every agent its view, and so do tournaments.

An agent that reads the whole state, hidden cards included, is an
[`OmniscientAgent`][scopa.agents.OmniscientAgent]: it plays only where it is asked for by
name (`omniscient=True`), to measure what seeing every card is worth. An agent that also
has `choose_in_match(seen, totals, rng)` is a [`MatchAgent`][scopa.agents.MatchAgent]:
[`play_match`][scopa.agents.play_match] gives it the match's totals too.

Examples:
    >>> import random
    >>> from scopa import GameState, find_variant, view
    >>> state = GameState.new(find_variant("classic"), seed=3)
    >>> move = GreedyAgent().choose(view(state), random.Random(0))
    >>> move in state.legal_moves()
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import attrs

from scopa._checks import at_least_one, optional_function, optional_seconds
from scopa.cards import Card, Rank, Suit
from scopa.errors import InvalidArgumentError
from scopa.match import Match
from scopa.moves import Move
from scopa.state import GameState, PlayerView, view

__all__ = [
    "Agent",
    "AgentFunction",
    "FlatMonteCarloAgent",
    "FunctionAgent",
    "GreedyAgent",
    "MatchAgent",
    "OmniscientAgent",
    "RandomAgent",
    "as_agent",
    "play_hand",
    "play_match",
]


@runtime_checkable
class Agent(Protocol):
    """Anything that chooses a move from the view of the player to move."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """A legal move for the player whose view `seen` is."""
        ...


@runtime_checkable
class OmniscientAgent(Protocol):
    """An agent that reads the whole state, the other hands and the stock included.

    It plays only where it is asked for by name (`omniscient=True`), and a tournament marks
    its result as omniscient: use one to bound what perfect information is worth, never to
    rank fair agents. An object that has both methods is taken as omniscient.
    """

    def choose_from_state(self, state: GameState, rng: random.Random) -> Move:
        """A legal move for the player to move in `state`."""
        ...


@runtime_checkable
class MatchAgent(Protocol):
    """An agent that can also choose knowing the match's totals (all players see them).

    [`play_match`][scopa.agents.play_match], and the matches of a tournament, call
    `choose_in_match` instead of `choose`.
    """

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """A legal move for the player whose view `seen` is."""
        ...

    def choose_in_match(
        self, seen: PlayerView, totals: tuple[int, ...], rng: random.Random
    ) -> Move:
        """A legal move, each side having `totals` points from the hands before this one."""
        ...


AgentFunction = Callable[[PlayerView, random.Random], Move]
"""A plain function that chooses a move: `choose(seen, rng) -> Move`."""


@attrs.frozen
class FunctionAgent:
    """An agent made of a plain function `(seen, rng) -> Move`.

    [`as_agent`][scopa.agents.as_agent] wraps functions in it; a module-level function can be
    pickled, so such an agent also runs on an executor.
    """

    function: AgentFunction
    """The function that chooses the move."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The move the function chooses."""
        return self.function(seen, rng)


def as_agent(agent: Agent | AgentFunction) -> Agent:
    """An agent, or a plain function `(seen, rng) -> Move` made into one.

    Raises:
        TypeError: `agent` is neither: an agent is an object with a method
            `choose(seen, rng)` that returns a legal `Move`, or such a function.
    """
    if isinstance(agent, Agent):
        return agent
    if callable(agent):
        return FunctionAgent(agent)
    raise TypeError(
        f"an agent must have a choose(seen, rng) method returning a Move, or be a function "
        f"(seen, rng) -> Move; got {type(agent).__name__}"
    )


def _legal_moves(seen: PlayerView) -> tuple[Move, ...]:
    """The legal moves of the player whose view `seen` is, refusing anything but a view."""
    if not isinstance(seen, PlayerView):
        raise TypeError(
            f"an agent chooses from a PlayerView, not a {type(seen).__name__}: "
            "give it scopa.view(state)"
        )
    return seen.legal_moves()


@attrs.frozen
class RandomAgent:
    """Plays a uniformly random legal move."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        moves = _legal_moves(seen)
        return moves[int(rng.random() * len(moves))]


_SETTEBELLO = Card(Rank.SETTE, Suit.DENARI)
_PRIMIERA_WEIGHT = {Rank.SETTE: 1.5, Rank.SEI: 1.0, Rank.ASSO: 0.5}


def _card_worth(card: Card) -> float:
    """How much a card is worth to its capturer, by the greedy heuristic."""
    worth = 0.25 + _PRIMIERA_WEIGHT.get(card.rank, 0.0)
    if card.suit is Suit.DENARI:
        worth += 1.0
    if card == _SETTEBELLO:
        worth += 6.0
    return worth


@attrs.frozen
class GreedyAgent:
    """Plays the move with the best immediate value, by a fixed heuristic.

    A capture is worth 10 for a scopa, then for each card taken (the played card
    included): 6 more for the settebello, 1 for a denaro, 1.5 for a seven, 1 for a six and
    0.5 for an Ace (the primiera cards), and 0.25 for the card itself. Laying a card down
    costs half that card's worth. Leaving a table whose cards add up to 10 or less (which
    one card could sweep), or any table when Aces sweep, costs 3. A declaration (Cirulla)
    adds 10 for each point it scores, as a scopa does for its point. It never claims the
    target: a view does not hold the match's totals. Ties are broken at random.
    """

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The legal move of highest heuristic value."""
        moves = _legal_moves(seen)
        if len(moves) == 1:
            return moves[0]
        rules = seen.rules
        table = seen.table
        final = seen.stock_size == 0 and sum(seen.hand_sizes) == 1
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            if move.claim:
                continue  # the same play without the claim is always legal too
            if move.captured:
                left = table - move.captured
                value = sum(map(_card_worth, move.captured)) + _card_worth(move.card)
                if not left and (not final or rules.scopa_on_last_play):
                    value += 10.0
            else:
                left = table | {move.card}
                value = -0.5 * _card_worth(move.card)
            if left and (rules.ace_captures_all or sum(c.rank for c in left) <= 10):
                value -= 3.0
            if move.declaration is not None:
                value += 10.0 * move.declaration.points
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[int(rng.random() * len(best))]


_Chooser = Callable[[GameState, random.Random], Move]


def _choosers(
    agents: Mapping[int, Agent | OmniscientAgent | AgentFunction], omniscient: bool
) -> dict[int, _Chooser]:
    """For each player, how its agent chooses from a state.

    An agent, or a plain function made into one, is given the view of the player to move;
    an omniscient agent, allowed only with `omniscient`, the whole state.
    """
    choosers: dict[int, _Chooser] = {}
    for player, agent in agents.items():
        if isinstance(agent, OmniscientAgent):
            if not omniscient:
                raise InvalidArgumentError(
                    f"the agent of player {player}, a {type(agent).__name__}, reads the whole "
                    "state: it plays only with omniscient=True"
                )
            choosers[player] = agent.choose_from_state
        elif isinstance(agent, Agent) or callable(agent):
            choosers[player] = _through_view(as_agent(agent))
        else:
            raise TypeError(
                f"the agent of player {player} must have a choose(seen, rng) method or be "
                f"a function (seen, rng) -> Move, not a {type(agent).__name__}"
            )
    return choosers


def _through_view(agent: Agent) -> _Chooser:
    """A chooser that gives `agent` the view of the player to move, and nothing more."""

    def choose(state: GameState, rng: random.Random) -> Move:
        return agent.choose(view(state), rng)

    return choose


def play_hand(
    state: GameState,
    agents: Mapping[int, Agent | OmniscientAgent | AgentFunction],
    rng: random.Random,
    *,
    omniscient: bool = False,
) -> GameState:
    """Play `state` to the end of its hand, each player's moves chosen by its agent.

    Each agent is given the view of its player; a plain function `(seen, rng) -> Move` is
    an agent too (see [`as_agent`][scopa.agents.as_agent]). Only with `omniscient=True` may
    an agent be an [`OmniscientAgent`][scopa.agents.OmniscientAgent], given the whole state.

    Raises:
        InvalidArgumentError: an agent is omniscient and `omniscient` is false.
        TypeError: an agent has no `choose` method and is not a function.
    """
    choosers = _choosers(agents, omniscient)
    while not state.is_terminal:
        player = state.current_player
        assert player is not None
        state = state.apply(choosers[player](state, rng))
    return state


def play_match(
    match: Match,
    agents: Mapping[int, Agent | OmniscientAgent | AgentFunction],
    rng: random.Random,
    *,
    omniscient: bool = False,
) -> Match:
    """Play `match` to its end, each player's moves chosen by its agent, as `play_hand` does.

    A [`MatchAgent`][scopa.agents.MatchAgent] (one that is not omniscient) is given the
    match's totals as well as its view.

    Raises:
        InvalidArgumentError: an agent is omniscient and `omniscient` is false.
        TypeError: an agent has no `choose` method and is not a function.
    """
    choosers = _choosers(agents, omniscient)
    in_match = {
        player: agent
        for player, agent in agents.items()
        if isinstance(agent, MatchAgent) and not isinstance(agent, OmniscientAgent)
    }
    while not match.is_over:
        state = match.state
        player = state.current_player
        assert player is not None
        agent = in_match.get(player)
        if agent is None:
            move = choosers[player](state, rng)
        else:
            move = agent.choose_in_match(view(state), match.totals, rng)
        match = match.apply(move)
    return match


@attrs.frozen
class FlatMonteCarloAgent:
    """Flat Monte Carlo search over determinizations, with rollouts by another agent.

    Each iteration redeals the cards the player cannot see
    ([`PlayerView.resample`][scopa.PlayerView.resample]), then plays every legal move in
    that deal and finishes the hand with the `rollout` agent for everyone. A move's value
    is the mean, over the iterations, of the points its side makes in the hand minus the
    best other side's. The budget is `iterations`, or `seconds` measured with the `clock`
    you pass (the library reads no clock of its own), whichever ends first.

    Raises:
        InvalidArgumentError: `iterations` is below 1, or `seconds` is negative, infinite
            or not a number.
        TypeError: a setting is of the wrong type (`rollout` is neither an agent nor a
            function).
    """

    iterations: int = attrs.field(default=200, validator=at_least_one)
    """The most determinizations per move."""
    seconds: float | None = attrs.field(default=None, validator=optional_seconds)
    """A time budget per move, used only with a `clock`."""
    clock: Callable[[], float] | None = attrs.field(
        default=None, eq=False, validator=optional_function
    )
    """A function giving the time in seconds, such as `time.perf_counter`."""
    rollout: Agent = attrs.field(factory=GreedyAgent, converter=as_agent)
    """The agent that finishes each simulated hand (a plain function is made an agent)."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The move of best mean outcome over the determinizations."""
        moves = _legal_moves(seen)
        if len(moves) == 1:
            return moves[0]
        rules = seen.rules
        side = rules.side_of(seen.player)
        totals = [0.0] * len(moves)
        deadline = None
        if self.seconds is not None and self.clock is not None:
            deadline = self.clock() + self.seconds
        agents: dict[int, Agent] = dict.fromkeys(range(rules.players), self.rollout)
        for _ in range(self.iterations):
            world = seen.resample(rng)
            for i, move in enumerate(moves):
                points = play_hand(world.apply(move), agents, rng).hand_score().points
                others = max(p for s, p in enumerate(points) if s != side)
                totals[i] += points[side] - others
            if deadline is not None and self.clock is not None and self.clock() >= deadline:
                break
        best = max(totals)
        return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
