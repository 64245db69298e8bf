"""The search module: mask scoring, the evaluation, the endgame solver and the agents;
and resampling that agrees with the plays seen.
"""

from __future__ import annotations

import itertools
import math
import pickle
import random
import threading
from collections.abc import Callable, Iterator

import attrs
import pytest

import scopa.state
from scopa import (
    DECK,
    Captures,
    Card,
    CategoryScore,
    CompulsoryCapture,
    Deck,
    Denari,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Match,
    Move,
    Napola,
    PlayerView,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    Rank,
    ReBello,
    Rules,
    ScoringRules,
    find_variant,
    view,
)
from scopa._search_core import _chances_of_most, scoring_of, worth_of
from scopa.agents import MatchAgent, play_match
from scopa.masks import cards_of
from scopa.odds import match_chances
from scopa.scoring import COMPONENTS, Carte, MissingSuit, strict_max
from scopa.search import AlphaBetaAgent, ISMCTSAgent, Solution, expected_points, solve
from tests.helpers import (
    CLASSIC,
    card_list,
    cards,
    chi_square,
    chi_square_critical,
    rest_of,
    source_only,
)
from tests.helpers import position as written_position
from tests.strategies import PRESETS

AGENTS: list[AlphaBetaAgent | ISMCTSAgent] = [
    AlphaBetaAgent(iterations=2, depth=2),
    ISMCTSAgent(iterations=20),
]


def random_hand_end(rules: Rules, rng: random.Random, plays: int | None = None) -> GameState:
    """A hand of `rules` played at random, to its end or for `plays` plays."""
    state = GameState.new(rules, seed=rng.randrange(2**32))
    while not state.is_terminal and (plays is None or plays > 0):
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
        plays = None if plays is None else plays - 1
    return state


# ----------------------------------------------------------------------------- scoring


@attrs.frozen
class MostAces:
    """A scoring component the search does not know: a point for the most Aces."""

    name: str = "assi"

    def score(self, hand: Captures) -> CategoryScore:
        aces = tuple(sum(card.rank == Rank.ASSO for card in pile) for pile in hand.piles)
        return CategoryScore(self.name, strict_max(aces), aces)


SCORINGS = [
    ScoringRules.standard(PrimieraTable.ZERO_FIGURES, MissingSuit.ZERO),
    ScoringRules.standard(PrimieraTable.TRETRE).with_component(Napola()).with_component(ReBello()),
    ScoringRules((Carte(threshold=21), Denari(threshold=6), Primiera(rule=PrimieraRule.SUM))),
    ScoringRules.standard()
    .without("primiera")
    .with_component(Primiera(rule=PrimieraRule.MOST_SEVENS_CASCADE)),
    ScoringRules.standard().with_component(MostAces()),
    # every component of the library, at its defaults
    ScoringRules(tuple(kind(name=f"{kind.__name__}") for kind in COMPONENTS)),
]
SCORED_RULES = PRESETS + [
    attrs.evolve(base, scoring=scoring)
    for base in (CLASSIC, find_variant("scopa-3"), find_variant("scopa-4"))
    for scoring in SCORINGS
]


@pytest.mark.parametrize("number", range(len(SCORED_RULES)))
def test_mask_scoring_is_the_hand_score(number: int) -> None:
    rules = SCORED_RULES[number]
    rng = random.Random(number)
    scoring = scoring_of(rules)
    for _ in range(60):
        end = random_hand_end(rules, rng)
        assert tuple(scoring.points(end)) == end.hand_score().points
        assert expected_points(end) == tuple(map(float, end.hand_score().points))


# ----------------------------------------------------------------------------- the evaluation


def urn_chances(counts: tuple[int, ...], out: int, threshold: int, spread: float) -> list[float]:
    """The chances of strictly the most cards by every order of the cards out, one by one.

    A Dirichlet-multinomial share is a Pólya urn: the next card goes to a side with
    probability (spread + cards it got so far) / (sides * spread + cards dealt so far).
    """
    sides = len(counts)
    chances = [0.0] * sides
    for order in itertools.product(range(sides), repeat=out):
        chance = 1.0
        got = [0] * sides
        for dealt, side in enumerate(order):
            chance *= (spread + got[side]) / (sides * spread + dealt)
            got[side] += 1
        final = [c + g for c, g in zip(counts, got, strict=True)]
        winner = strict_max(final, [f >= threshold for f in final])
        for side in range(sides):
            chances[side] += chance * winner[side]
    return chances


