"""Text pictures for terminals: positions, matches, hand scores, and rules in words.

`print(state)` and `print(match)` draw these pictures ([`to_text`][scopa.GameState.to_text]
keeps the one-line position notation). A picture is plain text of at most 80 columns,
without colour, and writes cards the way they are typed: `7D` is the seven of denari (the
suits are D denari, C coppe, S spade, B bastoni). Hands, the table and every other list
of cards are written in the standard order of the cards (denari Ace to Re, then coppe,
spade and bastoni), separated by spaces.
Seen from one seat, that player is `you` and the other hands are face down (`##`).

Every function that writes words takes `lang`, the language to write in: `"en"` (English,
the default) or `"it"` (Italian); cards are written the same way in both.

Examples:
    >>> from scopa import GameState, find_variant
    >>> rules = find_variant("classic")
    >>> state = GameState.from_text(
    ...     rules,
    ...     "1C6B/4D9S 10D 1D6D7D9D2C3C4C5C6C7C8C9C10C1S2S3S4S5S6S7S10S1B2B3B4B5B7B8B9B10B"
    ...     " 2D3D5D/8D8S 0/0 0 1 0",
    ... )
    >>> print(state_text(state))
    classic: deal 1 of 6, to play: player 1
    table   10D
    stock   30 cards
    <BLANKLINE>
      player     hand    captured  scope
      player 0   1C 6B          3      0   dealer
    > player 1   4D 9S          2      0
    >>> print(state_text(state, player=0))
    classic: deal 1 of 6, to play: player 1
    table   10D
    stock   30 cards
    <BLANKLINE>
      player     hand    captured  scope
      you        1C 6B          3      0   dealer
    > player 1   ## ##          2      0
    >>> print(state_text(state, player=0, lang="it"))
    classic: distribuzione 1 di 6, di turno: giocatore 1
    tavolo  10D
    mazzo   30 carte
    <BLANKLINE>
      giocatore   mano    prese  scope
      tu          1C 6B       3      0   mazziere
    > giocatore 1 ## ##       2      0
"""

from __future__ import annotations

import gettext
import textwrap
from collections.abc import Iterable, Sequence
from fractions import Fraction

from scopa import (
    AceOnAce,
    AssoDueTre,
    BrilliEconomy,
    CapturePriority,
    Card,
    CardPoints,
    Carte,
    CompulsoryCapture,
    Declaration,
    Declarations,
    Denari,
    FirstTable,
    GameState,
    Grande,
    HandScore,
    Leftovers,
    Match,
    MisdealRule,
    MissingSuit,
    Move,
    Napola,
    PlayerView,
    Ponino,
    Primiera,
    PrimieraRule,
    Rank,
    ReBello,
    Rules,
    Scope,
    ScoringComponent,
    Settebello,
    Tiebreak,
)
from scopa._i18n import and_list, translation
from scopa._scene import (
    Scene,
    abandon_reason,
    check_seat,
    player_words,
    scene,
    side_words,
)
from scopa.cards import show_cards

__all__ = [
    "WIDTH",
    "card_name",
    "cards_text",
    "declaration_text",
    "ending_text",
    "match_summary",
    "match_text",
    "move_text",
    "player_name",
    "rules_text",
    "score_text",
    "side_name",
    "state_text",
]

WIDTH = 80
"""The most columns a picture takes."""

_LABEL = 8  # the least width of the labels of the lines above the players ("table", "stock")
_HIDDEN = "##"  # a face-down card

_Tr = gettext.NullTranslations


# --------------------------------------------------------------------------- words


def player_name(player: int, seat: int | None = None, *, lang: str = "en") -> str:
    """How pictures name a player: `you` for the `seat` a picture is seen from, else `player N`.

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    return player_words(translation(lang), player, seat)


def side_name(rules: Rules, side: int, seat: int | None = None, *, lang: str = "en") -> str:
    """How pictures name a side.

    When each player plays for self, a side is named as its player. Otherwise it is
    `side A`, `side B`…, and the seat's own side is `your side`.

    Raises:
        TypeError: `seat` is not an int.
        InvalidArgumentError: `seat` is not a player; the library does not write in `lang`.
    """
    return side_words(translation(lang), rules, side, check_seat(rules, seat))


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as typed, in the standard order of the cards (`7D 1C 7C`); `-` for none.

    The standard order is that of [`DECK`][scopa.DECK]: denari from the Ace to the Re,
    then coppe, spade and bastoni; the form of every message
    ([`show_cards`][scopa.cards.show_cards]).
    """
    return show_cards(cards)


