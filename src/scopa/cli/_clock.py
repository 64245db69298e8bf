"""The clock of a move of `scopa play`, under rules with a time limit per move."""

from __future__ import annotations

from scopa.cli._io import Io


class MoveClock:
    """The seconds left for the move being chosen: started, stopped a while, stopped for good.

    Without a `limit` it never runs, and answers wait as long as they take.
    """

    def __init__(self, io_: Io, limit: float | None) -> None:
        self.io = io_
        self.limit = limit
        self.deadline: float | None = None  # when the move's time runs out, while it runs
        self.left: float | None = None  # the seconds left for the move, while its clock stops

    def start(self) -> None:
        """Start the clock of the move, or start it again where it stopped."""
        if self.limit is None or self.deadline is not None:
            return
        left = self.limit if self.left is None else self.left
        self.deadline = self.io.clock() + left
        self.left = None

    def pause(self) -> None:
        """Stop the clock of the move for a while, keeping the seconds left."""
        if self.deadline is not None:
            self.left = max(0.0, self.deadline - self.io.clock())
            self.deadline = None

    def stop(self) -> float | None:
        """Stop the clock for good; the seconds the move took (`None` when untimed)."""
        used = None
        if self.limit is not None and self.deadline is not None:
            used = self.limit - (self.deadline - self.io.clock())
        self.deadline = self.left = None
        return used

    def ask(self, prompt: str) -> str | None:
        """An answer within the time left for the move, or `None` once it has run out."""
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - self.io.clock()
            if seconds <= 0:
                return None
        answer = self.io.read(prompt, seconds)
        if answer is None and seconds is None:
            raise EOFError  # no answer where time cannot run out: the input has ended
        return None if answer is None else answer.strip()
