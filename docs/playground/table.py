"""The Python side of the playground page: a hand or a match of Scopa at one table.

The page's script (`docs/javascripts/playground.js`) runs this module in Pyodide, in the
reader's browser, and calls the methods of one `Table`. Every method that changes the
table returns what the page shows, as JSON: the board drawn by `scopa.svg`, the legal
moves of the player to move, the plays of the hand, the hand's score once it is over and,
in a match, the totals and the brilli. Everything is played by the library: the page
itself knows no rule.

A table plays a match (a single hand is a match that stops after its first hand). Until
an opponent is set, `play` moves for whichever player is to move; with one, the computer
plays its seat (`computer_move`) and the reader the other. The computer is one of the
library's agents, but for the trained policy: `scopa.policy` computes with numpy, which
the page does not load, and `TrainedPolicy` plays the same network in pure Python.

The JSON holds data, not sentences, but for the library's own: the board, and the
explanations of the plays made and of the score by `scopa.explain` (of a move not yet
made, on request: `explain`), in the table's language (`set_language`); the page writes
the rest in the reader's language. `scopa.explain` is imported once a first move is
played, not before: the page's first board waits for nothing it does not show.

Examples:
    >>> table = Table()
    >>> shown = json.loads(table.new_hand("classic", 4))
    >>> [move["text"] for move in shown["moves"]][:2]
    ['6Dx6C', '7Dx1D+6C']
    >>> shown = json.loads(table.play("7Dx1D+6C"))
    >>> shown["last"]["card"], shown["last"]["captured"], shown["toMove"]
    ('7D', ['1D', '6C'], 0)
"""

from __future__ import annotations

import array
import ast
import contextlib
import functools
import io
import json
import math
import operator
import random
import sys
import time
import zipfile
from collections.abc import Callable
from importlib import resources
from typing import Any

import scopa
from scopa.agents import Agent, MatchAgent
from scopa.svg import state_svg

__all__ = ["OPPONENTS", "SHIPPED", "Table", "TrainedPolicy", "move_data", "read_policy"]

SHIPPED = "classic-policy.npz"
"""The file of the policy shipped with the library, in `scopa/data/` (`scopa.policy.SHIPPED`)."""
LAYERS = ("summary", "summary_bias", "hidden", "hidden_bias", "score", "score_bias")
"""The network's arrays, in the order `scopa.policy` names them."""
_NPY_START = b"\x93NUMPY\x01\x00"
"""How a `.npy` array of version 1.0 opens: its magic and version (then 2 bytes of length)."""

Layer = tuple[tuple[int, ...], list[float]]
"""An array of the network: its shape, and its values in row-major order."""


def read_policy(data: bytes) -> dict[str, Layer]:
    """The arrays of a policy file (`scopa.policy.save_parameters`), read without numpy.

    A `.npz` file is a zip of `.npy` arrays. Each opens with the magic (the byte 0x93, then
    `NUMPY`), a version, the length of its header (2 bytes, little-endian, in version 1.0)
    and the header, a dict literal of `descr`, `fortran_order` and `shape`. The network's
    arrays are little-endian float32 (`'<f4'`) in row-major order, as `save_parameters`
    writes them; the module `array` reads them.

    Raises:
        InvalidArgumentError: the file is not a policy file of that layout.
    """
    layers = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for name in LAYERS:
                layers[name] = _npy_floats(archive.read(f"{name}.npy"), name)
    except (zipfile.BadZipFile, KeyError) as error:
        raise scopa.InvalidArgumentError(f"not a policy file: {error}") from None
    return layers


def _npy_floats(member: bytes, name: str) -> Layer:
    """The shape and the values of a `.npy` array of little-endian float32."""
    begin = len(_NPY_START) + 2
    end = begin + int.from_bytes(member[len(_NPY_START) : begin], "little")
    header = None
    if member.startswith(_NPY_START):
        with contextlib.suppress(ValueError, SyntaxError):
            header = ast.literal_eval(member[begin:end].decode("latin-1"))
    if not (
        isinstance(header, dict)
        and header.get("descr") == "<f4"
        and header.get("fortran_order") is False
        and isinstance(header.get("shape"), tuple)
    ):
        raise scopa.InvalidArgumentError(
            f"the array {name!r} of the policy is not a .npy array of float32 in row-major order"
        )
    values = array.array("f")
    values.frombytes(member[end:])
    if sys.byteorder != "little":
        values.byteswap()
    shape = header["shape"]
    if len(values) != math.prod(shape):
        raise scopa.InvalidArgumentError(
            f"the array {name!r} of the policy holds {len(values):,} values, not {shape}"
        )
    return shape, values.tolist()


