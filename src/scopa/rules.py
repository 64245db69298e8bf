"""Rules as data: every knob of the game in one frozen value, and the named presets.

Examples:
    >>> rules = find_variant("classic")
    >>> rules.target, rules.capture_priority
    (11, CapturePriority.EQUAL_RANK_FIRST)
    >>> house = attrs.evolve(rules, target=21)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import attrs

from scopa.cards import RANK_MASKS, Card, Rank, mask_of
from scopa.errors import RulesError
from scopa.scoring import MissingSuit, PrimieraTable, ScoringRules, _whole
from scopa.stakes import BrilliEconomy, Stakes

__all__ = [
    "AceOnAce",
    "CapturePriority",
    "MisdealRule",
    "Rules",
    "Tiebreak",
    "find_variant",
    "variant_aliases",
    "variant_names",
]


class _Knob(Enum):
    """An enum whose repr evaluates back."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class CapturePriority(_Knob):
    """Which of the possible captures a played card may make."""

    EQUAL_RANK_FIRST = "equal-rank-first"
    """With a card of equal rank on the table, take exactly one such card; else any sum."""
    MIN_CARDS = "min-cards"
    """Take a combination with the fewest cards (a single equal card beats any sum)."""
    FREE = "free"
    """Take any combination: a single equal card or any summing set."""


class AceOnAce(_Knob):
    """What a sweeping Ace takes when an Ace is on the table (with `ace_captures_all`)."""

    TAKE_ACE_ONLY = "take-ace-only"
    """The equal-rank rule wins: the Ace takes one Ace, a scopa only if it was alone."""
    TAKE_ALL = "take-all"
    """The Ace still takes every card."""


class MisdealRule(_Knob):
    """When the first table annuls the deal (the same dealer shuffles and deals again)."""

    THREE_PLUS_KINGS = "three-plus-kings"
    """Three or four Kings on the table (classic)."""
    TRETRE = "tretre"
    """Three or more Kings, or four cards of any one rank."""
    CIRULLA = "cirulla"
    """Two or more Aces."""
    NONE = "none"
    """No deal is annulled."""

    def annuls(self, table: Iterable[Card]) -> bool:
        """Whether a first table of these cards annuls the deal."""
        return self.annuls_mask(mask_of(table))

    def annuls_mask(self, table: int) -> bool:
        """Whether a first table given as a card mask annuls the deal."""
        if self is MisdealRule.THREE_PLUS_KINGS:
            return (table & RANK_MASKS[Rank.RE]).bit_count() >= 3
        if self is MisdealRule.TRETRE:
            return (table & RANK_MASKS[Rank.RE]).bit_count() >= 3 or any(
                table & m == m for m in RANK_MASKS[1:]
            )
        if self is MisdealRule.CIRULLA:
            return (table & RANK_MASKS[Rank.ASSO]).bit_count() >= 2
        return False


class Tiebreak(_Knob):
    """How a match ends when several sides reach the target in the same hand."""

    PLAY_ON = "play-on"
    """The higher total wins; on an exact tie, complete hands are played until it breaks."""


