"""A long-running fuzzing session over the readers of `scopa`, run by hand.

From the repository root, with the test dependencies installed (see fuzz/README.md):

    python fuzz/fuzz_readers.py -max_total_time=60            # atheris if installed
    python fuzz/fuzz_readers.py -max_total_time=60 -plain     # a plain mutation loop

The readers are those of tests/test_fuzz.py: `Card.parse`, `Move.parse`,
`GameState.parse_move`, `GameState.from_text`, `Deck.parse`, `read_record`,
`rules_from_data` (on JSON text) and `GameState.from_position` (cards grouped by the input's
bytes). An input is a reader number, a context number (which preset or position) and a
text. A reader may refuse an input with a `scopa.ScopaError`; anything else it raises, and
any broken invariant of what it returns (checked by tests/validator.py), is a crash.

Options (the others go to libFuzzer, e.g. corpus directories or `-timeout=10`):

- `-max_total_time=N`: stop after N seconds (default 60) and print the figures.
- `-plain`: the plain random-mutation loop, even with atheris installed.
- `-stop_on_crash`: stop at the first crash (with atheris: libFuzzer keeps the input).
- `-crash_dir=DIR`: where crashing inputs are saved (default: a temporary directory).
- `-seed=N`: the seed of the plain loop and of the seed corpus.

Without atheris, or with `-plain`, the loop mutates the seed inputs and the inputs that
found new crashes, with the mutations of tests/test_fuzz.py.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]


def _load_atheris() -> ModuleType | None:
    try:
        return importlib.import_module("atheris")
    except ImportError:
        return None


atheris = None if "-plain" in sys.argv else _load_atheris()

if atheris is not None:  # instrument the library for coverage feedback
    with atheris.instrument_imports(include=["scopa"]):
        import scopa
else:
    import scopa

from scopa import DECK, Card, Deck, GameState, Match, Move, Rules, ScopaError  # noqa: E402
from scopa.records import read_record, rules_from_data, rules_to_data, write_record  # noqa: E402
from tests.validator import check_match, check_rules, check_state  # noqa: E402

PRESETS = [scopa.find_variant(name) for name in scopa.variant_names()]
SLOW_SECONDS = 2.0


# ----------------------------------------------------------------------------- contexts


def _positions(rng: random.Random) -> list[GameState]:
    """Positions of random play, a few per preset, for `parse_move`."""
    found = []
    for rules in PRESETS:
        for _ in range(3):
            state = GameState.new(rules, seed=rng.getrandbits(64))
            for _ in range(rng.randrange(rules.plays_per_hand)):
                moves = state.legal_moves()
                state = state.apply(moves[rng.randrange(len(moves))])
            found.append(state)
    return found


POSITIONS = _positions(random.Random(1))


# ----------------------------------------------------------------------------- readers


def read_card(text: str, context: int) -> None:
    """`Card.parse`: a card that reads back, and that `Move.parse` reads the same."""
    card = Card.parse(text)
    assert card in DECK
    assert Card.parse(str(card)) == card
    assert Move.parse(text) == Move(card), "Card.parse and Move.parse disagree"


def read_move(text: str, context: int) -> None:
    """`Move.parse`: a move that reads back; a card laid down is what `Card.parse` reads."""
    move = Move.parse(text)
    assert Move.parse(str(move)) == move
    assert move.card not in move.captured
    if not move.captured:
        try:
            card = Card.parse(text)
        except ScopaError:
            raise AssertionError(f"Move.parse reads {text!r} as {move}, Card.parse not") from None
        assert card == move.card


def read_short_move(text: str, context: int) -> None:
    """`GameState.parse_move` in one of the positions: a legal move, the state unchanged."""
    state = POSITIONS[context % len(POSITIONS)]
    before = state.to_text()
    try:
        move = state.parse_move(text)
    finally:
        assert state.to_text() == before
    assert move in state.legal_moves()


def read_position(text: str, context: int) -> None:
    """`GameState.from_text` under one of the presets: a valid position."""
    check_state(GameState.from_text(PRESETS[context % len(PRESETS)], text))


def read_code(text: str, context: int) -> None:
    """`Deck.parse`: the 40 cards, and a code that reads back."""
    deck = Deck.parse(text)
    assert set(deck) == set(DECK)
    assert Deck.parse(str(deck)) == deck


def read_a_record(text: str, context: int) -> None:
    """`read_record`: a valid match."""
    check_match(read_record(text))


def read_rules(text: str, context: int) -> None:
    """`rules_from_data` on the text read as JSON: rules that work."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON: nothing for rules_from_data to read
        return
    check_rules(rules_from_data(data))


