"""A trained policy as an agent: a small network that scores each legal move, run with numpy.

Install with `pip install "scopa[policy]"` (numpy). [`PolicyAgent`][scopa.policy.PolicyAgent]
plays the legal move its network scores best. The network reads the
[`observation`][scopa.encoding.observation] of the player's view and, for each legal move,
its [`move_facts`][scopa.encoding.move_facts]:

    summary = tanh(observation @ summary + summary_bias)           # WIDTH values
    hidden  = tanh([facts, summary] @ hidden + hidden_bias)         # per move
    score   = hidden @ score + score_bias                           # per move

The same weights score every move, whichever its card, so the network plays any number of
legal moves and every preset with its number of players (the observation's length depends
only on it, and on declarations).

Parameters live in a `.npz` file ([`save_parameters`][scopa.policy.save_parameters] writes
one): the six arrays above by those names, `format` (1), and `variant`, the rules the
policy was trained on. `PolicyAgent()` plays the policy shipped with the package, trained
on classic Scopa by `docs/examples/train_policy.py` (see the bots guide for its strength
and the command that rebuilds it).

Examples:
    >>> import random
    >>> from scopa import GameState, find_variant, view
    >>> state = GameState.new(find_variant("classic"), seed=3)
    >>> move = PolicyAgent().choose(view(state), random.Random(0))
    >>> move in state.legal_moves()
    True
"""

from __future__ import annotations

import functools
import os
import random
import zipfile
from collections.abc import Mapping
from importlib import resources
from typing import IO, Any, Final

import attrs

from scopa._extras import needs_extra

try:
    import numpy as np
except ImportError:
    raise ImportError(needs_extra("scopa.policy", "numpy", "policy")) from None

from scopa._checks import check_type, quote
from scopa.encoding import (
    MOVE_FACTS,
    ObservationLayout,
    move_facts,
    observation,
    observation_size,
)
from scopa.errors import InvalidArgumentError
from scopa.moves import Move
from scopa.rules import Rules
from scopa.state import PlayerView

__all__ = ["FORMAT", "SHIPPED", "PolicyAgent", "load_parameters", "save_parameters"]

FORMAT: Final = 1
"""The version of the parameter file's layout."""
SHIPPED: Final = "classic-policy.npz"
"""The file name of the policy shipped in the package (`scopa/data/`)."""
_LAYERS: Final = ("summary", "summary_bias", "hidden", "hidden_bias", "score", "score_bias")

Path = str | os.PathLike[str]


def _shapes(observation_size: int, width: int) -> dict[str, tuple[int, ...]]:
    """The shape of each array of a network of `width` reading observations of that size."""
    return {
        "summary": (observation_size, width),
        "summary_bias": (width,),
        "hidden": (MOVE_FACTS + width, width),
        "hidden_bias": (width,),
        "score": (width,),
        "score_bias": (),
    }


def _checked(arrays: Mapping[str, Any], where: str) -> dict[str, np.ndarray]:
    """The network's arrays as float32, once their names, shapes and values are checked.

    Raises:
        InvalidArgumentError: an array is missing or has the wrong shape, or a value is
            not finite.
    """
    missing = [name for name in _LAYERS if name not in arrays]
    if missing:
        raise InvalidArgumentError(f"{where} lacks the array {missing[0]!r} of a policy")
    summary = np.asarray(arrays["summary"])
    if summary.ndim != 2:
        raise InvalidArgumentError(f"{where}: 'summary' must be a matrix, not {summary.shape}")
    wanted = _shapes(*summary.shape)
    checked = {}
    for name in _LAYERS:
        array = np.asarray(arrays[name])
        if array.shape != wanted[name] or array.dtype.kind != "f":
            raise InvalidArgumentError(
                f"{where}: {name!r} must be floats of shape {wanted[name]}, "
                f"not {array.dtype} {array.shape}"
            )
        if not np.all(np.isfinite(array)):
            raise InvalidArgumentError(f"{where}: {name!r} holds a value that is not finite")
        checked[name] = array.astype(np.float32)
    return checked


def save_parameters(path: Path | IO[bytes], arrays: Mapping[str, Any], rules: Rules) -> None:
    """Write a policy's arrays (and the rules it was trained on) to a `.npz` file.

    Arrays other than the network's (a value head, for instance) are left out.

    Raises:
        InvalidArgumentError: an array is missing, of the wrong shape, or not finite.
    """
    checked = _checked(arrays, "the arrays given")
    stored: dict[str, Any] = {"format": np.array(FORMAT), "variant": np.array(rules.name)}
    stored.update(checked)
    np.savez_compressed(path, **stored)