def _positive(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(f"{attribute.name} must be a positive int, not {value!r}")


@attrs.frozen(cache_hash=True, repr=False)
class Rules:
    """The complete rules of a game: capturing, dealing, end of hand, scoring and target.

    Build one from a preset with [`find_variant`][scopa.find_variant] and change knobs with
    `attrs.evolve(rules, knob=value)`. The `name` is a label: it takes no part in equality.
    """

    name: str = attrs.field(default="custom", eq=False, validator=attrs.validators.instance_of(str))
    """A label: the preset's name, or anything you like."""
    players: int = attrs.field(default=2, validator=_positive)
    """The number of players, seated counter-clockwise in number order."""
    sides: int | None = None
    """The number of sides (`None`: each player for self). Player `p` plays for side
    `p % sides`, so partners sit alternately (with 4 players and 2 sides, 0 and 2 against
    1 and 3). A side pools its players' captures and scope for scoring."""
    hand_size: int = attrs.field(default=3, validator=_positive)
    """Cards dealt to each player at every deal."""
    table_size: int = attrs.field(default=4, validator=_whole)
    """Cards dealt face up to the table at the first deal of a hand."""
    capture_by_rank: bool = True
    """A played card may take one table card of equal rank."""
    capture_by_sum: bool = True
    """A played card may take two or more table cards whose ranks add up to its rank."""
    capture_priority: CapturePriority = CapturePriority.EQUAL_RANK_FIRST
    """Which of the possible captures are allowed."""
    played_card_must_capture: bool = True
    """A played card that can capture must capture (any card may still be played)."""
    must_play_capturing_card_if_any: bool = False
    """A player who holds a card that can capture must play such a card."""
    ace_captures_all: bool = False
    """A played Ace takes every card on the table (scopa d'assi, asso piglia tutto)."""
    ace_sweep_is_scopa: bool = True
    """Whether a sweep by an Ace taking every card counts as a scopa (off in scopa d'assi)."""
    ace_with_ace_on_table: AceOnAce = AceOnAce.TAKE_ACE_ONLY
    """With `ace_captures_all`, what an Ace takes when an Ace is on the table."""
    ace_on_empty_table_captures_itself: bool = False
    """An Ace played on an empty table goes to its player's pile (no scopa), whether or not
    Aces sweep."""
    ace_first_lead_forbidden: bool = False
    """The first play of a hand may not be an Ace unless the player holds only Aces
    (the *regola del vile*), whether or not Aces sweep."""
    scopa_on_last_play: bool = False
    """Whether emptying the table on the very last play of the hand scores a scopa."""
    leftovers_to_last_capturer: bool = True
    """Cards left on the table at the end go to the last player who captured (never a scopa).

    When off, they stay on the table and nobody scores them."""
    misdeal: MisdealRule = MisdealRule.THREE_PLUS_KINGS
    """Which first tables annul the deal."""
    target: int = attrs.field(default=11, validator=_positive)
    """The points that win a match (applied by the match layer, not within a hand)."""
    tiebreak: Tiebreak = Tiebreak.PLAY_ON
    """What happens when several sides reach the target in the same hand (match layer)."""
    scoring: ScoringRules = attrs.field(factory=ScoringRules.standard)
    """The scoring categories of a hand."""
    move_time_limit: float | None = None
    """Seconds allowed for a move; a player who takes longer abandons (`None`: no limit).

    The library holds no clock: see [`Match.apply`][scopa.Match.apply]."""
    stakes: Stakes | None = None
    """What a match is played for, such as the tretre brilli (`None`: nothing)."""

    def __attrs_post_init__(self) -> None:
        if self.players < 2:
            raise RulesError(f"a game needs at least 2 players, not {self.players}")
        sides = self.number_of_sides
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
            raise RulesError(f"sides must be an int of at least 2 or None, not {self.sides!r}")
        if self.players % sides:
            raise RulesError(f"{self.players} players cannot form {sides} equal sides")
        per_deal = self.players * self.hand_size
        dealt = 40 - self.table_size
        if dealt < per_deal or dealt % per_deal:
            raise RulesError(
                f"{dealt} cards after the table do not split into deals of {self.hand_size} "
                f"cards to each of {self.players} players"
            )
        for name, kind in (
            ("capture_priority", CapturePriority),
            ("ace_with_ace_on_table", AceOnAce),
            ("misdeal", MisdealRule),
            ("tiebreak", Tiebreak),
            ("scoring", ScoringRules),
            ("stakes", (Stakes, type(None))),
        ):
            if not isinstance(getattr(self, name), kind):
                expected = getattr(kind, "__name__", "Stakes or None")
                raise RulesError(f"{name} must be a {expected}, not {getattr(self, name)!r}")
        for field in attrs.fields(Rules):
            if field.type in ("bool", bool) and not isinstance(getattr(self, field.name), bool):
                raise RulesError(
                    f"{field.name} must be True or False, not {getattr(self, field.name)!r}"
                )
        for name in ("scoring", "stakes"):
            try:
                hash(getattr(self, name))
            except TypeError:
                raise RulesError(
                    f"{name} must be hashable (a frozen attrs class, for instance)"
                ) from None
        limit = self.move_time_limit
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit > 0
        ):
            raise RulesError(
                f"move_time_limit must be a positive number of seconds or None, not {limit!r}"
            )

    def __repr__(self) -> str:
        preset = _PRESETS.get(self.name)
        if preset is not None and preset[0] == self:
            return f"find_variant('{self.name}')"
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(Rules))
        return f"Rules({fields})"

    @property
    def number_of_sides(self) -> int:
        """How many sides score: `sides`, or the number of players."""
        return self.players if self.sides is None else self.sides

    def side_of(self, player: int) -> int:
        """The side a player plays for."""
        return player % self.number_of_sides

    @property
    def deals_per_hand(self) -> int:
        """How many times cards are dealt to the players in one hand."""
        return (40 - self.table_size) // (self.players * self.hand_size)

    @property
    def plays_per_hand(self) -> int:
        """How many cards are played in one hand."""
        return 40 - self.table_size


_CLASSIC = Rules(name="classic")
_TRETRE = Rules(
    name="tretre",
    misdeal=MisdealRule.TRETRE,
    target=9,
    scoring=ScoringRules.standard(PrimieraTable.TRETRE, MissingSuit.ZERO),
    move_time_limit=30.0,
    stakes=BrilliEconomy(),
)

_SCOPONE = Rules(
    name="scopone",
    players=4,
    sides=2,
    hand_size=9,
    capture_priority=CapturePriority.MIN_CARDS,
)
_SCOPA_D_ASSI = Rules(
    name="scopa-d-assi",
    ace_captures_all=True,
    ace_sweep_is_scopa=False,
    ace_with_ace_on_table=AceOnAce.TAKE_ACE_ONLY,
    misdeal=MisdealRule.NONE,
)
_ASSO_PIGLIA_TUTTO = attrs.evolve(_SCOPA_D_ASSI, name="asso-piglia-tutto", ace_sweep_is_scopa=True)