def card_name(card: Card, *, lang: str = "en") -> str:
    """A card in words with its suit's symbol: `the Ace of coppe (♥)`, `l'asso di coppe (♥)`.

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    tr = translation(lang)
    the_rank = _ranks_with_article(tr)[card.rank - 1]
    name = tr.gettext("{the_rank} of {suit}").format(the_rank=the_rank, suit=card.suit)
    return f"{name} ({card.suit.symbol})"


def _ranks_with_article(tr: _Tr) -> tuple[str, ...]:
    """The ranks, Ace to Re, with the definite article, in a translation's language."""
    return (
        tr.pgettext("rank with the article", "the Ace"),
        tr.pgettext("rank with the article", "the 2"),
        tr.pgettext("rank with the article", "the 3"),
        tr.pgettext("rank with the article", "the 4"),
        tr.pgettext("rank with the article", "the 5"),
        tr.pgettext("rank with the article", "the 6"),
        tr.pgettext("rank with the article", "the 7"),
        tr.pgettext("rank with the article", "the Fante"),
        tr.pgettext("rank with the article", "the Cavallo"),
        tr.pgettext("rank with the article", "the Re"),
    )


def _rank_label(tr: _Tr, rank: int) -> str:
    """A rank in a list of values: the Ace and the figures by name, the others by number."""
    if rank == Rank.ASSO:
        return tr.pgettext("rank", "Ace")
    if rank == Rank.FANTE:
        return tr.pgettext("rank", "Fante")
    if rank == Rank.CAVALLO:
        return tr.pgettext("rank", "Cavallo")
    if rank == Rank.RE:
        return tr.pgettext("rank", "Re")
    return str(int(rank))


def move_text(move: Move, *, lang: str = "en") -> str:
    """A move in words: `7D on the table` or `7D taking 3C 4S`.

    A declaration and a claim follow: `1D on the table, declaring busso (3 points)`,
    `7D taking 7C, claiming the target`.

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    return _move(translation(lang), move)


def _move(tr: _Tr, move: Move) -> str:
    if move.captured:
        text = tr.gettext("{card} taking {cards}").format(
            card=move.card, cards=cards_text(move.captured)
        )
    else:
        text = tr.gettext("{card} on the table").format(card=move.card)
    return text + _announcement(tr, move)


def _announcement(tr: _Tr, move: Move) -> str:
    """What a move announces, after it: `, declaring busso (3 points)`, `, claiming the target`."""
    text = ""
    if move.declaration is not None:
        text += tr.gettext(", declaring {declaration}").format(
            declaration=_declaration(tr, move.declaration)
        )
    if move.claim:
        text += tr.gettext(", claiming the target")
    return text


def declaration_text(declaration: Declaration, *, lang: str = "en") -> str:
    """A declaration in words: `busso (3 points)`, `tris (10 points)`.

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    return _declaration(translation(lang), declaration)


def _declaration(tr: _Tr, declaration: Declaration) -> str:
    return f"{declaration.value} ({_points(tr, declaration.points)})"


def _points(tr: _Tr, count: int) -> str:
    return tr.ngettext("{count} point", "{count} points", count).format(count=count)


def _cards(tr: _Tr, count: int) -> str:
    return tr.ngettext("{count} card", "{count} cards", count).format(count=count)


def _field(label: str, text: str, width: int = _LABEL) -> list[str]:
    """A labelled line, wrapped to the width with the text aligned after the label."""
    indent = " " * width
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=label.ljust(width),
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [label]


def _label_width(labels: Iterable[str]) -> int:
    """The width of a column of labels: `_LABEL`, or more for a longer label and a space."""
    return max(_LABEL, *(len(label) + 1 for label in labels))


# --------------------------------------------------------------------------- positions


def _heading(tr: _Tr, seen: Scene) -> str:
    name = _short(seen.rules.name)
    if seen.current is None:
        return tr.gettext("{variant}: the hand is over").format(variant=name)
    return tr.gettext("{variant}: deal {deal} of {deals}, to play: {player}").format(
        variant=name,
        deal=seen.deal,
        deals=seen.rules.deals_per_hand,
        player=player_words(tr, seen.current, seen.seat),
    )


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sides_line(tr: _Tr, seen: Scene, width: int) -> list[str]:
    rules = seen.rules
    if rules.number_of_sides == rules.players:
        return []
    sides = []
    for side in range(rules.number_of_sides):
        members = [
            player_words(tr, p, seen.seat) for p in range(rules.players) if rules.side_of(p) == side
        ]
        sides.append(f"{side_words(tr, rules, side, seen.seat)}: {', '.join(members)}")
    return _field(tr.gettext("sides"), "; ".join(sides), width)


def _hand_cell(hand: tuple[Card, ...] | int, shown: tuple[Card, ...]) -> str:
    """A hand: its cards, or the cards a declaration showed and `##` for the others."""
    if isinstance(hand, int):
        return " ".join([*map(str, sorted(shown)), *[_HIDDEN] * (hand - len(shown))]) or "-"
    return cards_text(hand)


