"""`scopa simulate`: a tournament between agents, here or on a pool of worker processes."""

from __future__ import annotations

import argparse
import gettext
import json
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from scopa.agents import Agent
from scopa.cli._agents import Rebuilt, agent
from scopa.cli._errors import DataError, UsageError, quoted, why_not
from scopa.cli._io import Io
from scopa.cli._rules import find_rules
from scopa.cli._screen import Screen
from scopa.cli._signals import ignore_interrupt, interrupt_handler
from scopa.cli._streams import is_open
from scopa.rules import Rules
from scopa.tournament import MAX_DEALS, TournamentResult, tournament


def simulate(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa simulate` with its arguments."""
    tr = io_.tr
    rules = find_rules(args.variant)
    names = [name.strip() for name in args.agents.split(",")]
    agents = [agent(name, rules, tr) for name in names]
    if len(agents) != rules.number_of_sides:
        needs = tr.gettext("{variant} needs {count} agents, not {given}")
        raise UsageError(
            needs.format(variant=rules.name, count=rules.number_of_sides, given=len(agents))
        )
    if not 1 <= args.deals <= MAX_DEALS:
        deals = tr.gettext(
            "--deals must be from 1 to {most} (a tournament keeps every deal's result)"
        )
        raise UsageError(deals.format(most=f"{MAX_DEALS:,}"))
    if args.workers < 1:
        raise UsageError(tr.gettext("--workers must be at least 1"))
    output = _output_path(args.json, tr) if args.json is not None else None
    progress, finish = _progress_bar(io_.screen, args.deals, tr)
    settings: dict[str, Any] = {
        "deals": args.deals,
        "seed": args.seed,
        "names": names,
        "chunk_size": _chunk_size(args.deals, args.workers),
        "progress": progress,
    }
    try:
        if args.workers > 1:  # each worker builds the agents again from their names
            pooled: list[Agent] = [Rebuilt(name, io_.lang) for name in names]
            result = _tournament_on_pool(rules, pooled, args.workers, settings)
        else:
            result = tournament(rules, agents, **settings)
    finally:
        finish()
    io_.screen.say(result.table())
    if output is not None:
        try:
            output.write_text(json.dumps(result.as_dict(), indent=2), encoding="utf-8")
        except OSError as error:
            why = tr.gettext("cannot write {file}: {why}")
            raise DataError(why.format(file=quoted(args.json), why=why_not(tr, error))) from None
        io_.screen.say(tr.gettext("Wrote {file}").format(file=args.json))
    return 0


def _output_path(name: str, tr: gettext.NullTranslations) -> Path:
    """The path of `--json`, checked before the tournament runs."""
    path = Path(name)
    file = quoted(name)
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        pass  # a new file, or a folder that is missing: said below
    except (OSError, ValueError) as error:  # a name too long, or with a NUL character
        raise UsageError(f"--json {file}: {why_not(tr, error)}") from None
    if path.is_dir():
        raise UsageError(tr.gettext("--json {file} is a folder, not a file").format(file=file))
    folder = quoted(str(path.parent))
    if not path.parent.is_dir():
        missing = tr.gettext("--json {file}: there is no folder {folder}")
        raise UsageError(missing.format(file=file, folder=folder))
    if not os.access(path.parent, os.W_OK):
        closed = tr.gettext("--json {file}: cannot write in {folder}")
        raise UsageError(closed.format(file=file, folder=folder))
    return path


def _chunk_size(deals: int, workers: int) -> int:
    """Deals per task: one here (progress after every deal); more per task in a pool."""
    return 1 if workers == 1 else max(1, min(20, deals // (10 * workers)))


def _tournament_on_pool(
    rules: Rules, agents: list[Agent], workers: int, settings: dict[str, Any]
) -> TournamentResult:
    """The tournament on a pool of worker processes, which Ctrl-C stops at once.

    Ctrl-C never raises while the pool is in use: an interrupt inside the waiting of
    `concurrent.futures` can leave one of its locks held, and the command hung at exit.
    It ends the workers instead, which breaks the pool: the pool fails the chunks it holds,
    and the command stops when the tournament gives up on them, where nothing is held. An
    interrupt that came before the workers started stops it at the next chunk's progress.
    A second Ctrl-C does the same again.
    """
    others = set(multiprocessing.active_children())
    interrupted = threading.Event()
    ended = threading.Event()  # the workers, by an interrupt

    def pool_workers() -> list[multiprocessing.process.BaseProcess]:
        return [child for child in multiprocessing.active_children() if child not in others]

    def interrupt(signum: int, frame: object) -> None:
        interrupted.set()
        for worker in pool_workers():
            worker.terminate()
            ended.set()

    progress = settings["progress"]

    def progress_or_stop(done: int, total: int) -> None:
        if interrupted.is_set() and not ended.is_set():  # else the broken pool stops it
            raise KeyboardInterrupt
        progress(done, total)

    with interrupt_handler(interrupt):
        pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_interrupt)
        try:
            result = tournament(
                rules, agents, executor=pool, **{**settings, "progress": progress_or_stop}
            )
        except BaseException:
            _stop_pool(pool, pool_workers())
            if interrupted.is_set():
                raise KeyboardInterrupt from None  # not the failed chunks it caused
            raise
        pool.shutdown()
    if interrupted.is_set():  # as the last chunks finished: stop, with no table
        raise KeyboardInterrupt
    return result


def _stop_pool(
    pool: ProcessPoolExecutor, workers: list[multiprocessing.process.BaseProcess]
) -> None:
    """Drop the chunks waiting and end the pool's `workers` now."""
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
    pool.shutdown()


def _progress_bar(
    screen: Screen, total: int, tr: gettext.NullTranslations
) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A progress display updated after every deal, and the function that removes it."""
    count = tr.gettext("{done}/{total} deals")
    if screen.console is None:  # pragma: no cover - depends on the environment

        def plain(done: int, all_: int) -> None:
            if is_open(sys.stderr):
                sys.stderr.write("\r" + count.format(done=done, total=all_))
                sys.stderr.flush()

        def end() -> None:
            if is_open(sys.stderr):
                sys.stderr.write("\n")

        return plain, end
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn(tr.gettext("playing")),
        BarColumn(),
        TextColumn(count.format(done="{task.completed}", total="{task.total}")),
        TimeElapsedColumn(),
        console=screen.console,
        transient=True,
    )
    task = bar.add_task("playing", total=total)
    bar.start()
    return (lambda done, _: bar.update(task, completed=done)), bar.stop
