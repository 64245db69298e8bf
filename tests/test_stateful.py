"""A state machine over whole matches of every preset.

The machine starts a match of one preset (chosen by its `initialize` rule), then mixes:
legal moves (one at a time, or a whole hand), illegal moves (refused, nothing changes),
moves with a measured time (over `move_time_limit` they time the player out), timeouts,
abandonments with every reason, saving and reloading the record (and going on with the
reloaded match, which then needs its decks dealt by hand), and rematches once over.

After every step: the 40 cards are conserved in the hand in progress (and every other
invariant of `tests.validator.check_state`), the totals are the sum of the hand points the
machine saw, the winner is the one docs/rules.md#winning-the-match names (the side ahead
at the target; the lowest total when it wins; a side that wins outright with its cards, as
the scoring oracle finds it; a claimant whose claim was correct, and never one whose claim
was false), nothing is accepted after the end, and with brilli stakes and no abandonment
the brilli sum to at most 50, exactly 50 once over, and equal the settlement of
docs/matches.md#the-tretre-brilli. Besides every preset, the machine plays the classic game
with claims.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import ClassVar

import attrs
import pytest
from hypothesis import Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scopa import (
    DECK,
    Abandonment,
    AbandonReason,
    BrilliEconomy,
    Card,
    Deck,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    Match,
    Move,
    Outcome,
    Rules,
)
from scopa.records import read_record, write_record
from scopa.state import view
from tests import oracle
from tests.helpers import CLASSIC, play_until
from tests.strategies import PRESETS, seeds
from tests.validator import check_record, check_state, leader

choices = st.integers(0, 2**16)

CLAIMS = attrs.evolve(CLASSIC, name="classic-claims", claim_out=True)
"""The classic game where a play may claim that the player's side has reached the target."""


def expected_brilli(
    points: list[tuple[int, ...]], winner: int | None, abandonment: Abandonment | None
) -> tuple[Fraction, ...]:
    """The tretre brilli (docs/matches.md#the-tretre-brilli), for two players, from the points."""
    brilli = [Fraction(0), Fraction(0)]
    for hand in points[:3]:  # hands 1-3 share 10 each; later hands nothing
        total = sum(hand)
        for side in (0, 1):
            brilli[side] += Fraction(10 * hand[side], total) if total else Fraction(5)
    if abandonment is not None:
        quitter = abandonment.player
        if abandonment.hand <= 3:  # the survivor takes the whole pot of the hand
            brilli[1 - quitter] += 10
        brilli[quitter] -= 30  # and nothing else: no 20, no unplayed hands
    elif winner is not None:
        brilli[winner] += 20 + 10 * max(0, 3 - len(points))
    return tuple(brilli)


def lowest(totals: Sequence[int]) -> int | None:
    """The side with the unique lowest total, if there is one."""
    low = min(totals)
    sides = [side for side, total in enumerate(totals) if total == low]
    return sides[0] if len(sides) == 1 else None


def accepted_deck(rules: Rules, seed: int) -> Deck:
    """The first deck of a seeded stream whose first table the misdeal rule accepts."""
    start = rules.players * rules.hand_size
    for deck in Deck.shuffles(seed):
        if not rules.misdeal.annuls(deck[start : start + rules.table_size]):
            return deck
    raise AssertionError("unreachable: the stream is endless")