def _player_rows(tr: _Tr, seen: Scene) -> list[str]:
    """The table of players: hand, captured cards, scope, the dealer and who is to play.

    Under rules with declarations, a column gives the points each player declared.
    """
    heading = tr.gettext("player")
    hand_label = tr.gettext("hand")
    captured = tr.gettext("captured")
    scope = tr.gettext("scope")
    dealer = tr.gettext("dealer")
    names = [player_words(tr, p, seen.seat) for p in range(seen.rules.players)]
    name_width = max(map(len, [heading, *names]))
    cells = [_hand_cell(hand, shown) for hand, shown in zip(seen.hands, seen.shown, strict=True)]
    declared_label = tr.gettext("declared") if seen.rules.declarations else ""
    declared_width = len(declared_label)
    extra = declared_width + 2 if declared_label else 0
    # the hand column takes what the other columns leave, and wraps a hand that is longer
    columns = 2 + name_width + 3 + 2 + len(captured) + 2 + len(scope) + extra + 3 + len(dealer)
    hand_width = min(WIDTH - columns, max(map(len, [hand_label, *cells])))
    line = f"  {heading:<{name_width}}   {hand_label:<{hand_width}}  {captured}  {scope}"
    lines = [line + (f"  {declared_label}" if declared_label else "")]
    for player, (name, cell) in enumerate(zip(names, cells, strict=True)):
        parts = textwrap.wrap(cell, hand_width) or [cell]
        mark = ">" if player == seen.current else " "
        role = f"   {dealer}" if player == seen.dealer else ""
        points = f"  {seen.declared[player]:>{declared_width}}" if declared_label else ""
        lines.append(
            f"{mark} {name:<{name_width}}   {parts[0]:<{hand_width}}  "
            f"{seen.piles[player]:>{len(captured)}}  {seen.scope[player]:>{len(scope)}}"
            f"{points}{role}".rstrip()
        )
        lines.extend(f"  {'':<{name_width}}   {part}" for part in parts[1:])
    return lines


def _shown_line(tr: _Tr, seen: Scene, width: int) -> list[str]:
    """The cards declarations have shown, player by player, if any."""
    shown = [
        f"{player_words(tr, player, seen.seat)} {cards_text(cards)}"
        for player, cards in enumerate(seen.shown)
        if cards
    ]
    return _field(tr.gettext("shown"), "; ".join(shown), width) if shown else []


def _last_play(tr: _Tr, move: Move, seen: Scene) -> str:
    """The last play in words, saying where a card laid down went when it left the table."""
    if move.captured or move.card in seen.table:
        return _move(tr, move)
    rest = _announcement(tr, move)
    if seen.current is None and seen.rules.leftovers is Leftovers.DEALER:
        return tr.gettext(
            "{card} laid down, the last card of the hand{announced}; the cards left on the "
            "table went to the dealer"
        ).format(card=move.card, announced=rest)
    if seen.current is None:
        return tr.gettext(
            "{card} laid down, the last card of the hand{announced}; the cards left on the "
            "table went to the last player to capture"
        ).format(card=move.card, announced=rest)
    return tr.gettext("{card} on the empty table, taking itself{announced}").format(
        card=move.card, announced=rest
    )


def state_text(
    state: GameState | PlayerView, player: int | None = None, *, lang: str = "en"
) -> str:
    """A text picture of a position.

    The lines: the variant with the deal and who is to play, the sides (when players play
    in sides), the table, the stock, the last play and the cards declarations have shown
    (Cirulla), then one row per player with their hand, the number of cards they captured,
    their scope and, under rules with declarations, the points they declared; `>` marks
    the player to move. A hand seen face down shows the cards its declaration showed.
    Once the hand is over, its score follows (see [`score_text`][scopa.board.score_text]).

    Args:
        state: the position, or one player's view of it (drawn from that player's seat).
        player: the seat it is seen from: that player is `you` and the other hands are
            face down. `None` shows every hand.
        lang: the language of the words: `"en"` or `"it"`.

    Raises:
        TypeError: `state` is not a state or a view, or `player` is not an int.
        InvalidArgumentError: `player` is not a player, or not the view's player; the
            library does not write in `lang`.
    """
    tr = translation(lang)
    seen = scene(state, player)
    labels = {
        "table": tr.gettext("table"),
        "stock": tr.gettext("stock"),
        "last": tr.gettext("last"),
        "shown": tr.gettext("shown"),
        "sides": tr.gettext("sides"),
    }
    width = _label_width(labels.values())
    lines = [_heading(tr, seen), *_sides_line(tr, seen, width)]
    lines += _field(labels["table"], cards_text(seen.table), width)
    stock = _cards(tr, seen.stock) if seen.stock else tr.pgettext("stock", "empty")
    lines += _field(labels["stock"], stock, width)
    if seen.last is not None:
        who, move = seen.last
        played = f"{player_words(tr, who, seen.seat)}: {_last_play(tr, move, seen)}"
        lines += _field(labels["last"], played, width)
    lines += _shown_line(tr, seen, width)
    lines += ["", *_player_rows(tr, seen)]
    if seen.score is not None:
        lines += ["", _score_text(tr, seen.score, seen.rules, seen.seat)]
    return "\n".join(lines)


