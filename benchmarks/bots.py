"""Bot benchmark: agent strength in paired deals, view and resample speed, tournament scaling.

    python benchmarks/bots.py speed                 # µs per view and per resample
    python benchmarks/bots.py scaling [--deals N]   # tournament time on 1 and 2 workers
    python benchmarks/bots.py greedy [--deals N]    # greedy against random
    python benchmarks/bots.py search [--deals N] [--ms 100 | --iterations K] [--workers W]

Strength figures are the margin per hand (points of the agent's side minus the other's)
with a 95% confidence interval, over paired deals of classic 2-player Scopa.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from playout import mid_hand_states  # the benchmark beside this one

import scopa
from scopa.agents import Agent, FlatMonteCarloAgent, GreedyAgent, RandomAgent
from scopa.tournament import tournament


def speed() -> None:
    rules = scopa.find_variant("classic")
    states = mid_hand_states(rules, 20_000)
    rng = random.Random(2)
    view_us, resample_us = [], []
    views = [scopa.view(state, 0) for state in states]
    view = scopa.view
    for _ in range(5):
        start = time.perf_counter()
        for state in states:
            view(state, 0)
        view_us.append((time.perf_counter() - start) / len(states) * 1e6)
        start = time.perf_counter()
        for seen in views:
            seen.resample(rng)
        resample_us.append((time.perf_counter() - start) / len(states) * 1e6)
    print(f"view(state, player)      {statistics.median(view_us):8.2f} µs")
    print(f"PlayerView.resample(rng) {statistics.median(resample_us):8.2f} µs")


def scaling(deals: int) -> None:
    rules = scopa.find_variant("classic")
    agents: list[Agent] = [GreedyAgent(), RandomAgent()]
    times = {}
    for workers in (1, 2):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            tournament(rules, agents, deals=workers * 4, executor=pool, chunk_size=2)  # warm up
            start = time.perf_counter()
            tournament(rules, agents, deals=deals, executor=pool, chunk_size=25)
            times[workers] = time.perf_counter() - start
    print(f"tournament of {deals} paired deals: 1 worker {times[1]:.2f} s, 2: {times[2]:.2f} s")
    print(f"speed-up on 2 workers: {times[1] / times[2]:.2f}")


def duel(first: Agent, second: Agent, names: list[str], deals: int, workers: int) -> None:
    rules = scopa.find_variant("classic")
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            result = tournament(
                rules, [first, second], deals=deals, names=names, executor=pool, chunk_size=5
            )
    else:
        result = tournament(rules, [first, second], deals=deals, names=names)
    print(result.table())
    print(f"({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "scaling", "greedy", "search"])
    parser.add_argument("--deals", type=int, default=None, help="paired deals")
    parser.add_argument("--ms", type=float, default=100.0, help="search time per move")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per move")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "speed":
        speed()
    elif args.what == "scaling":
        scaling(args.deals or 2000)
    elif args.what == "greedy":
        duel(GreedyAgent(), RandomAgent(), ["greedy", "random"], args.deals or 2000, args.workers)
    else:
        if args.iterations is not None:
            search = FlatMonteCarloAgent(iterations=args.iterations)
            label = f"search ({args.iterations} iterations)"
        else:
            search = FlatMonteCarloAgent(
                iterations=1_000_000, seconds=args.ms / 1000, clock=time.perf_counter
            )
            label = f"search ({args.ms:.0f} ms)"
        duel(search, GreedyAgent(), [label, "greedy"], args.deals or 1000, args.workers)


if __name__ == "__main__":
    main()
