"""Immutability, copying, thread safety, and no hidden randomness or clock.

- Every public value (states, moves, rules, views, matches, decks, cards, scores and their
  parts) refuses assignment and deletion of every public attribute and of new ones, and
  holds only hashable (immutable) values.
- `pickle` (every protocol), `copy.copy` and `copy.deepcopy` give equal values; copies of a
  `GameState` are the state itself.
- Eight threads playing random hands from shared states (sharing their lazily computed
  moves and the module-level move caches) get exactly the results of sequential play.
- Nothing in the library reads the global `random` state or the clock: with the module
  functions of `random`, `time` and `secrets` replaced by functions that fail, dealing,
  playing, scoring, views, resampling with an explicit `random.Random`, agents, records,
  encodings and a small tournament all work; and the library's source calls none of them.
"""

from __future__ import annotations

import ast
import copy
import pickle
import random
import secrets
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import pytest

import scopa
from scopa import (
    DECK,
    Abandonment,
    AbandonReason,
    BrilliEconomy,
    Captures,
    Carte,
    Deck,
    Denari,
    GameState,
    Match,
    Napola,
    PrimieraTable,
    ReBello,
    Rules,
    Scope,
    Settebello,
    find_variant,
    view,
)
from scopa.agents import Agent, FlatMonteCarloAgent, GreedyAgent, RandomAgent, play_hand
from scopa.encoding import action_mask, action_of, move_of_action, observation
from scopa.records import read_record, write_record
from scopa.tournament import tournament
from tests.helpers import CLASSIC, TRETRE
from tests.strategies import PRESETS


def a_match(rules: Rules = TRETRE, plays: int = 50, seed: int = 3) -> Match:
    match = Match.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        if match.is_over:
            break
        moves = match.state.legal_moves()
        match = match.apply(moves[rng.randrange(len(moves))])
    return match


def samples() -> dict[str, object]:
    """One value of every public type."""
    match = a_match()
    state = match.state
    score = state.hand_score()
    return {
        "GameState": state,
        "GameState (finished)": a_match(plays=10_000).state,
        "Move": state.legal_moves()[0],
        "Rules": TRETRE,
        "PlayerView": view(state, 0),
        "Match": match,
        "Match (abandoned)": match.abandon(1, AbandonReason.DISCONNECTED),
        "Deck": match.deck,
        "Card": DECK[6],
        "HandScore": score,
        "CategoryScore": score["primiera"],
        "Captures": Captures((frozenset(DECK[:20]), frozenset(DECK[20:])), (1, 0)),
        "ScoringRules": TRETRE.scoring,
        "Scope": Scope(),
        "Carte": Carte(21),
        "Denari": Denari(),
        "Settebello": Settebello(),
        "Primiera": TRETRE.scoring.components[-1],
        "PrimieraTable": PrimieraTable.CLASSIC,
        "Napola": Napola(True),
        "ReBello": ReBello(),
        "BrilliEconomy": BrilliEconomy(),
        "Abandonment": Abandonment(0, 2, AbandonReason.TIMEOUT),
        "HandRecord": match.hands[0],
        "SeriesRecord": match.abandon(0).series,
    }


SAMPLES = samples()
ids = list(SAMPLES)


def public_names(value: object) -> list[str]:
    return [name for name in dir(value) if not name.startswith("_")]


# ----------------------------------------------------------------------------- immutability


@pytest.mark.parametrize("name", ids)
def test_no_public_attribute_can_be_assigned_or_deleted(name: str) -> None:
    value = SAMPLES[name]
    before = repr(value), hash(value)
    for attribute in [*public_names(value), "brand_new_attribute"]:
        with pytest.raises(AttributeError):
            setattr(value, attribute, None)
        with pytest.raises(AttributeError):
            delattr(value, attribute)
    assert (repr(value), hash(value)) == before


