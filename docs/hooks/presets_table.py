"""An MkDocs hook that writes the comparison table of the presets into the variants overview.

The page `variants/index.md` holds the marker `<!-- presets-table -->`. When the site is
built, the marker is replaced by a Markdown table made from the presets themselves
([`variant_names`][scopa.variant_names], [`find_variant`][scopa.find_variant] and the
fields of [`Rules`][scopa.Rules]), so the table cannot drift from the code: a new knob
gets a row, a new preset shows where it differs, and a changed value shows at the next
build. The table has one row per knob, with the value of `classic` and, for each other
value, the presets that have it; a preset not named in a row has the value of `classic`.
A few rows derived from the knobs are in italics. Three columns fit the width of a page,
where a column per preset would not.

Examples:
    >>> header, rule, *rows = presets_table().splitlines()
    >>> print(header)
    | Knob | [`classic`](classic.md) | The presets that differ |
    >>> target = next(row for row in rows if "`target`" in row)
    >>> label, classic, others = target.strip("| ").split(" | ")
    >>> print(classic)
    11
    >>> [other.split(":")[0] for other in others.split("<br>")]
    ['9', '21', '51']
    >>> fifteen = next(row for row in rows if "`capture_to_fifteen`" in row)
    >>> print(fifteen.split(" | ")[2].split(":")[0])
    on
    >>> ranks = next(row for row in rows if "`ranks`" in row)
    >>> label, classic, others = ranks.strip("| ").split(" | ")
    >>> print(classic, others.split("<br>")[0], sep=" | ")
    all ten | asso, 6, 7: [`scopa-mini`](scopa-mini.md)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs

import scopa

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

MARKER = "<!-- presets-table -->"
"""The text that the table replaces."""
PAGE = "variants/index.md"
"""The page that holds the marker, relative to the docs folder."""
REFERENCE = "classic"
"""The preset the others are compared with: its values make the second column."""


@attrs.frozen
class Row:
    """One row of the table: a label and a value per preset, the reference's first."""

    label: str
    """The Markdown of the first cell."""
    values: tuple[object, ...]
    """The value of each preset, in the order of the presets."""
    show: Callable[[object], str]
    """How a value is written in a cell."""

    def cells(self, names: Sequence[str]) -> list[str]:
        """The label, the reference's value, and each other value with the presets that have it.

        `names` are the presets' names, in the order of the values.
        """
        reference, *others = self.values
        presets_by_value: dict[str, list[str]] = {}
        for name, value in zip(names[1:], others, strict=True):
            if value != reference:
                presets_by_value.setdefault(self.show(value), []).append(f"[`{name}`]({name}.md)")
        differences = [
            f"{text}: {', '.join(presets)}" for text, presets in presets_by_value.items()
        ]
        return [self.label, self.show(reference), "<br>".join(differences) or "—"]


def show_value(value: object) -> str:
    """A short text for a knob's value: `on`/`off`, a number, an enum member's name."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return f"`{value.name}`"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float | str):
        return str(value)
    return f"`{value!r}`"


def show_cards_in_play(value: object) -> str:
    """The ranks or suits in play: `all ten`, `all four`, or those in play as words."""
    members = tuple(value) if isinstance(value, tuple) else ()
    if members == tuple(scopa.Rank):
        return "all ten"
    if members == tuple(scopa.Suit):
        return "all four"
    return ", ".join(map(str, members))


def show_seconds(value: object) -> str:
    """A time limit in seconds, or `none`."""
    return "none" if value is None else f"{show_value(value)} s"


def show_stakes(value: object) -> str:
    """What a match is played for: `brilli` for the tretre economy, or the class's name."""
    if value is None:
        return "none"
    if isinstance(value, scopa.BrilliEconomy):
        return "brilli" if value == scopa.BrilliEconomy() else "brilli (custom)"
    return f"`{type(value).__name__}`"


def show_text(value: object) -> str:
    """A value that is already Markdown."""
    return str(value)


def primiera_of(scoring: scopa.ScoringRules) -> scopa.Primiera | None:
    """The primiera component of a scoring, if it has one."""
    found = [c for c in scoring.components if isinstance(c, scopa.Primiera)]
    return found[0] if found else None


