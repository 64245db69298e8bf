"""Pictures in SVG: cards, positions and the key moments of a match, drawn by the library.

No image files and nothing beyond the standard library: every card is drawn from shapes.
A card is an ivory rounded rectangle with its capture value (1 to 10) in two corners, in
the colour of its suit: denari gold coins, coppe red cups, spade blue swords, bastoni
green batons. Ranks 1 to 7 show that many suit marks; the figures show an emblem (a
feathered cap, a horseshoe, a crown), a large letter (F Fante, C Cavallo, R Re) and a
small suit mark. Card backs are blue with a lattice of diamonds.

Every picture is one `<svg>` element with a `<title>`, and uses no ids and no external
references, so several can share a page. Each drawn card is a `<g class="card">` with a
`<title>` and data attributes: `data-face` (`up` or `down`), `data-where` (`hand` or
`table`), `data-player` (for a hand) and, on face-up cards only, `data-card` (such as
`7D`). Piles carry `data-cards` and `data-scope`, the stock `data-cards`.

Examples:
    >>> from scopa import GameState, find_variant
    >>> state = GameState.new(find_variant("classic"), seed=1)
    >>> picture = state_svg(state, player=0)
    >>> picture.startswith("<svg"), picture.count('data-face="down"')
    (True, 3)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape

from scopa._checks import check_number
from scopa.cards import DECK, Card, Rank, Suit
from scopa.errors import InvalidArgumentError
from scopa.match import Match
from scopa.moves import Move
from scopa.rules import Rules
from scopa.scoring import HandScore
from scopa.state import GameState, PlayerView

__all__ = [
    "Moment",
    "MomentKind",
    "card_svg",
    "card_title",
    "cards_svg",
    "match_moments",
    "match_svg",
    "state_svg",
]

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

_RANK_NAMES = (
    "",
    "asso",
    "due",
    "tre",
    "quattro",
    "cinque",
    "sei",
    "sette",
    "fante",
    "cavallo",
    "re",
)
_SUIT_NAMES = ("denari", "coppe", "spade", "bastoni")

# A card is drawn in a 60 × 100 box, then moved and scaled into place.
_CARD_W = 60.0
_CARD_H = 100.0

# --------------------------------------------------------------------------- SVG text


def _num(value: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(values: dict[str, object]) -> str:
    """Attributes from keywords: `_` becomes `-`, a trailing `_` is dropped, `None` skipped."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = _num(value) if isinstance(value, float | int) else str(value)
        parts.append(f' {name}="{escape(text, {chr(34): "&quot;"})}"')
    return "".join(parts)


def _tag(name: str, /, **values: object) -> str:
    """An empty element."""
    return f"<{name}{_attrs(values)}/>"


def _text(x: float, y: float, content: str, /, **values: object) -> str:
    """A `<text>` element."""
    return f"<text{_attrs({'x': x, 'y': y, **values})}>{escape(content)}</text>"


def _group(content: str, /, *, title: str | None = None, **values: object) -> str:
    """A `<g>` element, with a `<title>` first when one is given."""
    heading = "" if title is None else f"<title>{escape(title)}</title>"
    return f"<g{_attrs(values)}>{heading}{content}</g>"


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


def _svg(width: float, view_w: float, view_h: float, title: str, body: str, **data: object) -> str:
    """A complete SVG document of `width` pixels (the height keeps the proportions)."""
    head = _attrs(
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": width * view_h / view_w,
            "viewBox": f"0 0 {_num(view_w)} {_num(view_h)}",
            "role": "img",
            "font-family": _FONT,
            **data,
        }
    )
    return f"<svg{head}><title>{escape(title)}</title>{body}</svg>"


# --------------------------------------------------------------------------- suit marks
# Each mark is centred on (cx, cy); `size` is its height, `stretch` makes a sword or a
# baton taller than that (coins and cups are never stretched).


def _coin(cx: float, cy: float, size: float, stretch: float = 1.0) -> str:
    main, dark, _ = _SUIT_COLOURS[Suit.DENARI]
    r = 0.45 * size
    return (
        _tag("circle", cx=cx, cy=cy, r=r, fill=main, stroke=dark, stroke_width=0.06 * size)
        + _tag(
            "circle", cx=cx, cy=cy, r=0.62 * r, fill="none", stroke=dark, stroke_width=0.05 * size
        )
        + _tag("circle", cx=cx, cy=cy, r=0.2 * r, fill=dark)
    )


