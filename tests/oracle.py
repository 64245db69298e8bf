"""Deliberately plain references for the rules, written from SPEC.md alone.

The capture reference checks every subset of the table (SPEC.md §3). The scoring reference
works on plain lists of `(rank, suit)` pairs, with the primiera tables copied from the
SPEC's table (not from the library): scope, carte and denari to the unique maximum, the
settebello, and primiera with the four tables, the two missing-suit policies and the three
primiera rules, pooled by side (SPEC.md §5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scopa import AceOnAce, CapturePriority, Card, GameState, HandScore, Move, Rules

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
    """The captures SPEC.md §3 allows for one played card."""
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
    # SPEC.md §3.7: the played card and the cards taken add up to 15, whatever the priority
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
    """Every legal move of the player to move, straight from SPEC.md §3, with plain sets."""
    rules = state.rules
    player = state.current_player
    if player is None:
        return set()
    hand = state.hands[player]
    first_play = (
        not any(state.piles)
        and len(state.table) == rules.table_size
        and all(len(h) == rules.hand_size for h in state.hands)
    )
    if rules.ace_first_lead_forbidden and first_play and any(c.rank != 1 for c in hand):
        # the Aces are set aside first; the other capture rules apply to the rest
        hand = frozenset(c for c in hand if c.rank != 1)
    moves = set()
    for card in hand:
        allowed = card_captures(rules, card, state.table)
        for captured in allowed:
            moves.add(Move(card, captured))
        if not allowed or not rules.played_card_must_capture:
            moves.add(Move(card, frozenset()))
    if rules.must_play_capturing_card_if_any and any(m.captured for m in moves):
        moves = {m for m in moves if m.captured}
    return moves


# ----------------------------------------------------------------------------- scoring

# SPEC.md §5, the primiera table, read column by column: 7, 6, A, 5, 4, 3, 2, F, C, R.
# Here each list is indexed by rank (1 = Ace ... 10 = Re); index 0 is unused.
PRIMIERA_VALUES = {
    "classic": [0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "tretre": [0, 15, 12, 13, 14, 15, 18, 21, 10, 10, 10],
    "face-value-figures": [0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10],
    "zero-figures": [0, 16, 12, 13, 14, 15, 18, 21, 0, 0, 0],
}
POLICIES = ["opponent-wins", "zero"]
CASCADE = [7, 6, 1, 5, 4, 3, 2]  # SPEC.md §5: sevens, then sixes, Aces, fives...

# SPEC.md §8: tretre is the classic game with the tretre table and, by §7.5, a missing
# suit counting zero; every other preset scores the classic way.
PRESET_PRIMIERA = {"tretre": ("tretre", "zero")}

Pile = list[tuple[int, str]]
Reference = dict[str, tuple[list[int], list[int]]]


def plain(cards: Iterable[Card]) -> Pile:
    """Cards as `(rank, suit letter)` pairs, read from their text (`7D` -> (7, "D"))."""
    return [(int(str(card)[:-1]), str(card)[-1]) for card in cards]


def preset_primiera(rules: Rules) -> tuple[str, str]:
    """The primiera table and missing-suit policy a preset scores with, by its name."""
    return PRESET_PRIMIERA.get(rules.name, ("classic", "opponent-wins"))


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


def primiera(piles: list[Pile], table: str, policy: str, rule: str) -> tuple[list[int], list[int]]:
    """The primiera points and figures of SPEC.md §5.

    `rule` is `sum`, `most-sevens-cascade` or `settanta-3-sevens`; the figures of the last
    two are the sevens.
    """
    sides = len(piles)
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
        for suit in "DCSB":
            in_suit = [values[rank] for rank, s in pile if s == suit]
            if in_suit:
                total += max(in_suit)
                held += 1
        sums.append(total)
        complete.append(held == 4)
    # With "zero" a missing suit counts 0; with opponent-wins a side lacking a suit cannot
    # win.
    allowed = [True] * sides if policy == "zero" else complete
    return unique_best(sums, allowed), sums


def reference_score(
    piles: list[Pile],
    scope: list[int],
    table: str = "classic",
    policy: str = "opponent-wins",
    rule: str = "sum",
) -> Reference:
    """Each category's points and figures, per side, as SPEC.md §5 states them."""
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
        "primiera": primiera(piles, table, policy, rule),
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


def assert_same(score: HandScore, expected: Reference) -> None:
    """The library's score has the reference's categories, points, figures and totals."""
    assert [c.name for c in score] == list(expected)
    for category in score:
        points, figures = expected[category.name]
        assert list(category.points) == points, category
        assert list(category.figures) == figures, category
    totals = [
        sum(points[side] for points, _ in expected.values()) for side in range(len(score.points))
    ]
    assert list(score.points) == totals