def component_label(component: scopa.ScoringComponent) -> str:
    """A short name of a scoring component, with its setting when it has one."""
    if isinstance(component, scopa.Carte | scopa.Denari) and component.threshold is not None:
        return f"{component.name} ≥ {component.threshold}"
    if isinstance(component, scopa.Scope) and component.value != 1:
        return f"{component.name} × {component.value}"
    if isinstance(component, scopa.Napola) and component.napoleone_wins_match:
        return f"{component.name} (napoleone wins)"
    if isinstance(component, scopa.AssoDueTre) and component.trio_wins_match:
        return f"{component.name} (all three win)"
    if isinstance(component, scopa.Grande) and component.extends:
        return f"{component.name} (to the 6)"
    return component.name


def categories(scoring: scopa.ScoringRules) -> str:
    """The categories other than primiera: `standard`, `standard + extra`, or a list."""
    standard = [
        c for c in scopa.ScoringRules.standard().components if not isinstance(c, scopa.Primiera)
    ]
    others = [c for c in scoring.components if not isinstance(c, scopa.Primiera)]
    if others[: len(standard)] == standard:
        extra = others[len(standard) :]
        return " + ".join(["standard", *map(component_label, extra)])
    return ", ".join(map(component_label, others)) or "none"


def table_name(table: scopa.PrimieraTable) -> str:
    """The name of a primiera table: its `PrimieraTable` constant, or its label."""
    for name, value in vars(scopa.PrimieraTable).items():
        if value == table and not name.startswith("_"):
            return f"`{name}`"
    return table.name


def primiera_table(scoring: scopa.ScoringRules) -> str:
    """The primiera's table, and its rule when it is not the sum."""
    primiera = primiera_of(scoring)
    if primiera is None:
        return "none"
    if primiera.rule is not scopa.PrimieraRule.SUM:
        return f"`{primiera.rule.name}`"
    return table_name(primiera.table)


def missing_suit(scoring: scopa.ScoringRules) -> str:
    """The primiera's missing-suit policy."""
    primiera = primiera_of(scoring)
    return "none" if primiera is None else f"`{primiera.missing_suit.name}`"


def players_by_side(rules: scopa.Rules) -> str:
    """The players of each side, such as `0+2 v 1+3`."""
    sides: list[list[str]] = [[] for _ in range(rules.number_of_sides)]
    for player in range(rules.players):
        sides[rules.side_of(player)].append(str(player))
    return " v ".join("+".join(side) for side in sides)


def knob_rows(presets: Sequence[scopa.Rules]) -> list[Row]:
    """The rows of the knobs, with the derived rows after the knobs they follow."""
    derived: dict[str, list[Row]] = {
        "sides": [
            Row("*players by side*", tuple(map(players_by_side, presets)), show_text),
        ],
        "table_size": [
            Row("*deals per hand*", tuple(r.deals_per_hand for r in presets), show_value),
        ],
    }
    shows: dict[str, Callable[[object], str]] = {
        "ranks": show_cards_in_play,
        "suits": show_cards_in_play,
        "move_time_limit": show_seconds,
        "stakes": show_stakes,
    }
    rows: list[Row] = []
    for field in attrs.fields(scopa.Rules):
        if not field.eq:
            continue
        name = field.name
        label = f"[`{name}`][scopa.Rules.{name}]"
        values = tuple(getattr(rules, name) for rules in presets)
        if name == "scoring":
            scorings: list[scopa.ScoringRules] = list(values)
            rows += [
                Row(f"{label}: categories", tuple(map(categories, scorings)), show_text),
                Row(
                    "↳ primiera [table][scopa.PrimieraTable]",
                    tuple(map(primiera_table, scorings)),
                    show_text,
                ),
                Row(
                    "↳ primiera [missing suit][scopa.MissingSuit]",
                    tuple(map(missing_suit, scorings)),
                    show_text,
                ),
            ]
        else:
            rows.append(Row(label, values, shows.get(name, show_value)))
        rows += derived.pop(name, [])
    for remaining in derived.values():
        rows += remaining
    return rows


def presets_table() -> str:
    """The comparison table of every preset, knob by knob, as Markdown."""
    names = list(scopa.variant_names())
    if REFERENCE in names:
        names.remove(REFERENCE)
        names.insert(0, REFERENCE)
    presets = [scopa.find_variant(name) for name in names]
    lines = [
        f"| Knob | [`{REFERENCE}`]({REFERENCE}.md) | The presets that differ |",
        "|---|---|---|",
    ]
    for row in knob_rows(presets):
        cells = row.cells(names)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the marker of the variants overview with the table.

    Raises:
        PluginError: the overview has no marker, so the table would silently go missing.
    """
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{PAGE} has no {MARKER} marker for the table of the presets")
    return markdown.replace(MARKER, presets_table())