def read_groups(text: str, context: int) -> None:
    """`from_position` with the cards put in groups by the bytes of the text."""
    rules = PRESETS[context % len(PRESETS)]
    n = rules.players
    raw = text.encode("utf-8", "surrogatepass") + bytes(50)
    groups: list[list[Card]] = [[] for _ in range(2 * n + 2)]
    for card, byte in zip(DECK, raw, strict=False):
        groups[byte % len(groups)].append(card)
    extra = raw[40:50]

    def player(byte: int) -> int | None:
        return None if byte >= 0x80 else byte % (n + 1) - (byte >> 6 & 1)

    state = GameState.from_position(
        rules,
        hands=groups[:n],
        table=groups[n],
        stock=groups[n + 1],
        piles=groups[n + 2 :],
        dealer=extra[0] % n,
        current_player=player(extra[1]),
        last_capturer=player(extra[2]),
        scope=[b % 3 for b in extra[3 : 3 + n]] if extra[9] & 1 else None,
    )
    check_state(state)


READERS: list[tuple[str, Callable[[str, int], None]]] = [
    ("Card.parse", read_card),
    ("Move.parse", read_move),
    ("GameState.parse_move", read_short_move),
    ("GameState.from_text", read_position),
    ("Deck.parse", read_code),
    ("read_record", read_a_record),
    ("rules_from_data", read_rules),
    ("GameState.from_position", read_groups),
]


# ----------------------------------------------------------------------------- inputs


def encode(reader: int, context: int, text: str) -> bytes:
    """An input: the reader's number, the context's number and the text in UTF-8."""
    return bytes([reader, context % 256]) + text.encode("utf-8", "surrogatepass")


def decode(data: bytes) -> tuple[int, int, str]:
    """The reader, the context and the text of an input (any bytes are an input)."""
    if len(data) < 2:
        data += bytes(2 - len(data))
    return data[0] % len(READERS), data[1], data[2:].decode("utf-8", "replace")


def seed_inputs(rng: random.Random) -> list[bytes]:
    """Valid inputs of every reader: the corpus the mutations start from."""
    found = []
    for card in DECK:
        found.append(encode(0, 0, str(card)))
        found.append(encode(0, 0, f"{'AFCRJQK'[card.index % 7]}{'dhsc'[card.suit]}"))
    for i, state in enumerate(POSITIONS):
        for move in state.legal_moves()[:4]:
            found.append(encode(1, 0, str(move)))
            found.append(encode(2, i, str(move.card)))
        found.append(encode(3, PRESETS.index(state.rules), state.to_text()))
        found.append(encode(7, PRESETS.index(state.rules), ""))
    for _ in range(10):
        found.append(encode(4, 0, Deck.shuffled(rng.getrandbits(64)).code))
    for i, rules in enumerate(PRESETS):
        match = Match.new(rules, seed=rng.getrandbits(64))
        for _ in range(rng.randrange(1, 120)):
            if match.is_over:
                break
            moves = match.state.legal_moves()
            match = match.apply(moves[rng.randrange(len(moves))])
        found.append(encode(5, i, write_record(match)))
        found.append(encode(6, i, json.dumps(rules_to_data(rules))))
    for rules in rich_rules():
        found.append(encode(6, 0, json.dumps(rules_to_data(rules))))
    return found


def rich_rules() -> list[Rules]:
    """Rules with every kind of rule part changed, so that the data has all their shapes."""
    tretre = scopa.find_variant("tretre")
    classic = scopa.find_variant("classic")
    bonuses = classic.scoring.with_component(scopa.Napola(True)).with_component(scopa.ReBello())
    return [
        attrs.evolve(
            tretre,
            stakes=scopa.BrilliEconomy(hand_pot=Fraction(25, 2), paid_hands=2),
            move_time_limit=12.5,
        ),
        attrs.evolve(
            classic, scoring=bonuses, target=21, capture_priority=scopa.CapturePriority.FREE
        ),
        attrs.evolve(
            classic,
            scoring=scopa.ScoringRules(
                (
                    scopa.Scope(2),
                    scopa.Carte(21),
                    scopa.Denari(6),
                    scopa.Primiera(
                        scopa.PrimieraTable.FACE_VALUE_FIGURES,
                        scopa.MissingSuit.NULL,
                        scopa.PrimieraRule.MOST_SEVENS_CASCADE,
                    ),
                )
            ),
        ),
        attrs.evolve(classic, players=4, sides=2, hand_size=9, misdeal=scopa.MisdealRule.CIRULLA),
    ]


