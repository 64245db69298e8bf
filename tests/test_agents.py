"""Agents play legal moves from views alone; greedy by hand; omniscience only when asked."""

from __future__ import annotations

import math
import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    GameState,
    InvalidArgumentError,
    Match,
    Move,
    PlayerView,
    Rules,
    find_variant,
    view,
)
from scopa.agents import (
    Agent,
    FlatMonteCarloAgent,
    GreedyAgent,
    MatchAgent,
    OmniscientAgent,
    RandomAgent,
    as_agent,
    play_hand,
    play_match,
)
from scopa.search import AlphaBetaAgent, ISMCTSAgent
from tests.helpers import CLASSIC, every_preset, lead
from tests.strategies import PRESETS, states

AGENTS: list[Agent] = [
    RandomAgent(),
    GreedyAgent(),
    FlatMonteCarloAgent(iterations=2),
    AlphaBetaAgent(iterations=2, depth=2),
    ISMCTSAgent(iterations=20),
]


@every_preset
@settings(max_examples=10)
@given(data=st.data())
def test_agents_only_play_legal_moves(rules: Rules, data: st.DataObject) -> None:
    state = data.draw(states(st.just(rules)))
    if state.is_terminal:
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for agent in AGENTS:
        assert isinstance(agent, Agent)
        assert agent.choose(view(state), rng) in state.legal_moves()


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: type(agent).__name__)
def test_agents_refuse_a_whole_state(agent: Agent) -> None:
    state = GameState.new(CLASSIC, seed=2)
    with pytest.raises(TypeError, match=r"chooses from a PlayerView, not a GameState"):
        agent.choose(state, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", PRESETS[:4], ids=[r.name for r in PRESETS[:4]])
def test_agents_play_whole_hands(rules: Rules) -> None:
    players = {p: AGENTS[p % len(AGENTS)] for p in range(rules.players)}
    end = play_hand(GameState.new(rules, seed=9), players, random.Random(1))
    assert end.is_terminal


def test_greedy_takes_a_scopa() -> None:
    # 7D can sweep {3C, 4S}; laying 9B would leave 3+4+9 = 16 on the table
    state = lead(CLASSIC, "7D 9B", "3C 4S")
    assert GreedyAgent().choose(view(state), random.Random(0)) == Move.parse("7Dx3C+4S")


def test_greedy_prefers_the_settebello() -> None:
    # 7C may take 7D (settebello) and 7B is left; 2C must take 2S: 7D is worth far more
    state = lead(CLASSIC, "7C 2C", "7D 2S 9B")
    assert GreedyAgent().choose(view(state), random.Random(0)) == Move.parse("7Cx7D")


def test_greedy_lays_the_cheapest_card_safely() -> None:
    # nothing captures: laying 10B leaves 10+9 = 19 (safe); laying 1C leaves 10; 10B is also
    # worth less (0.25 against 0.75)
    state = lead(CLASSIC, "10B 1C", "9S")
    assert GreedyAgent().choose(view(state), random.Random(0)) == Move.parse("10B")


def test_flat_monte_carlo_uses_a_clock_only_when_given_one() -> None:
    ticks = iter(range(1000))
    calls: list[int] = []

    def clock() -> float:
        value = next(ticks)
        calls.append(value)
        return float(value)

    seen = view(GameState.new(CLASSIC, seed=4))
    agent = FlatMonteCarloAgent(iterations=50, seconds=2.0, clock=clock)
    assert agent.choose(seen, random.Random(0)) in seen.legal_moves()
    assert 2 <= len(calls) <= 4  # the budget of 2 "seconds" ends the search early
    untimed = FlatMonteCarloAgent(iterations=3, seconds=1.0)
    assert untimed.choose(seen, random.Random(0)) in seen.legal_moves()


# ----------------------------------------------------------------------------- what agents see


@attrs.frozen
class Spy:
    """Plays the first legal move and keeps everything it was given, pickled."""

    given: list[bytes] = attrs.field(factory=list, eq=False)

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        assert type(seen) is PlayerView
        assert seen.player == seen.current_player
        self.given.append(pickle.dumps(seen))
        return seen.legal_moves()[0]


@attrs.frozen
class Snoop:
    """Looks for the hidden cards wherever a careless harness might have left them."""

    found: list[object] = attrs.field(factory=list, eq=False)

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        for name in ("hands", "stock", "deck", "state", "_state", "_deal", "_hands"):
            self.found.append(getattr(seen, name, None))
        return seen.legal_moves()[0]


def test_nothing_an_agent_is_given_depends_on_the_cards_it_cannot_see() -> None:
    # Two deals that player 1 cannot tell apart: the same hand 1 and table, but another hand
    # for player 0 and another stock. Everything reachable from what the agent is given
    # (all of it pickles) is the same byte for byte, so it cannot act on the hidden cards.
    dealt = GameState.new(CLASSIC, seed=4)
    other = view(dealt, 1).resample(random.Random(1))
    assert other.hands[1] == dealt.hands[1]
    assert other.hands[0] != dealt.hands[0]
    given = []
    for state in (dealt, other):
        spy = Spy()
        play_hand(state, {0: GreedyAgent(), 1: spy}, random.Random(0))
        given.append(spy.given[0])
    assert given[0] == given[1]
    snoop = Snoop()
    play_hand(dealt, {0: GreedyAgent(), 1: snoop}, random.Random(0))
    assert snoop.found
    assert set(snoop.found) == {None}


def test_a_match_gives_every_agent_its_view() -> None:
    spies = {0: Spy(), 1: Spy()}
    end = play_match(Match.new(CLASSIC, seed=5), spies, random.Random(0))
    assert end.is_over
    moves = sum(len(hand.history) for hand in end.hands)
    assert len(spies[0].given) + len(spies[1].given) == moves


@attrs.frozen
class Counter:
    """A match agent that plays greedily and keeps the totals it is given at each move."""

    totals: list[tuple[int, ...]] = attrs.field(factory=list, eq=False)

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        raise AssertionError("a match agent is asked with the totals")

    def choose_in_match(
        self, seen: PlayerView, totals: tuple[int, ...], rng: random.Random
    ) -> Move:
        self.totals.append(totals)
        return GreedyAgent().choose(seen, rng)


def test_a_match_gives_a_match_agent_the_totals_before_each_hand() -> None:
    counter = Counter()
    assert isinstance(counter, MatchAgent)
    end = play_match(Match.new(CLASSIC, seed=5), {0: GreedyAgent(), 1: counter}, random.Random(0))
    expected = []
    totals = (0, 0)
    for hand in end.hands:
        expected += [totals] * sum(player == 1 for player, _ in hand.history)
        totals = (totals[0] + hand.points[0], totals[1] + hand.points[1])
    assert len(end.hands) > 1
    assert counter.totals == expected


@attrs.frozen
class Peeker:
    """Reads the real deal: the move whose hand, finished by greedy play, ends best."""

    seen: list[GameState] = attrs.field(factory=list, eq=False)

    def choose_from_state(self, state: GameState, rng: random.Random) -> Move:
        self.seen.append(state)
        greedy = dict.fromkeys(range(state.rules.players), GreedyAgent())
        side = state.rules.side_of(state.current_player or 0)

        def outcome(move: Move) -> int:
            points = play_hand(state.apply(move), greedy, rng).hand_score().points
            return points[side] - max(p for s, p in enumerate(points) if s != side)

        return max(state.legal_moves(), key=outcome)


def test_an_omniscient_agent_plays_only_when_asked_for_by_name() -> None:
    dealt = GameState.new(CLASSIC, seed=4)
    peeker = Peeker()
    assert isinstance(peeker, OmniscientAgent)
    assert not isinstance(peeker, Agent)
    agents: dict[int, Agent | OmniscientAgent] = {0: GreedyAgent(), 1: peeker}
    with pytest.raises(InvalidArgumentError, match=r"player 1, a Peeker, .* omniscient=True"):
        play_hand(dealt, agents, random.Random(0))
    with pytest.raises(InvalidArgumentError, match="omniscient=True"):
        play_match(Match.new(CLASSIC, seed=1), agents, random.Random(0))
    assert not peeker.seen
    end = play_hand(dealt, agents, random.Random(0), omniscient=True)
    assert end.is_terminal
    assert peeker.seen[0] == dealt  # every card, the other hand and the stock included
    with pytest.raises(TypeError, match=r"choose\(seen, rng\)"):
        as_agent(peeker)  # type: ignore[arg-type]


def first_move(seen: PlayerView, rng: random.Random) -> Move:
    """An agent written as a plain function: the first legal move."""
    return seen.legal_moves()[0]


def test_a_plain_function_plays_hands_and_matches_as_an_agent() -> None:
    seen: list[PlayerView] = []

    def recording(view_of: PlayerView, rng: random.Random) -> Move:
        seen.append(view_of)
        return view_of.legal_moves()[-1]

    dealt = GameState.new(CLASSIC, seed=2)
    end = play_hand(dealt, {0: first_move, 1: recording}, random.Random(0))
    assert end.is_terminal
    assert seen
    assert all(isinstance(v, PlayerView) and v.player == 1 for v in seen)
    # each player's moves are the ones its function chose from its view
    state = dealt
    for player, move in end.history:
        legal = state.legal_moves()
        assert move == (legal[0] if player == 0 else legal[-1])
        state = state.apply(move)
    match = play_match(
        Match.new(CLASSIC, seed=3), {0: first_move, 1: GreedyAgent()}, random.Random(0)
    )
    assert match.is_over


@pytest.mark.parametrize("bad", [None, "greedy", object()])
def test_what_is_not_an_agent_cannot_play(bad: object) -> None:
    seats = {0: bad, 1: GreedyAgent()}
    with pytest.raises(TypeError, match=r"player 0 must have a choose\(seen, rng\) method"):
        play_hand(GameState.new(CLASSIC, seed=1), seats, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("settings", "error", "words"),
    [
        ({"iterations": 0}, InvalidArgumentError, "iterations must be at least 1"),
        ({"iterations": -3}, InvalidArgumentError, "iterations must be at least 1"),
        ({"iterations": 2.5}, TypeError, "iterations must be an int"),
        ({"seconds": -1.0}, InvalidArgumentError, "seconds must be a finite"),
        ({"seconds": math.nan}, InvalidArgumentError, "seconds must be a finite"),
        ({"seconds": math.inf}, InvalidArgumentError, "seconds must be a finite"),
        ({"seconds": "1"}, TypeError, "seconds must be a number"),
        ({"clock": 3.0}, TypeError, "clock must be a function"),
        ({"rollout": 7}, TypeError, "an agent must have a choose"),
    ],
)
def test_flat_monte_carlo_refuses_settings_that_mean_nothing(
    settings: dict[str, object], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        FlatMonteCarloAgent(**settings)  # type: ignore[arg-type]


def test_flat_monte_carlo_rolls_out_with_a_plain_function() -> None:
    def first(seen: PlayerView, rng: random.Random) -> Move:
        return seen.legal_moves()[0]

    agent = FlatMonteCarloAgent(iterations=2, rollout=first)
    state = GameState.new(find_variant("classic"), seed=3)
    player = state.current_player
    assert player is not None
    assert agent.choose(view(state, player), random.Random(0)) in state.legal_moves()
