from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

import scopa
from scopa import (
    BrilliEconomy,
    CapturePriority,
    Card,
    CompulsoryCapture,
    Leftovers,
    MisdealRule,
    MissingSuit,
    Napola,
    PrimieraTable,
    ReBello,
    Rules,
    RulesError,
    ScoringRules,
    Tiebreak,
    find_variant,
    variant_aliases,
    variant_names,
)
from scopa.rules import FirstTable, _for_four, _index, _with_bonus
from scopa.scoring import Carte, Declarations, Ponino, Scope
from tests.helpers import CLASSIC


def test_presets_and_their_knobs() -> None:
    classic = find_variant("classic")
    tretre = find_variant("tretre")
    assert variant_names()[:2] == ("classic", "tretre")
    assert (classic.target, tretre.target) == (11, 9)
    assert classic.misdeal is MisdealRule.THREE_PLUS_KINGS
    assert tretre.misdeal is MisdealRule.TRETRE
    assert classic.capture_priority is tretre.capture_priority is CapturePriority.EQUAL_RANK_FIRST
    for preset in (classic, tretre):
        assert preset.compulsory_capture is CompulsoryCapture.PLAYED_CARD
        assert not preset.scopa_on_last_play
        assert preset.leftovers is Leftovers.LAST_CAPTURER
    classic_primiera = classic.scoring.components[-1]
    tretre_primiera = tretre.scoring.components[-1]
    assert isinstance(classic_primiera, scopa.Primiera)
    assert isinstance(tretre_primiera, scopa.Primiera)
    assert classic_primiera.table.values[0] == 16
    assert tretre_primiera.table.values[0] == 15
    assert classic_primiera.missing_suit is MissingSuit.OPPONENT_WINS
    assert tretre_primiera.missing_suit is MissingSuit.ZERO
    assert (classic.hand_size, classic.table_size, classic.players) == (3, 4, 2)
    assert classic.deals_per_hand == 6
    assert classic.plays_per_hand == 36


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Classic", "classic"),
        ("SCOPA", "classic"),
        ("scopetta", "classic"),
        ("scopa_2", "classic"),
        ("scopa 2", "classic"),
        (" tretre ", "tretre"),
        ("scopa-tretre", "tretre"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert find_variant(alias) is find_variant(name)


def test_the_aliases_of_a_preset() -> None:
    assert variant_aliases("scopa") == variant_aliases("classic")
    assert "scopetta" in variant_aliases("classic")
    assert "classic" not in variant_aliases("classic")
    assert variant_aliases("tretre") == ("scopa-tretre", "tretre-2")


def test_a_preset_is_found_whole_by_any_of_its_names() -> None:
    preset = scopa.find_preset("Scopa d'assi")
    assert preset.name == "scopa-d-assi"
    assert preset.rules is find_variant("scopa-d-assi")
    assert preset.aliases == variant_aliases("scopa-d-assi")
    assert preset.family is scopa.Family.ACE_SWEEPS
    assert [p.name for p in scopa.presets()] == list(variant_names())
    with pytest.raises(RulesError, match="unknown variant 'briscola'"):
        scopa.find_preset("briscola")


def test_the_names_of_the_presets_are_unique_and_in_the_form_they_are_compared_in() -> None:
    classic = scopa.find_preset("classic")
    tretre = scopa.find_preset("tretre")
    with pytest.raises(RulesError, match="'scopa' is given twice"):
        _index([classic, attrs.evolve(tretre, aliases=("scopa",))])
    with pytest.raises(RulesError, match="'Tre tre' is given twice or not in lower case"):
        _index([classic, attrs.evolve(tretre, aliases=("Tre tre",))])
    assert _index(scopa.presets())[1] == {
        name: preset.name for preset in scopa.presets() for name in (preset.name, *preset.aliases)
    }


def test_every_preset_says_what_it_is() -> None:
    for preset in scopa.presets():
        assert preset.summary.endswith("."), preset.name
        assert all(source.endswith(".") for source in preset.sources), preset.name
        assert preset.rules.name == preset.name


def test_four_of_a_rank_annul_a_tretre_table_of_any_size() -> None:
    sevens = [Card.parse(t) for t in ["7D", "7C", "7S", "7B"]]
    assert MisdealRule.TRETRE.annuls([*sevens, Card.parse("1D")])
    assert not MisdealRule.TRETRE.annuls([*sevens[:3], Card.parse("1D"), Card.parse("2D")])


def test_unknown_variant_lists_the_known_names() -> None:
    with pytest.raises(RulesError, match=r"unknown variant 'briscola'.*classic.*tretre"):
        find_variant("briscola")


def test_name_is_a_label_outside_equality() -> None:
    classic = find_variant("classic")
    renamed = attrs.evolve(classic, name="mine")
    assert renamed == classic
    assert hash(renamed) == hash(classic)
    assert attrs.evolve(classic, target=21) != classic


class UnhashableStakes(BrilliEconomy):
    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 5}, "do not split"),
        ({"players": 1}, "players must be an int from 2 to 40"),
        ({"players": 41}, "players must be an int from 2 to 40"),
        ({"players": 0}, "players"),
        ({"players": 4, "sides": 3}, "equal sides"),
        ({"players": 4, "sides": 1}, "sides"),
        ({"sides": True}, "sides"),
        ({"ace_with_ace_on_table": "all"}, "AceOnAce"),
        ({"move_time_limit": 0}, "move_time_limit"),
        ({"move_time_limit": "30"}, "move_time_limit"),
        ({"stakes": 50}, "stakes"),
        ({"stakes": UnhashableStakes()}, "hashable"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 5}, "do not split"),
        ({"table_size": 41}, "table_size must be an int from 0 to 40"),
        ({"table_size": 37}, "do not split"),
        ({"target": 10**6 + 1}, "target must be an int from 1 to 1,000,000"),
        ({"move_time_limit": float("inf")}, "move_time_limit"),
        ({"name": "x" * 65}, "name must have 1 to 64 characters"),
        ({"target": 0}, "target"),
        ({"target": True}, "target"),
        ({"capture_priority": "free"}, "CapturePriority"),
        ({"misdeal": None}, "MisdealRule"),
        ({"tiebreak": 1}, "Tiebreak"),
        ({"scoring": ()}, "ScoringRules"),
    ],
)
def test_inconsistent_rules_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises((RulesError, ValueError), match=message):
        attrs.evolve(find_variant("classic"), **changes)  # type: ignore[arg-type]