class TrainedPolicy:
    """A trained policy played in pure Python: the moves of `scopa.policy.PolicyAgent`.

    `PolicyAgent` computes with numpy, which the page does not load: this is the same
    network (see `scopa.policy`), evaluated in Python floats from the same file,
    `scopa/data/classic-policy.npz`, which the library's wheel carries. The observation
    is mostly zeros, and only its other entries are read: about 10,000 products a move.
    Python's floats are doubles where numpy computes in float32, so the scores differ from
    `PolicyAgent`'s by about a millionth: too little to change the move, the first legal
    move of the highest score, but between moves whose scores are closer still (moves of
    equal facts score the same, as there).

    Raises:
        InvalidArgumentError: the arrays are not of the shapes of one network.
    """

    def __init__(self, layers: dict[str, Layer]) -> None:
        from scopa.encoding import MOVE_FACTS

        (self.reads, width), summary = layers["summary"]
        wanted = {
            "summary_bias": (width,),
            "hidden": (MOVE_FACTS + width, width),
            "hidden_bias": (width,),
            "score": (width,),
            "score_bias": (),
        }
        for name, shape in wanted.items():
            if layers[name][0] != shape:
                raise scopa.InvalidArgumentError(
                    f"the array {name!r} of the policy is of shape {layers[name][0]}, not {shape}"
                )
        hidden = layers["hidden"][1]
        self.summary_rows = [summary[at : at + width] for at in range(0, len(summary), width)]
        self.summary_bias = layers["summary_bias"][1]
        rows = [hidden[at : at + width] for at in range(0, len(hidden), width)]
        self.fact_rows = rows[:MOVE_FACTS]
        self.summary_columns = [list(column) for column in zip(*rows[MOVE_FACTS:], strict=True)]
        self.hidden_bias = layers["hidden_bias"][1]
        self.score = layers["score"][1]
        (self.score_bias,) = layers["score_bias"][1]

    @classmethod
    @functools.cache
    def shipped(cls) -> TrainedPolicy:
        """The policy shipped with the library (`PolicyAgent()`'s), read once."""
        data = resources.files("scopa").joinpath("data", SHIPPED).read_bytes()
        return cls(read_policy(data))

    def check_rules(self, rules: scopa.Rules) -> None:
        """Check that the network reads the observations of these rules.

        Raises:
            InvalidArgumentError: their observations are not the length the network reads.
        """
        from scopa.encoding import observation_size

        size = observation_size(rules)
        if size != self.reads:
            declarations = ", with declarations" if rules.declarations else ""
            raise scopa.InvalidArgumentError(
                f"the trained policy cannot play {rules.name!r}: it reads observations of "
                f"{self.reads} values, and those of {rules.name!r} ({rules.players} "
                f"players{declarations}) have {size}"
            )

    def scores(self, seen: scopa.PlayerView) -> list[float]:
        """The network's score of each legal move, in the order of `seen.legal_moves()`."""
        from scopa.encoding import move_facts, observation

        values = observation(seen)
        if len(values) != self.reads:
            self.check_rules(seen.rules)
        summary = self.summary_bias
        for value, row in zip(values, self.summary_rows, strict=True):
            if value:
                summary = [
                    total + value * weight for total, weight in zip(summary, row, strict=True)
                ]
        summary = [math.tanh(total) for total in summary]
        shared = [
            bias + sum(map(operator.mul, summary, column))
            for bias, column in zip(self.hidden_bias, self.summary_columns, strict=True)
        ]
        scores = []
        for move in seen.legal_moves():
            hidden = shared
            for fact, row in zip(move_facts(seen, move), self.fact_rows, strict=True):
                if fact:
                    hidden = [
                        total + fact * weight for total, weight in zip(hidden, row, strict=True)
                    ]
            scores.append(
                self.score_bias + sum(map(operator.mul, map(math.tanh, hidden), self.score))
            )
        return scores

    def choose(self, seen: scopa.PlayerView, rng: random.Random) -> scopa.Move:
        """The first legal move of the highest score (`rng` is not drawn from)."""
        moves = seen.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = self.scores(seen)
        return moves[scores.index(max(scores))]


