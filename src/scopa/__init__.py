"""`scopa`: the rules of Scopa and its family of Italian card games, as a typed library.

Examples:
    >>> import scopa
    >>> rules = scopa.find_variant("classic")
    >>> state = scopa.GameState.new(rules, seed=1)
    >>> len(state.table), [len(hand) for hand in state.hands]
    (4, [3, 3])

The modules that need no optional extra are imported on first use, so that `import scopa`
stays quick and `scopa.board.state_text(state, player=1)` works after it.
"""

import importlib
import types
from typing import TYPE_CHECKING

from scopa import scoring as _scoring
from scopa import state as _state
from scopa._i18n import LANGUAGES, locale_language
from scopa.cards import DECK, Card, Deck, Rank, Suit
from scopa.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    RulesError,
    ScopaError,
    WorkerError,
)
from scopa.match import HandRecord, Match, Outcome, SeriesRecord
from scopa.moves import Declaration, Move
from scopa.rules import (
    AceOnAce,
    CapturePriority,
    CompulsoryCapture,
    Family,
    FirstTable,
    Leftovers,
    MisdealRule,
    Preset,
    Rules,
    Tiebreak,
    find_preset,
    find_variant,
    presets,
    variant_aliases,
    variant_names,
)
from scopa.scoring import *  # noqa: F403  the names of scoring.__all__, its components among them
from scopa.stakes import Abandonment, AbandonReason, BrilliEconomy, Stakes
from scopa.state import GameState, PlayerView, clear_caches, view

if TYPE_CHECKING:
    # The modules of `_ON_FIRST_USE`, for the type checker: `scopa.board` is the module.
    from scopa import agents as agents
    from scopa import board as board
    from scopa import encoding as encoding
    from scopa import odds as odds
    from scopa import records as records
    from scopa import search as search
    from scopa import svg as svg
    from scopa import tournament as tournament

__version__ = "0.1.0"

COMPILED = not _state.__file__.endswith(".py")
"""Whether the modules that play run compiled (a wheel built with mypyc) or as Python source.

`pip install .` compiles them where it can; `SCOPA_PURE_PYTHON=1 pip install .` and
editable installs do not. The rules and the results are the same either way.
"""

__all__ = [
    "COMPILED",
    "DECK",
    "LANGUAGES",
    "AbandonReason",
    "Abandonment",
    "AceOnAce",
    "AmbiguousMoveError",
    "BrilliEconomy",
    "CapturePriority",
    "Card",
    "CompulsoryCapture",
    "Deck",
    "Declaration",
    "Family",
    "FirstTable",
    "GameState",
    "HandRecord",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidStateError",
    "Leftovers",
    "Match",
    "MisdealRule",
    "Move",
    "NotationError",
    "Outcome",
    "PlayerView",
    "Preset",
    "Rank",
    "Rules",
    "RulesError",
    "ScopaError",
    "SeriesRecord",
    "Stakes",
    "Suit",
    "Tiebreak",
    "WorkerError",
    "__version__",
    "clear_caches",
    "find_preset",
    "find_variant",
    "locale_language",
    "presets",
    "variant_aliases",
    "variant_names",
    "view",
]
__all__ += _scoring.__all__  # the scoring's names: its components are listed only there

_ON_FIRST_USE = (
    "agents",
    "board",
    "encoding",
    "explain",
    "odds",
    "records",
    "search",
    "svg",
    "tournament",
)
"""The modules of the package, needing no optional extra, imported when first named as
`scopa.NAME` (the others are imported as usual: `import scopa.batch`)."""


def __getattr__(name: str) -> types.ModuleType:
    """Import a module of `_ON_FIRST_USE` when it is first named as an attribute of `scopa`.

    Raises:
        AttributeError: `name` is no such module.
    """
    if name in _ON_FIRST_USE:
        return importlib.import_module(f"scopa.{name}")
    raise AttributeError(f"module 'scopa' has no attribute {name!r}")
