"""Pictures in SVG: cards, positions and the key moments of a match, drawn by the library.

No image files and nothing beyond the standard library: every card is drawn from shapes,
and every picture is built as an `xml.etree.ElementTree` tree, written out as text at the
end. A card is an ivory rounded rectangle with its capture value (1 to 10) in two corners,
in the colour of its suit: denari gold coins, coppe red cups, spade blue swords, bastoni
green batons. Ranks 1 to 7 show that many suit marks; the figures show an emblem (a
feathered cap, a horseshoe, a crown), a large letter (F Fante, C Cavallo, R Re) and a
small suit mark. Card backs are blue with a lattice of diamonds.

Every picture is one `<svg>` element with a `<title>`, and uses no ids and no external
references, so several can share a page. Each drawn card is a `<g class="card">` with a
`<title>` and data attributes: `data-face` (`up` or `down`), `data-where` (`hand` or
`table`), `data-player` (for a hand) and, on face-up cards only, `data-card` (such as
`7D`); a card of a hand that a declaration showed (Cirulla) has `data-shown="yes"`, and is
face up even in a hand seen face down. Piles carry `data-cards` and `data-scope`, the stock
`data-cards`; under rules with declarations, each seat says the points its player declared
in a `<g class="declared">` with `data-points`.

Examples:
    >>> from scopa import GameState, find_variant
    >>> state = GameState.new(find_variant("classic"), seed=1)
    >>> picture = state_svg(state, player=0)
    >>> picture.startswith("<svg"), picture.count('data-face="down"')
    (True, 3)
"""

from __future__ import annotations

import functools
import gettext
import math
import numbers
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping

import attrs

from scopa import (
    DECK,
    Card,
    GameState,
    HandScore,
    InvalidArgumentError,
    Match,
    Move,
    PlayerView,
    Rank,
    Rules,
    Suit,
)
from scopa._checks import check_int, quote
from scopa._i18n import translation
from scopa._scene import Scene, abandon_reason, scene, side_letter
from scopa.match import Moment, match_moments

_Tr = gettext.NullTranslations

__all__ = ["card_svg", "card_title", "cards_svg", "match_svg", "state_svg"]

# --------------------------------------------------------------------------- colours

_FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
_INK = "#2b2b2b"
_FACE = "#fffaf0"
_FACE_EDGE = "#5a5147"
_BACK = "#1f3f73"
_BACK_LIGHT = "#6f93cf"
_BACK_EDGE = "#f5efe0"
_BACKGROUND = "#1b4332"
_FELT = "#2d6a4f"
_FELT_EDGE = "#74c69d"
_TEXT = "#f1faee"
_MUTED = "#b7d3c3"
_HIGHLIGHT = "#ffd54a"

# Per suit: the main colour, the dark outline colour, a light tint.
_SUIT_COLOURS: dict[Suit, tuple[str, str, str]] = {
    Suit.DENARI: ("#e8b420", "#8a6400", "#fbefc8"),
    Suit.COPPE: ("#c62828", "#7f0000", "#f9dcdc"),
    Suit.SPADE: ("#1e5aa8", "#0d3470", "#dce8f7"),
    Suit.BASTONI: ("#388e3c", "#1b5e20", "#dcefdc"),
}

_BOLD = {"font_weight": "bold"}
_BOLD_INK = {"font_weight": "bold", "fill": _INK}
_TEAM_COLOURS = ("#f4a261", "#a8dadc", "#e9c46a", "#cdb4db")

# A card is drawn in a 60 × 100 box, then moved and scaled into place.
_CARD_W = 60.0
_CARD_H = 100.0

# --------------------------------------------------------------------------- text widths

# A character's width in ems, regular and bold, by its class: space, narrow, other (lower
# case, digits), capital and wide. Each is at least the width of every character of its
# class in DejaVu Sans and Verdana, the first fonts of `_FONT` and the widest of the usual
# ones, so that a text measured by `_text_width` is never wider once drawn.
_EMS = ((0.36, 0.36), (0.43, 0.5), (0.64, 0.72), (0.84, 0.88), (1.0, 1.11))
_NARROW = frozenset("!'(),./:;I[\\]fijlrtì|·’")
_CAPITAL_SIGNS = frozenset("#&+<=>^~×")
_WIDE = frozenset("%@MWmw…")


def _char_class(char: str) -> int:
    """The class of a character's width: 0 space, 1 narrow, 2 other, 3 capital, 4 wide."""
    if char == " ":
        return 0
    if char in _NARROW:
        return 1
    if char in _WIDE or ord(char) > 0x24F:  # beyond the Latin letters: as wide as any
        return 4
    if char.isupper() or char in _CAPITAL_SIGNS:
        return 3
    return 2


def _text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width of `text` in a font of `size` units: at least its width once drawn."""
    return size * sum(_EMS[_char_class(char)][bold] for char in text)


def _fit(text: str, size: float, room: float, *, bold: bool = False) -> float:
    """The font size, `size` at most, at which `text` is no wider than `room`."""
    return min(size, size * room / max(_text_width(text, size, bold=bold), 1e-9))


# --------------------------------------------------------------------------- elements
# The drawing functions add elements to the one they are given, in drawing order.


def _num(value: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(values: Mapping[str, object]) -> dict[str, str]:
    """Attributes from keywords: `_` becomes `-`, a trailing `_` is dropped, `None` skipped."""
    return {
        key.rstrip("_").replace("_", "-"): _text_of(value)
        for key, value in values.items()
        if value is not None
    }


def _text_of(value: object) -> str:
    """An attribute's value as text; numbers as `_num` writes them."""
    return _num(value) if isinstance(value, float | int) else str(value)


def _add(parent: ET.Element, tag: str, /, **values: object) -> ET.Element:
    """A new element, the last child of `parent`."""
    return ET.SubElement(parent, tag, _attrs(values))


def _add_text(parent: ET.Element, x: float, y: float, content: str, /, **values: object) -> None:
    """A `<text>` element."""
    _add(parent, "text", x=x, y=y, **values).text = content


def _add_group(parent: ET.Element, /, *, title: str | None = None, **values: object) -> ET.Element:
    """A `<g>` element, with a `<title>` first when one is given."""
    group = _add(parent, "g", **values)
    if title is not None:
        _add(group, "title").text = title
    return group


