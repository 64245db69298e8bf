"""The keyboard: the lines typed (or piped) on standard input, with a countdown under a limit."""

from __future__ import annotations

import gettext
import math
import os
import select
import sys
from collections.abc import Callable

from scopa.cli._screen import Screen


class Keyboard:
    """The lines typed (or piped) on standard input, read with a countdown under a limit.

    On a terminal board the countdown is the line above the prompt, rewritten in place
    every second; on plain output the prompt starts with the seconds left.
    """

    def __init__(
        self, screen: Screen, clock: Callable[[], float], tr: gettext.NullTranslations
    ) -> None:
        self.screen = screen
        self.clock = clock
        self.tr = tr
        self.pending = b""
        self.ended = False

    def __call__(self, prompt: str, seconds: float | None) -> str | None:
        if os.name != "posix":  # pragma: no cover - no select() on a console elsewhere
            return input(prompt)
        if seconds is None:
            self.screen.write(prompt)
            return self._line(None)
        if self.screen.is_board:
            self.screen.say(time_left(self.tr, seconds))
            self.screen.write(prompt)
        else:
            self.screen.write(f"[{math.ceil(seconds)} s] {prompt}")
        line = self._line(self.clock() + seconds)
        if line is None:
            self.screen.write("\n")
            self._discard()
        return line

    def _discard(self) -> None:
        """Forget what was typed for a prompt whose time ran out, so no later prompt reads it."""
        self.pending = b""
        if os.isatty(sys.stdin.fileno()):
            import termios  # POSIX only, as this reader is

            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)

    def _line(self, deadline: float | None) -> str | None:
        """The next line, or `None` if the deadline passes first.

        No wait lasts more than a second: Python acts on a Ctrl-C between two steps of its
        own, so one that comes as the wait begins is acted on when the wait ends.
        """
        shown = None
        fd = sys.stdin.fileno()
        while b"\n" not in self.pending and not self.ended:
            wait = 1.0
            if deadline is not None:
                left = deadline - self.clock()
                if left <= 0:
                    return None
                if math.ceil(left) != shown and shown is not None:
                    self._show(left)
                shown = math.ceil(left)
                wait = left - (shown - 1)  # until the next whole second
            ready, _, _ = select.select([fd], [], [], wait)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # a terminal that has hung up: the input has ended
                    chunk = b""
                self.ended = not chunk
                self.pending += chunk
        if not self.pending:
            if os.isatty(fd):
                self.ended = False  # Ctrl-D on a terminal ends one answer, not the input
            raise EOFError
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode(sys.stdin.encoding or "utf-8", "replace")

    def _show(self, left: float) -> None:
        """Rewrite the countdown line above the prompt, keeping what is being typed."""
        if not self.screen.is_board:
            return
        text = time_left(self.tr, left)
        if self.screen.has_colour and left <= 10:
            text = f"\x1b[1;31m{text}\x1b[0m"
        self.screen.write(f"\x1b7\x1b[1A\r\x1b[2K{text}\x1b8")


def time_left(tr: gettext.NullTranslations, seconds: float) -> str:
    """The countdown's line."""
    return tr.gettext("Clock: {seconds} s left for this move").format(seconds=math.ceil(seconds))