def _greedy() -> Agent:
    from scopa.agents import GreedyAgent

    return GreedyAgent()


def _policy() -> Agent:
    return TrainedPolicy.shipped()


def _search() -> Agent:
    from scopa.search import ISMCTSAgent

    return ISMCTSAgent(iterations=1000, match_aware=True)


OPPONENTS: dict[str, Callable[[], Agent]] = {
    "greedy": _greedy,
    "policy": _policy,
    "search": _search,
}
"""The computer's agents by name, as the `scopa play` command names them; imported when chosen."""


def explanation_data(explanation: scopa.explain.Explanation) -> dict[str, Any]:
    """An explanation as the page reads it: its summary, and each reason with its page."""
    return {
        "summary": explanation.summary,
        "reasons": [
            {"text": reason.text, "page": reason.page, "title": reason.title}
            for reason in explanation.reasons
        ],
    }


def move_data(move: scopa.Move, player: int | None = None) -> dict[str, Any]:
    """A move as the page reads it: its text, its card, what it takes, what it announces.

    Examples:
        >>> data = move_data(scopa.Move.parse("7Dx1D+6C"), player=1)
        >>> data["card"], data["captured"], data["declaration"], data["claim"], data["player"]
        ('7D', ['1D', '6C'], None, False, 1)
    """
    declaration = move.declaration
    data: dict[str, Any] = {
        "text": str(move),
        "card": str(move.card),
        "captured": [str(card) for card in sorted(move.captured)],
        "declaration": None if declaration is None else declaration.value,
        "points": 0 if declaration is None else declaration.points,
        "claim": move.claim,
    }
    if player is not None:
        data["player"] = player
    return data