def load_parameters(path: Path | IO[bytes]) -> dict[str, np.ndarray]:
    """Read a policy's arrays from a `.npz` file written by `save_parameters`.

    Raises:
        InvalidArgumentError: the file is not a policy file of this format (not a `.npz`,
            truncated, missing an array, an array of the wrong shape or not finite).
        FileNotFoundError: there is no such file.
    """
    if isinstance(path, (str, os.PathLike)):
        with open(path, "rb") as file:
            return _read(file, quote(os.fspath(path)))
    return _read(path, "the file")


def _read(file: IO[bytes], where: str) -> dict[str, np.ndarray]:
    """The checked arrays of an open `.npz` file."""
    try:
        with np.load(file, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise InvalidArgumentError(f"{where} is not a policy file (.npz): {error}") from None
    version = arrays.get("format")
    if version is None or version.shape != () or int(version) != FORMAT:
        raise InvalidArgumentError(f"{where} is not a policy file of format {FORMAT}")
    return _checked(arrays, where)


def _players_of(size: int) -> str:
    """The players (and declarations) whose observations have `size` values, in words."""
    for declarations in (False, True):
        for players in range(2, 7):
            if ObservationLayout.of(players, declarations).size == size:
                extra = " with declarations" if declarations else " without declarations"
                return f"{players} players{extra}"
    return "no rules"


@functools.lru_cache(maxsize=1)
def _shipped() -> dict[str, np.ndarray]:
    """The arrays of the shipped policy, read once."""
    with resources.files("scopa").joinpath("data", SHIPPED).open("rb") as file:
        return load_parameters(file)


@attrs.frozen(eq=False)
class PolicyAgent:
    """Plays the legal move that a trained network scores best; numpy only.

    `PolicyAgent()` plays the shipped policy; [`load`][scopa.policy.PolicyAgent.load] reads
    another. Ties go to the first move in the order of
    [`legal_moves`][scopa.GameState.legal_moves], so the agent never draws from `rng`.

    Raises:
        InvalidArgumentError: the arrays are not a policy's (see `load_parameters`).
    """

    arrays: Mapping[str, np.ndarray] = attrs.field(  # type: ignore[var-annotated]
        factory=_shipped, converter=lambda given: _checked(given, "the policy's arrays")
    )
    """The network's arrays, by name (see the module documentation)."""

    @classmethod
    def load(cls, path: Path | IO[bytes]) -> PolicyAgent:
        """The agent of a parameter file (see `load_parameters`)."""
        return cls(load_parameters(path))

    def check_rules(self, rules: Rules) -> None:
        """Check that the network reads the observations of these rules.

        Raises:
            InvalidArgumentError: the rules' observations are not the length the network
                reads (another number of players, or declarations).
            TypeError: `rules` is not a `Rules`.
        """
        check_type(rules, Rules, "rules")
        self._check_size(observation_size(rules), rules)

    def _check_size(self, size: int, rules: Rules) -> None:
        reads = self.arrays["summary"].shape[0]
        if size != reads:
            raise InvalidArgumentError(
                f"this policy reads observations of {reads} values (rules of "
                f"{_players_of(reads)}); rules {rules.name!r} give {size}"
            )

    def scores(self, seen: PlayerView) -> list[float]:
        """The network's score of each legal move, in the order of `seen.legal_moves()`.

        Raises:
            InvalidArgumentError: the view's observation is not the length the network
                reads (another number of players, or declarations).
            TypeError: `seen` is not a `PlayerView`.
        """
        return self._scores(seen, seen.legal_moves() if isinstance(seen, PlayerView) else ())

    def _scores(self, seen: PlayerView, moves: tuple[Move, ...]) -> list[float]:
        arrays = self.arrays
        seen_vector = np.asarray(observation(seen), dtype=np.float32)
        self._check_size(seen_vector.shape[0], seen.rules)
        summary = np.tanh(seen_vector @ arrays["summary"] + arrays["summary_bias"])
        facts = np.array([move_facts(seen, move) for move in moves], dtype=np.float32)
        hidden_weights = arrays["hidden"]
        shared = summary @ hidden_weights[MOVE_FACTS:] + arrays["hidden_bias"]
        hidden = np.tanh(facts.reshape(-1, MOVE_FACTS) @ hidden_weights[:MOVE_FACTS] + shared)
        scores = hidden @ arrays["score"] + arrays["score_bias"]
        return [float(score) for score in scores]

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The legal move of highest score."""
        if not isinstance(seen, PlayerView):
            raise TypeError(
                f"an agent chooses from a PlayerView, not a {type(seen).__name__}: "
                "give it scopa.view(state)"
            )
        moves = seen.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = self._scores(seen, moves)
        return moves[scores.index(max(scores))]