_CUP = (
    "M -0.34 -0.4 L 0.34 -0.4 Q 0.34 0.06 0.07 0.12 L 0.07 0.3 Q 0.07 0.36 0.24 0.41 "
    "L 0.24 0.48 L -0.24 0.48 L -0.24 0.41 Q -0.07 0.36 -0.07 0.3 L -0.07 0.12 "
    "Q -0.34 0.06 -0.34 -0.4 Z"
)


def _cup(cx: float, cy: float, size: float, stretch: float = 1.0) -> str:
    main, dark, tint = _SUIT_COLOURS[Suit.COPPE]
    width = 0.05 * size
    body = _path(cx, cy, size, size, _CUP)
    rim = {"cx": cx, "cy": cy - 0.4 * size, "rx": 0.34 * size, "ry": 0.07 * size}
    return _tag("path", d=body, fill=main, stroke=dark, stroke_width=width) + _tag(
        "ellipse", **rim, fill=tint, stroke=dark, stroke_width=width
    )


_BLADE = "M 0 -0.5 L 0.075 -0.38 L 0.075 0.16 L -0.075 0.16 L -0.075 -0.38 Z"
_FULLER = "M 0 -0.38 L 0 0.12"
_GUARD = "M -0.22 0.16 L 0.22 0.16 L 0.22 0.22 L -0.22 0.22 Z"
_GRIP = "M -0.045 0.22 L 0.045 0.22 L 0.045 0.41 L -0.045 0.41 Z"


def _sword(cx: float, cy: float, size: float, stretch: float = 1.0) -> str:
    main, dark, tint = _SUIT_COLOURS[Suit.SPADE]
    width = 0.035 * size
    tall = size * stretch
    return (
        _tag(
            "path",
            d=_path(cx, cy, size, tall, _BLADE),
            fill=tint,
            stroke=dark,
            stroke_width=width,
            stroke_linejoin="round",
        )
        + _tag("path", d=_path(cx, cy, size, tall, _FULLER), stroke=main, stroke_width=width)
        + _tag(
            "path", d=_path(cx, cy, size, tall, _GUARD), fill=main, stroke=dark, stroke_width=width
        )
        + _tag("path", d=_path(cx, cy, size, tall, _GRIP), fill=dark)
        + _tag(
            "circle",
            cx=cx,
            cy=cy + 0.41 * tall + 0.05 * size,
            r=0.055 * size,
            fill=main,
            stroke=dark,
            stroke_width=width,
        )
    )


def _baton(cx: float, cy: float, size: float, stretch: float = 1.0) -> str:
    main, dark, _ = _SUIT_COLOURS[Suit.BASTONI]
    reach = 0.38 * size * stretch
    x0, y0, x1, y1 = cx - 0.1 * size, cy + reach, cx + 0.1 * size, cy - reach
    line = {"x1": x0, "y1": y0, "x2": x1, "y2": y1, "stroke_linecap": "round"}
    parts = [
        _tag("line", **line, stroke=dark, stroke_width=0.24 * size),
        _tag("line", **line, stroke=main, stroke_width=0.16 * size),
    ]
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = (y0 - y1) / length, (x1 - x0) / length  # a unit normal to the baton
    knots = (0.2, 0.4, 0.6, 0.8) if stretch > 1.6 else (0.25, 0.5, 0.75)
    for step, t in enumerate(knots):
        side = 0.1 * size * (1 if step % 2 else -1)
        kx, ky = x0 + t * (x1 - x0) + side * nx, y0 + t * (y1 - y0) + side * ny
        parts.append(_tag("circle", cx=kx, cy=ky, r=0.055 * size, fill=dark))
    return "".join(parts)


_MARKS = {Suit.DENARI: _coin, Suit.COPPE: _cup, Suit.SPADE: _sword, Suit.BASTONI: _baton}


def _mark(suit: Suit, cx: float, cy: float, size: float, stretch: float = 1.0) -> str:
    """The suit's mark centred on (cx, cy), `size` high (times `stretch` if long)."""
    return _MARKS[suit](cx, cy, size, stretch)


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


_CROWN_TIPS = ((18, 26), (30, 22), (42, 26))
_NAIL_HOLES = ((22.5, 35), (22.5, 31), (37.5, 35), (37.5, 31), (27, 24.7), (33, 24.7))