@pytest.mark.parametrize(
    ("counts", "out", "threshold", "spread"),
    [
        ((19, 19), 2, 0, 2.5),
        ((10, 12), 9, 0, 1.0),
        ((3, 3, 2), 6, 0, 4.0),
        ((1, 2, 0, 2), 5, 3, 0.5),
        ((4, 1, 1), 7, 5, 1e6),
    ],
)
def test_chances_of_the_most_cards_follow_the_urn(
    counts: tuple[int, ...], out: int, threshold: int, spread: float
) -> None:
    found = _chances_of_most(counts, out, threshold, spread)
    expected = urn_chances(counts, out, threshold, spread)
    assert found == pytest.approx(expected, abs=1e-9)


def test_chances_of_the_most_cards_by_hand() -> None:
    # 19-19 with two cards out: a side wins only by taking both; by the urn the second
    # card follows the first with chance (spread + 1) / (2 spread + 1)
    assert _chances_of_most((19, 19), 2, 0, 2.5) == pytest.approx((3.5 / 12, 3.5 / 12))
    # 20-19 with one card out: the leader wins if it gets it, else 20-20 scores nothing
    assert _chances_of_most((20, 19), 1, 0, 2.5) == pytest.approx((0.5, 0.0))
    # with a huge spread the split is even: 22 cards out, the first side needs 11 of them
    even = sum(math.comb(22, k) for k in range(11, 23)) / 2**22
    assert _chances_of_most((10, 8), 22, 0, 1e9)[0] == pytest.approx(even)


def test_decided_categories_count_in_full() -> None:
    # player 1 holds 21 cards, six denari, the settebello and all four sevens: whatever the
    # 15 cards out do, carte, denari, settebello and primiera are theirs
    state = written_position(
        CLASSIC,
        ["1C 2C 3C", "4C 5C 6C"],
        "8C 9C 10C",
        stock="1S 2S 3S 4S 5S 6S",
        piles=["1D 2D 3D", "*"],
        dealer=1,
        last_capturer=1,
    )
    assert len(state.piles[1]) == 22
    assert expected_points(state) == pytest.approx((0.0, 4.0))


def test_expected_points_by_hand() -> None:
    # player 0 has captured 18 cards (nine denari and nine coppe), player 1 has 19 (no
    # denari, no coppe); out are 7D and 6S in the hands and 10C on the table
    state = written_position(
        CLASSIC,
        ["7D", "6S"],
        "10C",
        piles=["1-6D 8-10D 1-9C", "1-5S 7-10S 1-10B"],
        dealer=1,
        last_capturer=1,
    )
    # carte: player 0 needs all three cards out, player 1 two of them. By the urn of
    # spread 2.5, a given side gets all three with chance 2.5 * 3.5 * 4.5 / (5 * 6 * 7),
    # 0.1875, and exactly two with chance 3 * 2.5 * 3.5 * 2.5 / (5 * 6 * 7), 0.3125.
    carte = (0.1875, 0.3125 + 0.1875)
    # denari: player 0 has nine. Settebello: one half each. Primiera: player 0 can never
    # hold bastoni; player 1 holds every suit if it takes 7D and 10C, one half each.
    assert expected_points(state) == pytest.approx((carte[0] + 1 + 0.5, carte[1] + 0.5 + 0.25))


def test_a_view_is_evaluated_as_its_state() -> None:
    state = random_hand_end(CLASSIC, random.Random(4), plays=11)
    assert expected_points(view(state, 0)) == expected_points(state)
    assert expected_points(view(state, 1)) == expected_points(state)
    with pytest.raises(TypeError, match="GameState or a PlayerView"):
        expected_points("state")  # type: ignore[arg-type]


