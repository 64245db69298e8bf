"""Known answers for every preset, each computed by hand from SPEC.md §2–§6 and §8.

Conventions used throughout:

- Players are numbered from 0 and play goes upwards: after player p comes p + 1. The player
  after the dealer leads every round of a hand and the dealer plays last (§2).
- With 4 players side 0 is players 0 and 2 and side 1 is players 1 and 3; with 6 players
  side 0 is 0, 2, 4 and side 1 is 1, 3, 5. With 3 players each plays for self.
- Capture values: Ace 1 … King 10. Primiera (CLASSIC): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
  2=12, figures (8, 9, 10) 10; TRETRE is the same with A=15.
- In card lists `1-5D` is short for `1D 2D 3D 4D 5D`; in pile lists `*` is every card that
  is not in another pile.
- Unless a case says otherwise, the last player deals, so player 0 leads.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

import attrs
import pytest

from scopa import (
    DECK,
    AceOnAce,
    Captures,
    Card,
    Carte,
    CategoryScore,
    Deck,
    Denari,
    GameState,
    HandScore,
    IllegalMoveError,
    InvalidStateError,
    Match,
    MissingSuit,
    Move,
    Napola,
    Outcome,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    ReBello,
    Rules,
    ScoringComponent,
    ScoringRules,
    SeriesRecord,
    find_variant,
    variant_names,
)
from tests.helpers import card_list, cards, rest_of

Points = tuple[int, ...]
"""One number per side (or per player, where a case says so)."""

W, L, A = Outcome.WIN, Outcome.LOSS, Outcome.ABANDONED

# --------------------------------------------------------------------------- helpers


def moves(text: str) -> set[Move]:
    return {Move.parse(token) for token in text.split()}


def assert_legal(state: GameState, legal: str) -> None:
    """The legal moves are exactly those of `legal`, each listed once."""
    found = state.legal_moves()
    assert set(found) == moves(legal), f"{state}: {[str(m) for m in found]}"
    assert len(found) == len(legal.split())


def split_piles(piles: Sequence[str]) -> list[frozenset[Card]]:
    """Each player's pile; `*` is every card not in another pile."""
    named = [frozenset() if text == "*" else cards(text) for text in piles]
    rest = rest_of(*named)
    return [rest if text == "*" else pile for text, pile in zip(piles, named, strict=True)]


def finished(rules: Rules, piles: Sequence[str], scope: Sequence[int] | None = None) -> GameState:
    """The end of a hand whose 40 cards are split among the players' piles as given."""
    players = rules.players
    split = split_piles(piles)
    assert sum(len(pile) for pile in split) == 40, "a pile partition must hold the 40 cards"
    empty: list[frozenset[Card]] = [frozenset()] * players
    state = GameState.from_position(
        rules,
        hands=empty,
        table=(),
        stock=(),
        dealer=players - 1,
        piles=split,
        scope=scope,
        last_capturer=next(p for p in range(players) if split[p]),
    )
    assert state.is_terminal
    return state


def scored(rules: Rules, piles: Sequence[str], scope: Sequence[int] | None = None) -> HandScore:
    return finished(rules, piles, scope).hand_score()


def lead(rules: Rules, dealer: int, hand: str, table: str) -> GameState:
    """The leader (the player after `dealer`) holds `hand` over `table`; the stock is empty.

    Every other player holds as many filler cards (the lowest free ones) and the dealer has
    captured all the other cards, so the leader's play is never the last play of the hand.
    """
    players = rules.players
    leader = (dealer + 1) % players
    held = cards(hand)
    on_table = cards(table)
    free = iter(sorted(rest_of(held, on_table)))
    hands = [
        held if player == leader else frozenset(next(free) for _ in held)
        for player in range(players)
    ]
    piles: list[frozenset[Card]] = [frozenset()] * players
    piles[dealer] = rest_of(*hands, on_table)
    return GameState.from_position(
        rules,
        hands=hands,
        table=on_table,
        stock=(),
        dealer=dealer,
        piles=piles,
        last_capturer=dealer,
    )


def with_scoring(rules: Rules, *components: ScoringComponent) -> Rules:
    """The rules with their scoring categories replaced by `components`."""
    return attrs.evolve(rules, scoring=ScoringRules(components))


def plus(rules: Rules, component: ScoringComponent) -> Rules:
    """The rules with one more scoring category, scored last."""
    return attrs.evolve(rules, scoring=rules.scoring.with_component(component))


# --------------------------------------------------------------------------- case kinds


@dataclass(frozen=True)
class Play:
    """The leader holds `hand` over `table`: exactly the `legal` moves, none of `illegal`.

    With `play`, that move is made: the table becomes `after`, the leader's pile gains
    `taken`, and `scopa` says whether it scored a sweep.
    """

    name: str
    hand: str
    table: str
    legal: str
    illegal: str = ""
    play: str | None = None
    after: str = ""
    taken: str = ""
    scopa: bool = False
    kind: ClassVar[str] = "capture"

    def check(self, rules: Rules) -> None:
        players = rules.players
        dealer = players - 1
        state = lead(rules, dealer, self.hand, self.table)
        assert state.current_player == 0
        assert_legal(state, self.legal)
        for text in self.illegal.split():
            with pytest.raises(IllegalMoveError):
                state.apply(Move.parse(text))
        if self.play is None:
            return
        after = state.apply(Move.parse(self.play))
        assert after.table == cards(self.after)
        assert after.piles[0] - state.piles[0] == cards(self.taken)
        assert after.scope == (int(self.scopa),) + (0,) * (players - 1)
        assert after.last_capturer == (0 if self.taken else dealer)
        assert after.current_player == 1
        assert not after.is_terminal


@dataclass(frozen=True)
class Script:
    """Play `steps` from a position with empty stock; each step lists every legal move.

    The dealer has captured every card not in a hand or on the table. At the end each
    player's pile has gained `gains[p]`, the scope are `scope` (per player), the table is
    `table_after`, and the hand is over when `terminal`.
    """

    name: str
    kind: str
    dealer: int
    hands: tuple[str, ...]
    table: str
    steps: tuple[tuple[str, str], ...]
    gains: tuple[str, ...]
    scope: Points
    table_after: str = ""
    terminal: bool = True

    def check(self, rules: Rules) -> None:
        players = rules.players
        held = [cards(hand) for hand in self.hands]
        on_table = cards(self.table)
        rest = rest_of(*held, on_table)
        piles: list[frozenset[Card]] = [frozenset()] * players
        piles[self.dealer] = rest
        state = GameState.from_position(
            rules,
            hands=held,
            table=on_table,
            stock=(),
            dealer=self.dealer,
            piles=piles,
            last_capturer=self.dealer if rest else None,
        )
        start = state
        for step, (legal, play) in enumerate(self.steps):
            # the leader is the player after the dealer; then play goes upwards
            assert state.current_player == (self.dealer + 1 + step) % players
            assert_legal(state, legal)
            state = state.apply(Move.parse(play))
        assert state.is_terminal is self.terminal
        if self.terminal:
            # the dealer made the last play
            assert (self.dealer + len(self.steps)) % players == self.dealer
            assert state.legal_moves() == ()
        assert state.table == cards(self.table_after)
        for player in range(players):
            assert state.piles[player] - start.piles[player] == cards(self.gains[player])
        assert state.scope == self.scope


@dataclass(frozen=True)
class Misdeal:
    """A first table that the preset's misdeal rule annuls or accepts."""

    name: str
    table: str
    annulled: bool
    kind: ClassVar[str] = "misdeal"

    def check(self, rules: Rules) -> None:
        table = card_list(self.table)
        assert len(table) == rules.table_size
        assert rules.misdeal.annuls(table) is self.annulled
        dealt = rules.players * rules.hand_size
        head = sorted(rest_of(table))[:dealt]
        deck = Deck([*head, *table, *sorted(rest_of(head, table))])
        dealer = rules.players - 1
        if self.annulled:
            with pytest.raises(InvalidStateError, match="annulled"):
                GameState.new(rules, deck=deck, dealer=dealer)
        else:
            assert GameState.new(rules, deck=deck, dealer=dealer).table == frozenset(table)


@dataclass(frozen=True)
class Deal:
    """A hand dealt from the standard deck order (1D … 10D, 1C … 10B) and played out.

    The first deal gives `hands` (per player) and `table`; the leader's legal moves are
    `first_legal`. Played out with the first legal move each time, the hand has `deals`
    deals, each led by the player after the dealer, and `plays` plays, the dealer's last.
    """

    name: str
    dealer: int
    hands: tuple[str, ...]
    table: str
    first_legal: str
    deals: int
    plays: int
    kind: ClassVar[str] = "deal"

    def check(self, rules: Rules) -> None:
        players = rules.players
        leader = (self.dealer + 1) % players
        state = GameState.new(rules, deck=Deck.standard(), dealer=self.dealer)
        assert state.hands == tuple(cards(hand) for hand in self.hands)
        assert state.table == cards(self.table)
        full = players * rules.hand_size
        assert state.stock == DECK[full + rules.table_size :]
        assert state.current_player == leader
        assert_legal(state, self.first_legal)
        assert (rules.deals_per_hand, rules.plays_per_hand) == (self.deals, self.plays)
        deals = plays = 0
        mover: int | None = None
        while not state.is_terminal:
            if sum(len(hand) for hand in state.hands) == full:
                deals += 1
                assert state.current_player == leader
            mover = state.current_player
            state = state.apply(state.legal_moves()[0])
            plays += 1
        assert (deals, plays) == (self.deals, self.plays)
        assert mover == self.dealer
        # the leftovers went to the last capturer: every card is in a pile
        assert state.table == frozenset()
        assert sum(len(pile) for pile in state.piles) == 40