LOWEST_WINS = r"^a match where the lowest total wins has no claims and plays on at a tie$"


@pytest.mark.parametrize(
    ("preset", "changes", "message"),
    [
        ("cirulla", {"hand_size": 4}, r"^declarations need hands of 3 cards, not 4$"),
        ("scopa-a-perdere", {"claim_out": True}, LOWEST_WINS),
        ("scopa-a-perdere", {"tiebreak": Tiebreak.LAST_HAND_COUNTDOWN}, LOWEST_WINS),
    ],
)
def test_knobs_that_do_not_go_together_are_refused(
    preset: str, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        attrs.evolve(find_variant(preset), **changes)  # type: ignore[arg-type]


def test_rules_are_frozen() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        find_variant("classic").target = 3  # type: ignore[misc]


def test_repr_evaluates_back() -> None:
    namespace = {name: getattr(scopa, name) for name in scopa.__all__} | {"Fraction": Fraction}
    for rules in (find_variant("classic"), find_variant("tretre")):
        assert eval(repr(rules), namespace) == rules
    custom = attrs.evolve(
        find_variant("tretre"),
        target=21,
        scoring=ScoringRules.standard(PrimieraTable.ZERO_FIGURES, MissingSuit.ZERO),
    )
    assert repr(custom).startswith("Rules(name='tretre', ")
    assert eval(repr(custom), namespace) == custom
    assert repr(Tiebreak.PLAY_ON) == "Tiebreak.PLAY_ON"


def test_the_four_player_form_of_a_preset() -> None:
    # SPEC: the 4-player games are two pairs with ten cards each and no table
    base = find_variant("scopa-d-assi")
    four = _for_four(base, "four")
    assert four.name == "four"
    assert (four.players, four.number_of_sides, four.hand_size, four.table_size) == (4, 2, 10, 0)
    unchanged = {"name", "players", "sides", "hand_size", "table_size"}
    for field in attrs.fields(Rules):
        if field.name not in unchanged:
            assert getattr(four, field.name) == getattr(base, field.name), field.name


# ----------------------------------------------------------------------------- bounds and messages


def test_sides_up_to_40_pass_their_own_check() -> None:
    classic = find_variant("classic")
    # 40 is within the bound of `sides`; two players just cannot form 40 sides.
    with pytest.raises(RulesError, match=r"^2 players cannot form 40 equal sides$"):
        attrs.evolve(classic, sides=40)
    with pytest.raises(RulesError, match=r"^sides must be an int from 2 to 40 or None, not 41$"):
        attrs.evolve(classic, sides=41)


def test_the_move_time_limit_may_be_a_whole_day() -> None:
    classic = find_variant("classic")
    assert attrs.evolve(classic, move_time_limit=86_400).move_time_limit == 86_400
    with pytest.raises(RulesError, match=r"up to 86,400, or None, not 86400\.5$"):
        attrs.evolve(classic, move_time_limit=86_400.5)


def test_scoring_must_be_scoring_rules_and_hashable() -> None:
    classic = find_variant("classic")
    with pytest.raises(RulesError, match=r"^scoring must be a ScoringRules, not 3$"):
        attrs.evolve(classic, scoring=3)  # type: ignore[arg-type]

    @attrs.define  # mutable, so not hashable
    class Unhashable:
        name: str = "loose"

        def score(self, captures: object) -> object:
            raise NotImplementedError

    scoring = ScoringRules.standard().with_component(Unhashable())  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"^scoring must be hashable"):
        attrs.evolve(classic, scoring=scoring)


