"""A deliberately plain reference for the capture rules: every subset of the table, checked."""

from __future__ import annotations

from scopa import CapturePriority, Card, Move, Rules


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


def legal_moves(rules: Rules, hand: frozenset[Card], table: frozenset[Card]) -> set[Move]:
    """Every legal move, straight from SPEC.md §3, with plain sets and loops."""
    moves = set()
    for card in hand:
        options = subsets_adding_up_to(sorted(table), card.rank)
        equal = [s for s in options if len(s) == 1] if rules.capture_by_rank else []
        sums = [s for s in options if len(s) >= 2] if rules.capture_by_sum else []
        if rules.capture_priority is CapturePriority.EQUAL_RANK_FIRST:
            allowed = equal or sums
        elif rules.capture_priority is CapturePriority.MIN_CARDS:
            fewest = min((len(s) for s in equal + sums), default=0)
            allowed = [s for s in equal + sums if len(s) == fewest]
        else:
            allowed = equal + sums
        for captured in allowed:
            moves.add(Move(card, captured))
        if not allowed or not rules.played_card_must_capture:
            moves.add(Move(card, frozenset()))
    return moves
