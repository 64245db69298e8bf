"""An MkDocs hook that draws the pictures of the site with the library itself.

A page asks for a picture with a marker, an HTML comment alone on its line:

```text
<!-- picture: state classic seed=89 plays=1 player=0 caption="The 7 has three captures" -->
<!-- picture: deck caption="The 40 cards" -->
<!-- picture: cards 7D 10D columns=2 -->
<!-- picture: card 7D width=120 -->
<!-- picture: match tretre seed=3 moment=-1 -->
```

When the site is built, each marker is replaced by a `<figure>` that holds the SVG drawn
by [`scopa.svg`][scopa.svg] and a `<figcaption>`. The positions are dealt and played by
the library at build time, so a picture cannot drift from the rules it illustrates.

After `picture:` comes the kind of picture, its words, then `name=value` options (a value
with spaces is quoted). Every kind takes `caption=` (the figure's caption; text between
backquotes is shown as code) and `width=` (the width in pixels before the page scales the
picture down to fit).

- `state PRESET`: a position of the preset, drawn by
  [`state_svg`][scopa.svg.state_svg]. `seed=N` or `deck=CODE` deals it (with
  `dealer=P`, 0 by default); then, in the order written, `plays=N` plays the first legal
  move `N` times (`plays=end` until the hand is over) and `moves="7Dx1D+6C 9B"` plays
  those moves. `player=P` sits player `P` at the bottom with every other hand face down;
  without it, or with `player=all`, every hand is face up.
- `match PRESET seed=N`: a match played with the first legal move every time, and one of
  its key moments (see [`match_moments`][scopa.match.match_moments]): `moment=K`, counted
  from 0, or from the end when negative. `player=` as for a state.
- `deck`: the 40 cards in their standard order, `columns=` a row (10 by default).
- `cards CARD …`: those cards, face up, `columns=` a row.
- `card CARD`: one card; `card back` draws its back.

Examples:
    >>> html = render_marker('state classic seed=4 player=1 caption="The `classic` deal"')
    >>> print(html.splitlines()[0])
    <figure class="scopa-picture" data-search-exclude>
    >>> svg = html.splitlines()[1]
    >>> svg.startswith('<svg style="max-width:100%;height:auto"')
    True
    >>> svg.count('data-face="up"'), svg.count('data-face="down"')
    (7, 3)
    >>> print(html.splitlines()[2])
    <figcaption>The <code>classic</code> deal</figcaption>
    >>> try:
    ...     render_marker("state classic seed=4 moves=6Dx1D")
    ... except PictureError as error:
    ...     print(error)
    IllegalMoveError: illegal move '6Dx1D' with table 1D 3C 6C 5S: 6D may only play as 6Dx6C
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING

import scopa
from scopa.svg import card_svg, card_title, cards_svg, match_svg, state_svg

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

MARKER = re.compile(r"^(?P<indent>[ \t]*)<!--\s*picture:(?P<body>.*?)-->\s*$")
"""A marker line: `<!-- picture: KIND WORDS OPTIONS -->`, alone on its line."""
FENCE = re.compile(r"^[ \t]*(```+|~~~+)")
"""The opening or closing line of a fenced code block, in which markers are left alone."""
STYLE = "max-width:100%;height:auto"
"""The style that lets a picture shrink to the width of the page, keeping its shape."""


class PictureError(ValueError):
    """A marker that does not describe a picture."""


Options = list[tuple[str, str]]
"""A marker's `name=value` options, in the order written."""


def parse_marker(body: str) -> tuple[str, list[str], Options]:
    """The kind, the words and the options of a marker's text (what follows `picture:`).

    Examples:
        >>> parse_marker('state classic seed=4 caption="A deal"')
        ('state', ['classic'], [('seed', '4'), ('caption', 'A deal')])

    Raises:
        PictureError: the text is empty or its quotes do not close.
    """
    try:
        tokens = shlex.split(body)
    except ValueError as error:
        raise PictureError(f"cannot read the marker: {error}") from None
    if not tokens:
        raise PictureError("the marker names no picture")
    kind, *rest = tokens
    words = [token for token in rest if "=" not in token]
    options = [
        (name, value) for name, _, value in (token.partition("=") for token in rest if "=" in token)
    ]
    return kind, words, options