@dataclass(frozen=True)
class Score:
    """A finished hand: `piles` (per player, `*` the rest) and `scope` (per player).

    Expectations are per side: `(figures, points)` for carte, denari and primiera.
    """

    name: str
    piles: tuple[str, ...]
    scope: Points
    scope_points: Points
    carte: tuple[Points, Points]
    denari: tuple[Points, Points]
    settebello: Points
    primiera: tuple[Points, Points]
    total: Points
    kind: ClassVar[str] = "score"

    def check(self, rules: Rules) -> None:
        score = scored(rules, self.piles, self.scope)
        assert [c.name for c in score] == ["scope", "carte", "denari", "settebello", "primiera"]
        assert score["scope"].points == self.scope_points
        assert score["scope"].figures == self.scope_points
        assert (score["carte"].figures, score["carte"].points) == self.carte
        assert (score["denari"].figures, score["denari"].points) == self.denari
        assert score["settebello"].points == self.settebello
        assert (score["primiera"].figures, score["primiera"].points) == self.primiera
        assert score.points == self.total


PresetCase = Play | Script | Misdeal | Deal | Score

# --------------------------------------------------------------------------- shared cases

# §8 KA-11/KA-12 and an Ace's end of hand, shared by scopa d'assi (the sweep is no scopa) and
# asso piglia tutto (it is), 2 players, dealer 1. The position: player 0 holds 1D 5C, the
# dealer 1S 9B, the table is {3C,6S,10D}.
# 1. 1D takes the whole table (no Ace on it); 5C: no 5 and no two of {3,6,10} make 5: laid.
# 2. Empty table: both cards may be laid (an Ace on an empty table is only laid).
# 3. 5C on {9B}: laid.
# 4. The dealer's 1S takes {9B,5C}: the last play of the hand, never a scopa.


def _ace_end(scope: Points) -> Script:
    return Script(
        "ace-sweeps-then-final-sweep",
        "end",
        dealer=1,
        hands=("1D 5C", "1S 9B"),
        table="3C 6S 10D",
        steps=(
            ("1Dx3C+6S+10D 5C", "1Dx3C+6S+10D"),
            ("1S 9B", "9B"),
            ("5C", "5C"),
            ("1Sx9B+5C", "1Sx9B+5C"),
        ),
        gains=("1D 3C 6S 10D", "1S 9B 5C"),
        scope=scope,
    )


# §2: two players, 3 cards each and 4 on the table: 36 / 6 = 6 deals, 36 plays. From the
# standard order with dealer 1: player 0 gets 1-3D, the dealer 4-6D, the table 7-10D.
def _two_player_deal(first_legal: str, dealer: int = 1) -> Deal:
    hands = ("1-3D", "4-6D") if dealer == 1 else ("4-6D", "1-3D")
    return Deal("two-players", dealer, hands, "7-10D", first_legal, deals=6, plays=36)


# The same piles scored by classic and by tretre (§5). Player 0 = 1-7D 1C 6C 7C 6S 7S
# (12 cards, 7 denari, no bastoni); player 1 = 8-10D 2-5C 8-10C 1-5S 8-10S 1-10B (28).
# Primiera: player 0 = 7D + 7C + 7S = 63 (both tables), incomplete. Player 1 = 10 (a figure
# of D) + 5C 15 + 1S (16 classic, 15 tretre; 5S 15) + 7B 21 = 62 classic, 61 tretre.
# Classic (OPPONENT_WINS): player 1, the only side with all suits. Tretre (ZERO): 63 > 61,
# player 0.
_LACKS_BASTONI = ("1-7D 1C 6C 7C 6S 7S", "*")

# Three players (scored in scopa-3 and under each missing-suit policy below).
_THREE_PILES = (
    "1D 6D 7D 1C 4-7C 1S 4-7S",
    "2D 5D 8D 9D 2C 8C 9C 2S 8S 1-4B 7B",
    "3D 4D 10D 3C 10C 3S 9S 10S 5B 6B 8-10B",
)


# --------------------------------------------------------------------------- the presets