def test_at_the_deal_both_sides_expect_the_same() -> None:
    first, second = expected_points(GameState.new(CLASSIC, seed=1))
    assert first == pytest.approx(second)
    # the categories are each worth at most 1 and rarely nobody's: at least 3.5 of the
    # 4 points of carte, denari, settebello and primiera are expected to be scored
    assert 3.5 < first + second < 4


# ----------------------------------------------------------------------------- the solver


def brute_force(state: GameState, side: int) -> int:
    """The side's margin with best play, by plain minimax over every line."""
    if state.is_terminal:
        points = state.hand_score().points
        return points[side] - max(p for s, p in enumerate(points) if s != side)
    values = [brute_force(state.apply(move), side) for move in state.legal_moves()]
    player = state.current_player
    assert player is not None
    return max(values) if state.rules.side_of(player) == side else min(values)


def endgames(rules: Rules, count: int, seed: int) -> Iterator[GameState]:
    """Positions of the last deal of random hands (at most 7 plays left)."""
    rng = random.Random(seed)
    while count:
        state = random_hand_end(rules, rng, plays=rules.plays_per_hand - rng.randrange(2, 8))
        if not state.stock:
            count -= 1
            yield state


@pytest.mark.parametrize(
    "name", ["classic", "tretre", "scopa-d-assi", "asso-piglia-tutto", "scopa-3", "scopa-4"]
)
def test_the_solver_agrees_with_brute_force(name: str) -> None:
    rules = find_variant(name)
    for state in endgames(rules, 25, seed=len(name)):
        player = state.current_player
        assert player is not None
        for side in range(rules.number_of_sides):
            solution = solve(state, side)
            assert solution.value == brute_force(state, side)
            mine = rules.side_of(player) == side
            for move in state.legal_moves():
                value = brute_force(state.apply(move), side)
                best = value == solution.value
                assert (move in solution.moves) == best
                assert value <= solution.value if mine else value >= solution.value


def test_the_solver_by_hand() -> None:
    # player 0 leads 7D or 2C onto 5S; player 1 holds 7C and 8B and has every other card.
    # 7D laid: 7C takes it (or 8B is laid and 7C takes it next): player 1 takes the last
    # capture and every card, 4 points to 0. 2C laid: 7C sweeps 5S + 2C, a scopa, and
    # takes the rest as last capturer, 5 to 0 (if 8B is laid instead, 7D takes 5S + 2C
    # and the leftovers: 1 to 3). So 7D, and player 0 loses by 4.
    state = written_position(CLASSIC, ["7D 2C", "7C 8B"], "5S", dealer=1)
    assert solve(state) == Solution(-4, (Move.parse("7D"),))
    assert solve(state, 1) == Solution(4, (Move.parse("7D"),))
    assert solve(state.apply(Move.parse("2C"))) == Solution(5, (Move.parse("7Cx2C+5S"),))


def test_solving_a_finished_hand_gives_its_margin() -> None:
    end = random_hand_end(CLASSIC, random.Random(2))
    points = end.hand_score().points
    assert solve(end) == Solution(points[0] - points[1], ())
    assert solve(end, 1) == Solution(points[1] - points[0], ())


def test_solve_checks_its_arguments() -> None:
    state = next(endgames(CLASSIC, 1, seed=3))
    with pytest.raises(TypeError, match="GameState"):
        solve(view(state))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="side"):
        solve(state, 2)


# ----------------------------------------------------------------------------- the agents


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: type(agent).__name__)
def test_agents_refuse_a_view_without_a_move(agent: AlphaBetaAgent | ISMCTSAgent) -> None:
    state = GameState.new(CLASSIC, seed=5)
    waiting = view(state, 1 - (state.current_player or 0))
    with pytest.raises(InvalidArgumentError, match="no move to choose"):
        agent.choose(waiting, random.Random(0))
    with pytest.raises(TypeError, match="PlayerView"):
        agent.choose("view", random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [AlphaBetaAgent, ISMCTSAgent])
