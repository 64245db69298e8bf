"""`python -m scopa`: the same as the `scopa` command."""

from scopa.cli import run

run()
