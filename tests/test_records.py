"""Game records: round trips over every preset, and a corpus of bad records."""

from __future__ import annotations

import contextlib
import io
import re
import tracemalloc
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    AbandonReason,
    BrilliEconomy,
    Captures,
    CategoryScore,
    CompulsoryCapture,
    Deck,
    IllegalMoveError,
    Leftovers,
    Match,
    Napola,
    NotationError,
    Rules,
    SeriesRecord,
    find_variant,
)
from scopa.records import FORMAT_VERSION, read_record, rules_from_data, rules_to_data, write_record
from scopa.scoring import COMPONENTS
from tests.helpers import CLASSIC, TRETRE, every_preset, finish_hand, finish_match
from tests.strategies import seeds
from tests.validator import check_record


def random_match(rules: Rules, seed: int, data: st.DataObject, stop: int | None = None) -> Match:
    match = Match.new(rules, seed=seed)
    plays = 0
    while not match.is_over and (stop is None or plays < stop):
        moves = match.state.legal_moves()
        match = match.apply(moves[data.draw(st.integers(0, len(moves) - 1))])
        plays += 1
    return match


@every_preset
@settings(max_examples=4)
@given(seed=seeds, data=st.data())
def test_records_round_trip(rules: Rules, seed: int, data: st.DataObject) -> None:
    stop = data.draw(st.none() | st.integers(0, 80))
    match = random_match(rules, seed, data, stop)
    if data.draw(st.booleans()) and not match.is_over:
        match = match.abandon(data.draw(st.integers(0, rules.players - 1)), AbandonReason.TIMEOUT)
    back = check_record(match)
    assert back == match  # the seeded stream included: it deals on the same hands
    assert [h.deck for h in back.hands] == [h.deck for h in match.hands]


def test_changed_knobs_and_bonus_components_are_recorded() -> None:
    rules = attrs.evolve(
        TRETRE, name="house", target=21, scoring=TRETRE.scoring.with_component(Napola(True))
    )
    data = rules_to_data(rules)
    assert data["variant"] == "tretre"
    assert set(data["changes"]) == {"target", "scoring"}
    assert data["name"] == "house"
    assert rules_from_data(data) == rules
    assert rules_from_data(data).name == "house"


@attrs.frozen
class Custom:
    name: str = "custom"

    def score(self, hand: Captures) -> CategoryScore:
        return CategoryScore(self.name, (0,) * len(hand.piles))


@pytest.mark.parametrize("kind", COMPONENTS, ids=lambda kind: kind.__name__)
def test_every_component_of_the_library_is_recorded(kind: Any) -> None:
    rules = attrs.evolve(
        CLASSIC, name="with more", scoring=CLASSIC.scoring.with_component(kind(name="more"))
    )
    data = rules_to_data(rules)
    assert data["changes"]["scoring"]["fields"]["components"]["tuple"][-1]["class"] == kind.__name__
    assert rules_from_data(data) == rules


def test_records_of_earlier_versions_read_the_deprecated_knobs_without_a_warning() -> None:
    # Records of earlier versions write the yes-or-no knobs that `compulsory_capture` and
    # `leftovers` replace; they read as the new knobs, and are written so from then on.
    old = {
        "variant": "cirulla",
        "changes": {
            "played_card_must_capture": False,
            "must_play_capturing_card_if_any": True,
            "leftovers_to_last_capturer": False,
        },
    }
    rules = rules_from_data(old)  # filterwarnings = error: a warning would fail here
    assert rules == attrs.evolve(
        find_variant("cirulla"),
        compulsory_capture=CompulsoryCapture.CAPTURING_CARD,
        leftovers=Leftovers.NOBODY,
    )
    assert set(rules_to_data(rules)["changes"]) == {"compulsory_capture", "leftovers"}
    plain = rules_from_data({"variant": "classic", "changes": {"played_card_must_capture": False}})
    assert plain.compulsory_capture is CompulsoryCapture.NONE
    with pytest.raises(NotationError, match="played_card_must_capture must be True or False"):
        rules_from_data({"variant": "classic", "changes": {"played_card_must_capture": "no"}})


def test_custom_components_cannot_be_recorded() -> None:
    rules = attrs.evolve(CLASSIC, scoring=CLASSIC.scoring.with_component(Custom()))
    with pytest.raises(NotationError, match="cannot hold"):
        write_record(Match.new(rules, seed=1))


def _good() -> str:
    match = Match.new(CLASSIC, decks=[Deck.shuffled(11)])
    for _ in range(3):
        match = match.apply(match.state.legal_moves()[0])
    return write_record(match)


GOOD = _good()
LINES = GOOD.splitlines()