def test_budgets_are_kept(make: Callable[..., AlphaBetaAgent | ISMCTSAgent]) -> None:
    state = GameState.new(CLASSIC, seed=4)
    assert len(state.legal_moves()) > 1
    readings: list[float] = []

    def ticking() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    # one reading sets the deadline at 3, then one after each iteration: 1, 2, 3 and stop
    make(iterations=1000, seconds=3.0, clock=ticking).choose(view(state), random.Random(0))
    assert readings == [0.0, 1.0, 2.0, 3.0]

    def stopped() -> float:
        readings.append(0.0)
        return 0.0

    # the clock stands still: the iterations end the search
    readings.clear()
    make(iterations=5, seconds=3.0, clock=stopped).choose(view(state), random.Random(0))
    assert len(readings) == 1 + 5
    # no time budget: the clock is never read
    readings.clear()
    make(iterations=5, clock=ticking).choose(view(state), random.Random(0))
    assert readings == []


def test_agents_solve_a_small_open_endgame_on_the_least_budget() -> None:
    # the position of test_the_solver_by_hand: 7D is the only best lead. A search one play
    # deep cannot tell it from 2C (either card just joins the table), so it takes the
    # whole hand to find it: a cheap solve, done whatever the budget.
    state = written_position(CLASSIC, ["7D 2C", "7C 8B"], "5S", dealer=1)
    for agent in (AlphaBetaAgent(iterations=1, depth=1), ISMCTSAgent(iterations=1)):
        for seed in range(20):
            assert agent.choose(view(state), random.Random(seed)) == Move.parse("7D")


def chosen_in_time(agent: AlphaBetaAgent | ISMCTSAgent, seen: PlayerView) -> Move:
    """The agent's move, chosen on a thread: a failure if it takes over a minute.

    The minute is no measure of speed, only a guard that turns a search that never ends
    into a failure rather than a test run that never ends.
    """
    outcome: list[Move | BaseException] = []

    def run() -> None:
        try:
            outcome.append(agent.choose(seen, random.Random(0)))
        except BaseException as error:  # raised again below
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    assert outcome, f"{agent} chose no move within a minute"
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def big_open_deal(hand_size: int) -> GameState:
    """The first position of the last deal of classic with hands of `hand_size` cards and
    four on the table (18 cards: the first deal), played at random up to there."""
    state = GameState.new(attrs.evolve(CLASSIC, hand_size=hand_size), seed=2)
    rng = random.Random(2)
    while state.stock:
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
    assert [len(hand) for hand in state.hands] == [hand_size] * 2
    return state


BIG_OPEN_DEALS = [9, 18]
LEAST_BUDGETS = [
    ISMCTSAgent(iterations=1),
    AlphaBetaAgent(iterations=1),
    AlphaBetaAgent(iterations=1, depth=40),
]


@pytest.mark.parametrize("hand_size", BIG_OPEN_DEALS)
@pytest.mark.parametrize("agent", LEAST_BUDGETS, ids=repr)
def test_open_deals_too_big_to_solve_keep_to_the_iterations(
    agent: AlphaBetaAgent | ISMCTSAgent, hand_size: int
) -> None:
    state = big_open_deal(hand_size)
    assert chosen_in_time(agent, view(state)) in state.legal_moves()