PRESET_CASES: dict[str, tuple[PresetCase, ...]] = {
    "classic": (
        # Equal rank first, any sum otherwise: 8 on {1,2,5,3,6}: pairs 2+6, 3+5; the triple
        # 1+2+5 (1+2+3 = 6, 1+2+6 = 9, 1+3+5 = 9, …; four cards make 11 at least). The
        # triple is allowed here and not in scopone.
        Play(
            "sum-of-three-allowed",
            "8C",
            "1D 2S 5B 3C 6B",
            legal="8Cx2S+6B 8Cx3C+5B 8Cx1D+2S+5B",
            play="8Cx1D+2S+5B",
            after="3C 6B",
            taken="8C 1D 2S 5B",
        ),
        # KA-11, classic: no Ace sweep; no 1 on the table and no sum of 2+ cards is 1.
        Play("ace-does-not-sweep", "1D", "2C 5S 10B", legal="1D", play="1D", after="2C 5S 10B 1D"),
        # KA-01: the 7B must be taken; 3+4 beside it is not allowed, nor laying the 7.
        Play("equal-rank-first", "7D", "3C 4S 7B", legal="7Dx7B", illegal="7Dx3C+4S 7D"),
        # KA-16, THREE_PLUS_KINGS.
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        Misdeal("four-fives", "5D 5C 5S 5B", annulled=False),
        Misdeal("two-aces", "1C 1S 6B 8D", annulled=False),
        # Leader {1,2,3}D over {7,8,9,10}D: no equal rank, every sum of two is 15+: laid.
        _two_player_deal("1D 2D 3D"),
        # Last deal, second round. 1. 9C: 4+5 = 9 (2B cannot capture): a scopa, the dealer
        # still holds cards. 2. Empty table. 3. 2B on {4S}: laid. 4. The dealer's 6C takes
        # 4+2, emptying the table on the last play of the hand: no scopa (KA-13).
        Script(
            "final-sweep-no-scopa",
            "end",
            dealer=1,
            hands=("9C 2B", "4S 6C"),
            table="4D 5B",
            steps=(
                ("9Cx4D+5B 2B", "9Cx4D+5B"),
                ("4S 6C", "4S"),
                ("2B", "2B"),
                ("6Cx4S+2B", "6Cx4S+2B"),
            ),
            gains=("9C 4D 5B", "6C 4S 2B"),
            scope=(1, 0),
        ),
        # Player 0 = 1-6D 1C 7C 2-4S 8-10B (6 + 2 + 3 + 3 = 14 cards, 6 denari); player 1 the
        # other 26 (4 denari, 7D). Primiera 0: 6D 18 + 7C 21 + 4S 14 + a figure 10 = 63;
        # 1: 7D 21 + 6C 18 + 7S 21 + 7B 21 = 81. Scope 2-1.
        # Points: scope 2-1, carte 0-1, denari 1-0, settebello 0-1, primiera 0-1: 3-4.
        Score(
            "mixed",
            piles=("1-6D 1C 7C 2-4S 8-10B", "*"),
            scope=(2, 1),
            scope_points=(2, 1),
            carte=((14, 26), (0, 1)),
            denari=((6, 4), (1, 0)),
            settebello=(0, 1),
            primiera=((63, 81), (0, 1)),
            total=(3, 4),
        ),
        # _LACKS_BASTONI under classic: primiera 63-62 goes to player 1 (player 0 lacks
        # bastoni). Carte 12-28: 1; denari 7-3: 0; settebello 0. Scope 0-2. Total 2-4.
        Score(
            "lacks-bastoni",
            piles=_LACKS_BASTONI,
            scope=(0, 2),
            scope_points=(0, 2),
            carte=((12, 28), (0, 1)),
            denari=((7, 3), (1, 0)),
            settebello=(1, 0),
            primiera=((63, 62), (0, 1)),
            total=(2, 4),
        ),
    ),
    "tretre": (
        # KA-16, TRETRE: four of a kind of any rank, or 3+ Kings.
        Misdeal("four-fives", "5D 5C 5S 5B", annulled=True),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        Misdeal("four-kings", "10D 10C 10S 10B", annulled=True),
        Misdeal("three-nines", "9D 9C 9S 2B", annulled=False),
        Misdeal("two-kings", "10D 10C 3B 4D", annulled=False),
        # KA-03: one of the two 5s, never both.
        Play("one-of-two-fives", "5D", "5C 5S 3B", legal="5Dx5C 5Dx5S", illegal="5Dx5C+5S"),
        # Dealer 0: player 1 leads and gets the first three cards.
        _two_player_deal("1D 2D 3D", dealer=0),
        # Dealer 0, player 1 leads. 1. 3C: no 3; only 2+1 = 3. 2. The dealer's 10S: 4+6 = 10,
        # the table is emptied on the last play: no scopa (KA-13, READING §7.3).
        Script(
            "final-sweep-no-scopa",
            "end",
            dealer=0,
            hands=("10S", "3C"),
            table="2D 1C 4B 6B",
            steps=(("3Cx2D+1C", "3Cx2D+1C"), ("10Sx4B+6B", "10Sx4B+6B")),
            gains=("10S 4B 6B", "3C 2D 1C"),
            scope=(0, 0),
        ),
        # _LACKS_BASTONI under tretre: primiera 63-61 to player 0 (a missing suit counts 0).
        # Carte 0-1, denari 1-0, settebello 1-0, scope 0-2: 3-3.
        Score(
            "lacks-bastoni-zero",
            piles=_LACKS_BASTONI,
            scope=(0, 2),
            scope_points=(0, 2),
            carte=((12, 28), (0, 1)),
            denari=((7, 3), (1, 0)),
            settebello=(1, 0),
            primiera=((63, 61), (1, 0)),
            total=(3, 3),
        ),
    ),
    "scopa-3": (
        # Captures are classic's (KA-06: the 5B, not 2+3); after the leader comes player 1,
        # not the dealer.
        Play(
            "equal-rank-first",
            "5D",
            "2C 3S 5B",
            legal="5Dx5B",
            illegal="5Dx2C+3S",
            play="5Dx5B",
            after="2C 3S",
            taken="5D 5B",
        ),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        Misdeal("four-fives", "5D 5C 5S 5B", annulled=False),
        # §2: 3 players, 36 / 9 = 4 deals. Dealer 2: player 0 gets 1-3D, 1 gets 4-6D, 2 gets
        # 7-9D, the table 10D 1C 2C 3C. Each of 1D, 2D, 3D must take its equal (not 1+2).
        Deal(
            "three-players",
            dealer=2,
            hands=("1-3D", "4-6D", "7-9D"),
            table="10D 1-3C",
            first_legal="1Dx1C 2Dx2C 3Dx3C",
            deals=4,
            plays=36,
        ),
        # Last deal, second round, dealer 2.
        # 1. 10B: 4+6 = 10 (2+4, 2+6, 2+4+6 are not); 5D: nothing makes 5: laid.
        # 2. On {2B}: nothing captures. 3. 5S: 2+3; 7B: no. The dealer still holds 7B: a scopa.
        # 4. 5D on the empty table. 5. 5C takes 5D: a scopa (not the last play).
        # 6. The dealer's 7B is laid on the last play; it goes to player 1, the last capturer.
        Script(
            "leftover-to-last-capturer",
            "end",
            dealer=2,
            hands=("10B 5D", "3D 5C", "5S 7B"),
            table="4C 6S 2B",
            steps=(
                ("10Bx4C+6S 5D", "10Bx4C+6S"),
                ("3D 5C", "3D"),
                ("5Sx2B+3D 7B", "5Sx2B+3D"),
                ("5D", "5D"),
                ("5Cx5D", "5Cx5D"),
                ("7B", "7B"),
            ),
            gains=("10B 4C 6S", "5C 5D 7B", "5S 2B 3D"),
            scope=(0, 1, 1),
        ),
        # Player 0 = 1D 6D 7D 1C 4-7C 1S 4-7S (13 cards, 3 denari, no bastoni);
        # player 1 = 2D 5D 8D 9D 2C 8C 9C 2S 8S 1-4B 7B (14, 4 denari);
        # player 2 = 3D 4D 10D 3C 10C 3S 9S 10S 5B 6B 8-10B (13, 3 denari).
        # Carte 13-14-13: player 1. Denari 3-4-3: player 1. Settebello: player 0.
        # Primiera: 0 = 7D+7C+7S = 63 but lacks bastoni; 1 = 5D 15 + 2C 12 + 2S 12 + 7B 21 =
        # 60; 2 = 4D 14 + 3C 13 + 3S 13 + 6B 18 = 58. OPPONENT_WINS: the best of the sides
        # with every suit, player 1. Scope 1-0-2. Total 2-3-2.
        Score(
            "three-each-for-self",
            piles=_THREE_PILES,
            scope=(1, 0, 2),
            scope_points=(1, 0, 2),
            carte=((13, 14, 13), (0, 1, 0)),
            denari=((3, 4, 3), (0, 1, 0)),
            settebello=(1, 0, 0),
            primiera=((63, 60, 58), (0, 1, 0)),
            total=(2, 3, 2),
        ),
    ),
    "scopa-4": (
        # KA-09 with 4 players: 7D must take 2+5 (a scopa), 10B cannot capture and is laid.
        Play(
            "must-capture",
            "7D 10B",
            "2C 5S",
            legal="7Dx2C+5S 10B",
            illegal="7D",
            play="7Dx2C+5S",
            taken="7D 2C 5S",
            scopa=True,
        ),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        Misdeal("four-fives", "5D 5C 5S 5B", annulled=False),
        # §2: 4 players, 36 / 12 = 3 deals. Dealer 3: 0 gets 1-3D, 1 4-6D, 2 7-9D,
        # 3 10D 1C 2C; the table 3-6C. 3D takes its equal 3C; 1D and 2D cannot capture.
        Deal(
            "four-players",
            dealer=3,
            hands=("1-3D", "4-6D", "7-9D", "10D 1C 2C"),
            table="3-6C",
            first_legal="1D 2D 3Dx3C",
            deals=3,
            plays=36,
        ),
        # Last round, dealer 3. 1. 9D: only 2+7 (2+5 = 7, 5+7 = 12). 2. 6B on {5B}: laid.
        # 3. 5C takes its equal 5B. 4. The dealer's 3D is laid on the last play; {6B,3D}
        # go to player 2, the last capturer, so to side 0, not to the dealer's side.
        Script(
            "leftovers-to-partner",
            "end",
            dealer=3,
            hands=("9D", "6B", "5C", "3D"),
            table="2C 7S 5B",
            steps=(("9Dx2C+7S", "9Dx2C+7S"), ("6B", "6B"), ("5Cx5B", "5Cx5B"), ("3D", "3D")),
            gains=("9D 2C 7S", "", "5C 5B 6B 3D", ""),
            scope=(0, 0, 0, 0),
        ),
        # Side 0: player 0 = 1-4D 7D 1C 7C, player 2 = 6S 7S 1-3B: 12 cards, 5 denari; each
        # lacks two suits, together they hold all four: 7D 21 + 7C 21 + 7S 21 + 1B 16 = 79.
        # Side 1: player 1 = 5D 6D 8-10D 2-6C 8-10C, player 3 = 1-5S 8-10S 4-10B: 28 cards,
        # 5 denari; 6D 18 + 6C 18 + 1S 16 + 7B 21 = 73. Scope 1+1 against 1+2.
        # Points: scope 2-3, carte 0-1, denari 5-5 none, settebello 1-0, primiera 1-0: 4-4.
        Score(
            "partners-pool",
            piles=("1-4D 7D 1C 7C", "5D 6D 8-10D 2-6C 8-10C", "6S 7S 1-3B", "1-5S 8-10S 4-10B"),
            scope=(1, 1, 1, 2),
            scope_points=(2, 3),
            carte=((12, 28), (0, 1)),
            denari=((5, 5), (0, 0)),
            settebello=(1, 0),
            primiera=((79, 73), (1, 0)),
            total=(4, 4),
        ),
    ),
    "scopa-6": (
        # 10 on {1,2,3,4}: pairs reach 7, triples 9: only all four; a scopa.
        Play(
            "four-card-sweep",
            "10C",
            "1D 2S 3B 4C",
            legal="10Cx1D+2S+3B+4C",
            play="10Cx1D+2S+3B+4C",
            taken="10C 1D 2S 3B 4C",
            scopa=True,
        ),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        # §2: 6 players, 36 / 18 = 2 deals. Dealer 5: 1-3D, 4-6D, 7-9D, 10D 1C 2C, 3-5C,
        # 6-8C; the table 9C 10C 1S 2S. 1D and 2D take their equals; 3D: no 3, 1+2.
        Deal(
            "six-players",
            dealer=5,
            hands=("1-3D", "4-6D", "7-9D", "10D 1C 2C", "3-5C", "6-8C"),
            table="9C 10C 1S 2S",
            first_legal="1Dx1S 2Dx2S 3Dx1S+2S",
            deals=2,
            plays=36,
        ),
        # Last round, dealer 5. 1. 6D: no 6, the pairs make 3, 4, 5: only 1+2+3, a scopa.
        # 2-4. 4D, 9C, 5B are laid (5: no 5, 4+9 = 13). 5. 9S must take the 9C (not 4+5).
        # 6. 10B: 4+5 = 9, laid on the last play; {4D,5B,10B} go to player 4 (side 0).
        Script(
            "leftovers-to-team",
            "end",
            dealer=5,
            hands=("6D", "4D", "9C", "5B", "9S", "10B"),
            table="1C 2S 3B",
            steps=(
                ("6Dx1C+2S+3B", "6Dx1C+2S+3B"),
                ("4D", "4D"),
                ("9C", "9C"),
                ("5B", "5B"),
                ("9Sx9C", "9Sx9C"),
                ("10B", "10B"),
            ),
            gains=("6D 1C 2S 3B", "", "", "", "9S 9C 4D 5B 10B", ""),
            scope=(1, 0, 0, 0, 0, 0),
        ),
        # Side 0: 1-6D (player 0) + 1-5C 7-10C (2) + 1-5S (4) = 20 cards, 6 denari, no
        # bastoni: 6D 18 + 7C 21 + 1S 16 = 55, incomplete. Side 1: 7-10D (1) + 6-10S (3) +
        # 6C 1-10B (5) = 20 cards, 4 denari: 7D 21 + 6C 18 + 7S 21 + 7B 21 = 81.
        # Scope 0+2+1 against 1+0+0. Points: scope 3-1, carte 20-20 none, denari 1-0,
        # settebello 0-1, primiera 0-1: 4-3.
        Score(
            "teams-of-three",
            piles=("1-6D", "7-10D", "1-5C 7-10C", "6-10S", "1-5S", "6C 1-10B"),
            scope=(0, 1, 2, 0, 1, 0),
            scope_points=(3, 1),
            carte=((20, 20), (0, 0)),
            denari=((6, 4), (1, 0)),
            settebello=(0, 1),
            primiera=((55, 81), (0, 1)),
            total=(4, 3),
        ),
    ),
    "scopone": (
        # MIN_CARDS: the same position as classic's sum-of-three-allowed; only the two pairs.
        Play(
            "fewest-cards",
            "8C",
            "1D 2S 5B 3C 6B",
            legal="8Cx2S+6B 8Cx3C+5B",
            illegal="8Cx1D+2S+5B",
            play="8Cx3C+5B",
            after="1D 2S 6B",
            taken="8C 3C 5B",
        ),
        # KA-05 MIN_CARDS: 4+5 is the only pair; the triples 1+3+5 and 2+3+4 are refused.
        Play("KA-05", "9D", "1C 2S 3B 4C 5S", legal="9Dx4C+5S", illegal="9Dx1C+3B+5S"),
        # KA-01: the single 7 is the fewest cards.
        Play("single-card-first", "7D", "3C 4S 7B", legal="7Dx7B", illegal="7Dx3C+4S"),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=True),
        Misdeal("four-fives", "5D 5C 5S 5B", annulled=False),
        # §2: 9 cards each, 4 on the table, 1 deal. Dealer 3: 1-9D, 10D 1-8C, 9C 10C 1-7S,
        # 8-10S 1-6B; the table 7-10B. 7D, 8D, 9D take their equals; 1D-6D cannot capture
        # (two table cards make 15 at least).
        Deal(
            "one-deal-of-nine",
            dealer=3,
            hands=("1-9D", "10D 1-8C", "9C 10C 1-7S", "8-10S 1-6B"),
            table="7-10B",
            first_legal="1D 2D 3D 4D 5D 6D 7Dx7B 8Dx8B 9Dx9B",
            deals=1,
            plays=36,
        ),
        # Last round, dealer 3. 1. 9D: fewest cards: 1+8 or 4+5 (not 1+3+5). 2. 4C: 1+3.
        # 3. 8D takes 8S: a scopa. 4. The dealer's 2B is laid; it goes to player 2.
        Script(
            "fewest-cards-to-the-end",
            "end",
            dealer=3,
            hands=("9D", "4C", "8D", "2B"),
            table="1C 3S 4B 5C 8S",
            steps=(
                ("9Dx1C+8S 9Dx4B+5C", "9Dx4B+5C"),
                ("4Cx1C+3S", "4Cx1C+3S"),
                ("8Dx8S", "8Dx8S"),
                ("2B", "2B"),
            ),
            gains=("9D 4B 5C", "4C 1C 3S", "8D 8S 2B", ""),
            scope=(0, 0, 1, 0),
        ),
        # Side 0: 1-10D (player 0) + 7C 7S 7B (2) = 13 cards, 10 denari, primiera 84.
        # Side 1: 1-6C 8-10C (1) + 1-6S 8-10S 1-6B 8-10B (3) = 27 cards, no denaro:
        # 6C + 6S + 6B = 54, incomplete. Scope 1+0 against 3+2.
        # Points: scope 1-5, carte 0-1, denari 1-0, settebello 1-0, primiera 1-0: 4-6.
        Score(
            "all-denari",
            piles=("1-10D", "1-6C 8-10C", "7C 7S 7B", "1-6S 8-10S 1-6B 8-10B"),
            scope=(1, 3, 0, 2),
            scope_points=(1, 5),
            carte=((13, 27), (0, 1)),
            denari=((10, 0), (1, 0)),
            settebello=(1, 0),
            primiera=((84, 54), (1, 0)),
            total=(4, 6),
        ),
    ),
    "scopone-scientifico": (
        # MIN_CARDS: 9 on {2,3,4,5,7}: 2+7 and 4+5; the triple 2+3+4 is refused.
        Play(
            "fewest-cards",
            "9B",
            "2D 3C 4S 5D 7C",
            legal="9Bx2D+7C 9Bx4S+5D",
            illegal="9Bx2D+3C+4S",
        ),
        # §2: 10 cards each, no table, 1 deal of 40 plays. Dealer 3: a whole suit each.
        Deal(
            "one-deal-of-ten",
            dealer=3,
            hands=("1-10D", "1-10C", "1-10S", "1-10B"),
            table="",
            first_legal="1D 2D 3D 4D 5D 6D 7D 8D 9D 10D",
            deals=1,
            plays=40,
        ),
        # Dealer 0: player 1 leads. 1. 10B: 7+3, a scopa. 2-3. 6D and 2S laid. 4. The dealer's
        # 8B takes 6+2 on the last play: no scopa (scopa_on_last_play off, §4).
        Script(
            "dealer-zero-final-sweep",
            "end",
            dealer=0,
            hands=("8B", "10B", "6D", "2S"),
            table="7C 3S",
            steps=(
                ("10Bx7C+3S", "10Bx7C+3S"),
                ("6D", "6D"),
                ("2S", "2S"),
                ("8Bx6D+2S", "8Bx6D+2S"),
            ),
            gains=("8B 6D 2S", "10B 7C 3S", "", ""),
            scope=(0, 1, 0, 0),
        ),
        # Side 0: 1-5D 7D (0) + 7-10C 6S 6B (2) = 12 cards, 6 denari; 7D+7C+6S+6B = 78.
        # Side 1: 6D 8-10D 1-6C (1) + 1-5S 7-10S 1-5B 7-10B (3) = 28 cards, 4 denari;
        # 6D+6C+7S+7B = 78: a tie, no point. Scope 0+1 against 2+1.
        # Points: scope 1-3, carte 0-1, denari 1-0, settebello 1-0, primiera none: 3-4.
        Score(
            "primiera-tie",
            piles=("1-5D 7D", "6D 8-10D 1-6C", "7-10C 6S 6B", "1-5S 7-10S 1-5B 7-10B"),
            scope=(0, 2, 1, 1),
            scope_points=(1, 3),
            carte=((12, 28), (0, 1)),
            denari=((6, 4), (1, 0)),
            settebello=(1, 0),
            primiera=((78, 78), (0, 0)),
            total=(3, 4),
        ),
    ),
    "scopa-d-assi": (
        # KA-11: the Ace takes the whole table, not a scopa in scopa d'assi.
        Play(
            "KA-11",
            "1D",
            "2C 5S 10B",
            legal="1Dx2C+5S+10B",
            play="1Dx2C+5S+10B",
            taken="1D 2C 5S 10B",
        ),
        # KA-12: an Ace on the table: the Ace takes only it; no scopa.
        Play(
            "KA-12",
            "1D",
            "1C 6S 7B",
            legal="1Dx1C",
            illegal="1Dx1C+6S+7B",
            play="1Dx1C",
            after="6S 7B",
            taken="1D 1C",
        ),
        # A lone card swept by an Ace: still no scopa.
        Play("ace-sweeps-lone-card", "1D", "9C", legal="1Dx9C", play="1Dx9C", taken="1D 9C"),
        # TAKE_ACE_ONLY: a lone Ace taken by an Ace is a scopa (§3.6, "unless that Ace was
        # alone").
        Play(
            "lone-ace-is-scopa", "1D", "1C", legal="1Dx1C", play="1Dx1C", taken="1D 1C", scopa=True
        ),
        # Two Aces on the table: either one.
        Play("two-aces", "1D", "1C 1S 8B", legal="1Dx1C 1Dx1S"),
        # KA-10: an Ace on an empty table is laid.
        Play("ace-on-empty-table", "1D 4C", "", legal="1D 4C"),
        # Other cards capture as in classic: 5C takes 2+3.
        Play("other-cards", "1D 5C", "2S 3B", legal="1Dx2S+3B 5Cx2S+3B"),
        # misdeal NONE: no first table is annulled.
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=False),
        Misdeal("two-aces", "1C 1S 6B 8D", annulled=False),
        # Leader {1,2,3}D over {7,8,9,10}D: 1D sweeps it; 2D and 3D are laid.
        _two_player_deal("1Dx7D+8D+9D+10D 2D 3D"),
        _ace_end((0, 0)),
        # Player 0 = 1-6D 1C 1S 1B 7-10B (13 cards, 6 denari): 6D 18 + 1C 16 + 1S 16 + 7B 21
        # = 71. Player 1 = 7-10D 2-10C 2-10S 2-6B (27, 4 denari): 7D + 7C + 7S 21 each + 6B
        # 18 = 81. Points: scope 1-0, carte 0-1, denari 1-0, settebello 0-1, primiera 0-1.
        Score(
            "four-aces",
            piles=("1-6D 1C 1S 1B 7-10B", "*"),
            scope=(1, 0),
            scope_points=(1, 0),
            carte=((13, 27), (0, 1)),
            denari=((6, 4), (1, 0)),
            settebello=(0, 1),
            primiera=((71, 81), (0, 1)),
            total=(2, 3),
        ),
    ),
    "scopa-d-assi-4": (
        # The sweep by an Ace with 4 players: all the table, no scopa.
        Play("ace-sweep", "1D", "3C 9S", legal="1Dx3C+9S", play="1Dx3C+9S", taken="1D 3C 9S"),
        # No regola del vile here: the first lead may be an Ace. Dealer 3.
        # 1. Empty table: any card. 2. On {1D}: nothing captures. 3. On {1D,5D}: 1S takes the
        # 1D only; 5S its equal; 6S = 1+5, a scopa; the others are laid.
        Script(
            "ace-may-lead",
            "capture",
            dealer=3,
            hands=("1D 1-9C", "2-10D 10C", "1-10S", "1-10B"),
            table="",
            steps=(
                ("1D 1C 2C 3C 4C 5C 6C 7C 8C 9C", "1D"),
                ("2D 3D 4D 5D 6D 7D 8D 9D 10D 10C", "5D"),
                ("1Sx1D 2S 3S 4S 5Sx5D 6Sx1D+5D 7S 8S 9S 10S", "6Sx1D+5D"),
            ),
            gains=("", "", "6S 1D 5D", ""),
            scope=(0, 0, 1, 0),
            terminal=False,
        ),
        # §2: 10 cards each, no table, 1 deal of 40 plays. The library gives each player 10
        # consecutive cards of the deck (state.py's dealing order), not packets of 3-3-4.
        # Dealer 2: player 3 leads with 1-10D, then 0 with 1-10C, 1 with 1-10S, 2 with 1-10B.
        Deal(
            "one-deal-of-ten",
            dealer=2,
            hands=("1-10C", "1-10S", "1-10B", "1-10D"),
            table="",
            first_legal="1D 2D 3D 4D 5D 6D 7D 8D 9D 10D",
            deals=1,
            plays=40,
        ),
        # Last round, dealer 3. 1. 1D takes the 1C only. 2. 10D: 4+6, a scopa. 3. 1S laid on
        # the empty table. 4. The dealer's 1B takes the lone 1S on the last play: no scopa.
        Script(
            "aces-to-the-end",
            "end",
            dealer=3,
            hands=("1D", "10D", "1S", "1B"),
            table="1C 4S 6B",
            steps=(
                ("1Dx1C", "1Dx1C"),
                ("10Dx4S+6B", "10Dx4S+6B"),
                ("1S", "1S"),
                ("1Bx1S", "1Bx1S"),
            ),
            gains=("1D 1C", "10D 4S 6B", "", "1B 1S"),
            scope=(0, 1, 0, 0),
        ),
        # Side 0: 1-10B (0) + 7D 7C 7S (2) = 13 cards, 1 denaro, primiera 84. Side 1:
        # 1-6D 8-10D (1) + 1-6C 8-10C 1-6S 8-10S (3) = 27 cards, 9 denari, no bastoni:
        # 6D + 6C + 6S = 54. Points: scope 0-1, carte 0-1, denari 0-1, settebello 1-0,
        # primiera 1-0: 2-3.
        Score(
            "all-bastoni",
            piles=("1-10B", "1-6D 8-10D", "7D 7C 7S", "1-6C 8-10C 1-6S 8-10S"),
            scope=(0, 1, 0, 0),
            scope_points=(0, 1),
            carte=((13, 27), (0, 1)),
            denari=((1, 9), (0, 1)),
            settebello=(1, 0),
            primiera=((84, 54), (1, 0)),
            total=(2, 3),
        ),
    ),
    "asso-piglia-tutto": (
        # KA-11: the Ace takes the whole table and it is a scopa.
        Play(
            "KA-11",
            "1D",
            "2C 5S 10B",
            legal="1Dx2C+5S+10B",
            play="1Dx2C+5S+10B",
            taken="1D 2C 5S 10B",
            scopa=True,
        ),
        # KA-12: the Ace takes only the Ace; two cards stay: no scopa.
        Play(
            "KA-12",
            "1D",
            "1C 6S 7B",
            legal="1Dx1C",
            illegal="1Dx1C+6S+7B",
            play="1Dx1C",
            after="6S 7B",
            taken="1D 1C",
        ),
        Play(
            "ace-sweeps-lone-card",
            "1D",
            "9C",
            legal="1Dx9C",
            play="1Dx9C",
            taken="1D 9C",
            scopa=True,
        ),
        Misdeal("three-kings", "10C 10S 10B 4D", annulled=False),
        # Dealer 0: player 1 leads with 1-3D over 7-10D; 1D sweeps it.
        _two_player_deal("1Dx7D+8D+9D+10D 2D 3D", dealer=0),
        # The first Ace sweep is a scopa; the final one is not (last play).
        _ace_end((1, 0)),
        # Player 0 = the four Aces + 7D 7C (6 cards, 2 denari): 7D 21 + 7C 21 + 1S 16 + 1B 16
        # = 74. Player 1 = the other 34 (8 denari): 6D 18 + 6C 18 + 7S 21 + 7B 21 = 78.
        # Points: scope 3-1, carte 0-1, denari 0-1, settebello 1-0, primiera 0-1: 4-4.
        Score(
            "aces-and-sevens",
            piles=("1D 7D 1C 7C 1S 1B", "*"),
            scope=(3, 1),
            scope_points=(3, 1),
            carte=((6, 34), (0, 1)),
            denari=((2, 8), (0, 1)),
            settebello=(1, 0),
            primiera=((74, 78), (0, 1)),
            total=(4, 4),
        ),
    ),
    "asso-piglia-tutto-4": (
        # The regola del vile: the first lead may not be an Ace (the leader holds 8 others).
        # 1. Only the spades. 2. On {4S}: 4D takes it, the rest are laid. 3. On {4S,9D}: 1S
        # sweeps both (a scopa); 4C and 9C take their equals; the others are laid.
        Script(
            "no-ace-first-lead",
            "capture",
            dealer=3,
            hands=("1D 1C 2-9S", "2-10D 10S", "2-10C 1S", "1-10B"),
            table="",
            steps=(
                ("2S 3S 4S 5S 6S 7S 8S 9S", "4S"),
                ("2D 3D 4Dx4S 5D 6D 7D 8D 9D 10D 10S", "9D"),
                ("1Sx4S+9D 2C 3C 4Cx4S 5C 6C 7C 8C 9Cx9D 10C", "1Sx4S+9D"),
            ),
            gains=("", "", "1S 4S 9D", ""),
            scope=(0, 0, 1, 0),
            terminal=False,
        ),
        # Dealer 1: player 2 leads with 1-10D and may not lead the 1D.
        Deal(
            "one-deal-of-ten",
            dealer=1,
            hands=("1-10S", "1-10B", "1-10D", "1-10C"),
            table="",
            first_legal="2D 3D 4D 5D 6D 7D 8D 9D 10D",
            deals=1,
            plays=40,
        ),
        # Last round, dealer 3. 1. 8S: 3+5, a scopa. 2. 2D laid. 3. 1C sweeps the lone 2D: a
        # scopa in asso piglia tutto. 4. The dealer's 7C is laid; it goes to player 2.
        Script(
            "ace-sweep-scopa",
            "end",
            dealer=3,
            hands=("8S", "2D", "1C", "7C"),
            table="3B 5C",
            steps=(("8Sx3B+5C", "8Sx3B+5C"), ("2D", "2D"), ("1Cx2D", "1Cx2D"), ("7C", "7C")),
            gains=("8S 3B 5C", "", "1C 2D 7C", ""),
            scope=(1, 0, 1, 0),
        ),
        # Side 0: 1-5D (0) + 1-9C 1-5S (2) = 19 cards, 5 denari, no bastoni: 1D 16 + 7C 21 +
        # 1S 16 = 53. Side 1: 6-10D (1) + 10C 6-10S 1-10B (3) = 21 cards, 5 denari:
        # 7D 21 + 10C 10 + 7S 21 + 7B 21 = 73. Scope 2+1 against 0+1.
        # Points: scope 3-1, carte 0-1, denari none, settebello 0-1, primiera 0-1: 3-4.
        Score(
            "side-one-complete",
            piles=("1-5D", "6-10D", "1-9C 1-5S", "10C 6-10S 1-10B"),
            scope=(2, 0, 1, 1),
            scope_points=(3, 1),
            carte=((19, 21), (0, 1)),
            denari=((5, 5), (0, 0)),
            settebello=(0, 1),
            primiera=((53, 73), (0, 1)),
            total=(3, 4),
        ),
    ),
}