def _check(options: Options, allowed: set[str]) -> dict[str, str]:
    """The options as a dictionary, once checked against the names a kind allows."""
    names = [name for name, _ in options]
    unknown = sorted(set(names) - allowed - {"caption", "width"})
    if unknown:
        raise PictureError(f"unknown option {', '.join(unknown)}")
    repeated = sorted({name for name in names if names.count(name) > 1} - {"plays", "moves"})
    if repeated:
        raise PictureError(f"option {', '.join(repeated)} given twice")
    return dict(options)


def _number(options: dict[str, str], name: str, default: int | None = None) -> int:
    """An integer option."""
    text = options.get(name)
    if text is None:
        if default is None:
            raise PictureError(f"option {name}= is missing")
        return default
    try:
        return int(text)
    except ValueError:
        raise PictureError(f"{name}={text!r} is not a number") from None


def _width(options: dict[str, str]) -> float | None:
    """The `width=` option, if given."""
    return None if "width" not in options else float(_number(options, "width"))


def _player(options: dict[str, str], rules: scopa.Rules) -> int | None:
    """The `player=` option: a seat, or `None` for every hand face up."""
    if options.get("player", "all") == "all":
        return None
    player = _number(options, "player")
    if not 0 <= player < rules.players:
        raise PictureError(f"{rules.name} has no player {player}")
    return player


def _rules(words: list[str]) -> scopa.Rules:
    """The preset named by the one word of a `state` or `match` marker."""
    if len(words) != 1:
        raise PictureError(f"expected the name of one preset, got {words}")
    return scopa.find_variant(words[0])


def _seat(player: int | None) -> str:
    return "every hand face up" if player is None else f"player {player}'s seat"


def state_picture(words: list[str], options: Options) -> tuple[str, str]:
    """The SVG of a `state` marker and the caption it gets by default."""
    rules = _rules(words)
    found = _check(options, {"seed", "deck", "dealer", "plays", "moves", "player"})
    dealer = _number(found, "dealer", 0)
    if ("seed" in found) == ("deck" in found):
        raise PictureError("give seed= or deck=, not both or neither")
    if "seed" in found:
        state = scopa.GameState.new(rules, seed=_number(found, "seed"), dealer=dealer)
        where = f"seed {found['seed']}"
    else:
        deck = scopa.Deck.parse(found["deck"])
        state = scopa.GameState.new(rules, deck=deck, dealer=dealer)
        where = f"deal {deck!s}"
    for name, value in options:
        if name == "plays":
            state = _play_first(state, value)
        elif name == "moves":
            for text in value.split():
                state = state.apply(state.parse_move(text))
    player = _player(found, rules)
    played = len(state.history)
    after = f", after {played} play{'s' if played != 1 else ''}" if played else ""
    caption = f"`{rules.name}`, {where}{after}, {_seat(player)}"
    return state_svg(state, player, width=_width(found)), caption


def _play_first(state: scopa.GameState, count: str) -> scopa.GameState:
    """The state after playing the first legal move `count` times, or to the end."""
    if count == "end":
        while not state.is_terminal:
            state = state.apply(state.legal_moves()[0])
        return state
    try:
        plays = int(count)
    except ValueError:
        raise PictureError(f"plays={count!r} is neither a number nor 'end'") from None
    for _ in range(plays):
        if state.is_terminal:
            raise PictureError(f"the hand is over before {plays} plays")
        state = state.apply(state.legal_moves()[0])
    return state


def match_picture(words: list[str], options: Options) -> tuple[str, str]:
    """The SVG of a `match` marker and the caption it gets by default."""
    rules = _rules(words)
    found = _check(options, {"seed", "moment", "player"})
    match = scopa.Match.new(rules, seed=_number(found, "seed"))
    while not match.is_over:
        match = match.apply(match.state.legal_moves()[0])
    pictures = match_svg(match, _player(found, rules), width=_width(found))
    index = _number(found, "moment")
    if not -len(pictures) <= index < len(pictures):
        raise PictureError(f"the match has {len(pictures)} key moments, not a moment {index}")
    caption = f"`{rules.name}`, seed {found['seed']}: key moment {index % len(pictures) + 1}"
    return pictures[index], caption + f" of {len(pictures)}"


def _cards(words: list[str]) -> list[scopa.Card]:
    return [scopa.Card.parse(word) for word in words]


