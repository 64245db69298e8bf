"""What a subcommand talks through, and the questions every subcommand may ask."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass

from scopa._i18n import translation
from scopa.cli._screen import Screen

Reader = Callable[[str, float | None], str | None]
"""How the command reads an answer.

It is called with the prompt and the seconds left to answer (`None` when there is no
limit), and returns the line typed, or `None` when the time ran out. It raises `EOFError`
at the end of the input; `None` for a prompt without a limit is read the same way.
"""


@dataclass
class Io:
    """What a subcommand talks through: the screen, the reader of answers and the clock.

    And the language it speaks: a code of `scopa.LANGUAGES`.
    """

    screen: Screen
    read: Reader
    clock: Callable[[], float]
    lang: str

    @property
    def tr(self) -> gettext.NullTranslations:
        """The translation of the command's words into its language."""
        return translation(self.lang)


def read(io_: Io, prompt: str) -> str:
    """The answer to a prompt without a time limit.

    A reader that answers `None` (no answer) is taken to have reached the end of its input.
    """
    answer = io_.read(prompt, None)
    if answer is None:
        raise EOFError
    return answer


def yes(io_: Io, prompt: str, *, default: bool = False) -> bool:
    """A yes or a no, asked again until the answer is one; Enter gives the default.

    The answers are the language's words: `y`, `yes`, `n`, `no` in English, `s`, `si`,
    `sì`, `n`, `no` in Italian.
    """
    tr = io_.tr
    yes_words = tr.pgettext("answers meaning yes", "y yes").split()
    no_words = tr.pgettext("answers meaning no", "n no").split()
    while True:
        answer = read(io_, prompt).strip().lower()
        if not answer:
            return default
        if answer in yes_words or answer in no_words:
            return answer in yes_words
        io_.screen.say(tr.gettext("Answer y or n."), "red")


def number(answer: str, most: int) -> int | None:
    """The number from 0 to `most` typed as `answer`, or `None` if it is not one."""
    if answer.isascii() and answer.isdigit() and len(answer) <= 3 and int(answer) <= most:
        return int(answer)
    return None
