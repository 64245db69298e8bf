"""Text pictures for terminals: positions, matches, hand scores, and rules in words.

`print(state)` and `print(match)` draw these pictures ([`to_text`][scopa.GameState.to_text]
keeps the one-line position notation). A picture is plain text of at most 80 columns,
without colour, and writes cards the way they are typed: `7D` is the seven of denari (the
suits are D denari, C coppe, S spade, B bastoni). Hands, the table and every other list
of cards are written in the standard order of the cards (denari Ace to Re, then coppe,
spade and bastoni), separated by spaces.
Seen from one seat, that player is `you` and the other hands are face down (`##`).

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
"""

from __future__ import annotations

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
    Declaration,
    Declarations,
    Denari,
    FirstTable,
    GameState,
    Grande,
    HandScore,
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
from scopa._scene import Scene, check_seat, scene, side_letter
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

_LABEL = 8  # the width of the labels of the lines above the players ("table", "stock")
_HIDDEN = "##"  # a face-down card
_RANK_NAMES = {Rank.ASSO: "Ace", Rank.FANTE: "Fante", Rank.CAVALLO: "Cavallo", Rank.RE: "Re"}


# --------------------------------------------------------------------------- words


def player_name(player: int, seat: int | None = None) -> str:
    """How pictures name a player: `you` for the `seat` a picture is seen from, else `player N`."""
    return "you" if player == seat else f"player {player}"


def side_name(rules: Rules, side: int, seat: int | None = None) -> str:
    """How pictures name a side.

    When each player plays for self, a side is named as its player. Otherwise it is
    `side A`, `side B`…, and the seat's own side is `your side`.

    Raises:
        TypeError: `seat` is not an int.
        InvalidArgumentError: `seat` is not a player.
    """
    seat = check_seat(rules, seat)
    if rules.number_of_sides == rules.players:
        return player_name(side, seat)
    if seat is not None and rules.side_of(seat) == side:
        return "your side"
    return f"side {side_letter(side)}"


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as typed, in the standard order of the cards (`7D 1C 7C`); `-` for none.

    The standard order is that of [`DECK`][scopa.DECK]: denari from the Ace to the Re,
    then coppe, spade and bastoni; the form of every message
    ([`show_cards`][scopa.cards.show_cards]).
    """
    return show_cards(cards)


def card_name(card: Card) -> str:
    """A card in words, such as `the Ace of coppe (♥)` for `1C`."""
    rank = _RANK_NAMES.get(card.rank, str(int(card.rank)))
    return f"the {rank} of {card.suit.name.lower()} ({card.suit.symbol})"


def move_text(move: Move) -> str:
    """A move in words: `7D on the table` or `7D taking 3C 4S`.

    A declaration and a claim follow: `1D on the table, declaring busso (3 points)`,
    `7D taking 7C, claiming the target`.
    """
    text = (
        f"{move.card} taking {cards_text(move.captured)}"
        if move.captured
        else (f"{move.card} on the table")
    )
    if move.declaration is not None:
        text += f", declaring {declaration_text(move.declaration)}"
    if move.claim:
        text += ", claiming the target"
    return text


def declaration_text(declaration: Declaration) -> str:
    """A declaration in words: `busso (3 points)`, `tris (10 points)`."""
    return f"{declaration.value} ({_count(declaration.points, 'point')})"


def _and(words: Sequence[str]) -> str:
    """Words joined as in a sentence: `a`, `a and b`, `a, b and c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _field(label: str, text: str) -> list[str]:
    """A labelled line, wrapped to the width with the text aligned after the label."""
    indent = " " * _LABEL
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=label.ljust(_LABEL),
        subsequent_indent=indent,
        break_on_hyphens=False,
    ) or [label]


# --------------------------------------------------------------------------- positions


def _heading(seen: Scene) -> str:
    name = _short(seen.rules.name)
    if seen.current is None:
        return f"{name}: the hand is over"
    turn = player_name(seen.current, seen.seat)
    return f"{name}: deal {seen.deal} of {seen.rules.deals_per_hand}, to play: {turn}"


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sides_line(seen: Scene) -> list[str]:
    rules = seen.rules
    if rules.number_of_sides == rules.players:
        return []
    sides = []
    for side in range(rules.number_of_sides):
        members = [
            player_name(p, seen.seat) for p in range(rules.players) if rules.side_of(p) == side
        ]
        sides.append(f"{side_name(rules, side, seen.seat)}: {', '.join(members)}")
    return _field("sides", "; ".join(sides))


def _hand_cell(hand: tuple[Card, ...] | int, shown: tuple[Card, ...]) -> str:
    """A hand: its cards, or the cards a declaration showed and `##` for the others."""
    if isinstance(hand, int):
        return " ".join([*map(str, sorted(shown)), *[_HIDDEN] * (hand - len(shown))]) or "-"
    return cards_text(hand)


