"""Running the `scopa` command: its arguments, its streams, and how it ends."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import NoReturn

from scopa.cli._agents import module_path_kept
from scopa.cli._errors import DataError, UsageError
from scopa.cli._io import Io, Reader
from scopa.cli._keyboard import Keyboard
from scopa.cli._parser import parser
from scopa.cli._play import play
from scopa.cli._screen import Screen, tolerant
from scopa.cli._signals import Signalled
from scopa.cli._streams import drop_output_if_gone, error_line, is_open
from scopa.errors import ScopaError


def main(
    argv: Sequence[str] | None = None,
    *,
    read: Reader | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run the `scopa` command and return its exit status.

    Args:
        argv: the arguments (by default the command line's).
        read: answers the prompts (see [`Reader`][scopa.cli.Reader]); by default the lines
            of standard input, with a countdown when a move has a time limit.
        clock: the time in seconds, for the move clock.
    """
    return _main(argv, read, clock, console=False)


def run() -> NoReturn:
    """The console entry point."""
    status = _main(None, None, time.monotonic, console=True)
    # The command is done: a late Ctrl-C (a second one as it stops) has nothing to stop, and
    # would only cut short the interpreter's exit with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(status)


def _main(
    argv: Sequence[str] | None,
    read: Reader | None,
    clock: Callable[[], float],
    *,
    console: bool,
) -> int:
    """`main`; `console`: run as the command itself, which ignores Ctrl-C once it stops."""
    command = parser()
    args = command.parse_args(argv)
    tolerant(sys.stdout)
    tolerant(sys.stderr)
    try:
        _check_streams(args, read)
        screen = Screen(sys.stdout)
        io_ = Io(screen, read if read is not None else Keyboard(screen, clock), clock)
        with module_path_kept():
            status: int = args.func(args, io_)
    except UsageError as error:
        _fail(command, str(error), 2)
    except (DataError, ScopaError) as error:
        _fail(command, str(error), 1)
    except (EOFError, KeyboardInterrupt, Signalled) as error:
        if console:  # nothing is left to stop: a late Ctrl-C would end it with a traceback
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        why = f" ({error})" if isinstance(error, Signalled) else ""
        error_line(f"\n{command.prog}: stopped{why}")
        drop_output_if_gone()
        return 1
    except BrokenPipeError:
        # the reader went away (`scopa rules | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


def _check_streams(args: argparse.Namespace, read: Reader | None) -> None:
    """Refuse to run with standard output closed, or `play` with standard input closed."""
    if not is_open(sys.stdout):
        raise UsageError("standard output is closed: the command has nowhere to write")
    if read is None and args.func is play and not is_open(sys.stdin):
        raise UsageError("standard input is closed: scopa play reads your moves from it")


def _fail(command: argparse.ArgumentParser, message: str, status: int) -> NoReturn:
    one_line = " ".join(message.split())
    error_line(f"{command.prog}: error: {one_line}")
    raise SystemExit(status)
