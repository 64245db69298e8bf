"""The signals that stop a command: SIGHUP and SIGTERM for `scopa play`, Ctrl-C for a pool."""

from __future__ import annotations

import contextlib
import gettext
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any


class Signalled(Exception):
    """The terminal closed (SIGHUP) or the command was told to end (SIGTERM): stop now.

    Its message is the signal's name.
    """


ENDING_SIGNALS = ("SIGHUP", "SIGTERM")
"""The signals that stop `scopa play` as the end of its input does."""


def signal_words(tr: gettext.NullTranslations, name: str) -> str:
    """What an ending signal means, with its name: `the terminal closed, SIGHUP`."""
    if name == "SIGHUP":
        return tr.gettext("the terminal closed, {signal}").format(signal=name)
    return tr.gettext("terminated, {signal}").format(signal=name)


@contextlib.contextmanager
def ending_signals() -> Iterator[None]:
    """SIGHUP and SIGTERM raise `Signalled` for a while, once (in the main thread, on POSIX).

    After the first, both are ignored until the while ends, so that what the command does
    to keep the match is not cut short.
    """
    numbers = [getattr(signal, name) for name in ENDING_SIGNALS if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread() or not numbers:
        yield
        return

    def end(signum: int, frame: object) -> None:
        for number in numbers:
            signal.signal(number, signal.SIG_IGN)
        name = signal.Signals(signum).name
        raise Signalled(name)

    previous = {number: signal.signal(number, end) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)


@contextlib.contextmanager
def interrupt_handler(handler: Callable[[int, Any], None]) -> Iterator[None]:
    """Ctrl-C calls `handler` for a while (in the main thread; elsewhere it cannot come)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def ignore_interrupt() -> None:
    """Leave Ctrl-C to the main process, which stops the workers (run in each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