def test_every_preset_has_known_answers() -> None:
    assert set(PRESET_CASES) == set(variant_names())
    for name, cases in PRESET_CASES.items():
        kinds = {case.kind for case in cases}
        assert kinds & {"capture", "misdeal"}, name
        assert {"deal", "end", "score"} <= kinds, name


@pytest.mark.parametrize(
    ("preset", "case"),
    [
        pytest.param(name, case, id=f"{name}-{case.kind}-{case.name}")
        for name, cases in PRESET_CASES.items()
        for case in cases
    ],
)
def test_preset_case(preset: str, case: PresetCase) -> None:
    case.check(find_variant(preset))


# --------------------------------------------------------------------------- bonuses

CLASSIC = find_variant("classic")
THREE = find_variant("scopa-3")
FOUR = find_variant("scopa-4")
SIX = find_variant("scopa-6")


@dataclass(frozen=True)
class Bonus:
    """One scoring category of a finished hand: its figures and points per side."""

    name: str
    rules: Rules
    piles: tuple[str, ...]
    category: str
    figures: Points
    points: Points
    wins_match: int | None = None


CASCADE = with_scoring(CLASSIC, Primiera(rule=PrimieraRule.MOST_SEVENS_CASCADE))
CASCADE_3 = with_scoring(THREE, Primiera(rule=PrimieraRule.MOST_SEVENS_CASCADE))
SETTANTA = with_scoring(CLASSIC, Primiera(rule=PrimieraRule.SETTANTA_3_SEVENS))
SETTANTA_3 = with_scoring(THREE, Primiera(rule=PrimieraRule.SETTANTA_3_SEVENS))
THRESHOLDS_3 = with_scoring(THREE, Carte(threshold=21), Denari(threshold=6))