def _for_four(rules: Rules, name: str) -> Rules:
    """The 4-player game of a preset: two pairs, ten cards each and an empty table."""
    return attrs.evolve(rules, name=name, players=4, sides=2, hand_size=10, table_size=0)


_PRESETS: dict[str, tuple[Rules, tuple[str, ...]]] = {
    "classic": (_CLASSIC, ("scopa", "scopetta", "classica", "standard", "scopa-2")),
    "tretre": (_TRETRE, ("scopa-tretre", "tretre-2")),
    "scopa-3": (
        Rules(name="scopa-3", players=3),
        ("scopa-a-3", "scopa-a-tre", "scopa-3-giocatori"),
    ),
    "scopa-4": (
        Rules(name="scopa-4", players=4, sides=2),
        ("scopa-a-4", "scopa-a-coppie", "scopa-in-coppia"),
    ),
    "scopa-6": (Rules(name="scopa-6", players=6, sides=2), ("scopa-a-6", "scopa-a-sei")),
    "scopone": (_SCOPONE, ("scopone-9", "scopone-a-9-carte", "scopone-a-nove-carte")),
    "scopone-scientifico": (
        attrs.evolve(
            _SCOPONE,
            name="scopone-scientifico",
            hand_size=10,
            table_size=0,
            misdeal=MisdealRule.NONE,
            target=21,
        ),
        ("scopone-10", "scopone-a-10-carte", "scopone-a-dieci-carte", "scientifico"),
    ),
    "scopa-d-assi": (_SCOPA_D_ASSI, ("scopa-assi", "scopa-d-assi-2", "scopa-dassi")),
    "scopa-d-assi-4": (
        _for_four(_SCOPA_D_ASSI, "scopa-d-assi-4"),
        ("scopa-assi-4", "scopa-dassi-4"),
    ),
    "asso-piglia-tutto": (
        _ASSO_PIGLIA_TUTTO,
        ("asso-pigliatutto", "asso-piglia-tutto-2", "pigliatutto"),
    ),
    "asso-piglia-tutto-4": (
        attrs.evolve(
            _for_four(_ASSO_PIGLIA_TUTTO, "asso-piglia-tutto-4"), ace_first_lead_forbidden=True
        ),
        ("asso-pigliatutto-4",),
    ),
}
_ALIASES = {alias: name for name, (_, aliases) in _PRESETS.items() for alias in (name, *aliases)}
_SEPARATORS = str.maketrans("_ '", "---")


def check_rules(rules: object) -> None:
    """Raise a `TypeError` naming the type of `rules` unless it is a `Rules` value."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")


def variant_names() -> tuple[str, ...]:
    """The names of the presets, without their aliases."""
    return tuple(_PRESETS)


def variant_aliases(name: str) -> tuple[str, ...]:
    """The other names [`find_variant`][scopa.find_variant] accepts for a preset.

    Raises:
        RulesError: no preset has that name.
    """
    return _PRESETS[find_variant(name).name][1]


def find_variant(name: str) -> Rules:
    """The preset rules called `name` or one of its aliases.

    Case does not matter, and `_`, `-`, `'` and a space are the same (`"Scopa d'assi"`
    is `scopa-d-assi`). The presets are those of [`variant_names`][scopa.variant_names]:

    - `classic`: 2 players, 11 points, Ace = 16 in primiera, a side lacking a suit cannot
      win primiera, a deal with 3 or more Kings on the table is annulled.
    - `tretre`: the tretre room's 2-player game: 9 points, Ace = 15, a missing suit counts
      0, 3+ Kings or four of a kind annul a deal, 30 seconds a move, brilli as stakes.
    - `scopa-3`, `scopa-4`, `scopa-6`: classic Scopa for 3 players each for self, 4 players
      in two pairs, 6 players in two teams of three.
    - `scopone`: 4 players in pairs, 9 cards each and 4 on the table, fewest-cards captures.
    - `scopone-scientifico`: as `scopone` with 10 cards each, an empty table, to 21.
    - `scopa-d-assi`, `scopa-d-assi-4`: an Ace takes the whole table, not as a scopa (an Ace
      on the table is taken alone); for 2, or 4 in pairs with 10 cards each.
    - `asso-piglia-tutto`, `asso-piglia-tutto-4`: the same, but the Ace's sweep is a scopa;
      with 4, the first play of a hand may not be an Ace.

    Raises:
        RulesError: no preset has that name; the message lists the known names.
    """
    key = str(name).strip().lower().translate(_SEPARATORS)
    if key not in _ALIASES:
        known = ", ".join(sorted(_ALIASES))
        raise RulesError(f"unknown variant {name!r}; known names: {known}")
    return _PRESETS[_ALIASES[key]][0]
