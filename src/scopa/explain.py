"""Moves and scores explained in words, each point citing the rule on the documentation's pages.

[`explain_move`][scopa.explain.explain_move] says why a move is legal or refused, what it
captures and why, whether it makes a scopa and what the last play of a hand leaves;
[`explain_score`][scopa.explain.explain_score] says what each scoring category of a hand
came to. Both return an [`Explanation`][scopa.explain.Explanation]: a summary line and
[`Reason`][scopa.explain.Reason]s, each with the page and section of the documentation
that states its rule (`rules.md#what-a-card-can-capture`, relative to the site's root), so
that a program can show the words and link the rules. `str()` of an explanation is the
whole of it as text.

They write in English or Italian (`lang="it"`), and use only what every player may know:
the table, the captures, the card played, and nothing else of the hand it comes from.

Examples:
    >>> from scopa import GameState, find_variant
    >>> state = GameState.new(find_variant("classic"), seed=89)
    >>> state = state.apply(state.legal_moves()[0])  # player 1 lays down the Ace of denari
    >>> why = explain_move(state, "5Bx1D+4C")
    >>> why.legal, why.summary
    (False, 'Player 0 cannot play 5Bx1D+4C.')
    >>> for reason in why.reasons:
    ...     print(reason.page)
    ...     print(reason.text)
    rules.md#what-a-card-can-capture
    5B must take 5D: a card of equal rank on the table is taken first, before any sum.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from scopa import (
    AceOnAce,
    AssoDueTre,
    CapturePriority,
    Captures,
    Card,
    CardPoints,
    Carte,
    CategoryScore,
    Declaration,
    Declarations,
    Denari,
    GameState,
    Grande,
    IllegalMoveError,
    Leftovers,
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
    Suit,
)
from scopa._i18n import and_list, translation
from scopa._scene import player_words, side_words
from scopa.cards import show_cards

__all__ = ["Explanation", "Reason", "explain_move", "explain_score"]

_Tr = gettext.NullTranslations


@attrs.frozen
class Reason:
    """One point of an explanation, and the rule it rests on.

    Examples:
        >>> reason = Reason("7D takes 7C.", "rules.md#what-a-card-can-capture", "rules: ...")
        >>> str(reason)
        '7D takes 7C. (rules: ...)'
    """

    text: str
    """The point, as a sentence in the explanation's language."""
    page: str
    """The documentation's page and section that state the rule, relative to the site's
    root: `rules.md#scopa`. On the built site the page is `rules/#scopa`."""
    title: str
    """Where the rule is, in words: the page and the section's title (`rules: Scopa`)."""

    def __str__(self) -> str:
        return f"{self.text} ({self.title})"


@attrs.frozen
class Explanation:
    """An explanation: a summary line and the reasons behind it.

    `str()` writes the summary, then each reason on a line of its own after `- `.
    """

    summary: str
    """One line: `Player 0 may play 7Dx7C.`, `Player 0 cannot play 7D.`, or the hand's
    points."""
    reasons: tuple[Reason, ...]
    """The points that explain it, in order."""
    legal: bool | None = None
    """For a move, whether it is legal; `None` for a score."""

    def __str__(self) -> str:
        return "\n".join([self.summary, *(f"- {reason}" for reason in self.reasons)])


# --------------------------------------------------------------------------- the pages cited


def _cite(tr: _Tr, topic: str) -> tuple[str, str]:
    """The page and the title of a rule's section in the documentation."""
    rules = tr.pgettext("docs page", "rules")
    bonuses = tr.pgettext("docs page", "bonus scoring")
    sections = {
        "turns": ("rules.md#players-and-turns", rules, tr.gettext("Players and turns")),
        "playing": ("rules.md#playing-a-card", rules, tr.gettext("Playing a card")),
        "capture": (
            "rules.md#what-a-card-can-capture",
            rules,
            tr.gettext("What a card can capture"),
        ),
        "fifteen": ("rules.md#captures-to-fifteen", rules, tr.gettext("Captures to fifteen")),
        "compulsory": ("rules.md#compulsory-capture", rules, tr.gettext("Compulsory capture")),
        "scopa": ("rules.md#scopa", rules, tr.pgettext("docs section", "Scopa")),
        "aces": ("rules.md#ace-sweeps", rules, tr.gettext("Ace sweeps")),
        "declarations": (
            "rules.md#declarations-and-the-matta",
            rules,
            tr.gettext("Declarations and the matta"),
        ),
        "end": ("rules.md#end-of-the-hand", rules, tr.gettext("End of the hand")),
        "scoring": ("rules.md#scoring", rules, tr.pgettext("docs section", "Scoring")),
        "primiera": ("rules.md#primiera", rules, tr.pgettext("docs section", "Primiera")),
        "claims": ("rules.md#other-endings", rules, tr.gettext("Other endings")),
        "primiera rules": (
            "variants/bonuses.md#other-primiera-rules",
            bonuses,
            tr.gettext("Other primiera rules"),
        ),
        "thresholds": (
            "variants/bonuses.md#thresholds-for-cards-and-denari",
            bonuses,
            tr.gettext("Thresholds for cards and denari"),
        ),
        "re bello": ("variants/bonuses.md#re-bello", bonuses, tr.gettext("Re bello")),
        "napola": (
            "variants/bonuses.md#napola-and-napoleone",
            bonuses,
            tr.gettext("Napola and napoleone"),
        ),
        "grande": (
            "variants/cirulla.md#piccola-and-grande",
            "cirulla",
            tr.gettext("Piccola and grande"),
        ),
        "asso due tre": (
            "variants/scopone-de-trente.md#scoring-and-the-match",
            "scopone-de-trente",
            tr.gettext("Scoring and the match"),
        ),
        "ponino": (
            "variants/il-ponino.md#scoring",
            "il-ponino",
            tr.pgettext("docs section", "Scoring"),
        ),
        "card points": (
            "variants/scopa-frac.md#scoring-and-the-match",
            "scopa-frac",
            tr.gettext("Scoring and the match"),
        ),
        "own category": (
            "quickstart.md#a-custom-scoring-component",
            tr.pgettext("docs page", "quickstart"),
            tr.gettext("A custom scoring component"),
        ),
    }
    page, label, section = sections[topic]
    return page, f"{label}: {section}"