class MatchMachine(RuleBasedStateMachine):
    """Matches of the presets in `presets`, played, broken, saved and rematched."""

    presets: ClassVar[tuple[Rules, ...]] = tuple(PRESETS)
    match: Match
    points: list[tuple[int, ...]]
    matches: int
    outright: int | None

    # ------------------------------------------------------------------ helpers

    @property
    def game_rules(self) -> Rules:
        return self.match.rules

    @property
    def sides(self) -> int:
        return self.game_rules.number_of_sides

    def playing(self) -> bool:
        return not self.match.is_over and not self.match.awaiting_deal

    def play(self, move: Move, elapsed: float | None = None) -> None:
        """Play a legal move, checking the hand layer and the match layer agree."""
        before = self.match
        after_hand = before.state.apply(move)
        after = before.apply(move) if elapsed is None else before.apply(move, elapsed=elapsed)
        if move.claim:  # the claim ends the match at once, the hand unscored
            player = before.state.current_player
            assert player is not None
            assert after.is_over
            assert after.claim is not None
            assert after.claim.player == player
            assert after.state == after_hand
            assert after.hands == before.hands
            assert after.totals == before.totals
            if before.totals[self.game_rules.side_of(player)] >= self.game_rules.target:
                assert after.claim.correct, "a side already at the target claims correctly"
            event(f"a {'correct' if after.claim.correct else 'false'} claim")
        elif after_hand.is_terminal:
            assert len(after.hands) == len(before.hands) + 1
            record = after.hands[-1]
            assert record.points == after_hand.hand_score().points
            assert record.history == after_hand.history
            assert record.dealer == before.dealer
            self.points.append(record.points)
            piles, _ = oracle.by_side(self.game_rules, after_hand.piles, after_hand.scope)
            self.outright = oracle.outright_winner(self.game_rules, piles)
            if self.outright is not None:  # the cards of this hand win the match
                assert after.is_over
                event("an outright win")
            if not after.is_over and not after.awaiting_deal:
                number = len(after.hands)
                assert after.state.history == ()
                assert after.dealer == (after.first_dealer + number) % self.game_rules.players
        else:
            assert after.hands == before.hands
            assert after.state == after_hand
        self.match = after

    def check_refused(self, action: str, move: Move | None = None) -> None:
        """`action` must raise IllegalMoveError and change nothing."""
        match = self.match
        record, text, moves = write_record(match), match.state.to_text(), match.state.legal_moves()
        played = move or Move(DECK[0])
        actions: dict[str, Callable[[], object]] = {
            "apply": lambda: match.apply(played),
            "apply-timed": lambda: match.apply(played, elapsed=1e9),
            "abandon": lambda: match.abandon(0),
            "timeout": match.timeout,
            "rematch": lambda: match.rematch(seed=0),
            "deal": lambda: match.deal(Deck.standard()),
        }
        with pytest.raises(IllegalMoveError):
            actions[action]()
        assert write_record(match) == record
        assert match.state.to_text() == text
        assert match.state.legal_moves() == moves

    # ------------------------------------------------------------------ rules

    @initialize(data=st.data(), seed=seeds, first_dealer=choices, decks=st.integers(0, 3))
    def start(self, data: st.DataObject, seed: int, first_dealer: int, decks: int) -> None:
        """A match from a seed, or from a few explicit decks (then it waits for more)."""
        rules = data.draw(st.sampled_from(self.presets), label="preset")
        dealer = first_dealer % rules.players
        if decks:
            given = [accepted_deck(rules, (seed + i) % 2**64) for i in range(decks)]
            self.match = Match.new(rules, decks=given, first_dealer=dealer)
            assert self.match.stream is None
            assert self.match.state == GameState.new(rules, deck=given[0], dealer=dealer)
        else:
            self.match = Match.new(rules, seed=seed, first_dealer=dealer)
            assert self.match.state == GameState.new(rules, seed=seed, dealer=dealer)
        self.points = []
        self.matches = 0
        self.outright = None

    @precondition(playing)
    @rule(choice=choices)
    def play_a_legal_move(self, choice: int) -> None:
        moves = self.match.state.legal_moves()
        self.play(moves[choice % len(moves)])

    @precondition(playing)
    @rule(seed=choices, hands=st.integers(1, 3))
    def play_hands_out(self, seed: int, hands: int) -> None:
        rng = random.Random(seed)
        goal = len(self.match.hands) + hands
        while self.playing() and len(self.match.hands) < goal:
            moves = self.match.state.legal_moves()
            self.play(moves[rng.randrange(len(moves))])

    @precondition(playing)
    @rule(seed=choices)
    def play_the_match_out(self, seed: int) -> None:
        rng = random.Random(seed)
        while self.playing():
            moves = self.match.state.legal_moves()
            self.play(moves[rng.randrange(len(moves))])
        assert self.match.is_over or self.match.awaiting_deal

    @precondition(playing)
    @rule(
        choice=choices,
        elapsed=st.floats(0, 30, allow_nan=False) | st.sampled_from([29.999, 30.001, 31.0, 1e6]),
        at_limit=st.booleans(),
    )
    def play_with_a_clock(self, choice: int, elapsed: float, at_limit: bool) -> None:
        limit = self.game_rules.move_time_limit
        if at_limit and limit is not None:
            elapsed = limit  # exactly on the limit is still in time
        before = self.match
        moves = before.state.legal_moves()
        move = moves[choice % len(moves)]
        if limit is not None and elapsed > limit:
            after = before.apply(move, elapsed=elapsed)
            player = before.state.current_player
            assert player is not None
            assert after.abandonment == Abandonment(
                player, len(before.hands) + 1, AbandonReason.TIMEOUT
            )
            assert after.state == before.state, "the late move is not played"
            assert after.hands == before.hands
            assert after.is_over
            assert after.winner != self.game_rules.side_of(player)
            self.match = after
        else:
            self.play(move, elapsed)

    @precondition(playing)
    @rule(elapsed=st.floats(max_value=-1e-9, min_value=-1e9, allow_nan=False))
    def a_negative_time_is_refused(self, elapsed: float) -> None:
        match = self.match
        record = write_record(match)
        with pytest.raises(InvalidArgumentError):
            match.apply(match.state.legal_moves()[0], elapsed=elapsed)
        assert write_record(match) == record

    @precondition(lambda self: not self.match.is_over)
    @rule(player=choices, reason=st.sampled_from([None, *AbandonReason]))
    def leave(self, player: int, reason: AbandonReason | None) -> None:
        """A player abandons for a reason, or (`None`) the player to move times out."""
        before = self.match
        if reason is None:
            if not self.playing():
                return
            mover = before.state.current_player
            assert mover is not None
            player, reason, after = mover, AbandonReason.TIMEOUT, before.timeout()
        else:
            player %= self.game_rules.players
            after = before.abandon(player, reason)
        assert after.abandonment == Abandonment(player, len(before.hands) + 1, reason)
        assert after.is_over
        assert after.hands == before.hands
        assert after.state == before.state
        quitter = self.game_rules.side_of(player)
        assert after.winner is not None
        assert after.winner != quitter
        outcomes = after.outcomes
        assert outcomes is not None
        for seat, outcome in enumerate(outcomes):
            side = self.game_rules.side_of(seat)
            if seat == player:
                assert outcome is Outcome.ABANDONED
            else:
                assert outcome is (Outcome.WIN if side == after.winner else Outcome.LOSS)
        self.match = after

    @rule(
        card=st.sampled_from(DECK),
        captured=st.sets(st.sampled_from(DECK), max_size=5),
        choice=choices,
        kind=st.sampled_from(("random", "extra", "missing", "laid")),
    )
    def an_illegal_move_changes_nothing(
        self, card: Card, captured: set[Card], choice: int, kind: str
    ) -> None:
        state = self.match.state
        moves = state.legal_moves()
        candidates = [Move(card, frozenset(captured - {card}))]
        if moves:
            legal = moves[choice % len(moves)]
            off_table = [c for c in DECK if c not in state.table and c != legal.card]
            if kind == "extra":  # a legal capture plus a card that is not on the table
                extra = off_table[choice % len(off_table)]
                candidates.insert(0, Move(legal.card, legal.captured | {extra}))
            elif kind == "missing" and len(legal.captured) > 1:  # a capture short of a card
                dropped = sorted(legal.captured)[choice % len(legal.captured)]
                candidates.insert(0, Move(legal.card, legal.captured - {dropped}))
            elif kind == "laid":  # laying down a card that must capture, maybe
                candidates.insert(0, Move(legal.card))
        for move in candidates:
            if move not in moves:
                self.check_refused("apply", move)
                record = write_record(self.match)
                with pytest.raises(IllegalMoveError):
                    state.apply(move)
                assert write_record(self.match) == record
                return

    @rule(keep=st.booleans())
    def save_and_reload(self, keep: bool) -> None:
        match = self.match
        back = check_record(match)
        assert back.abandonment == match.abandonment
        assert [h.points for h in back.hands] == self.points
        assert back.state.history == match.state.history
        assert back.stream == match.stream, "a seeded match deals on from the same stream"
        assert back.series_before == match.series_before, "the series goes on after a reload"
        if keep:  # go on with the reloaded match (explicit decks not yet dealt are lost)
            self.match = back

    @precondition(lambda self: self.match.awaiting_deal)
    @rule(seed=seeds)
    def deal_the_next_hand(self, seed: int) -> None:
        before = self.match
        deck = accepted_deck(self.game_rules, seed)
        after = before.deal(deck)
        dealer = (before.first_dealer + len(before.hands)) % self.game_rules.players
        assert after.state == GameState.new(self.game_rules, deck=deck, dealer=dealer)
        assert after.deck == deck
        assert after.hands == before.hands
        event("a hand dealt from a deck given by hand")
        self.match = after

    @precondition(lambda self: self.match.is_over and self.match.abandonment is None)
    @rule(seed=seeds)
    def rematch(self, seed: int) -> None:
        before = self.match
        after = before.rematch(seed=seed)
        # the player after the last hand's dealer, however the decks were given (a claim
        # ends a hand that is not recorded)
        played = len(before.hands) + (before.claim is not None)
        first = (before.first_dealer + played) % self.game_rules.players
        assert after.first_dealer == first
        assert after.state == GameState.new(self.game_rules, seed=seed, dealer=first)
        assert after.series_before == before.series
        assert after.hands == ()
        assert after.abandonment is None
        assert before.series.matches == before.series_before.matches + 1
        self.matches += 1
        assert after.series.matches == before.series.matches == self.matches
        self.match = after
        self.points = []
        self.outright = None

    def teardown(self) -> None:
        # Shown by --hypothesis-show-statistics: how far the matches got.
        match = self.match
        ended = "abandoned" if match.abandonment else "on points" if match.is_over else "playing"
        event(f"last match {ended}, {min(len(match.hands), 5)}+ hands, {self.matches} rematches")

    # ------------------------------------------------------------------ invariants

    @invariant()
    def every_property_reads(self) -> None:
        """Nothing a server reads from a match raises, whatever happened to it."""
        match = self.match
        _ = (match.is_over, match.winner, match.outcomes, match.settlement, match.series)
        _ = (match.hand_number, match.awaiting_deal, match.dealer, match.stream, match.totals)
        assert repr(match).startswith("<Match ")
        assert str(match)
        assert str(match.state)
        assert read_record(write_record(match)).totals == match.totals
        for player in range(self.game_rules.players):
            seen = view(match.state, player)
            assert seen.key
            assert seen.hand_score().points == match.state.hand_score().points

    @precondition(lambda self: not self.match.is_over)
    @rule(
        value=st.sampled_from([1.0, True, False, 0.5, "0", None, -1, 99]),
        elapsed=st.sampled_from([float("nan"), float("inf"), True, "1", -0.5]),
    )
    def values_of_the_wrong_kind_are_refused(self, value: object, elapsed: object) -> None:
        match = self.match
        record = write_record(match)
        error = (InvalidArgumentError,) if type(value) is int else (TypeError,)
        with pytest.raises(error):
            match.abandon(value)  # type: ignore[arg-type]
        if self.playing():
            move = match.state.legal_moves()[0]
            with pytest.raises((TypeError, InvalidArgumentError)):
                match.apply(move, elapsed=elapsed)  # type: ignore[arg-type]
        assert write_record(match) == record

    @invariant()
    def the_forty_cards_are_conserved(self) -> None:
        check_state(self.match.state)

    @invariant()
    def the_totals_are_the_sum_of_the_hands(self) -> None:
        expected = tuple(sum(hand[side] for hand in self.points) for side in range(self.sides))
        assert self.match.totals == expected
        assert [h.points for h in self.match.hands] == self.points
        if self.match.abandonment is None:
            assert self.match.winner == self.expected_winner(expected)

    def expected_winner(self, totals: tuple[int, ...]) -> int | None:
        """The winner the rules name, with these totals, when nobody abandoned.

        The rules are those of docs/rules.md#winning-the-match and #other-endings.
        """
        rules, claim = self.game_rules, self.match.claim
        if claim is not None:  # a correct claim wins, a false one loses
            claimant = rules.side_of(claim.player)
            if claim.correct:
                return claimant
            assert self.match.winner is not None
            assert self.match.winner != claimant
            return self.match.winner
        if self.outright is not None:
            return self.outright
        ahead = leader(totals, rules.target)
        if rules.lowest_total_wins:  # the match ends as usual, and the lowest total wins
            return None if ahead is None else lowest(totals)
        return ahead

    @invariant()
    def nothing_is_accepted_after_the_end(self) -> None:
        match = self.match
        if match.is_over:
            moves = match.state.legal_moves() or (Move(DECK[0]),)
            for move in {moves[0], moves[-1]}:
                self.check_refused("apply", move)
                self.check_refused("apply-timed", move)
            self.check_refused("abandon")
            self.check_refused("timeout")
            self.check_refused("deal")
            if match.abandonment is not None:  # a player left the table: no rematch
                self.check_refused("rematch")
        else:
            self.check_refused("rematch")
            if match.awaiting_deal:
                self.check_refused("apply", Move(DECK[0]))
                self.check_refused("timeout")
            else:
                self.check_refused("deal")

    @invariant()
    def the_brilli_follow_the_spec(self) -> None:
        match = self.match
        if match.rules.stakes is None:
            assert match.settlement is None
            return
        brilli = match.settlement
        assert brilli is not None
        assert match.rules.stakes == BrilliEconomy()
        assert match.rules.number_of_sides == 2
        assert brilli == expected_brilli(self.points, match.winner, match.abandonment)
        if match.abandonment is None:
            assert sum(brilli) <= 50
            assert all(b >= 0 for b in brilli)
            if match.is_over:
                assert sum(brilli) == 50