def _path(cx: float, cy: float, sx: float, sy: float, spec: str) -> str:
    """Path data from a path in unit coordinates (absolute M, L, Q, C and Z only)."""
    out = []
    is_x = True
    for token in spec.split():
        if token.isalpha():
            out.append(token)
            continue
        value = float(token)
        out.append(_num(cx + value * sx if is_x else cy + value * sy))
        is_x = not is_x
    return " ".join(out)


def _picture(width: float, view_w: float, view_h: float, title: str, **data: object) -> ET.Element:
    """The `<svg>` element of a picture `width` pixels wide (the height keeps the proportions)."""
    svg = ET.Element(
        "svg",
        _attrs(
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "width": width,
                "height": width * view_h / view_w,
                "viewBox": f"0 0 {_num(view_w)} {_num(view_h)}",
                "role": "img",
                "font-family": _FONT,
                **data,
            }
        ),
    )
    _add(svg, "title").text = title
    return svg


def _markup(svg: ET.Element) -> str:
    """A picture as SVG text."""
    return ET.tostring(svg, encoding="unicode")


def _check_width(width: object) -> float:
    """A picture's width in pixels.

    Raises:
        TypeError: it is not a real number (a bool is not).
        InvalidArgumentError: it is not finite and positive.
    """
    if isinstance(width, bool) or not isinstance(width, numbers.Real):
        raise TypeError(f"width must be a number of pixels, not {type(width).__name__}")
    pixels = float(width)
    if not (math.isfinite(pixels) and pixels > 0):
        raise InvalidArgumentError(
            f"width must be a finite, positive number of pixels, not {quote(width)}"
        )
    return pixels


# --------------------------------------------------------------------------- suit marks
# Each mark is centred on (cx, cy); `size` is its height, `stretch` makes a sword or a
# baton taller than that (coins and cups are never stretched).


def _coin(parent: ET.Element, cx: float, cy: float, size: float, stretch: float) -> None:
    main, dark, _ = _SUIT_COLOURS[Suit.DENARI]
    r = 0.45 * size
    _add(parent, "circle", cx=cx, cy=cy, r=r, fill=main, stroke=dark, stroke_width=0.06 * size)
    inner = {"fill": "none", "stroke": dark, "stroke_width": 0.05 * size}
    _add(parent, "circle", cx=cx, cy=cy, r=0.62 * r, **inner)
    _add(parent, "circle", cx=cx, cy=cy, r=0.2 * r, fill=dark)


_CUP = (
    "M -0.34 -0.4 L 0.34 -0.4 Q 0.34 0.06 0.07 0.12 L 0.07 0.3 Q 0.07 0.36 0.24 0.41 "
    "L 0.24 0.48 L -0.24 0.48 L -0.24 0.41 Q -0.07 0.36 -0.07 0.3 L -0.07 0.12 "
    "Q -0.34 0.06 -0.34 -0.4 Z"
)


def _cup(parent: ET.Element, cx: float, cy: float, size: float, stretch: float) -> None:
    main, dark, tint = _SUIT_COLOURS[Suit.COPPE]
    width = 0.05 * size
    body = _path(cx, cy, size, size, _CUP)
    _add(parent, "path", d=body, fill=main, stroke=dark, stroke_width=width)
    rim = {"cx": cx, "cy": cy - 0.4 * size, "rx": 0.34 * size, "ry": 0.07 * size}
    _add(parent, "ellipse", **rim, fill=tint, stroke=dark, stroke_width=width)


_BLADE = "M 0 -0.5 L 0.075 -0.38 L 0.075 0.16 L -0.075 0.16 L -0.075 -0.38 Z"
_FULLER = "M 0 -0.38 L 0 0.12"
_GUARD = "M -0.22 0.16 L 0.22 0.16 L 0.22 0.22 L -0.22 0.22 Z"
_GRIP = "M -0.045 0.22 L 0.045 0.22 L 0.045 0.41 L -0.045 0.41 Z"


def _sword(parent: ET.Element, cx: float, cy: float, size: float, stretch: float) -> None:
    main, dark, tint = _SUIT_COLOURS[Suit.SPADE]
    width = 0.035 * size
    tall = size * stretch

    def shape(spec: str, **paint: object) -> None:
        _add(parent, "path", d=_path(cx, cy, size, tall, spec), **paint)

    shape(_BLADE, fill=tint, stroke=dark, stroke_width=width, stroke_linejoin="round")
    shape(_FULLER, stroke=main, stroke_width=width)
    shape(_GUARD, fill=main, stroke=dark, stroke_width=width)
    shape(_GRIP, fill=dark)
    pommel_y = cy + 0.41 * tall + 0.05 * size
    pommel = {"fill": main, "stroke": dark, "stroke_width": width}
    _add(parent, "circle", cx=cx, cy=pommel_y, r=0.055 * size, **pommel)


def _baton(parent: ET.Element, cx: float, cy: float, size: float, stretch: float) -> None:
    main, dark, _ = _SUIT_COLOURS[Suit.BASTONI]
    reach = 0.38 * size * stretch
    x0, y0, x1, y1 = cx - 0.1 * size, cy + reach, cx + 0.1 * size, cy - reach
    line = {"x1": x0, "y1": y0, "x2": x1, "y2": y1, "stroke_linecap": "round"}
    _add(parent, "line", **line, stroke=dark, stroke_width=0.24 * size)
    _add(parent, "line", **line, stroke=main, stroke_width=0.16 * size)
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = (y0 - y1) / length, (x1 - x0) / length  # a unit normal to the baton
    knots = (0.2, 0.4, 0.6, 0.8) if stretch > 1.6 else (0.25, 0.5, 0.75)
    for step, t in enumerate(knots):
        side = 0.1 * size * (1 if step % 2 else -1)
        kx, ky = x0 + t * (x1 - x0) + side * nx, y0 + t * (y1 - y0) + side * ny
        _add(parent, "circle", cx=kx, cy=ky, r=0.055 * size, fill=dark)


_MARKS = {Suit.DENARI: _coin, Suit.COPPE: _cup, Suit.SPADE: _sword, Suit.BASTONI: _baton}


