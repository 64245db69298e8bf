"""The standard streams, which may be closed, or gone with the terminal."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO


def is_open(stream: TextIO | None) -> bool:
    """Whether a standard stream is there to be used (a closed descriptor leaves `None`)."""
    return stream is not None and not stream.closed


def is_terminal(stream: TextIO | None) -> bool:
    """Whether a standard stream is open on a terminal."""
    return is_open(stream) and stream is not None and stream.isatty()


def error_line(text: str) -> None:
    """Write a line on standard error, if there is one to write on."""
    if not is_open(sys.stderr):
        return
    with contextlib.suppress(OSError):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def drop_output_if_gone() -> None:
    """Send what is left to write to nowhere when the terminal has gone (hung up).

    Otherwise the interpreter fails to write it as it exits, with another message and
    another exit status.
    """
    for stream in (sys.stdout, sys.stderr):
        if not is_open(stream):
            continue
        assert stream is not None
        try:
            stream.flush()
        except OSError:
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
