"""Engine ceiling: how fast could an engine be behind the public API's shape?

    python benchmarks/ceiling.py [--seconds S] [--rounds R] [--check N] [--pure]
                                 [--reference PATH]

The playout loop of `playout.py` (`new`, then `is_terminal`, `legal_moves()`, a random pick
and `apply()` until the hand ends) is run over these engines in alternating rounds:

- `library`: scopa as installed (its build is printed);
- `ceiling`: `ceiling_engine.py`, the least engine that plays 2-player classic behind that
  API: the library's deal, plain int fields, no checks but the move's identity, nothing
  else. It is compiled with mypyc (from the mypy package) into a temporary folder unless
  `--pure` is given or mypyc is not installed;
- `no shuffle`: the ceiling engine dealing from orders shuffled in advance, so what the
  shuffle of each deal costs;
- `idle`: states that do no work at all, so the loop alone.

Before timing, the ceiling plays `--check` random hands beside the library and must offer
the same moves at every play and end with the same piles and scope, so both do the same
work. Each figure is the median of the rounds' hands per second, and of the ratios to the
library (and to the reference loop with `--reference`) measured in the same round.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from playout import BUILD, deals_per_second, hands_per_second, load_reference

import scopa

HERE = Path(__file__).resolve().parent


def load_engine(pure: bool, folder: Path) -> tuple[ModuleType, str]:
    """The ceiling engine, compiled into `folder` when it can be, and how it was built."""
    source = HERE / "ceiling_engine.py"
    how = "pure Python"
    if not pure and importlib.util.find_spec("mypyc") is not None:
        shutil.copy(source, folder)
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", "ceiling_engine.py"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode == 0:
            (folder / "ceiling_engine.py").unlink()  # import the compiled module
            how = "compiled"
        else:
            print(f"mypyc failed, the ceiling runs in pure Python:\n{done.stdout[-2000:]}")
    elif not pure:
        print("mypyc is not installed (pip install mypy): the ceiling runs in pure Python")
    sys.path.insert(0, str(folder if how == "compiled" else HERE))
    return importlib.import_module("ceiling_engine"), how


def check(engine: ModuleType, hands: int) -> None:
    """Play `hands` random hands in both engines; stop at the first difference."""
    rules = scopa.find_variant("classic")
    rng = random.Random(0)
    for seed in range(hands):
        state = scopa.GameState.new(rules, seed=seed)
        mirror = engine.new(seed)
        while not state.is_terminal:
            theirs = {(m.index, m.take): m for m in mirror.legal_moves()}
            ours = state.legal_moves()
            if {(m.card.index, m.captured_mask) for m in ours} != set(theirs):
                raise SystemExit(f"the engines differ in hand {seed}: {state.to_text()}")
            move = ours[rng.randrange(len(ours))]
            state = state.apply(move)
            mirror = mirror.apply(theirs[move.card.index, move.captured_mask])
        piles = (mirror.pile0, mirror.pile1)
        scope = (mirror.scope0, mirror.scope1)
        if mirror.to_move >= 0 or (state.pile_masks, state.scope) != (piles, scope):
            raise SystemExit(f"the engines end hand {seed} differently")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--check", type=int, default=2000, help="hands checked move by move")
    parser.add_argument("--pure", action="store_true", help="do not compile the ceiling")
    parser.add_argument("--reference", help="a reference loop to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scopa-ceiling-") as folder:
        engine, how = load_engine(args.pure, Path(folder))
        check(engine, args.check)
        rules = scopa.find_variant("classic")
        loops: dict[str, Callable[[float, int], float]] = {
            "library": lambda s, seed: hands_per_second(rules, s, seed),
            "ceiling": lambda s, seed: deals_per_second(engine.new, s, seed),
            "no shuffle": lambda s, seed: deals_per_second(engine.new_unshuffled, s, seed),
            "idle": lambda s, seed: deals_per_second(engine.idle, s, seed),
        }
        if args.reference:
            loops["reference"] = load_reference(args.reference)
        for loop in loops.values():  # warm-up: caches and tables
            loop(0.2, 0)
        speeds: dict[str, list[float]] = {name: [] for name in loops}
        for round_ in range(args.rounds):
            for name, loop in loops.items():
                speeds[name].append(loop(args.seconds, round_ + 1))
    print(f"library: {BUILD}; ceiling and idle engines: {how}; {args.check} hands checked")
    against = ["library", "reference"] if args.reference else ["library"]
    print(f"{'engine':<10} {'hands/s':>10}" + "".join(f" {'/ ' + b:>12}" for b in against))
    for name, values in speeds.items():
        ratios = "".join(f" {median_ratio(values, speeds[base]):12.2f}" for base in against)
        print(f"{name:<10} {statistics.median(values):10,.0f}{ratios}")


def median_ratio(values: list[float], bases: list[float]) -> float:
    """The median of the ratios of values to bases measured in the same rounds."""
    return statistics.median(v / b for v, b in zip(values, bases, strict=True))


if __name__ == "__main__":
    main()