def _figure(card: Card) -> str:
    """The middle of a Fante, Cavallo or Re: a framed emblem, a large letter, a suit mark."""
    main, dark, tint = _SUIT_COLOURS[card.suit]
    gold, gold_dark, _ = _SUIT_COLOURS[Suit.DENARI]
    parts = [
        _tag("rect", x=10, y=18, width=40, height=64, rx=3, fill=tint, stroke=main, stroke_width=1)
    ]
    if card.rank == Rank.RE:  # a crown
        crown = "M 18 37 L 18 26 L 24 31 L 30 22 L 36 31 L 42 26 L 42 37 Z"
        parts.append(_tag("path", d=crown, fill=gold, stroke=gold_dark, stroke_width=1))
        parts.extend(_tag("circle", cx=x, cy=y, r=1.6, fill=gold_dark) for x, y in _CROWN_TIPS)
    elif card.rank == Rank.CAVALLO:  # a horseshoe
        shoe = "M 22.5 37 L 22.5 31 A 7.5 7.5 0 0 1 37.5 31 L 37.5 37"
        parts.append(_tag("path", d=shoe, fill="none", stroke="#6d4c41", stroke_width=3.5))
        parts.extend(_tag("circle", cx=x, cy=y, r=0.9, fill=_FACE) for x, y in _NAIL_HOLES)
    else:  # a feathered cap
        cap = "M 19 36 Q 20 25 30 25 Q 40 25 41 36 Z"
        feather = "M 37 28 Q 45 19 46 29"
        parts.append(_tag("path", d=cap, fill=main, stroke=dark, stroke_width=1))
        parts.append(_tag("path", d=feather, fill="none", stroke=gold, stroke_width=2.2))
    letter = "FCR"[card.rank - Rank.FANTE]
    parts.append(
        _text(30, 63, letter, text_anchor="middle", font_size=26, font_weight="bold", fill=dark)
    )
    parts.append(_mark(card.suit, 30, 74, 12))
    return "".join(parts)


def card_title(card: Card) -> str:
    """A card's code and Italian name, such as `7D sette di denari (settebello)`."""
    name = f"{card} {_RANK_NAMES[card.rank]} di {_SUIT_NAMES[card.suit]}"
    if card.suit == Suit.DENARI and card.rank == Rank.SETTE:
        return f"{name} (settebello)"
    if card.suit == Suit.DENARI and card.rank == Rank.RE:
        return f"{name} (re bello)"
    return name


@functools.cache
def _face(card: Card) -> str:
    """The drawing of a face-up card in its 60 × 100 box."""
    dark = _SUIT_COLOURS[card.suit][1]
    parts = [
        _tag(
            "rect",
            x=0.5,
            y=0.5,
            width=59,
            height=99,
            rx=5,
            fill=_FACE,
            stroke=_FACE_EDGE,
            stroke_width=1,
        )
    ]
    if card.rank <= Rank.SETTE:
        long = card.suit in (Suit.SPADE, Suit.BASTONI)
        size, stretch, places = (_LONG_PIPS if long else _ROUND_PIPS)[card.rank]
        parts.extend(_mark(card.suit, x, y, size, stretch) for x, y in places)
    else:
        parts.append(_figure(card))
    index = {"font_size": 13, "font_weight": "bold", "fill": dark}
    parts.append(_text(4, 14, str(card.value), **index))
    # Upright in both corners: a picture is never turned round, and a 9 upside down is a 6.
    parts.append(_text(56, 95.5, str(card.value), text_anchor="end", **index))
    return "".join(parts)


def _back_lattice() -> str:
    diamonds = []
    for x in range(10, 51, 8):
        for y in range(10, 91, 8):
            diamonds.append(f"M{x} {y - 3}L{x + 3} {y}L{x} {y + 3}L{x - 3} {y}Z")
    return "".join(diamonds)


_BACK_DRAWING = (
    _tag("rect", x=0.5, y=0.5, width=59, height=99, rx=5, fill=_BACK_EDGE, stroke=_FACE_EDGE)
    + _tag("rect", x=4, y=4, width=52, height=92, rx=3, fill=_BACK)
    + _tag("path", d=_back_lattice(), fill=_BACK_LIGHT)
    + _tag("ellipse", cx=30, cy=50, rx=11, ry=17, fill=_BACK_EDGE, stroke="#c9a227", stroke_width=2)
    + _tag("path", d="M30 40L36 50L30 60L24 50Z", fill=_SUIT_COLOURS[Suit.COPPE][0])
)


def _place(x: float, y: float, scale: float) -> str:
    return f"translate({_num(x)} {_num(y)}) scale({_num(scale)})"


def _card(card: Card, x: float, y: float, scale: float = 1.0, **data: object) -> str:
    """A face-up card with its top-left corner at (x, y)."""
    return _group(
        _face(card),
        title=card_title(card),
        class_="card",
        transform=_place(x, y, scale),
        data_card=str(card),
        data_face="up",
        **data,
    )