@pytest.mark.parametrize("hand_size", BIG_OPEN_DEALS)
@pytest.mark.parametrize("make", [AlphaBetaAgent, ISMCTSAgent])
def test_open_deals_too_big_to_solve_keep_to_the_time(
    make: Callable[..., AlphaBetaAgent | ISMCTSAgent], hand_size: int
) -> None:
    state = big_open_deal(hand_size)
    readings: list[float] = []

    def ticking() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    # the deadline is set at 5 by the first reading; a solve reads the clock every 1,024
    # positions, and stops at 5
    agent = make(iterations=10**9, seconds=5.0, clock=ticking)
    assert chosen_in_time(agent, view(state)) in state.legal_moves()
    assert readings == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_a_deep_search_of_a_big_deal_ends() -> None:
    state = GameState.new(find_variant("scopone"), seed=1)
    assert chosen_in_time(AlphaBetaAgent(iterations=1, depth=40), view(state)) in (
        state.legal_moves()
    )
    readings: list[float] = []

    def ticking() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    # the first deal's search is cut short by the deadline: the move comes from one play
    timed = AlphaBetaAgent(iterations=10**9, depth=40, seconds=3.0, clock=ticking)
    assert chosen_in_time(timed, view(state)) in state.legal_moves()
    assert readings == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    ("make", "settings", "error", "named"),
    [
        (AlphaBetaAgent, {"depth": 0}, InvalidArgumentError, "depth"),
        (AlphaBetaAgent, {"depth": -3}, InvalidArgumentError, "depth"),
        (AlphaBetaAgent, {"depth": None}, TypeError, "depth"),
        (AlphaBetaAgent, {"depth": 2.0}, TypeError, "depth"),
        (AlphaBetaAgent, {"iterations": 0}, InvalidArgumentError, "iterations"),
        (ISMCTSAgent, {"iterations": 0}, InvalidArgumentError, "iterations"),
        (ISMCTSAgent, {"iterations": -1}, InvalidArgumentError, "iterations"),
        (ISMCTSAgent, {"iterations": math.inf}, TypeError, "iterations"),
        (ISMCTSAgent, {"iterations": True}, TypeError, "iterations"),
        (AlphaBetaAgent, {"seconds": -1.0}, InvalidArgumentError, "seconds"),
        (ISMCTSAgent, {"seconds": math.nan}, InvalidArgumentError, "seconds"),
        (ISMCTSAgent, {"seconds": math.inf}, InvalidArgumentError, "seconds"),
        (AlphaBetaAgent, {"seconds": "1"}, TypeError, "seconds"),
        (ISMCTSAgent, {"clock": 0.5}, TypeError, "clock"),
        (ISMCTSAgent, {"exploration": math.nan}, InvalidArgumentError, "exploration"),
        (ISMCTSAgent, {"exploration": math.inf}, InvalidArgumentError, "exploration"),
        (ISMCTSAgent, {"exploration": -1.0}, InvalidArgumentError, "exploration"),
        (ISMCTSAgent, {"exploration": "2"}, TypeError, "exploration"),
    ],
)
def test_agents_refuse_settings_that_would_never_end_or_mean_nothing(
    make: Callable[..., object], settings: dict[str, object], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        make(**settings)


@pytest.mark.parametrize("make", [AlphaBetaAgent, ISMCTSAgent])
def test_no_time_is_one_iteration(make: Callable[..., AlphaBetaAgent | ISMCTSAgent]) -> None:
    state = GameState.new(CLASSIC, seed=4)
    readings: list[float] = []

    def stopped() -> float:
        readings.append(-100.0)
        return -100.0

    # the deadline is the time now: the clock is read at the start and after one iteration
    agent = make(iterations=5, seconds=0, clock=stopped)
    assert agent.choose(view(state), random.Random(0)) in state.legal_moves()
    assert len(readings) == 2


def test_agents_solve_open_endgames() -> None:
    rng = random.Random(8)
    for state in endgames(CLASSIC, 30, seed=6):
        solution = solve(state)
        for agent in AGENTS:
            assert agent.choose(view(state), rng) in solution.moves


def match_brute_force(state: GameState, totals: tuple[int, int]) -> float:
    """Side 0's chance of winning the match after the hand, with best play, by plain minimax."""
    if state.is_terminal:
        first, second = state.hand_score().points
        return match_chances(state.rules, (totals[0] + first, totals[1] + second))[0]
    values = [match_brute_force(state.apply(move), totals) for move in state.legal_moves()]
    return max(values) if state.current_player == 0 else min(values)


def test_match_aware_agents_play_open_endgames_for_the_match() -> None:
    rng = random.Random(5)
    for number, state in enumerate(endgames(CLASSIC, 40, seed=9)):
        totals = [(9, 10), (10, 8), (7, 7), (0, 4)][number % 4]
        seen = view(state)
        chances = [match_brute_force(state.apply(m), totals) for m in state.legal_moves()]
        best = max(chances) if state.current_player == 0 else min(chances)
        for_the_match = {m for m, c in zip(state.legal_moves(), chances, strict=True) if c == best}
        for kind in (AlphaBetaAgent, ISMCTSAgent):
            agent = kind(iterations=20, match_aware=True)
            assert agent.choose_in_match(seen, totals, rng) in for_the_match
            assert kind(iterations=20).choose_in_match(seen, totals, rng) in solve(state).moves


@pytest.mark.parametrize("name", ["classic", "tretre", "re-bello", "cirulla"])
def test_the_ends_of_a_hand_average_to_its_expected_points(name: str) -> None:
    rules = find_variant(name)
    rng = random.Random(3)
    for _ in range(30):
        state = random_hand_end(rules, rng, plays=rng.randrange(rules.plays_per_hand + 1))
        ends = scoring_of(rules).ends(state)
        assert sum(chance for _, _, chance in ends) == pytest.approx(1.0)
        assert all(chance > 0 for _, _, chance in ends)
        mean = (sum(a * p for a, _, p in ends), sum(b * p for _, b, p in ends))
        assert mean == pytest.approx(expected_points(state))


def test_a_match_aware_search_values_points_by_the_match() -> None:
    # At 10-7 in a match to 11, a hand of 1 point to 3 wins the match (11-10), one of
    # 0 to 1 does not (10-8), though its margin is better.
    worth = worth_of(CLASSIC, (10, 7), aware=True)
    assert worth is not None
    assert worth.values((1, 3))[0] == 5.0 > worth.values((0, 1))[0]
    assert worth.values((1, 3))[1] == -5.0
    assert worth_of(CLASSIC, (10, 7), aware=False) is None  # margins
    assert worth_of(find_variant("scopa-3"), (10, 7, 0), aware=True) is None


@pytest.mark.parametrize("kind", [AlphaBetaAgent, ISMCTSAgent])
def test_match_aware_agents_play_matches_of_every_preset(
    kind: type[AlphaBetaAgent | ISMCTSAgent],
) -> None:
    for rules in PRESETS:
        agent = kind(iterations=3, depth=1) if kind is AlphaBetaAgent else kind(iterations=10)
        aware = attrs.evolve(agent, match_aware=True)
        assert isinstance(aware, MatchAgent)
        players = {p: aware if p % 2 else agent for p in range(rules.players)}
        end = play_match(Match.new(rules, seed=len(rules.name)), players, random.Random(0))
        assert end.is_over


@pytest.mark.parametrize(
    ("totals", "error"),
    [
        ((1,), InvalidArgumentError),
        ((1, 2, 3), InvalidArgumentError),
        ((-1, 0), InvalidArgumentError),
        ((1.5, 0), TypeError),
        ((True, 0), TypeError),
        ([0, 0], TypeError),
        ("00", TypeError),
    ],
)
def test_match_aware_agents_refuse_bad_totals(totals: object, error: type[Exception]) -> None:
    state = GameState.new(CLASSIC, seed=1)
    for agent in (AlphaBetaAgent(iterations=1), ISMCTSAgent(iterations=1, match_aware=True)):
        with pytest.raises(error, match="totals"):
            agent.choose_in_match(view(state), totals, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: type(agent).__name__)
def test_agents_pickle(agent: AlphaBetaAgent | ISMCTSAgent) -> None:
    assert pickle.loads(pickle.dumps(agent)) == agent


def test_the_same_stream_gives_the_same_move() -> None:
    state = random_hand_end(CLASSIC, random.Random(1), plays=7)
    for agent in (AlphaBetaAgent(iterations=8), ISMCTSAgent(iterations=80)):
        moves = {agent.choose(view(state), random.Random(3)) for _ in range(3)}
        assert len(moves) == 1


# ----------------------------------------------------------------------------- resampling

CAPTURING_FIRST = attrs.evolve(
    CLASSIC, compulsory_capture=CompulsoryCapture.CAPTURING_CARD, ace_first_lead_forbidden=True
)


def plays_of_this_deal(state: GameState) -> tuple[tuple[int, Move], ...]:
    """The plays since the last deal (the cards of every hand were dealt then)."""
    rules = state.rules
    played = rules.players * rules.hand_size - sum(len(hand) for hand in state.hands)
    return state.history[len(state.history) - played :] if played else ()


def replays(world: GameState, plays: tuple[tuple[int, Move], ...]) -> bool:
    """Whether the plays are legal from the world's deal, with the world's hidden hands.

    The world is rewound to the start of the deal (each player's hand then is what they
    hold and what they have played since), then the plays are made again with `apply`.
    """
    rules = world.rules
    hands: list[int] = list(world.hand_masks)
    table: int = world.table_mask
    piles: list[int] = list(world.pile_masks)
    for player, move in reversed(plays):
        hands[player] |= move.card_mask
        table = (table | move.captured_mask) & ~move.card_mask
        piles[player] &= ~(move.captured_mask | move.card_mask)
    capturers = [p for p in range(rules.players) if piles[p]]
    state = GameState.from_position(
        rules,
        hands=[cards_of(hand) for hand in hands],
        table=cards_of(table),
        stock=world.stock,
        dealer=world.dealer,
        piles=[cards_of(pile) for pile in piles],
        last_capturer=capturers[0] if capturers else None,
    )
    try:
        for _, move in plays:
            state = state.apply(move)
    except IllegalMoveError:
        return False
    return True


@pytest.mark.parametrize("name", ["classic", "scopa-3", "scopa-4", "scopone", "scopa-6"])
def test_resampled_deals_agree_with_every_play(name: str) -> None:
    rules = attrs.evolve(
        find_variant(name),
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD,
        ace_first_lead_forbidden=True,
    )
    rng = random.Random(11)
    for _ in range(40):
        state = random_hand_end(rules, rng, plays=rng.randrange(rules.plays_per_hand))
        if state.is_terminal:
            continue
        plays = plays_of_this_deal(state)
        assert replays(state, plays)
        for player in range(rules.players):
            seen = view(state, player)
            for _ in range(3):
                world = seen.resample(rng)
                assert view(world, player) == seen
                assert replays(world, plays)


def lay_down_position() -> GameState:
    """Player 0 lays 10B, holding 8B and 9B: no card of theirs could take 2C, 3S or both."""
    state = written_position(
        CAPTURING_FIRST, ["8B 9B 10B", "1D 4D 6D"], "2C 3S", stock="2D 3D 5D 7C 8C 9C"
    )
    return state.apply(Move.parse("10B"))


def test_a_lay_down_shows_the_rest_of_the_hand_cannot_capture() -> None:
    seen = view(lay_down_position(), 1)
    rng = random.Random(1)
    for _ in range(300):
        held = seen.resample(rng).hands[0]
        assert not {card.rank for card in held} & {2, 3, 5}


def test_resampling_after_a_lay_down_is_uniform() -> None:
    seen = view(lay_down_position(), 1)
    unseen = sorted(seen.unseen)
    assert unseen == sorted(cards("8B 9B 2D 3D 5D 7C 8C 9C"))
    # the two cards of player 0 are two of the five that cannot capture: each of those is
    # held with chance 2/5 and otherwise in one of the 6 places of the stock; the 2, 3
    # and 5 are always in the stock
    may_hold = cards("8B 9B 7C 8C 9C")
    probabilities = {
        card: [2 / 5, *[3 / 5 / 6] * 6] if card in may_hold else [0.0, *[1 / 6] * 6]
        for card in unseen
    }
    counts = {card: [0] * 7 for card in unseen}
    rng = random.Random(5)
    for _ in range(6000):
        world = seen.resample(rng)
        for card in world.hands[0]:
            counts[card][0] += 1
        for place, card in enumerate(world.stock):
            counts[card][1 + place] += 1
    statistic = 0.0
    cells = 0
    for card in unseen:
        kept = [i for i, p in enumerate(probabilities[card]) if p]
        assert all(counts[card][i] == 0 for i in range(7) if i not in kept)
        statistic += chi_square(
            [counts[card][i] for i in kept], [probabilities[card][i] for i in kept]
        )
        cells += len(kept) - 1
    assert statistic < chi_square_critical(cells)


def test_an_ace_led_first_shows_a_hand_of_aces() -> None:
    rules = attrs.evolve(CLASSIC, ace_first_lead_forbidden=True)
    dealt = card_list("1D 1C 1S 4D 5D 6D 7D 8D 9D 10D")  # player 0 leads: three Aces
    deck = Deck((*dealt, *(card for card in DECK if card not in dealt)))
    state = GameState.new(rules, deck=deck, dealer=1).apply(Move.parse("1D"))
    seen = view(state, 1)
    # player 0 holds two of the three Aces player 1 has not seen, each pair as likely
    pairs = [frozenset(pair) for pair in itertools.combinations(cards("1C 1S 1B"), 2)]
    counts = dict.fromkeys(pairs, 0)
    rng = random.Random(2)
    for _ in range(900):
        counts[seen.resample(rng).hands[0]] += 1  # a KeyError is a hand that is not Aces
    assert chi_square(list(counts.values()), [1 / 3] * 3) < chi_square_critical(2)


def test_an_ace_played_after_the_first_lead_shows_nothing() -> None:
    # A position taken up after player 1's lead (not in the history): player 0 lays 2C,
    # then player 1 lays 1D, which is no lead. Player 1's last card may be any card
    # player 0 has not seen, not only an Ace.
    rules = attrs.evolve(CLASSIC, ace_first_lead_forbidden=True)
    hands = [cards("2C 3C 4C"), cards("1D 9S")]
    table = cards("5D 6D 8B 7S 10C")
    state = GameState.from_position(
        rules, hands=hands, table=table, stock=sorted(rest_of(*hands, table)), dealer=0
    )
    state = state.apply(Move.parse("2C")).apply(Move.parse("1D"))
    seen = view(state, 0)
    rng = random.Random(3)
    held = {card for _ in range(40) for card in seen.resample(rng).hands[1]}
    assert any(card.rank != 1 for card in held)


def several_limited_players() -> GameState:
    """A last deal of scopa-4 (under the capture rule) where the plays of two players show
    something of the cards they still hold, and the viewer, player 0, is to move."""
    rules = attrs.evolve(
        find_variant("scopa-4"), compulsory_capture=CompulsoryCapture.CAPTURING_CARD
    )
    rng = random.Random(0)
    while True:
        state = random_hand_end(rules, rng, plays=rules.plays_per_hand - rng.randrange(2, 12))
        if state.stock or state.current_player != 0 or len(state.hands[1]) < 2:
            continue
        seen = view(state, 0)
        limited = seen._hidden_hand_limits([card.index for card in sorted(seen.unseen)])
        if len(limited) == 2:
            return state


def other_hands(unseen: list[Card], sizes: list[int]) -> Iterator[list[frozenset[Card]]]:
    """Every way to deal the unseen cards into hands of these sizes."""
    if not sizes:
        yield []
        return
    for held in itertools.combinations(unseen, sizes[0]):
        rest = [card for card in unseen if card not in held]
        for others in other_hands(rest, sizes[1:]):
            yield [frozenset(held), *others]


def test_resampling_with_several_limited_players_is_uniform() -> None:
    state = several_limited_players()
    seen = view(state, 0)
    plays = plays_of_this_deal(state)
    sizes = [len(hand) for hand in state.hands[1:]]
    # every deal of the unseen cards to players 1, 2 and 3, kept if the plays replay
    deals = []
    for hands in other_hands(sorted(seen.unseen), sizes):
        world = GameState.from_position(
            state.rules,
            hands=[state.hands[0], *hands],
            table=state.table,
            stock=(),
            dealer=state.dealer,
            piles=state.piles,
            scope=state.scope,
            last_capturer=state.last_capturer,
        )
        if replays(world, plays):
            deals.append(tuple(hands))
    assert 1 < len(deals) < math.factorial(sum(sizes)) // math.prod(map(math.factorial, sizes))
    counts = dict.fromkeys(deals, 0)
    rng = random.Random(9)
    for _ in range(100 * len(deals)):
        counts[seen.resample(rng).hands[1:]] += 1  # a KeyError is a deal that disagrees
    statistic = chi_square(list(counts.values()), [1 / len(deals)] * len(deals))
    assert statistic < chi_square_critical(len(deals) - 1)


@source_only
def test_past_many_failed_draws_the_deal_is_matched(monkeypatch: pytest.MonkeyPatch) -> None:
    state = several_limited_players()
    seen = view(state, 0)
    plays = plays_of_this_deal(state)
    monkeypatch.setattr(scopa.state, "_RESAMPLE_TRIES", 0)
    rng = random.Random(4)
    for _ in range(50):
        world = seen.resample(rng)
        assert view(world, 0) == seen
        assert replays(world, plays)