def _player_rows(seen: Scene) -> list[str]:
    """The table of players: hand, captured cards, scope, the dealer and who is to play.

    Under rules with declarations, a column gives the points each player declared.
    """
    names = [player_name(p, seen.seat) for p in range(seen.rules.players)]
    name_width = max(map(len, ["player", *names]))
    cells = [_hand_cell(hand, shown) for hand, shown in zip(seen.hands, seen.shown, strict=True)]
    declared = [f"  {points:>8}" for points in seen.declared] if seen.rules.declarations else None
    extra = 0 if declared is None else 10
    # the hand column takes what the other columns leave, and wraps a hand that is longer
    room = WIDTH - (2 + name_width + 3 + 2 + 8 + 2 + 5 + extra + 3 + 6)
    hand_width = min(room, max(map(len, ["hand", *cells])))
    heading = f"  {'player':<{name_width}}   {'hand':<{hand_width}}  captured  scope"
    lines = [heading + ("  declared" if declared is not None else "")]
    for player, (name, cell) in enumerate(zip(names, cells, strict=True)):
        parts = textwrap.wrap(cell, hand_width) or [cell]
        mark = ">" if player == seen.current else " "
        role = "   dealer" if player == seen.dealer else ""
        points = "" if declared is None else declared[player]
        lines.append(
            f"{mark} {name:<{name_width}}   {parts[0]:<{hand_width}}  "
            f"{seen.piles[player]:>8}  {seen.scope[player]:>5}{points}{role}".rstrip()
        )
        lines.extend(f"  {'':<{name_width}}   {part}" for part in parts[1:])
    return lines


def _shown_line(seen: Scene) -> list[str]:
    """The cards declarations have shown, player by player, if any."""
    shown = [
        f"{player_name(player, seen.seat)} {cards_text(cards)}"
        for player, cards in enumerate(seen.shown)
        if cards
    ]
    return _field("shown", "; ".join(shown)) if shown else []


def _last_play(move: Move, seen: Scene) -> str:
    """The last play in words, saying where a card laid down went when it left the table."""
    text = move_text(move)
    if move.captured or move.card in seen.table:
        return text
    rest = text.removeprefix(f"{move.card} on the table")
    if seen.current is None:
        return (
            f"{move.card} laid down, the last card of the hand{rest}; the cards left on the "
            "table went to the last player to capture"
        )
    return f"{move.card} on the empty table, taking itself{rest}"