def deck_picture(words: list[str], options: Options) -> tuple[str, str]:
    """The SVG of a `deck` marker and the caption it gets by default."""
    if words:
        raise PictureError(f"a deck takes no words, got {words}")
    found = _check(options, {"columns"})
    width = _width(found) or 800
    svg = cards_svg(scopa.DECK, columns=_number(found, "columns", 10), width=width)
    return svg, "The 40 cards of the Italian deck"


def cards_picture(words: list[str], options: Options) -> tuple[str, str]:
    """The SVG of a `cards` marker and the caption it gets by default."""
    cards = _cards(words)
    if not cards:
        raise PictureError("name the cards to draw")
    found = _check(options, {"columns"})
    columns = _number(found, "columns", min(len(cards), 10))
    width = _width(found) or 80.0 * min(columns, len(cards))
    return cards_svg(cards, columns=columns, width=width), " ".join(map(str, cards))


def card_picture(words: list[str], options: Options) -> tuple[str, str]:
    """The SVG of a `card` marker and the caption it gets by default."""
    if len(words) != 1:
        raise PictureError(f"name one card, or 'back', got {words}")
    found = _check(options, set())
    width = _width(found) or 90
    if words[0] == "back":
        return card_svg(None, width=width), "The back of a card"
    card = scopa.Card.parse(words[0])
    return card_svg(card, width=width), card_title(card)


KINDS: dict[str, Callable[[list[str], Options], tuple[str, str]]] = {
    "state": state_picture,
    "match": match_picture,
    "deck": deck_picture,
    "cards": cards_picture,
    "card": card_picture,
}
"""The kinds of picture, each with the function that draws it."""


def caption_html(text: str) -> str:
    """A caption as HTML: escaped, with text between backquotes as code.

    Examples:
        >>> caption_html("The `7D` & <friends>")
        'The <code>7D</code> &amp; &lt;friends&gt;'
    """
    parts = html.escape(text, quote=False).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def figure(svg: str, caption: str) -> str:
    """An SVG picture in a `<figure>` with its caption, scaled to fit the page."""
    if not svg.startswith("<svg"):
        raise PictureError("the library drew something other than an <svg>")
    scaled = f'<svg style="{STYLE}"' + svg.removeprefix("<svg")
    return "\n".join(
        [
            '<figure class="scopa-picture" data-search-exclude>',
            scaled,
            f"<figcaption>{caption_html(caption)}</figcaption>",
            "</figure>",
        ]
    )


def render_marker(body: str) -> str:
    """The HTML of a marker's picture, from the text that follows `picture:`.

    Raises:
        PictureError: the marker is malformed, or the library refuses what it asks for
            (an unknown preset, an illegal move, a card that does not exist, …).
    """
    kind, words, options = parse_marker(body)
    draw = KINDS.get(kind)
    if draw is None:
        raise PictureError(f"unknown kind of picture {kind!r}: one of {', '.join(KINDS)}")
    try:
        svg, default = draw(words, options)
    except scopa.ScopaError as error:
        raise PictureError(f"{type(error).__name__}: {error}") from None
    caption = dict(options).get("caption", default)
    return figure(svg, caption)


def replace_markers(markdown: str) -> str:
    """The Markdown with every marker outside fenced code replaced by its picture.

    The figure keeps the marker's indentation and is set apart by blank lines, so that
    Markdown passes it through as HTML.

    Raises:
        PictureError: a marker is malformed (the message gives its line), or a line holds
            `<!-- picture` without being a whole marker.
    """
    lines: list[str] = []
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n"), 1):
        opening = FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1).startswith(fence):
                fence = None
            lines.append(line)
            continue
        if opening:
            fence = opening.group(1)
            lines.append(line)
            continue
        found = MARKER.match(line)
        if found is None:
            if re.search(r"<!--\s*picture", line):
                raise PictureError(f"line {number}: a picture marker must be alone on its line")
            lines.append(line)
            continue
        try:
            picture = render_marker(found["body"])
        except PictureError as error:
            raise PictureError(f"line {number}: {error}") from None
        indent = found["indent"]
        lines += ["", *(indent + part for part in picture.split("\n")), ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace the picture markers of a page with their pictures.

    Raises:
        PluginError: a marker of the page cannot be drawn.
    """
    try:
        return replace_markers(markdown)
    except PictureError as error:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{page.file.src_uri}, {error}") from None
