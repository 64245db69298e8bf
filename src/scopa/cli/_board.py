"""The board of `scopa play`: on a terminal, redrawn in place with the latest plays."""

from __future__ import annotations

import shutil

from scopa import __version__
from scopa._i18n import translation
from scopa.cli._guide import SUITS
from scopa.cli._log import PlayLog
from scopa.cli._screen import Screen
from scopa.rules import Rules


class Board:
    """Draws the pictures of a match of `rules` against the computer's `opponent`.

    On a terminal each picture replaces the last, under a header that names the game, the
    suits and the clock (`limit` seconds a move, or `None`; `clock_off` when the rules'
    limit was turned off), with the latest plays of the `log` below it; elsewhere the
    pictures are printed one after another.
    """

    def __init__(
        self,
        screen: Screen,
        log: PlayLog,
        rules: Rules,
        opponent: str,
        *,
        limit: float | None,
        clock_off: bool,
    ) -> None:
        self.screen = screen
        self.log = log
        self.rules = rules
        self.opponent = opponent
        self.limit = limit
        self.clock_off = clock_off
        self.greeting: list[str] = []  # the words of the introduction, for the first board

    def draw(self, picture: str) -> None:
        """On a terminal, redraw the board with the latest plays; else print the picture."""
        screen = self.screen
        if not screen.is_board:
            screen.say()
            for line in picture.splitlines():
                screen.say(line)
            return
        tr = translation(self.log.lang)
        screen.clear()
        title = tr.gettext(
            "scopa {version}: {variant} against the computer ({agent}). Type help for help."
        )
        variant = self.rules.name
        screen.say(title.format(version=__version__, variant=variant, agent=self.opponent), "bold")
        suits = tr.gettext("Suits: {suits}.").format(suits=SUITS)
        screen.say(suits + (" " + tr.gettext("Clock: off.") if self.clock_off else ""))
        greeting, self.greeting = self.greeting, []  # on the first board only
        for line in greeting:
            screen.say(line)
        lines = picture.splitlines()
        if self.limit is not None:
            clock = tr.gettext("Clock: {seconds} s a move; running out of time abandons the match.")
            lines = [clock.format(seconds=f"{self.limit:g}"), "", *lines]
        screen.say()
        for line in lines:
            screen.say(line)
        room = shutil.get_terminal_size().lines - len(lines) - len(greeting) - 8
        screen.say()
        screen.say(tr.gettext("Plays"), "bold")
        for text, style in self.log.lines[-max(room, 3) :]:
            screen.say(f"  {text}", style)
        screen.say()
