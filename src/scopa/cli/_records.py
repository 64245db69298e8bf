"""Match records: reading one, saving the match of `scopa play`, and the recovery file."""

from __future__ import annotations

import gettext
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


def load(path: str, tr: gettext.NullTranslations) -> Match:
    """The match of a record file, read a line at a time.

    Raises:
        UsageError: the file cannot be read.
        ScopaError: it is not a record (the library's message says why).
    """
    try:
        with open(path, encoding="utf-8") as file:
            return read_record(file)
    except (OSError, ValueError) as error:
        if isinstance(error, ScopaError):
            raise
        why = tr.gettext("cannot read {file}: {why}")
        raise UsageError(why.format(file=quoted(path), why=why_not(tr, error))) from None


class Keeper:
    """Keeps the match of `scopa play`: saves it when asked, and before the command stops.

    `unsaved` says whether the player has acted since the match was started or saved.
    """

    def __init__(self, io_: Io) -> None:
        self.io = io_
        self.tr = io_.tr
        self.screen = io_.screen
        self.unsaved = False

    def save(self, match: Match) -> None:
        """Ask for a file name and write the record, asking before replacing a file."""
        tr = self.tr
        while True:
            asked = tr.gettext("File name [{file}]: ").format(file=SAVE_NAME)
            name = read(self.io, asked).strip() or SAVE_NAME
            path = Path(name)
            try:
                exists = path.exists()
            except (OSError, ValueError):  # writing says what is wrong with the name
                exists = False
            replace = tr.gettext("{file} exists. Replace it? [y/N] ").format(file=name)
            if exists and not yes(self.io, replace):
                continue
            try:
                path.write_text(write_record(match), encoding="utf-8")
            except (OSError, ValueError) as error:
                why = tr.gettext("Cannot write {file}: {why}")
                self.screen.say(why.format(file=quoted(name), why=why_not(tr, error)), "red")
                continue
            self.unsaved = False
            self.screen.say(tr.gettext("Saved to {file}").format(file=name))
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
            first = self.tr.gettext("Stopping. Save the match record first? [Y/n] ")
            if yes(self.io, first, default=True):
                self.save(match)
        except (EOFError, KeyboardInterrupt, OSError, Signalled):
            # no answer, or no terminal to ask on (OSError: it has gone)
            return not self.unsaved  # saved just before the question was cut short
        return True

    def _recover(self, match: Match) -> None:
        """Write the record to a recovery file and say where, if the output is still there."""
        tr = self.tr
        path = recovery_file(write_record(match))
        try:
            self.screen.say()
            if path is None:
                self.screen.say(
                    tr.gettext("The match record could not be written anywhere."), "red"
                )
                return
            if match.is_over:
                saved = tr.gettext("The match record is saved in {file}; see it with: {command}")
                command = f"scopa replay {path}"
            else:
                saved = tr.gettext("The match record is saved in {file}; go on with: {command}")
                command = f"scopa play --resume {path}"
            self.screen.say(saved.format(file=path, command=command), "bold")
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
