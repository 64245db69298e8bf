"""An MkDocs hook that draws the site's lists of presets, and their pages, from the presets.

Every preset is one entry of [`scopa.presets()`][scopa.presets]: its rules, aliases,
family, summary and sources. The site reads them here, so that a new preset needs no
other page than its own, and no page at all when it is a variation of another:

- A page asks for a list with a marker, an HTML comment alone on its line (its indent is
  kept): `<!-- presets: summaries -->` is the table of every preset and its summary,
  `<!-- presets: families -->` a list of the presets by family, `<!-- presets: seating -->`
  the table of players, sides and deals, and `<!-- presets: aliases NAME ... -->` the table
  of the aliases of the presets named.
- A preset's own page (`variants/NAME.md`) gets its aliases from `<!-- preset: aliases -->`
  and the list of its sources from `<!-- preset: sources -->`.
- A preset without a page of its own gets one, drawn from its entry: its summary, players
  and deals, the knobs where it differs from the preset it is closest to, its aliases and
  its sources.
- The section `Variants` of the navigation gets a group per family, with every preset's
  page, after its first page (the overview).

Links are written relative to the page that holds the marker.

Examples:
    >>> print(aliases_text(scopa.find_preset("cirulla")))
    `cirulla-genovese` and `cirulla-ligure`.
    >>> print(render("presets: aliases tretre", "rules.md"))
    | Preset | Aliases |
    |---|---|
    | [`tretre`](variants/tretre.md) | `scopa-tretre` and `tretre-2` |
    >>> print(render("presets: families", "index.md").splitlines()[5].split(", ")[0])
    - Small enough to solve: [`scopa-mini`](variants/scopa-mini.md)
    >>> closest(scopa.find_preset("escoba-sin-setenta")).name
    'escoba'
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs
from presets_table import show_value

import scopa

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

MARKER = re.compile(r"^(?P<indent>[ \t]*)<!--\s*(?P<body>presets?:[^>]*?)\s*-->[ \t]*$")
"""A marker line: `<!-- presets: KIND ... -->` or `<!-- preset: KIND -->`, alone on its line."""
FENCE = re.compile(r"^[ \t]*(```+|~~~+)")
"""The opening or closing line of a fenced code block, in which markers are left alone."""
FOLDER = "variants"
"""The folder of the presets' pages, in the docs folder."""
SECTION = "Variants"
"""The section of the navigation that holds the presets' pages."""
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten"}


class PresetMarkerError(ValueError):
    """A marker that asks for no list this hook draws."""


def page_of(name: str) -> str:
    """The page of a preset, relative to the docs folder."""
    return f"{FOLDER}/{name}.md"


def link(name: str, page: str) -> str:
    """A Markdown link to a preset's page from `page` (a path relative to the docs folder)."""
    target = posixpath.relpath(page_of(name), posixpath.dirname(page) or ".")
    return f"[`{name}`]({target})"


def listed(words: list[str]) -> str:
    """Words joined as a sentence lists them: `a`, `a and b`, `a, b and c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def aliases_text(preset: scopa.Preset) -> str:
    """A preset's aliases as a sentence, or a sentence saying it has none."""
    if not preset.aliases:
        return "None."
    return listed([f"`{alias}`" for alias in preset.aliases]) + "."


def sources_list(preset: scopa.Preset) -> str:
    """A preset's sources, one list item each."""
    return "\n".join(f"- {source}" for source in preset.sources)


def summaries(page: str) -> str:
    """The table of every preset and its summary."""
    rows = [f"| {link(p.name, page)} | {p.summary} |" for p in scopa.presets()]
    return "\n".join(["| Preset | The game |", "|---|---|", *rows])


def families(page: str) -> str:
    """A list item per family: its name and its presets."""
    lines = []
    for family, members in by_family():
        lines.append(f"- {family.value}: {', '.join(link(p.name, page) for p in members)};")
    return "\n".join(lines)


def by_family() -> Iterator[tuple[scopa.Family, list[scopa.Preset]]]:
    """Each family that has presets, in the order of the families, with its presets."""
    for family in scopa.Family:
        members = [preset for preset in scopa.presets() if preset.family is family]
        if members:
            yield family, members