def _reason(tr: _Tr, topic: str, text: str) -> Reason:
    page, title = _cite(tr, topic)
    return Reason(text, page, title)


_TOPICS: Final = (
    "turns",
    "playing",
    "capture",
    "fifteen",
    "compulsory",
    "scopa",
    "aces",
    "declarations",
    "end",
    "scoring",
    "primiera",
    "claims",
    "primiera rules",
    "thresholds",
    "re bello",
    "napola",
    "grande",
    "asso due tre",
    "ponino",
    "card points",
    "own category",
)
"""The topics an explanation may cite (internal: the tests check every page and section)."""


# --------------------------------------------------------------------------- words


def _cards(cards: Iterable[Card]) -> str:
    return show_cards(cards)


def _joined(cards: Iterable[Card]) -> str:
    """Cards taken together, as a move writes them: `1D+4C`."""
    return "+".join(str(card) for card in sorted(cards))


def _sum_words(cards: Iterable[Card]) -> str:
    """The values of some cards, added: `1 + 4 + 2`."""
    return " + ".join(str(card.value) for card in sorted(cards))


def _player(tr: _Tr, player: int) -> str:
    return player_words(tr, player)


# --------------------------------------------------------------------------- moves


@attrs.frozen
class _Turn:
    """What an explanation of a move knows of the position: public facts and the mover's hand."""

    rules: Rules
    player: int
    hand: frozenset[Card]
    table: frozenset[Card]
    in_hands: int
    stock: int
    last_capturer: int | None
    dealer: int
    legal: tuple[Move, ...]

    @property
    def last_play(self) -> bool:
        """Whether the card to be played is the last of the hand."""
        return self.in_hands == 1 and self.stock == 0

    @property
    def first_play(self) -> bool:
        """Whether no card of the hand has been played yet."""
        rules = self.rules
        full = rules.players * rules.hand_size
        return self.in_hands == full and self.in_hands + self.stock == rules.plays_per_hand


def _read_move(move: object) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"a move must be a Move or its text, not {type(move).__name__}")


def explain_move(
    state: GameState | PlayerView, move: Move | str, *, lang: str = "en"
) -> Explanation:
    """Why a move is legal or refused, what it captures and why, and what follows from it.

    For a legal move, the reasons say what the card takes and by which rule (a card of
    equal rank, cards that add up to its value, cards that make fifteen with it, an Ace's
    sweep), which rule chose among the captures (equal rank first, the fewest cards),
    that a card that can capture must, whether the move is a scopa (and why not, on the
    last play of the hand or by an Ace's sweep where that is no scopa), where the cards
    left on the table go after the last play, and what a declaration or a claim means.
    For a refused move, they give the reason [`apply`][scopa.GameState.apply] refuses it
    with, in words for a player.

    Args:
        state: the position, or the view of the player to move.
        move: a [`Move`][scopa.Move], or its text in full, as
            [`Move.parse`][scopa.Move.parse] reads it (`7D` lays the 7 of denari down).
        lang: the language of the words: `"en"` or `"it"`.

    Raises:
        IllegalMoveError: the hand is over: it has no move to explain.
        NotationError: the text is not a move.
        InvalidArgumentError: the library does not write in `lang`.
        TypeError: `state` is not a `GameState` or a `PlayerView`, or `move` is not a
            `Move` or text.
    """
    if not isinstance(state, GameState | PlayerView):
        raise TypeError(f"a move is explained in a GameState, not {type(state).__name__}")
    tr = translation(lang)
    played = _read_move(move)
    player = state.current_player
    if player is None:
        raise IllegalMoveError(f"cannot explain '{played}': the hand is over")
    legal = any(option.key == played.key for option in state.legal_moves())
    if legal:
        summary = tr.gettext("{player} may play {move}.")
    else:
        summary = tr.gettext("{player} cannot play {move}.")
    asking = state.player if isinstance(state, PlayerView) else player
    summary = _sentence(summary, player=_player(tr, asking), move=played)
    if asking != player:
        text = tr.gettext("It is {player}'s turn, not {viewer}'s.").format(
            player=_player(tr, player), viewer=_player(tr, asking)
        )
        return Explanation(summary, (_reason(tr, "turns", text),), legal=False)
    turn = _turn(state, player)
    reasons = _legal_reasons(tr, turn, played) if legal else _refusal(tr, turn, played)
    return Explanation(summary, tuple(reasons), legal=legal)


def _turn(state: GameState | PlayerView, player: int) -> _Turn:
    if isinstance(state, GameState):
        hand = state.hands[player]
        in_hands = sum(len(cards) for cards in state.hands)
        stock = len(state.stock)
    else:
        hand = state.hand
        in_hands = sum(state.hand_sizes)
        stock = state.stock_size
    return _Turn(
        state.rules,
        player,
        hand,
        state.table,
        in_hands,
        stock,
        state.last_capturer,
        state.dealer,
        state.legal_moves(),
    )