def _table(table: PrimieraTable, policy: MissingSuit = MissingSuit.OPPONENT_WINS) -> Rules:
    return with_scoring(CLASSIC, Primiera(table, policy))


def _three_sides(policy: MissingSuit) -> Rules:
    return with_scoring(THREE, Primiera(missing_suit=policy))


OPPONENT, ZERO = MissingSuit.OPPONENT_WINS, MissingSuit.ZERO

# Primiera tables: player 0 = 7D 7C 1S 6S 7S 8B, best 7D 7C 7S and the Fante of bastoni:
# 63 + 10 = 73 (CLASSIC), 63 + 8 = 71 (FACE_VALUE_FIGURES), 63 + 0 = 63 (ZERO_FIGURES).
# Player 1 (the rest) has no figure as a best card: 6D 18 + 6C 18 + 5S 15 + 7B 21 = 72.
_FANTE_BASTONI = ("7D 7C 1S 6S 7S 8B", "*")
# Player 0 = 1-10D 1-10S 8C 8B (22 cards): under ZERO_FIGURES 7D + 7S = 42, and the two
# Fanti worth 0 still give it all four suits. Player 1 = 1-7C 9C 10C 1-7B 9B 10B (18):
# 7C + 7B = 42, no denari or spade.
_ONLY_FIGURES = ("1-10D 1-10S 8C 8B", "*")
# Thresholds with 3 players: player 0 = 1-5D 1-10C 1-5S (20 cards, 5 denari); player 1 =
# 6-9D 6-10S (9, 4); player 2 = 10D 1-10B (11, 1).
_TWENTY = ("1-5D 1-10C 1-5S", "6-9D 6-10S", "*")
# Player 0 = 1-6D 1-10C 1-5S (21 cards, 6 denari); player 1 = 7-9D 6-10S (8, 3); player 2 =
# 10D 1-10B (11, 1).
_TWENTY_ONE = ("1-6D 1-10C 1-5S", "7-9D 6-10S", "*")
# Three players who all lack suits: 1-10D (7D 21), 1-10C (7C 21), spade and bastoni (42).
_ALL_LACK = ("1-10D", "1-10C", "*")
# Only player 2 holds every suit: player 0 = 1D 6D 7D 1C 6C 7C 1S 6S 7S (63, no bastoni);
# player 1 = 4C 5C 4S 5S 1B 6B 7B (5C 15 + 5S 15 + 7B 21 = 51, no denari); player 2 = the
# rest: 5D 15 + 3C 13 + 3S 13 + 5B 15 = 56.
_ONE_COMPLETE = ("1D 6D 7D 1C 6C 7C 1S 6S 7S", "4C 5C 4S 5S 1B 6B 7B", "*")