NEVER_ENDS = "no scoring category can ever give a point, so a match could never end: "
NO_CAPTURE = (
    "no card can ever be captured, with capture_by_rank, capture_by_sum, capture_to_fifteen, "
    "ace_captures_all and first_table all off"
)
NO_DECLARATIONS = "'accusi' counts declared points and declarations is off"


@pytest.mark.parametrize(
    ("changes", "reasons"),
    [
        ({"scoring": ScoringRules([Declarations()])}, NO_DECLARATIONS),
        ({"capture_by_rank": False, "capture_by_sum": False}, NO_CAPTURE),
        (
            {"capture_by_rank": False, "capture_by_sum": False, "scoring": ScoringRules([Scope()])},
            NO_CAPTURE,
        ),
        (
            {"scoring": ScoringRules([Declarations(), Scope(value=0)])},
            f"{NO_DECLARATIONS}; 'scope' gives 0 points a scopa",
        ),
        (
            {
                "capture_by_rank": False,
                "capture_by_sum": False,
                "scoring": ScoringRules([Scope(), Declarations(), Carte()]),
            },
            f"{NO_DECLARATIONS}; {NO_CAPTURE}",
        ),
        # an Ace laid on an empty table goes to a pile, but the table is never empty
        (
            {
                "capture_by_rank": False,
                "capture_by_sum": False,
                "ace_on_empty_table_captures_itself": True,
            },
            NO_CAPTURE,
        ),
        # a first table is swept only if it can add up to 15
        (
            {
                "capture_by_rank": False,
                "capture_by_sum": False,
                "first_table": FirstTable.TOTAL,
                "table_size": 1,
                "players": 3,
                "hand_size": 1,
            },
            NO_CAPTURE,
        ),
    ],
)
def test_rules_under_which_no_match_can_end_are_refused(
    changes: dict[str, object], reasons: str
) -> None:
    with pytest.raises(RulesError) as caught:
        attrs.evolve(CLASSIC, **changes)  # type: ignore[arg-type]
    assert str(caught.value) == NEVER_ENDS + reasons


class Anything:
    """A scoring category of one's own: the library cannot tell when it gives points."""

    name = "anything"

    def score(self, hand: object) -> object:
        raise NotImplementedError


@pytest.mark.parametrize(
    "changes",
    [
        {"scoring": ScoringRules([Declarations()]), "declarations": True},
        {"capture_by_rank": False, "capture_by_sum": False, "capture_to_fifteen": True},
        {"capture_by_rank": False, "capture_by_sum": False, "ace_captures_all": True},
        {"capture_by_rank": False, "scoring": ScoringRules([Ponino()])},
        {"capture_by_sum": False, "scoring": ScoringRules([Scope(value=0), Carte()])},
        {"capture_by_rank": False, "capture_by_sum": False, "first_table": FirstTable.TOTAL},
        {
            "capture_by_rank": False,
            "capture_by_sum": False,
            "ace_on_empty_table_captures_itself": True,
            "table_size": 0,
            "hand_size": 5,
        },
        {
            "capture_by_rank": False,
            "capture_by_sum": False,
            "scoring": ScoringRules.standard().with_component(Anything()),  # type: ignore[arg-type]
        },
        {
            "capture_by_rank": False,
            "capture_by_sum": False,
            "declarations": True,
            "scoring": ScoringRules.standard().with_component(Declarations()),
        },
    ],
)
def test_rules_under_which_some_category_may_score_are_accepted(
    changes: dict[str, object],
) -> None:
    rules = attrs.evolve(CLASSIC, **changes)  # type: ignore[arg-type]
    assert all(getattr(rules, knob) == value for knob, value in changes.items())


def test_side_of_names_the_player_it_was_given() -> None:
    with pytest.raises(RulesError, match=r"^player must be a player number from 0 to 3, not 4$"):
        find_variant("scopone").side_of(4)
    assert [find_variant("scopone").side_of(p) for p in range(4)] == [0, 1, 0, 1]


def test_a_variant_name_must_be_text() -> None:
    with pytest.raises(TypeError, match=r"^a variant name must be text, not int$"):
        find_variant(3)  # type: ignore[arg-type]