# What a capture is, by the rule that allows it.
_RANK: Final = "rank"
_SUM: Final = "sum"
_FIFTEEN: Final = "fifteen"


def _subsets(cards: Sequence[Card], total: int, least: int) -> list[frozenset[Card]]:
    """The sets of at least `least` of `cards` whose values add up to `total`."""
    found: list[frozenset[Card]] = []
    ordered = sorted(cards)

    def extend(start: int, chosen: list[Card], left: int) -> None:
        if left == 0:
            if len(chosen) >= least:
                found.append(frozenset(chosen))
            return
        for i in range(start, len(ordered)):
            card = ordered[i]
            if card.value <= left:
                chosen.append(card)
                extend(i + 1, chosen, left - card.value)
                chosen.pop()

    extend(0, [], total)
    return found


def _captures(rules: Rules, card: Card, table: frozenset[Card]) -> dict[frozenset[Card], str]:
    """Every capture the card could make by rank, by sum or to fifteen, before any priority."""
    found: dict[frozenset[Card], str] = {}
    if rules.capture_by_rank:
        for other in table:
            if other.rank == card.rank:
                found[frozenset([other])] = _RANK
    if rules.capture_by_sum:
        for taken in _subsets(list(table), card.value, 2):
            found[taken] = _SUM
    if rules.capture_to_fifteen:
        for taken in _subsets(list(table), 15 - card.value, 1):
            found.setdefault(taken, _FIFTEEN)
    return found


def _sweeps(rules: Rules, card: Card, table: frozenset[Card]) -> bool:
    """Whether the card is an Ace that captures by sweeping under these rules."""
    if not rules.ace_captures_all or card.rank != Rank.ASSO:
        return False
    aces_on_table = any(other.rank == Rank.ASSO for other in table)
    return not (rules.ace_with_ace_on_table is AceOnAce.CAPTURE_NORMALLY and aces_on_table)


def _plain(move: Move) -> Move:
    """The move without its declaration and claim."""
    return move.announced(None, claim=False)


def _announces(move: Move) -> bool:
    """Whether a move comes with a declaration or a claim."""
    return move.declaration is not None or move.claim


def _refusal(tr: _Tr, turn: _Turn, move: Move) -> list[Reason]:
    """Why a move is refused, in the order the library checks it."""
    rules, card = turn.rules, move.card
    player = _player(tr, turn.player)
    if card not in turn.hand:
        text = tr.gettext("{player} does not hold {card}: a player plays a card of their hand.")
        return [_reason(tr, "playing", _sentence(text, player=player, card=card))]
    missing = move.captured - turn.table
    if missing:
        text = tr.ngettext(
            "{cards} is not on the table: a card takes only cards that are on the table.",
            "{cards} are not on the table: a card takes only cards that are on the table.",
            len(missing),
        )
        return [_reason(tr, "capture", text.format(cards=and_list(tr, _words(missing))))]
    aces_aside = any(c.rank != Rank.ASSO for c in turn.hand) and turn.first_play
    if rules.ace_first_lead_forbidden and card.rank == Rank.ASSO and aces_aside:
        text = tr.gettext(
            "The first play of a hand may not be an Ace, unless the player holds only Aces."
        )
        return [_reason(tr, "aces", text)]
    legal_keys = {option.key for option in turn.legal}
    if _plain(move).key in legal_keys:
        return _announcement_refusal(tr, turn, move)
    return _capture_refusal(tr, turn, move)


def _words(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in sorted(cards)]


def _announcement_refusal(tr: _Tr, turn: _Turn, move: Move) -> list[Reason]:
    """Why a declaration or a claim that goes with a legal play is refused."""
    rules = turn.rules
    reasons = []
    declaration = move.declaration
    if declaration is not None:
        if not rules.declarations:
            text = tr.gettext("These rules have no declarations.")
        elif len(turn.hand) != rules.hand_size:
            text = tr.gettext(
                "A hand is declared only with the first play of a deal, from a full hand."
            )
        elif declaration is Declaration.BUSSO:  # the hand stays hidden: no card is named
            text = tr.gettext("The hand is no busso: its three cards add up to 10 or more.")
        else:
            text = tr.gettext("The hand is no tris: its three cards are not of one rank.")
        reasons.append(_reason(tr, "declarations", text))
    if move.claim and not rules.claim_out:
        reasons.append(_reason(tr, "claims", tr.gettext("These rules have no claims.")))
    return reasons


def _capture_refusal(tr: _Tr, turn: _Turn, move: Move) -> list[Reason]:
    """Why the card cannot make this capture, or cannot be laid down, or cannot be played."""
    rules, card, taken, table = turn.rules, move.card, move.captured, turn.table
    allowed = [option for option in turn.legal if option.card == card and not _announces(option)]
    if taken and _sweeps(rules, card, table):
        aces = [c for c in table if c.rank == Rank.ASSO]
        if aces and rules.ace_with_ace_on_table is AceOnAce.TAKE_ACE_ONLY:
            text = tr.gettext("With an Ace on the table, a played Ace takes only that Ace.")
        else:
            text = tr.gettext("An Ace takes every card on the table: {cards}.").format(
                cards=_cards(table)
            )
        return [_reason(tr, "aces", text)]
    if taken:
        possible = _captures(rules, card, table)
        kind = possible.get(frozenset(taken))
        if kind is None:
            return [_impossible(tr, rules, card, frozenset(taken))]
        return [_not_chosen(tr, rules, card, frozenset(taken), kind, possible)]
    # Laid down: the card must capture, or the player must play a card that captures.
    options = ", ".join(str(option) for option in allowed if option.captured)
    if options and rules.played_card_must_capture:
        text = tr.gettext(
            "{card} can capture ({moves}), so it must: a card that can capture must capture; "
            "any card of the hand may still be played."
        )
    elif options:
        text = tr.gettext(
            "{card} must capture ({moves}): a player who can capture must play a card that "
            "captures."
        )
    else:
        text = tr.gettext(
            "{card} takes nothing, and a player who holds a card that can capture must play "
            "such a card."
        )
    return [_reason(tr, "compulsory", text.format(card=card, moves=options))]


