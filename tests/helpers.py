"""Helpers shared by the tests: presets, cards written as text, positions, matches, statistics.

Cards are written as in the golden files: card lists separated by spaces, where `1-5D` is
short for `1D 2D 3D 4D 5D`, cards may be written one after the other (`7D10B`), and `-` is
no card at all.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import attrs
import pytest

import scopa
from scopa import (
    DECK,
    Captures,
    Card,
    CategoryScore,
    GameState,
    Match,
    Move,
    PrimieraTable,
    Rules,
    ScoringRules,
    find_variant,
)
from scopa.masks import cards_of
from tests.strategies import PRESETS

ROOT = Path(__file__).resolve().parent.parent
"""The project's folder, which holds `src/`, `tests/` and `docs/`."""

CLASSIC = find_variant("classic")
TRETRE = find_variant("tretre")

PRIMIERA_TABLES = {
    "classic": PrimieraTable.CLASSIC,
    "tretre": PrimieraTable.TRETRE,
    "face-value-figures": PrimieraTable.FACE_VALUE_FIGURES,
    "zero-figures": PrimieraTable.ZERO_FIGURES,
}
"""The primiera tables by the names the golden files and the oracle give them."""

STANDARD_CATEGORIES = ["scope", "carte", "denari", "settebello", "primiera"]
"""The names of the standard scoring categories, in the order they are scored.

The order is that of docs/rules.md#scoring.
"""

every_preset = pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
"""Parametrize a test over every preset, as its argument `rules`."""

CARD_CODE = re.compile(r"\b(?:10|[1-9])[DCSB]\b")
"""A card in its canonical text (`7D`, `10B`) standing alone in a longer text."""

_CARD = re.compile(r"(?:10|[1-9])[DCSB]")
_RUN = re.compile(r"(\d+)-(\d+)([DCSB])")

Points = tuple[int, ...]
"""One number per side (or per player, where a test says so)."""

# ----------------------------------------------------------------------------- cards


def card_list(text: str) -> list[Card]:
    """The cards of a list such as `"3C 4S 1-5D"` or `"7D10B"`, in the order written."""
    found: list[Card] = []
    for token in text.split():
        run = _RUN.fullmatch(token)
        if run is not None:
            low, high, suit = int(run[1]), int(run[2]), run[3]
            found.extend(Card.parse(f"{rank}{suit}") for rank in range(low, high + 1))
        elif token != "-":
            written = _CARD.findall(token)
            assert "".join(written) == token, f"cannot read {token!r} as cards"
            found.extend(map(Card.parse, written))
    assert len(set(found)) == len(found), f"a card is repeated in {text!r}"
    return found


def cards(text: str) -> frozenset[Card]:
    """The cards of a list such as `"3C 4S 1-5D"`, as a set."""
    return frozenset(card_list(text))


def rest_of(*groups: Iterable[Card]) -> frozenset[Card]:
    """Every card of the deck that is in none of the groups."""
    used: set[Card] = set()
    for group in groups:
        used.update(group)
    return frozenset(card for card in DECK if card not in used)


def piles_of(texts: Sequence[str], *placed: Iterable[Card]) -> list[frozenset[Card]]:
    """Each player's pile from its card list; `*` is every card in no other pile or group."""
    named = [frozenset() if text == "*" else cards(text) for text in texts]
    rest = rest_of(*named, *placed)
    return [rest if text == "*" else pile for text, pile in zip(texts, named, strict=True)]


# ----------------------------------------------------------------------------- positions


def position(
    rules: Rules,
    hands: Sequence[str],
    table: str = "",
    *,
    stock: str = "",
    piles: Sequence[str] | None = None,
    dealer: int | None = None,
    scope: Sequence[int] | None = None,
    last_capturer: int | None = None,
) -> GameState:
    """A position written as card lists: each player's hand, the table and the stock.

    The dealer is the last player unless given, so player 0 leads. `stock` is in dealing
    order. In `piles`, `*` stands for every card placed nowhere else; without `piles` the
    dealer has captured all those cards. The last capturer is, by default, the only player
    with a pile.
    """
    players = rules.players
    dealer = players - 1 if dealer is None else dealer
    held = [cards(hand) for hand in hands]
    on_table = cards(table)
    dealt = card_list(stock)
    if piles is None:
        piles = ["*" if player == dealer else "" for player in range(players)]
    return GameState.from_position(
        rules,
        hands=held,
        table=on_table,
        stock=dealt,
        dealer=dealer,
        piles=piles_of(piles, *held, on_table, dealt, rest_of(cards_of(rules.in_play_mask))),
        scope=scope,
        last_capturer=last_capturer,
    )