LOOKALIKES = {
    "0": "\u2070\u0660",
    "1": "\u00b9\u0661",
    "2": "\u00b2\u0662",
    "3": "\u00b3\u0663",
    "K": "\u212a",
    "k": "\u212a",
    "S": "\u017f",
    "I": "\u0130\u0131",
    " ": "\u00a0\x1c",
}
SPECIAL = '0123456789DCSBHdcsbhAFRJQKx+-/ \n#{}[]":,.e♦♥♠♣\u00b2\u212a\u017f\u0663'
TOKENS = ["-", "/", "x", "+", "0", "1", "10", "99", "-1", "\u00b2", "9" * 30, "7D", "null"]
TOKENS += ["play", "hand", "score", "abandon", "result", "deal", "dealer", "{}", "[]"]


def mutate_text(text: str, rng: random.Random) -> str:
    """One to six character, span, token, line and lookalike edits."""
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(11)
        at = rng.randint(0, len(text))
        char = rng.choice(SPECIAL) if rng.random() < 0.8 else chr(rng.randrange(0x20, 0x2FFF))
        if op == 0:
            text = text[:at] + char + text[at:]
        elif op == 1:
            text = text[:at] + text[at + 1 :]
        elif op == 2:
            text = text[:at] + char + text[at + 1 :]
        elif op == 3:
            text = text[:at] + text[at + rng.randint(1, 12) :]
        elif op == 4:
            start = rng.randint(0, len(text))
            text = text[:at] + text[start : start + rng.randint(1, 24)] + text[at:]
        elif op == 5:
            words = text.split(" ")
            words[at % len(words)] = rng.choice(TOKENS)
            text = " ".join(words)
        elif op in (6, 7, 8):
            lines = text.split("\n")
            k = at % len(lines)
            if op == 6:
                lines[k : k + 1] = [] if rng.random() < 0.5 else [lines[k], lines[k]]
            elif op == 7:
                j = rng.randrange(len(lines))
                lines[k], lines[j] = lines[j], lines[k]
            else:
                lines = lines[:k]
            text = "\n".join(lines)
        elif op == 9:
            spots = [i for i in range(at, len(text)) if text[i] in LOOKALIKES]
            if spots:
                i = spots[0]
                text = text[:i] + rng.choice(LOOKALIKES[text[i]]) + text[i + 1 :]
        else:
            i = text.find("10", at)
            if i >= 0:
                text = text[:i] + "\u212a" + text[i + 2 :]
    return text


def mutate(data: bytes, rng: random.Random) -> bytes:
    """An input with its text mutated (and sometimes another reader or context)."""
    reader, context, text = decode(data)
    if rng.random() < 0.1:
        reader, context = rng.randrange(len(READERS)), rng.randrange(256)
    return encode(reader, context, mutate_text(text, rng))


# ----------------------------------------------------------------------------- running


