"""`scopa`: the rules of Scopa and its family of Italian card games, as a typed library.

Examples:
    >>> import scopa
    >>> rules = scopa.find_variant("classic")
    >>> state = scopa.GameState.new(rules, seed=1)
    >>> len(state.table), [len(hand) for hand in state.hands]
    (4, [3, 3])
"""

from scopa import state as _state
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
from scopa.moves import Declaration, Move
from scopa.rules import (
    AceOnAce,
    CapturePriority,
    FirstTable,
    MisdealRule,
    Rules,
    Tiebreak,
    find_variant,
    variant_aliases,
    variant_names,
)
from scopa.scoring import (
    AssoDueTre,
    Captures,
    CardPoints,
    Carte,
    CategoryScore,
    Declarations,
    Denari,
    Grande,
    HandScore,
    MissingSuit,
    Napola,
    Ponino,
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
from scopa.state import GameState, PlayerView, clear_caches, view

__version__ = "0.1.0"

COMPILED = not _state.__file__.endswith(".py")
"""Whether the modules that play run compiled (a wheel built with mypyc) or as Python source.

`pip install .` compiles them where it can; `SCOPA_PURE_PYTHON=1 pip install .` and
editable installs do not. The rules and the results are the same either way.
"""

__all__ = [
    "COMPILED",
    "DECK",
    "AbandonReason",
    "Abandonment",
    "AceOnAce",
    "AmbiguousMoveError",
    "AssoDueTre",
    "BrilliEconomy",
    "CapturePriority",
    "Captures",
    "Card",
    "CardPoints",
    "Carte",
    "CategoryScore",
    "Deck",
    "Declaration",
    "Declarations",
    "Denari",
    "FirstTable",
    "GameState",
    "Grande",
    "HandRecord",
    "HandScore",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidStateError",
    "Match",
    "MisdealRule",
    "MissingSuit",
    "Move",
    "Napola",
    "NotationError",
    "Outcome",
    "PlayerView",
    "Ponino",
    "Primiera",
    "PrimieraRule",
    "PrimieraTable",
    "Rank",
    "ReBello",
    "Rules",
    "RulesError",
    "ScopaError",
    "Scope",
    "ScoringComponent",
    "ScoringRules",
    "SeriesRecord",
    "Settebello",
    "Stakes",
    "Suit",
    "Tiebreak",
    "__version__",
    "clear_caches",
    "find_variant",
    "variant_aliases",
    "variant_names",
    "view",
]
