"""The arguments of the `scopa` command and of each subcommand."""

from __future__ import annotations

import argparse

from scopa import __version__
from scopa.cli._agents import AGENT_WORDS
from scopa.cli._play import play
from scopa.cli._replay import replay
from scopa.cli._rules import rules_command
from scopa.cli._simulate import simulate


def parser() -> argparse.ArgumentParser:
    """The parser of the command line, each subcommand's function as its `func`."""
    top = argparse.ArgumentParser(
        prog="scopa",
        description="Scopa and its family: play, simulate, replay and read the rules.",
    )
    top.add_argument("--version", action="version", version=f"scopa {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    playing = commands.add_parser(
        "play",
        help="play a match against the computer",
        description=(
            "Play a match against the computer: you are player 0, the computer plays every "
            "other seat. Type a card such as 7D to play it, help for help, quit to stop."
        ),
    )
    playing.add_argument("--variant", help="the preset (default: classic)")
    playing.add_argument(
        "--opponent",
        default="greedy",
        metavar="AGENT",
        help=f"the computer's agent: {AGENT_WORDS} (default: greedy)",
    )
    playing.add_argument(
        "--seed", type=int, default=None, help="the seed of the deals (default: a random one)"
    )
    playing.add_argument("--resume", metavar="FILE", help="go on with a saved record")
    playing.add_argument(
        "--no-clock", action="store_true", help="do not time the moves, whatever the rules say"
    )
    playing.set_defaults(func=play)
    simulating = commands.add_parser(
        "simulate",
        help="run a tournament between agents",
        description=(
            "Run a tournament between agents on paired deals, each deal played once per "
            "seating, and print each agent's results with 95% confidence intervals."
        ),
    )
    simulating.add_argument("--variant", default="classic", help="the preset (default: classic)")
    simulating.add_argument(
        "--agents",
        required=True,
        metavar="A,B",
        help=f"one agent per side, comma-separated: {AGENT_WORDS}",
    )
    simulating.add_argument("--deals", type=int, required=True, help="paired deals to play")
    simulating.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    simulating.add_argument(
        "--seed", type=int, default=0, help="the tournament's seed (default: 0)"
    )
    simulating.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    simulating.set_defaults(func=simulate)
    replaying = commands.add_parser(
        "replay",
        help="step through a saved match record",
        description=(
            "Step through a saved match record, play by play (press Enter for each one), "
            "or print it all at once."
        ),
    )
    replaying.add_argument("file", metavar="FILE", help="a record written by 'scopa play'")
    replaying.add_argument("--all", action="store_true", help="print everything without pausing")
    replaying.add_argument(
        "--boards", action="store_true", help="also draw the board after the deal and each play"
    )
    replaying.set_defaults(func=replay)
    reading = commands.add_parser(
        "rules",
        help="list the presets, or describe one",
        description="List the presets of rules, or describe one in words.",
    )
    reading.add_argument("name", nargs="?", help="a preset name or alias")
    reading.set_defaults(func=rules_command)
    return top
