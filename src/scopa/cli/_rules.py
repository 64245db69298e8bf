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
    screen, tr = io_.screen, io_.tr
    also = " " + tr.gettext("also: {names}")
    if args.name is None:
        width = max(map(len, variant_names()))
        for name in variant_names():
            rules = find_variant(name)
            if rules.number_of_sides == rules.players:
                line = tr.gettext("{players} players each for self, to {target} points")
            else:
                line = tr.gettext("{players} players in {sides} sides, to {target} points")
            words = line.format(
                players=rules.players, sides=rules.number_of_sides, target=rules.target
            )
            screen.say(f"{name:<{width}} {words}")
            first = " " * width + also.format(names="")
            aliases = textwrap.wrap(
                ", ".join(variant_aliases(name)),
                WIDTH,
                initial_indent=first,
                subsequent_indent=" " * len(first),
                break_on_hyphens=False,
            )
            for line in aliases:
                screen.say(line)
        return 0
    rules = find_rules(args.name)
    names = ", ".join(variant_aliases(rules.name))
    screen.say(f"{rules.name} ({also.format(names=names).strip()})", "bold")
    for line in rules_text(rules, lang=io_.lang).splitlines():
        screen.say(line)
    return 0
