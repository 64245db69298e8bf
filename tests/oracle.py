"""A deliberately plain reference for the capture rules: every subset of the table, checked."""

from __future__ import annotations

from scopa import AceOnAce, CapturePriority, Card, GameState, Move, Rules


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
        return [table]
    options = subsets_adding_up_to(sorted(table), card.rank)
    equal = [s for s in options if len(s) == 1] if rules.capture_by_rank else []
    sums = [s for s in options if len(s) >= 2] if rules.capture_by_sum else []
    if rules.capture_priority is CapturePriority.EQUAL_RANK_FIRST:
        return equal or sums
    if rules.capture_priority is CapturePriority.MIN_CARDS:
        fewest = min((len(s) for s in equal + sums), default=0)
        return [s for s in equal + sums if len(s) == fewest]
    return equal + sums


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
