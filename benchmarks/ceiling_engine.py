"""The least engine behind the public API's shape: 2-player classic only, nothing checked.

`ceiling.py` plays it in the loop of the playout benchmark to measure what any engine with
that API can reach. It deals as the library does (`GameState.new(rules, seed=...)` with
dealer 0) and keeps only what random play needs: the two hands, the table, the two piles
and scope counts, the player to move and the last capturer, all plain ints. A move must be
one of the state's own legal moves (compared by identity, as the library's fast path
does); there are no types checked, no other rules, no history and no views.
It reads the library's capture tables. `ceiling.py` checks it against the library move by
move before it measures it.
"""

from __future__ import annotations

from typing import Final

import scopa
from scopa import masks, moves
from scopa._shuffle import accepted_order
from scopa.moves import _sums_any_table

RULES: Final = scopa.find_variant("classic")

# The library's capture tables, as constants of this module (which the compiled module
# reads without a lookup).
_RANK: Final = moves._RANK
_SUMS: Final = moves._SUMS
_OF_RANK: Final = masks.RANK_MASKS


class Move:
    """A card played and the cards it takes (a mask, 0 when it is laid down)."""

    __slots__ = ("bit", "index", "take")

    def __init__(self, index: int, take: int) -> None:
        self.index = index
        self.bit = 1 << index
        self.take = take


def _moves(hand: int, table: int) -> list[Move]:
    """Classic's legal moves: an equal rank first, else any sum, else the card is laid."""
    d = table & 1023
    c = table >> 10 & 1023
    s = table >> 20 & 1023
    b = table >> 30
    present = d | c | s | b
    sums = _SUMS[present] if d + c + s + b == present else None
    found: list[Move] = []
    while hand:
        low = hand & -hand
        hand ^= low
        index = low.bit_length() - 1
        equal = table & _OF_RANK[_RANK[index]]
        if equal:
            while equal:
                one = equal & -equal
                equal ^= one
                found.append(Move(index, one))
            continue
        if sums is not None:
            takes = [table & mask for mask in sums[_RANK[index]]]
        else:
            takes = _sums_any_table(_RANK[index], table)
        for take in takes:
            found.append(Move(index, take))
        if not takes:
            found.append(Move(index, 0))
    return found


class State:
    """A position of a 2-player classic hand dealt by player 0."""

    def __init__(
        self,
        order: tuple[int, ...],
        drawn: int,
        hand0: int,
        hand1: int,
        table: int,
        pile0: int,
        pile1: int,
        scope0: int,
        scope1: int,
        to_move: int,
        last: int,
    ) -> None:
        self.order = order
        self.drawn = drawn
        self.hand0 = hand0
        self.hand1 = hand1
        self.table = table
        self.pile0 = pile0
        self.pile1 = pile1
        self.scope0 = scope0
        self.scope1 = scope1
        self.to_move = to_move
        self.last = last
        self.moves: tuple[Move, ...] | None = None

    @property
    def is_terminal(self) -> bool:
        return self.to_move < 0

    def legal_moves(self) -> tuple[Move, ...]:
        moves = self.moves
        if moves is None:
            if self.to_move < 0:
                moves = ()
            else:
                moves = tuple(_moves(self.hand1 if self.to_move else self.hand0, self.table))
            self.moves = moves
        return moves

    def apply(self, move: Move) -> State:
        legal = False
        for one in self.legal_moves():
            if one is move:
                legal = True
                break
        if not legal:
            raise ValueError("not a legal move of this state")
        player = self.to_move
        bit = move.bit
        take = move.take
        hand0 = self.hand0
        hand1 = self.hand1
        if player:
            hand1 ^= bit
        else:
            hand0 ^= bit
        drawn = self.drawn
        final = False
        if player == 0 and not hand0:  # the dealer's last card of a round
            if drawn < 40:
                hand1 = _cards(self.order, drawn)
                hand0 = _cards(self.order, drawn + 3)
                drawn += 6
            else:
                final = True
        table = self.table
        pile0 = self.pile0
        pile1 = self.pile1
        scope0 = self.scope0
        scope1 = self.scope1
        last = self.last
        if take:
            table ^= take
            if player:
                pile1 |= take | bit
            else:
                pile0 |= take | bit
            if not table and not final:
                if player:
                    scope1 += 1
                else:
                    scope0 += 1
            last = player
        else:
            table |= bit
        if final:
            if last == 1:
                pile1 |= table
            elif last == 0:
                pile0 |= table
            table = 0
            player = -1
        else:
            player ^= 1
        return State(
            self.order, drawn, hand0, hand1, table, pile0, pile1, scope0, scope1, player, last
        )


def _cards(order: tuple[int, ...], start: int) -> int:
    """The mask of the three cards of `order` from `start`."""
    return 1 << order[start] | 1 << order[start + 1] | 1 << order[start + 2]


def new(seed: int) -> State:
    """The first state of the hand that `GameState.new(RULES, seed=seed)` deals."""
    return _dealt(accepted_order(RULES, seed)[0])


_ORDERS: Final = tuple(accepted_order(RULES, seed)[0] for seed in range(1024))


def new_unshuffled(seed: int) -> State:
    """The first state of a hand dealt from one of 1,024 orders shuffled in advance."""
    return _dealt(_ORDERS[seed & 1023])


def _dealt(order: tuple[int, ...]) -> State:
    """The first state of the hand dealt from `order` by player 0."""
    table = 0
    for index in order[6:10]:
        table |= 1 << index
    return State(order, 10, _cards(order, 3), _cards(order, 0), table, 0, 0, 0, 0, 1, -1)


class Idle:
    """A state that does no work: 36 plays of three moves that only count themselves."""

    def __init__(self, plays: int) -> None:
        self.plays = plays

    @property
    def is_terminal(self) -> bool:
        return self.plays == 36

    def legal_moves(self) -> tuple[Move, ...]:
        return _IDLE_MOVES

    def apply(self, move: Move) -> Idle:
        return Idle(self.plays + 1)


_IDLE_MOVES: Final = (Move(0, 0), Move(1, 0), Move(2, 0))


def idle(seed: int) -> Idle:
    """The first state of a hand of the engine that does no work."""
    return Idle(0)
