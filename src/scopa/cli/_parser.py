"""The arguments of the `scopa` command and of each subcommand, in the command's language."""

from __future__ import annotations

import argparse
import gettext

from scopa import __version__
from scopa.cli._agents import agent_words
from scopa.cli._play import play
from scopa.cli._replay import replay
from scopa.cli._rules import rules_command
from scopa.cli._simulate import simulate


def parser(tr: gettext.NullTranslations) -> argparse.ArgumentParser:
    """The parser of the command line, each subcommand's function as its `func`.

    Its descriptions and help are in the language of `tr`; argparse writes its own words
    (`usage:`, `options:`, its errors) in English.
    """
    top = argparse.ArgumentParser(
        prog="scopa",
        description=tr.gettext("Scopa and its family: play, simulate, replay and read the rules."),
        add_help=False,
    )
    _help(top, tr)
    top.add_argument(
        "--version",
        action="version",
        version=f"scopa {__version__}",
        help=tr.gettext("show the version and exit"),
    )
    _language(top, tr)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    agents = agent_words(tr)
    default = tr.gettext("{help} (default: {default})")
    playing = _command(
        commands,
        tr,
        "play",
        tr.gettext("play a match against the computer"),
        tr.gettext(
            "Play a match against the computer: you are player 0, the computer plays every "
            "other seat. Type a card such as 7D to play it, help for help, why for the "
            "reasons of a play or a score, quit to stop."
        ),
    )
    playing.add_argument(
        "--variant",
        help=default.format(help=tr.gettext("the preset"), default="classic"),
    )
    playing.add_argument(
        "--opponent",
        default="greedy",
        metavar="AGENT",
        help=default.format(
            help=tr.gettext("the computer's agent: {agents}").format(agents=agents),
            default="greedy",
        ),
    )
    playing.add_argument(
        "--seed",
        type=int,
        default=None,
        help=default.format(
            help=tr.gettext("the seed of the deals"), default=tr.gettext("a random one")
        ),
    )
    playing.add_argument("--resume", metavar="FILE", help=tr.gettext("go on with a saved record"))
    playing.add_argument(
        "--no-clock",
        action="store_true",
        help=tr.gettext("do not time the moves, whatever the rules say"),
    )
    playing.set_defaults(func=play)
    simulating = _command(
        commands,
        tr,
        "simulate",
        tr.gettext("run a tournament between agents"),
        tr.gettext(
            "Run a tournament between agents on paired deals, each deal played once per "
            "seating, and print each agent's results with 95% confidence intervals."
        ),
    )
    simulating.add_argument(
        "--variant",
        default="classic",
        help=default.format(help=tr.gettext("the preset"), default="classic"),
    )
    simulating.add_argument(
        "--agents",
        required=True,
        metavar="A,B",
        help=tr.gettext("one agent per side, comma-separated: {agents}").format(agents=agents),
    )
    simulating.add_argument(
        "--deals", type=int, required=True, help=tr.gettext("paired deals to play")
    )
    simulating.add_argument(
        "--workers",
        type=int,
        default=1,
        help=default.format(help=tr.gettext("processes"), default=1),
    )
    simulating.add_argument(
        "--seed",
        type=int,
        default=0,
        help=default.format(help=tr.gettext("the tournament's seed"), default=0),
    )
    simulating.add_argument(
        "--json", metavar="FILE", help=tr.gettext("also write the result as JSON")
    )
    simulating.set_defaults(func=simulate)
    replaying = _command(
        commands,
        tr,
        "replay",
        tr.gettext("step through a saved match record"),
        tr.gettext(
            "Step through a saved match record, play by play (press Enter for each one), "
            "or print it all at once."
        ),
    )
    replaying.add_argument(
        "file", metavar="FILE", help=tr.gettext("a record written by 'scopa play'")
    )
    replaying.add_argument(
        "--all", action="store_true", help=tr.gettext("print everything without pausing")
    )
    replaying.add_argument(
        "--boards",
        action="store_true",
        help=tr.gettext("also draw the board after the deal and each play"),
    )
    replaying.add_argument(
        "--why",
        action="store_true",
        help=tr.gettext("also explain each play and each hand's score"),
    )
    replaying.set_defaults(func=replay)
    reading = _command(
        commands,
        tr,
        "rules",
        tr.gettext("list the presets, or describe one"),
        tr.gettext("List the presets of rules, or describe one in words."),
    )
    reading.add_argument("name", nargs="?", help=tr.gettext("a preset name or alias"))
    reading.set_defaults(func=rules_command)
    return top


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    tr: gettext.NullTranslations,
    name: str,
    summary: str,
    description: str,
) -> argparse.ArgumentParser:
    """A subcommand's parser, with its `-h` and `--lang`."""
    made = commands.add_parser(name, help=summary, description=description, add_help=False)
    _help(made, tr)
    _language(made, tr)
    return made


def _help(command: argparse.ArgumentParser, tr: gettext.NullTranslations) -> None:
    """The option `-h`, said in the language of `tr`."""
    command.add_argument("-h", "--help", action="help", help=tr.gettext("show this help and exit"))


def _language(command: argparse.ArgumentParser, tr: gettext.NullTranslations) -> None:
    """The option `--lang`, which a subcommand takes as the command does."""
    command.add_argument(
        "--lang",
        default=argparse.SUPPRESS,
        metavar="LANG",
        help=tr.gettext(
            "the language of the words: en (English) or it (Italian) (default: the "
            "language of the locale, else English)"
        ),
    )
