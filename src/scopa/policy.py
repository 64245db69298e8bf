"""A trained policy as an agent: a small network that scores each legal move, run with numpy.

It needs numpy, which the extra `policy` installs: from a checkout of the source,
`python -m pip install ".[policy]"` in its folder; once the package is published,
`python -m pip install "scopa[policy]"`. [`PolicyAgent`][scopa.policy.PolicyAgent] plays
the legal move its network scores best. The network reads the
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

import ast
import functools
import math
import os
import random
import struct
import zipfile
import zlib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import IO, Any, Final

import attrs

from scopa._extras import needs_extra

try:
    import numpy as np
except ImportError:
    raise ImportError(needs_extra("scopa.policy", "numpy", "policy")) from None

from scopa._checks import check_type, quote
from scopa.cards import DECK
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

__all__ = ["FORMAT", "MOST_WIDTH", "SHIPPED", "PolicyAgent", "load_parameters", "save_parameters"]

FORMAT: Final = 1
"""The version of the parameter file's layout."""
SHIPPED: Final = "classic-policy.npz"
"""The file name of the policy shipped in the package (`scopa/data/`)."""
_LAYERS: Final = ("summary", "summary_bias", "hidden", "hidden_bias", "score", "score_bias")
MOST_WIDTH: Final = 1024
"""The widest network a policy may have (its hidden units), in memory and in a file."""
_SIZES: Final = {
    ObservationLayout.of(players, declarations).size: (players, declarations)
    for players in range(2, len(DECK) + 1)  # at most one player per card
    for declarations in (False, True)
}
"""The length of each observation some rules give, with their players and declarations."""
_NPY_MAGIC: Final = b"\x93NUMPY"
_NPY_HEADER_LIMIT: Final = 1024
"""The longest `.npy` header read (an array of the format has one of about 120 bytes)."""
_FILE_FLOATS: Final = frozenset({2, 4, 8})
"""The sizes in bytes of the floats a file may store (float16, float32, float64)."""

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


def _summary_problem(shape: tuple[int, ...]) -> str | None:
    """What is wrong with the shape of a `summary` array, if anything."""
    if len(shape) != 2:
        return f"'summary' must be a matrix, not of shape {quote(shape)}"
    rows, width = shape
    if rows not in _SIZES:
        return (
            f"'summary' must have a row for each value of an observation of some rules "
            f"(172 for two players without declarations), not {quote(rows)}"
        )
    if not 1 <= width <= MOST_WIDTH:
        return f"'summary' must have 1 to {MOST_WIDTH:,} columns (the width), not {quote(width)}"
    return None


def _shape_problem(name: str, shape: tuple[int, ...], wanted: tuple[int, ...]) -> str | None:
    """What is wrong with the shape of the array `name`, if anything."""
    if name == "summary":
        return _summary_problem(shape)
    if shape != wanted:
        return f"{name!r} must be floats of shape {wanted}, not of shape {quote(shape)}"
    return None


def _checked(arrays: Mapping[str, Any], where: str) -> dict[str, np.ndarray]:
    """The network's arrays as float32, once their names, shapes and values are checked.

    Raises:
        InvalidArgumentError: an array is missing or has the wrong shape, or a value is
            not finite as a float32.
        TypeError: `arrays` is not a mapping.
    """
    check_type(arrays, Mapping, "a policy's arrays")
    missing = [name for name in _LAYERS if name not in arrays]
    if missing:
        raise InvalidArgumentError(f"{where} lacks the array {missing[0]!r} of a policy")
    given = {name: _as_array(arrays[name], name, where) for name in _LAYERS}
    problem = _summary_problem(given["summary"].shape)
    if problem:
        raise InvalidArgumentError(f"{where}: {problem}")
    wanted = _shapes(*given["summary"].shape)
    checked = {}
    for name, array in given.items():
        if array.shape != wanted[name] or array.dtype.kind != "f":
            raise InvalidArgumentError(
                f"{where}: {name!r} must be floats of shape {wanted[name]}, "
                f"not {array.dtype} {array.shape}"
            )
        with np.errstate(over="ignore", invalid="ignore"):
            converted = array.astype(np.float32)
        if not np.all(np.isfinite(converted)):
            raise InvalidArgumentError(
                f"{where}: {name!r} holds a value that is not finite as a float32 "
                "(NaN, infinite, or beyond ±3.4e38)"
            )
        checked[name] = converted
    return checked


