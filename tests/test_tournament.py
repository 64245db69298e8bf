"""Tournaments: reproducible, parallel through any Executor, statistics computed right."""

from __future__ import annotations

import math
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from scopa import GameState, Move, PlayerView, find_variant
from scopa.agents import Agent, FunctionAgent, GreedyAgent, RandomAgent
from scopa.tournament import tournament
from tests.helpers import CLASSIC


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


def test_a_table_and_data() -> None:
    result = tournament(
        CLASSIC, [GreedyAgent(), RandomAgent()], deals=5, matches=1, names=["greedy", "random"]
    )
    text = result.table()
    assert text.splitlines()[0] == "classic: 5 paired deals, 1 paired matches, seed 0"
    assert "greedy" in text
    assert "matches won" in text
    data = result.as_dict()
    assert data["deals"] == 5
    assert [agent["name"] for agent in data["agents"]] == ["greedy", "random"]


def test_more_sides_and_bad_arguments() -> None:
    three = find_variant("scopa-3")
    result = tournament(three, [GreedyAgent(), RandomAgent(), RandomAgent()], deals=4)
    assert [agent.hands for agent in result.agents] == [12, 12, 12]
    with pytest.raises(ValueError, match="3 sides"):
        tournament(three, [GreedyAgent()], deals=1)
    with pytest.raises(ValueError, match="negative"):
        tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=-1)


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


def first_legal_move(game: GameState | PlayerView, rng: random.Random) -> Move:
    return game.legal_moves()[0]


def test_a_plain_function_is_an_agent() -> None:
    result = tournament(CLASSIC, [first_legal_move, RandomAgent()], deals=4, seed=2)
    assert result.agents[0].name == "first_legal_move"
    assert result.agents[0].hands == 8
    # the same function wrapped by hand plays the same games
    wrapped = tournament(CLASSIC, [FunctionAgent(first_legal_move), RandomAgent()], deals=4, seed=2)
    assert wrapped.agents[0].margin_per_hand == result.agents[0].margin_per_hand


@pytest.mark.parametrize("bad", [None, 3, "greedy", object()])
def test_what_is_not_an_agent_is_refused_at_once(bad: object) -> None:
    with pytest.raises(TypeError, match=r"an agent must have a choose\(game, rng\) method"):
        tournament(CLASSIC, [bad, RandomAgent()], deals=1)  # type: ignore[list-item]