def _impossible(tr: _Tr, rules: Rules, card: Card, taken: frozenset[Card]) -> Reason:
    """Why the card can take these cards by no rule at all."""
    total = sum(c.value for c in taken)
    if all(c.rank == card.rank for c in taken) and rules.capture_by_rank and len(taken) > 1:
        text = tr.gettext(
            "{card} takes one card of equal rank at a time, never {count}: {cards}."
        ).format(card=card, count=len(taken), cards=_cards(taken))
        return _reason(tr, "capture", text)
    ways = []
    if rules.capture_by_rank:
        ways.append(tr.gettext("a card of value {value}").format(value=card.value))
    if rules.capture_by_sum:
        ways.append(tr.gettext("two or more cards adding up to {value}").format(value=card.value))
    if rules.capture_to_fifteen:
        ways.append(
            tr.gettext("cards adding up to {need}, which make 15 with it").format(
                need=15 - card.value
            )
        )
    if ways:
        text = tr.ngettext(
            "{card} cannot take {cards}, worth {total}: it takes {ways}.",
            "{card} cannot take {cards}, which add up to {total}: it takes {ways}.",
            len(taken),
        ).format(
            card=card,
            cards=_cards(taken),
            total=total,
            ways=tr.gettext(" or ").join(ways),
        )
    else:
        text = tr.gettext("Under these rules {card} captures nothing.").format(card=card)
    topic = "capture" if rules.capture_by_rank or rules.capture_by_sum else "fifteen"
    return _reason(tr, topic, text)


def _not_chosen(
    tr: _Tr,
    rules: Rules,
    card: Card,
    taken: frozenset[Card],
    kind: str,
    possible: dict[frozenset[Card], str],
) -> Reason:
    """Why a capture the card could make is not allowed: the priority of captures."""
    equal = [c for c in possible if possible[c] == _RANK]
    if rules.capture_priority is CapturePriority.EQUAL_RANK_FIRST and equal:
        cards = and_list(tr, [str(next(iter(c))) for c in sorted(equal, key=_first)])
        if len(equal) == 1:
            text = tr.gettext(
                "{card} must take {cards}: a card of equal rank on the table is taken first, "
                "before any sum."
            )
        else:
            text = tr.gettext(
                "{card} must take one of {cards}: a card of equal rank on the table is taken "
                "first, before any sum."
            )
        return _reason(tr, "capture", text.format(card=card, cards=cards))
    fewest = min(len(c) for c in possible if possible[c] != _FIFTEEN)
    if equal:
        text = tr.gettext(
            "{card} must take the fewest cards it can: one card of equal rank, which beats any sum."
        ).format(card=card)
    else:
        text = tr.ngettext(
            "{card} must take the fewest cards it can: {count} card, not {taken}.",
            "{card} must take the fewest cards it can: {count} cards, not {taken}.",
            fewest,
        ).format(card=card, count=fewest, taken=len(taken))
    return _reason(tr, "capture", text)


def _first(cards: frozenset[Card]) -> Card:
    return min(cards)


def _legal_reasons(tr: _Tr, turn: _Turn, move: Move) -> list[Reason]:
    """What a legal move takes and why, and what follows from it."""
    rules, card, taken, table = turn.rules, move.card, move.captured, turn.table
    reasons = []
    sweeping = _sweeps(rules, card, table)
    if taken and sweeping:
        reasons += _sweep_reasons(tr, rules, card, frozenset(taken), table)
    elif taken:
        reasons += _capture_reasons(tr, turn, move)
    else:
        reasons += _laid_reasons(tr, turn, card, sweeping)
    if taken and (rules.played_card_must_capture or rules.must_play_capturing_card_if_any):
        words = []
        if rules.played_card_must_capture:
            words.append(
                tr.gettext(
                    "{card} could not be laid down instead: a card that can capture must capture."
                ).format(card=card)
            )
        if rules.must_play_capturing_card_if_any:
            words.append(tr.gettext("A player who can capture must play a card that captures."))
        reasons.append(_reason(tr, "compulsory", " ".join(words)))
    if taken and taken == table:
        reasons.append(_scopa_reason(tr, turn, card, frozenset(taken), sweeping))
    if turn.last_play:
        reasons.append(_last_play_reason(tr, turn, move))
    if move.declaration is not None:
        reasons.append(_declaration_reason(tr, turn, move.declaration))
    if move.claim:
        text = tr.gettext(
            "With it, {player} claims that their side has reached the target: a right claim "
            "wins the match at once, a wrong one loses it."
        ).format(player=_player(tr, turn.player))
        reasons.append(_reason(tr, "claims", text))
    return reasons


def _sweep_reasons(
    tr: _Tr, rules: Rules, card: Card, taken: frozenset[Card], table: frozenset[Card]
) -> list[Reason]:
    if taken != table:  # an Ace on the table, which the Ace takes alone
        text = tr.gettext(
            "{card} takes {ace} alone: with an Ace on the table, a played Ace takes only that Ace."
        ).format(card=card, ace=_cards(taken))
    else:
        text = tr.gettext("{card} takes every card on the table, {cards}: an Ace sweeps.").format(
            card=card, cards=_cards(taken)
        )
    return [_reason(tr, "aces", text)]