def score_text(score: HandScore, rules: Rules, seat: int | None = None, *, lang: str = "en") -> str:
    """A hand's score as a table: each category's counted figures and points, then the total.

    The figures and points of the sides are separated by `/`, in the order of the first
    line. `seat` names that player's side as in [`side_name`][scopa.board.side_name]. The
    categories keep their names (`scope`, `carte`, ...) in every language.

    Examples:
        >>> from scopa import CategoryScore, HandScore, find_variant
        >>> score = HandScore((
        ...     CategoryScore("scope", (1, 0), (1, 0)),
        ...     CategoryScore("carte", (1, 0), (22, 18)),
        ... ))
        >>> print(score_text(score, find_variant("classic"), seat=1))
        score of the hand, player 0 / you:
          category   counted   points
          scope      1 / 0     1 / 0
          carte      22 / 18   1 / 0
          total                2 / 0

    Raises:
        TypeError: `seat` is not an int.
        InvalidArgumentError: `seat` is not a player; the library does not write in `lang`.
    """
    return _score_text(translation(lang), score, rules, check_seat(rules, seat))


def _score_text(tr: _Tr, score: HandScore, rules: Rules, seat: int | None) -> str:
    names = " / ".join(side_words(tr, rules, side, seat) for side in range(len(score.points)))
    rows = [(tr.gettext("category"), tr.gettext("counted"), tr.gettext("points"))]
    rows += [(c.name, _slashed(c.figures), _slashed(c.points)) for c in score]
    rows.append((tr.gettext("total"), "", _slashed(score.points)))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    lines = textwrap.wrap(tr.gettext("score of the hand, {sides}:").format(sides=names), WIDTH)
    for name, counted, points in rows:
        line = f"  {name:<{widths[0]}}   {counted:<{widths[1]}}   {points}"
        lines.append(line.rstrip())
    return "\n".join(lines)


def _slashed(values: Sequence[int]) -> str:
    return " / ".join(map(str, values))


# --------------------------------------------------------------------------- matches


def _amount(value: Fraction, rules: Rules) -> str:
    """An amount won, rounded as the rules' brilli are shown (two decimals by default)."""
    stakes = rules.stakes
    return (stakes if isinstance(stakes, BrilliEconomy) else BrilliEconomy()).format(value)


def match_summary(match: Match, player: int | None = None, *, lang: str = "en") -> str:
    """The lines of a match's picture above its position.

    The variant, the target and the hand in progress; each side's points; under stakes
    such as the tretre brilli, what each side has won so far; once the match is over, how
    it ended (see [`ending_text`][scopa.board.ending_text]) and the winner. `player`
    names that player and their side as `you` and `your side`.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player; the library does not write in `lang`.
    """
    if not isinstance(match, Match):
        raise TypeError(f"a match picture needs a Match, not {type(match).__name__}")
    tr = translation(lang)
    rules = match.rules
    player = check_seat(rules, player)
    names = [side_words(tr, rules, side, player) for side in range(rules.number_of_sides)]
    variant = _short(rules.name)
    if match.is_over:
        top = tr.gettext("{variant} match to {target} points, over")
    else:
        top = tr.gettext("{variant} match to {target} points, hand {number}")
    lines = [top.format(variant=variant, target=rules.target, number=match.hand_number)]
    labels = {
        "points": tr.gettext("points"),
        "brilli": tr.gettext("brilli"),
        "ended": tr.gettext("ended"),
        "winner": tr.gettext("winner"),
    }
    width = _label_width(labels.values())
    totals = zip(names, match.totals, strict=True)
    lines += _field(labels["points"], ", ".join(f"{n} {total}" for n, total in totals), width)
    if match.settlement is not None:
        brilli = zip(names, match.settlement, strict=True)
        amounts = ", ".join(f"{n} {_amount(b, rules)}" for n, b in brilli)
        lines += _field(labels["brilli"], amounts, width)
    ending = _ending(tr, match, player)
    if ending is not None:
        lines += _field(labels["ended"], ending, width)
    if match.winner is not None:
        lines += _field(labels["winner"], names[match.winner], width)
    return "\n".join(lines)


def ending_text(match: Match, player: int | None = None, *, lang: str = "en") -> str | None:
    """How a match that is over ended, in words, unless simply by reaching the target.

    An abandonment (`player 1 abandoned (timeout)`); a claim, right or wrong; a category
    that wins outright (`player 1 won outright with the napola`); the countdown of the last
    hand when several sides reached the target; the lowest total winning (scopa a
    perdere). `None` while the match goes on, or when a side simply reached the target.
    `player` names that player and their side as `you` and `your side`.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player; the library does not write in `lang`.
    """
    if not isinstance(match, Match):
        raise TypeError(f"a match's ending needs a Match, not {type(match).__name__}")
    tr = translation(lang)
    return _ending(tr, match, check_seat(match.rules, player))