def _as_array(value: object, name: str, where: str) -> np.ndarray:
    """`value` as a numpy array."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as error:
        raise InvalidArgumentError(f"{where}: {name!r} is not an array: {error}") from None


def save_parameters(path: Path | IO[bytes], arrays: Mapping[str, Any], rules: Rules) -> None:
    """Write a policy's arrays (and the rules it was trained on) to a `.npz` file.

    Arrays other than the network's (a value head, for instance) are left out. The arrays
    are written as float32, so a value that is finite only in float64 (`1e300`) is refused
    here rather than written as infinity.

    Raises:
        InvalidArgumentError: an array is missing or of the wrong shape, a value is not
            finite as a float32, or the network is wider than `MOST_WIDTH`.
        TypeError: `arrays` is not a mapping.
    """
    checked = _checked(arrays, "the arrays given")
    stored: dict[str, Any] = {"format": np.array(FORMAT), "variant": np.array(rules.name)}
    stored.update(checked)
    np.savez_compressed(path, **stored)


def load_parameters(path: Path | IO[bytes]) -> dict[str, np.ndarray]:
    """Read a policy's arrays from a `.npz` file written by `save_parameters`.

    The file may come from anyone: only the members the format names are read (`format`
    and the six arrays; others are never opened), each as a plain `.npy` array whose
    header is checked (an integer `format` of 1; floats of 16, 32 or 64 bits of the shapes
    of a network at most `MOST_WIDTH` wide, reading the observations of some rules) before
    a byte of its data is read, and only as many bytes as that array holds are
    decompressed. Nothing is unpickled. The values must be finite as float32.

    Raises:
        InvalidArgumentError: the file is not a policy file of this format (not a `.npz`,
            truncated, a member missing, compressed otherwise than by deflate, or a header,
            a shape, a type or a value that is not a policy's).
        FileNotFoundError: there is no such file.
    """
    if isinstance(path, (str, os.PathLike)):
        with open(path, "rb") as file:
            return _read(file, quote(os.fspath(path)))
    return _read(path, "the file")


_FILE_ERRORS: Final = (
    OSError,
    EOFError,
    ValueError,
    NotImplementedError,  # a zip feature the zipfile module does not read
    zipfile.BadZipFile,
    zlib.error,
)


def _read(file: IO[bytes], where: str) -> dict[str, np.ndarray]:
    """The checked arrays of an open `.npz` file."""
    try:
        begin = file.tell()
        start = file.read(len(_NPY_MAGIC))
        file.seek(begin)
        archive = zipfile.ZipFile(file)
    except zipfile.BadZipFile:
        kind = "a single array (.npy)" if start == _NPY_MAGIC else "not a zip archive"
        raise InvalidArgumentError(f"{where} is {kind}, not a policy file (.npz)") from None
    except _FILE_ERRORS as error:
        raise InvalidArgumentError(f"{where} is not a policy file (.npz): {error}") from None
    with archive:
        version = _member(archive, "format", where, _format_problem)
        if version.item() != FORMAT:
            raise InvalidArgumentError(f"{where} is not a policy file of format {FORMAT}")
        summary = _member(archive, "summary", where, _layer_problem("summary", ()))
        wanted = _shapes(*summary.shape)
        arrays = {"summary": summary}
        for name in _LAYERS[1:]:
            arrays[name] = _member(archive, name, where, _layer_problem(name, wanted[name]))
    return _checked(arrays, where)


Problem = Callable[[tuple[int, ...], np.dtype[Any]], str | None]


def _format_problem(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str | None:
    """What is wrong with the header of the `format` member, if anything."""
    if shape != () or dtype.kind not in "iu":
        return f"'format' must be the integer {FORMAT}, not {dtype} of shape {shape}"
    return None


def _layer_problem(name: str, wanted: tuple[int, ...]) -> Problem:
    """What is wrong with the header of the array `name` of a network, if anything."""

    def problem(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str | None:
        if dtype.kind != "f" or dtype.itemsize not in _FILE_FLOATS:
            return f"{name!r} must be floats of 16, 32 or 64 bits, not {dtype}"
        return _shape_problem(name, shape, wanted)

    return problem


def _member(archive: zipfile.ZipFile, name: str, where: str, problem: Problem) -> np.ndarray:
    """The array of the member `name.npy`, read once its header passes `problem`.

    Raises:
        InvalidArgumentError: the member is missing, encrypted, compressed by a method
            other than deflate, not a plain `.npy` array, refused by `problem`, of another
            size than its header says, or damaged.
    """
    try:
        info = archive.getinfo(f"{name}.npy")
    except KeyError:
        raise InvalidArgumentError(f"{where} lacks the array {name!r} of a policy") from None
    if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise InvalidArgumentError(
            f"{where}: the array {name!r} is encrypted or compressed otherwise than by deflate"
        )
    try:
        with archive.open(info) as stream:
            header, shape, fortran, dtype = _npy_header(stream, name, where)
            refused = problem(shape, dtype)
            if refused:
                raise InvalidArgumentError(f"{where}: {refused}")
            size = math.prod(shape) * dtype.itemsize
            if info.file_size != header + size:
                raise InvalidArgumentError(
                    f"{where}: the array {name!r} holds {info.file_size:,} bytes, not the "
                    f"{header + size:,} its header gives"
                )
            data = stream.read(size)
    except InvalidArgumentError:
        raise
    except _FILE_ERRORS as error:
        raise InvalidArgumentError(
            f"{where} is not a policy file (.npz): the array {name!r}: {error}"
        ) from None
    if len(data) != size:
        raise InvalidArgumentError(f"{where} is not a policy file (.npz): {name!r} is truncated")
    return np.frombuffer(data, dtype).reshape(shape, order="F" if fortran else "C")


def _npy_header(
    stream: IO[bytes], name: str, where: str
) -> tuple[int, tuple[int, ...], bool, np.dtype[Any]]:
    """The length of a `.npy` array's header, and its shape, Fortran order and type.

    The `.npy` format of numpy: the magic (the byte 0x93, then `NUMPY`), a major and a
    minor version, the length of the header (2 bytes in version 1.0, 4 in 2.0;
    little-endian), then the header, a Python dict literal with the keys `descr`,
    `fortran_order` and `shape`.
    Only a plain type (`descr` a string such as `'<f4'`) is read: no structured type, no
    Python object.

    Raises:
        InvalidArgumentError: the header is not such a header, or is longer than
            `_NPY_HEADER_LIMIT` bytes.
    """

    def refuse(why: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"{where}: the array {name!r} is not a .npy array: {why}")

    start = stream.read(len(_NPY_MAGIC) + 2)
    if start[: len(_NPY_MAGIC)] != _NPY_MAGIC or len(start) != len(_NPY_MAGIC) + 2:
        raise refuse("no .npy magic")
    version = tuple(start[len(_NPY_MAGIC) :])
    if version not in ((1, 0), (2, 0)):
        raise refuse(f"version {version[0]}.{version[1]}")
    length_format = "<H" if version == (1, 0) else "<I"
    length_bytes = stream.read(struct.calcsize(length_format))
    if len(length_bytes) != struct.calcsize(length_format):
        raise refuse("truncated")
    (length,) = struct.unpack(length_format, length_bytes)
    if length > _NPY_HEADER_LIMIT:
        raise refuse(f"a header of {length:,} bytes")
    text = stream.read(length)
    if len(text) != length:
        raise refuse("truncated")
    try:
        header = ast.literal_eval(text.decode("latin-1"))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise refuse("a header that is not a dict literal") from None
    if not isinstance(header, dict) or set(header) != {"descr", "fortran_order", "shape"}:
        raise refuse("a header without exactly descr, fortran_order and shape")
    descr, fortran, shape = header["descr"], header["fortran_order"], header["shape"]
    if not isinstance(fortran, bool):
        raise refuse("fortran_order is not True or False")
    if not isinstance(shape, tuple) or not all(
        isinstance(side, int) and not isinstance(side, bool) and side >= 0 for side in shape
    ):
        raise refuse(f"a shape that is not a tuple of sizes: {quote(shape)}")
    if not isinstance(descr, str):
        raise refuse(f"a type that is not a plain type: {quote(descr)}")
    try:
        dtype = np.dtype(descr)
    except (TypeError, ValueError, SyntaxError):
        raise refuse(f"an unknown type {quote(descr)}") from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise refuse(f"a type that is not a plain type: {quote(descr)}")
    return len(start) + len(length_bytes) + length, shape, fortran, dtype


_NUMBER_WORDS: Final = ("two", "three", "four", "five", "six")


def _rules_in_words(players: int, declarations: bool) -> str:
    """Rules of that many players, with or without declarations, in words."""
    number = _NUMBER_WORDS[players - 2] if players - 2 < len(_NUMBER_WORDS) else str(players)
    return f"{number}-player rules {'with' if declarations else 'without'} declarations"


@functools.lru_cache(maxsize=1)
def _shipped() -> dict[str, np.ndarray]:
    """The arrays of the shipped policy, read once."""
    with resources.files("scopa").joinpath("data", SHIPPED).open("rb") as file:
        return load_parameters(file)


@attrs.frozen(eq=False, repr=False)
class PolicyAgent:
    """Plays the legal move that a trained network scores best; numpy only.

    `PolicyAgent()` plays the shipped policy; [`load`][scopa.policy.PolicyAgent.load] reads
    another. Ties go to the first move in the order of
    [`legal_moves`][scopa.GameState.legal_moves], so the agent never draws from `rng`; moves
    of equal [`move_facts`][scopa.encoding.move_facts], which the network cannot tell apart,
    always tie.

    Its `repr` is `PolicyAgent()` for the shipped policy, which evaluates back to it, and
    otherwise a short description without the weights, such as
    `<PolicyAgent: a network of width 4 for two-player rules without declarations>`.

    Raises:
        InvalidArgumentError: the arrays are not a policy's (see `load_parameters`).
    """

    arrays: Mapping[str, np.ndarray] = attrs.field(  # type: ignore[var-annotated]
        factory=_shipped, converter=lambda given: _checked(given, "the policy's arrays")
    )
    """The network's arrays, by name (see the module documentation)."""

    def __repr__(self) -> str:
        if self._is_shipped():
            return "PolicyAgent()"
        rows, width = self.arrays["summary"].shape
        return f"<PolicyAgent: a network of width {width} for {_rules_in_words(*_SIZES[rows])}>"

    def _is_shipped(self) -> bool:
        """Whether the agent's network is the shipped policy's."""
        try:
            shipped = _shipped()
        except OSError:  # a package installed without its data
            return False
        return all(
            self.arrays[name].shape == shipped[name].shape
            and np.array_equal(self.arrays[name], shipped[name])
            for name in _LAYERS
        )

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
                f"this policy plays {_rules_in_words(*_SIZES[reads])} (it reads observations "
                f"of {reads} values); rules {rules.name!r} are "
                f"{_rules_in_words(rules.players, rules.declarations)} and give {size}"
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
        # Moves of the same facts are scored once: the network cannot tell them apart, and
        # a matrix product may round equal rows apart, so that the first of them would not
        # always win the tie.
        rows = [tuple(move_facts(seen, move)) for move in moves]
        distinct = {row: place for place, row in enumerate(dict.fromkeys(rows))}
        facts = np.array(list(distinct), dtype=np.float32)
        hidden_weights = arrays["hidden"]
        shared = summary @ hidden_weights[MOVE_FACTS:] + arrays["hidden_bias"]
        hidden = np.tanh(facts.reshape(-1, MOVE_FACTS) @ hidden_weights[:MOVE_FACTS] + shared)
        scores = hidden @ arrays["score"] + arrays["score_bias"]
        return [float(scores[distinct[row]]) for row in rows]

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
