"""Instructions per random hand, counted by valgrind: a measure that a busy machine cannot blur.

    python benchmarks/instructions.py [--hands N] [--reference PATH] [--encoding]

Wall-clock figures on a shared machine move by 10% or more from run to run; the number of
machine instructions a playout executes does not. This script runs the playout loop of
`playout.py` (the public API, after a warm-up that fills the caches) under valgrind's
callgrind tool twice, with no hands and with `--hands` hands, and prints the difference
divided by the hands: the instructions of one hand, interpreter included. With
`--reference PATH`, the reference loop (a Python file with `play_random_hand`,
`legal_moves_fast`) is counted the same way, and the ratio is printed. With `--encoding`,
so is the encoding path of `adapters.py` (ids, mask, observation counts and the move of an
id at every step), with its ratio to the playout. Instructions are not
time (the compiled build runs more of them per cycle), but a change that removes
instructions from the same build is a change that makes it faster. Needs `valgrind`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playout import BUILD  # the benchmark beside this one, whose hands are counted here

import scopa

WARM_UP = 3000  # hands played before counting: the caches of moves and hands fill up

LIBRARY = """
import random, sys
sys.path.insert(0, {folder!r})
import scopa
from playout import random_hand
rules = scopa.find_variant("classic")
draw = random.Random(1).random
for seed in range({warm_up}):
    random_hand(rules, seed, draw)
for seed in range({warm_up}, {warm_up} + int(sys.argv[1])):
    random_hand(rules, seed, draw)
"""

ENCODED = """
import random, sys
sys.path.insert(0, {folder!r})
import scopa
from adapters import encoded
from scopa.encoding import observation_counts
rules = scopa.find_variant("classic")
loop = encoded(observation_counts)
for seed in range({warm_up}):
    loop(rules, seed)
for seed in range({warm_up}, {warm_up} + int(sys.argv[1])):
    loop(rules, seed)
"""

REFERENCE = """
import random, sys
sys.path.insert(0, {folder!r})
import {module} as reference
rng = random.Random(1)
deck = list(range(40))
def play(count):
    for _ in range(count):
        reference.play_random_hand(rng.random, rng.shuffle, deck, reference.legal_moves_fast)
play({warm_up})
play(int(sys.argv[1]))
"""


def instructions(program: str, hands: int) -> int:
    """The instructions `program` executes, given `hands` as its argument."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "hands.py"
        script.write_text(program)
        # hash randomisation changes the work of dicts from run to run: fixed here
        environment = {**os.environ, "PYTHONHASHSEED": "0"}
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        run = subprocess.run(
            [*command, sys.executable, str(script), str(hands)],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no count: {run.stderr[-300:]}")
    return int(found.group(1))


def per_hand(program: str, hands: int) -> float:
    """Instructions of one hand: the count with `hands` hands less the count with none."""
    return (instructions(program, hands) - instructions(program, 0)) / hands


def main() -> None:
    parser = argparse.ArgumentParser(description="Instructions per random hand, by valgrind.")
    parser.add_argument("--hands", type=int, default=300, help="hands counted (default 300)")
    parser.add_argument("--reference", type=Path, help="the reference loop, a Python file")
    parser.add_argument("--encoding", action="store_true", help="count the encoding path too")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind")
    print(f"scopa {scopa.__version__} ({BUILD}), classic, {args.hands} hands after {WARM_UP}")
    here = str(Path(__file__).resolve().parent)
    library = per_hand(LIBRARY.format(folder=here, warm_up=WARM_UP), args.hands)
    print(f"library    {library:12,.0f} instructions per hand")
    if args.encoding:
        encoding = per_hand(ENCODED.format(folder=here, warm_up=WARM_UP), args.hands)
        print(f"encoding   {encoding:12,.0f} instructions per hand")
        print(f"ratio library/encoding: {library / encoding:.2f}")
    if args.reference is not None:
        path = args.reference.resolve()
        program = REFERENCE.format(folder=str(path.parent), module=path.stem, warm_up=WARM_UP)
        reference = per_hand(program, args.hands)
        print(f"reference  {reference:12,.0f} instructions per hand")
        print(f"ratio reference/library: {reference / library:.2f}")


if __name__ == "__main__":
    main()
