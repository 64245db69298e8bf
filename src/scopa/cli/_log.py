"""The plays of `scopa play` in words: the log under the board, or lines as they come."""

from __future__ import annotations

from collections.abc import Sequence

from scopa._i18n import translation
from scopa.board import cards_text, move_text, player_name
from scopa.cli._hands import first_table_note, hand_over_note, leftovers_note
from scopa.cli._screen import Screen, capital
from scopa.match import HandRecord, Match
from scopa.moves import Move
from scopa.state import GameState


class PlayLog:
    """The plays of a match as the player at `seat` reads them, in the language `lang`.

    On a terminal board the lines are kept, and the latest shown under the board; on plain
    output each is printed as it comes. The last play noted, and the last hand's end, are
    kept for `why` to explain.
    """

    def __init__(self, screen: Screen, seat: int, lang: str) -> None:
        self.screen = screen
        self.seat = seat
        self.lang = lang
        self.tr = translation(lang)
        self.lines: list[tuple[str, str]] = []
        self.announced = 0  # the last hand whose deal is in the log
        self.last_play: tuple[GameState, Move] | None = None  # the state it was played in
        self.last_hand: GameState | None = None  # the last position of the last hand over

    def note(self, text: str, style: str = "") -> None:
        """Add a line to the log of plays (printed at once on plain output)."""
        self.lines.append((text, style))
        if not self.screen.is_board:
            self.screen.say(text, style)

    def recall(self, match: Match) -> None:
        """Put the plays of a resumed match's record in the log, as they were noted live."""
        rules = match.rules
        for record in match.hands:
            start = GameState.new(rules, deck=record.deck, dealer=record.dealer)
            self.note_deal(record.number, start)
            self._note_plays(start, record.history, record)
        state = match.state
        if state.history and not match.awaiting_deal:
            start = GameState.new(rules, deck=match.deck, dealer=match.dealer)
            self.note_deal(match.hand_number, start)
            self._note_plays(start, state.history, None)

    def _note_plays(
        self,
        start: GameState,
        plays: Sequence[tuple[int, Move]],
        record: HandRecord | None,
    ) -> None:
        """Note the plays of a hand from its deal, and its end if it is the `record`'s."""
        state = start
        for player, move in plays:
            before, state = state, state.apply(move)
            self.note_play(player, before, move, state)
            if record is not None and state.is_terminal:
                self.note_hand_end(state, record)

    def note_deal(self, number: int, dealt: GameState) -> None:
        """Note the deal of hand `number`, and a first table swept as it was dealt."""
        self.announced = number
        if dealt.dealer == self.seat:
            deal = self.tr.gettext("Hand {number}: you deal")
        else:
            deal = self.tr.gettext("Hand {number}: {player} deals")
        dealer = player_name(dealt.dealer, self.seat, lang=self.lang)
        self.note(deal.format(number=number, player=dealer), "bold")
        swept = first_table_note(dealt, self.seat, self.lang)
        if swept is not None and not dealt.history:
            self.note(swept, "bold magenta")

    def note_play(self, player: int, before: GameState, move: Move, after: GameState) -> None:
        """Note a play: who played what, the hand a declaration shows, and a scopa."""
        tr = self.tr
        self.last_play = (before, move)
        mine = player == self.seat
        if move.declaration is None:
            text = tr.gettext("You play {move}") if mine else tr.gettext("{player} plays {move}")
        elif mine:
            text = tr.gettext("You play {move}, and show {cards}")
        else:
            text = tr.gettext("{player} plays {move}, and shows {cards}")
        text = capital(
            text.format(
                player=player_name(player, self.seat, lang=self.lang),
                move=move_text(move, lang=self.lang),
                cards=cards_text(after.hands[player]),
            )
        )
        if after.scope[player] > before.scope[player]:
            self.note(tr.gettext("{play}. Scopa!").format(play=text), "bold magenta")
        else:
            self.note(text)

    def note_hand_end(self, final: GameState, record: HandRecord) -> None:
        """Note where the cards left on the table went, and the points of the hand."""
        self.last_hand = final
        left = leftovers_note(final.rules, record, self.seat, self.lang)
        if left is not None:
            self.note(left)
        self.note(hand_over_note(final.rules, record, self.seat, self.lang), "bold")
