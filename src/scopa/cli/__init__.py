"""The `scopa` command: play against the computer, run tournaments, replay records, read rules.

On a terminal, `scopa play` draws the match as a board that it redraws in place (the
pictures of [`scopa.board`](#text-pictures)) with the latest plays below it, and colours
the cards by suit when `rich` is installed (the `cli` extra). When its output is not a
terminal it prints plain scrolling text instead. Under rules with a time limit per move
(tretre: 30 seconds) it runs a visible clock from when the board is drawn, stopped while
the help or the menu is shown, and a player who runs out of time abandons the match, as
the rules say; `--no-clock` turns the clock off. When the player stops the command
(Ctrl-D, or Ctrl-C in the menu) it offers to save the match, and writes it to a recovery
file when the offer cannot be answered; when the terminal closes (SIGHUP) or the command
is told to end (SIGTERM), it writes the recovery file at once.

Wherever the command takes an agent, it takes one of [`AGENTS`][scopa.cli.AGENTS] by
name, a trained policy file as `policy:FILE`, or an agent of the user's own as
`MODULE:NAME`, imported with the current folder first as `python -m` does.

Bad input ends the command with a one-line message on standard error: exit status 2 for
a bad argument (an unknown variant, a missing file, an agent that cannot be imported, a
closed standard output), 1 for bad data (a record that cannot be read) or a worker of a
tournament that died. Text that comes from the user or from a record is printed as it
is, never read as markup, and characters the terminal cannot show are written as escapes.
"""

from scopa.cli._agents import AGENTS
from scopa.cli._io import Reader
from scopa.cli._main import main
from scopa.cli._main import run as run  # the console entry point, `scopa.cli:run`

__all__ = ["AGENTS", "Reader", "main"]