def _with(line: int, text: str) -> str:
    lines = list(LINES)
    lines[line] = text
    return "\n".join(lines)


BAD_RECORDS = [
    ("", NotationError, "ends where a 'scopa-record'"),
    ("chess-record 1", NotationError, r"line 1, scopa-record: expected"),
    (_with(0, "scopa-record x"), NotationError, "line 1, version"),
    (_with(0, f"scopa-record {FORMAT_VERSION + 1}"), NotationError, "line 1, version: format"),
    (_with(1, "rules {not json"), NotationError, "line 2, rules: not JSON"),
    (_with(1, 'rules {"variant": "briscola", "changes": {}}'), NotationError, "line 2, rules"),
    (_with(1, 'rules {"variant": "classic", "changes": {"target": -1}}'), NotationError, "line 2"),
    (_with(1, 'rules {"variant": "classic", "changes": {"bogus": 1}}'), NotationError, "line 2"),
    (_with(2, "first-dealer x"), NotationError, "line 3, first-dealer"),
    (_with(2, "first-dealer 7"), NotationError, "line 3"),
    (_with(3, "hand 2" + LINES[3][6:]), NotationError, "line 4, hand number"),
    (_with(3, "hand 1 deal XYZ dealer 0"), NotationError, "line 4, deal"),
    (_with(3, "hand 1 deal"), NotationError, "line 4, hand"),
    (_with(3, LINES[3][:-1] + "1"), NotationError, "line 4, dealer"),
    (_with(4, "play 0 " + LINES[4].split()[2]), NotationError, "line 5, play player"),
    (_with(4, "play 1 10Bx1D"), IllegalMoveError, "line 5, move"),
    (_with(4, "play 1 7X"), NotationError, "line 5"),
    (_with(4, "play 1"), NotationError, "line 5, play"),
    (_with(7, "result winner 0 totals 11 0"), NotationError, "line 8, result: the match is not"),
    (_with(7, "result maybe"), NotationError, "line 8, result"),
    ("\n".join(LINES[:-1]), NotationError, "ends where a 'result' line"),
    (GOOD + "play 0 1D\n", NotationError, "expected a 'end of record' line"),
    (_with(7, "abandon 9 timeout\nresult unfinished"), NotationError, "line 8"),
    (_with(7, "abandon 1 boredom\nresult unfinished"), NotationError, "line 8, abandon reason"),
    (_with(7, "abandon 1.0 timeout\nresult unfinished"), NotationError, "line 8, abandon player"),
    # rules data: every field checked for its type and range, and the reason kept
    (
        _with(1, 'rules {"variant": "classic", "changes": {}, "name": null}'),
        NotationError,
        "line 2, rules: cannot read rules from .*: name must be text, not NoneType",
    ),
    (
        _with(1, 'rules {"variant": "classic", "changes": {}, "name": "[link=x]a"}'),
        NotationError,
        "name must be printable text without markup characters",
    ),
    (
        _with(1, 'rules {"variant": "classic", "changes": {"target": 1' + "0" * 4000 + "}}"),
        NotationError,
        "target must be an int from 1 to 1,000,000, not an int of about 4,001 digits",
    ),
    (
        _with(1, 'rules {"variant": "classic", "changes": {"target": 11.0}}'),
        NotationError,
        "target must be an int from 1 to 1,000,000, not 11.0",
    ),
    (
        _with(
            1,
            'rules {"variant": "tretre", "changes": {"stakes": {"class": "BrilliEconomy", '
            '"fields": {"hand_pot": {"fraction": "-10"}}}}}',
        ),
        NotationError,
        "brilli must be from 0 to 1,000,000,000, not Fraction",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"scoring": {"class": "ScoringRules", '
            '"fields": {"components": {"tuple": [{"class": "Primiera", "fields": {"table": '
            '{"class": "PrimieraTable", "fields": {"name": "flags", "values": {"tuple": '
            "[true, true, true, true, true, true, true, true, true, true]}}}}}]}}}}}",
        ),
        NotationError,
        "a primiera table needs ten ints from 0 to 100",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"scoring": {"class": "ScoringRules", '
            '"fields": {"components": {"tuple": []}}}}}',
        ),
        NotationError,
        "scoring gives no points at all, so a match could never end",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"capture_by_rank": false, '
            '"capture_by_sum": false}}',
        ),
        NotationError,
        "line 2, rules: .*: no scoring category can ever give a point, so a match could never "
        "end: no card can ever be captured",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"scoring": {"class": "ScoringRules", '
            '"fields": {"components": {"tuple": [{"class": "Declarations", "fields": {}}]}}}}}',
        ),
        NotationError,
        "line 2, rules: .*: no scoring category can ever give a point, so a match could never "
        "end: 'accusi' counts declared points and declarations is off",
    ),
    (
        _with(1, 'rules {"variant": "classic", "changes": {"bogus": 1}}'),
        NotationError,
        "rules have no knob 'bogus'",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"misdeal": {"enum": "Bogus", "value": "x"}}}',
        ),
        NotationError,
        "unknown kind of knob 'Bogus'",
    ),
    (
        _with(
            1,
            'rules {"variant": "classic", "changes": {"misdeal": {"enum": "MisdealRule", '
            '"value": "sometimes"}}}',
        ),
        NotationError,
        "MisdealRule has no value 'sometimes'",
    ),
    (_with(1, "rules []"), NotationError, "rules data must be a JSON object, not \\[\\]"),
]