def _mark(
    parent: ET.Element, suit: Suit, cx: float, cy: float, size: float, stretch: float = 1.0
) -> None:
    """The suit's mark centred on (cx, cy), `size` high (times `stretch` if long)."""
    _MARKS[suit](parent, cx, cy, size, stretch)


# --------------------------------------------------------------------------- cards

_Pips = tuple[float, float, tuple[tuple[float, float], ...]]

# Where the marks of ranks 1 to 7 go on the card: their size, stretch and centres.
# Coins and cups sit in rows; the long swords and batons stand side by side.
_ROUND_PIPS: dict[int, _Pips] = {
    1: (50, 1, ((30, 50),)),
    2: (30, 1, ((30, 30), (30, 70))),
    3: (23, 1, ((30, 26), (30, 50), (30, 74))),
    4: (25, 1, ((19, 32), (41, 32), (19, 68), (41, 68))),
    5: (21, 1, ((18, 28), (42, 28), (30, 50), (18, 72), (42, 72))),
    6: (19, 1, ((19, 27), (41, 27), (19, 50), (41, 50), (19, 73), (41, 73))),
    7: (16, 1, ((20, 27), (40, 27), (14, 50), (30, 50), (46, 50), (20, 73), (40, 73))),
}
_LONG_PIPS: dict[int, _Pips] = {
    1: (44, 1.45, ((30, 50),)),
    2: (30, 2.0, ((20, 50), (40, 50))),
    3: (27, 2.15, ((16, 50), (30, 50), (44, 50))),
    4: (28, 1.25, ((20, 32), (40, 32), (20, 68), (40, 68))),
    5: (25, 1.35, ((16, 32), (30, 32), (44, 32), (21, 68), (39, 68))),
    6: (25, 1.35, ((16, 32), (30, 32), (44, 32), (16, 68), (30, 68), (44, 68))),
    7: (22, 1.05, ((20, 26), (40, 26), (14, 50), (30, 50), (46, 50), (20, 74), (40, 74))),
}


_CROWN = "M 18 37 L 18 26 L 24 31 L 30 22 L 36 31 L 42 26 L 42 37 Z"
_CROWN_TIPS = ((18, 26), (30, 22), (42, 26))
_HORSESHOE = "M 22.5 37 L 22.5 31 A 7.5 7.5 0 0 1 37.5 31 L 37.5 37"
_NAIL_HOLES = ((22.5, 35), (22.5, 31), (37.5, 35), (37.5, 31), (27, 24.7), (33, 24.7))
_CAP = "M 19 36 Q 20 25 30 25 Q 40 25 41 36 Z"
_FEATHER = "M 37 28 Q 45 19 46 29"


def _figure(parent: ET.Element, card: Card) -> None:
    """The middle of a Fante, Cavallo or Re: a framed emblem, a large letter, a suit mark."""
    main, dark, tint = _SUIT_COLOURS[card.suit]
    gold, gold_dark, _ = _SUIT_COLOURS[Suit.DENARI]
    frame = {"fill": tint, "stroke": main, "stroke_width": 1}
    _add(parent, "rect", x=10, y=18, width=40, height=64, rx=3, **frame)
    if card.rank == Rank.RE:
        _add(parent, "path", d=_CROWN, fill=gold, stroke=gold_dark, stroke_width=1)
        for x, y in _CROWN_TIPS:
            _add(parent, "circle", cx=x, cy=y, r=1.6, fill=gold_dark)
    elif card.rank == Rank.CAVALLO:
        _add(parent, "path", d=_HORSESHOE, fill="none", stroke="#6d4c41", stroke_width=3.5)
        for hole_x, hole_y in _NAIL_HOLES:
            _add(parent, "circle", cx=hole_x, cy=hole_y, r=0.9, fill=_FACE)
    else:
        _add(parent, "path", d=_CAP, fill=main, stroke=dark, stroke_width=1)
        _add(parent, "path", d=_FEATHER, fill="none", stroke=gold, stroke_width=2.2)
    letter = "FCR"[card.rank - Rank.FANTE]
    _add_text(parent, 30, 63, letter, text_anchor="middle", font_size=26, **_BOLD, fill=dark)
    _mark(parent, card.suit, 30, 74, 12)