class Table:
    """One table of the page: the match in play, the computer's seat, the hand shown."""

    def __init__(self) -> None:
        self.match: scopa.Match | None = None
        self.shown: scopa.GameState | None = None  # a finished hand, until the next is shown
        self.single = True  # the match stops after its first hand
        self.computer: Agent | None = None
        self.computer_name: str | None = None
        self.computer_seat = 1
        self.rng = random.Random()
        self.clock = False
        self.seed = 0
        self.lang = "en"
        self.plays: list[tuple[scopa.GameState, scopa.Move]] = []  # the shown hand's
        self.explained: dict[str, list[dict[str, Any]]] = {}  # their explanations, by language

    # ------------------------------------------------------------------ starting

    def new_hand(self, preset: str, seed: int) -> str:
        """Deal as `GameState.new(find_variant(preset), seed=seed)` does, with no opponent."""
        self._start(preset, seed, first_dealer=0, single=True)
        self.set_opponent(None)
        return self.view()

    def new_game(
        self, preset: str, seed: int, opponent: str, whole_match: bool, clock: bool
    ) -> str:
        """Start a hand, or a whole match, against the computer; the reader leads the first hand.

        The reader sits at player 0 and the computer plays player 1, who deals first. With
        `clock`, under rules with a time limit on a move (tretre's 30 seconds), the page
        times the reader's moves and a move over the limit loses the match.
        """
        self._start(preset, seed, first_dealer=1, single=not whole_match)
        self.set_opponent(opponent)
        self.clock = clock and self._rules().move_time_limit is not None
        return self.view()

    def _start(self, preset: str, seed: int, *, first_dealer: int, single: bool) -> None:
        rules = scopa.find_variant(preset)
        if rules.players != 2:
            raise scopa.InvalidArgumentError(
                f"the playground plays the presets for two players, not {preset!r}"
            )
        self.match = scopa.Match.new(rules, seed=seed, first_dealer=first_dealer)
        self.shown = None
        self.plays, self.explained = [], {}
        self.single = single
        self.seed = seed
        self.rng = random.Random(seed)
        self.clock = False

    def set_language(self, lang: str) -> str:
        """Draw the board and explain the moves in `lang` (`en` or `it`).

        Raises:
            InvalidArgumentError: the library does not write in `lang`.
        """
        if lang not in scopa.LANGUAGES:
            raise scopa.InvalidArgumentError(
                f"no language {lang!r}: one of {', '.join(scopa.LANGUAGES)}"
            )
        self.lang = lang
        return self.view()

    def set_opponent(self, name: str | None, seat: int = 1) -> str:
        """Let the computer play `seat` with the agent `name`; `None` takes it away.

        Raises:
            InvalidArgumentError: there is no such agent, or no such seat.
        """
        if seat not in (0, 1) or isinstance(seat, bool):
            raise scopa.InvalidArgumentError(f"the computer plays seat 0 or 1, not {seat!r}")
        if name is None:
            self.computer, self.computer_name = None, None
        elif name not in OPPONENTS:
            raise scopa.InvalidArgumentError(f"no opponent {name!r}: one of {', '.join(OPPONENTS)}")
        else:
            self.computer, self.computer_name = OPPONENTS[name](), name
            self.computer_seat = seat
            self._check_rules()
        return self.view()

    def _check_rules(self) -> None:
        check = getattr(self.computer, "check_rules", None)
        if check is not None:
            check(self._rules())

    # ------------------------------------------------------------------ playing

    def legal_moves(self) -> list[str]:
        """The legal moves' texts, in the order of `legal_moves()` (none once the hand is over)."""
        state = self._state()
        return [] if self.shown is not None else [str(move) for move in state.legal_moves()]

    def explain(self, text: str) -> str:
        """Why the move `text` is legal or refused for the player to move, as JSON.

        The library's explanation (`scopa.explain.explain_move`), in the table's language:
        its summary, and each reason with the page that states its rule.

        Raises:
            IllegalMoveError: the hand is over.
            NotationError: the text is not a move.
        """
        if self.shown is not None:
            raise scopa.IllegalMoveError("the hand is over")
        explanation = scopa.explain.explain_move(self._state(), text, lang=self.lang)
        return json.dumps(explanation_data(explanation))

    def play(self, text: str, elapsed: float | None = None) -> str:
        """Play a move for the player to move (not the computer), `elapsed` seconds after the last.

        Raises:
            IllegalMoveError: it is the computer's turn, or the move is not legal.
            NotationError: the text is not a move.
        """
        match = self._playing()
        if self._computer_to_move():
            raise scopa.IllegalMoveError("it is the computer's turn")
        move = match.state.parse_move(text)
        self._apply(move, elapsed if self.clock else None)
        return self.view()

    def computer_move(self) -> str:
        """The computer plays its move.

        Raises:
            IllegalMoveError: it is not the computer's turn.
        """
        match = self._playing()
        if self.computer is None or not self._computer_to_move():
            raise scopa.IllegalMoveError("it is not the computer's turn")
        seen = scopa.view(match.state)
        start = time.perf_counter()
        if isinstance(self.computer, MatchAgent):
            move = self.computer.choose_in_match(seen, match.totals, self.rng)
        else:
            move = self.computer.choose(seen, self.rng)
        self._apply(move, time.perf_counter() - start if self.clock else None)
        return self.view()

    def timeout(self) -> str:
        """The player to move ran out of time: they lose the match (`Match.timeout`)."""
        self.match = self._playing().timeout()
        return self.view()

    def next_hand(self) -> str:
        """Show the hand the match has dealt after the finished one."""
        if self.shown is None or self.single or self.match is None or self.match.is_over:
            raise scopa.IllegalMoveError("there is no next hand to show")
        self.shown = None
        self.plays, self.explained = [], {}
        return self.view()

    def hand_score(self) -> list[int]:
        """Each side's points of the finished hand.

        Raises:
            IllegalMoveError: the hand is not over.
        """
        if self.shown is None:
            raise scopa.IllegalMoveError("the hand is not over")
        return list(self.shown.hand_score().points)

    def _apply(self, move: scopa.Move, elapsed: float | None) -> None:
        match = self._playing()
        after = match.state.apply(move)
        self.match = match.apply(move, elapsed=elapsed)
        if self.match.abandonment is None:
            self.plays.append((match.state, move))
        if after.is_terminal and self.match.abandonment is None:
            self.shown = after

    def _playing(self) -> scopa.Match:
        match = self.match
        if match is None:
            raise scopa.IllegalMoveError("no hand is dealt: start a game first")
        if self.shown is not None or match.is_over:
            raise scopa.IllegalMoveError("the hand is over")
        return match

    # ------------------------------------------------------------------ reading

    def _rules(self) -> scopa.Rules:
        if self.match is None:
            raise scopa.IllegalMoveError("no hand is dealt: start a game first")
        return self.match.rules

    def _state(self) -> scopa.GameState:
        if self.match is None:
            raise scopa.IllegalMoveError("no hand is dealt: start a game first")
        return self.shown if self.shown is not None else self.match.state

    def _computer_to_move(self) -> bool:
        state = self._state()
        return (
            self.computer is not None
            and self.shown is None
            and state.current_player == self.computer_seat
            and not self._over()
        )

    def _over(self) -> bool:
        match = self.match
        return match is not None and (match.is_over or (self.single and self.shown is not None))

    def view(self) -> str:
        """What the page shows, as JSON (see the module's documentation)."""
        match = self.match
        if match is None:
            return json.dumps(None)
        state = self._state()
        rules = match.rules
        reader = None if self.computer is None else 1 - self.computer_seat
        finished = self.shown is not None or match.is_over
        moves = [] if finished or self._computer_to_move() else state.legal_moves()
        return json.dumps(
            {
                "preset": rules.name,
                "seed": self.seed,
                "svg": state_svg(state, reader, lang=self.lang),
                "toMove": None if finished else state.current_player,
                "reader": reader,
                "computer": self.computer_name,
                "computerToMove": self._computer_to_move(),
                "moves": [move_data(move) for move in moves],
                "history": [
                    {**move_data(move, player), "why": why}
                    for (player, move), why in zip(state.history, self._explained(), strict=True)
                ],
                "last": move_data(*reversed(state.history[-1])) if state.history else None,
                "score": self._score(state) if state.is_terminal else None,
                "lang": self.lang,
                "match": None if self.single else self._match(match),
                "over": self._over(),
                "outcome": self._outcome(match),
                "clock": rules.move_time_limit if self.clock else None,
                "nextHand": self.shown is not None and not self._over(),
            }
        )

    def _explained(self) -> list[dict[str, Any]]:
        """The explanation of each play of the shown hand, in the table's language."""
        done = self.explained.setdefault(self.lang, [])
        for before, move in self.plays[len(done) :]:
            explanation = scopa.explain.explain_move(before, move, lang=self.lang)
            done.append(explanation_data(explanation))
        return done

    def _score(self, state: scopa.GameState) -> dict[str, Any]:
        score = state.hand_score()
        return {
            "why": explanation_data(scopa.explain.explain_score(state, lang=self.lang)),
            "rows": [
                {"name": category.name, "points": category.points, "figures": category.figures}
                for category in score
            ],
            "points": score.points,
        }

    def _match(self, match: scopa.Match) -> dict[str, Any]:
        settlement, stakes = match.settlement, match.rules.stakes
        brilli = None
        if settlement is not None and isinstance(stakes, scopa.BrilliEconomy):
            brilli = [stakes.format(share) for share in settlement]
        return {
            "hand": len(match.hands) if self.shown is not None else match.hand_number,
            "totals": match.totals,
            "target": match.rules.target,
            "brilli": brilli,
        }

    def _outcome(self, match: scopa.Match) -> dict[str, Any] | None:
        """How the game ended, once it is over: `kind`, the `winner` side and the `points`.

        `kind` is `timeout` or `left` (the `player` who left the match), `match` (won on
        the totals, in `points`) or `hand` (a single hand, its `points`; no winner on a
        draw).
        """
        if not self._over():
            return None
        gone = match.abandonment
        if gone is not None:
            kind = "timeout" if gone.reason is scopa.AbandonReason.TIMEOUT else "left"
            return {"kind": kind, "player": gone.player, "winner": match.winner}
        if self.single:
            points = self._state().hand_score().points
            best = max(points)
            leaders = [side for side, side_points in enumerate(points) if side_points == best]
            winner = leaders[0] if len(leaders) == 1 else None
            return {"kind": "hand", "winner": winner, "points": points}
        return {"kind": "match", "winner": match.winner, "points": match.totals}