@pytest.mark.parametrize(("text", "error", "message"), BAD_RECORDS)
def test_bad_records_are_refused_naming_the_line(
    text: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        read_record(text)


def test_an_abandonment_after_the_end_names_the_abandon_line() -> None:
    match = finish_match(Match.new(CLASSIC, seed=3))
    lines = write_record(match).splitlines()
    tampered = [*lines[:-1], "abandon 0 voluntary", lines[-1]]
    with pytest.raises(
        NotationError, match=f"^line {len(lines)}, abandon: the match is already over$"
    ):
        read_record("\n".join(tampered))


def test_a_huge_bad_record_gives_a_short_message() -> None:
    for text in ("x" * 10_000_000, GOOD.replace("play 1", "play 1 " + "7" * 1_000_000, 1)):
        with pytest.raises(NotationError) as caught:
            read_record(text)
        assert len(str(caught.value)) < 200


def test_the_good_record_of_the_corpus_reads() -> None:
    assert LINES[0] == "scopa-record 1"
    assert LINES[-1] == "result unfinished"
    assert len(read_record(GOOD).state.history) == 3


def test_a_tampered_score_is_caught() -> None:
    match = finish_hand(Match.new(CLASSIC, seed=5))
    lines = write_record(match).splitlines()
    score_line = next(i for i, line in enumerate(lines) if line.startswith("score"))
    lines[score_line] = "score 0 0"
    with pytest.raises(NotationError, match=f"line {score_line + 1}, score"):
        read_record("\n".join(lines))


def test_an_abandonment_between_hands_is_recorded_once() -> None:
    match = finish_hand(Match.new(CLASSIC, decks=[Deck.shuffled(1)]))
    assert match.awaiting_deal
    over = match.abandon(0)
    text = write_record(over)
    assert sum(1 for line in text.splitlines() if line.startswith("hand ")) == 1
    assert read_record(text) == over


def test_a_read_match_deals_on_like_the_original() -> None:
    match = finish_hand(Match.new(TRETRE, seed=3))
    back = read_record(write_record(match))
    assert back.stream == match.stream is not None
    assert back.state == match.state  # hand 2, dealt from the same stream
    with pytest.raises(NotationError, match="stream"):
        read_record(write_record(match).replace(f"stream {match.stream}", "stream x"))


def test_comments_and_blank_lines_are_ignored() -> None:
    text = "# a saved game\n\n" + GOOD.replace("\nplay", "\n\n  play")
    assert read_record(text).state == read_record(GOOD).state


def test_non_text_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        read_record(b"scopa-record 1")  # type: ignore[arg-type]


@given(st.text(max_size=300))
def test_random_text_never_raises_anything_else(text: str) -> None:
    with contextlib.suppress(NotationError, IllegalMoveError):
        read_record(text)


@given(st.data())
@settings(max_examples=200)
def test_mutated_records_never_raise_anything_else(data: st.DataObject) -> None:
    lines = list(LINES)
    index = data.draw(st.integers(0, len(lines) - 1))
    words = lines[index].split()
    position = data.draw(st.integers(0, len(words) - 1))
    words[position] = data.draw(st.sampled_from(["", "0", "1", "x", "-", "99", "7D", "{}", "1D"]))
    lines[index] = " ".join(words)
    with contextlib.suppress(NotationError, IllegalMoveError):
        read_record("\n".join(lines))


def test_a_rematch_keeps_its_series() -> None:
    first = finish_match(Match.new(TRETRE, seed=3))
    assert first.winner is not None
    winner, loser = first.winner, 1 - first.winner
    second = first.rematch(seed=4)
    wins, losses = [0, 0], [0, 0]
    wins[winner] = losses[loser] = 1
    expected = SeriesRecord(tuple(wins), tuple(losses), (0, 0))
    text = write_record(second)
    assert f"series wins {wins[0]} {wins[1]} losses {losses[0]} {losses[1]} abandoned 0 0" in text
    back = read_record(text)
    assert back.series_before == expected
    assert back == second
    # on through a finished second match and an abandoned third
    third = finish_match(second).rematch(seed=5).abandon(0)
    back = check_record(third)
    assert back.series == third.series
    assert back.series.matches == 3
    assert back.series.abandoned == (1, 0)


def test_a_match_that_starts_a_series_has_no_series_line() -> None:
    assert "series" not in write_record(Match.new(TRETRE, seed=4))


def _with_series(line: str) -> str:
    lines = write_record(finish_match(Match.new(CLASSIC, seed=3)).rematch(seed=4)).splitlines()
    assert lines[3].startswith("series ")
    lines[3] = line
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("series wins 1 losses 0 1 abandoned 0 0", "line 4, series: expected 'series wins N N "),
        ("series wins 1 0 losses 0 1 left 0 0", "line 4, series: expected"),
        ("series wins 1 x losses 0 1 abandoned 0 0", "line 4, series wins: 'x' is not a number"),
        ("series wins 1 0 losses 0 -1 abandoned 0 0", "line 4, series losses: '-1' is not a"),
    ],
)
def test_bad_series_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(NotationError, match=f"^{re.escape(message)}"):
        read_record(_with_series(line))