def machine_for(rules: Rules) -> type[MatchMachine]:
    """The machine restricted to one preset."""
    return type(f"MatchMachine_{rules.name}", (MatchMachine,), {"presets": (rules,)})


# Failures are not shrunk: shrinking whole matches takes minutes (up to 100 s for one
# failure), so a failure is reported as found; the tests after the machine pin down the
# bugs it found, each in a few lines.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@pytest.mark.parametrize("rules", [*PRESETS, CLAIMS], ids=[r.name for r in [*PRESETS, CLAIMS]])
def test_matches_of_every_preset(rules: Rules) -> None:
    run_state_machine_as_test(
        machine_for(rules),
        settings=settings(max_examples=12, stateful_step_count=30, phases=NO_SHRINK),
    )


TestMatchesOfAnyPreset = MatchMachine.TestCase
TestMatchesOfAnyPreset.settings = settings(
    max_examples=15, stateful_step_count=40, phases=NO_SHRINK
)


@pytest.mark.parametrize("rules", PRESETS[:2], ids=[r.name for r in PRESETS[:2]])
def test_a_match_abandoned_between_hands_has_a_readable_record(rules: Rules) -> None:
    # Found by the machine: a match of explicit decks waits for the next deck after a
    # hand; if a player abandons then, the record repeats the last hand as the next one.
    match = play_until(Match.new(rules, decks=[Deck.shuffled(1)]), lambda m: m.awaiting_deal)
    match = match.abandon(0)
    assert match.abandonment == Abandonment(0, 2, AbandonReason.VOLUNTARY)
    back = read_record(write_record(match))
    assert back.totals == match.totals
    assert back.abandonment == match.abandonment
    assert back.settlement == match.settlement
