"""`scopa`: the rules of Scopa and its family of Italian card games, as a typed library.

Examples:
    >>> import scopa
    >>> rules = scopa.find_variant("classic")
    >>> state = scopa.GameState.new(rules, seed=1)
    >>> len(state.table), [len(hand) for hand in state.hands]
    (4, [3, 3])
"""

from scopa.cards import DECK, Card, Deck, Rank, Suit
from scopa.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    RulesError,
    ScopaError,
)
from scopa.match import HandRecord, Match, Outcome, SeriesRecord
from scopa.moves import Move, clear_caches
from scopa.rules import (
    AceOnAce,
    CapturePriority,
    MisdealRule,
    Rules,
    Tiebreak,
    find_variant,
    variant_aliases,
    variant_names,
)
from scopa.scoring import (
    Captures,
    Carte,
    CategoryScore,
    Denari,
    HandScore,
    MissingSuit,
    Napola,
    Primiera,
    PrimieraRule,
    PrimieraTable,
    ReBello,
    Scope,
    ScoringComponent,
    ScoringRules,
    Settebello,
)
from scopa.stakes import Abandonment, AbandonReason, BrilliEconomy, Stakes
from scopa.state import GameState
from scopa.views import PlayerView, resample, view

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "AceOnAce",
    "AbandonReason",
    "Abandonment",
    "BrilliEconomy",
    "HandRecord",
    "Match",
    "Outcome",
    "SeriesRecord",
    "Stakes",
    "AmbiguousMoveError",
    "CapturePriority",
    "Captures",
    "clear_caches",
    "Card",
    "Carte",
    "CategoryScore",
    "Deck",
    "Denari",
    "GameState",
    "HandScore",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidStateError",
    "MisdealRule",
    "MissingSuit",
    "Move",
    "NotationError",
    "Napola",
    "Primiera",
    "PrimieraRule",
    "ReBello",
    "PrimieraTable",
    "Rank",
    "Rules",
    "RulesError",
    "ScopaError",
    "Scope",
    "ScoringComponent",
    "ScoringRules",
    "Settebello",
    "Suit",
    "Tiebreak",
    "PlayerView",
    "__version__",
    "find_variant",
    "resample",
    "variant_aliases",
    "variant_names",
    "view",
]