def _capture_reasons(tr: _Tr, turn: _Turn, move: Move) -> list[Reason]:
    """What a capture by rank, by sum or to fifteen takes, and which rule chose it."""
    rules, card, taken = turn.rules, move.card, frozenset(move.captured)
    possible = _captures(rules, card, turn.table)
    kind = possible[taken]
    cards = _cards(taken)
    reasons = []
    if kind == _RANK:
        text = tr.gettext("{card} takes {cards}, a card of equal rank.")
        reasons.append(_reason(tr, "capture", text.format(card=card, cards=cards)))
    elif kind == _SUM:
        text = tr.gettext("{card} takes {cards}, which add up to {value} ({sum}).").format(
            card=card, cards=cards, value=card.value, sum=_sum_words(taken)
        )
        reasons.append(_reason(tr, "capture", text))
    else:
        text = tr.gettext("{card} takes {cards}: with {card} they make 15 ({sum}).").format(
            card=card, cards=cards, sum=_sum_words([card, *taken])
        )
        reasons.append(_reason(tr, "fifteen", text))
    sums = [c for c in possible if possible[c] == _SUM]
    priority = rules.capture_priority
    if kind == _RANK and sums and priority is CapturePriority.EQUAL_RANK_FIRST:
        text = tr.gettext(
            "A card of equal rank on the table is taken first: no sum may be taken ({sums})."
        ).format(sums=", ".join(_joined(c) for c in sorted(sums, key=_first)))
        reasons.append(_reason(tr, "capture", text))
    if kind != _FIFTEEN and priority is CapturePriority.MIN_CARDS:
        larger = [c for c in possible if possible[c] != _FIFTEEN and len(c) > len(taken)]
        if larger:
            text = tr.ngettext(
                "It takes the fewest cards it can, {count}: no capture of more cards is allowed.",
                "It takes the fewest cards it can, {count}: no capture of more cards is allowed.",
                len(taken),
            ).format(count=len(taken))
            reasons.append(_reason(tr, "capture", text))
    choices = [
        option
        for option in turn.legal
        if option.card == card and option.captured and not _announces(option)
    ]
    if len(choices) > 1:
        text = tr.gettext("{card} can capture in {count} ways, and its player chooses: {moves}.")
        text = text.format(card=card, count=len(choices), moves=", ".join(map(str, choices)))
        reasons.append(_reason(tr, "fifteen" if kind == _FIFTEEN else "capture", text))
    return reasons


def _laid_reasons(tr: _Tr, turn: _Turn, card: Card, sweeping: bool) -> list[Reason]:
    """Why a card laid down takes nothing, or may take nothing, and where it goes."""
    rules, table = turn.rules, turn.table
    if not table:
        if rules.ace_on_empty_table_captures_itself and card.rank == Rank.ASSO:
            text = tr.gettext(
                "{card} goes to {player}'s pile: an Ace played on an empty table takes itself, "
                "which is no scopa."
            ).format(card=card, player=_player(tr, turn.player))
            return [_reason(tr, "aces", text)]
        text = tr.gettext("{card} is laid on the empty table: there is nothing to take.")
        return [_reason(tr, "playing", text.format(card=card))]
    possible = {} if sweeping else _captures(rules, card, table)
    if sweeping or possible:
        text = tr.gettext(
            "{card} could capture, but these rules let a card that can capture be laid down."
        ).format(card=card)
        return [_reason(tr, "compulsory", text)]
    missing = []
    if rules.capture_by_rank:
        missing.append(tr.gettext("no card of value {value}").format(value=card.value))
    if rules.capture_by_sum:
        missing.append(tr.gettext("no cards adding up to {value}").format(value=card.value))
    if rules.capture_to_fifteen:
        missing.append(tr.gettext("no cards making 15 with it"))
    text = tr.gettext("{card} takes nothing and stays on the table: {missing}.").format(
        card=card, missing=", ".join(missing)
    )
    return [_reason(tr, "fifteen" if not rules.capture_by_rank else "capture", text)]


def _scope_value(rules: Rules) -> int:
    return sum(c.value for c in rules.scoring.components if isinstance(c, Scope))


def _scopa_reason(
    tr: _Tr, turn: _Turn, card: Card, taken: frozenset[Card], sweeping: bool
) -> Reason:
    rules = turn.rules
    ace_alone = rules.ace_with_ace_on_table is not AceOnAce.TAKE_ALL and any(
        c.rank == Rank.ASSO for c in taken
    )
    if sweeping and not rules.ace_sweep_is_scopa and not ace_alone:
        text = tr.gettext("It empties the table, but in these rules an Ace's sweep is no scopa.")
        return _reason(tr, "aces", text)
    if turn.last_play and not rules.scopa_on_last_play:
        text = tr.gettext("It empties the table with the last play of the hand, which is no scopa.")
        return _reason(tr, "scopa", text)
    value = _scope_value(rules)
    if value:
        text = tr.ngettext(
            "It takes every card on the table: a scopa, worth {count} point.",
            "It takes every card on the table: a scopa, worth {count} points.",
            value,
        ).format(count=value)
    else:
        text = tr.gettext(
            "It takes every card on the table: a scopa, which these rules do not score."
        )
    return _reason(tr, "scopa", text)