def _ending(tr: _Tr, match: Match, player: int | None) -> str | None:
    rules = match.rules
    winner = match.winner
    if winner is None:
        return None
    if match.abandonment is not None:
        gone = match.abandonment
        return tr.gettext("{player} abandoned ({reason})").format(
            player=player_words(tr, gone.player, player), reason=abandon_reason(tr, gone.reason)
        )
    if match.claim is not None:
        claim = match.claim
        if claim.correct:
            words = tr.ngettext(
                "{player} claimed {count} point, rightly",
                "{player} claimed {count} points, rightly",
                rules.target,
            )
        else:
            words = tr.ngettext(
                "{player} claimed {count} point, wrongly",
                "{player} claimed {count} points, wrongly",
                rules.target,
            )
        return words.format(player=player_words(tr, claim.player, player), count=rules.target)
    outright = [c for c in match.hands[-1].score if c.wins_match is not None]
    if outright:
        return tr.gettext("{side} won outright with the {category}").format(
            side=side_words(tr, rules, winner, player), category=outright[0].name
        )
    reached = [side for side, total in enumerate(match.totals) if total >= rules.target]
    if rules.lowest_total_wins:
        names = and_list(tr, [side_words(tr, rules, side, player) for side in reached])
        return tr.gettext("{sides} reached {target} points, and the lowest total wins").format(
            sides=names, target=rules.target
        )
    if len(reached) > 1 and rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
        return tr.gettext(
            "several sides reached {target} points; counting the last hand category by "
            "category, {side} got there first"
        ).format(target=rules.target, side=side_words(tr, rules, winner, player))
    return None


def match_text(match: Match, player: int | None = None, *, lang: str = "en") -> str:
    """A text picture of a match: its summary, then its position.

    The summary is [`match_summary`][scopa.board.match_summary]; the position is the
    hand in progress, or the last hand once the match is over (see
    [`state_text`][scopa.board.state_text]).

    Args:
        match: the match.
        player: the seat it is seen from, as in `state_text`; `None` shows every hand.
        lang: the language of the words: `"en"` or `"it"`.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player; the library does not write in `lang`.
    """
    summary = match_summary(match, player, lang=lang)
    return f"{summary}\n\n{state_text(match.state, player, lang=lang)}"


# --------------------------------------------------------------------------- rules


def _misdeal_words(tr: _Tr, misdeal: MisdealRule) -> str:
    if misdeal is MisdealRule.THREE_PLUS_KINGS:
        return tr.gettext(
            "a deal is annulled and dealt again when the first table shows three or four Kings"
        )
    if misdeal is MisdealRule.TRETRE:
        return tr.gettext(
            "a deal is annulled and dealt again when the first table shows three or more "
            "Kings, or four cards of one rank"
        )
    if misdeal is MisdealRule.CIRULLA:
        return tr.gettext(
            "a deal is annulled and dealt again when the first table shows two or more Aces"
        )
    return tr.gettext("no deal is annulled")


def _priority_words(tr: _Tr, priority: CapturePriority) -> str:
    if priority is CapturePriority.EQUAL_RANK_FIRST:
        return tr.gettext(
            "a card takes a table card of equal rank when there is one, otherwise table cards "
            "that add up to its rank"
        )
    if priority is CapturePriority.MIN_CARDS:
        return tr.gettext(
            "a card takes the fewest table cards it can: one of equal rank, otherwise the "
            "smallest set that adds up to its rank"
        )
    return tr.gettext(
        "a card takes a table card of equal rank or any set that adds up to its rank, as its "
        "player chooses"
    )


def _players_words(tr: _Tr, rules: Rules) -> str:
    if rules.number_of_sides == rules.players:
        return tr.gettext("{players}, each for self").format(players=rules.players)
    sides = [
        and_list(tr, [str(p) for p in range(rules.players) if rules.side_of(p) == side])
        for side in range(rules.number_of_sides)
    ]
    return tr.gettext("{players} in {sides} sides: players {teams}").format(
        players=rules.players,
        sides=rules.number_of_sides,
        teams=tr.pgettext("sides facing each other", " against ").join(sides),
    )


def _dealing_words(tr: _Tr, rules: Rules) -> str:
    each = tr.ngettext("{count} card each", "{count} cards each", rules.hand_size)
    if rules.table_size:
        table = tr.gettext("{count} face up on the table at the first deal")
    else:
        table = tr.gettext("none on the table")
    if rules.deals_per_hand == 1:
        deals = tr.gettext("all the cards in one deal")
    else:
        deals = tr.gettext("{count} deals a hand")
    return tr.gettext("{each} and {table}; {deals}; {misdeal}").format(
        each=each.format(count=rules.hand_size),
        table=table.format(count=rules.table_size),
        deals=deals.format(count=rules.deals_per_hand),
        misdeal=_misdeal_words(tr, rules.misdeal),
    )


