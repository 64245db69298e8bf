"""What a long-lived game server sees: long matches, long records, and the caches' memory.

    python benchmarks/server.py [--hands N] [--cache-hands N]

- A match of `--hands` hands (classic with a target no one reaches) is played with random
  moves; the time per move at its start and at its end are printed, then the time to write
  its record and read it back.
- The caches: `--cache-hands` random hands of asso piglia tutto and of scopone scientifico,
  and 20,000 rules read from data that differ only in their target, then the number of
  entries of each cache and the memory they hold (measured with tracemalloc).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc

import attrs

import scopa
from scopa import moves as moves_module
from scopa.records import read_record, rules_from_data, write_record


def long_match(hands: int, seed: int) -> tuple[scopa.Match, list[float], list[float]]:
    """A match of `hands` hands of random moves, and the seconds of each move of the first
    and of the last hand."""
    rules = attrs.evolve(scopa.find_variant("classic"), target=scopa.rules.MAX_TARGET)
    rng = random.Random(seed)
    match = scopa.Match.new(rules, seed=seed)
    first: list[float] = []
    last: list[float] = []
    while len(match.hands) < hands:
        moves = match.state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        start = time.perf_counter()
        match = match.apply(move)
        seconds = time.perf_counter() - start
        if len(match.hands) == 0:
            first.append(seconds)
        elif len(match.hands) == hands - 1:
            last.append(seconds)
    return match, first, last


def cache_entries() -> dict[str, int]:
    """The entries of each of the library's caches."""
    names = ("_MOVES", "_OLD_MOVES", "_GENERATORS")
    return {name: len(getattr(moves_module, name)) for name in names}


def fill_caches(hands: int) -> None:
    """Play random hands of the presets that stress the caches most, and read many rules."""
    rng = random.Random(1)
    for name in ("asso-piglia-tutto", "scopone-scientifico"):
        rules = scopa.find_variant(name)
        for seed in range(hands):
            state = scopa.GameState.new(rules, seed=seed)
            while not state.is_terminal:
                moves = state.legal_moves()
                state = state.apply(moves[rng.randrange(len(moves))])
    for target in range(1, 20_001):
        rules = rules_from_data({"variant": "classic", "changes": {"target": target}})
        scopa.GameState.new(rules, seed=target).legal_moves()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands of the long match")
    parser.add_argument("--cache-hands", type=int, default=20_000, help="hands per preset")
    args = parser.parse_args()

    match, first, last = long_match(args.hands, seed=7)
    print(f"a match of {len(match.hands)} hands, {sum(len(h.history) for h in match.hands)} moves")
    print(f"  median time per move in hand 1:   {statistics.median(first) * 1e6:8.1f} µs")
    print(f"  median time per move in hand {args.hands}: {statistics.median(last) * 1e6:8.1f} µs")
    start = time.perf_counter()
    record = write_record(match)
    written = time.perf_counter() - start
    start = time.perf_counter()
    again = read_record(record)
    read = time.perf_counter() - start
    assert again.totals == match.totals
    size = len(record) / 1e6
    print(f"  its record: {size:.2f} MB, written in {written:.2f} s, read in {read:.2f} s")

    scopa.clear_caches()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    fill_caches(args.cache_hands)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(
        stat.size_diff
        for stat in after.compare_to(before, "filename")
        if stat.traceback[0].filename.endswith(("scopa/moves.py", "scopa/cards.py"))
    )
    print(
        f"caches after {args.cache_hands:,} random hands each of asso piglia tutto and scopone "
        "scientifico, and 20,000 rules read from data:"
    )
    for name, entries in cache_entries().items():
        print(f"  {name:<13} {entries:>7,} entries")
    print(f"  memory held by the caches: {held / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