def sides_text(rules: scopa.Rules) -> str:
    """How the players are seated: `each for self`, `two pairs`, `two teams of three`."""
    sides = rules.number_of_sides
    if sides == rules.players:
        return "each for self"
    size = rules.players // sides
    number = _WORDS.get(sides, str(sides))
    return f"{number} pairs" if size == 2 else f"{number} teams of {_WORDS.get(size, size)}"


def seating(page: str) -> str:
    """The table of players, sides, cards and deals, each row with the presets that have it."""
    rows: dict[tuple[object, ...], list[str]] = {}
    for preset in scopa.presets():
        rules = preset.rules
        cards = str(rules.hand_size)
        if rules.deck_size != 40:
            cards += f" (of {rules.deck_size} cards in play)"
        key = (
            rules.players,
            sides_text(rules),
            cards,
            rules.table_size,
            rules.deals_per_hand,
        )
        rows.setdefault(key, []).append(link(preset.name, page))
    lines = [
        "| Players | Sides | Cards each (`hand_size`) | Table (`table_size`) | Deals a hand "
        "| Presets |",
        "|---|---|---|---|---|---|",
    ]
    for key, names in rows.items():
        lines.append("| " + " | ".join([*map(str, key), ", ".join(names)]) + " |")
    return "\n".join(lines)


def aliases_table(names: list[str], page: str) -> str:
    """The table of the aliases of the presets named."""
    lines = ["| Preset | Aliases |", "|---|---|"]
    for name in names:
        preset = scopa.find_preset(name)
        lines.append(f"| {link(preset.name, page)} | {aliases_text(preset).rstrip('.')} |")
    return "\n".join(lines)


def render(body: str, page: str) -> str:
    """The Markdown a marker's body (`presets: families`, …) asks for, on page `page`.

    Raises:
        PresetMarkerError: the marker asks for no list this hook draws, or is a
            `preset:` marker outside a preset's page.
    """
    scope, _, words = body.partition(":")
    kind, *names = words.split()
    if scope == "presets":
        if kind == "summaries" and not names:
            return summaries(page)
        if kind == "families" and not names:
            return families(page)
        if kind == "seating" and not names:
            return seating(page)
        if kind == "aliases" and names:
            return aliases_table(names, page)
    folder, name = posixpath.split(posixpath.splitext(page)[0])
    if scope == "preset" and folder == FOLDER and name in scopa.variant_names() and not names:
        preset = scopa.find_preset(name)
        if kind == "aliases":
            return aliases_text(preset)
        if kind == "sources":
            return sources_list(preset)
    raise PresetMarkerError(f"{page}: no list of presets for the marker <!-- {body} -->")


def closest(preset: scopa.Preset) -> scopa.Preset:
    """The other preset that differs from this one in the fewest knobs (the first on a tie)."""
    others = [other for other in scopa.presets() if other.name != preset.name]
    return min(others, key=lambda other: len(differences(preset.rules, other.rules)))


def differences(rules: scopa.Rules, base: scopa.Rules) -> list[str]:
    """The knobs of `rules` whose values differ from those of `base`."""
    return [
        field.name
        for field in attrs.fields(scopa.Rules)
        if field.eq and getattr(rules, field.name) != getattr(base, field.name)
    ]


def show(value: object) -> str:
    """A knob's value in a table cell; a scoring is shown by its categories' names."""
    if isinstance(value, scopa.ScoringRules):
        return ", ".join(component.name for component in value.components)
    return show_value(value).replace("|", "\\|")