def _capture_words(tr: _Tr, rules: Rules) -> str:
    if rules.capture_by_rank and rules.capture_by_sum:
        how = _priority_words(tr, rules.capture_priority)
    elif rules.capture_by_rank:
        how = tr.gettext("a card takes one table card of equal rank")
    elif rules.capture_by_sum:
        how = tr.gettext("a card takes two or more table cards that add up to its rank")
    elif rules.capture_to_fifteen:
        how = tr.gettext("a card takes table cards that add up to 15 with it")
    else:
        how = tr.gettext("no card captures")
    words = [how]
    if rules.capture_to_fifteen and (rules.capture_by_rank or rules.capture_by_sum):
        words.append(
            tr.gettext(
                "a card may also take table cards that add up to 15 with it, as its player chooses"
            )
        )
    if rules.compulsory_capture is not CompulsoryCapture.NONE:
        words.append(tr.gettext("a card that can capture must capture"))
    else:
        words.append(tr.gettext("a card may be laid down even when it could capture"))
    if rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD:
        words.append(tr.gettext("a player who can capture must play a card that captures"))
    return "; ".join(words)


def _ace_on_ace_words(tr: _Tr, rule: AceOnAce) -> str:
    if rule is AceOnAce.TAKE_ACE_ONLY:
        return tr.gettext("with an Ace on the table, an Ace takes only that Ace")
    if rule is AceOnAce.TAKE_ALL:
        return tr.gettext("even with an Ace on the table, an Ace takes every card")
    return tr.gettext("with an Ace on the table, an Ace captures as any other card")


def _ace_words(tr: _Tr, rules: Rules) -> str | None:
    words = []
    if rules.ace_captures_all:
        if rules.ace_sweep_is_scopa:
            words.append(
                tr.gettext("an Ace takes every card on the table, and that sweep counts as a scopa")
            )
        else:
            words.append(
                tr.gettext("an Ace takes every card on the table, and that sweep is not a scopa")
            )
        words.append(_ace_on_ace_words(tr, rules.ace_with_ace_on_table))
    if rules.ace_on_empty_table_captures_itself:
        words.append(tr.gettext("an Ace played on an empty table goes to its player's pile"))
    if rules.ace_first_lead_forbidden:
        words.append(
            tr.gettext(
                "the first play of a hand may not be an Ace unless the player holds only Aces"
            )
        )
    return "; ".join(words) or None


def _scopa_words(tr: _Tr, rules: Rules) -> str:
    if rules.leftovers is Leftovers.LAST_CAPTURER:
        leftovers = tr.gettext(
            "cards left on the table at the end go to the last player who captured"
        )
    elif rules.leftovers is Leftovers.DEALER:
        leftovers = tr.gettext("cards left on the table at the end go to the dealer")
    else:
        leftovers = tr.gettext(
            "cards left on the table at the end stay there and nobody scores them"
        )
    if not any(isinstance(c, Scope) and c.value for c in rules.scoring.components):
        sweep = tr.gettext("emptying the table scores nothing")
    elif rules.scopa_on_last_play:
        sweep = tr.gettext("emptying the table scores a scopa, also on the last play of the hand")
    else:
        sweep = tr.gettext("emptying the table scores a scopa, except on the last play of the hand")
    return f"{sweep}; {leftovers}"


def _first_table_words(tr: _Tr, rules: Rules) -> str | None:
    if rules.first_table is FirstTable.NOTHING:
        return None
    eldest = rules.first_table_to_eldest
    who = tr.gettext("by the eldest hand") if eldest else tr.gettext("by the dealer")
    if rules.first_table is FirstTable.TWO_GROUPS:
        words = tr.gettext(
            "a first table adding up to 15 or 30 is swept at once {who}: 15 is one scopa, "
            "30 two scope when its cards split into two groups of 15"
        )
    else:
        words = tr.gettext(
            "a first table adding up to 15 or 30 is swept at once {who}: 15 is one scopa, "
            "30 two scope"
        )
    words = words.format(who=who)
    if rules.matta is not None:
        words += tr.gettext("; the matta ({card}) counts as whatever makes 15 or 30").format(
            card=rules.matta
        )
    return words


def _declaration_words(tr: _Tr, rules: Rules) -> str | None:
    if not rules.declarations:
        return None
    words = tr.gettext(
        "with the first play of each deal a player may declare their hand: {busso} for three "
        "cards adding up to less than 10, or {tris} for three cards of one rank; the rest of "
        "a declared hand is shown to everyone"
    ).format(busso=_declaration(tr, Declaration.BUSSO), tris=_declaration(tr, Declaration.TRIS))
    if rules.matta is not None:
        words += tr.gettext("; the matta ({card}) stands for any card (as 1 in a busso)").format(
            card=rules.matta
        )
    return words


def _match_words(tr: _Tr, rules: Rules) -> str:
    target = rules.target
    if rules.lowest_total_wins:
        return tr.gettext(
            "the match ends after a hand in which a side reaches {target} points and is alone "
            "at the top (on a tie, more hands are played); then the side with the lowest "
            "total wins"
        ).format(target=target)
    words = [tr.gettext("the first side to {target} points wins").format(target=target)]
    if rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
        words.append(
            tr.gettext(
                "when several reach it in the same hand, that hand's points are counted "
                "category by category (carte, denari, settebello, primiera, the others, scope "
                "last) and the first side to reach the target wins"
            )
        )
    else:
        words.append(tr.gettext("on a tie at the top, more hands are played"))
    if rules.claim_out:
        words.append(
            tr.gettext(
                "a player may claim with a play that their side has reached the target: a "
                "right claim wins the match at once, a wrong one loses it"
            )
        )
    return "; ".join(words)