def card_title(card: Card, *, lang: str = "en") -> str:
    """A card's code and name, with its own name if it has one.

    In English `7D 7 of denari (settebello)`, in Italian `7D sette di denari (settebello)`
    (see [`Card.name`][scopa.Card.name] and [`Card.nickname`][scopa.Card.nickname]).

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    name = f"{card} {card.name(lang)}"
    return name if card.nickname is None else f"{name} ({card.nickname})"


def _outline(parent: ET.Element, fill: str, **stroke: object) -> None:
    """The rounded edge of a card in its 60 × 100 box."""
    _add(
        parent,
        "rect",
        x=0.5,
        y=0.5,
        width=59,
        height=99,
        rx=5,
        fill=fill,
        stroke=_FACE_EDGE,
        **stroke,
    )


@functools.lru_cache(maxsize=len(DECK))
def _face(card: Card) -> tuple[ET.Element, ...]:
    """The elements of a face-up card in its 60 × 100 box.

    Every picture of the card shares these elements, so they are never changed.
    """
    face = ET.Element("g")
    _outline(face, _FACE, stroke_width=1)
    if card.rank <= Rank.SETTE:
        long = card.suit in (Suit.SPADE, Suit.BASTONI)
        size, stretch, places = (_LONG_PIPS if long else _ROUND_PIPS)[card.rank]
        for x, y in places:
            _mark(face, card.suit, x, y, size, stretch)
    else:
        _figure(face, card)
    index = {"font_size": 13, "font_weight": "bold", "fill": _SUIT_COLOURS[card.suit][1]}
    _add_text(face, 4, 14, str(card.value), **index)
    # Upright in both corners: a picture is never turned round, and a 9 upside down is a 6.
    _add_text(face, 56, 95.5, str(card.value), text_anchor="end", **index)
    return tuple(face)


def _back_drawing() -> tuple[ET.Element, ...]:
    """The elements of a card back in its 60 × 100 box: a lattice of diamonds, a medallion."""
    back = ET.Element("g")
    _outline(back, _BACK_EDGE)
    _add(back, "rect", x=4, y=4, width=52, height=92, rx=3, fill=_BACK)
    lattice = "".join(
        f"M{x} {y - 3}L{x + 3} {y}L{x} {y + 3}L{x - 3} {y}Z"
        for x in range(10, 51, 8)
        for y in range(10, 91, 8)
    )
    _add(back, "path", d=lattice, fill=_BACK_LIGHT)
    medallion = {"fill": _BACK_EDGE, "stroke": "#c9a227", "stroke_width": 2}
    _add(back, "ellipse", cx=30, cy=50, rx=11, ry=17, **medallion)
    _add(back, "path", d="M30 40L36 50L30 60L24 50Z", fill=_SUIT_COLOURS[Suit.COPPE][0])
    return tuple(back)


_BACK_DRAWING = _back_drawing()  # shared by every card back, so never changed


def _place(x: float, y: float, scale: float) -> str:
    return f"translate({_num(x)} {_num(y)}) scale({_num(scale)})"


def _card(
    parent: ET.Element,
    lang: str,
    card: Card,
    x: float,
    y: float,
    scale: float = 1.0,
    **data: object,
) -> None:
    """A face-up card with its top-left corner at (x, y)."""
    group = _add_group(
        parent,
        title=card_title(card, lang=lang),
        class_="card",
        transform=_place(x, y, scale),
        data_card=str(card),
        data_face="up",
        **data,
    )
    group.extend(_face(card))


def _back(
    parent: ET.Element, lang: str, x: float, y: float, scale: float = 1.0, **data: object
) -> None:
    """A face-down card with its top-left corner at (x, y)."""
    group = _add_group(
        parent,
        title=translation(lang).gettext("a face-down card"),
        class_="card back",
        transform=_place(x, y, scale),
        data_face="down",
        **data,
    )
    group.extend(_BACK_DRAWING)


def card_svg(card: Card | None, *, width: float = 90, lang: str = "en") -> str:
    """One card as a standalone SVG picture, `width` pixels wide; `None` draws a card back.

    Its title is the card's, in the language `lang` (see [`card_title`][scopa.svg.card_title]).

    Examples:
        >>> card_svg(Card.parse("7D")).count('data-card="7D"')
        1

    Raises:
        TypeError: `card` is neither a `Card` nor `None`, or `width` is not a number.
        InvalidArgumentError: `width` is not finite and positive; the library does not
            write in `lang`.
    """
    width = _check_width(width)
    tr = translation(lang)
    if card is None:
        svg = _picture(width, _CARD_W, _CARD_H, tr.gettext("a face-down card"))
        _back(svg, lang, 0, 0)
    elif isinstance(card, Card):
        svg = _picture(width, _CARD_W, _CARD_H, card_title(card, lang=lang))
        _card(svg, lang, card, 0, 0)
    else:
        raise TypeError(f"card must be a Card or None, not {type(card).__name__}")
    return _markup(svg)


def cards_svg(
    cards: Iterable[Card] = DECK, *, columns: int = 10, width: float = 800, lang: str = "en"
) -> str:
    """A sheet of face-up cards in rows of `columns` (by default the whole deck).

    The titles are in the language `lang`.

    Raises:
        TypeError: a card is not a `Card`, `columns` is not an int, or `width` is not a
            number.
        InvalidArgumentError: `columns` is not positive, or `width` is not finite and
            positive; the library does not write in `lang`.
    """
    tr = translation(lang)
    if check_int(columns, "columns") < 1:
        raise InvalidArgumentError(f"columns must be positive, not {columns}")
    width = _check_width(width)
    chosen = tuple(cards)
    wrong = next((card for card in chosen if not isinstance(card, Card)), None)
    if wrong is not None:
        raise TypeError(f"cards_svg draws Card objects, not {type(wrong).__name__}")
    gap = 8.0
    rows = max(1, math.ceil(len(chosen) / columns))
    used = min(columns, max(1, len(chosen)))
    view_w = gap + used * (_CARD_W + gap)
    view_h = gap + rows * (_CARD_H + gap)
    listed = " ".join(map(str, chosen)) or tr.pgettext("cards", "none")
    title = tr.ngettext("{count} card: {cards}", "{count} cards: {cards}", len(chosen))
    svg = _picture(width, view_w, view_h, title.format(count=len(chosen), cards=listed))
    _add(svg, "rect", width=view_w, height=view_h, fill=_BACKGROUND)
    for i, card in enumerate(chosen):
        row, column = divmod(i, columns)
        _card(svg, lang, card, gap + column * (_CARD_W + gap), gap + row * (_CARD_H + gap))
    return _markup(svg)


# --------------------------------------------------------------------------- layout


@attrs.frozen
class _Box:
    """A seat's panel, and the scales of its face-up cards, its backs and its pile."""

    x: float
    y: float
    w: float
    h: float
    up: float
    down: float
    pile: float


@attrs.frozen
class _Layout:
    """Where everything goes for some number of players."""

    width: float
    height: float
    felt: tuple[float, float, float, float]
    table_scale: float
    seats: tuple[_Box, ...]  # from the bottom seat round the table in play order


_TWO = _Layout(
    900,
    800,
    (20, 248, 860, 338),
    1.2,
    (_Box(20, 600, 860, 185, 1.2, 1.2, 0.6), _Box(20, 70, 860, 165, 1.0, 0.9, 0.55)),
)

# Seat corners for the players after the bottom one, in play order: counter-clockwise,
# so up the right side, across the top, then down the left side.
_SLOTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((895, 70), (15, 70)),
    3: ((895, 369), (455, 70), (15, 369)),
    4: ((895, 369), (605, 70), (305, 70), (15, 369)),
    5: ((895, 470), (895, 250), (455, 70), (15, 250), (15, 470)),
    6: ((895, 480), (895, 275), (895, 70), (15, 70), (15, 275), (15, 480)),
    7: ((895, 480), (895, 275), (895, 70), (455, 70), (15, 70), (15, 275), (15, 480)),
}


