"""Rules as data: every knob of the game in one frozen value, and the named presets.

Examples:
    >>> rules = find_variant("classic")
    >>> rules.target, rules.capture_priority
    (11, CapturePriority.EQUAL_RANK_FIRST)
    >>> house = attrs.evolve(rules, target=21)
"""

from __future__ import annotations

import difflib
import math
import warnings
from collections.abc import Iterable
from enum import Enum
from typing import Any, Final

import attrs

from scopa._checks import check_number, flag, instance_of, int_in, is_int, label, quote
from scopa._in_play import ALL_RANKS, ALL_SUITS, in_play_mask, to_ranks, to_suits, why_out_of_play
from scopa.cards import Card, Rank, Suit
from scopa.errors import RulesError
from scopa.masks import RANK_MASKS, CardMask, mask_of
from scopa.scoring import (
    AssoDueTre,
    CardPoints,
    Carte,
    Declarations,
    Denari,
    Grande,
    MissingSuit,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    ReBello,
    Scope,
    ScoredOn,
    ScoringComponent,
    ScoringRules,
    Settebello,
)
from scopa.stakes import BrilliEconomy, Stakes

__all__ = [
    "MAX_MOVE_TIME_LIMIT",
    "MAX_TARGET",
    "AceOnAce",
    "CapturePriority",
    "CompulsoryCapture",
    "Family",
    "FirstTable",
    "Leftovers",
    "MisdealRule",
    "Preset",
    "Rules",
    "Tiebreak",
    "find_preset",
    "find_variant",
    "presets",
    "variant_aliases",
    "variant_names",
]

_KINGS: Final = RANK_MASKS[Rank.RE]
_ACES: Final = RANK_MASKS[Rank.ASSO]
_RANKS: Final = RANK_MASKS[1:]


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


class CompulsoryCapture(_Knob):
    """When a player must capture rather than lay a card down."""

    NONE = "none"
    """Never: any card may be laid down, even one that could capture."""
    PLAYED_CARD = "played-card"
    """A played card that can capture must capture; any card may be played (classic)."""
    CAPTURING_CARD = "capturing-card"
    """A player who holds a card that can capture must play such a card, and capture."""


class Leftovers(_Knob):
    """Who takes the cards left on the table at the end of a hand (never a scopa)."""

    LAST_CAPTURER = "last-capturer"
    """The last player who captured; they stay on the table if nobody has captured."""
    DEALER = "dealer"
    """The dealer, who made the last play."""
    NOBODY = "nobody"
    """Nobody: they stay on the table, and nobody scores them."""


class AceOnAce(_Knob):
    """What a sweeping Ace takes when an Ace is on the table (with `ace_captures_all`)."""

    TAKE_ACE_ONLY = "take-ace-only"
    """The equal-rank rule wins: the Ace takes one Ace, a scopa only if it was alone."""
    TAKE_ALL = "take-all"
    """The Ace still takes every card."""
    CAPTURE_NORMALLY = "capture-normally"
    """The Ace captures as any other card does: the Ace on the table, or a sum, or cards
    that make fifteen with it (Cirulla)."""


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

    def annuls_mask(self, table: CardMask | int) -> bool:
        """Whether a first table given as a [card mask][scopa.masks.CardMask] annuls the deal."""
        if self is MisdealRule.THREE_PLUS_KINGS:
            return (table & _KINGS).bit_count() >= 3
        if self is MisdealRule.TRETRE:
            return (table & _KINGS).bit_count() >= 3 or any(table & m == m for m in _RANKS)
        if self is MisdealRule.CIRULLA:
            return (table & _ACES).bit_count() >= 2
        return False


class FirstTable(_Knob):
    """What a first table whose cards add up to 15 or 30 does (Escoba, Cirulla).

    Such a table is swept at once by the dealer (or the eldest hand, with
    `first_table_to_eldest`): 15 is one scopa, 30 two, and the first player leads to an
    empty table. With a `matta` among the four cards, it counts whatever makes 15 or 30.
    """

    NOTHING = "nothing"
    """The first table is played like any other."""
    TOTAL = "total"
    """A total of 15 is one scopa, a total of 30 two (pagat's Escoba, Cirulla)."""
    TWO_GROUPS = "two-groups"
    """A total of 15 is one scopa; 30 is two only when the four cards split into two groups
    of 15 (some Spanish rooms)."""


class Tiebreak(_Knob):
    """How a match ends when several sides reach the target in the same hand."""

    PLAY_ON = "play-on"
    """The higher total wins; on an exact tie, complete hands are played until it breaks."""
    LAST_HAND_COUNTDOWN = "last-hand-countdown"
    """The points of the last hand are counted category by category, in the order carte,
    denari, settebello, primiera, the other categories, scope; the first side whose running
    total reaches the target wins (Parlett). Sides that reach it in the same category: the
    higher running total wins; a tie to the end plays on."""


MAX_TARGET = 1_000_000
"""The highest target a `Rules` accepts."""
MAX_MOVE_TIME_LIMIT = 86_400.0
"""The longest move time limit a `Rules` accepts, in seconds (a day)."""