def test_a_preset_with_bonuses_keeps_its_base_and_scores_them_last() -> None:
    rules = _with_bonus("with bonuses", Napola(), ReBello())
    assert rules.name == "with bonuses"
    assert [c.name for c in rules.scoring.components] == [
        "scope",
        "carte",
        "denari",
        "settebello",
        "primiera",
        "napola",
        "re bello",
    ]
    assert attrs.evolve(rules, name=CLASSIC.name, scoring=CLASSIC.scoring) == CLASSIC
    tretre = find_variant("tretre")
    on_tretre = _with_bonus("t", ReBello(), base=tretre)
    assert on_tretre.target == 9
    assert on_tretre.scoring.components[:-1] == tretre.scoring.components
    assert _with_bonus("none").scoring == CLASSIC.scoring


# ----------------------------------------------------------------------------- deprecated knobs

NONE, PLAYED, CAPTURING = (
    CompulsoryCapture.NONE,
    CompulsoryCapture.PLAYED_CARD,
    CompulsoryCapture.CAPTURING_CARD,
)


@pytest.mark.parametrize(
    ("knobs", "compulsory", "leftovers"),
    [
        ({"played_card_must_capture": False}, NONE, Leftovers.LAST_CAPTURER),
        ({"played_card_must_capture": True}, PLAYED, Leftovers.LAST_CAPTURER),
        ({"must_play_capturing_card_if_any": True}, CAPTURING, Leftovers.LAST_CAPTURER),
        ({"must_play_capturing_card_if_any": False}, PLAYED, Leftovers.LAST_CAPTURER),
        # the two combinations with a capturing card first give the same moves
        (
            {"played_card_must_capture": False, "must_play_capturing_card_if_any": True},
            CAPTURING,
            Leftovers.LAST_CAPTURER,
        ),
        (
            {"played_card_must_capture": False, "must_play_capturing_card_if_any": False},
            NONE,
            Leftovers.LAST_CAPTURER,
        ),
        ({"leftovers_to_last_capturer": False}, PLAYED, Leftovers.NOBODY),
        ({"leftovers_to_last_capturer": True}, PLAYED, Leftovers.LAST_CAPTURER),
    ],
)
def test_the_deprecated_knobs_still_work(
    knobs: dict[str, bool], compulsory: CompulsoryCapture, leftovers: Leftovers
) -> None:
    with pytest.warns(DeprecationWarning, match=r"^Rules\.\w+ is deprecated: use ") as caught:
        rules = Rules(name="old", **knobs)  # type: ignore[arg-type]
    assert sorted(str(w.message).split(" is deprecated")[0] for w in caught) == sorted(
        f"Rules.{name}" for name in knobs
    )
    assert {w.filename for w in caught} == {__file__}  # the warning points at the call
    new = Rules(name="old", compulsory_capture=compulsory, leftovers=leftovers)
    assert rules == new
    assert repr(rules) == repr(new)  # the old knobs keep nothing
    assert attrs.evolve(rules, target=21).compulsory_capture is compulsory  # no warning
    readings = {
        "played_card_must_capture": compulsory is not NONE,
        "must_play_capturing_card_if_any": compulsory is CAPTURING,
        "leftovers_to_last_capturer": leftovers is Leftovers.LAST_CAPTURER,
    }
    for name, value in readings.items():  # still read, without a warning
        assert getattr(rules, name) is value


def test_a_deprecated_knob_changes_only_what_it_said() -> None:
    capturing = Rules(compulsory_capture=CAPTURING, leftovers=Leftovers.DEALER)
    with pytest.warns(DeprecationWarning, match="played_card_must_capture is deprecated"):
        # a capturing card first, with or without a played card that must capture
        assert attrs.evolve(capturing, played_card_must_capture=False) == capturing
    with pytest.warns(DeprecationWarning, match="must_play_capturing_card_if_any is deprecated"):
        assert attrs.evolve(capturing, must_play_capturing_card_if_any=False) == Rules(
            leftovers=Leftovers.DEALER
        )
    with pytest.warns(DeprecationWarning, match="leftovers_to_last_capturer is deprecated"):
        assert attrs.evolve(capturing, leftovers_to_last_capturer=True) == Rules(
            compulsory_capture=CAPTURING
        )


def test_a_deprecated_knob_must_be_a_bool() -> None:
    with pytest.raises(
        RulesError, match=r"^leftovers_to_last_capturer must be True or False, not 1$"
    ):
        Rules(leftovers_to_last_capturer=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"^compulsory_capture must be a CompulsoryCapture, not"):
        Rules(compulsory_capture=True)  # type: ignore[arg-type]
