"""What goes wrong at the command line, and the words that say it on one line."""

from __future__ import annotations

import gettext


class UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class DataError(Exception):
    """Bad data, such as a record that cannot be read: reported on one line, exit status 1."""


class Refused(Exception):
    """An answer that cannot be taken, such as a move that cannot be played.

    The message says why.
    """


def quoted(text: str, limit: int = 60) -> str:
    """User text in quotes for a message, cut to a short prefix."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def unreadable(text: str, whole: bool, tr: gettext.NullTranslations) -> Refused:
    """The refusal of typed text that is not a card (or, `whole`, not a move)."""
    if whole:
        why = tr.gettext("cannot read {text} as a move (expected e.g. '7D' or '7Dx3C+4S')")
    else:
        why = tr.gettext("cannot read {text} as a card (expected e.g. '7D', '10b', 'Rc')")
    return Refused(why.format(text=quoted(text)))


def raised(error: BaseException) -> str:
    """An exception in words, for a one-line message: its class and its message, cut short."""
    text = " ".join(str(error).split())
    if len(text) > 120:
        text = text[:120] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def why_not(tr: gettext.NullTranslations, error: OSError | ValueError) -> str:
    """Why a file could not be used, without the file name (the message quotes it).

    The system's own words (`No such file or directory`) are in the system's language.
    """
    if isinstance(error, ValueError):  # the one ValueError of a path: a NUL character
        return tr.gettext("a file name cannot hold a NUL character")
    return error.strerror or tr.gettext("the system refused it")