def generated_page(preset: scopa.Preset) -> str:
    r"""The page of a preset that has none of its own, drawn from its entry.

    Examples:
        >>> page = generated_page(scopa.find_preset("scopa-d-assi-4"))
        >>> print(page.splitlines()[0])
        # scopa-d-assi-4
        >>> print(*[line for line in page.splitlines() if line.startswith("| `")], sep="\n")
        | `ace_sweep_is_scopa` | off | on |
        | `ace_first_lead_forbidden` | off | on |
    """
    rules = preset.rules
    base = closest(preset)
    page = page_of(preset.name)
    seats = sides_text(rules)
    if seats != "each for self":
        sides = [
            listed([str(p) for p in range(rules.players) if rules.side_of(p) == side])
            for side in range(rules.number_of_sides)
        ]
        seats = f"in {seats} ({' against '.join(sides)})"
    cards = "" if rules.deck_size == 40 else f" ({rules.deck_size} cards in play)"
    deals = rules.deals_per_hand
    lines = [
        f"# {preset.name}",
        "",
        preset.summary,
        "",
        f'<!-- picture: state {preset.name} seed=1 player=1 caption="A deal of `{preset.name}` '
        'from the seat of player 1, who leads" -->',
        "",
        "```python",
        ">>> from scopa import find_variant",
        f'>>> rules = find_variant("{preset.name}")',
        "```",
        "",
        "## Players and dealing",
        "",
        f"{rules.players} players, {seats}. {rules.hand_size} cards each{cards} and "
        f"{rules.table_size} on the table, {deals} deal{'s' if deals != 1 else ''} a hand; "
        f"a match is played to {rules.target}.",
        "",
        "## The knobs it sets",
        "",
        f"Of the other presets, {link(base.name, page)} is the closest to it; these knobs differ:",
        "",
        f"| Knob | `{preset.name}` | `{base.name}` |",
        "|---|---|---|",
    ]
    for name in differences(rules, base.rules):
        lines.append(
            f"| `{name}` | {show(getattr(rules, name))} | {show(getattr(base.rules, name))} |"
        )
    lines += ["", "## Aliases", "", aliases_text(preset)]
    if preset.sources:
        lines += ["", "## Sources", "", sources_list(preset)]
    return "\n".join(lines) + "\n"


def variants_nav(section: list[Any]) -> list[Any]:
    """The items of the navigation's section of the variants, with the presets' pages.

    A group per family comes after the first item, in place of any such groups already there.
    """
    groups = {family.value for family in scopa.Family}
    kept = [item for item in section if not (isinstance(item, dict) and set(item) <= groups)]
    made = [
        {family.value: [{p.name: page_of(p.name)} for p in members]}
        for family, members in by_family()
    ]
    return [*kept[:1], *made, *kept[1:]]


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Put every preset's page in the navigation, grouped by family.

    Raises:
        PluginError: the navigation has no section of the variants.
    """
    for item in config.nav or []:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = variants_nav(item[SECTION])
            return config
    from mkdocs.exceptions import PluginError

    raise PluginError(f"the navigation has no section {SECTION!r} for the presets' pages")


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add the page of each preset that has none of its own."""
    from mkdocs.structure.files import File

    for preset in scopa.presets():
        if files.get_file_from_path(page_of(preset.name)) is None:
            files.append(
                File.generated(config, page_of(preset.name), content=generated_page(preset))
            )
    return files


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the markers of a page by the lists they ask for.

    Raises:
        PluginError: a marker asks for no list this hook draws.
    """
    try:
        return with_lists(markdown, page.file.src_uri)
    except PresetMarkerError as error:
        from mkdocs.exceptions import PluginError

        raise PluginError(str(error)) from None


def with_lists(markdown: str, page: str) -> str:
    r"""The Markdown of page `page` with each marker outside code replaced by its list.

    Examples:
        >>> print(with_lists("## Aliases\n\n<!-- preset: aliases -->", "variants/tretre.md"))
        ## Aliases
        <BLANKLINE>
        `scopa-tretre` and `tretre-2`.
    """
    lines = markdown.split("\n")
    fence: str | None = None
    for number, line in enumerate(lines):
        opening = FENCE.match(line)
        if opening is not None:
            fence = (
                None if fence is not None and opening[1].startswith(fence) else fence or opening[1]
            )
            continue
        found = MARKER.match(line)
        if fence is None and found is not None:
            lines[number] = _indented(render(found["body"], page), found["indent"])
    return "\n".join(lines)


def _indented(text: str, indent: str) -> str:
    return "\n".join(indent + line for line in text.split("\n"))