def _back(x: float, y: float, scale: float = 1.0, **data: object) -> str:
    """A face-down card with its top-left corner at (x, y)."""
    return _group(
        _BACK_DRAWING,
        title="a face-down card",
        class_="card back",
        transform=_place(x, y, scale),
        data_face="down",
        **data,
    )


def card_svg(card: Card | None, *, width: float = 90) -> str:
    """One card as a standalone SVG picture, `width` pixels wide; `None` draws a card back.

    Examples:
        >>> card_svg(Card.parse("7D")).count('data-card="7D"')
        1
    """
    if card is None:
        return _svg(width, _CARD_W, _CARD_H, "a face-down card", _back(0, 0))
    return _svg(width, _CARD_W, _CARD_H, card_title(card), _card(card, 0, 0))


def cards_svg(cards: Iterable[Card] = DECK, *, columns: int = 10, width: float = 800) -> str:
    """A sheet of face-up cards in rows of `columns` (by default the whole deck).

    Raises:
        ValueError: `columns` is not positive.
    """
    if columns < 1:
        raise InvalidArgumentError(f"columns must be positive, not {columns}")
    chosen = tuple(cards)
    gap = 8.0
    rows = max(1, math.ceil(len(chosen) / columns))
    used = min(columns, max(1, len(chosen)))
    view_w = gap + used * (_CARD_W + gap)
    view_h = gap + rows * (_CARD_H + gap)
    body = [_tag("rect", width=view_w, height=view_h, fill=_BACKGROUND)]
    for i, card in enumerate(chosen):
        row, column = divmod(i, columns)
        body.append(_card(card, gap + column * (_CARD_W + gap), gap + row * (_CARD_H + gap)))
    title = f"{len(chosen)} cards: " + (" ".join(map(str, chosen)) or "none")
    return _svg(width, view_w, view_h, title, "".join(body))


# --------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class _Box:
    """A seat's panel, and the scales of its face-up cards, its backs and its pile."""

    x: float
    y: float
    w: float
    h: float
    up: float
    down: float
    pile: float


@dataclass(frozen=True)
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
        ValueError: there are more than 8 players.
    """
    if players == 2:
        return _TWO
    slots = _SLOTS.get(players - 1)
    if slots is None:
        raise InvalidArgumentError(f"pictures are drawn for 2 to 8 players, not {players}")
    others = tuple(_Box(x, y, 290, 150, 0.8, 0.7, 0.45) for x, y in slots)
    bottom = _Box(160, 668, 880, 180, 1.1, 1.1, 0.6)
    return _Layout(1200, 860, (320, 234, 560, 420), 1.1, (bottom, *others))


@dataclass(frozen=True)
class _Scene:
    """Everything a picture shows, from a full state or from one player's view."""

    rules: Rules
    hands: tuple[tuple[Card, ...] | int, ...]  # face-up cards, or how many face down
    table: tuple[Card, ...]
    piles: tuple[int, ...]
    scope: tuple[int, ...]
    stock: int
    dealer: int
    current: int | None
    last: tuple[int, Move] | None
    score: HandScore | None
    bottom: int
    chosen: int | None


def _by_rank(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c.rank, c.suit)))


def _scene(state: GameState | PlayerView, player: int | None) -> _Scene:
    rules = state.rules
    if player is not None:
        check_number(player, rules.players, "player", InvalidArgumentError)
    history = state.history
    last = history[-1] if history else None
    if isinstance(state, PlayerView):
        if player is not None and player != state.player:
            raise InvalidArgumentError(
                f"a view of player {state.player} cannot show player {player}'s hand"
            )
        own = state.player
        hands: tuple[tuple[Card, ...] | int, ...] = tuple(
            _by_rank(state.hand) if p == own else size for p, size in enumerate(state.hand_sizes)
        )
        return _Scene(
            rules,
            hands,
            _by_rank(state.table),
            tuple(map(len, state.piles)),
            state.scope,
            state.stock_size,
            state.dealer,
            state.current_player,
            last,
            state.hand_score() if state.current_player is None else None,
            own,
            own,
        )
    hands = tuple(
        _by_rank(hand) if player is None or p == player else len(hand)
        for p, hand in enumerate(state.hands)
    )
    return _Scene(
        rules,
        hands,
        _by_rank(state.table),
        tuple(map(len, state.piles)),
        state.scope,
        len(state.stock),
        state.dealer,
        state.current_player,
        last,
        state.hand_score() if state.is_terminal else None,
        0 if player is None else player,
        player,
    )


def _teams(rules: Rules) -> bool:
    return rules.number_of_sides < rules.players


def _side_letter(side: int) -> str:
    return "ABCDEFGH"[side % 8]


