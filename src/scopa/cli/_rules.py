"""`scopa rules`: the presets listed, or one described in words."""

from __future__ import annotations

import argparse
import textwrap

from scopa.board import WIDTH, rules_text
from scopa.cli._errors import UsageError
from scopa.cli._io import Io
from scopa.errors import ScopaError
from scopa.rules import Rules, find_variant, variant_aliases, variant_names


def find_rules(name: str) -> Rules:
    """The rules of a preset's name or alias, or a usage error that says why not."""
    try:
        return find_variant(name)
    except ScopaError as error:
        raise UsageError(str(error)) from None


def rules_command(args: argparse.Namespace, io_: Io) -> int:
    """Run `scopa rules` with its arguments."""
    screen = io_.screen
    if args.name is None:
        width = max(map(len, variant_names()))
        for name in variant_names():
            rules = find_variant(name)
            sides = (
                "each for self"
                if rules.number_of_sides == rules.players
                else f"in {rules.number_of_sides} sides"
            )
            screen.say(f"{name:<{width}} {rules.players} players {sides}, to {rules.target} points")
            aliases = textwrap.wrap(
                ", ".join(variant_aliases(name)),
                WIDTH,
                initial_indent=" " * width + " also: ",
                subsequent_indent=" " * (width + 7),
                break_on_hyphens=False,
            )
            for line in aliases:
                screen.say(line)
        return 0
    rules = find_rules(args.name)
    screen.say(f"{rules.name} (also: {', '.join(variant_aliases(rules.name))})", "bold")
    for line in rules_text(rules).splitlines():
        screen.say(line)
    return 0