def state_text(state: GameState | PlayerView, player: int | None = None) -> str:
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

    Raises:
        TypeError: `state` is not a state or a view, or `player` is not an int.
        InvalidArgumentError: `player` is not a player, or not the view's player.
    """
    seen = scene(state, player)
    lines = [_heading(seen), *_sides_line(seen)]
    lines += _field("table", cards_text(seen.table))
    lines += _field("stock", _count(seen.stock, "card") if seen.stock else "empty")
    if seen.last is not None:
        who, move = seen.last
        lines += _field("last", f"{player_name(who, seen.seat)}: {_last_play(move, seen)}")
    lines += _shown_line(seen)
    lines += ["", *_player_rows(seen)]
    if seen.score is not None:
        lines += ["", score_text(seen.score, seen.rules, seen.seat)]
    return "\n".join(lines)


def score_text(score: HandScore, rules: Rules, seat: int | None = None) -> str:
    """A hand's score as a table: each category's counted figures and points, then the total.

    The figures and points of the sides are separated by `/`, in the order of the first
    line. `seat` names that player's side as in [`side_name`][scopa.board.side_name].

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
        InvalidArgumentError: `seat` is not a player.
    """
    seat = check_seat(rules, seat)
    names = " / ".join(side_name(rules, side, seat) for side in range(len(score.points)))
    rows = [("category", "counted", "points")]
    rows += [(c.name, _slashed(c.figures), _slashed(c.points)) for c in score]
    rows.append(("total", "", _slashed(score.points)))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    lines = textwrap.wrap(f"score of the hand, {names}:", WIDTH)
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


def match_summary(match: Match, player: int | None = None) -> str:
    """The lines of a match's picture above its seen.

    The variant, the target and the hand in progress; each side's points; under stakes
    such as the tretre brilli, what each side has won so far; once the match is over, how
    it ended (see [`ending_text`][scopa.board.ending_text]) and the winner. `player`
    names that player and their side as `you` and `your side`.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player.
    """
    if not isinstance(match, Match):
        raise TypeError(f"a match picture needs a Match, not {type(match).__name__}")
    rules = match.rules
    player = check_seat(rules, player)
    names = [side_name(rules, side, player) for side in range(rules.number_of_sides)]
    progress = "over" if match.is_over else f"hand {match.hand_number}"
    lines = [f"{_short(rules.name)} match to {rules.target} points, {progress}"]
    totals = zip(names, match.totals, strict=True)
    lines += _field("points", ", ".join(f"{name} {total}" for name, total in totals))
    if match.settlement is not None:
        brilli = zip(names, match.settlement, strict=True)
        lines += _field("brilli", ", ".join(f"{name} {_amount(b, rules)}" for name, b in brilli))
    ending = ending_text(match, player)
    if ending is not None:
        lines += _field("ended", ending)
    if match.winner is not None:
        lines += _field("winner", names[match.winner])
    return "\n".join(lines)


def ending_text(match: Match, player: int | None = None) -> str | None:
    """How a match that is over ended, in words, unless simply by reaching the target.

    An abandonment (`player 1 abandoned (timeout)`); a claim, right or wrong; a category
    that wins outright (`player 1 won outright with the napola`); the countdown of the last
    hand when several sides reached the target; the lowest total winning (scopa a
    perdere). `None` while the match goes on, or when a side simply reached the target.
    `player` names that player and their side as `you` and `your side`.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player.
    """
    if not isinstance(match, Match):
        raise TypeError(f"a match's ending needs a Match, not {type(match).__name__}")
    rules = match.rules
    player = check_seat(rules, player)
    winner = match.winner
    if winner is None:
        return None
    if match.abandonment is not None:
        gone = match.abandonment
        return f"{player_name(gone.player, player)} abandoned ({gone.reason.value})"
    if match.claim is not None:
        claim = match.claim
        how = "rightly" if claim.correct else "wrongly"
        return f"{player_name(claim.player, player)} claimed {_count(rules.target, 'point')}, {how}"
    outright = [c for c in match.hands[-1].score if c.wins_match is not None]
    if outright:
        who = side_name(rules, winner, player)
        return f"{who} won outright with the {outright[0].name}"
    reached = [side for side, total in enumerate(match.totals) if total >= rules.target]
    if rules.lowest_total_wins:
        names = _and([side_name(rules, side, player) for side in reached])
        return f"{names} reached {rules.target} points, and the lowest total wins"
    if len(reached) > 1 and rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
        who = side_name(rules, winner, player)
        return (
            f"several sides reached {rules.target} points; counting the last hand category "
            f"by category, {who} got there first"
        )
    return None


def match_text(match: Match, player: int | None = None) -> str:
    """A text picture of a match: its summary, then its seen.

    The summary is [`match_summary`][scopa.board.match_summary]; the position is the
    hand in progress, or the last hand once the match is over (see
    [`state_text`][scopa.board.state_text]).

    Args:
        match: the match.
        player: the seat it is seen from, as in `state_text`; `None` shows every hand.

    Raises:
        TypeError: `match` is not a `Match`, or `player` is not an int.
        InvalidArgumentError: `player` is not a player.
    """
    summary = match_summary(match, player)
    return f"{summary}\n\n{state_text(match.state, player)}"


# --------------------------------------------------------------------------- rules

_MISDEALS = {
    MisdealRule.THREE_PLUS_KINGS: "a deal is annulled and dealt again when the first table "
    "shows three or four Kings",
    MisdealRule.TRETRE: "a deal is annulled and dealt again when the first table shows three "
    "or more Kings, or four cards of one rank",
    MisdealRule.CIRULLA: "a deal is annulled and dealt again when the first table shows two "
    "or more Aces",
    MisdealRule.NONE: "no deal is annulled",
}
_PRIORITIES = {
    CapturePriority.EQUAL_RANK_FIRST: "a card takes a table card of equal rank when there is "
    "one, otherwise table cards that add up to its rank",
    CapturePriority.MIN_CARDS: "a card takes the fewest table cards it can: one of equal rank, "
    "otherwise the smallest set that adds up to its rank",
    CapturePriority.FREE: "a card takes a table card of equal rank or any set that adds up to "
    "its rank, as its player chooses",
}


def _players_words(rules: Rules) -> str:
    if rules.number_of_sides == rules.players:
        return f"{rules.players}, each for self"
    sides = [
        _and([str(p) for p in range(rules.players) if rules.side_of(p) == side])
        for side in range(rules.number_of_sides)
    ]
    return f"{rules.players} in {rules.number_of_sides} sides: players " + " against ".join(sides)


def _dealing_words(rules: Rules) -> str:
    table = (
        f"{rules.table_size} face up on the table at the first deal"
        if rules.table_size
        else "none on the table"
    )
    deals = (
        "all the cards in one deal"
        if rules.deals_per_hand == 1
        else f"{rules.deals_per_hand} deals a hand"
    )
    return f"{rules.hand_size} cards each and {table}; {deals}; {_MISDEALS[rules.misdeal]}"


def _capture_words(rules: Rules) -> str:
    fifteen = "table cards that add up to 15 with it"
    if rules.capture_by_rank and rules.capture_by_sum:
        how = _PRIORITIES[rules.capture_priority]
    elif rules.capture_by_rank:
        how = "a card takes one table card of equal rank"
    elif rules.capture_by_sum:
        how = "a card takes two or more table cards that add up to its rank"
    elif rules.capture_to_fifteen:
        how = f"a card takes {fifteen}"
    else:
        how = "no card captures"
    if rules.capture_to_fifteen and (rules.capture_by_rank or rules.capture_by_sum):
        how += f"; a card may also take {fifteen}, as its player chooses"
    must = (
        "a card that can capture must capture"
        if rules.played_card_must_capture
        else "a card may be laid down even when it could capture"
    )
    words = [how, must]
    if rules.must_play_capturing_card_if_any:
        words.append("a player who can capture must play a card that captures")
    return "; ".join(words)


_ACE_ON_ACE = {
    AceOnAce.TAKE_ACE_ONLY: "with an Ace on the table, an Ace takes only that Ace",
    AceOnAce.TAKE_ALL: "even with an Ace on the table, an Ace takes every card",
    AceOnAce.CAPTURE_NORMALLY: "with an Ace on the table, an Ace captures as any other card",
}


def _ace_words(rules: Rules) -> str | None:
    words = []
    if rules.ace_captures_all:
        sweep = "counts as a scopa" if rules.ace_sweep_is_scopa else "is not a scopa"
        words.append(f"an Ace takes every card on the table, and that sweep {sweep}")
        words.append(_ACE_ON_ACE[rules.ace_with_ace_on_table])
    if rules.ace_on_empty_table_captures_itself:
        words.append("an Ace played on an empty table goes to its player's pile")
    if rules.ace_first_lead_forbidden:
        words.append("the first play of a hand may not be an Ace unless the player holds only Aces")
    return "; ".join(words) or None


def _scopa_words(rules: Rules) -> str:
    last = (
        "also on the last play of the hand"
        if rules.scopa_on_last_play
        else "except on the last play of the hand"
    )
    leftovers = (
        "cards left on the table at the end go to the last player who captured"
        if rules.leftovers_to_last_capturer
        else "cards left on the table at the end stay there and nobody scores them"
    )
    if not any(isinstance(c, Scope) and c.value for c in rules.scoring.components):
        return f"emptying the table scores nothing; {leftovers}"
    return f"emptying the table scores a scopa, {last}; {leftovers}"


def _first_table_words(rules: Rules) -> str | None:
    if rules.first_table is FirstTable.NOTHING:
        return None
    who = "the eldest hand" if rules.first_table_to_eldest else "the dealer"
    thirty = (
        "30 two scope when its cards split into two groups of 15"
        if rules.first_table is FirstTable.TWO_GROUPS
        else "30 two scope"
    )
    words = (
        f"a first table adding up to 15 or 30 is swept at once by {who}: 15 is one scopa, {thirty}"
    )
    if rules.matta is not None:
        words += f"; the matta ({rules.matta}) counts as whatever makes 15 or 30"
    return words


def _declaration_words(rules: Rules) -> str | None:
    if not rules.declarations:
        return None
    kinds = (
        f"{declaration_text(Declaration.BUSSO)} for three cards adding up to less than 10, "
        f"or {declaration_text(Declaration.TRIS)} for three cards of one rank"
    )
    words = (
        f"with the first play of each deal a player may declare their hand: {kinds}; the "
        "rest of a declared hand is shown to everyone"
    )
    if rules.matta is not None:
        words += f"; the matta ({rules.matta}) stands for any card (as 1 in a busso)"
    return words


def _match_words(rules: Rules) -> str:
    target = rules.target
    if rules.lowest_total_wins:
        return (
            f"the match ends after a hand in which a side reaches {target} points and is "
            "alone at the top (on a tie, more hands are played); then the side with the "
            "lowest total wins"
        )
    words = f"the first side to {target} points wins"
    if rules.tiebreak is Tiebreak.LAST_HAND_COUNTDOWN:
        words += (
            "; when several reach it in the same hand, that hand's points are counted "
            "category by category (carte, denari, settebello, primiera, the others, scope "
            "last) and the first side to reach the target wins"
        )
    else:
        words += "; on a tie at the top, more hands are played"
    if rules.claim_out:
        words += (
            "; a player may claim with a play that their side has reached the target: a "
            "right claim wins the match at once, a wrong one loses it"
        )
    return words


def _primiera_values(primiera: Primiera) -> str:
    by_value = sorted(Rank, key=lambda rank: (-primiera.table.value(rank), rank))
    return ", ".join(
        f"{_RANK_NAMES.get(rank, str(int(rank)))}={primiera.table.value(rank)}" for rank in by_value
    )


_SELF_NAMED: dict[type, str] = {
    Scope: "scope",
    Carte: "carte",
    Denari: "denari",
    Settebello: "settebello",
    ReBello: "re bello",
    Primiera: "primiera",
}


def _component_words(component: ScoringComponent) -> str:
    """A scoring category in words, after its name unless the words say which it is."""
    words = _category_words(component)
    if _SELF_NAMED.get(type(component)) == component.name:
        return words
    return f"{component.name}: {words}"


_RANK_LIST = {1: "Ace", 8: "Fante", 9: "Cavallo", 10: "Re"}


def _category_words(component: ScoringComponent) -> str:
    if isinstance(component, Scope):
        return f"{_count(component.value, 'point')} for each scopa"
    if isinstance(component, Carte | Denari):
        what = "cards" if isinstance(component, Carte) else "denari"
        least = "" if component.threshold is None else f", at least {component.threshold}"
        return f"1 point for the most {what}{least} (none on a tie)"
    if isinstance(component, Settebello):
        return "1 point for the settebello (7D)"
    if isinstance(component, ReBello):
        return "1 point for the re bello (10D)"
    if isinstance(component, Napola):
        most = "" if component.most == 10 else f", at most {component.most}"
        wins = "; all ten win the match" if component.napoleone_wins_match else ""
        return f"a run of denari from the Ace scores its length from three on{most}{wins}"
    if isinstance(component, Grande):
        more = "; with the 7 of denari too 6, and with the 6 too 7" if component.extends else ""
        return f"the Fante, Cavallo and Re of denari together score 5{more}"
    if isinstance(component, AssoDueTre):
        wins = "; all three win the match" if component.trio_wins_match else ""
        return f"the Ace, 2 and 3 of denari score 1, 2 and 3 points to their taker{wins}"
    if isinstance(component, Ponino):
        return "a side that takes all four Cavalli scores its scope once more"
    if isinstance(component, CardPoints):
        ranks = _and([_RANK_LIST.get(rank, str(rank)) for rank in component.ranks])
        return f"{_count(component.value, 'point')} for each {ranks} taken"
    if isinstance(component, Declarations):
        return "the points declared (busso and tris)"
    if isinstance(component, Primiera):
        return _primiera_words(component)
    return f"{component.name} (a category of its own)"


def _primiera_words(primiera: Primiera) -> str:
    words = _compared_words(primiera)
    if primiera.all_sevens:
        words += f"; {_count(primiera.all_sevens, 'point')} more for all four sevens"
    return words


def _compared_words(primiera: Primiera) -> str:
    if primiera.rule is PrimieraRule.MOST_SEVENS_CASCADE:
        return "1 point of primiera for the most sevens (on a tie the most sixes, Aces, fives...)"
    if primiera.rule is PrimieraRule.SETTANTA_3_SEVENS:
        return "1 point of primiera for three or four sevens"
    if primiera.rule is PrimieraRule.MOST_SEVENS:
        return "1 point for the most sevens (none on a tie)"
    if primiera.rule is PrimieraRule.BEST_CARDS:
        how = (
            "the best four cards, one of each suit, compared card by card from the highest, valued"
        )
    else:
        how = "the sum of the best card of each suit valued"
    missing = (
        "a missing suit counts 0"
        if primiera.missing_suit is MissingSuit.ZERO
        else "a side lacking a suit cannot win it"
    )
    return (
        f"1 point for the best primiera, {how} {_primiera_values(primiera)}; {missing} "
        "(none on a tie)"
    )


def _stakes_words(rules: Rules) -> str:
    stakes = rules.stakes
    if stakes is None:
        return "none"
    if not isinstance(stakes, BrilliEconomy):
        return type(stakes).__name__
    unplayed = (
        ", plus those of the paid hands a short match did not play"
        if stakes.unplayed_to_winner
        else ""
    )
    survivor = (
        "; the survivors of an abandonment share its hand's pot and those of unplayed hands"
        if stakes.abandon_unplayed_to_survivor
        else "; the survivors of an abandonment share its hand's pot"
    )
    return (
        f"brilli: {stakes.format(stakes.hand_pot)} in each of the first "
        f"{_count(stakes.paid_hands, 'hand')}, shared in proportion to the points; "
        f"{stakes.format(stakes.match_bonus)} to the winner of the match{unplayed}; "
        f"an abandoner loses {stakes.format(stakes.abandon_penalty)}{survivor}"
    )


def rules_text(rules: Rules) -> str:
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
    """
    clock = (
        "no time limit"
        if rules.move_time_limit is None
        else f"{rules.move_time_limit:g} seconds a move; a player who takes longer abandons "
        "the match"
    )
    optional = [
        ("aces", _ace_words(rules)),
        ("first", _first_table_words(rules)),
        ("declare", _declaration_words(rules)),
    ]
    fields = [
        ("players", _players_words(rules)),
        ("dealing", _dealing_words(rules)),
        ("capture", _capture_words(rules)),
        *[(label, words) for label, words in optional if words is not None],
        ("scopa", _scopa_words(rules)),
        *[
            ("scoring" if i == 0 else "", _component_words(c))
            for i, c in enumerate(rules.scoring.components)
        ],
        ("match", _match_words(rules)),
        ("clock", clock),
        ("stakes", _stakes_words(rules)),
    ]
    lines = []
    for label, text in fields:
        lines += textwrap.wrap(
            text, WIDTH, initial_indent=f"{label:<10}", subsequent_indent=" " * 10
        )
    return "\n".join(lines)