def _side_name(rules: Rules, side: int) -> str:
    if not _teams(rules):
        return f"P{side}"
    members = "+".join(str(p) for p in range(rules.players) if rules.side_of(p) == side)
    return f"{_side_letter(side)} ({members})"


def _status(scene: _Scene) -> str:
    rules = scene.rules
    if scene.current is None:
        points = "" if scene.score is None else f", points {_points(scene.score.points)}"
        return f"hand over{points}"
    per_deal = rules.players * rules.hand_size
    deal = rules.deals_per_hand - scene.stock // per_deal
    return f"deal {deal} of {rules.deals_per_hand}, player {scene.current} to play"


def _row_step(count: int, room: float, card_w: float, gap: float) -> float:
    """The step between cards in a row: a gap if they fit in `room`, else an overlap."""
    if count <= 1:
        return card_w + gap
    return min(card_w + gap, (room - card_w) / (count - 1))


def _hand(scene: _Scene, player: int, x: float, y: float, room: float, box: _Box) -> str:
    """A player's hand from (x, y), at most `room` wide: face up, or as card backs."""
    cards = scene.hands[player]
    where = {"data_where": "hand", "data_player": player}
    count = cards if isinstance(cards, int) else len(cards)
    scale = box.down if isinstance(cards, int) else box.up
    if not count:
        return _text(x, y + 30, "no cards", fill=_MUTED, font_size=14)
    step = _row_step(count, room, _CARD_W * scale, 6 * scale)
    if box.w > 500:  # a wide panel centres the hand
        x += (room - (_CARD_W * scale + step * (count - 1))) / 2
    if isinstance(cards, int):
        return "".join(_back(x + i * step, y, scale, **where) for i in range(cards))
    return "".join(_card(card, x + i * step, y, scale, **where) for i, card in enumerate(cards))