def _primiera_values(tr: _Tr, primiera: Primiera) -> str:
    by_value = sorted(Rank, key=lambda rank: (-primiera.table.value(rank), rank))
    return ", ".join(f"{_rank_label(tr, rank)}={primiera.table.value(rank)}" for rank in by_value)


_SELF_NAMED: dict[type, str] = {
    Scope: "scope",
    Carte: "carte",
    Denari: "denari",
    Settebello: "settebello",
    ReBello: "re bello",
    Primiera: "primiera",
}


def _component_words(tr: _Tr, component: ScoringComponent) -> str:
    """A scoring category in words, after its name unless the words say which it is."""
    words = _category_words(tr, component)
    if _SELF_NAMED.get(type(component)) == component.name:
        return words
    return f"{component.name}: {words}"


def _category_words(tr: _Tr, component: ScoringComponent) -> str:
    if isinstance(component, Scope):
        return tr.ngettext(
            "{count} point for each scopa", "{count} points for each scopa", component.value
        ).format(count=component.value)
    if isinstance(component, Carte):
        if component.threshold is None:
            return tr.gettext("1 point for the most cards (none on a tie)")
        return tr.gettext("1 point for the most cards, at least {count} (none on a tie)").format(
            count=component.threshold
        )
    if isinstance(component, Denari):
        if component.threshold is None:
            return tr.gettext("1 point for the most denari (none on a tie)")
        return tr.gettext("1 point for the most denari, at least {count} (none on a tie)").format(
            count=component.threshold
        )
    if isinstance(component, Settebello):
        return tr.gettext("1 point for the settebello (7D)")
    if isinstance(component, ReBello):
        return tr.gettext("1 point for the re bello (10D)")
    if isinstance(component, Napola):
        return _napola_words(tr, component)
    if isinstance(component, Grande):
        if component.extends:
            return tr.gettext(
                "the Fante, Cavallo and Re of denari together score 5; with the 7 of denari "
                "too 6, and with the 6 too 7"
            )
        return tr.gettext("the Fante, Cavallo and Re of denari together score 5")
    if isinstance(component, AssoDueTre):
        if component.trio_wins_match:
            return tr.gettext(
                "the Ace, 2 and 3 of denari score 1, 2 and 3 points to their taker; all three "
                "win the match"
            )
        return tr.gettext("the Ace, 2 and 3 of denari score 1, 2 and 3 points to their taker")
    if isinstance(component, Ponino):
        return tr.gettext("a side that takes all four Cavalli scores its scope once more")
    if isinstance(component, CardPoints):
        ranks = and_list(tr, [_rank_label(tr, rank) for rank in component.ranks])
        return tr.ngettext(
            "{count} point for each {ranks} taken",
            "{count} points for each {ranks} taken",
            component.value,
        ).format(count=component.value, ranks=ranks)
    if isinstance(component, Declarations):
        return tr.gettext("the points declared (busso and tris)")
    if isinstance(component, Primiera):
        return _primiera_words(tr, component)
    return tr.gettext("{category} (a category of its own)").format(category=component.name)


def _napola_words(tr: _Tr, napola: Napola) -> str:
    words = [tr.gettext("a run of denari from the Ace scores its length from three on")]
    if napola.most != 10:
        words[0] = tr.gettext(
            "a run of denari from the Ace scores its length from three on, at most {count}"
        ).format(count=napola.most)
    if napola.napoleone_wins_match:
        words.append(tr.gettext("all ten win the match"))
    return "; ".join(words)


def _primiera_words(tr: _Tr, primiera: Primiera) -> str:
    words = _compared_words(tr, primiera)
    if primiera.all_sevens:
        more = tr.ngettext(
            "{count} point more for all four sevens",
            "{count} points more for all four sevens",
            primiera.all_sevens,
        )
        words += f"; {more.format(count=primiera.all_sevens)}"
    return words


def _compared_words(tr: _Tr, primiera: Primiera) -> str:
    if primiera.rule is PrimieraRule.MOST_SEVENS_CASCADE:
        return tr.gettext(
            "1 point of primiera for the most sevens (on a tie the most sixes, Aces, fives...)"
        )
    if primiera.rule is PrimieraRule.SETTANTA_3_SEVENS:
        return tr.gettext("1 point of primiera for three or four sevens")
    if primiera.rule is PrimieraRule.MOST_SEVENS:
        return tr.gettext("1 point for the most sevens (none on a tie)")
    if primiera.missing_suit is MissingSuit.ZERO:
        missing = tr.gettext("a missing suit counts 0")
    else:
        missing = tr.gettext("a side lacking a suit cannot win it")
    if primiera.rule is PrimieraRule.BEST_CARDS:
        words = tr.gettext(
            "1 point for the best primiera, the best four cards, one of each suit, compared "
            "card by card from the highest, valued {values}; {missing} (none on a tie)"
        )
    else:
        words = tr.gettext(
            "1 point for the best primiera, the sum of the best card of each suit valued "
            "{values}; {missing} (none on a tie)"
        )
    return words.format(values=_primiera_values(tr, primiera), missing=missing)