@pytest.mark.parametrize("name", ids)
def test_public_values_are_immutable(name: str) -> None:
    # Everything reachable through a public attribute is hashable: no list, dict or set
    # that a caller could change in place.
    value = SAMPLES[name]
    for attribute in public_names(value):
        found = getattr(value, attribute)
        if callable(found) and not isinstance(found, (type, tuple)):
            continue
        hash(found)


# ----------------------------------------------------------------------------- copies


@pytest.mark.parametrize("name", ids)
def test_pickle_and_copies_give_equal_values(name: str) -> None:
    value = SAMPLES[name]
    # Protocols 0 and 1 cannot pickle a PlayerView (slots without __getstate__): the
    # protocols from 2 on, the default among them, can pickle everything.
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol))
        assert back == value
        assert hash(back) == hash(value)
        assert type(back) is type(value)
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value
    assert copy.deepcopy([value, value])[0] == value


def test_copies_of_a_state_are_the_state() -> None:
    for rules in PRESETS:
        state = a_match(rules, plays=7).state
        assert copy.copy(state) is state
        assert copy.deepcopy(state) is state
        back = pickle.loads(pickle.dumps(state))
        assert back == state
        assert back.to_text() == state.to_text()
        assert back.legal_moves() == state.legal_moves()
        assert back.rules.name == state.rules.name


def test_a_pickled_match_keeps_its_record() -> None:
    # A match pickled in the middle of a hand must still write the plays of that hand
    # (GameState pickles keep only the position, so the match must keep them itself).
    match = a_match(CLASSIC, plays=5)
    back = pickle.loads(pickle.dumps(match))
    assert back == match
    assert write_record(back) == write_record(match)
    assert read_record(write_record(back)).state == match.state


# ----------------------------------------------------------------------------- threads

THREADS = 8
HANDS_PER_THREAD = 25


def shared_states() -> list[GameState]:
    """States of every preset and of rules no other test uses, moves not yet computed."""
    fresh = [attrs.evolve(rules, target=1000 + i) for i, rules in enumerate(PRESETS)]
    states = []
    for i, rules in enumerate([*PRESETS, *fresh]):
        state = GameState.new(rules, seed=10_000 + i)
        states.append(state)
        text = state.to_text()  # a position built from text, not from play
        states.append(GameState.from_text(rules, text))
    return states


def play(states: list[GameState], seed: int, barrier: threading.Barrier | None) -> list[str]:
    """Random hands from the shared states; the trace of every position and score."""
    rng = random.Random(seed)
    greedy = GreedyAgent()
    if barrier is not None:
        barrier.wait()
    trace = []
    for _ in range(HANDS_PER_THREAD):
        state = states[rng.randrange(len(states))]
        while not state.is_terminal:
            moves = state.legal_moves()
            player = state.current_player
            assert player is not None
            seen = view(state, player)
            assert seen.legal_moves() == moves
            if rng.random() < 0.3:
                move = greedy.choose(seen, rng)
            else:
                move = moves[rng.randrange(len(moves))]
            state = state.apply(move)
            trace.append(str(move))
        trace.append(f"{state.to_text()} {state.hand_score().points}")
    return trace


def test_threads_playing_from_shared_states_agree_with_sequential_play() -> None:
    seeds = list(range(THREADS))
    expected = [play(shared_states(), seed, None) for seed in seeds]
    states = shared_states()  # new objects: their moves are computed by the threads
    barrier = threading.Barrier(THREADS)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            found = list(pool.map(lambda seed: play(states, seed, barrier), seeds))
    finally:
        sys.setswitchinterval(interval)
    assert found == expected


def test_threads_sharing_a_match_agree_with_sequential_play() -> None:
    start = a_match(find_variant("scopone"), plays=3)

    def finish(seed: int) -> tuple[str, tuple[int, ...]]:
        rng = random.Random(seed)
        match = start
        while not match.is_over:
            moves = match.state.legal_moves()
            match = match.apply(moves[rng.randrange(len(moves))])
        return write_record(match), match.totals

    expected = [finish(seed) for seed in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:
        assert list(pool.map(finish, range(THREADS))) == expected


# ----------------------------------------------------------------------------- no hidden state


def forbidden(name: str) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"the library called {name}")

    return fail