def _last_play_reason(tr: _Tr, turn: _Turn, move: Move) -> Reason:
    rules = turn.rules
    left = set(turn.table - move.captured)
    laid = not move.captured
    ace = move.card.rank == Rank.ASSO
    to_pile = laid and ace and not turn.table and rules.ace_on_empty_table_captures_itself
    if laid and not to_pile:
        left.add(move.card)
    capturer = turn.player if move.captured or to_pile else turn.last_capturer
    if not left:
        text = tr.gettext("It is the last play of the hand, and it leaves no card on the table.")
    elif rules.leftovers is Leftovers.NOBODY:
        text = tr.gettext(
            "It is the last play of the hand: the cards left on the table, {cards}, stay there "
            "and count for nobody."
        ).format(cards=_cards(left))
    elif rules.leftovers is Leftovers.DEALER:
        text = tr.gettext(
            "It is the last play of the hand: the cards left on the table, {cards}, go to "
            "{player}, the dealer, and that is no scopa."
        ).format(cards=_cards(left), player=_player(tr, turn.dealer))
    elif capturer is None:
        text = tr.gettext(
            "It is the last play of the hand: the cards left on the table, {cards}, stay there, "
            "since nobody has captured."
        ).format(cards=_cards(left))
    else:
        text = tr.gettext(
            "It is the last play of the hand: the cards left on the table, {cards}, go to "
            "{player}, the last to capture, and that is no scopa."
        ).format(cards=_cards(left), player=_player(tr, capturer))
    return _reason(tr, "end", text)


def _declaration_reason(tr: _Tr, turn: _Turn, declaration: Declaration) -> Reason:
    rules = turn.rules
    hand = _cards(turn.hand)
    matta = rules.matta if rules.matta in turn.hand else None
    if declaration is Declaration.BUSSO:
        plain = [c for c in turn.hand if c != matta]
        total = sum(c.value for c in plain) + len(turn.hand) - len(plain)
        if matta is None:
            why = tr.gettext("{cards} add up to {total}, less than 10").format(
                cards=hand, total=total
            )
        else:
            why = tr.gettext(
                "{cards} add up to {total}, less than 10, with the matta {matta} counting 1"
            ).format(cards=hand, total=total, matta=matta)
    elif matta is None:
        why = tr.gettext("{cards} are three cards of one rank").format(cards=hand)
    else:
        why = tr.gettext(
            "{cards} are three cards of one rank, with the matta {matta} standing for one"
        ).format(cards=hand, matta=matta)
    points = declaration.points
    text = tr.ngettext(
        "With it, {player} declares {declaration}: {why}; {count} point at the end of the "
        "hand, and the hand is shown to everyone.",
        "With it, {player} declares {declaration}: {why}; {count} points at the end of the "
        "hand, and the hand is shown to everyone.",
        points,
    ).format(player=_player(tr, turn.player), declaration=declaration.value, why=why, count=points)
    return _reason(tr, "declarations", text)


# --------------------------------------------------------------------------- scores


def explain_score(state: GameState | PlayerView, *, lang: str = "en") -> Explanation:
    """What each scoring category of a hand came to, and each side's points in it.

    One reason per category, in the order of [`hand_score`][scopa.GameState.hand_score]'s
    categories: the figures each side was judged on (cards, denari, the primiera's best
    card of each suit and their values...), who scores and why, or why nobody does, and
    each side's points. The summary gives each side's total. Before the end of the hand it
    explains the score of the cards captured so far, as `hand_score` does.

    Args:
        state: the position, or any player's view of it (the captures are public).
        lang: the language of the words: `"en"` or `"it"`.

    Raises:
        InvalidArgumentError: the library does not write in `lang`.
        TypeError: `state` is not a `GameState` or a `PlayerView`.
    """
    if not isinstance(state, GameState | PlayerView):
        raise TypeError(f"a score is explained for a GameState, not {type(state).__name__}")
    tr = translation(lang)
    rules = state.rules
    captures = _side_captures(state)
    score = state.hand_score()
    sides = [side_words(tr, rules, side) for side in range(rules.number_of_sides)]
    reasons = [
        _category_reason(tr, component, category, captures, sides)
        for component, category in zip(rules.scoring.components, score, strict=True)
    ]
    totals = ", ".join(
        f"{name} {_points(tr, points)}" for name, points in zip(sides, score.points, strict=True)
    )
    if state.current_player is None:
        summary = tr.gettext("Score of the hand: {totals}.")
    else:
        summary = tr.gettext("Score of the hand so far: {totals}.")
    return Explanation(summary.format(totals=totals), tuple(reasons))


def _side_captures(state: GameState | PlayerView) -> Captures:
    """Each side's captures, scope and declared points, as the scoring components see them."""
    rules = state.rules
    n = rules.number_of_sides
    piles: list[set[Card]] = [set() for _ in range(n)]
    scope = [0] * n
    declared = [0] * n
    for player in range(rules.players):
        side = rules.side_of(player)
        piles[side] |= state.piles[player]
        scope[side] += state.scope[player]
        declared[side] += state.declared[player]
    return Captures(tuple(frozenset(p) for p in piles), tuple(scope), tuple(declared), rules.suits)


def _points(tr: _Tr, count: int) -> str:
    return tr.ngettext("{count} point", "{count} points", count).format(count=count)


def _listed(sides: Sequence[str], values: Sequence[object]) -> str:
    """Each side with a value: `player 0 22, player 1 18`."""
    return ", ".join(f"{side} {value}" for side, value in zip(sides, values, strict=True))


def _winners(points: Sequence[int]) -> list[int]:
    return [side for side, p in enumerate(points) if p]