def lead(rules: Rules, hand: str, table: str) -> GameState:
    """Player 0 leads `hand` onto `table`; the stock is empty; the last player deals.

    Every other player holds as many filler cards (the lowest-index free ones) and the
    dealer has captured every other card, so the lead is never the last play of the hand.
    """
    held = cards(hand)
    free = iter(sorted(rest_of(held, cards(table))))
    fillers = [" ".join(str(next(free)) for _ in held) for _ in range(1, rules.players)]
    return position(rules, [hand, *fillers], table)


def finished(
    rules: Rules, piles: Sequence[Iterable[Card]], scope: Sequence[int] | None = None
) -> GameState:
    """The end of a hand whose 40 cards are in the players' piles, as given."""
    players = rules.players
    captured = [frozenset(pile) for pile in piles]
    state = GameState.from_position(
        rules,
        hands=[frozenset()] * players,
        table=(),
        stock=(),
        dealer=players - 1,
        piles=captured,
        scope=scope,
        last_capturer=next(p for p in range(players) if captured[p]),
    )
    assert state.is_terminal
    return state


def assert_legal(state: GameState, legal: str) -> None:
    """The legal moves are exactly the moves of `legal` (separated by spaces), each once."""
    expected = [Move.parse(text) for text in legal.split()]
    found = state.legal_moves()
    assert set(found) == set(expected), [str(move) for move in found]
    assert len(found) == len(expected), "one move per distinct choice"


def rebuilt(state: GameState, **changes: object) -> GameState:
    """`GameState.from_position` given the parts of `state`, some of them (by name) changed.

    The player to move is left for `from_position` to work out, unless it is changed.
    """
    arguments: dict[str, object] = {
        "hands": state.hands,
        "table": state.table,
        "stock": state.stock,
        "dealer": state.dealer,
        "piles": state.piles,
        "scope": state.scope,
        "last_capturer": state.last_capturer,
    }
    arguments.update(changes)
    return GameState.from_position(state.rules, **arguments)  # type: ignore[arg-type]


POSITION_FIELDS = ("hands", "table", "stock", "piles", "scope", "dealer", "current", "last")
"""The names of the eight fields of a position's text, in order."""


def with_fields(text: str, **changes: str) -> str:
    """A position's text with some of its fields (named as in `POSITION_FIELDS`) replaced."""
    fields = text.split()
    assert len(fields) == len(POSITION_FIELDS), text
    assert set(changes) <= set(POSITION_FIELDS), changes
    return " ".join(
        changes.get(name, field) for name, field in zip(POSITION_FIELDS, fields, strict=True)
    )


# ----------------------------------------------------------------------------- matches


@attrs.frozen(eq=False)
class Scripted:
    """A scoring component that gives the hands the points of a script, in order."""

    script: Iterator[Points]
    name: str = "scripted"

    def score(self, hand: Captures) -> CategoryScore:
        """The next points of the script, whatever was captured."""
        return CategoryScore(self.name, next(self.script))


def scripted(rules: Rules, points: Iterable[Points]) -> Rules:
    """The rules with a scoring that gives the hands `points`, one entry per hand, in order."""
    return attrs.evolve(rules, scoring=ScoringRules((Scripted(iter(points)),)))


def play_until(match: Match, done: Callable[[Match], bool]) -> Match:
    """Play the first legal move each time until `done(match)` holds."""
    while not done(match):
        match = match.apply(match.state.legal_moves()[0])
    return match


def finish_hand(match: Match) -> Match:
    """Play the hand in progress to its end with the first legal move each time."""
    hands = len(match.hands)
    return play_until(match, lambda m: len(m.hands) > hands)


def finish_match(match: Match) -> Match:
    """Play the match to its end with the first legal move each time."""
    return play_until(match, lambda m: m.is_over)


# ----------------------------------------------------------------------------- statistics


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile for a normal quantile z (Wilson–Hilferty), 3.09 ~ 0.1%."""
    a = 2 / (9 * df)
    return float(df * (1 - a + z * math.sqrt(a)) ** 3)


def chi_square(observed: list[int], probabilities: list[float]) -> float:
    """Pearson's statistic of the counts `observed` against the expected `probabilities`."""
    total = sum(observed)
    return sum(
        (o - total * p) ** 2 / (total * p) for o, p in zip(observed, probabilities, strict=True)
    )


source_only = pytest.mark.skipif(
    scopa.COMPILED, reason="patches module globals, which a compiled module reads as constants"
)
"""Marks a test of the pure-Python source only (the compiled build compiles the same source)."""


def wrong_type(ours: str, expected: str, given: str) -> tuple[str, ...]:
    """The messages a `TypeError` for a value of the wrong type may carry.

    The library's own, and in the compiled build also the one of the check that a compiled
    function makes of an argument's declared type.
    """
    if scopa.COMPILED:
        return ours, f"{expected} object expected; got {given}"
    return (ours,)


class Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True
