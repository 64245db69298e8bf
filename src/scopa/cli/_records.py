"""Match records: reading one, saving the match of `scopa play`, and the recovery file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from scopa.cli._errors import UsageError, quoted, why_not
from scopa.cli._io import Io, read, yes
from scopa.cli._signals import Signalled
from scopa.errors import ScopaError
from scopa.match import Match
from scopa.records import read_record, write_record

SAVE_NAME = "scopa-match.txt"
"""The file name offered for saving a match."""


def load(path: str) -> Match:
    """The match of a record file, read a line at a time."""
    try:
        with open(path, encoding="utf-8") as file:
            return read_record(file)
    except (OSError, ValueError) as error:
        if isinstance(error, ScopaError):
            raise
        raise UsageError(f"cannot read {quoted(path)}: {why_not(error)}") from None


class Keeper:
    """Keeps the match of `scopa play`: saves it when asked, and before the command stops.

    `unsaved` says whether the player has acted since the match was started or saved.
    """

    def __init__(self, io_: Io) -> None:
        self.io = io_
        self.screen = io_.screen
        self.unsaved = False

    def save(self, match: Match) -> None:
        """Ask for a file name and write the record, asking before replacing a file."""
        while True:
            name = read(self.io, f"File name [{SAVE_NAME}]: ").strip() or SAVE_NAME
            path = Path(name)
            try:
                exists = path.exists()
            except (OSError, ValueError):  # writing says what is wrong with the name
                exists = False
            if exists and not yes(self.io, f"{name} exists. Replace it? [y/N] "):
                continue
            try:
                path.write_text(write_record(match), encoding="utf-8")
            except (OSError, ValueError) as error:
                self.screen.say(f"Cannot write {quoted(name)}: {why_not(error)}", "red")
                continue
            self.unsaved = False
            self.screen.say(f"Saved to {name}")
            return

    def rescue(self, match: Match, *, ask: bool) -> None:
        """Before the command stops, keep the match.

        Unless the player has not acted since the match was started or last saved, they are
        asked whether to save it (when `ask`: the input ended, or Ctrl-C in the menu); when
        that question goes unanswered too, or is not asked (the terminal closed, or the
        command was told to end), the record goes to a recovery file.
        """
        if not self.unsaved or (ask and self._offer_to_save(match)):
            return
        self._recover(match)

    def _offer_to_save(self, match: Match) -> bool:
        """Ask whether to save the match before stopping; whether it was answered."""
        try:
            self.screen.say()
            if yes(self.io, "Stopping. Save the match record first? [Y/n] ", default=True):
                self.save(match)
        except (EOFError, KeyboardInterrupt, OSError, Signalled):
            # no answer, or no terminal to ask on (OSError: it has gone)
            return not self.unsaved  # saved just before the question was cut short
        return True

    def _recover(self, match: Match) -> None:
        """Write the record to a recovery file and say where, if the output is still there."""
        path = recovery_file(write_record(match))
        try:
            self.screen.say()
            if path is None:
                self.screen.say("The match record could not be written anywhere.", "red")
                return
            then = (
                "see it with: scopa replay" if match.is_over else "go on with: scopa play --resume"
            )
            self.screen.say(f"The match record is saved in {path}; {then} {path}", "bold")
        except OSError:
            pass  # the terminal has gone: the file is there all the same


def recovery_file(record: str) -> str | None:
    """Write a record to a new file, here or else in the temporary folder; its path.

    `None` when neither folder can be written.
    """
    for count in range(1, 100):
        path = Path("scopa-recovery.txt" if count == 1 else f"scopa-recovery-{count}.txt")
        try:
            with path.open("x", encoding="utf-8") as file:
                file.write(record)
        except FileExistsError:
            continue
        except OSError:
            break
        return os.path.abspath(path)
    try:
        handle, name = tempfile.mkstemp(prefix="scopa-recovery-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(record)
    except OSError:
        return None
    return name