BONUS_CASES = [
    # Napola (§5): the run of denari from the Ace, scored from three cards; the figures are
    # the runs. 1-2-3 (4D is missing): 3. Player 1 has no Ace: run 0.
    Bonus("napola-1-2-3", plus(CLASSIC, Napola()), ("1-3D 5D", "*"), "napola", (3, 0), (3, 0)),
    # 1-2 and no 3: a run of two is no napola.
    Bonus(
        "napola-two-cards", plus(CLASSIC, Napola()), ("1D 2D 4D 5D", "*"), "napola", (2, 0), (0, 0)
    ),
    # 1 to 7, no Fante: 3 + 4 further denari = 7.
    Bonus("napola-to-seven", plus(CLASSIC, Napola()), ("1-7D 9D", "*"), "napola", (7, 0), (7, 0)),
    # 2 to 10 without the Ace: nothing; player 1's run is the Ace alone.
    Bonus("napola-no-ace", plus(CLASSIC, Napola()), ("2-10D", "*"), "napola", (0, 1), (0, 0)),
    # All ten: 10 points; the match is won outright only with napoleone_wins_match.
    Bonus("napoleone", plus(CLASSIC, Napola()), ("1-10D", "*"), "napola", (10, 0), (10, 0)),
    Bonus(
        "napoleone-wins",
        plus(CLASSIC, Napola(napoleone_wins_match=True)),
        ("1-10D", "*"),
        "napola",
        (10, 0),
        (10, 0),
        wins_match=0,
    ),
    # Three players: 1-4D: 4.
    Bonus(
        "napola-three-players",
        plus(THREE, Napola()),
        ("1-4D", "5-10D", "*"),
        "napola",
        (4, 0, 0),
        (4, 0, 0),
    ),
    # Partners pool: 1D 2D (player 0) and 3D 4D (player 2) make side 0's run of 4.
    Bonus(
        "napola-partners",
        plus(FOUR, Napola()),
        ("1D 2D", "", "3D 4D", "*"),
        "napola",
        (4, 0),
        (4, 0),
    ),
    # Re bello: 1 to the side holding 10D.
    Bonus("re-bello", plus(CLASSIC, ReBello()), ("10D", "*"), "re bello", (1, 0), (1, 0)),
    Bonus(
        "re-bello-other-side", plus(CLASSIC, ReBello()), ("1-9D", "*"), "re bello", (0, 1), (0, 1)
    ),
    Bonus(
        "re-bello-team-of-three",
        plus(SIX, ReBello()),
        ("", "", "10D", "", "", "*"),
        "re bello",
        (1, 0),
        (1, 0),
    ),
    # MOST_SEVENS_CASCADE (figures: the sevens). 7s 2-2 (7S 7B), 6s 3-1 (6B): player 0,
    # although it lacks bastoni (the sum rule would give player 1, see below).
    Bonus("cascade-sixes", CASCADE, ("7D 7C 6D 6C 6S", "*"), "primiera", (2, 2), (1, 0)),
    Bonus("sum-same-piles", CLASSIC, ("7D 7C 6D 6C 6S", "*"), "primiera", (60, 74), (0, 1)),
    # 7s 2-2, 6s 2-2, Aces 3-1.
    Bonus("cascade-aces", CASCADE, ("7D 7C 6D 6C 1D 1C 1S", "*"), "primiera", (2, 2), (1, 0)),
    # 7s, 6s, Aces 2-2; 5s 3-1 (5B).
    Bonus(
        "cascade-fives",
        CASCADE,
        ("7D 7C 6D 6C 1D 1C 5D 5C 5S", "*"),
        "primiera",
        (2, 2),
        (1, 0),
    ),
    # Three sevens against one: no further comparison.
    Bonus("cascade-sevens", CASCADE, ("7D 7C 7S", "*"), "primiera", (3, 1), (1, 0)),
    # Two whole suits each: two cards of every rank each, nobody.
    Bonus("cascade-all-equal", CASCADE, ("1-10D 1-10C", "*"), "primiera", (2, 2), (0, 0)),
    # Three sides: 7s 2-2-0 leave players 0 and 1; 6s 1-1 (player 2's two sixes do not
    # count, it is out); Aces 2-1: player 0.
    Bonus(
        "cascade-three-sides",
        CASCADE_3,
        ("7D 7C 6D 1D 1C", "7S 7B 6C 1S", "*"),
        "primiera",
        (2, 2, 0),
        (1, 0, 0),
    ),
    # SETTANTA_3_SEVENS: three or four sevens win; otherwise nobody.
    Bonus("settanta-three", SETTANTA, ("7D 7C 7S", "*"), "primiera", (3, 1), (1, 0)),
    Bonus("settanta-two-two", SETTANTA, ("7D 7C", "*"), "primiera", (2, 2), (0, 0)),
    Bonus("settanta-four", SETTANTA, ("7D 7C 7S 7B", "*"), "primiera", (4, 0), (1, 0)),
    Bonus("settanta-2-1-1", SETTANTA_3, ("7D 7C", "7S", "*"), "primiera", (2, 1, 1), (0, 0, 0)),
    Bonus(
        "settanta-3-0-1", SETTANTA_3, ("7D 7C 7S", "1-6B", "*"), "primiera", (3, 0, 1), (1, 0, 0)
    ),
    # Primiera tables on _FANTE_BASTONI: 73-72, 71-72, 63-72.
    Bonus(
        "table-classic", _table(PrimieraTable.CLASSIC), _FANTE_BASTONI, "primiera", (73, 72), (1, 0)
    ),
    Bonus(
        "table-face-value",
        _table(PrimieraTable.FACE_VALUE_FIGURES),
        _FANTE_BASTONI,
        "primiera",
        (71, 72),
        (0, 1),
    ),
    Bonus(
        "table-zero-figures",
        _table(PrimieraTable.ZERO_FIGURES),
        _FANTE_BASTONI,
        "primiera",
        (63, 72),
        (0, 1),
    ),
    # 42-42, but only player 0 holds every suit: OPPONENT_WINS gives it the point; a missing
    # suit counting 0 (ZERO) leaves a tie.
    Bonus(
        "zero-figures-hold-the-suit",
        _table(PrimieraTable.ZERO_FIGURES),
        _ONLY_FIGURES,
        "primiera",
        (42, 42),
        (1, 0),
    ),
    Bonus(
        "zero-figures-missing-zero",
        _table(PrimieraTable.ZERO_FIGURES, ZERO),
        _ONLY_FIGURES,
        "primiera",
        (42, 42),
        (0, 0),
    ),
    # Carte(threshold=21) and Denari(threshold=6) with 3 sides; plain scopa-3 for contrast.
    Bonus("carte-20-threshold", THRESHOLDS_3, _TWENTY, "carte", (20, 9, 11), (0, 0, 0)),
    Bonus("carte-20-most", THREE, _TWENTY, "carte", (20, 9, 11), (1, 0, 0)),
    Bonus("denari-5-threshold", THRESHOLDS_3, _TWENTY, "denari", (5, 4, 1), (0, 0, 0)),
    Bonus("denari-5-most", THREE, _TWENTY, "denari", (5, 4, 1), (1, 0, 0)),
    Bonus("carte-21-threshold", THRESHOLDS_3, _TWENTY_ONE, "carte", (21, 8, 11), (1, 0, 0)),
    Bonus("denari-6-threshold", THRESHOLDS_3, _TWENTY_ONE, "denari", (6, 3, 1), (1, 0, 0)),
    # Primiera among the eligible sides, 3 sides (§5). _THREE_PILES: 63 (no bastoni), 60, 58.
    Bonus(
        "three-opponent-wins",
        _three_sides(OPPONENT),
        _THREE_PILES,
        "primiera",
        (63, 60, 58),
        (0, 1, 0),
    ),
    Bonus("three-zero", _three_sides(ZERO), _THREE_PILES, "primiera", (63, 60, 58), (1, 0, 0)),
    # Everyone lacks a suit: nobody is eligible; ZERO compares 21, 21, 42.
    Bonus(
        "all-lack-opponent-wins",
        _three_sides(OPPONENT),
        _ALL_LACK,
        "primiera",
        (21, 21, 42),
        (0, 0, 0),
    ),
    Bonus("all-lack-zero", _three_sides(ZERO), _ALL_LACK, "primiera", (21, 21, 42), (0, 0, 1)),
    # Only player 2 is complete: it wins with 56 against 63 and 51, except under ZERO.
    Bonus(
        "one-complete-opponent-wins",
        _three_sides(OPPONENT),
        _ONE_COMPLETE,
        "primiera",
        (63, 51, 56),
        (0, 0, 1),
    ),
    Bonus(
        "one-complete-zero", _three_sides(ZERO), _ONE_COMPLETE, "primiera", (63, 51, 56), (1, 0, 0)
    ),
]