def _layout(players: int) -> _Layout:
    """The layout for 2 to 8 players.

    Raises:
        InvalidArgumentError: there are more than 8 players.
    """
    if players == 2:
        return _TWO
    slots = _SLOTS.get(players - 1)
    if slots is None:
        raise InvalidArgumentError(f"pictures are drawn for 2 to 8 players, not {players}")
    others = tuple(_Box(x, y, 290, 150, 0.8, 0.7, 0.45) for x, y in slots)
    bottom = _Box(160, 668, 880, 180, 1.1, 1.1, 0.6)
    return _Layout(1200, 860, (320, 234, 560, 420), 1.1, (bottom, *others))


# --------------------------------------------------------------------------- positions


def _teams(rules: Rules) -> bool:
    return rules.number_of_sides < rules.players


def _side_name(tr: _Tr, rules: Rules, side: int) -> str:
    if not _teams(rules):
        return tr.gettext("P{player}").format(player=side)
    members = "+".join(str(p) for p in range(rules.players) if rules.side_of(p) == side)
    return f"{side_letter(side)} ({members})"


def _status(tr: _Tr, seen: Scene) -> str:
    if seen.current is None:
        if seen.score is None:
            return tr.gettext("hand over")
        points = "–".join(map(str, seen.score.points))
        return tr.gettext("hand over, points {points}").format(points=points)
    return tr.gettext("deal {deal} of {deals}, player {player} to play").format(
        deal=seen.deal, deals=seen.rules.deals_per_hand, player=seen.current
    )


def _row_step(count: int, room: float, card_w: float, gap: float) -> float:
    """The step between cards in a row: a gap if they fit in `room`, else an overlap."""
    if count <= 1:
        return card_w + gap
    return min(card_w + gap, (room - card_w) / (count - 1))


def _hand(
    parent: ET.Element,
    lang: str,
    seen: Scene,
    player: int,
    x: float,
    y: float,
    room: float,
    box: _Box,
) -> None:
    """A player's hand from (x, y), at most `room` wide: face up, or as card backs."""
    cards = seen.hands[player]
    where = {"data_where": "hand", "data_player": player}
    count = cards if isinstance(cards, int) else len(cards)
    scale = box.down if isinstance(cards, int) else box.up
    if not count:
        no_cards = translation(lang).gettext("no cards")
        _add_text(parent, x, y + 30, no_cards, fill=_MUTED, font_size=14)
        return
    step = _row_step(count, room, _CARD_W * scale, 6 * scale)
    if box.w > 500:  # a wide panel centres the hand
        x += (room - (_CARD_W * scale + step * (count - 1))) / 2
    shown = seen.shown[player]
    if isinstance(cards, int):  # the cards a declaration showed lie face up, then the others
        for i, card in enumerate(shown):
            _card(parent, lang, card, x + i * step, y, scale, **where, data_shown="yes")
        for i in range(len(shown), cards):
            _back(parent, lang, x + i * step, y, scale, **where)
    else:
        for i, card in enumerate(cards):
            mark = "yes" if card in shown else None
            _card(parent, lang, card, x + i * step, y, scale, **where, data_shown=mark)