def _stack(x: float, y: float, count: int, scale: float) -> str:
    """A stack of face-down cards, thicker for more cards, at most 10 units above `y`.

    With no cards, a dashed outline.
    """
    w, h = _CARD_W * scale, _CARD_H * scale
    if not count:
        outline = {"x": x, "y": y, "width": w, "height": h, "rx": 4}
        return _tag("rect", **outline, fill="none", stroke=_MUTED, stroke_dasharray="4 3")
    layers = min(5, 1 + count // 6)
    parts = [
        _tag(
            "rect",
            x=x + 2.5 * i,
            y=y - 2.5 * i,
            width=w,
            height=h,
            rx=5 * scale,
            fill=_BACK,
            stroke=_BACK_EDGE,
            stroke_width=0.8,
        )
        for i in range(layers - 1)
    ]
    shift = 2.5 * (layers - 1)
    parts.append(f'<g transform="{_place(x + shift, y - shift, scale)}">{_BACK_DRAWING}</g>')
    return "".join(parts)


def _scope_marks(x: float, y: float, count: int) -> str:
    """A small crosswise card, face up, for each scopa (one and a count after three)."""
    red = _SUIT_COLOURS[Suit.COPPE][0]
    shown = count if count <= 3 else 1
    parts = []
    for i in range(shown):
        left = x + 22 * i
        parts.append(
            _tag(
                "rect",
                x=left,
                y=y,
                width=19,
                height=13,
                rx=2,
                fill=_FACE,
                stroke=red,
                stroke_width=1.5,
            )
        )
        diamond = f"M{_num(left + 9.5)} {_num(y + 2.5)}l4 4l-4 4l-4 -4z"
        parts.append(_tag("path", d=diamond, fill=red))
    if count > 3:
        parts.append(_text(x + 24, y + 11.5, f"× {count}", fill=_TEXT, font_size=14, **_BOLD))
    return "".join(parts)


def _pile(scene: _Scene, player: int, x: float, y: float, scale: float) -> str:
    """A player's pile from (x, y): a stack, the card count and a mark for each scopa."""
    count, scope = scene.piles[player], scene.scope[player]
    h = _CARD_H * scale
    parts = [
        _stack(x, y + 10, count, scale),
        _text(x, y + h + 26, f"{count} cards", fill=_TEXT, font_size=12),
        _scope_marks(x, y + h + 34, scope),
    ]
    noun = "scopa" if scope == 1 else "scope"
    return _group(
        "".join(parts),
        title=f"player {player}'s pile: {count} cards, {scope} {noun}",
        class_="pile",
        data_player=player,
        data_cards=count,
        data_scope=scope,
    )


def _chip(x: float, y: float, label: str, fill: str, title: str, kind: str) -> str:
    """A round chip with a letter, centred on (x, y)."""
    return _group(
        _tag("circle", cx=x, cy=y, r=11, fill=fill, stroke=_INK, stroke_width=1)
        + _text(x, y + 5, label, text_anchor="middle", font_size=14, **_BOLD_INK),
        title=title,
        class_=kind,
    )


def _badges(scene: _Scene, player: int, right: float, y: float) -> str:
    """The chips at the right of a seat's header, right to left: dealer, to play, side."""
    parts = []
    x = right
    if player == scene.dealer:
        parts.append(_chip(x - 11, y, "D", "#ffffff", f"player {player} deals", "dealer"))
        x -= 28
    if player == scene.current:
        badge = _tag("rect", x=x - 64, y=y - 11, width=64, height=22, rx=11, fill=_HIGHLIGHT)
        badge += _text(x - 32, y + 5, "to play", text_anchor="middle", font_size=13, **_BOLD_INK)
        parts.append(_group(badge, title=f"player {player} to play", class_="turn"))
        x -= 70
    rules = scene.rules
    if _teams(rules):
        side = rules.side_of(player)
        letter = _side_letter(side)
        colour = _TEAM_COLOURS[side % len(_TEAM_COLOURS)]
        parts.append(_chip(x - 11, y, letter, colour, f"side {letter}", "side"))
    return "".join(parts)


def _seat(scene: _Scene, player: int, box: _Box) -> str:
    """A seat: a panel with the player's name and chips, their hand and their pile."""
    turn = player == scene.current
    name = f"Player {player}" + (" (you)" if player == scene.chosen else "")
    pile_w = max(_CARD_W * box.pile + 14, 80)
    pile_x = box.x + box.w - pile_w
    panel = {"x": box.x, "y": box.y, "width": box.w, "height": box.h, "rx": 12}
    parts = [
        _tag(
            "rect",
            **panel,
            fill="#000000",
            fill_opacity=0.22,
            stroke=_HIGHLIGHT if turn else "none",
            stroke_width=3,
        ),
        _text(box.x + 14, box.y + 25, name, fill=_TEXT, font_size=17, **_BOLD),
        _badges(scene, player, box.x + box.w - 10, box.y + 19),
        _hand(scene, player, box.x + 14, box.y + 38, pile_x - box.x - 28, box),
        _pile(scene, player, pile_x, box.y + 38, box.pile),
    ]
    return _group("".join(parts), class_="seat", data_player=player)


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


def _table(cards: tuple[Card, ...], x: float, y: float, w: float, h: float, largest: float) -> str:
    """The table's cards, face up, in centred rows in the room (x, y, w, h)."""
    scale, columns = _grid(len(cards), w, h, largest)
    card_w, card_h, gap = _CARD_W * scale, _CARD_H * scale, 8 * scale
    rows = math.ceil(len(cards) / columns)
    top = y + (h - (rows * (card_h + gap) - gap)) / 2
    parts = []
    for row in range(rows):
        line = cards[row * columns : (row + 1) * columns]
        left = x + (w - (len(line) * (card_w + gap) - gap)) / 2
        for i, card in enumerate(line):
            parts.append(
                _card(
                    card,
                    left + i * (card_w + gap),
                    top + row * (card_h + gap),
                    scale,
                    data_where="table",
                )
            )
    return "".join(parts)


_ROW = 24.0


def _score_height(score: HandScore) -> float:
    return _ROW * (len(score.categories) + 2) + 10


def _score(score: HandScore, rules: Rules, x: float, y: float, w: float) -> str:
    """The hand's score from (x, y): a row per category, a column per side, the totals.

    Each cell shows the points and, smaller, the figure they were judged on.
    """
    sides = rules.number_of_sides
    name_w = 120.0
    column = (w - name_w) / sides
    centres = [x + name_w + (side + 0.5) * column for side in range(sides)]
    row_y = y + 16
    parts = [_text(x, row_y, "hand score", fill=_MUTED, font_size=14, font_style="italic")]
    for side, cx in enumerate(centres):
        label = _side_name(rules, side)
        parts.append(_text(cx, row_y, label, text_anchor="middle", fill=_TEXT, **_BOLD))
    for category in score:
        row_y += _ROW
        parts.append(_text(x, row_y, category.name, fill=_TEXT, font_size=15))
        for side, cx in enumerate(centres):
            points = str(category.points[side])
            parts.append(_text(cx + 3, row_y, points, text_anchor="end", fill=_TEXT, **_BOLD))
            if len(category.figures) == sides:
                figure = f"({category.figures[side]})"
                parts.append(_text(cx + 7, row_y, figure, fill=_MUTED, font_size=12))
    row_y += 9
    parts.append(_tag("line", x1=x, y1=row_y, x2=x + w, y2=row_y, stroke=_MUTED))
    row_y += _ROW
    parts.append(_text(x, row_y, "points", fill=_TEXT, font_size=16, **_BOLD))
    for side, cx in enumerate(centres):
        total = str(score.points[side])
        parts.append(
            _text(cx + 3, row_y, total, text_anchor="end", fill=_HIGHLIGHT, font_size=18, **_BOLD)
        )
    summary = ", ".join(f"{_side_name(rules, s)} {p}" for s, p in enumerate(score.points))
    return _group(
        "".join(parts),
        title=f"hand score: {summary}",
        class_="score",
        data_points=",".join(map(str, score.points)),
    )


def _last_play(last: tuple[int, Move] | None) -> str:
    if last is None:
        return "no play yet"
    player, move = last
    if not move.captured:
        return f"last play: player {player} lays {move.card}"
    taken = "+".join(map(str, sorted(move.captured)))
    return f"last play: player {player}'s {move.card} takes {taken}"


def _felt(scene: _Scene, layout: _Layout) -> str:
    """The table: its cards, the last play, the stock, and the score once the hand is over."""
    x, y, w, h = layout.felt
    parts = [
        _tag(
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=24,
            fill=_FELT,
            stroke=_FELT_EDGE,
            stroke_width=2,
        ),
        _text(x + 20, y + 28, _last_play(scene.last), fill=_TEXT, font_size=15),
    ]
    room_x, room_y, room_w, room_h = x + 16, y + 44, w - 32, h - 56
    if scene.rules.deals_per_hand > 1:  # a variant dealt all at once has no stock to show
        stock_x, stock_y = x + w - 66, y + 54
        label = {"text_anchor": "middle", "fill": _TEXT}
        stock = _stack(stock_x, stock_y, scene.stock, 0.6)
        stock += _text(stock_x + 18, stock_y + 82, "stock", font_size=14, **label)
        stock += _text(stock_x + 18, stock_y + 100, str(scene.stock), **label, **_BOLD)
        title = f"stock: {scene.stock} cards"
        parts.append(_group(stock, title=title, class_="stock", data_cards=scene.stock))
        room_w -= 72
    score = scene.score
    if score is not None:
        score_h = _score_height(score)
        score_y = room_y + room_h - score_h if scene.table else room_y + (room_h - score_h) / 2
        score_w = min(room_w - 16, 130 + 120 * scene.rules.number_of_sides)
        score_x = room_x + (room_w - score_w) / 2
        parts.append(_score(score, scene.rules, score_x, score_y, score_w))
        room_h -= score_h + 10
    if scene.table:
        parts.append(_table(scene.table, room_x, room_y, room_w, room_h, layout.table_scale))
    elif score is None:
        middle = {"text_anchor": "middle", "fill": _MUTED, "font_size": 16}
        parts.append(_text(room_x + room_w / 2, room_y + room_h / 2, "empty table", **middle))
    return _group("".join(parts), class_="table")


def _accessible_title(scene: _Scene) -> str:
    rules = scene.rules
    table = " ".join(map(str, scene.table)) or "empty"
    shown = [
        f"player {p} holds {' '.join(map(str, cards)) or 'nothing'}"
        for p, cards in enumerate(scene.hands)
        if not isinstance(cards, int)
    ]
    return (
        f"Scopa position, {rules.name}, {rules.players} players: {_status(scene)}; "
        f"table {table}; " + "; ".join(shown)
    )


def state_svg(
    state: GameState | PlayerView,
    player: int | None = None,
    *,
    width: float | None = None,
    caption: str | None = None,
) -> str:
    """A picture of a position.

    The table's cards lie face up on a felt in the middle, with the last play above them
    and the stock at their right. `player` sits at the bottom with their hand face up, the
    others round the table in play order (counter-clockwise: up the right side, across the
    top, down the left side) with their hands face down. With `player` `None`, player 0
    sits at the bottom and every hand is face up, for analysis. Each seat shows the
    player's pile as a stack with its card count and a small crosswise card for each
    scopa; chips mark the dealer (`D`), the player to move (`to play`, with a gold frame)
    and each player's side when players play in sides. Once the hand is over the felt
    shows its score. Above all: the variant, the players and the state of the hand, then
    the `caption` if one is given.

    A `PlayerView` is drawn from its own player's seat and shows only what it knows.

    Args:
        state: the position, or one player's view of it.
        player: whose hand is shown; `None` shows every hand (for a view: its player's).
        width: the width in pixels; by default 900 for two players and 1200 for more
            (one pixel per unit of the drawing).
        caption: a second title line.

    Raises:
        InvalidStateError: `player` is not a player, or not the view's player.
        ValueError: the game has more than 8 players.
    """
    scene = _scene(state, player)
    rules = scene.rules
    n = rules.players
    layout = _layout(n)
    teams = f" in {rules.number_of_sides} sides" if _teams(rules) else ""
    heading = f"{rules.name} · {n} players{teams} · {_status(scene)}"
    centre = layout.width / 2
    body = [
        _tag("rect", width=layout.width, height=layout.height, fill=_BACKGROUND),
        _text(centre, 32, heading, text_anchor="middle", fill=_TEXT, font_size=22, **_BOLD),
    ]
    if caption:
        body.append(_text(centre, 57, caption, text_anchor="middle", fill=_HIGHLIGHT, font_size=17))
    body.append(_felt(scene, layout))
    for offset, box in enumerate(layout.seats):
        body.append(_seat(scene, (scene.bottom + offset) % n, box))
    title = _accessible_title(scene)
    return _svg(
        layout.width if width is None else width,
        layout.width,
        layout.height,
        f"{caption}. {title}" if caption else title,
        "".join(body),
        data_variant=rules.name,
        data_players=n,
        data_shown="all" if scene.chosen is None else scene.chosen,
    )


# --------------------------------------------------------------------------- matches

MomentKind = Literal["deal", "scopa", "end", "abandon"]
"""What a key moment of a match is."""


@dataclass(frozen=True)
class Moment:
    """A key moment of a match: a deal, a scopa, the end of a hand, or an abandonment."""

    kind: MomentKind
    """`"deal"`, `"scopa"`, `"end"` or `"abandon"`."""
    hand: int
    """The number of the hand, from 1."""
    state: GameState
    """The position: just dealt, just after the scopa, at the end, or when abandoned."""
    caption: str
    """A line that says what happens."""


def _points(values: Sequence[int]) -> str:
    return "–".join(map(str, values))


def _replay(
    rules: Rules,
    number: int,
    state: GameState,
    moves: Iterable[tuple[int, Move]],
    totals: Sequence[int],
) -> tuple[list[Moment], GameState]:
    """The deal and the scope of a hand replayed from its first state, and its last state."""
    moments = [
        Moment(
            "deal",
            number,
            state,
            f"Hand {number}: player {state.dealer} deals · match {_points(totals)}",
        )
    ]
    for player, move in moves:
        before = state.scope[player]
        state = state.apply(move)
        if state.scope[player] > before:
            side = f" (side {_side_letter(rules.side_of(player))})" if _teams(rules) else ""
            moments.append(
                Moment("scopa", number, state, f"Hand {number}: scopa by player {player}{side}")
            )
    return moments, state


def match_moments(match: Match) -> list[Moment]:
    """The key moments of a match, replayed from its records, in order.

    For each hand: the deal, every scopa, and the end with the hand's score (a hand whose
    record has no moves shows only its deal). The hand in progress is replayed from its
    deck and the current state's history; an abandonment ends the list.
    """
    rules = match.rules
    moments: list[Moment] = []
    totals = [0] * rules.number_of_sides
    for record in match.hands:
        first = GameState.new(rules, deck=record.deck, dealer=record.dealer)
        replayed, last = _replay(rules, record.number, first, record.history, totals)
        moments.extend(replayed)
        totals = [t + p for t, p in zip(totals, record.points, strict=True)]
        if last.is_terminal:
            caption = (
                f"Hand {record.number} over: points {_points(record.points)}"
                f" · match {_points(totals)}"
            )
            moments.append(Moment("end", record.number, last, caption))
    state = match.state
    if not state.is_terminal:
        first = GameState.new(rules, deck=match.deck, dealer=state.dealer)
        moments.extend(_replay(rules, len(match.hands) + 1, first, state.history, totals)[0])
    if match.abandonment is not None:
        gone = match.abandonment
        caption = f"Hand {gone.hand}: player {gone.player} abandons ({gone.reason.value})"
        moments.append(Moment("abandon", gone.hand, state, caption))
    return moments


def match_svg(match: Match, player: int | None = None, *, width: float | None = None) -> list[str]:
    """Pictures of the key moments of a match (see `match_moments`), each with its caption.

    `player` is as in `state_svg`: by default every hand is shown face up.

    Raises:
        InvalidStateError: `player` is not a player.
    """
    return [
        state_svg(moment.state, player, width=width, caption=moment.caption)
        for moment in match_moments(match)
    ]
