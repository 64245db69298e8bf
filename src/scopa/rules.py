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
    "FirstTable",
    "MisdealRule",
    "Rules",
    "Tiebreak",
    "find_variant",
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


# The library's categories that score captured cards, and those that score scope.
_CARD_CATEGORIES: Final = (
    Carte,
    Denari,
    Settebello,
    ReBello,
    Napola,
    Grande,
    AssoDueTre,
    CardPoints,
    Primiera,
)
_SCOPA_CATEGORIES: Final = (Scope, Ponino)


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
        if isinstance(component, _SCOPA_CATEGORIES):
            if sweeps and (not isinstance(component, Scope) or component.value):
                return None
            if sweeps:
                reasons[f"{component.name!r} gives 0 points a scopa"] = None
        elif isinstance(component, _CARD_CATEGORIES):
            if taken:
                return None
        elif isinstance(component, Declarations):
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
    played_card_must_capture: bool = attrs.field(default=True, validator=flag)
    """A played card that can capture must capture (any card may still be played)."""
    must_play_capturing_card_if_any: bool = attrs.field(default=False, validator=flag)
    """A player who holds a card that can capture must play such a card."""
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
    leftovers_to_last_capturer: bool = attrs.field(default=True, validator=flag)
    """Cards left on the table at the end go to the last player who captured (never a scopa).

    When off, they stay on the table and nobody scores them."""
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

    def __attrs_post_init__(self) -> None:
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
        if preset is not None and preset[0] == self:
            return f"find_variant('{self.name}')"
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(Rules))
        return f"Rules({fields})"

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
    "scopone": (
        _SCOPONE,
        ("scopone-9", "scopone-a-9-carte", "scopone-a-nove-carte", "scopone-classico"),
    ),
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
        (
            "asso-pigliatutto",
            "asso-piglia-tutto-2",
            "pigliatutto",
            "asso-piglia-tutto-tradizionale",
        ),
    ),
    "asso-piglia-tutto-4": (
        attrs.evolve(
            _for_four(_ASSO_PIGLIA_TUTTO, "asso-piglia-tutto-4"), ace_first_lead_forbidden=True
        ),
        ("asso-pigliatutto-4",),
    ),
    "asso-piglia-tutto-semplice": (
        attrs.evolve(
            _ASSO_PIGLIA_TUTTO,
            name="asso-piglia-tutto-semplice",
            ace_with_ace_on_table=AceOnAce.TAKE_ALL,
            misdeal=MisdealRule.THREE_PLUS_KINGS,
        ),
        ("asso-piglia-tutto-semplificato", "asso-pigliatutto-semplice"),
    ),
    "napola": (
        _with_bonus("napola", Napola(napoleone_wins_match=True)),
        ("scopa-napola", "napoletana", "napula", "scopa-con-napola"),
    ),
    "re-bello": (_with_bonus("re-bello", ReBello()), ("scopa-re-bello", "rebello")),
    "il-ponino": (_with_bonus("il-ponino", Ponino()), ("ponino", "scopa-ponino")),
    "scopa-a-15": (
        attrs.evolve(
            _CLASSIC,
            name="scopa-a-15",
            capture_by_rank=False,
            capture_by_sum=False,
            capture_to_fifteen=True,
        ),
        ("scopa-a-quindici", "scopa-di-quindici", "scopa-15", "quindici"),
    ),
    "escoba": (_ESCOBA, ("escoba-de-15", "escoba-del-15", "escoba-de-quince", "escoba-15")),
    "escoba-sin-setenta": (
        attrs.evolve(
            _ESCOBA,
            name="escoba-sin-setenta",
            scoring=_ESCOBA_SCORING.without("setenta").with_component(
                Primiera(rule=PrimieraRule.MOST_SEVENS, name="sietes", all_sevens=1)
            ),
        ),
        ("escoba-without-prime", "escoba-sin-prime", "escoba-senza-primiera"),
    ),
    "cirulla": (_CIRULLA, ("cirulla-genovese", "cirulla-ligure")),
    "scopone-de-trente": (
        _with_bonus("scopone-de-trente", AssoDueTre(), base=attrs.evolve(_SCOPONE, target=21)),
        ("scopone-di-trente", "scopone-trente"),
    ),
    "scopone-trentino": (
        _with_bonus(
            "scopone-trentino",
            Napola(napoleone_wins_match=True),
            base=attrs.evolve(
                _SCOPONE, hand_size=10, table_size=0, misdeal=MisdealRule.NONE, target=21
            ),
        ),
        ("scopone-di-trento", "scopone-trento"),
    ),
    "scopa-a-perdere": (
        attrs.evolve(_CLASSIC, name="scopa-a-perdere", target=21, lowest_total_wins=True),
        ("scopa-perdere", "a-perdere", "scopa-perdente"),
    ),
    "scopa-frac": (
        attrs.evolve(
            _CLASSIC,
            name="scopa-frac",
            capture_priority=CapturePriority.FREE,
            scoring=ScoringRules((CardPoints(name="frac"),)),
        ),
        ("frac", "scopa-frack"),
    ),
    "scopa-mini": (_MINI, ("mini", "scopa-6-carte", "mini-scopa")),
}
_ALIASES = {alias: name for name, (_, aliases) in _PRESETS.items() for alias in (name, *aliases)}
_SEPARATORS = str.maketrans("_ '", "---")


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
    - `scopone`: 4 players in pairs, 9 cards each and 4 on the table; a card takes the
      fewest table cards it can.
    - `scopone-scientifico`: as `scopone` with 10 cards each, an empty table, to 21.
    - `scopa-d-assi`, `scopa-d-assi-4`: an Ace takes the whole table, not as a scopa (an Ace
      on the table is taken alone); for 2, or 4 in pairs with 10 cards each.
    - `asso-piglia-tutto-semplice`: the Ace's sweep takes everything, even an Ace; a deal
      with 3 or more Kings on the table is annulled, as in `classic`.
    - `napola`, `re-bello`, `il-ponino`: classic with a bonus: the run of denari from the
      Ace (all ten win the match), the King of denari, all four Cavalli doubling the scope.
    - `scopa-a-15`: captures only by cards adding up to fifteen with the played card; a
      deal with 3 or more Kings on the table is annulled, as in `classic`.
    - `escoba`: the Spanish game to 21: fifteens, a first table of 15 or 30 swept by the
      dealer, escobas, cartas, oros, the siete de velo and the setenta.
    - `escoba-sin-setenta`: `escoba` with a point for the most sevens (none on a tie) and
      one more for all four in place of the setenta.
    - `cirulla`: to 51: simple captures (a card takes the fewest table cards it can) and
      fifteens, the Ace sweeps unless an Ace is on the table, declarations with the matta
      (7 of coppe), piccola (up to 6) and grande, all ten denari win.
    - `scopone-de-trente`, `scopone-trentino`: scopone to 21 where the Ace, 2 and 3 of
      denari score 1, 2 and 3 (all three win); or ten cards each with the napola.
    - `scopa-a-perdere`: the first side over 21 loses, the lowest total wins.
    - `scopa-frac`: only the Aces and figures score, a point each; any capture may be taken.
    - `asso-piglia-tutto`, `asso-piglia-tutto-4`: the same, but the Ace's sweep is a scopa;
      with 4, the first play of a hand may not be an Ace.

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
    return _PRESETS[_ALIASES[key]][0]
