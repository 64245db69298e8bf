"""Tournaments: reproducible, parallel through any Executor, figures computed by hand."""

from __future__ import annotations

import json
import math
import os
import pickle
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from pathlib import Path
from typing import Any

import attrs
import pytest

from scopa import (
    GameState,
    InvalidArgumentError,
    Move,
    PlayerView,
    ScopaError,
    WorkerError,
    find_variant,
)
from scopa.agents import Agent, FunctionAgent, GreedyAgent, OmniscientAgent, RandomAgent
from scopa.tournament import MAX_DEALS, TournamentResult, tournament
from tests.helpers import CLASSIC
from tests.test_agents import Peeker, Spy

Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal distribution


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of the mean of independent values, by the textbook formula."""
    centre = mean(values)
    variance = sum((value - centre) ** 2 for value in values) / (len(values) - 1)
    half = Z95 * math.sqrt(variance / len(values))
    return (centre - half, centre + half)


def assert_close(actual: tuple[float, ...], expected: tuple[float, ...]) -> None:
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert math.isclose(a, e, rel_tol=1e-9, abs_tol=1e-12), (actual, expected)


def test_a_seeded_tournament_is_reproducible_and_paired() -> None:
    a = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=30, matches=2, seed=5)
    b = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=30, matches=2, seed=5)
    assert a == b
    greedy, random_ = a.agents
    assert greedy.hands == random_.hands == 60
    assert greedy.matches == random_.matches == 4
    # two sides: the margins are opposite and the match wins add up
    assert math.isclose(greedy.margin_per_hand, -random_.margin_per_hand)
    assert greedy.match_win_rate is not None
    assert random_.match_win_rate is not None
    assert math.isclose(greedy.match_win_rate + random_.match_win_rate, 1.0)
    low, high = greedy.margin_interval
    assert low < greedy.margin_per_hand < high
    assert a != tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=30, matches=2, seed=6)


def test_the_figures_by_hand_from_the_deal_results() -> None:
    result = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=6, seed=11)
    deals = result.deal_results
    assert [deal.number for deal in deals] == list(range(6))
    for deal in deals:  # seating 0: agent 0 on side 0 (it deals); seating 1: the other way
        assert deal.sides == ((0, 1), (1, 0))
    for a, agent in enumerate(result.agents):
        hands = [(deal, r) for deal in deals for r in (0, 1)]
        assert agent.hands == 12
        assert math.isclose(agent.points_per_hand, mean([d.points[r][a] for d, r in hands]))
        assert math.isclose(agent.scope_per_hand, mean([d.scope[r][a] for d, r in hands]))
        margins = [d.margins[r][a] for d, r in hands]
        assert math.isclose(agent.margin_per_hand, mean(margins))
        assert agent.hand_win_rate == sum(1 for m in margins if m > 0) / 12
        # the interval is over deals, each deal's two seatings averaged first
        per_deal = [(d.margins[0][a] + d.margins[1][a]) / 2 for d in deals]
        assert_close(agent.margin_interval, interval(per_deal))
        # by seat: the hands in which the agent's side held the dealer (side 0), then the leader
        for seat in (0, 1):
            by_seat = [d.margins[r][a] for d, r in hands if d.sides[r][a] == seat]
            assert len(by_seat) == 6  # one hand per deal
            assert math.isclose(agent.margin_by_seat[seat], mean(by_seat))
            assert_close(agent.margin_by_seat_interval[seat], interval(by_seat))
    (pair,) = result.head_to_head
    assert (pair.first, pair.second) == (0, 1)
    differences = [
        ((d.margins[0][0] - d.margins[0][1]) + (d.margins[1][0] - d.margins[1][1])) / 2
        for d in deals
    ]
    assert math.isclose(pair.difference, mean(differences))
    assert math.isclose(pair.difference, 2 * result.agents[0].margin_per_hand)
    assert_close(pair.interval, interval(differences))


def first_legal_move(seen: PlayerView, rng: random.Random) -> Move:
    return seen.legal_moves()[0]


def last_legal_move(seen: PlayerView, rng: random.Random) -> Move:
    return seen.legal_moves()[-1]


def test_the_deal_results_are_what_was_played() -> None:
    # Agents that ignore the rng: each seating of each deal can be played again here.
    result = tournament(CLASSIC, [first_legal_move, last_legal_move], deals=3, seed=2)
    for deal in result.deal_results:
        for seating in (0, 1):
            state = GameState.new(CLASSIC, seed=deal.seed)
            assert state.dealer == 0
            while not state.is_terminal:
                player = state.current_player
                assert player is not None
                moves = state.legal_moves()
                # agent 0 plays side `seating` in this seating
                first = CLASSIC.side_of(player) == deal.sides[seating][0]
                state = state.apply(moves[0] if first else moves[-1])
            points = state.hand_score().points
            for a in (0, 1):
                side = deal.sides[seating][a]
                assert deal.points[seating][a] == points[side]
                assert deal.margins[seating][a] == points[side] - points[1 - side]
                assert deal.scope[seating][a] == state.scope[side]


def test_an_agent_against_itself_differs_by_exactly_nothing_on_each_deal() -> None:
    # The same deterministic agent on both sides plays each deal's two seatings alike, so
    # every paired difference is 0: the interval is 0 wide, though the hands' margins vary.
    result = tournament(CLASSIC, [first_legal_move, first_legal_move], deals=5, seed=3)
    margins = [deal.margins[r][0] for deal in result.deal_results for r in (0, 1)]
    assert len(set(margins)) > 1
    (pair,) = result.head_to_head
    assert pair.difference == 0.0
    assert pair.interval == (0.0, 0.0)
    assert result.agents[0].margin_interval == (0.0, 0.0)


def test_more_sides_and_bad_arguments() -> None:
    three = find_variant("scopa-3")
    result = tournament(three, [GreedyAgent(), RandomAgent(), RandomAgent()], deals=4, seed=1)
    assert [agent.hands for agent in result.agents] == [12, 12, 12]
    assert [(p.first, p.second) for p in result.head_to_head] == [(0, 1), (0, 2), (1, 2)]
    for deal in result.deal_results:
        assert deal.sides == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    for pair in result.head_to_head:
        a, b = pair.first, pair.second
        differences = [
            mean([seating[a] - seating[b] for seating in deal.margins])
            for deal in result.deal_results
        ]
        assert math.isclose(pair.difference, mean(differences))
        assert_close(pair.interval, interval(differences))
    assert all(len(agent.margin_by_seat) == 3 for agent in result.agents)
    assert "side 2 (95% CI)" in result.table()
    with pytest.raises(ValueError, match="3 sides"):
        tournament(three, [GreedyAgent()], deals=1)
    with pytest.raises(ValueError, match="negative"):
        tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=-1)
    with pytest.raises(ValueError, match="give 2 names, one per agent, not 1"):
        tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=1, names=["greedy"])


def test_a_table_and_data() -> None:
    result = tournament(
        CLASSIC, [GreedyAgent(), RandomAgent()], deals=5, matches=1, names=["greedy", "random"]
    )
    lines = result.table().splitlines()
    assert lines[0] == "classic: 5 paired deals, 1 paired match, seed 0"
    assert "matches won" in lines[1]
    assert lines[2].startswith("greedy ")
    assert any(line.startswith("margin/hand by seat  dealing (95% CI)") for line in lines)
    assert lines[-1].startswith("greedy - random ")
    data = result.as_dict()
    assert list(data) == [field.name for field in attrs.fields(TournamentResult)]
    assert data["deals"] == 5
    assert data["omniscient"] is False
    assert [agent["name"] for agent in data["agents"]] == ["greedy", "random"]
    first = result.deal_results[0]
    assert data["deal_results"][0] == {
        "number": 0,
        "seed": first.seed,
        "sides": [[0, 1], [1, 0]],
        "points": [list(first.points[0]), list(first.points[1])],
        "margins": [list(first.margins[0]), list(first.margins[1])],
        "scope": [list(first.scope[0]), list(first.scope[1])],
    }
    assert json.loads(json.dumps(data)) == data


def test_one_deal_gives_valid_json_with_unbounded_intervals() -> None:
    result = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=1)
    assert result.agents[0].margin_interval == (-math.inf, math.inf)
    data = result.as_dict()
    text = json.dumps(data, allow_nan=False)  # JSON has no infinity
    assert json.loads(text)["agents"][0]["margin_interval"] == [None, None]
    assert data["head_to_head"][0]["interval"] == [None, None]


def test_agents_are_given_views_in_every_game() -> None:
    spy = Spy()
    tournament(CLASSIC, [spy, GreedyAgent()], deals=2, matches=1, seed=4)
    assert len(spy.given) > 2 * 2 * 10  # the spy checks every view it is given


def test_an_omniscient_run_is_asked_for_and_marked() -> None:
    agents: list[Agent | OmniscientAgent] = [Peeker(), GreedyAgent()]
    with pytest.raises(InvalidArgumentError, match=r"agent 0, a Peeker, .*omniscient=True"):
        tournament(CLASSIC, agents, deals=1)
    result = tournament(CLASSIC, agents, deals=10, seed=1, omniscient=True)
    assert result.omniscient
    assert [agent.omniscient for agent in result.agents] == [True, False]
    lines = result.table().splitlines()
    assert lines[0].endswith(", omniscient")
    assert lines[1] == "agents marked * read the whole state, hidden cards included"
    assert lines[3].startswith("Peeker * ")
    assert lines[-1].startswith("Peeker * - GreedyAgent ")
    data = json.loads(json.dumps(result.as_dict()))
    assert data["omniscient"] is True
    assert data["agents"][0]["omniscient"] is True
    # reading the real deal pays: the cheat only works where it is asked for and marked
    assert result.head_to_head[0].difference > 0
    fair = tournament(CLASSIC, [GreedyAgent(), GreedyAgent()], deals=2, omniscient=True)
    assert fair.omniscient  # the run says what it allowed
    assert not any(agent.omniscient for agent in fair.agents)


def test_a_process_pool_gives_the_same_result() -> None:
    agents: list[Agent] = [GreedyAgent(), RandomAgent()]
    alone = tournament(CLASSIC, agents, deals=24, matches=2, seed=3, chunk_size=5)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = tournament(
            CLASSIC, agents, deals=24, matches=2, seed=3, chunk_size=5, executor=pool
        )
    assert pooled == alone


@pytest.mark.filterwarnings("ignore")
def test_a_dask_cluster_gives_the_same_result() -> None:
    distributed = pytest.importorskip("distributed")
    agents: list[Agent] = [GreedyAgent(), RandomAgent()]
    alone = tournament(CLASSIC, agents, deals=12, seed=4, chunk_size=4)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_cluster = tournament(
            CLASSIC, agents, deals=12, seed=4, chunk_size=4, executor=client.get_executor()
        )
    assert on_cluster == alone


def test_a_plain_function_is_an_agent() -> None:
    result = tournament(CLASSIC, [first_legal_move, RandomAgent()], deals=4, seed=2)
    assert result.agents[0].name == "first_legal_move"
    assert result.agents[0].hands == 8
    # the same function wrapped by hand plays the same games
    wrapped = tournament(CLASSIC, [FunctionAgent(first_legal_move), RandomAgent()], deals=4, seed=2)
    assert wrapped.deal_results == result.deal_results


@pytest.mark.parametrize("bad", [None, 3, "greedy", object()])
def test_what_is_not_an_agent_is_refused_at_once(bad: object) -> None:
    with pytest.raises(TypeError, match=r"an agent must have a choose\(seen, rng\) method"):
        tournament(CLASSIC, [bad, RandomAgent()], deals=1)  # type: ignore[list-item]


def test_the_table_names_only_what_was_played() -> None:
    result = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=1, seed=2)
    assert result.table().splitlines()[0] == "classic: 1 paired deal, seed 2"
    assert result.matches == 0
    assert result.as_dict()["matches"] == 0  # the data says it, as a number


class Stop(Exception):
    """Raised by a progress function to stop a tournament."""


def stop_at_once(done: int, total: int) -> None:
    raise Stop


def test_a_count_over_the_maximum_is_refused_before_playing() -> None:
    agents: list[Agent] = [FunctionAgent(first_legal_move), RandomAgent()]
    for deals, matches in ((MAX_DEALS + 1, 0), (1, MAX_DEALS + 1)):
        with pytest.raises(InvalidArgumentError, match="at most 10,000,000 paired deals"):
            tournament(CLASSIC, agents, deals=deals, matches=matches, progress=stop_at_once)


def test_an_interrupted_tournament_cancels_the_chunks_not_started() -> None:
    started: list[int] = []
    release = threading.Event()

    class Counting(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            def counted(*args: Any) -> Any:
                started.append(1)
                if len(started) > 1:  # later chunks wait until the tournament has stopped
                    release.wait(timeout=60)
                return fn(*args)

            return super().submit(counted, *args)

    agents: list[Agent] = [FunctionAgent(first_legal_move), FunctionAgent(first_legal_move)]
    with Counting(max_workers=1) as pool:
        with pytest.raises(Stop):
            tournament(
                CLASSIC, agents, deals=3000, chunk_size=1, executor=pool, progress=stop_at_once
            )
        release.set()
    # the first chunk finished, and perhaps a second had started: the rest were cancelled
    assert 1 <= len(started) <= 2


def test_a_broken_executor_fails_its_chunks_itself() -> None:
    # a broken executor (a process pool whose worker died) fails its chunks itself; on
    # Python 3.11 cancelling them as well raced with that, with a traceback from its thread
    submitted: list[Future[Any]] = []

    class Broken(Executor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
            future: Future[Any] = Future()
            if not submitted:
                future.set_exception(BrokenExecutor("a worker died"))
            submitted.append(future)
            return future

    agents: list[Agent] = [FunctionAgent(first_legal_move), RandomAgent()]
    with pytest.raises(WorkerError, match="0 of 5 paired deals finished") as caught:
        tournament(CLASSIC, agents, deals=5, chunk_size=1, executor=Broken())
    assert isinstance(caught.value.__cause__, BrokenExecutor)
    assert len(submitted) == 5
    assert not any(future.cancelled() for future in submitted)


@attrs.frozen
class DiesOnCue:
    """Plays as greedy until a file exists, then kills the process it plays in.

    The system ends a worker that runs out of memory in the same way, with SIGKILL.
    """

    cue: str

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        if os.path.exists(self.cue):
            os.kill(os.getpid(), signal.SIGKILL)
        return GreedyAgent().choose(seen, rng)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_worker_that_dies_is_a_scopa_error_that_keeps_the_deals_that_finished(
    tmp_path: Path,
) -> None:
    cue = tmp_path / "die"
    done: list[int] = []

    def die_after_the_first_chunk(deals: int, total: int) -> None:
        done.append(deals)
        cue.touch()  # the next game of each worker kills it

    agents: list[Agent] = [DiesOnCue(str(cue)), RandomAgent()]
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(WorkerError) as caught:
        tournament(
            CLASSIC,
            agents,
            deals=200,
            seed=3,
            chunk_size=5,
            executor=pool,
            progress=die_after_the_first_chunk,
        )
    error = caught.value
    assert isinstance(error, ScopaError)
    assert isinstance(error, RuntimeError)
    assert not isinstance(error, ValueError)  # nothing given was wrong
    assert "a worker process died" in str(error)
    kept = error.result
    assert kept.deals == len(kept.deal_results) >= done[0] >= 5
    assert kept.deals < 200
    assert f"{kept.deals} of 200 paired deals finished" in str(error)
    # the deals kept are those the tournament played, under their own numbers
    numbers = [deal.number for deal in kept.deal_results]
    assert numbers == sorted(set(numbers))
    whole = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=200, seed=3)
    assert list(kept.deal_results) == [whole.deal_results[n] for n in numbers]
    # and the figures are those of the deals kept
    assert kept.agents[0].hands == 2 * kept.deals
    margins = [mean([seating[0] for seating in deal.margins]) for deal in kept.deal_results]
    assert math.isclose(kept.agents[0].margin_per_hand, mean(margins))


def test_a_worker_error_pickles_with_its_result() -> None:
    kept = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=2, seed=1)
    error = WorkerError("a worker process died", kept)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is WorkerError
    assert str(again) == "a worker process died"
    assert again.result == kept


LAZY = """
import resource, sys
from scopa import find_variant
from scopa.agents import RandomAgent
from scopa.errors import InvalidArgumentError
from scopa.tournament import tournament

class Stop(Exception):
    pass

def stop(done, total):
    raise Stop

limit = 1_500_000_000
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
rules, agents = find_variant("classic"), [RandomAgent(), RandomAgent()]
try:
    tournament(rules, agents, deals=10_000_000, chunk_size=1, progress=stop)
except Stop:
    print("played the first deal")
try:
    tournament(rules, agents, deals=10**10)
except InvalidArgumentError as error:
    print(error)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="an address-space limit as on Linux")
def test_the_games_are_made_as_they_are_played_in_bounded_memory() -> None:
    # ten million one-deal chunks listed before playing took more than 1.5 GB
    done = subprocess.run(
        [sys.executable, "-c", LAZY], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "played the first deal"
    assert lines[1].startswith("a tournament plays at most 10,000,000 paired deals")
    assert "not 10000000000" in lines[1]