GLOBAL_RANDOM = ["random", "shuffle", "randrange", "randint", "choice", "choices", "sample"]
GLOBAL_RANDOM += ["getrandbits", "uniform", "seed", "gauss", "randbytes"]
CLOCKS = ["time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns"]
CLOCKS += ["process_time", "process_time_ns"]


@pytest.fixture
def no_global_random_or_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in GLOBAL_RANDOM:
        monkeypatch.setattr(random, name, forbidden(f"random.{name}"))
    for name in CLOCKS:
        monkeypatch.setattr(time, name, forbidden(f"time.{name}"))
    for name in ["randbits", "randbelow", "choice", "token_bytes"]:
        monkeypatch.setattr(secrets, name, forbidden(f"secrets.{name}"))


@pytest.mark.usefixtures("no_global_random_or_clock")
def test_nothing_reads_the_global_random_state_or_the_clock() -> None:
    rng = random.Random(2026)
    ticks = iter(range(1_000_000))

    def clock() -> float:
        return float(next(ticks))

    for rules in PRESETS:
        deck = Deck.shuffled(rng.getrandbits(64))
        assert Deck.parse(str(deck)) == deck
        state = GameState.new(rules, seed=rng.getrandbits(64), dealer=rng.randrange(rules.players))
        agents: dict[int, Agent] = {
            p: (GreedyAgent() if p % 2 else RandomAgent()) for p in range(rules.players)
        }
        middle = state
        for _ in range(min(5, rules.plays_per_hand - 1)):
            middle = middle.apply(middle.legal_moves()[0])
        player = middle.current_player
        assert player is not None
        seen = view(middle, player)
        world = seen.resample(random.Random(rng.getrandbits(32)))
        assert view(world, player) == seen
        assert FlatMonteCarloAgent(iterations=2).choose(seen, rng) in middle.legal_moves()
        timed = FlatMonteCarloAgent(iterations=50, seconds=3.0, clock=clock)
        assert timed.choose(seen, rng) in middle.legal_moves()
        mask = action_mask(middle)
        for move in middle.legal_moves():
            assert mask[action_of(middle, move)]
            assert move_of_action(middle, action_of(middle, move)) == move
        assert len(observation(seen)) > 0
        end = play_hand(state, agents, rng)
        assert sum(end.hand_score().points) >= 0
        match = Match.new(rules, seed=rng.getrandbits(64))
        while not match.is_over:
            mover = match.state.current_player
            assert mover is not None
            match = match.apply(agents[mover].choose(view(match.state), rng), elapsed=1.0)
        assert read_record(write_record(match)).totals == match.totals
        rematch = match.rematch(seed=rng.getrandbits(64)).abandon(0, AbandonReason.TIMEOUT)
        assert rematch.series.matches == 2
    assert next(ticks) > 1, "the search read the clock it was given"
    result = tournament(CLASSIC, [GreedyAgent(), RandomAgent()], deals=4, matches=1, seed=9)
    assert result.agents[0].hands == 8


CORE = ["cards", "errors", "rules", "moves", "scoring", "state", "match", "stakes", "records"]
CORE += [
    "masks",
    "_shuffle",
    "_checks",
    "agents",
    "tournament",
    "encoding",
    "search",
    "_search_core",
]


@pytest.mark.parametrize("module", CORE)
def test_the_source_calls_no_global_random_or_clock(module: str) -> None:
    # The command-line program (cli.py) and the environment adapters are applications of
    # the library, not the library: they are left out.
    source = Path(scopa.__file__).parent / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("random", "time", "datetime"):
            assert [a.name for a in node.names] == ["Random"], ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not {"time", "datetime"} & {a.name for a in node.names}, ast.unparse(node)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("random", "time")
        ):
            assert node.value.id == "random", ast.unparse(node)
            assert node.attr == "Random", ast.unparse(node)
