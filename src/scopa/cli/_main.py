"""Running the `scopa` command: its language, its arguments, its streams, and how it ends."""

from __future__ import annotations

import argparse
import gettext
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import NoReturn

from scopa._i18n import check_language, locale_language, translation
from scopa.cli._agents import module_path_kept
from scopa.cli._errors import DataError, UsageError, quoted
from scopa.cli._io import Io, Reader
from scopa.cli._keyboard import Keyboard
from scopa.cli._parser import parser
from scopa.cli._play import play
from scopa.cli._screen import Screen, tolerant
from scopa.cli._signals import Signalled, signal_words
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
    arguments = sys.argv[1:] if argv is None else list(argv)
    lang = _language(_asked_language(arguments))
    tr = translation(lang)
    command = parser(tr)
    args = command.parse_args(arguments)
    tolerant(sys.stdout)
    tolerant(sys.stderr)
    try:
        asked = getattr(args, "lang", None)
        if asked is not None:
            lang = _checked_language(asked, tr)
            tr = translation(lang)
        _check_streams(args, read, tr)
        screen = Screen(sys.stdout)
        reader = read if read is not None else Keyboard(screen, clock, tr)
        with module_path_kept():
            status: int = args.func(args, Io(screen, reader, clock, lang))
    except UsageError as error:
        _fail(command, tr, str(error), 2)
    except (DataError, ScopaError) as error:
        _fail(command, tr, str(error), 1)
    except (EOFError, KeyboardInterrupt, Signalled) as error:
        if console:  # nothing is left to stop: a late Ctrl-C would end it with a traceback
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        if isinstance(error, Signalled):
            stopped = tr.gettext("{command}: stopped ({why})")
        else:
            stopped = tr.gettext("{command}: stopped")
        why = signal_words(tr, str(error)) if isinstance(error, Signalled) else None
        error_line("\n" + stopped.format(command=command.prog, why=why))
        drop_output_if_gone()
        return 1
    except BrokenPipeError:
        # the reader went away (`scopa rules | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


def _asked_language(arguments: Sequence[str]) -> str | None:
    """The value of `--lang` among the arguments, if they give one, before they are parsed.

    The parser is built in the language asked for, so that its help is written in it.
    """
    for at, word in enumerate(arguments):
        if word == "--":
            break
        if word == "--lang" and at + 1 < len(arguments):
            return arguments[at + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


def _language(asked: str | None) -> str:
    """The language the command speaks.

    The one asked for when the command speaks it, else that of the locale (see
    `scopa.locale_language`), else English.
    """
    if asked is not None:
        try:
            return check_language(asked)
        except ScopaError:
            pass  # refused once the arguments are parsed, in the language of the locale
    return locale_language()


def _checked_language(asked: str, tr: gettext.NullTranslations) -> str:
    """The code of the language `--lang` asks for.

    Raises:
        UsageError: the command does not speak it.
    """
    try:
        return check_language(asked)
    except ScopaError:
        refused = tr.gettext("--lang {lang}: the languages are en (English) and it (Italian)")
        raise UsageError(refused.format(lang=quoted(asked))) from None


def _check_streams(
    args: argparse.Namespace, read: Reader | None, tr: gettext.NullTranslations
) -> None:
    """Refuse to run with standard output closed, or `play` with standard input closed."""
    if not is_open(sys.stdout):
        raise UsageError(tr.gettext("standard output is closed: the command has nowhere to write"))
    if read is None and args.func is play and not is_open(sys.stdin):
        raise UsageError(
            tr.gettext("standard input is closed: scopa play reads your moves from it")
        )


def _fail(
    command: argparse.ArgumentParser, tr: gettext.NullTranslations, message: str, status: int
) -> NoReturn:
    one_line = " ".join(message.split())
    error_line(
        tr.gettext("{command}: error: {message}").format(command=command.prog, message=one_line)
    )
    raise SystemExit(status)