@pytest.mark.parametrize("case", BONUS_CASES, ids=[case.name for case in BONUS_CASES])
def test_bonus(case: Bonus) -> None:
    category = scored(case.rules, case.piles)[case.category]
    assert category.figures == case.figures
    assert category.points == case.points
    assert category.wins_match == case.wins_match


# --------------------------------------------------------------------------- knobs

MUST_PLAY = attrs.evolve(CLASSIC, must_play_capturing_card_if_any=True)
ACE_TO_PILE = attrs.evolve(CLASSIC, ace_on_empty_table_captures_itself=True)
ASSI_TAKE_ALL = attrs.evolve(find_variant("scopa-d-assi"), ace_with_ace_on_table=AceOnAce.TAKE_ALL)
APT_TAKE_ALL = attrs.evolve(
    find_variant("asso-piglia-tutto"), ace_with_ace_on_table=AceOnAce.TAKE_ALL
)
NO_RANK = attrs.evolve(CLASSIC, capture_by_rank=False)
NO_SUM = attrs.evolve(CLASSIC, capture_by_sum=False)

KNOB_CASES = [
    # must_play_capturing_card_if_any: 7D can take 2+5, so 10B may not be played (KA-09).
    pytest.param(
        MUST_PLAY,
        Play("only-the-capturing-card", "7D 10B", "2C 5S", legal="7Dx2C+5S", illegal="10B"),
        id="must-play-capturing-card",
    ),
    pytest.param(
        CLASSIC,
        Play("either-card", "7D 10B", "2C 5S", legal="7Dx2C+5S 10B"),
        id="must-play-capturing-card-off",
    ),
    # 3 = 1+2, 9 = 1+2+6; 10 cannot capture (the whole table is 9): 3D or 9C only.
    pytest.param(
        MUST_PLAY,
        Play("two-capturing-cards", "3D 9C 10B", "1S 2B 6C", legal="3Dx1S+2B 9Cx1S+2B+6C"),
        id="must-play-two-capturing-cards",
    ),
    # Nothing captures (1+2 = 3): any card is laid.
    pytest.param(
        MUST_PLAY,
        Play("nothing-captures", "8D 9C 10S", "1B 2B", legal="8D 9C 10S"),
        id="must-play-nothing-captures",
    ),
    # ace_on_empty_table_captures_itself: the Ace goes to the pile; no scopa; the player
    # becomes the last capturer (checked by Play).
    pytest.param(
        ACE_TO_PILE,
        Play("ace-to-pile", "1D", "", legal="1D", play="1D", taken="1D"),
        id="ace-on-empty-table-to-pile",
    ),
    pytest.param(
        CLASSIC,
        Play("ace-laid", "1D", "", legal="1D", play="1D", after="1D"),
        id="ace-on-empty-table-laid",
    ),
    # TAKE_ALL: the Ace takes the Ace and the rest. Not a scopa in scopa d'assi (the Ace's
    # sweep never is); a scopa in asso piglia tutto.
    pytest.param(
        ASSI_TAKE_ALL,
        Play(
            "take-all",
            "1D",
            "1C 6S 7B",
            legal="1Dx1C+6S+7B",
            play="1Dx1C+6S+7B",
            taken="1D 1C 6S 7B",
        ),
        id="take-all-scopa-d-assi",
    ),
    pytest.param(
        APT_TAKE_ALL,
        Play(
            "take-all",
            "1D",
            "1C 6S 7B",
            legal="1Dx1C+6S+7B",
            play="1Dx1C+6S+7B",
            taken="1D 1C 6S 7B",
            scopa=True,
        ),
        id="take-all-asso-piglia-tutto",
    ),
    # capture_by_rank=False: the 5C cannot be taken, 2+3 can; a lone equal card neither.
    pytest.param(
        NO_RANK,
        Play("sum-beside-equal", "5D", "5C 2S 3B", legal="5Dx2S+3B", illegal="5Dx5C"),
        id="no-capture-by-rank-sum",
    ),
    pytest.param(
        NO_RANK,
        Play("equal-is-laid", "8D", "8C 1S", legal="8D", illegal="8Dx8C"),
        id="no-capture-by-rank-laid",
    ),
    # capture_by_sum=False: 3+4 cannot be taken; the equal 5C still can.
    pytest.param(
        NO_SUM,
        Play("sum-is-laid", "7D", "3C 4S", legal="7D", illegal="7Dx3C+4S"),
        id="no-capture-by-sum-laid",
    ),
    pytest.param(
        NO_SUM,
        Play("equal-only", "5D", "5C 2S 3B", legal="5Dx5C", illegal="5Dx2S+3B"),
        id="no-capture-by-sum-equal",
    ),
    # The Ace to the pile makes player 0 the last capturer: the dealer's 5S, laid on the
    # last play, goes to player 0. Without the knob the 1D stays on the table and both
    # cards go to the dealer, who captured last.
    pytest.param(
        ACE_TO_PILE,
        Script(
            "ace-to-pile-then-leftover",
            "end",
            dealer=1,
            hands=("1D", "5S"),
            table="",
            steps=(("1D", "1D"), ("5S", "5S")),
            gains=("1D 5S", ""),
            scope=(0, 0),
        ),
        id="ace-to-pile-last-capturer",
    ),
    pytest.param(
        CLASSIC,
        Script(
            "ace-laid-then-leftovers",
            "end",
            dealer=1,
            hands=("1D", "5S"),
            table="",
            steps=(("1D", "1D"), ("5S", "5S")),
            gains=("", "1D 5S"),
            scope=(0, 0),
        ),
        id="ace-laid-last-capturer",
    ),
]


@pytest.mark.parametrize(("rules", "case"), KNOB_CASES)
def test_knob(rules: Rules, case: Play | Script) -> None:
    case.check(rules)


def test_first_lead_may_be_an_ace_when_only_aces_are_held() -> None:
    # asso-piglia-tutto-4 dealt 3 cards at a time with 4 on the table (4 x 3 = 12 per
    # deal, 36 / 12 = 3 deals), so that a first leader can hold only Aces. Dealer 3.
    rules = attrs.evolve(
        find_variant("asso-piglia-tutto-4"), name="apt-4-by-three", hand_size=3, table_size=4
    )
    table = cards("2D 3C 4S 5B")

    def dealt(hand: str, *, first: bool) -> GameState:
        held = cards(hand)
        free = iter(sorted(rest_of(held, table)))
        hands = [held, *(frozenset(next(free) for _ in range(3)) for _ in range(3))]
        rest = sorted(rest_of(*hands, table))
        if first:  # the first play: 24 cards still to deal, nothing captured
            return GameState.from_position(rules, hands=hands, table=table, stock=rest, dealer=3)
        # a later deal: 12 cards to deal, the dealer has captured 12
        piles: list[frozenset[Card]] = [frozenset(), frozenset(), frozenset(), frozenset(rest[12:])]
        return GameState.from_position(
            rules, hands=hands, table=table, stock=rest[:12], dealer=3, piles=piles
        )

    # Only Aces: each may lead and sweeps the table (no Ace on it), a scopa.
    only_aces = dealt("1D 1C 1S", first=True)
    assert_legal(only_aces, "1Dx2D+3C+4S+5B 1Cx2D+3C+4S+5B 1Sx2D+3C+4S+5B")
    assert only_aces.apply(Move.parse("1Cx2D+3C+4S+5B")).scope == (1, 0, 0, 0)
    # An Ace and other cards: not the Ace; 2C and 3S must take their equals.
    assert_legal(dealt("1D 2C 3S", first=True), "2Cx2D 3Sx3C")
    # Leading a later deal the Ace is allowed again.
    assert_legal(dealt("1D 2C 3S", first=False), "1Dx2D+3C+4S+5B 2Cx2D 3Sx3C")