def _stakes_words(tr: _Tr, rules: Rules) -> str:
    stakes = rules.stakes
    if stakes is None:
        return tr.pgettext("stakes", "none")
    if not isinstance(stakes, BrilliEconomy):
        return type(stakes).__name__
    words = tr.ngettext(
        "brilli: {pot} in each of the first {count} hand, shared in proportion to the points",
        "brilli: {pot} in each of the first {count} hands, shared in proportion to the points",
        stakes.paid_hands,
    ).format(pot=stakes.format(stakes.hand_pot), count=stakes.paid_hands)
    if stakes.unplayed_to_winner:
        bonus = tr.gettext(
            "{bonus} to the winner of the match, plus those of the paid hands a short match "
            "did not play"
        )
    else:
        bonus = tr.gettext("{bonus} to the winner of the match")
    penalty = tr.gettext("an abandoner loses {penalty}").format(
        penalty=stakes.format(stakes.abandon_penalty)
    )
    if stakes.abandon_unplayed_to_survivor:
        survivor = tr.gettext(
            "the survivors of an abandonment share its hand's pot and those of unplayed hands"
        )
    else:
        survivor = tr.gettext("the survivors of an abandonment share its hand's pot")
    bonus = bonus.format(bonus=stakes.format(stakes.match_bonus))
    return "; ".join([words, bonus, penalty, survivor])


def rules_text(rules: Rules, *, lang: str = "en") -> str:
    """The rules in words: players, dealing, capturing, Aces, scopa, scoring, match and clock.

    Rules that have them add the first table of 15 or 30 (`first`) and declarations
    (`declare`).

    Examples:
        >>> from scopa import find_variant
        >>> print(rules_text(find_variant("scopone")))
        players   4 in 2 sides: players 0 and 2 against 1 and 3
        dealing   9 cards each and 4 face up on the table at the first deal; all the
                  cards in one deal; a deal is annulled and dealt again when the first
                  table shows three or four Kings
        capture   a card takes the fewest table cards it can: one of equal rank,
                  otherwise the smallest set that adds up to its rank; a card that can
                  capture must capture
        scopa     emptying the table scores a scopa, except on the last play of the
                  hand; cards left on the table at the end go to the last player who
                  captured
        scoring   1 point for each scopa
                  1 point for the most cards (none on a tie)
                  1 point for the most denari (none on a tie)
                  1 point for the settebello (7D)
                  1 point for the best primiera, the sum of the best card of each suit
                  valued 7=21, 6=18, Ace=16, 5=15, 4=14, 3=13, 2=12, Fante=10,
                  Cavallo=10, Re=10; a side lacking a suit cannot win it (none on a tie)
        match     the first side to 11 points wins; on a tie at the top, more hands are
                  played
        clock     no time limit
        stakes    none

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
    """
    tr = translation(lang)
    if rules.move_time_limit is None:
        clock = tr.gettext("no time limit")
    else:
        clock = tr.gettext(
            "{seconds} seconds a move; a player who takes longer abandons the match"
        ).format(seconds=f"{rules.move_time_limit:g}")
    optional = [
        (tr.pgettext("rules", "aces"), _ace_words(tr, rules)),
        (tr.pgettext("rules", "first"), _first_table_words(tr, rules)),
        (tr.pgettext("rules", "declare"), _declaration_words(tr, rules)),
    ]
    fields = [
        (tr.pgettext("rules", "players"), _players_words(tr, rules)),
        (tr.pgettext("rules", "dealing"), _dealing_words(tr, rules)),
        (tr.pgettext("rules", "capture"), _capture_words(tr, rules)),
        *[(label, words) for label, words in optional if words is not None],
        (tr.pgettext("rules", "scopa"), _scopa_words(tr, rules)),
        *[
            (tr.pgettext("rules", "scoring") if i == 0 else "", _component_words(tr, c))
            for i, c in enumerate(rules.scoring.components)
        ],
        (tr.pgettext("rules", "match"), _match_words(tr, rules)),
        (tr.pgettext("rules", "clock"), clock),
        (tr.pgettext("rules", "stakes"), _stakes_words(tr, rules)),
    ]
    width = max(10, *(len(label) + 1 for label, _ in fields))
    lines = []
    for label, text in fields:
        lines += textwrap.wrap(
            text, WIDTH, initial_indent=f"{label:<{width}}", subsequent_indent=" " * width
        )
    return "\n".join(lines)
