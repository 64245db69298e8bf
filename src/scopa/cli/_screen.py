"""Where the command writes: a terminal it may redraw, or plain scrolling text."""

from __future__ import annotations

import io
import os
import textwrap
from typing import Any, TextIO

from scopa.board import WIDTH

SUIT_STYLES = {"D": "bold yellow", "C": "bold red", "S": "bold blue", "B": "bold green"}
"""The colour of each suit's cards (`7D`) on a terminal."""


class Screen:
    """Where the command writes: a terminal it may redraw, or plain scrolling text.

    With `rich`, cards (`7D`) are coloured by suit on a terminal; text is never read as
    markup, so brackets in a name or a message are printed as they are.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.is_board = out.isatty() and os.environ.get("TERM") != "dumb"
        try:
            from rich.console import Console
        except ImportError:  # pragma: no cover - depends on the environment
            self.console: Any = None
        else:
            self.console = Console(
                file=out, highlight=False, markup=False, emoji=False, soft_wrap=True
            )

    @property
    def has_colour(self) -> bool:
        """Whether the output shows colours."""
        return self.console is not None and self.console.color_system is not None

    def say(self, text: str = "", style: str = "") -> None:
        """Print a line in a style (such as `bold` or `red`), with cards in suit colours."""
        if self.console is None:  # pragma: no cover - depends on the environment
            self.out.write(text + "\n")
            self.out.flush()
            return
        from rich.text import Text

        line = Text(text, style=style)
        for suit, suit_style in SUIT_STYLES.items():
            line.highlight_regex(rf"\b(?:10|[1-9]){suit}\b", suit_style)
        self.console.print(line)

    def wrap(self, text: str, style: str = "", *, indent: str = "") -> None:
        """Print a paragraph, wrapped to the width of the pictures, each line indented."""
        for line in wrapped(text, indent):
            self.say(line, style)

    def write(self, text: str) -> None:
        """Write text as it is (a prompt, or a terminal control sequence)."""
        self.out.write(text)
        self.out.flush()

    def clear(self) -> None:
        """Clear a terminal board (nothing on plain output)."""
        if self.is_board:
            self.write("\x1b[H\x1b[2J")


def wrapped(text: str, indent: str = "") -> list[str]:
    """A paragraph as lines of the width of the pictures, each line indented."""
    return textwrap.wrap(
        text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )


def capital(text: str) -> str:
    """A sentence with its first letter in capitals, as it starts a line."""
    return text[:1].upper() + text[1:]


def tolerant(stream: TextIO) -> None:
    """Let `stream` write characters its encoding lacks as escapes instead of failing."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")