# --------------------------------------------------------------------------- matches


@attrs.frozen(eq=False)
class Scripted:
    """A scoring component that gives the hands the points of a script, in order."""

    script: Iterator[Points]
    name: str = "scripted"

    def score(self, hand: Captures) -> CategoryScore:
        return CategoryScore(self.name, next(self.script))


def scripted(preset: str, points: Sequence[Points]) -> Rules:
    return with_scoring(find_variant(preset), Scripted(iter(points)))


def finish_hand(match: Match) -> Match:
    """Play the hand in progress to its end with the first legal move each time."""
    hands = len(match.hands)
    while len(match.hands) == hands:
        match = match.apply(match.state.legal_moves()[0])
    return match


@pytest.mark.parametrize(
    ("preset", "first_dealer", "points", "totals", "winner", "outcomes"),
    [
        # Three players, target 11: 4-3-2, 7-7-6, 12-9-9.
        pytest.param(
            "scopa-3", 0, [(4, 3, 2), (3, 4, 4), (5, 2, 3)], (12, 9, 9), 0, (W, L, L), id="scopa-3"
        ),
        # 11-11-3 is a tie at the top: one more hand, 12-11-6.
        pytest.param(
            "scopa-3",
            1,
            [(6, 6, 1), (5, 5, 2), (1, 0, 3)],
            (12, 11, 6),
            0,
            (W, L, L),
            id="scopa-3-tie-at-the-top",
        ),
        # 11-12-0: both over the target, the higher total wins.
        pytest.param(
            "scopa-3", 2, [(6, 5, 0), (5, 7, 0)], (11, 12, 0), 1, (L, W, L), id="scopa-3-higher"
        ),
        # Partnerships: 5-3, 9-9, 12-10; both partners win.
        pytest.param(
            "scopa-4", 2, [(5, 3), (4, 6), (3, 1)], (12, 10), 0, (W, L, W, L), id="scopa-4"
        ),
        pytest.param("scopa-6", 4, [(6, 4), (3, 8)], (9, 12), 1, (L, W, L, W, L, W), id="scopa-6"),
        pytest.param("scopone", 3, [(6, 5), (5, 7)], (11, 12), 1, (L, W, L, W), id="scopone"),
        # Target 21: 10-5, 18-14, 22-20.
        pytest.param(
            "scopone-scientifico",
            0,
            [(10, 5), (8, 9), (4, 6)],
            (22, 20),
            0,
            (W, L, W, L),
            id="scopone-scientifico",
        ),
        pytest.param(
            "scopa-d-assi-4", 1, [(7, 4), (4, 8)], (11, 12), 1, (L, W, L, W), id="scopa-d-assi-4"
        ),
        pytest.param(
            "asso-piglia-tutto-4", 3, [(11, 3)], (11, 3), 0, (W, L, W, L), id="apt-4-one-hand"
        ),
        # Two players: 6-5, 11-11 (tie at the target), 12-11.
        pytest.param(
            "scopa-d-assi", 1, [(6, 5), (5, 6), (1, 0)], (12, 11), 0, (W, L), id="scopa-d-assi"
        ),
        pytest.param(
            "asso-piglia-tutto", 0, [(4, 7), (8, 3)], (12, 10), 0, (W, L), id="asso-piglia-tutto"
        ),
    ],
)
def test_match_per_family(
    preset: str,
    first_dealer: int,
    points: list[Points],
    totals: Points,
    winner: int,
    outcomes: tuple[Outcome, ...],
) -> None:
    rules = scripted(preset, points)
    players = rules.players
    match = Match.new(rules, seed=2026, first_dealer=first_dealer)
    for number in range(1, len(points) + 1):
        assert not match.is_over
        assert match.outcomes is None
        assert match.hand_number == number
        # the deal passes to the right (the next player); the player after the dealer leads
        assert match.dealer == (first_dealer + number - 1) % players
        assert match.state.current_player == (match.dealer + 1) % players
        match = finish_hand(match)
        assert match.totals == tuple(map(sum, zip(*points[:number], strict=True)))
    assert match.is_over
    assert match.totals == totals
    assert match.winner == winner
    assert match.outcomes == outcomes
    assert match.series == SeriesRecord(
        wins=tuple(int(o is W) for o in outcomes),
        losses=tuple(int(o is L) for o in outcomes),
        abandoned=(0,) * players,
    )


# Scopone scientifico dealt in the standard order by player 3: player 0 holds the denari,
# 1 the coppe, 2 the spade, 3 the bastoni. Rounds 1-9 (k = 10 … 2): 0 lays kD on the empty
# table; 1 lays (k-1)C (another rank, no sum with one card); 2's kS takes its equal kD (the
# single card is the fewest; kD + (k-1)C > k); 3's (k-1)B takes the lone (k-1)C: a scopa.
# Round 10: 1D, 10C laid, 1S takes 1D, and the dealer's 10B takes 10C on the last play: no
# scopa. Side 0 ends with all the denari and spade (20 cards), side 1 with coppe and
# bastoni (20) and 9 scope. Score: scope 0-9, carte 20-20 none, denari 10-0, settebello
# 1-0, primiera 42-42 with neither side complete: none; napola 10-0. Totals 12-9.
NAPOLEONE_ROUNDS = (
    "10D 9C 10Sx10D 9Bx9C",
    "9D 8C 9Sx9D 8Bx8C",
    "8D 7C 8Sx8D 7Bx7C",
    "7D 6C 7Sx7D 6Bx6C",
    "6D 5C 6Sx6D 5Bx5C",
    "5D 4C 5Sx5D 4Bx4C",
    "4D 3C 4Sx4D 3Bx3C",
    "3D 2C 3Sx3D 2Bx2C",
    "2D 1C 2Sx2D 1Bx1C",
    "1D 10C 1Sx1D 10Bx10C",
)


@pytest.mark.parametrize("wins", [True, False], ids=["napoleone-wins", "napoleone-scores"])
def test_napoleone_through_a_match(wins: bool) -> None:
    rules = plus(find_variant("scopone-scientifico"), Napola(napoleone_wins_match=wins))
    match = Match.new(rules, decks=[Deck.standard()], first_dealer=3)
    assert match.state.hands == (cards("1-10D"), cards("1-10C"), cards("1-10S"), cards("1-10B"))
    for round_ in NAPOLEONE_ROUNDS:
        for text in round_.split():
            assert not match.hands
            match = match.apply(Move.parse(text))
    assert len(match.hands) == 1
    assert match.state.piles == (
        frozenset(),
        frozenset(),
        cards("1-10D 1-10S"),
        cards("1-10C 1-10B"),
    )
    assert match.state.scope == (0, 0, 0, 9)
    score = match.hands[0].score
    assert [c.name for c in score] == [
        "scope",
        "carte",
        "denari",
        "settebello",
        "primiera",
        "napola",
    ]
    assert [c.points for c in score] == [(0, 9), (0, 0), (1, 0), (1, 0), (0, 0), (10, 0)]
    assert score["primiera"].figures == (42, 42)
    assert score["napola"].wins_match == (0 if wins else None)
    assert match.totals == (12, 9)
    if wins:
        # far from 21, the napoleone wins the match for both partners
        assert match.is_over
        assert match.winner == 0
        assert match.outcomes == (W, L, W, L)
    else:
        assert not match.is_over
        assert match.winner is None
        assert match.awaiting_deal


@pytest.mark.parametrize(
    ("preset", "quitter", "outcomes"),
    [
        pytest.param("scopa-4", 1, (W, A, W, L), id="scopa-4"),
        pytest.param("scopa-6", 5, (W, L, W, L, W, A), id="scopa-6"),
        pytest.param("scopone", 3, (W, L, W, A), id="scopone"),
        pytest.param("scopone-scientifico", 1, (W, A, W, L), id="scopone-scientifico"),
        pytest.param("scopa-d-assi-4", 3, (W, L, W, A), id="scopa-d-assi-4"),
        pytest.param("asso-piglia-tutto-4", 1, (W, A, W, L), id="asso-piglia-tutto-4"),
    ],
)
def test_abandonment_in_a_partnership(
    preset: str, quitter: int, outcomes: tuple[Outcome, ...]
) -> None:
    # Hand 1 scores 2-3: the quitter's side (side 1) is ahead, and still loses when one of
    # its players abandons during hand 2. The abandoner: ABANDONED; the partner(s): LOSS;
    # the opponents: WIN.
    rules = scripted(preset, [(2, 3)])
    players = rules.players
    match = finish_hand(Match.new(rules, seed=11, first_dealer=0))
    assert match.hand_number == 2
    assert match.dealer == 1
    match = match.apply(match.state.legal_moves()[0])
    over = match.abandon(quitter)
    assert over.is_over
    assert over.abandonment is not None
    assert (over.abandonment.player, over.abandonment.hand) == (quitter, 2)
    assert over.totals == (2, 3)
    assert over.winner == 0
    assert over.outcomes == outcomes
    assert over.settlement is None
    assert over.series == SeriesRecord(
        wins=tuple(int(p % 2 == 0) for p in range(players)),
        losses=tuple(int(p % 2 == 1 and p != quitter) for p in range(players)),
        abandoned=tuple(int(p == quitter) for p in range(players)),
    )
    # a player left the table: the series is over
    with pytest.raises(IllegalMoveError, match=f"player {quitter} left the table"):
        over.rematch(seed=12)