def _category_reason(
    tr: _Tr,
    component: ScoringComponent,
    category: CategoryScore,
    captures: Captures,
    sides: list[str],
) -> Reason:
    topic, facts = _category_facts(tr, component, category, captures, sides)
    points = tr.gettext("Points: {points}.").format(points=_listed(sides, category.points))
    return _reason(tr, topic, f"{category.name}: {facts} {points}")


def _category_facts(
    tr: _Tr,
    component: ScoringComponent,
    category: CategoryScore,
    captures: Captures,
    sides: list[str],
) -> tuple[str, str]:
    """The cited topic and the words of a category, without its points."""
    if isinstance(component, Scope):
        text = tr.ngettext(
            "{figures}; each scopa scores {count} point.",
            "{figures}; each scopa scores {count} points.",
            component.value,
        ).format(figures=_listed(sides, category.figures), count=component.value)
        return "scoring", text
    if isinstance(component, Carte | Denari):
        return _most_facts(tr, component, category, sides)
    if isinstance(component, Settebello | ReBello):
        return _holder_facts(tr, component, category, sides)
    if isinstance(component, Primiera):
        return _primiera_facts(tr, component, category, captures, sides)
    if isinstance(component, Napola):
        text = tr.gettext(
            "runs of denari from the Ace: {figures}; a run scores its length from three on."
        )
        text = text.format(figures=_listed(sides, category.figures))
        if component.most != 10:
            text += " " + tr.gettext("At most {count}.").format(count=component.most)
        if category.wins_match is not None:
            text += " " + _sentence(
                tr.gettext("{side} took all ten denari and wins the match."),
                side=sides[category.wins_match],
            )
        return "napola", text
    if isinstance(component, Grande):
        text = tr.gettext(
            "the Fante, Cavallo and Re of denari together score 5, with the 7 of denari 6, "
            "and with the 6 too 7."
        )
        if not component.extends:
            text = tr.gettext("the Fante, Cavallo and Re of denari together score 5.")
        return "grande", text
    if isinstance(component, AssoDueTre):
        text = tr.gettext("the Ace, 2 and 3 of denari score 1, 2 and 3 points to their taker.")
        if category.wins_match is not None:
            text += " " + _sentence(
                tr.gettext("{side} took all three and wins the match."),
                side=sides[category.wins_match],
            )
        return "asso due tre", text
    if isinstance(component, Ponino):
        holders = [sides[s] for s, held in enumerate(category.figures) if held]
        if holders:
            text = tr.gettext("{sides} took all four Cavalli: their scope score once more.")
            text = text.format(sides=and_list(tr, holders))
        else:
            text = tr.gettext("nobody took all four Cavalli.")
        return "ponino", text
    if isinstance(component, CardPoints):
        ranks = and_list(tr, [_rank_label(tr, rank) for rank in component.ranks])
        text = tr.ngettext(
            "cards of rank {ranks} taken: {figures}; each scores {count} point.",
            "cards of rank {ranks} taken: {figures}; each scores {count} points.",
            component.value,
        ).format(ranks=ranks, figures=_listed(sides, category.figures), count=component.value)
        return "card points", text
    if isinstance(component, Declarations):
        text = tr.gettext("points declared with busso and tris: {figures}.").format(
            figures=_listed(sides, category.figures)
        )
        return "declarations", text
    return "own category", tr.gettext("a category of its own.")


def _rank_label(tr: _Tr, rank: int) -> str:
    if rank == Rank.ASSO:
        return tr.pgettext("rank", "Ace")
    if rank == Rank.FANTE:
        return tr.pgettext("rank", "Fante")
    if rank == Rank.CAVALLO:
        return tr.pgettext("rank", "Cavallo")
    if rank == Rank.RE:
        return tr.pgettext("rank", "Re")
    return str(rank.__int__())


def _most_facts(
    tr: _Tr, component: Carte | Denari, category: CategoryScore, sides: list[str]
) -> tuple[str, str]:
    """A category for the most cards or denari: who has the most, or why nobody scores."""
    figures = _listed(sides, category.figures)
    if isinstance(component, Carte):
        text = tr.gettext("cards taken: {figures}.").format(figures=figures)
    else:
        text = tr.gettext("denari taken: {figures}.").format(figures=figures)
    winners = _winners(category.points)
    threshold = component.threshold
    top = max(category.figures)
    if winners:
        verdict = _sentence(tr.gettext("{side} has the most."), side=sides[winners[0]])
    elif threshold is not None and top < threshold:
        verdict = tr.gettext("Nobody reaches {count}, the least that scores.").format(
            count=threshold
        )
    else:
        verdict = tr.gettext("A tie for the most scores nothing.")
    topic = "scoring" if threshold is None else "thresholds"
    return topic, f"{text} {verdict}"


def _holder_facts(
    tr: _Tr, component: Settebello | ReBello, category: CategoryScore, sides: list[str]
) -> tuple[str, str]:
    holders = _winners(category.figures)
    if isinstance(component, Settebello):
        if holders:
            text = tr.gettext("{side} took the settebello (7D).")
        else:
            text = tr.gettext("nobody took the settebello (7D).")
        topic = "scoring"
    else:
        if holders:
            text = tr.gettext("{side} took the re bello (10D).")
        else:
            text = tr.gettext("nobody took the re bello (10D).")
        topic = "re bello"
    return topic, text.format(side=sides[holders[0]] if holders else "")


_SEVENS_RULES: Final = (
    PrimieraRule.MOST_SEVENS,
    PrimieraRule.MOST_SEVENS_CASCADE,
    PrimieraRule.SETTANTA_3_SEVENS,
)