def _sides(_: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and (not is_int(value) or not 2 <= value <= 40):  # type: ignore[operator]
        raise RulesError(f"sides must be an int from 2 to 40 or None, not {quote(value)}")


def _seconds(_: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (math.isfinite(value) and 0 < value <= MAX_MOVE_TIME_LIMIT)
    ):
        raise RulesError(
            f"move_time_limit must be a positive number of seconds up to "
            f"{MAX_MOVE_TIME_LIMIT:,.0f}, or None, not {quote(value)}"
        )


def _hashable(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    try:
        hash(value)
    except TypeError:
        raise RulesError(
            f"{attribute.name} must be hashable (a frozen attrs class, for instance)"
        ) from None


def _scoring(_: object, attribute: attrs.Attribute[ScoringRules], value: object) -> None:
    if not isinstance(value, ScoringRules):
        raise RulesError(f"scoring must be a ScoringRules, not {quote(value)}")
    _hashable(None, attribute, value)
    if all(isinstance(c, Scope) and c.value == 0 for c in value.components):
        raise RulesError("scoring gives no points at all, so a match could never end")


def _stakes(_: object, attribute: attrs.Attribute[Stakes | None], value: object) -> None:
    if value is not None and not isinstance(value, Stakes):
        raise RulesError(f"stakes must be a Stakes or None, not {quote(value)}")
    _hashable(None, attribute, value)


_DEPRECATED: Final = {
    "played_card_must_capture": "compulsory_capture (CompulsoryCapture.NONE for False)",
    "must_play_capturing_card_if_any": (
        "compulsory_capture (CompulsoryCapture.CAPTURING_CARD for True)"
    ),
    "leftovers_to_last_capturer": "leftovers (Leftovers.NOBODY for False)",
}
"""The deprecated knobs of `Rules`, each with the knob to use instead."""


def _deprecated_flag(_: object, attribute: attrs.Attribute[bool | None], value: object) -> None:
    if value is not None and not isinstance(value, bool):
        raise RulesError(f"{attribute.alias} must be True or False, not {quote(value)}")


def _warn_deprecated(name: str, *, stacklevel: int) -> None:
    warnings.warn(
        f"Rules.{name} is deprecated: use {_DEPRECATED[name]}",
        DeprecationWarning,
        stacklevel=stacklevel + 1,
    )


def _upgraded_knobs(rules: Rules, old: dict[str, bool]) -> dict[str, Any]:
    """The knobs that replace the deprecated knobs `old`, changed from those of `rules`.

    A knob not given keeps the value that the rules' knobs give it: `played_card_must_capture`
    is on under any compulsory capture but `NONE`. Holding a card that can capture must be
    played then, with or without `played_card_must_capture`: both give the same moves.
    """
    for name, value in old.items():
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be True or False, not {quote(value)}")
    knobs: dict[str, Any] = {}
    compulsory = rules.compulsory_capture
    played = old.get("played_card_must_capture", compulsory is not CompulsoryCapture.NONE)
    capturing = old.get(
        "must_play_capturing_card_if_any", compulsory is CompulsoryCapture.CAPTURING_CARD
    )
    if "played_card_must_capture" in old or "must_play_capturing_card_if_any" in old:
        if capturing:
            knobs["compulsory_capture"] = CompulsoryCapture.CAPTURING_CARD
        elif played:
            knobs["compulsory_capture"] = CompulsoryCapture.PLAYED_CARD
        else:
            knobs["compulsory_capture"] = CompulsoryCapture.NONE
    if "leftovers_to_last_capturer" in old:
        to_capturer = old["leftovers_to_last_capturer"]
        knobs["leftovers"] = Leftovers.LAST_CAPTURER if to_capturer else Leftovers.NOBODY
    return knobs


def _why_pointless(rules: Rules) -> str | None:
    """Why no scoring category can ever give a point under `rules`, or `None` if one can.

    Scope need a capture (or a first table swept at once); captured cards need one too,
    or an Ace laid on an empty table going to its player's pile, which needs a hand dealt
    with no table. Declared points need `declarations`. A category of your own may always
    give points.
    """
    sweeps = rules.capture_by_rank or rules.capture_by_sum or rules.capture_to_fifteen
    sweeps = sweeps or rules.ace_captures_all
    sweeps = sweeps or (rules.first_table is not FirstTable.NOTHING and rules.table_size >= 2)
    taken = sweeps or (rules.ace_on_empty_table_captures_itself and rules.table_size == 0)
    reasons: dict[str, None] = {}  # in order, once each
    for component in rules.scoring.components:
        scored_on = getattr(component, "scored_on", None)
        if scored_on is ScoredOn.SCOPE:
            if sweeps and (not isinstance(component, Scope) or component.value):
                return None
            if sweeps:
                reasons[f"{component.name!r} gives 0 points a scopa"] = None
        elif scored_on is ScoredOn.CARDS:
            if taken:
                return None
        elif scored_on is ScoredOn.DECLARATIONS:
            if rules.declarations:
                return None
            reasons[f"{component.name!r} counts declared points and declarations is off"] = None
        else:
            return None
    if not sweeps:
        reasons[
            "no card can ever be captured, with capture_by_rank, capture_by_sum, "
            "capture_to_fifteen, ace_captures_all and first_table all off"
        ] = None
    return "; ".join(reasons)


@attrs.frozen(cache_hash=True, repr=False)
class Rules:
    """The complete rules of a game: capturing, dealing, end of hand, scoring and target.

    Build one from a preset with [`find_variant`][scopa.find_variant] and change knobs with
    `attrs.evolve(rules, knob=value)`. The `name` is a label: it takes no part in equality.
    """

    name: str = attrs.field(default="custom", eq=False, validator=label)
    """A label: the preset's name, or anything you like (1 to 64 printable characters
    without markup characters)."""
    players: int = attrs.field(default=2, validator=int_in(2, 40))
    """The number of players, seated counter-clockwise in number order."""
    sides: int | None = attrs.field(default=None, validator=_sides)
    """The number of sides (`None`: each player for self). Player `p` plays for side
    `p % sides`, so partners sit alternately (with 4 players and 2 sides, 0 and 2 against
    1 and 3). A side pools its players' captures and scope for scoring."""
    hand_size: int = attrs.field(default=3, validator=int_in(1, 40))
    """Cards dealt to each player at every deal."""
    table_size: int = attrs.field(default=4, validator=int_in(0, 40))
    """Cards dealt face up to the table at the first deal of a hand."""
    ranks: tuple[Rank, ...] = attrs.field(default=ALL_RANKS, converter=to_ranks)
    """The ranks in play (ints or `Rank`s, kept sorted): with `suits`, the cards in play.

    The cards of other ranks are set aside before dealing. Cards keep their index, so
    masks and encodings keep their sizes. Dealing must fit the cards in play, and rules that
    name cards out of play are refused (a settebello without the 7 of denari, a napola
    without the Ace, 2 and 3 of denari, a misdeal rule that annuls every first table…)."""
    suits: tuple[Suit, ...] = attrs.field(default=ALL_SUITS, converter=to_suits)
    """The suits in play (ints or `Suit`s, kept sorted); see `ranks`. Primiera then needs
    a card of every suit in play, and the "most" categories count the cards in play."""
    capture_by_rank: bool = attrs.field(default=True, validator=flag)
    """A played card may take one table card of equal rank."""
    capture_by_sum: bool = attrs.field(default=True, validator=flag)
    """A played card may take two or more table cards whose ranks add up to its rank."""
    capture_to_fifteen: bool = attrs.field(default=False, validator=flag)
    """A played card may take table cards that add up to 15 with it (one or more cards: a 7
    takes an 8, or a 3 and a 5). Such captures are offered beside the captures by rank and
    by sum, whatever the `capture_priority`, which rules only those (Escoba, Cirulla)."""
    capture_priority: CapturePriority = attrs.field(
        default=CapturePriority.EQUAL_RANK_FIRST,
        validator=instance_of(CapturePriority, "a CapturePriority"),
    )
    """Which of the possible captures are allowed."""
    compulsory_capture: CompulsoryCapture = attrs.field(
        default=CompulsoryCapture.PLAYED_CARD,
        validator=instance_of(CompulsoryCapture, "a CompulsoryCapture"),
    )
    """When a player must capture: a played card that can capture must (the default), a
    player who can capture must play a card that does, or never."""
    ace_captures_all: bool = attrs.field(default=False, validator=flag)
    """A played Ace takes every card on the table (scopa d'assi, asso piglia tutto)."""
    ace_sweep_is_scopa: bool = attrs.field(default=True, validator=flag)
    """Whether a sweep by an Ace taking every card counts as a scopa (off in scopa d'assi)."""
    ace_with_ace_on_table: AceOnAce = attrs.field(
        default=AceOnAce.TAKE_ACE_ONLY, validator=instance_of(AceOnAce, "an AceOnAce")
    )
    """With `ace_captures_all`, what an Ace takes when an Ace is on the table."""
    ace_on_empty_table_captures_itself: bool = attrs.field(default=False, validator=flag)
    """An Ace played on an empty table goes to its player's pile (no scopa), whether or not
    Aces sweep."""
    first_table: FirstTable = attrs.field(
        default=FirstTable.NOTHING, validator=instance_of(FirstTable, "a FirstTable")
    )
    """Whether a first table of 15 or 30 is swept at once for one or two scope."""
    first_table_to_eldest: bool = attrs.field(default=False, validator=flag)
    """Whether the eldest hand, not the dealer, sweeps such a first table."""
    matta: Card | None = attrs.field(
        default=None, validator=attrs.validators.optional(instance_of(Card, "a Card"))
    )
    """A wild card for declarations and the first table, whose value its holder chooses
    (Cirulla: the 7 of coppe); in play and in scoring it is itself."""
    declarations: bool = attrs.field(default=False, validator=flag)
    """Whether a player may declare a hand at the first play of each deal (Cirulla): a hand
    of three cards adding up to less than 10 (*busso*, 3 points) or three of a kind
    (*tris*, 10 points). The declared hand is shown to everyone."""
    ace_first_lead_forbidden: bool = attrs.field(default=False, validator=flag)
    """The first play of a hand may not be an Ace unless the player holds only Aces
    (the *regola del vile*), whether or not Aces sweep."""
    scopa_on_last_play: bool = attrs.field(default=False, validator=flag)
    """Whether emptying the table on the very last play of the hand scores a scopa."""
    leftovers: Leftovers = attrs.field(
        default=Leftovers.LAST_CAPTURER, validator=instance_of(Leftovers, "a Leftovers")
    )
    """Who takes the cards left on the table at the end of a hand: the last player who
    captured (the default), the dealer, or nobody. Taking them is never a scopa."""
    misdeal: MisdealRule = attrs.field(
        default=MisdealRule.THREE_PLUS_KINGS, validator=instance_of(MisdealRule, "a MisdealRule")
    )
    """Which first tables annul the deal."""
    target: int = attrs.field(default=11, validator=int_in(1, MAX_TARGET))
    """The points that win a match (applied by the match layer, not within a hand)."""
    tiebreak: Tiebreak = attrs.field(
        default=Tiebreak.PLAY_ON, validator=instance_of(Tiebreak, "a Tiebreak")
    )
    """What happens when several sides reach the target in the same hand (match layer)."""
    lowest_total_wins: bool = attrs.field(default=False, validator=flag)
    """Whether the match is lost by reaching the target (Scopa a perdere): it ends as it
    would, and the side with the lowest total wins."""
    claim_out: bool = attrs.field(default=False, validator=flag)
    """Whether a player may claim, with a play, that their side has reached the target: a
    correct claim wins the match at once, a false claim loses it (match layer)."""
    scoring: ScoringRules = attrs.field(factory=ScoringRules.standard, validator=_scoring)
    """The scoring categories of a hand; at least one of them must be able to give points
    under the other knobs (scope and captured cards need a way to capture, declared points
    `declarations`), or no match could end."""
    move_time_limit: float | None = attrs.field(default=None, validator=_seconds)
    """Seconds allowed for a move; a player who takes longer abandons (`None`: no limit).

    The library holds no clock: see [`Match.apply`][scopa.Match.apply]."""
    stakes: Stakes | None = attrs.field(default=None, validator=_stakes)
    """What a match is played for, such as the tretre brilli (`None`: nothing)."""
    # The deprecated knobs, accepted under their old names (a DeprecationWarning) and turned
    # into the knobs above; they keep nothing, take no part in equality and are not shown.
    _played_card_must_capture: bool | None = attrs.field(
        default=None, eq=False, repr=False, validator=_deprecated_flag
    )
    _must_play_capturing_card_if_any: bool | None = attrs.field(
        default=None, eq=False, repr=False, validator=_deprecated_flag
    )
    _leftovers_to_last_capturer: bool | None = attrs.field(
        default=None, eq=False, repr=False, validator=_deprecated_flag
    )

    def __attrs_post_init__(self) -> None:
        self._take_deprecated_knobs()
        if self.declarations and self.hand_size != 3:
            raise RulesError(f"declarations need hands of 3 cards, not {self.hand_size}")
        if self.lowest_total_wins and (self.claim_out or self.tiebreak is not Tiebreak.PLAY_ON):
            raise RulesError(
                "a match where the lowest total wins has no claims and plays on at a tie"
            )
        sides = self.number_of_sides
        if self.players % sides:
            raise RulesError(f"{self.players} players cannot form {sides} equal sides")
        out_of_play = why_out_of_play(self)
        if out_of_play is not None:
            cards = (
                "" if self.deck_size == 40 else f", with the cards of {_in_play_text(self)} in play"
            )
            raise RulesError(f"{out_of_play}{cards}")
        largest = _largest_accepted_table(self)
        if largest is not None and largest < self.table_size:
            raise RulesError(
                f"the misdeal rule {self.misdeal.name} annuls every first table of "
                f"{self.table_size} cards, with the cards of {_in_play_text(self)} in play"
            )
        pointless = _why_pointless(self)
        if pointless is not None:
            raise RulesError(
                f"no scoring category can ever give a point, so a match could never end: "
                f"{pointless}"
            )

    def __repr__(self) -> str:
        preset = _PRESETS.get(self.name)
        if preset is not None and preset.rules == self:
            return f"find_variant('{self.name}')"
        fields = ", ".join(
            f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(Rules) if a.repr
        )
        return f"Rules({fields})"

    def _take_deprecated_knobs(self) -> None:
        """Turn the deprecated knobs given into the knobs that replace them, and forget them."""
        given = {name: getattr(self, f"_{name}") for name in _DEPRECATED}
        given = {name: value for name, value in given.items() if value is not None}
        for name, value in _upgraded_knobs(self, given).items():
            object.__setattr__(self, name, value)
        for name in given:
            _warn_deprecated(name, stacklevel=4)  # the caller of Rules(...)
            object.__setattr__(self, f"_{name}", None)

    @property
    def played_card_must_capture(self) -> bool:
        """Deprecated: read `compulsory_capture` (this knob, when given, warns).

        Whether a played card that can capture must capture (under any rule but
        `CompulsoryCapture.NONE`).
        """
        return self.compulsory_capture is not CompulsoryCapture.NONE

    @property
    def must_play_capturing_card_if_any(self) -> bool:
        """Deprecated: read `compulsory_capture` (this knob, when given, warns).

        Whether a player who can capture must play a card that does
        (`CompulsoryCapture.CAPTURING_CARD`).
        """
        return self.compulsory_capture is CompulsoryCapture.CAPTURING_CARD

    @property
    def leftovers_to_last_capturer(self) -> bool:
        """Deprecated: read `leftovers` (this knob, when given, warns).

        Whether the cards left at the end go to the last player who captured
        (`Leftovers.LAST_CAPTURER`).
        """
        return self.leftovers is Leftovers.LAST_CAPTURER

    @property
    def number_of_sides(self) -> int:
        """How many sides score: `sides`, or the number of players."""
        return self.players if self.sides is None else self.sides

    def side_of(self, player: int) -> int:
        """The side a player plays for.

        Raises:
            RulesError: `player` is not a player number.
            TypeError: `player` is not an int.
        """
        return check_number(player, self.players, "player", RulesError) % self.number_of_sides

    @property
    def in_play_mask(self) -> CardMask:
        """The [card mask][scopa.masks.CardMask] of the cards in play (`ranks` x `suits`)."""
        return in_play_mask(self.ranks, self.suits)

    @property
    def deck_size(self) -> int:
        """How many cards are in play: 40 unless `ranks` or `suits` leave some out."""
        return len(self.ranks) * len(self.suits)

    @property
    def deals_per_hand(self) -> int:
        """How many times cards are dealt to the players in one hand."""
        return self.plays_per_hand // (self.players * self.hand_size)

    @property
    def plays_per_hand(self) -> int:
        """How many cards are played in one hand."""
        return self.deck_size - self.table_size


def _largest_accepted_table(rules: Rules) -> int | None:
    """The most cards in play a first table may hold that the misdeal rule does not annul.

    `None`: any number (the rule annuls no table).
    """
    misdeal = rules.misdeal
    if misdeal is MisdealRule.NONE:
        return None
    kings, aces, others = {  # the cards of a rank an accepted table may hold
        MisdealRule.THREE_PLUS_KINGS: (2, 4, 4),
        MisdealRule.TRETRE: (2, 3, 3),
        MisdealRule.CIRULLA: (4, 1, 4),
    }[misdeal]
    per_rank = {Rank.RE: kings, Rank.ASSO: aces}
    suits = len(rules.suits)
    return sum(min(suits, per_rank.get(rank, others)) for rank in rules.ranks)


def _in_play_text(rules: Rules) -> str:
    """The cards in play, for an error message: `ranks 1,2,3 of suits D,C`."""
    ranks = ",".join(str(int(rank)) for rank in rules.ranks)
    return f"ranks {ranks} of suits {','.join(suit.letter for suit in rules.suits)}"


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


def _with_bonus(name: str, *bonuses: ScoringComponent, base: Rules = _CLASSIC) -> Rules:
    """A preset: the base rules with bonus components scored after the others."""
    scoring = base.scoring
    for bonus in bonuses:
        scoring = scoring.with_component(bonus)
    return attrs.evolve(base, name=name, scoring=scoring)


_ESCOBA_SCORING = ScoringRules(
    (
        Scope(name="escobas"),
        Carte(name="cartas"),
        Denari(name="oros"),
        Settebello(name="siete de velo"),
        Primiera(rule=PrimieraRule.BEST_CARDS, name="setenta"),
    )
)
_ESCOBA = Rules(
    name="escoba",
    misdeal=MisdealRule.NONE,
    first_table=FirstTable.TOTAL,
    target=21,
    scoring=_ESCOBA_SCORING,
    capture_by_rank=False,
    capture_by_sum=False,
    capture_to_fifteen=True,
)
_CIRULLA = Rules(
    name="cirulla",
    capture_priority=CapturePriority.MIN_CARDS,
    capture_to_fifteen=True,
    ace_captures_all=True,
    ace_with_ace_on_table=AceOnAce.CAPTURE_NORMALLY,
    misdeal=MisdealRule.CIRULLA,
    first_table=FirstTable.TOTAL,
    matta=Card(Rank.SETTE, Suit.COPPE),
    declarations=True,
    target=51,
    scoring=ScoringRules.standard()
    .with_component(Declarations())
    .with_component(Napola(name="piccola", napoleone_wins_match=True, most=6))
    .with_component(Grande()),
)

_MINI = Rules(
    name="scopa-mini",
    ranks=(Rank.ASSO, Rank.SEI, Rank.SETTE),
    suits=(Suit.DENARI, Suit.COPPE),
    hand_size=2,
    table_size=2,
    misdeal=MisdealRule.NONE,
)
_COPERTA = Rules(
    name="scopa-coperta",
    ranks=(Rank.ASSO, Rank.CINQUE, Rank.SEI, Rank.SETTE),
    suits=(Suit.DENARI, Suit.COPPE),
    hand_size=2,
    table_size=0,
    misdeal=MisdealRule.NONE,
)

_BGA_HELP = "<https://en.doc.boardgamearena.com/Gamehelpscopa>"
_BGA_SOURCE = "<https://github.com/PiratJack/bga-scopa/blob/master/scopa.game.php>"
_BGA_OPTIONS = "<https://github.com/PiratJack/bga-scopa/blob/master/gameoptions.inc.php>"
_PAGAT_SCOPONE = "<https://www.pagat.com/fishing/scopone.html>"
_PAGAT_ESCOBA = "<https://www.pagat.com/fishing/escoba.html>"
_BGA_KINGS = (
    "The deal of Board Game Arena's Scopa, which redeals a first table of three or four "
    f"Kings in every variant that lays one, in its published source: {_BGA_SOURCE}."
)


def _bga(variant: str) -> str:
    return f'"Scopa", the game help of Board Game Arena, which has {variant}: {_BGA_HELP}.'


_BGA_OPTIONS_SOURCE = (
    f"The game options of Board Game Arena's Scopa, in its published source: {_BGA_OPTIONS}."
)


class Family(Enum):
    """A family of presets, as the site's pages group them."""

    SCOPA = "Scopa"
    """Classic Scopa and its forms for more players."""
    SCOPONE = "Scopone"
    """Four players in pairs, with the whole deck or most of it dealt at once."""
    ACE_SWEEPS = "Scopa d'assi, asso piglia tutto"
    """An Ace takes the whole table."""
    FIFTEENS = "Fifteens"
    """Captures that make fifteen with the played card."""
    BONUSES = "Bonuses and endings"
    """Classic Scopa with other scoring or another way to end the match."""
    SMALL = "Small enough to solve"
    """Few cards in play, for exact methods."""

    def __repr__(self) -> str:
        return f"Family.{self.name}"


@attrs.frozen
class Preset:
    """A named preset: its rules and what is said of them, in one place.

    [`find_variant`][scopa.find_variant] returns its rules, the site's pages and tables are
    drawn from it, and [`find_preset`][scopa.find_preset] returns it whole.

    Examples:
        >>> escoba = find_preset("Escoba del 15")
        >>> escoba.name, escoba.family, escoba.rules.target
        ('escoba', Family.FIFTEENS, 21)
    """

    rules: Rules
    """The rules; their `name` is the preset's name."""
    aliases: tuple[str, ...]
    """The other names it answers to, in the form [`find_variant`][scopa.find_variant]
    compares: lower case, words joined by `-`."""
    family: Family
    """The family it belongs to."""
    summary: str
    """The game in a sentence or two (Markdown)."""
    sources: tuple[str, ...] = ()
    """The published rules it follows, each a short description and its address
    (Markdown); none for a game only this library defines or for one that follows the
    rules page."""

    @property
    def name(self) -> str:
        """The preset's name (its rules' `name`)."""
        return self.rules.name


_PRESET_LIST: Final = (
    Preset(
        _CLASSIC,
        ("scopa", "scopetta", "classica", "standard", "scopa-2"),
        Family.SCOPA,
        "Scopa for two, to 11: the game of the rules page, with every knob at its default.",
    ),
    Preset(
        _TRETRE,
        ("scopa-tretre", "tretre-2"),
        Family.SCOPA,
        "The two-player game of the tretre room: to 9, Ace 15 in primiera and a missing suit "
        "0, four of a kind annul a deal too, 30 seconds a move, brilli as stakes.",
    ),
    Preset(
        Rules(name="scopa-3", players=3),
        ("scopa-a-3", "scopa-a-tre", "scopa-3-giocatori"),
        Family.SCOPA,
        "Classic Scopa for three, each for self.",
    ),
    Preset(
        Rules(name="scopa-4", players=4, sides=2),
        ("scopa-a-4", "scopa-a-coppie", "scopa-in-coppia"),
        Family.SCOPA,
        "Classic Scopa for four, in two pairs.",
    ),
    Preset(
        Rules(name="scopa-6", players=6, sides=2),
        ("scopa-a-6", "scopa-a-sei"),
        Family.SCOPA,
        "Classic Scopa for six, in two teams of three.",
    ),
    Preset(
        _SCOPONE,
        ("scopone-9", "scopone-a-9-carte", "scopone-a-nove-carte", "scopone-classico"),
        Family.SCOPONE,
        "Four in pairs, nine cards each and four on the table; a card takes the fewest "
        "table cards it can.",
    ),
    Preset(
        attrs.evolve(
            _SCOPONE,
            name="scopone-scientifico",
            hand_size=10,
            table_size=0,
            misdeal=MisdealRule.NONE,
            target=21,
        ),
        ("scopone-10", "scopone-a-10-carte", "scopone-a-dieci-carte", "scientifico"),
        Family.SCOPONE,
        "The scopone with ten cards each and an empty table, to 21.",
    ),
    Preset(
        _SCOPA_D_ASSI,
        ("scopa-assi", "scopa-d-assi-2", "scopa-dassi"),
        Family.ACE_SWEEPS,
        "An Ace takes the whole table, but its sweep is not a scopa; an Ace on the table is "
        "taken alone.",
    ),
    Preset(
        _for_four(_SCOPA_D_ASSI, "scopa-d-assi-4"),
        ("scopa-assi-4", "scopa-dassi-4"),
        Family.ACE_SWEEPS,
        "Scopa d'assi for four in pairs, ten cards each and an empty table.",
    ),
    Preset(
        _ASSO_PIGLIA_TUTTO,
        (
            "asso-pigliatutto",
            "asso-piglia-tutto-2",
            "pigliatutto",
            "asso-piglia-tutto-tradizionale",
        ),
        Family.ACE_SWEEPS,
        "An Ace takes the whole table, and its sweep is a scopa; an Ace on the table is "
        "taken alone.",
    ),
    Preset(
        attrs.evolve(
            _for_four(_ASSO_PIGLIA_TUTTO, "asso-piglia-tutto-4"), ace_first_lead_forbidden=True
        ),
        ("asso-pigliatutto-4",),
        Family.ACE_SWEEPS,
        "Asso piglia tutto for four in pairs, ten cards each; the first play of a hand may "
        "not be an Ace.",
    ),
    Preset(
        attrs.evolve(
            _ASSO_PIGLIA_TUTTO,
            name="asso-piglia-tutto-semplice",
            ace_with_ace_on_table=AceOnAce.TAKE_ALL,
            misdeal=MisdealRule.THREE_PLUS_KINGS,
        ),
        ("asso-piglia-tutto-semplificato", "asso-pigliatutto-semplice"),
        Family.ACE_SWEEPS,
        "An Ace takes the whole table even with an Ace on it, and its sweep is a scopa; "
        "three or more Kings on the first table annul a deal, as in `classic`.",
        (
            '"Scopa", the game help of Board Game Arena, which plays the simplified and the '
            f"traditional asso piglia tutto: {_BGA_HELP}.",
            _BGA_KINGS,
            f'"Scopone" (with Scopa d\'Assi), pagat.com: {_PAGAT_SCOPONE}.',
            '"Regole Asso Piglia Tutto", GiochiStars: '
            "<https://giochistars.it/asso-piglia-tutto/regole-gioco/>.",
            '"Asso Piglia Tutto: le regole", Al Quinto Piano: <https://www.alquintopiano.it/'
            "giochi/asso-piglia-tutto-le-regole-di-uno-dei-giochi-piu-amati>.",
        ),
    ),
    Preset(
        _with_bonus("napola", Napola(napoleone_wins_match=True)),
        ("scopa-napola", "napoletana", "napula", "scopa-con-napola"),
        Family.BONUSES,
        "Classic Scopa with the napola, the run of denari from the Ace; all ten win the match.",
        (
            '"Varianti della Scopa", Digitalmoka: '
            "<https://www.digitalmoka.com/varianti-scopa-quali-sono>.",
            '"Spunti", a page of Italian card-game rules (the napoleone ends the game): '
            "<http://xoomer.virgilio.it/jmpcav/carte/spunti.htm>.",
            '"Scopa", spazioinwind: <http://spazioinwind.libero.it/carte/scopa.htm>.',
            '"Scopone", pagat.com (the napoli of the scopone of Trento, and other additions): '
            f"{_PAGAT_SCOPONE}.",
            _bga("Napola as a variant and as an option of every variant"),
        ),
    ),
    Preset(
        _with_bonus("re-bello", ReBello()),
        ("scopa-re-bello", "rebello"),
        Family.BONUSES,
        "Classic Scopa with a point for the King of denari.",
        (
            f'"Scopone", pagat.com (the re bello among the additions to Scopa): {_PAGAT_SCOPONE}.',
            _bga("Re bello as a variant"),
        ),
    ),
    Preset(
        _with_bonus("il-ponino", Ponino()),
        ("ponino", "scopa-ponino"),
        Family.BONUSES,
        "Classic Scopa where the four Cavalli double a side's scope.",
        (_bga("Il Ponino as a variant"), _BGA_OPTIONS_SOURCE),
    ),
    Preset(
        attrs.evolve(
            _CLASSIC,
            name="scopa-a-15",
            capture_by_rank=False,
            capture_by_sum=False,
            capture_to_fifteen=True,
        ),
        ("scopa-a-quindici", "scopa-di-quindici", "scopa-15", "quindici"),
        Family.FIFTEENS,
        "A card takes the cards that make 15 with it, and nothing else; three or more Kings "
        "on the first table annul a deal, as in `classic`.",
        (
            '"Scopone", pagat.com (Scopa di Quindici among the games of the family): '
            f"{_PAGAT_SCOPONE}.",
            '"Come si gioca a Quindici", GiocoDigitale: <https://www.giocodigitale.it/it/blog/'
            "giochi/come-si-gioca-a-quindici-regole-e-variante-della-scopa-tradizionale>.",
            '"Scopa a 15", Digitalmoka: <https://digitalmoka.com/scopa-a-15>.',
            _bga("Scopa a Quindici as a variant"),
            _BGA_KINGS,
        ),
    ),
    Preset(
        _ESCOBA,
        ("escoba-de-15", "escoba-del-15", "escoba-de-quince", "escoba-15"),
        Family.FIFTEENS,
        "The Spanish game to 21: fifteens, a first table of 15 or 30 swept by the dealer, "
        "escobas, cartas, oros, the siete de velo and the setenta.",
        (
            f'"Escoba", pagat.com: {_PAGAT_ESCOBA}.',
            '"Escoba", Wikipedia: <https://en.wikipedia.org/wiki/Escoba>.',
            '"Escoba del 15: reglas", Magnojuegos: '
            "<https://magnojuegos.com/escoba-del-15-online/reglas>.",
            '"Reglas de la Escoba", Mundijuegos: '
            "<https://mundijuegos.com.co/multijugador/escoba/reglas>.",
            '"Rules of Escoba", Playjoy: <https://playjoy.com/en/escoba/rules/>.',
            '"Escoba", Melele: <https://www.melele.es/escoba.html>.',
            _bga("Escoba as a variant"),
            "The scoring of Board Game Arena's Scopa (the primiera summed for Escoba, and the "
            f"point for the sevens), in its published source: {_BGA_SOURCE}.",
            '"Escoba del Chorizo", Entre Todos (the setenta of the escoba del 15: the most '
            "sevens, then sixes, Aces and fives): <https://entretodos.com.uy/chorizo/>.",
        ),
    ),
    Preset(
        attrs.evolve(
            _ESCOBA,
            name="escoba-sin-setenta",
            scoring=_ESCOBA_SCORING.without("setenta").with_component(
                Primiera(rule=PrimieraRule.MOST_SEVENS, name="sietes", all_sevens=1)
            ),
        ),
        ("escoba-without-prime", "escoba-sin-prime", "escoba-senza-primiera"),
        Family.FIFTEENS,
        "Escoba with a point for the most sevens (none on a tie), and one more for all four, "
        "in place of the setenta.",
        (
            _bga("Escoba without Prime as a variant"),
            "The variants and the scoring of Board Game Arena's Scopa, in its published "
            f'source: {_BGA_OPTIONS} ("Extra point for capturing most sevens and all of the '
            f'sevens") and {_BGA_SOURCE}.',
            f'"Escoba", pagat.com (the Escoba it is taken from): {_PAGAT_ESCOBA}.',
        ),
    ),
    Preset(
        _CIRULLA,
        ("cirulla-genovese", "cirulla-ligure"),
        Family.FIFTEENS,
        "To 51: a card takes the fewest table cards it can, or a fifteen; the Ace sweeps "
        "unless an Ace is on the table; declarations with the matta (the 7 of coppe), "
        "piccola (up to 6) and grande; all ten denari win.",
        (
            '"Cirulla", pagat.com: <https://www.pagat.com/fishing/cirulla.html>.',
            '"Cirulla", Wikipedia: <https://it.wikipedia.org/wiki/Cirulla>.',
            "*The Penguin Book of Card Games*, the section on Cirulla.",
            '"Cirulla", Regole del gioco: '
            "<https://www.regoledelgioco.com/giochi-di-carte/cirulla>.",
            '"Cirulla", sbiro.eu: <https://sbiro.eu/eng/cirulla>.',
            '"Cirulla", spazioinwind: <http://spazioinwind.libero.it/carte/cirulla.htm>.',
            '"Cirulla Fishing Game Rules", Fishing Card Games: '
            "<https://www.fishingcardgames.com/cirulla-fishing-game.htm>.",
            '"La Cirulla", the7thseacomix: <https://the7thseacomix.altervista.org/la-cirulla/>.',
            _bga("Cirulla as a variant"),
            "The scoring of Board Game Arena's Cirulla, whose piccola stops at the 6 of denari "
            f'("A+2+3+4+5+6 is worth 6"), in its published source: {_BGA_SOURCE}.',
        ),
    ),
    Preset(
        _with_bonus("scopone-de-trente", AssoDueTre(), base=attrs.evolve(_SCOPONE, target=21)),
        ("scopone-di-trente", "scopone-trente"),
        Family.SCOPONE,
        "Scopone to 21 where the Ace, 2 and 3 of denari score 1, 2 and 3; all three win the match.",
        (_bga("Scopone de Trente as a variant"), _BGA_OPTIONS_SOURCE),
    ),
    Preset(
        _with_bonus(
            "scopone-trentino",
            Napola(napoleone_wins_match=True),
            base=attrs.evolve(
                _SCOPONE, hand_size=10, table_size=0, misdeal=MisdealRule.NONE, target=21
            ),
        ),
        ("scopone-di-trento", "scopone-trento"),
        Family.SCOPONE,
        "Scopone with ten cards each and the napola, to 21; all ten denari win the match.",
        (f'"Scopone", pagat.com (the Trentino variant): {_PAGAT_SCOPONE}.',),
    ),
    Preset(
        attrs.evolve(_CLASSIC, name="scopa-a-perdere", target=21, lowest_total_wins=True),
        ("scopa-perdere", "a-perdere", "scopa-perdente"),
        Family.BONUSES,
        "The match ends as a match to 21 does, and the lowest total wins.",
        (
            _bga("Scopa a perdere as a variant"),
            '"desescoba", Diclib: <https://diclib.com/es/Diccionario%20español/desescoba>.',
        ),
    ),
    Preset(
        attrs.evolve(
            _CLASSIC,
            name="scopa-frac",
            capture_priority=CapturePriority.FREE,
            scoring=ScoringRules((CardPoints(name="frac"),)),
        ),
        ("frac", "scopa-frack"),
        Family.BONUSES,
        "Only the Aces and figures score, a point each; any capture may be taken.",
        (_bga("Scopa Frac as a variant"), _BGA_OPTIONS_SOURCE),
    ),
    Preset(
        _MINI,
        ("mini", "scopa-6-carte", "mini-scopa"),
        Family.SMALL,
        "Six cards (Ace, 6 and 7 of denari and coppe), two each and two on the table: small "
        "enough to solve.",
    ),
    Preset(
        _COPERTA,
        ("coperta", "scopa-8-carte", "scopa-a-carte-coperte"),
        Family.SMALL,
        "Eight cards (Ace, 5, 6 and 7 of denari and coppe), two each twice and no table: the "
        "other's hand and the stock are hidden until the second deal; small enough to solve.",
    ),
)
_SEPARATORS = str.maketrans("_ '", "---")


def _index(presets: Iterable[Preset]) -> tuple[dict[str, Preset], dict[str, str]]:
    """The presets by name, and the name of each name and alias.

    Raises:
        RulesError: a name or alias is given twice, or not in the form names are compared in.
    """
    by_name: dict[str, Preset] = {}
    names: dict[str, str] = {}
    for preset in presets:
        by_name[preset.name] = preset
        for alias in (preset.name, *preset.aliases):
            if alias in names or alias != alias.lower().translate(_SEPARATORS):
                raise RulesError(f"the preset name {alias!r} is given twice or not in lower case")
            names[alias] = preset.name
    return by_name, names


_PRESETS, _ALIASES = _index(_PRESET_LIST)


def presets() -> tuple[Preset, ...]:
    """Every preset, in the order of [`variant_names`][scopa.variant_names].

    Examples:
        >>> [preset.name for preset in presets() if preset.family is Family.SCOPONE]
        ['scopone', 'scopone-scientifico', 'scopone-de-trente', 'scopone-trentino']
    """
    return _PRESET_LIST


def variant_names() -> tuple[str, ...]:
    """The names of the presets, without their aliases."""
    return tuple(_PRESETS)


def variant_aliases(name: str) -> tuple[str, ...]:
    """The other names [`find_variant`][scopa.find_variant] accepts for a preset.

    Raises:
        RulesError: no preset has that name.
        TypeError: `name` is not text.
    """
    return find_preset(name).aliases


def find_variant(name: str) -> Rules:
    """The preset rules called `name` or one of its aliases.

    Case does not matter, and `_`, `-`, `'` and a space are the same (`"Scopa d'assi"`
    is `scopa-d-assi`). The presets are those of [`variant_names`][scopa.variant_names];
    [`find_preset`][scopa.find_preset] gives what is said of each (its summary, aliases
    and sources), and each has a page on the site.

    Raises:
        RulesError: no preset has that name; the message suggests the closest name and
            lists the presets.
        TypeError: `name` is not text.
    """
    return find_preset(name).rules


def find_preset(name: str) -> Preset:
    """The preset called `name` or one of its aliases, whole: its rules, aliases and summary.

    The name is read as [`find_variant`][scopa.find_variant] reads it.

    Raises:
        RulesError: no preset has that name; the message suggests the closest name and
            lists the presets.
        TypeError: `name` is not text.
    """
    if not isinstance(name, str):
        raise TypeError(f"a variant name must be text, not {type(name).__name__}")
    key = name.strip().lower().translate(_SEPARATORS)
    if key not in _ALIASES:
        # A hint: the best match of the start of the name.
        close = difflib.get_close_matches(key[:64], _ALIASES, 1, 0.75)  # pragma: no mutate
        hint = f"did you mean {_ALIASES[close[0]]!r}? " if close else ""
        raise RulesError(
            f"unknown variant {quote(name)}; {hint}the presets are {', '.join(_PRESETS)}"
        )
    return _PRESETS[_ALIASES[key]]
