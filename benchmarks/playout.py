"""Random-playout benchmark: hands per second, µs per legal_moves() and apply(), bytes per state.

    python benchmarks/playout.py [--seconds S] [--variant NAME] [--reference PATH]

Everything goes through the public API. Figures are medians of several rounds; the machine
may be noisy, so compare runs made side by side. With `--reference PATH` (a Python file
with a `hands_per_second(seconds, seed)` function), the reference loop is timed in
alternating rounds and the ratio library/reference is printed too.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import scopa

BUILD = "compiled" if scopa.COMPILED else "pure Python"
"""The build of scopa installed, as the benchmarks print it."""


def play_out(state: Any, draw: Callable[[], float]) -> None:
    """Play a hand to its end with uniformly random legal moves (any state of the API's shape)."""
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[int(draw() * len(moves))])


def random_hand(rules: scopa.Rules, seed: int, draw: Callable[[], float]) -> None:
    """One complete hand dealt from `seed`, played with uniformly random legal moves."""
    play_out(scopa.GameState.new(rules, seed=seed), draw)


def hands_per_second(rules: scopa.Rules, seconds: float, seed: int) -> float:
    """Complete random hands per second: deal, then uniformly random legal moves."""
    return deals_per_second(lambda number: scopa.GameState.new(rules, seed=number), seconds, seed)


def deals_per_second(new: Callable[[int], Any], seconds: float, seed: int) -> float:
    """Complete random hands per second of the first states `new(number)` gives."""
    draw = random.Random(seed).random
    hands = 0
    start = time.perf_counter()
    while True:
        for _ in range(20):
            play_out(new(seed * 1_000_003 + hands), draw)
            hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


def mid_hand_states(rules: scopa.Rules, count: int) -> list[scopa.GameState]:
    """States from the middle of random hands (plays 8 to 28 of 36)."""
    rng = random.Random(1)
    found: list[scopa.GameState] = []
    seed = 0
    while len(found) < count:
        state = scopa.GameState.new(rules, seed=seed)
        seed += 1
        plays = 0
        while not state.is_terminal:
            if 8 <= plays <= 28:
                found.append(state)
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
            plays += 1
    return found[:count]


def fresh(states: list[scopa.GameState]) -> list[scopa.GameState]:
    """Copies with no legal moves computed yet."""
    return [scopa.GameState.from_text(s.rules, s.to_text()) for s in states]


def time_per_call(calls: Callable[[], None], count: int) -> float:
    start = time.perf_counter()
    calls()
    return (time.perf_counter() - start) / count * 1e6


def legal_moves_us(states: list[scopa.GameState]) -> float:
    """µs for the first legal_moves() of a state (nothing cached)."""
    copies = fresh(states)

    def run() -> None:
        for state in copies:
            state.legal_moves()

    return time_per_call(run, len(copies))


def apply_us(states: list[scopa.GameState]) -> float:
    """µs per apply() of a move taken from the state's legal_moves()."""
    pairs = [(s, s.legal_moves()[i % len(s.legal_moves())]) for i, s in enumerate(states)]

    def run() -> None:
        for state, move in pairs:
            state.apply(move)

    return time_per_call(run, len(pairs))


def bytes_per_state(states: list[scopa.GameState]) -> tuple[float, float]:
    """Memory of a state made by apply(): alone, and with its legal moves computed."""
    pairs = [(s, s.legal_moves()[0]) for s in states]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    children = [state.apply(move) for state, move in pairs]
    alone = tracemalloc.get_traced_memory()[0] - before
    for child in children:
        child.legal_moves()
    with_moves = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    # the list holding the children is not part of a state
    holder = sys.getsizeof(children)
    return (alone - holder) / len(pairs), (with_moves - holder) / len(pairs)


def load_reference(path: str) -> Callable[[float, int], float]:
    spec = importlib.util.spec_from_file_location("reference", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(Path(path).resolve().parent))
    spec.loader.exec_module(module)
    function: Callable[[float, int], float] = module.hands_per_second
    return function


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--variant", default="classic", help="preset to play")
    parser.add_argument("--reference", help="a reference loop to compare with")
    args = parser.parse_args()
    rules = scopa.find_variant(args.variant)
    reference = load_reference(args.reference) if args.reference else None

    states = mid_hand_states(rules, 20_000)
    hands_per_second(rules, 0.2, 0)  # warm the caches
    rates, ratios = [], []
    for round_ in range(args.rounds):
        rate = hands_per_second(rules, args.seconds, round_ + 1)
        rates.append(rate)
        if reference is not None:
            ratios.append(rate / reference(args.seconds, round_ + 1))
    legal = statistics.median(legal_moves_us(states) for _ in range(args.rounds))
    apply = statistics.median(apply_us(states) for _ in range(args.rounds))
    alone, with_moves = bytes_per_state(states)

    print(
        f"scopa {scopa.__version__} ({BUILD}), variant {args.variant},"
        f" Python {sys.version.split()[0]}"
    )
    print(f"random full hands per second   {statistics.median(rates):10,.0f}")
    print(f"legal_moves() on a new state   {legal:10.2f} µs")
    print(f"apply() of a legal move        {apply:10.2f} µs")
    print(f"bytes per new state            {alone:10.0f}  ({with_moves:.0f} with its legal moves)")
    if ratios:
        print(
            f"ratio library/reference        {statistics.median(ratios):10.2f}"
            f"  (min {min(ratios):.2f}, max {max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