def _primiera_facts(
    tr: _Tr,
    primiera: Primiera,
    category: CategoryScore,
    captures: Captures,
    sides: list[str],
) -> tuple[str, str]:
    """The primiera: each side's figures, who wins it and why, and the bonus for all sevens."""
    compared = attrs.evolve(primiera, all_sevens=0).score(captures).points
    winners = _winners(compared)
    if primiera.rule in _SEVENS_RULES:
        text = _sevens_facts(tr, primiera, captures, sides, winners)
    else:
        text = _best_cards_facts(tr, primiera, captures, sides, winners)
    if primiera.all_sevens:
        sevens = [sum(1 for c in pile if c.rank == Rank.SETTE) for pile in captures.piles]
        for side, count in enumerate(sevens):
            if count == 4:
                text += " " + _sentence(
                    tr.ngettext(
                        "{side} took all four sevens: {count} point more.",
                        "{side} took all four sevens: {count} points more.",
                        primiera.all_sevens,
                    ),
                    side=sides[side],
                    count=primiera.all_sevens,
                )
    topic = "primiera" if primiera.rule is PrimieraRule.SUM else "primiera rules"
    return topic, text


def _best_cards_facts(
    tr: _Tr, primiera: Primiera, captures: Captures, sides: list[str], winners: list[int]
) -> str:
    """The best card of each suit of every side, their values, and the comparison."""
    values = primiera.table.values
    lines = []
    lacking_sides = []
    for name, pile in zip(sides, captures.piles, strict=True):
        best: dict[Suit, Card] = {}
        for card in sorted(pile):
            held = best.get(card.suit)
            if held is None or values[card.rank - 1] > values[held.rank - 1]:
                best[card.suit] = card
        parts = [(best[s], values[best[s].rank - 1]) for s in captures.suits if s in best]
        total = sum(value for _, value in parts)
        summed = " + ".join(f"{card} {value}" for card, value in parts) or "0"
        line = f"{name} {summed} = {total}" if len(parts) > 1 else f"{name} {summed}"
        lacking = [str(s) for s in captures.suits if s not in best]
        if lacking:
            lacking_sides.append(name)
            line += " " + tr.gettext("(no {suits})").format(suits=and_list(tr, lacking))
        lines.append(line)
    text = tr.gettext("the best card of each suit: {lines}.").format(lines="; ".join(lines))
    words = [text]
    eligible_only = primiera.missing_suit is not MissingSuit.ZERO
    if lacking_sides and eligible_only:
        words.append(
            _sentence(
                tr.ngettext(
                    "{sides} lacks a suit and cannot win it.",
                    "{sides} lack a suit and cannot win it.",
                    len(lacking_sides),
                ),
                sides=and_list(tr, lacking_sides),
            )
        )
    elif lacking_sides:
        words.append(tr.gettext("A missing suit counts 0."))
    if winners:
        if primiera.rule is PrimieraRule.BEST_CARDS:
            verdict = tr.gettext("{side} has the best cards, compared one by one from the highest.")
        else:
            verdict = tr.gettext("{side} has the best primiera.")
        words.append(_sentence(verdict, side=sides[winners[0]]))
    elif eligible_only and len(lacking_sides) == len(sides):
        words.append(tr.gettext("Nobody holds every suit, so nobody wins it."))
    else:
        words.append(tr.gettext("A tie for the best scores nothing."))
    return " ".join(words)


def _sevens_facts(
    tr: _Tr, primiera: Primiera, captures: Captures, sides: list[str], winners: list[int]
) -> str:
    """A primiera decided by the sevens: each side's sevens, and who wins it and why."""
    sevens = [sum(1 for c in pile if c.rank == Rank.SETTE) for pile in captures.piles]
    words = [tr.gettext("sevens taken: {figures}.").format(figures=_listed(sides, sevens))]
    if primiera.rule is PrimieraRule.SETTANTA_3_SEVENS:
        if winners:
            verdict = tr.gettext("{sides} took three sevens or more, the settanta.")
            words.append(_sentence(verdict, sides=and_list(tr, [sides[w] for w in winners])))
        else:
            words.append(tr.gettext("Nobody took three sevens, the settanta."))
        return " ".join(words)
    if winners and sevens[winners[0]] > max(n for s, n in enumerate(sevens) if s != winners[0]):
        verdict = _sentence(tr.gettext("{side} has the most sevens."), side=sides[winners[0]])
    elif winners:  # the cascade: the sevens tie, a lower rank decides
        rank = _cascade_rank(captures)
        verdict = _sentence(
            tr.gettext("The sevens tie; {side} has more of rank {rank}."),
            side=sides[winners[0]],
            rank=_rank_label(tr, rank),
        )
    else:
        verdict = tr.gettext("A tie scores nothing.")
    words.append(verdict)
    return " ".join(words)


_CASCADE: Final = (Rank.SETTE, Rank.SEI, Rank.ASSO, Rank.CINQUE, Rank.QUATTRO, Rank.TRE, Rank.DUE)


def _cascade_rank(captures: Captures) -> Rank:
    """The rank that decides the cascade: the sevens, or on a tie the sixes, the Aces..."""
    candidates = list(range(len(captures.piles)))
    for rank in _CASCADE:
        counts = [sum(1 for c in captures.piles[side] if c.rank == rank) for side in candidates]
        candidates = [side for side, n in zip(candidates, counts, strict=True) if n == max(counts)]
        if len(candidates) == 1:
            return rank
    return _CASCADE[-1]


def _sentence(template: str, /, **fields: object) -> str:
    """A sentence from a template and its fields, with its first letter in capitals.

    A sentence may start with a name, such as `player 0`: that is where it is capitalised.
    """
    text = template.format(**fields)
    return text[:1].upper() + text[1:]
