"""Deliberately plain references for the rules, written from the rules page (docs/rules.md)
and the variants' pages (docs/variants/*.md), and the rule books they cite.

The capture reference checks every subset of the table (docs/rules.md#playing-a-card), and
adds the declarations a hand allows (docs/rules.md#declarations-and-the-matta, with the
matta tried at every value) and the claims (docs/rules.md#other-endings). The scoring
reference works on plain lists of `(rank, suit)` pairs, with the primiera tables copied
from the docs' tables (docs/rules.md#primiera, docs/variants/bonuses.md), not from the
library: scope, carte and denari to the unique maximum, the settebello, and primiera with
the four tables, the two missing-suit policies and the four primiera rules, pooled by side
(docs/rules.md#scoring); and the
family's categories (napola, re bello, ponino, Cirulla's declarations, piccola up to 6 and
grande, the low denari of Trento, Frac's card points, the sevens of Escoba without the
setenta), and the outright wins (napoleone, cappotto, the Trento trio). It reads which
categories rules score, and their settings, from the rules' scoring components, never from
a preset's name: each kind of component of the library has its reference here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scopa import (
    AceOnAce,
    AssoDueTre,
    CapturePriority,
    Card,
    CardPoints,
    Carte,
    CompulsoryCapture,
    Declaration,
    Declarations,
    Denari,
    GameState,
    Grande,
    HandScore,
    Move,
    Napola,
    Ponino,
    Primiera,
    PrimieraRule,
    ReBello,
    Rules,
    Scope,
    Settebello,
)

# ----------------------------------------------------------------------------- captures


def subsets_adding_up_to(cards: list[Card], target: int) -> list[frozenset[Card]]:
    """Every non-empty subset of `cards` whose ranks add up to `target` (pruned when over)."""
    if target == 0:
        return [frozenset()]
    if not cards:
        return []
    first, rest = cards[0], cards[1:]
    found = subsets_adding_up_to(rest, target)
    if first.rank <= target:
        found += [s | {first} for s in subsets_adding_up_to(rest, target - first.rank)]
    return [s for s in found if s]


def card_captures(rules: Rules, card: Card, table: frozenset[Card]) -> list[frozenset[Card]]:
    """The captures the rules allow one played card (docs/rules.md#what-a-card-can-capture)."""
    if rules.ace_captures_all and card.rank == 1 and table:
        aces = [c for c in table if c.rank == 1]
        if aces and rules.ace_with_ace_on_table is AceOnAce.TAKE_ACE_ONLY:
            return [frozenset({ace}) for ace in aces]
        if not aces or rules.ace_with_ace_on_table is AceOnAce.TAKE_ALL:
            return [table]
        # AceOnAce.CAPTURE_NORMALLY: with an Ace on the table, the usual captures below
    options = subsets_adding_up_to(sorted(table), card.rank)
    equal = [s for s in options if len(s) == 1] if rules.capture_by_rank else []
    sums = [s for s in options if len(s) >= 2] if rules.capture_by_sum else []
    # docs/rules.md#captures-to-fifteen: the played card and the cards taken add up to 15,
    # whatever the priority
    fifteens = (
        subsets_adding_up_to(sorted(table), 15 - card.rank) if rules.capture_to_fifteen else []
    )
    if rules.capture_priority is CapturePriority.EQUAL_RANK_FIRST:
        return (equal or sums) + fifteens
    if rules.capture_priority is CapturePriority.MIN_CARDS:
        fewest = min((len(s) for s in equal + sums), default=0)
        return [s for s in equal + sums if len(s) == fewest] + fifteens
    return equal + sums + fifteens


def legal_moves(state: GameState) -> set[Move]:
    """Every legal move of the player to move, straight from the rules, with plain sets.

    The rules are those of docs/rules.md#playing-a-card.
    """
    rules = state.rules
    player = state.current_player
    if player is None:
        return set()
    hand = state.hands[player]
    # no card played yet: every hand full and the stock whole (the first table may have
    # been swept at the deal, docs/rules.md#a-first-table-of-15-or-30)
    first_play = all(len(h) == rules.hand_size for h in state.hands) and len(state.stock) == (
        rules.deck_size - rules.table_size - rules.players * rules.hand_size
    )
    if rules.ace_first_lead_forbidden and first_play and any(c.rank != 1 for c in hand):
        # the Aces are set aside first; the other capture rules apply to the rest
        hand = frozenset(c for c in hand if c.rank != 1)
    moves = set()
    for card in hand:
        allowed = card_captures(rules, card, state.table)
        for captured in allowed:
            moves.add(Move(card, captured))
        if not allowed or rules.compulsory_capture is CompulsoryCapture.NONE:
            moves.add(Move(card, frozenset()))
    capturing_first = rules.compulsory_capture is CompulsoryCapture.CAPTURING_CARD
    if capturing_first and any(m.captured for m in moves):
        moves = {m for m in moves if m.captured}
    if rules.declarations and len(state.hands[player]) == rules.hand_size:
        # docs/rules.md#declarations-and-the-matta: at the first play of a deal, any play
        # may declare the hand
        kinds = declarations(list(state.hands[player]), rules.matta)
        moves |= {Move(m.card, m.captured, kind) for m in moves for kind in kinds}
    if rules.claim_out:  # docs/rules.md#other-endings: any play may also claim
        moves |= {Move(m.card, m.captured, m.declaration, claim=True) for m in moves}
    return moves


def declarations(hand: list[Card], matta: Card | None) -> list[Declaration]:
    """The declarations a three-card hand allows (docs/rules.md#declarations-and-the-matta).

    Under 10 in all is *busso*, three of a kind *tris*; the matta may stand for any value
    from 1 to 10, so every value is tried.
    """
    choices = [range(1, 11) if card == matta else [card.rank] for card in hand]
    found = set()
    for first in choices[0]:
        for second in choices[1]:
            for third in choices[2]:
                if first + second + third < 10:
                    found.add(Declaration.BUSSO)
                if first == second == third:
                    found.add(Declaration.TRIS)
    return sorted(found, key=lambda kind: kind.value)


# ----------------------------------------------------------------------------- scoring

# The primiera tables of docs/rules.md#primiera and docs/variants/bonuses.md, by rank.
# Here each list is indexed by rank (1 = Ace ... 10 = Re); index 0 is unused.
PRIMIERA_VALUES = {
    "classic": [0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "tretre": [0, 15, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "face-value-figures": [0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10],
    "zero-figures": [0, 16, 12, 13, 14, 15, 18, 21, 0, 0, 0],
}
POLICIES = ["opponent-wins", "zero"]
# docs/variants/bonuses.md#other-primiera-rules: sevens, then sixes, Aces, fives...
CASCADE = [7, 6, 1, 5, 4, 3, 2]
# docs/variants/escoba.md#the-setenta-and-its-readings (pagat's setenta): one card per suit,
# 7 > 6 > A > 5 > 4 > 3 > 2 > figures, as a strength by rank.
SETENTA_STRENGTH = {7: 8, 6: 7, 1: 6, 5: 5, 4: 4, 3: 3, 2: 2, 8: 1, 9: 1, 10: 1}

STANDARD = ["scope", "carte", "denari", "settebello", "primiera"]
"""The names of the standard categories (docs/rules.md#scoring)."""

Pile = list[tuple[int, str]]
Reference = dict[str, tuple[list[int], list[int]]]


def plain(cards: Iterable[Card]) -> Pile:
    """Cards as `(rank, suit letter)` pairs, read from their text (`7D` -> (7, "D"))."""
    return [(int(str(card)[:-1]), str(card)[-1]) for card in cards]


def table_name(primiera: Primiera) -> str:
    """The name of the docs' primiera table that has the values of the component's table."""
    for name, values in PRIMIERA_VALUES.items():
        if list(primiera.table.values) == values[1:]:
            return name
    raise AssertionError(f"no reference for the primiera table {primiera.table!r}")


def standard_names(rules: Rules) -> dict[str, str]:
    """The names the rules give the standard categories they score, by standard name.

    Escoba calls them escobas, cartas, oros, siete de velo and setenta. A category with a
    threshold, a primiera with a bonus for all sevens and any other category is not one
    of them.
    """
    kinds = {Scope: "scope", Carte: "carte", Denari: "denari", Settebello: "settebello"}
    found = {}
    for component in rules.scoring.components:
        if isinstance(component, Carte | Denari) and component.threshold is not None:
            continue
        if type(component) is Primiera and not component.all_sevens:
            found["primiera"] = component.name
        elif type(component) in kinds:
            found[kinds[type(component)]] = component.name
    return found


def unique_best(figures: list[int], allowed: list[bool]) -> list[int]:
    """One point to the single allowed side with the highest figure; a tie gives nothing."""
    points = [0] * len(figures)
    best = None
    for side, figure in enumerate(figures):
        if allowed[side] and (best is None or figure > best):
            best = figure
    winners = [s for s, f in enumerate(figures) if allowed[s] and f == best]
    if len(winners) == 1:
        points[winners[0]] = 1
    return points


def primiera(
    piles: list[Pile], table: str, policy: str, rule: str, suits: str = "DCSB"
) -> tuple[list[int], list[int]]:
    """The primiera points and figures of docs/rules.md#primiera.

    `rule` is `sum`, `best-cards`, `most-sevens-cascade` or `settanta-3-sevens`; the
    figures of the last two are the sevens, of the others the sums. `suits` are the suits
    in play: with opponent-wins, a side must hold a card of each.
    """
    sides = len(piles)
    if rule == "best-cards":
        return setenta(piles, table, policy)
    if rule != "sum":
        sevens = [sum(1 for rank, _ in pile if rank == 7) for pile in piles]
        if rule == "settanta-3-sevens":  # three or four sevens win
            return [1 if n >= 3 else 0 for n in sevens], sevens
        still = list(range(sides))  # the cascade: most sevens, then sixes, Aces...
        for wanted in CASCADE:
            counts = [sum(1 for rank, _ in piles[s] if rank == wanted) for s in range(sides)]
            most = max(counts[s] for s in still)
            still = [s for s in still if counts[s] == most]
        points = [0] * sides
        if len(still) == 1:
            points[still[0]] = 1
        return points, sevens
    values = PRIMIERA_VALUES[table]
    sums = []
    complete = []
    for pile in piles:
        total = 0
        held = 0
        for suit in suits:
            in_suit = [values[rank] for rank, s in pile if s == suit]
            if in_suit:
                total += max(in_suit)
                held += 1
        sums.append(total)
        complete.append(held == len(suits))
    # With "zero" a missing suit counts 0; with opponent-wins a side lacking a suit cannot
    # win.
    allowed = [True] * sides if policy == "zero" else complete
    return unique_best(sums, allowed), sums


def setenta(piles: list[Pile], table: str, policy: str) -> tuple[list[int], list[int]]:
    """The setenta of docs/variants/escoba.md: the sides' best cards, one per suit, sorted
    from the strongest, compared card by card; the figures are their sums in the primiera
    table."""
    values = PRIMIERA_VALUES[table]
    strength = SETENTA_STRENGTH
    sequences = []
    sums = []
    complete = []
    for pile in piles:
        best = []
        for suit in "DCSB":
            in_suit = [rank for rank, s in pile if s == suit]
            if in_suit:
                best.append(max(in_suit, key=lambda rank: strength[rank]))
        sequences.append(sorted((strength[rank] for rank in best), reverse=True))
        sums.append(sum(values[rank] for rank in best))
        complete.append(len(best) == 4)
    allowed = [True] * len(piles) if policy == "zero" else complete
    points = [0] * len(piles)
    candidates = [side for side in range(len(piles)) if allowed[side]]
    if candidates:
        top = max(sequences[side] for side in candidates)
        winners = [side for side in candidates if sequences[side] == top]
        if len(winners) == 1:
            points[winners[0]] = 1
    return points, sums


def denari_run(pile: Pile, ranks: list[int]) -> int:
    """How many of the denari of `ranks`, in that order, a pile holds without a gap."""
    run = 0
    for rank in ranks:
        if (rank, "D") not in pile:
            break
        run += 1
    return run


def sevens_of(piles: list[Pile]) -> list[int]:
    """The sevens each side holds."""
    return [sum(1 for rank, _ in pile if rank == 7) for pile in piles]


def category(
    component: object, rules: Rules, piles: list[Pile], scope: list[int], declared: list[int]
) -> tuple[list[int], list[int]]:
    """The points and figures per side of a scoring component of the library, from its kind
    and settings (docs/rules.md#scoring, docs/variants/bonuses.md and each preset's page)."""
    sides = len(piles)
    kind = type(component)
    if isinstance(component, Scope) and kind is Scope:
        return [made * component.value for made in scope], list(scope)
    if isinstance(component, Carte | Denari) and kind in (Carte, Denari):
        if kind is Carte:
            counts = [len(pile) for pile in piles]
        else:
            counts = [sum(1 for _, suit in pile if suit == "D") for pile in piles]
        threshold = component.threshold
        allowed = [threshold is None or count >= threshold for count in counts]
        return unique_best(counts, allowed), counts
    if kind in (Settebello, ReBello):  # the 7 or the King of denari
        card = (7, "D") if kind is Settebello else (10, "D")
        held = [1 if card in pile else 0 for pile in piles]
        return held, held
    if isinstance(component, Primiera) and kind is Primiera:
        if component.rule is PrimieraRule.MOST_SEVENS:  # the most sevens, a tie: none
            sevens = sevens_of(piles)
            points, figures = unique_best(sevens, [True] * sides), sevens
        else:
            suits = "".join(suit.letter for suit in rules.suits)
            policy = component.missing_suit.value
            table = table_name(component)
            points, figures = primiera(piles, table, policy, component.rule.value, suits)
        more = [component.all_sevens if n == 4 else 0 for n in sevens_of(piles)]
        return [p + m for p, m in zip(points, more, strict=True)], figures
    if isinstance(component, Napola) and kind is Napola:
        # A-2-3 of denari = 3, +1 per further denaro in turn, up to `most` (Cirulla's
        # piccola stops at 6)
        runs = [denari_run(pile, list(range(1, 11))) for pile in piles]
        return [min(run, component.most) if run >= 3 else 0 for run in runs], runs
    if isinstance(component, Grande) and kind is Grande:
        # F-C-R of denari = 5; extended, with the 7 as well 6, with the 6 too 7
        runs = [denari_run(pile, [10, 9, 8, 7, 6]) for pile in piles]
        points = [(run + 2 if component.extends else 5) if run >= 3 else 0 for run in runs]
        return points, points
    if kind is AssoDueTre:  # the Ace, 2 and 3 of denari score 1, 2 and 3
        points = [sum(rank for rank in (1, 2, 3) if (rank, "D") in pile) for pile in piles]
        return points, points
    if kind is Ponino:  # all four Cavalli: the side's scope once more
        four = [sum(1 for rank, _ in pile if rank == 9) == 4 for pile in piles]
        return [made if all4 else 0 for made, all4 in zip(scope, four, strict=True)], [
            int(all4) for all4 in four
        ]
    if isinstance(component, CardPoints) and kind is CardPoints:  # Frac: Aces and figures
        counts = [sum(1 for rank, _ in pile if rank in component.ranks) for pile in piles]
        return [count * component.value for count in counts], counts
    if kind is Declarations:  # the points declared in the hand
        return list(declared), list(declared)
    raise AssertionError(f"no reference for the scoring component {component!r}")


def outright_winner(rules: Rules, piles: list[Pile]) -> int | None:
    """The side that wins the match outright with these piles, if the rules' scoring has such
    a win: all ten denari (the napoleone, Cirulla's cappotto) or the Ace, 2 and 3 of denari
    together (the Trento trio)."""
    for component in rules.scoring.components:
        for side, pile in enumerate(piles):
            coins = {rank for rank, suit in pile if suit == "D"}
            trio = isinstance(component, AssoDueTre) and component.trio_wins_match
            napoleone = isinstance(component, Napola) and component.napoleone_wins_match
            if (trio and {1, 2, 3} <= coins) or (napoleone and len(coins) == 10):
                return side
    return None


def preset_reference(
    rules: Rules, piles: list[Pile], scope: list[int], declared: list[int] | None = None
) -> Reference:
    """Each category's points and figures, per side, for the categories of the rules."""
    declared = declared or [0] * len(piles)
    return {
        component.name: category(component, rules, piles, scope, declared)
        for component in rules.scoring.components
    }


def reference_score(
    piles: list[Pile],
    scope: list[int],
    table: str = "classic",
    policy: str = "opponent-wins",
    rule: str = "sum",
    suits: str = "DCSB",
) -> Reference:
    """Each category's points and figures, per side, as docs/rules.md#scoring states them."""
    sides = len(piles)
    everyone = [True] * sides
    cards = [len(pile) for pile in piles]
    denari = [sum(1 for _, suit in pile if suit == "D") for pile in piles]
    settebello = [1 if (7, "D") in pile else 0 for pile in piles]
    return {
        "scope": (list(scope), list(scope)),
        "carte": (unique_best(cards, everyone), cards),
        "denari": (unique_best(denari, everyone), denari),
        "settebello": (settebello, settebello),
        "primiera": primiera(piles, table, policy, rule, suits),
    }


def by_side(
    rules: Rules, piles: Sequence[Iterable[Card]], scope: Sequence[int]
) -> tuple[list[Pile], list[int]]:
    """The players' piles and scope pooled by side (player p plays for side p % sides)."""
    sides = rules.players if rules.sides is None else rules.sides
    side_piles: list[Pile] = [[] for _ in range(sides)]
    side_scope = [0] * sides
    for player in range(rules.players):
        side_piles[player % sides] += plain(piles[player])
        side_scope[player % sides] += scope[player]
    return side_piles, side_scope


# docs/rules.md#declarations-and-the-matta
DECLARED_POINTS = {Declaration.BUSSO: 3, Declaration.TRIS: 10}


def declared_by_side(rules: Rules, state: GameState) -> list[int]:
    """The points declared in the plays of a hand dealt by `GameState.new`, pooled by side."""
    sides = rules.players if rules.sides is None else rules.sides
    declared = [0] * sides
    for player, move in state.history:
        if move.declaration is not None:
            declared[player % sides] += DECLARED_POINTS[move.declaration]
    return declared


def assert_same(score: HandScore, expected: Reference, winner: int | None = None) -> None:
    """The library's score has the reference's categories, points, figures and totals, and
    the outright winner `winner` (if any)."""
    assert [c.name for c in score] == list(expected)
    assert [c.wins_match for c in score if c.wins_match is not None] == (
        [] if winner is None else [winner]
    )
    for category in score:
        points, figures = expected[category.name]
        assert list(category.points) == points, category
        assert list(category.figures) == figures, category
    totals = [
        sum(points[side] for points, _ in expected.values()) for side in range(len(score.points))
    ]
    assert list(score.points) == totals
