"""The key moments of a match (`match_moments`): deals, scope, ends and abandonments.

Each moment is checked against the match's own records: the deal is the record's deck dealt
by its dealer, a scopa is a move of the record that emptied the table, the end is the
record's last position and score; captions follow the forms the docstrings give.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from scopa import AbandonReason, GameState, HandRecord, Match, Move, find_variant
from scopa.match import Moment, match_moments


def play_match(match: Match, hands: int | None = None) -> Match:
    """Play on, always taking the last capture offered (or the last move), until the match ends
    or `hands` hands are recorded."""
    while not match.is_over and (hands is None or len(match.hands) < hands):
        moves = match.state.legal_moves()
        captures = [m for m in moves if m.is_capture]
        match = match.apply((captures or moves)[-1])
    return match


def dashed(values: tuple[int, ...]) -> str:
    return "–".join(str(value) for value in values)


def scope_of(first: GameState, history: tuple[tuple[int, Move], ...]) -> list[tuple[int, int]]:
    """The scope of a hand as (player, how many moves of the history were played)."""
    found = []
    state = first
    for played, (player, move) in enumerate(history, start=1):
        before = state.scope[player]
        state = state.apply(move)
        if state.scope[player] == before + 1:
            assert move.is_capture
            assert not state.table or state.is_terminal
            found.append((player, played))
    return found


def expected_moments(match: Match) -> list[tuple[str, int, str, int]]:
    """(kind, hand, caption, moves played) of every key moment of a finished match."""
    rules = match.rules
    letters = "AB"
    expected = []
    totals = (0,) * rules.number_of_sides
    for record in match.hands:
        number = record.number
        deal = f"Hand {number}: player {record.dealer} deals · match {dashed(totals)}"
        expected.append(("deal", number, deal, 0))
        first = GameState.new(rules, deck=record.deck, dealer=record.dealer)
        for player, played in scope_of(first, record.history):
            side = (
                "" if rules.number_of_sides == rules.players else f" (side {letters[player % 2]})"
            )
            expected.append(
                ("scopa", number, f"Hand {number}: scopa by player {player}{side}", played)
            )
        totals = tuple(a + b for a, b in zip(totals, record.points, strict=True))
        end = f"Hand {number} over: points {dashed(record.points)} · match {dashed(totals)}"
        expected.append(("end", number, end, len(record.history)))
    return expected


def check_states(match: Match, moments: list[Moment]) -> None:
    """Each moment's position is its hand's first position with the moves played so far."""
    records: dict[int, HandRecord] = {record.number: record for record in match.hands}
    for moment in moments:
        record = records[moment.hand]
        played = len(moment.state.history)
        assert moment.state.history == record.history[:played]
        assert moment.state.rules == match.rules
        assert moment.state.dealer == record.dealer
        if moment.kind == "deal":
            assert moment.state == GameState.new(
                match.rules, deck=record.deck, dealer=record.dealer
            )
        if moment.kind == "end":
            assert moment.state.is_terminal
            assert moment.state.hand_score() == record.score


@pytest.mark.parametrize(
    ("name", "sides"),
    [
        ("classic", False),
        ("scopa-3", False),
        ("scopone", True),
        ("scopa-4", True),
        ("scopa-6", True),
    ],
)
def test_the_key_moments_of_a_finished_match(name: str, sides: bool) -> None:
    match = play_match(Match.new(find_variant(name), seed=11))
    assert match.is_over
    assert (match.rules.number_of_sides < match.rules.players) == sides
    moments = match_moments(match)
    expected = expected_moments(match)
    assert [(m.kind, m.hand, m.caption, len(m.state.history)) for m in moments] == expected
    check_states(match, moments)
    kinds = Counter(m.kind for m in moments)
    assert kinds["deal"] == kinds["end"] == len(match.hands) > 1
    scope = sum(sum(record.score["scope"].figures) for record in match.hands)
    assert kinds["scopa"] == scope > 0
    if sides:
        assert any("(side A)" in m.caption for m in moments)
        assert any("(side B)" in m.caption for m in moments)
    else:
        assert not any("(side" in m.caption for m in moments)


def test_a_new_match_has_only_its_first_deal() -> None:
    match = Match.new(find_variant("classic"), seed=1)
    assert match_moments(match) == [
        Moment("deal", 1, match.state, f"Hand 1: player {match.state.dealer} deals · match 0–0")
    ]


def test_the_hand_in_progress_is_replayed_from_the_current_history() -> None:
    finished = play_match(Match.new(find_variant("classic"), seed=2), hands=1)
    (record,) = finished.hands
    first = finished.state
    match = finished
    for _ in range(6):
        match = match.apply(match.state.legal_moves()[-1])
    scope = scope_of(first, match.state.history)
    assert scope  # a scopa in the hand in progress, after some moves
    moments = match_moments(match)
    before = match_moments(finished)[:-1]
    assert [(m.kind, m.hand, m.caption, len(m.state.history)) for m in before] == (
        expected_moments(finished)
    )
    assert moments[: len(before)] == before
    in_progress = moments[len(before) :]
    deal = f"Hand 2: player {first.dealer} deals · match {dashed(record.points)}"
    assert in_progress[0] == Moment("deal", 2, first, deal)
    assert [(m.kind, m.hand, m.caption, len(m.state.history)) for m in in_progress[1:]] == [
        ("scopa", 2, f"Hand 2: scopa by player {player}", played) for player, played in scope
    ]
    for moment in in_progress:
        assert moment.state.history == match.state.history[: len(moment.state.history)]


def test_an_abandonment_ends_the_moments() -> None:
    match = play_match(Match.new(find_variant("classic"), seed=4), hands=1)
    for _ in range(7):
        match = match.apply(match.state.legal_moves()[0])
    gone = match.abandon(1, AbandonReason.TIMEOUT)
    moments = match_moments(gone)
    assert moments[:-1] == match_moments(match)
    assert moments[-1] == Moment("abandon", 2, match.state, "Hand 2: player 1 abandons (timeout)")


def test_an_abandonment_at_a_deal_follows_the_deal() -> None:
    match = Match.new(find_variant("scopone"), seed=2)
    gone = match.abandon(3, AbandonReason.VOLUNTARY)
    moments = match_moments(gone)
    assert [m.kind for m in moments] == ["deal", "abandon"]
    assert moments[-1].caption == "Hand 1: player 3 abandons (voluntary)"
    assert moments[-1].state == match.state


def test_moments_are_frozen_values() -> None:
    moment = match_moments(Match.new(find_variant("classic"), seed=1))[0]
    assert moment == Moment("deal", 1, moment.state, moment.caption)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moment.caption = "changed"  # type: ignore[misc]


def test_the_moments_need_a_match() -> None:
    match = Match.new(find_variant("classic"), seed=1)
    with pytest.raises(TypeError, match=r"^the moments of a match need a Match, not GameState$"):
        match_moments(match.state)  # type: ignore[arg-type]