class Session:
    """Runs inputs, counts executions and keeps one input per distinct crash."""

    def __init__(self, crash_dir: Path, stop_on_crash: bool, budget: float) -> None:
        self.crash_dir = crash_dir
        self.stop_on_crash = stop_on_crash
        self.budget = budget
        self.start = time.monotonic()
        self.executions = 0
        self.crashes: dict[str, tuple[bytes, str]] = {}
        self.slow: list[tuple[float, str]] = []

    def run(self, data: bytes) -> bool:
        """Run one input; whether it crashed."""
        reader, context, text = decode(data)
        name, function = READERS[reader]
        self.executions += 1
        began = time.monotonic()
        try:
            function(text, context)
        except ScopaError:
            pass
        except Exception as error:
            if self.stop_on_crash:
                raise
            self.record(name, data, error)
            return True
        finally:
            took = time.monotonic() - began
            if took > SLOW_SECONDS:
                self.slow.append((took, f"{name}: {text[:80]!r}"))
        return False

    def record(self, name: str, data: bytes, error: Exception) -> None:
        """Keep the first input of each crash signature (exception type and place)."""
        frames = traceback.extract_tb(error.__traceback__)
        where = [f for f in frames if "/scopa/" in f.filename or "/tests/" in f.filename]
        last = (where or frames)[-1]
        signature = f"{name}: {type(error).__name__} at {Path(last.filename).name}:{last.lineno}"
        if signature in self.crashes:
            return
        digest = hashlib.sha1(data).hexdigest()[:12]
        path = self.crash_dir / f"crash-{reader_slug(name)}-{digest}"
        path.write_bytes(data)
        self.crashes[signature] = (data, str(path))
        print(f"NEW CRASH {signature}: {str(error)[:120]!r} -> {path}", flush=True)

    @property
    def elapsed(self) -> float:
        """Seconds since the session started."""
        return time.monotonic() - self.start

    def over(self) -> bool:
        """Whether the time budget is spent."""
        return self.elapsed >= self.budget

    def report(self, engine: str) -> None:
        """Print the figures: executions, executions per second and crashes."""
        rate = self.executions / self.elapsed if self.elapsed else 0.0
        print(f"\n== {engine}: {self.executions} executions in {self.elapsed:.1f} s", flush=True)
        print(f"== {rate:.0f} executions per second", flush=True)
        print(f"== {len(self.crashes)} distinct crashes (inputs in {self.crash_dir})", flush=True)
        for signature, (data, path) in sorted(self.crashes.items()):
            print(f"   {signature}\n      {decode(data)[2][:100]!r}  ({path})", flush=True)
        for took, what in sorted(self.slow, reverse=True)[:5]:
            print(f"== slow input: {took:.1f} s {what}", flush=True)


def reader_slug(name: str) -> str:
    """A reader's name as part of a file name."""
    return name.replace(".", "-").replace("_", "-").lower()


def options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """Our options (`-name` or `-name=value`) and the arguments left for libFuzzer."""
    ours = {"max_total_time", "plain", "stop_on_crash", "crash_dir", "seed"}
    found: dict[str, str] = {}
    rest = [argv[0]]
    for argument in argv[1:]:
        name, _, value = argument.lstrip("-").partition("=")
        if argument.startswith("-") and name in ours:
            found[name] = value
        else:
            rest.append(argument)
    return found, rest


def plain_loop(session: Session, corpus: list[bytes], rng: random.Random) -> None:
    """Run the seeds, then mutations of them (and of crashing inputs) until the budget."""
    pool = list(corpus)
    for data in corpus:
        session.run(data)
    while not session.over():
        data = mutate(rng.choice(pool), rng)
        if session.run(data):
            pool.append(data)
    session.report("plain mutation loop")


def fuzz_with_atheris(
    engine: Any, session: Session, corpus: list[bytes], rng: random.Random, rest: list[str]
) -> None:
    """Fuzz with libFuzzer through atheris, seeded with the corpus unless one is given."""
    if not any(not argument.startswith("-") for argument in rest[1:]):
        seeds = Path(tempfile.mkdtemp(prefix="scopa-fuzz-corpus-"))
        for i, data in enumerate(corpus):
            (seeds / f"seed-{i:04d}").write_bytes(data)
        rest.append(str(seeds))
        print(f"seed corpus: {len(corpus)} inputs in {seeds}", flush=True)

    def one_input(data: bytes) -> None:
        session.run(data)
        if session.over():
            session.report("atheris (libFuzzer)")
            sys.stdout.flush()
            os._exit(1 if session.crashes else 0)

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        local = random.Random(seed)
        if local.random() < 0.5:
            mutated: bytes = engine.Mutate(data, max_size)
        else:
            mutated = mutate(data, local)
        return mutated[:max_size]

    engine.Setup(rest, one_input, custom_mutator=custom_mutator)
    engine.Fuzz()


def main() -> None:
    """Read the options, build the seed corpus and fuzz."""
    found, rest = options(sys.argv)
    budget = float(found.get("max_total_time") or 60)
    seed = int(found.get("seed") or 0)
    crash_dir = Path(found.get("crash_dir") or tempfile.mkdtemp(prefix="scopa-fuzz-crashes-"))
    crash_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    corpus = seed_inputs(rng)
    session = Session(crash_dir, "stop_on_crash" in found, budget)
    if atheris is None:
        print("atheris is not installed: running the plain mutation loop", flush=True)
        plain_loop(session, corpus, rng)
        sys.exit(1 if session.crashes else 0)
    else:
        fuzz_with_atheris(atheris, session, corpus, rng, rest)


if __name__ == "__main__":
    main()