def _stack(parent: ET.Element, x: float, y: float, count: int, scale: float) -> None:
    """A stack of face-down cards, thicker for more cards, at most 10 units above `y`.

    With no cards, a dashed outline.
    """
    w, h = _CARD_W * scale, _CARD_H * scale
    if not count:
        outline = {"x": x, "y": y, "width": w, "height": h, "rx": 4}
        _add(parent, "rect", **outline, fill="none", stroke=_MUTED, stroke_dasharray="4 3")
        return
    layers = min(5, 1 + count // 6)
    edge = {"rx": 5 * scale, "fill": _BACK, "stroke": _BACK_EDGE, "stroke_width": 0.8}
    for i in range(layers - 1):
        _add(parent, "rect", x=x + 2.5 * i, y=y - 2.5 * i, width=w, height=h, **edge)
    shift = 2.5 * (layers - 1)
    _add(parent, "g", transform=_place(x + shift, y - shift, scale)).extend(_BACK_DRAWING)


def _scope_marks(parent: ET.Element, x: float, y: float, count: int) -> None:
    """A small crosswise card, face up, for each scopa (one and a count after three)."""
    red = _SUIT_COLOURS[Suit.COPPE][0]
    for i in range(count if count <= 3 else 1):
        left = x + 22 * i
        edge = {"fill": _FACE, "stroke": red, "stroke_width": 1.5}
        _add(parent, "rect", x=left, y=y, width=19, height=13, rx=2, **edge)
        diamond = f"M{_num(left + 9.5)} {_num(y + 2.5)}l4 4l-4 4l-4 -4z"
        _add(parent, "path", d=diamond, fill=red)
    if count > 3:
        _add_text(parent, x + 24, y + 11.5, f"× {count}", fill=_TEXT, font_size=14, **_BOLD)


def _cards(tr: _Tr, count: int) -> str:
    return tr.ngettext("{count} card", "{count} cards", count).format(count=count)


def _pile(
    parent: ET.Element, tr: _Tr, seen: Scene, player: int, x: float, y: float, scale: float
) -> None:
    """A player's pile from (x, y): a stack, the card count and a mark for each scopa."""
    count, scope = seen.piles[player], seen.scope[player]
    scopa = tr.ngettext("{count} scopa", "{count} scope", scope).format(count=scope)
    pile = _add_group(
        parent,
        title=tr.gettext("player {player}'s pile: {cards}, {scope}").format(
            player=player, cards=_cards(tr, count), scope=scopa
        ),
        class_="pile",
        data_player=player,
        data_cards=count,
        data_scope=scope,
    )
    h = _CARD_H * scale
    _stack(pile, x, y + 10, count, scale)
    _add_text(pile, x, y + h + 26, _cards(tr, count), fill=_TEXT, font_size=12)
    _scope_marks(pile, x, y + h + 34, scope)


def _chip(
    parent: ET.Element, x: float, y: float, label: str, fill: str, title: str, kind: str
) -> None:
    """A round chip with a letter, centred on (x, y)."""
    chip = _add_group(parent, title=title, class_=kind)
    _add(chip, "circle", cx=x, cy=y, r=11, fill=fill, stroke=_INK, stroke_width=1)
    _add_text(chip, x, y + 5, label, text_anchor="middle", font_size=14, **_BOLD_INK)


def _badges(parent: ET.Element, tr: _Tr, seen: Scene, player: int, right: float, y: float) -> None:
    """The chips at the right of a seat's header, right to left: dealer, to play, side."""
    x = right
    if player == seen.dealer:
        deals = tr.gettext("player {player} deals").format(player=player)
        _chip(parent, x - 11, y, tr.pgettext("the dealer's chip", "D"), "#ffffff", deals, "dealer")
        x -= 28
    if player == seen.current:
        to_play = tr.gettext("player {player} to play").format(player=player)
        badge = _add_group(parent, title=to_play, class_="turn")
        _add(badge, "rect", x=x - 64, y=y - 11, width=64, height=22, rx=11, fill=_HIGHLIGHT)
        middle = {"text_anchor": "middle", "font_size": 13}
        _add_text(badge, x - 32, y + 5, tr.gettext("to play"), **middle, **_BOLD_INK)
        x -= 70
    rules = seen.rules
    if _teams(rules):
        side = rules.side_of(player)
        letter = side_letter(side)
        colour = _TEAM_COLOURS[side % len(_TEAM_COLOURS)]
        title = tr.gettext("side {letter}").format(letter=letter)
        _chip(parent, x - 11, y, letter, colour, title, "side")


def _seat(parent: ET.Element, lang: str, seen: Scene, player: int, box: _Box) -> None:
    """A seat: a panel with the player's name and chips, their hand and their pile."""
    tr = translation(lang)
    seat = _add_group(parent, class_="seat", data_player=player)
    frame = _HIGHLIGHT if player == seen.current else "none"
    panel = {"x": box.x, "y": box.y, "width": box.w, "height": box.h, "rx": 12}
    _add(seat, "rect", **panel, fill="#000000", fill_opacity=0.22, stroke=frame, stroke_width=3)
    if player == seen.seat:
        name = tr.gettext("Player {player} (you)").format(player=player)
    else:
        name = tr.gettext("Player {player}").format(player=player)
    _add_text(seat, box.x + 14, box.y + 25, name, fill=_TEXT, font_size=17, **_BOLD)
    _badges(seat, tr, seen, player, box.x + box.w - 10, box.y + 19)
    pile_w = max(_CARD_W * box.pile + 14, 80)
    pile_x = box.x + box.w - pile_w
    _hand(seat, lang, seen, player, box.x + 14, box.y + 38, pile_x - box.x - 28, box)
    _pile(seat, tr, seen, player, pile_x, box.y + 38, box.pile)
    if seen.rules.declarations:
        _declared(seat, tr, seen, player, box)


def _declared(parent: ET.Element, tr: _Tr, seen: Scene, player: int, box: _Box) -> None:
    """The points a player declared in the hand, under the hand (rules with declarations)."""
    points = seen.declared[player]
    shown = " ".join(map(str, seen.shown[player]))
    title = tr.ngettext(
        "player {player} declared {count} point", "player {player} declared {count} points", points
    ).format(player=player, count=points)
    words = tr.ngettext("declared {count} point", "declared {count} points", points)
    words = words.format(count=points)
    if shown:
        title += tr.gettext(", showing {cards}").format(cards=shown)
        words += tr.gettext(" · shows {cards}").format(cards=shown)
    group = _add_group(parent, title=title, class_="declared", data_points=points)
    _add_text(group, box.x + 14, box.y + box.h - 8, words, fill=_HIGHLIGHT, font_size=13)


def _grid(count: int, room_w: float, room_h: float, largest: float) -> tuple[float, int]:
    """The largest card scale (up to `largest`) and the columns that fit `count` cards."""
    scale, columns = largest, 1
    for tenth in range(round(largest * 10), 2, -1):
        scale = tenth / 10
        gap = 8 * scale
        columns = max(1, int((room_w + gap) // (_CARD_W * scale + gap)))
        if math.ceil(count / columns) * (_CARD_H * scale + gap) - gap <= room_h:
            break
    return scale, columns


def _table(
    parent: ET.Element,
    lang: str,
    cards: tuple[Card, ...],
    room: tuple[float, float, float, float],
    largest: float,
) -> None:
    """The table's cards, face up, in centred rows in the room (x, y, w, h)."""
    x, y, w, h = room
    scale, columns = _grid(len(cards), w, h, largest)
    card_w, card_h, gap = _CARD_W * scale, _CARD_H * scale, 8 * scale
    rows = math.ceil(len(cards) / columns)
    top = y + (h - (rows * (card_h + gap) - gap)) / 2
    for row in range(rows):
        line = cards[row * columns : (row + 1) * columns]
        left = x + (w - (len(line) * (card_w + gap) - gap)) / 2
        for i, card in enumerate(line):
            card_x, card_y = left + i * (card_w + gap), top + row * (card_h + gap)
            _card(parent, lang, card, card_x, card_y, scale, data_where="table")


_ROW = 24.0
_NAME_W = 120.0
"""The least width of the score's column of names."""
_SIDE_W = 120.0
"""The width of each side's column of the score, where there is room."""


@attrs.frozen
class _ScoreShape:
    """The columns of a hand's score: their widths, and the scale that fits them in place."""

    name_w: float
    side_w: float
    sides: int
    scale: float

    @property
    def width(self) -> float:
        """The width the score takes, scaled."""
        return (self.name_w + self.sides * self.side_w) * self.scale


def _score_shape(tr: _Tr, score: HandScore, rules: Rules, room: float) -> _ScoreShape:
    """Columns wide enough for every word of the score, scaled down if they exceed `room`.

    The names' column holds the heading, the categories and the total; a side's column its
    name (centred) and each cell, the points ending 3 units right of the column's centre
    and the figure starting 7 units right of it.
    """
    words = [(tr.gettext("hand score"), 14.0, False), (tr.gettext("points"), 16.0, True)]
    words += [(category.name, 15.0, False) for category in score]
    name_w = max(_NAME_W, max(_text_width(t, size, bold=b) for t, size, b in words) + 16)
    sides = rules.number_of_sides
    half = 0.0  # the most a side's words reach from its column's centre
    for side in range(sides):
        half = max(half, _text_width(_side_name(tr, rules, side), 16, bold=True) / 2)
        half = max(half, _text_width(str(score.points[side]), 18, bold=True) - 3)
        for category in score:
            half = max(half, _text_width(str(category.points[side]), 16, bold=True) - 3)
            if len(category.figures) == sides:
                half = max(half, 7 + _text_width(f"({category.figures[side]})", 12))
    wanted = min(room, name_w + 10 + _SIDE_W * sides)
    side_w = max(2 * half + 12, (wanted - name_w) / sides)
    return _ScoreShape(name_w, side_w, sides, min(1.0, room / (name_w + sides * side_w)))


def _score_height(score: HandScore) -> float:
    """The height of a hand's score, unscaled."""
    return _ROW * (len(score.categories) + 2) + 10


def _score(
    parent: ET.Element,
    tr: _Tr,
    score: HandScore,
    rules: Rules,
    x: float,
    y: float,
    shape: _ScoreShape,
) -> None:
    """The hand's score from (x, y): a row per category, a column per side, the totals.

    Each cell shows the points and, smaller, the figure they were judged on.
    """
    summary = ", ".join(f"{_side_name(tr, rules, s)} {p}" for s, p in enumerate(score.points))
    table = _add_group(
        parent,
        title=tr.gettext("hand score: {points}").format(points=summary),
        class_="score",
        data_points=",".join(map(str, score.points)),
        transform=_place(x, y, shape.scale),
    )
    sides = rules.number_of_sides
    w = shape.name_w + sides * shape.side_w
    centres = [shape.name_w + (side + 0.5) * shape.side_w for side in range(sides)]
    right = {"text_anchor": "end", "fill": _TEXT, "font_size": 16, **_BOLD}
    row_y = 16.0
    heading = tr.gettext("hand score")
    _add_text(table, 0, row_y, heading, fill=_MUTED, font_size=14, font_style="italic")
    for side, cx in enumerate(centres):
        label = _side_name(tr, rules, side)
        middle = {"text_anchor": "middle", "fill": _TEXT, "font_size": 16}
        _add_text(table, cx, row_y, label, **middle, **_BOLD)
    for category in score:
        row_y += _ROW
        _add_text(table, 0, row_y, category.name, fill=_TEXT, font_size=15)
        for side, cx in enumerate(centres):
            _add_text(table, cx + 3, row_y, str(category.points[side]), **right)
            if len(category.figures) == sides:
                figure = f"({category.figures[side]})"
                _add_text(table, cx + 7, row_y, figure, fill=_MUTED, font_size=12)
    row_y += 9
    _add(table, "line", x1=0, y1=row_y, x2=w, y2=row_y, stroke=_MUTED)
    row_y += _ROW
    _add_text(table, 0, row_y, tr.gettext("points"), fill=_TEXT, font_size=16, **_BOLD)
    total = {"text_anchor": "end", "fill": _HIGHLIGHT, "font_size": 18, **_BOLD}
    for side, cx in enumerate(centres):
        _add_text(table, cx + 3, row_y, str(score.points[side]), **total)


def _last_play(tr: _Tr, last: tuple[int, Move] | None) -> str:
    if last is None:
        return tr.gettext("no play yet")
    player, move = last
    if not move.captured:
        text = tr.gettext("last play: player {player} lays {card}")
    else:
        text = tr.gettext("last play: player {player}'s {card} takes {cards}")
    taken = "+".join(map(str, sorted(move.captured)))
    text = text.format(player=player, card=move.card, cards=taken)
    if move.declaration is not None:
        points = move.declaration.points
        declaring = tr.ngettext(
            ", declaring {declaration} ({count} point)",
            ", declaring {declaration} ({count} points)",
            points,
        )
        text += declaring.format(declaration=move.declaration.value, count=points)
    if move.claim:
        text += tr.gettext(", claiming the target")
    return text


def _stock(parent: ET.Element, tr: _Tr, count: int, x: float, y: float) -> None:
    """The stock from (x, y): a stack, its name and its count."""
    title = tr.gettext("stock: {cards}").format(cards=_cards(tr, count))
    stock = _add_group(parent, title=title, class_="stock", data_cards=count)
    _stack(stock, x, y, count, 0.6)
    label = {"text_anchor": "middle", "fill": _TEXT}
    _add_text(stock, x + 18, y + 82, tr.gettext("stock"), font_size=14, **label)
    _add_text(stock, x + 18, y + 100, str(count), font_size=16, **label, **_BOLD)


def _felt(parent: ET.Element, lang: str, seen: Scene, layout: _Layout) -> None:
    """The table: its cards, the last play, the stock, and the score once the hand is over."""
    tr = translation(lang)
    felt = _add_group(parent, class_="table")
    x, y, w, h = layout.felt
    edge = {"fill": _FELT, "stroke": _FELT_EDGE, "stroke_width": 2}
    _add(felt, "rect", x=x, y=y, width=w, height=h, rx=24, **edge)
    last = _last_play(tr, seen.last)
    _add_text(felt, x + 20, y + 28, last, fill=_TEXT, font_size=_fit(last, 15, w - 40))
    room_x, room_y, room_w, room_h = x + 16, y + 44, w - 32, h - 56
    if seen.rules.deals_per_hand > 1:  # a variant dealt all at once has no stock to show
        _stock(felt, tr, seen.stock, x + w - 66, y + 54)
        room_w -= 72
    score = seen.score
    if score is not None:
        shape = _score_shape(tr, score, seen.rules, room_w - 16)
        score_h = _score_height(score) * shape.scale
        score_y = room_y + room_h - score_h if seen.table else room_y + (room_h - score_h) / 2
        score_x = room_x + (room_w - shape.width) / 2
        _score(felt, tr, score, seen.rules, score_x, score_y, shape)
        room_h -= score_h + 10
    if seen.table:
        _table(felt, lang, seen.table, (room_x, room_y, room_w, room_h), layout.table_scale)
    elif score is None:
        middle = {"text_anchor": "middle", "fill": _MUTED, "font_size": 16}
        empty = tr.gettext("empty table")
        _add_text(felt, room_x + room_w / 2, room_y + room_h / 2, empty, **middle)


def _accessible_title(tr: _Tr, seen: Scene) -> str:
    rules = seen.rules
    table = " ".join(map(str, seen.table)) or tr.pgettext("table", "empty")
    shown = [
        tr.gettext("player {player} holds {cards}").format(
            player=p, cards=" ".join(map(str, cards)) or tr.pgettext("cards held", "nothing")
        )
        for p, cards in enumerate(seen.hands)
        if not isinstance(cards, int)
    ]
    shown += [
        tr.gettext("player {player} has shown {cards}").format(
            player=p, cards=" ".join(map(str, cards))
        )
        for p, cards in enumerate(seen.shown)
        if cards and isinstance(seen.hands[p], int)
    ]
    title = tr.gettext("Scopa position, {variant}, {players} players: {status}; table {table}; ")
    status = _status(tr, seen)
    return title.format(variant=rules.name, players=rules.players, status=status, table=table) + (
        "; ".join(shown)
    )


def state_svg(
    state: GameState | PlayerView,
    player: int | None = None,
    *,
    width: float | None = None,
    caption: str | None = None,
    lang: str = "en",
) -> str:
    """A picture of a position.

    The table's cards lie face up on a felt in the middle, with the last play above them
    and the stock at their right. `player` sits at the bottom with their hand face up, the
    others round the table in play order (counter-clockwise: up the right side, across the
    top, down the left side) with their hands face down. With `player` `None`, player 0
    sits at the bottom and every hand is face up, for analysis. Each seat shows the
    player's pile as a stack with its card count and a small crosswise card for each
    scopa; chips mark the dealer (`D`, in Italian `M` for *mazziere*), the player to move
    (`to play`, with a gold frame) and each player's side when players play in sides. Once
    the hand is over the felt shows its score, its columns as wide as their words. Above
    all: the variant, the players and the state of the hand, then the `caption` if one is
    given; a line too long for the picture is drawn smaller. (The words are measured by an
    estimate never below their width in the fonts the picture names, so that none runs
    into another, in either language.) Under rules with declarations (Cirulla), the cards
    a declaration showed lie face up even in a hand seen face down, and each seat gives
    the points its player declared and the cards shown.

    A `PlayerView` is drawn from its own player's seat and shows only what it knows.

    Args:
        state: the position, or one player's view of it.
        player: whose hand is shown; `None` shows every hand (for a view: its player's).
        width: the width in pixels; by default 900 for two players and 1200 for more
            (one pixel per unit of the drawing).
        caption: a second title line.
        lang: the language of the words: `"en"` or `"it"`.

    Raises:
        TypeError: `state` is not a state or a view, `player` is not an int, or `width`
            is not a number.
        InvalidArgumentError: `player` is not a player, or not the view's player; the
            game has more than 8 players; `width` is not finite and positive; the library
            does not write in `lang`.
    """
    tr = translation(lang)
    seen = scene(state, player)
    rules = seen.rules
    n = rules.players
    layout = _layout(n)
    title = _accessible_title(tr, seen)
    svg = _picture(
        layout.width if width is None else _check_width(width),
        layout.width,
        layout.height,
        f"{caption}. {title}" if caption else title,
        data_variant=rules.name,
        data_players=n,
        data_shown="all" if seen.seat is None else seen.seat,
    )
    _add(svg, "rect", width=layout.width, height=layout.height, fill=_BACKGROUND)
    if _teams(rules):
        heading = tr.gettext("{variant} · {players} players in {sides} sides · {status}")
    else:
        heading = tr.gettext("{variant} · {players} players · {status}")
    heading = heading.format(
        variant=rules.name, players=n, sides=rules.number_of_sides, status=_status(tr, seen)
    )
    centre, room = layout.width / 2, layout.width - 40
    size = _fit(heading, 22, room, bold=True)
    _add_text(svg, centre, 32, heading, text_anchor="middle", fill=_TEXT, font_size=size, **_BOLD)
    if caption:
        size = _fit(caption, 17, room)
        _add_text(svg, centre, 57, caption, text_anchor="middle", fill=_HIGHLIGHT, font_size=size)
    _felt(svg, lang, seen, layout)
    bottom = 0 if seen.seat is None else seen.seat
    for offset, box in enumerate(layout.seats):
        _seat(svg, lang, seen, (bottom + offset) % n, box)
    return _markup(svg)


# --------------------------------------------------------------------------- matches


def match_svg(
    match: Match, player: int | None = None, *, width: float | None = None, lang: str = "en"
) -> list[str]:
    """Pictures of the key moments of a match, each with its caption.

    The moments are those of [`match_moments`][scopa.match.match_moments], with their
    captions in the language `lang`. `player` is as in `state_svg`: by default every hand
    is shown face up.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player; the library does not write in `lang`.
    """
    tr = translation(lang)
    moments = match_moments(match)
    return [
        state_svg(moment.state, player, width=width, caption=_caption(tr, match, moment), lang=lang)
        for moment in moments
    ]


def _caption(tr: _Tr, match: Match, moment: Moment) -> str:
    """A moment's caption, in the language of a translation (in English, `moment.caption`)."""
    number = moment.hand
    hands = match.hands
    rules = match.rules
    if moment.kind == "deal":
        before = _totals(rules, [hand.points for hand in hands[: number - 1]])
        return tr.gettext("Hand {number}: player {player} deals · match {totals}").format(
            number=number, player=moment.state.dealer, totals=before
        )
    if moment.kind == "scopa":
        player = moment.state.history[-1][0]
        if rules.number_of_sides == rules.players:
            side = ""
        else:
            side = tr.gettext(" (side {letter})").format(letter=side_letter(rules.side_of(player)))
        return tr.gettext("Hand {number}: scopa by player {player}{side}").format(
            number=number, player=player, side=side
        )
    if moment.kind == "end":
        points = "–".join(map(str, hands[number - 1].points))
        totals = _totals(rules, [hand.points for hand in hands[:number]])
        return tr.gettext("Hand {number} over: points {points} · match {totals}").format(
            number=number, points=points, totals=totals
        )
    gone = match.abandonment
    assert gone is not None  # the one other kind of moment
    return tr.gettext("Hand {number}: player {player} abandons ({reason})").format(
        number=number, player=gone.player, reason=abandon_reason(tr, gone.reason)
    )


def _totals(rules: Rules, points: list[tuple[int, ...]]) -> str:
    """The sides' totals of some hands' points, as `5–2`."""
    sums = [sum(hand[side] for hand in points) for side in range(rules.number_of_sides)]
    return "–".join(map(str, sums))