@pytest.mark.parametrize(
    "hand_pot",
    [Fraction(1, 10**13), Fraction(10**9 - 1, 10**999 + 7), Fraction(10**999 - 1, 10**991)],
)
def test_every_fraction_the_writer_writes_reads_back(hand_pot: Fraction) -> None:
    rules = attrs.evolve(TRETRE, stakes=BrilliEconomy(hand_pot=hand_pot))
    match = Match.new(rules, seed=1)
    back = read_record(write_record(match))
    assert back.rules == rules
    assert back == match


def test_a_fraction_too_long_for_a_record_is_refused_by_the_writer() -> None:
    for hand_pot in (Fraction(1, 10**1000), Fraction(10**1000 + 1, 10**1000)):
        rules = attrs.evolve(TRETRE, stakes=BrilliEconomy(hand_pot=hand_pot))
        with pytest.raises(NotationError, match="at most 1,000 digits") as caught:
            write_record(Match.new(rules, seed=1))
        assert len(str(caught.value)) < 200


COMMENTS = "# a comment line of the record\n" * 700_000  # about 20 MB


def _peak_while(read: Any) -> int:
    """The most memory allocated while `read()` runs, in bytes."""
    tracemalloc.start()
    try:
        read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_reading_holds_a_line_at_a_time(tmp_path: Path) -> None:
    text = GOOD.replace("\nplay", "\n" + COMMENTS + "play", 1)
    assert len(text) > 20_000_000
    path = tmp_path / "commented.txt"
    path.write_text(text, encoding="utf-8")
    expected = read_record(GOOD)
    # splitting 20 MB into a list of lines took more than 100 MB
    for source in (text, path):
        assert _peak_while(lambda source=source: read_record(source)) < 5_000_000
        assert read_record(source) == expected


def test_a_path_or_an_open_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "my-match.txt"
    path.write_text("# saved\n" + GOOD, encoding="utf-8")
    expected = read_record(GOOD)
    assert read_record(path) == expected
    with path.open(encoding="utf-8") as file:
        assert read_record(file) == expected
        assert not file.closed  # the caller's file stays open
    assert read_record(io.StringIO(GOOD)) == expected
    with path.open("rb") as binary, pytest.raises(TypeError, match="text mode, not binary"):
        read_record(binary)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        read_record(tmp_path / "none.txt")
    path.write_bytes(GOOD.encode() + b"play 1 \xff\n")
    with pytest.raises(NotationError, match="not UTF-8 text"):
        read_record(path)


@pytest.mark.parametrize("name", ["my-match.txt", "saves/my-match", "C:\\games\\my match.txt"])
def test_a_file_name_given_as_the_text_is_named_so(name: str) -> None:
    with pytest.raises(
        NotationError, match=r"^line 1, scopa-record: expected a 'scopa-record'"
    ) as e:
        read_record(name)
    assert str(e.value).endswith(
        "which looks like a file name: give the record's text, a path or an open file"
    )


def test_text_that_is_not_a_file_name_gets_no_hint() -> None:
    with pytest.raises(NotationError) as caught:
        read_record("chess-record 1")
    assert "file name" not in str(caught.value)


@given(st.text(alphabet=st.sampled_from("ab #\n\r\x0b\x0c\x1c\x85\u2028\u2029"), max_size=30))
def test_lines_are_split_as_str_splitlines_does(text: str) -> None:
    # the line numbers of the messages are those of str.splitlines
    from scopa.records import _split  # the splitter is internal

    assert list(_split(text)) == text.splitlines()
