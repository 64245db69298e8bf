"""The `scopa` command, driven as a user would: subprocesses, piped input, a terminal.

The clock is tested in-process with a scripted reader on a fake clock; the terminal board
and the visible countdown through a pseudo-terminal.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest

import scopa
from scopa import cli
from scopa._i18n import translation
from scopa.agents import GreedyAgent
from scopa.board import match_text, move_text
from scopa.cli import _keyboard, _parser, _play, _screen, _simulate
from scopa.match import Claim
from scopa.moves import Move
from scopa.records import read_record, write_record
from scopa.rules import Leftovers
from scopa.search import ISMCTSAgent
from scopa.stakes import AbandonReason
from scopa.state import PlayerView
from scopa.tournament import tournament
from tests.helpers import CLASSIC, ROOT, Terminal

COMMAND = [sys.executable, "-m", "scopa"]
# The command speaks the language of the locale: these tests read it in English.
TERMINAL = {**os.environ, "TERM": "xterm-256color", "LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every command in a folder of its own, where a recovery file may be written, in
    English whatever the machine's locale."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")


def run(
    *args: str | bytes,
    stdin: str = "",
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        cwd=cwd,
        encoding="utf-8",
        errors="strict",
    )


def keystrokes(variant: str, seed: int) -> list[str]:
    """What a player who always plays their first legal move types in a whole match.

    When the move may carry a declaration, the player is asked and makes the first one
    offered (answer 1).
    """
    rules = scopa.find_variant(variant)
    match = scopa.Match.new(rules, seed=seed)
    rng = random.Random(seed)
    opponent = GreedyAgent()
    keys = []
    while not match.is_over:
        state = match.state
        if state.current_player != 0:
            match = match.apply(opponent.choose(scopa.view(state), rng))
            continue
        legal = state.legal_moves()
        move = legal[0]
        keys.append(str(move.card).lower())
        options = [m for m in legal if m.card == move.card and m == m.announced()]
        if len(options) > 1:
            keys.append(str(options.index(move) + 1))
        declared = [move.announced(d) for d in scopa.Declaration if move.announced(d) in legal]
        if declared:
            keys.append("1")
            move = declared[0]
        match = match.apply(move)
    return keys


def first_move_keys(variant: str, seed: int) -> list[str]:
    """The keys of the first move of `keystrokes`: a card, and a number if it is asked."""
    keys = keystrokes(variant, seed)
    return keys[:2] if keys[1].isdigit() else keys[:1]


def record_file(path: Path, rules: scopa.Rules, seed: int = 1, plays: int = 0) -> Path:
    """A record of a match of `rules` after `plays` first legal moves."""
    match = scopa.Match.new(rules, seed=seed)
    for _ in range(plays):
        match = match.apply(match.state.legal_moves()[0])
    path.write_text(write_record(match), encoding="utf-8")
    return path


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("scopa: error: ")
    return lines[0]


# ----------------------------------------------------------------------------- a scripted player

INTERRUPT = "<Ctrl-C>"


class Player:
    """Answers the prompts in order on a fake clock; each answer takes the seconds given.

    Like the keyboard, it answers `None` when an answer would come after the time left;
    a `lenient` player answers anyway (as a plain `input()` would), late or not.
    """

    def __init__(self, *answers: tuple[str, float], lenient: bool = False) -> None:
        self.answers = list(answers)
        self.lenient = lenient
        self.now = 0.0
        self.prompts: list[str] = []
        self.offered: list[float | None] = []

    def clock(self) -> float:
        return self.now

    def read(self, prompt: str, seconds: float | None) -> str | None:
        self.prompts.append(prompt)
        self.offered.append(seconds)
        if not self.answers:
            raise EOFError
        text, took = self.answers.pop(0)
        if seconds is not None and took > seconds and not self.lenient:
            self.now += seconds
            return None
        self.now += took
        if text == INTERRUPT:
            raise KeyboardInterrupt
        return text

    def offered_for(self, start: str) -> list[float | None]:
        """The seconds offered with each prompt that starts with `start`."""
        return [s for p, s in zip(self.prompts, self.offered, strict=True) if p.startswith(start)]


def play(player: Player, *args: str) -> int:
    return cli.main(["play", *args], read=player.read, clock=player.clock)


def answers(keys: list[str], seconds: float) -> list[tuple[str, float]]:
    """The keys of a move, the first one typed after `seconds`, the others at once."""
    return [(key, seconds if i == 0 else 0.0) for i, key in enumerate(keys)]


# ----------------------------------------------------------------------------- arguments


def test_the_console_script_is_the_command() -> None:
    # the entry point that installing the package writes as the `scopa` script
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    module, _, name = scripts["scripts"]["scopa"].partition(":")
    assert getattr(importlib.import_module(module), name) is cli.run
    version = run("--version")
    assert (version.returncode, version.stdout) == (0, f"scopa {scopa.__version__}\n")


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["replay"], ["rules"]])
def test_help_is_complete(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.returncode == 0
    assert "usage: scopa" in result.stdout
    for word in {
        "play": ["--variant", "--opponent", "--seed", "--resume", "--no-clock"],
        "simulate": ["--agents", "--deals", "--workers", "--json"],
        "replay": ["--all", "--boards"],
    }.get(command[0] if command else "", []):
        assert word in result.stdout


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser, by name."""
    actions = _parser.parser(translation("en"))._subparsers._group_actions  # type: ignore[union-attr]
    choices: dict[str, argparse.ArgumentParser] = actions[0].choices  # type: ignore[assignment]
    return choices


@pytest.mark.parametrize("command", ["play", "simulate", "replay", "rules"])
def test_every_subcommand_has_a_description_and_shows_its_defaults(command: str) -> None:
    parser = _subcommands()[command]
    result = run(command, "--help")
    assert result.returncode == 0
    rest = result.stdout.partition("\n\n")[2]
    description = rest.split("\n\n", 1)[0]
    # a paragraph of its own between the usage and the arguments, in sentences
    assert not description.startswith(("options:", "positional arguments:"))
    assert description.endswith(".")
    assert " ".join(description.split()) == parser.description
    for action in parser._actions:
        if action.default not in (None, False, argparse.SUPPRESS) and action.help is not None:
            assert f"(default: {action.default})" in action.help, action.option_strings
    if command == "play":
        assert "(default: greedy)" in " ".join(result.stdout.split())


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "briscola"],
        ["play", "--variant", "briscola"],
        ["frobnicate"],
        ["simulate", "--agents", "greedy,oracle", "--deals", "2"],
        ["simulate", "--agents", "greedy,random", "--deals", "2", "--workers", "0"],
        ["simulate", "--agents", "greedy,random", "--deals", "0"],
        ["play", "--seed", str(2**64)],
        ["play", "--variant", "classic", "--resume", "match.txt"],
        ["replay", "no-such-record.txt"],
        ["replay", "x" * 5000],
        ["simulate", "--agents", "greedy,random", "--deals", "2", "--json", "x" * 5000],
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2, args
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("scopa: error:")
    assert "x" * 100 not in result.stderr  # a long argument is quoted by a short prefix


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "a\0b"],
        ["play", "--resume", "a\0b"],
        ["simulate", "--agents", "greedy,random", "--deals", "2", "--json", "a\0b"],
    ],
)
def test_a_file_name_with_a_nul_character_is_a_usage_error(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # no shell passes a NUL character, but main() takes any strings
    with pytest.raises(SystemExit) as stop:
        cli.main(args)
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert (
        error
        == "scopa: error: "
        + ("--json 'a\\x00b'" if "--json" in args else "cannot read 'a\\x00b'")
        + ": a file name cannot hold a NUL character\n"
    )


def test_a_rules_name_the_terminal_cannot_encode_is_one_line() -> None:
    result = run("rules", b"a\xffb")
    assert result.returncode == 2
    assert "a\\udcffb" in one_line_error(result)


# ----------------------------------------------------------------------------- rules


def test_rules_lists_every_preset_with_its_players() -> None:
    listing = run("rules")
    assert listing.returncode == 0
    for name in scopa.variant_names():
        assert name in listing.stdout
    assert re.search(r"^scopone +4 players in 2 sides, to 11 points$", listing.stdout, re.M)
    assert re.search(r"^tretre +2 players each for self, to 9 points$", listing.stdout, re.M)


def test_rules_are_described_in_words() -> None:
    tretre = run("rules", "tretre").stdout
    for words in (
        "2, each for self",
        "first side to 9 points wins",
        "Ace=15",
        "a missing suit counts 0",
        "30 seconds a move; a player who takes longer abandons the match",
        "brilli: 10 in each of the first 3 hands",
        "an abandoner loses 30",
    ):
        assert words in " ".join(tretre.split()), words
    for python in ("CapturePriority", "ScoringRules(", "None", "Fraction", "True"):
        assert python not in tretre
    assert all(len(line) <= 80 for line in tretre.splitlines())
    aces = " ".join(run("rules", "Scopa d'assi").stdout.split())
    assert "an Ace takes every card on the table, and that sweep is not a scopa" in aces
    assert "no deal is annulled" in aces
    scopone = " ".join(run("rules", "scopone").stdout.split())
    assert "4 in 2 sides: players 0 and 2 against 1 and 3" in scopone


def test_the_list_of_rules_keeps_its_columns() -> None:
    lines = run("rules").stdout.splitlines()
    rows = [line for line in lines if not line.startswith(" ")]
    assert len(rows) == len(scopa.variant_names())
    # every description starts in the same column, after the longest name and a space
    width = max(map(len, scopa.variant_names()))
    assert all(row[width] == " " and row[width + 1] != " " for row in rows)
    assert any(row.startswith("asso-piglia-tutto-semplice 2 players") for row in rows)
    assert all(len(line) <= 80 for line in lines)
    assert all(line.startswith(" " * (width + 1)) for line in lines if line.startswith(" "))


# ----------------------------------------------------------------------------- simulate


def test_simulate_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    result = run(
        "simulate", "--agents", "greedy,random", "--deals", "30", "--seed", "3", "--json", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert "greedy" in result.stdout
    assert "margin/hand" in result.stdout
    data = json.loads(out.read_text())
    assert data["deals"] == 30
    assert [a["hands"] for a in data["agents"]] == [60, 60]


def test_simulate_reports_progress_after_every_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        shown = kwargs["progress"]

        def progress(done: int, total: int) -> None:
            calls.append((done, total))
            shown(done, total)

        return tournament(*args, **{**kwargs, "progress": progress})

    monkeypatch.setattr(_simulate, "tournament", spy)
    assert cli.main(["simulate", "--agents", "greedy,random", "--deals", "3"]) == 0
    assert calls == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("where", ["missing-folder", "a-folder"])
def test_simulate_checks_the_json_path_before_playing(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_tournament(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the tournament ran before the path was checked")

    monkeypatch.setattr(_simulate, "tournament", no_tournament)
    target = tmp_path / "none" / "result.json" if where == "missing-folder" else tmp_path
    with pytest.raises(SystemExit) as stop:
        cli.main(["simulate", "--agents", "greedy,random", "--deals", "9", "--json", str(target)])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("scopa: error: --json")
    assert len(error.splitlines()) == 1
    assert ("no folder" if where == "missing-folder" else "is a folder") in error


# ----------------------------------------------------------------------------- play, piped


def test_a_whole_match_piped_saved_and_replayed(tmp_path: Path) -> None:
    record = tmp_path / "match.txt"
    keys = keystrokes("classic", 7)
    # a wrong card, an unreadable one and help first: each gets a message and a new prompt
    script = ["zz", "9Z", "help", *keys, "y", str(record)]
    result = run("play", "--seed", "7", stdin="\n".join(script) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "cannot read 'zz' as a card" in out
    assert "Legal moves:" in out
    assert "C coppe (♥)" in out
    assert "Hand 1" in out
    assert re.search(r"category +counted +points", out)
    assert "primiera" in out
    assert "The computer wins." in out or "You win!" in out
    assert f"Saved to {record}" in out
    match = read_record(record.read_text())
    assert match.is_over
    replay = run("replay", str(record), "--all")
    assert replay.returncode == 0
    assert "Hand 1" in replay.stdout
    assert "Winner: " in replay.stdout


def test_live_play_celebrates_every_scopa_and_says_where_the_leftovers_go(
    tmp_path: Path,
) -> None:
    record = tmp_path / "match.txt"
    keys = keystrokes("classic", 7)
    result = run("play", "--seed", "7", stdin="\n".join([*keys, "y", str(record)]) + "\n")
    assert result.returncode == 0, result.stderr
    match = read_record(record.read_text())
    assert result.stdout.count("Scopa!") == sum(sum(h.score["scope"].figures) for h in match.hands)
    rules = match.rules
    for hand in match.hands:
        state = scopa.GameState.new(rules, deck=hand.deck, dealer=hand.dealer)
        for _, move in hand.history[:-1]:
            state = state.apply(move)
        player, last = hand.history[-1]
        # the rules: the last card is laid down or captures; what stays goes to the last taker
        left = (state.table - last.captured) | ({last.card} if not last.captured else set())
        taker = player if last.captured else state.last_capturer
        if left:
            cards = " ".join(str(c) for c in sorted(left))  # the standard order
            name = "you" if taker == 0 else f"player {taker}"
            assert f"The cards left on the table, {cards}, go to {name}" in result.stdout


def test_a_card_not_in_hand_is_refused_in_the_words_it_was_typed() -> None:
    keys = keystrokes("classic", 7)
    hand = scopa.Match.new(CLASSIC, seed=7).state.hands[0]
    absent = next(c for c in scopa.DECK if c not in hand and c.suit is scopa.Suit.COPPE)
    result = run("play", "--seed", "7", stdin="\n".join([str(absent), *keys, "n"]) + "\n")
    assert result.returncode == 0
    assert f"You do not hold {absent}, the " in result.stdout
    assert "of coppe (♥)" in result.stdout
    assert "player 0's hand" not in result.stdout


def test_text_in_brackets_is_printed_as_typed() -> None:
    result = run("play", "--seed", "7", stdin="a[b]c\n[bold]x\nquit\na\nn\n")
    assert result.returncode == 0
    assert "cannot read 'a[b]c' as a card" in result.stdout
    assert "cannot read '[bold]x' as a move" in result.stdout


def test_scopone_names_your_partner_and_fits_80_columns() -> None:
    result = run("play", "--variant", "scopone", "--seed", "1", stdin="quit\na\nn\n")
    assert result.returncode == 0
    out = result.stdout
    assert "You are player 0, with player 2 as your partner" in out
    assert "your side: you, player 2; side B: player 1, player 3" in out
    assert " 1 cards" not in out
    prompts = ("Your move", "Abandon the match", "Save the match")
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith(prompts))


# ----------------------------------------------------------------------------- play, the clock


def test_the_clock_counts_down_over_the_whole_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # help after 20 s leaves 10 s, kept while the help is read (a minute); the card comes
    # 15 s later: the time has run out
    record = tmp_path / "late.txt"
    card = first_move_keys("tretre", 2)[0]
    player = Player(("help", 20), ("", 60), (card, 15), ("y", 0), (str(record), 0))
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.offered_for("Your move") == [30, 10]
    assert player.offered_for("Press Enter to go back") == [None]
    out = capsys.readouterr().out
    assert "The clock runs: 30 s a move" in out
    assert "Time is up" in out
    assert "You play" not in out
    # the rules' consequence: hand 1 abandoned, -30 brilli, the 10 of the hand to the other
    assert "brilli  you -30, player 1 10" in out
    abandonment = read_record(record.read_text(encoding="utf-8")).abandonment
    assert abandonment == scopa.Abandonment(0, 1, AbandonReason.TIMEOUT)


def test_a_move_in_time_is_played_and_the_next_move_has_its_own_clock(
    capsys: pytest.CaptureFixture[str],
) -> None:
    keys = first_move_keys("tretre", 2)
    player = Player(*answers(keys, 29), ("quit", 1), ("a", 1), ("n", 0))
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.offered_for("Your move") == [30, 30]
    assert player.offered_for("Abandon") == [None]  # the clock stops in the menu
    out = capsys.readouterr().out
    assert "You play" in out
    assert "Time is up" not in out
    assert "You abandon the match" in out


def test_a_late_answer_is_refused_by_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    # a reader that cannot be interrupted (a plain input()) answers after the limit
    keys = first_move_keys("tretre", 2)
    player = Player(*answers(keys, 31), ("n", 0), lenient=True)
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    out = capsys.readouterr().out
    assert "Time is up" in out
    assert "You play" not in out


def test_the_clock_stops_while_the_menu_is_open(capsys: pytest.CaptureFixture[str]) -> None:
    # Ctrl-C after 10 s; "continue" 35 s later: the move still has its 20 s
    keys = first_move_keys("tretre", 2)
    player = Player((INTERRUPT, 10), ("c", 35), *answers(keys, 19), ("quit", 0), ("a", 0))
    player.answers.append(("n", 0))
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.offered_for("Abandon") == [None, None]
    assert player.offered_for("Your move") == [30, 20, 30]
    out = capsys.readouterr().out
    assert "Time is up" not in out
    assert "You play" in out
    assert "You abandon the match" in out


def test_the_clock_starts_when_the_board_is_drawn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    player = Player(("quit", 0), ("a", 0), ("n", 0))

    def slow(*args: Any, **kwargs: Any) -> str:
        player.now += 3  # drawing the board takes 3 s
        return match_text(*args, **kwargs)

    monkeypatch.setattr(_play, "match_text", slow)
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.offered_for("Your move") == [30]
    words = " ".join(capsys.readouterr().out.split())
    # the rule is said before the first move: one timeout forfeits the match
    assert "a player who runs out of time, even once, abandons the whole match" in words


def test_the_search_opponent_is_given_the_match_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    # You deal the first hand, so the computer leads it: its search plays for the match,
    # from totals of 0 to 0, and plays a legal move.
    made = cli.AGENTS["search"]()
    assert isinstance(made, ISMCTSAgent)
    assert made.match_aware
    search: ISMCTSAgent = made  # the type, for the class below
    asked: list[tuple[int, ...]] = []

    class Watched:
        def choose(self, seen: PlayerView, rng: random.Random) -> Move:
            raise AssertionError("an agent that plays for the match is given the totals")

        def choose_in_match(
            self, seen: PlayerView, totals: tuple[int, ...], rng: random.Random
        ) -> Move:
            asked.append(totals)
            move = search.choose_in_match(seen, totals, rng)
            assert move in seen.legal_moves()
            return move

    monkeypatch.setitem(cli.AGENTS, "search", Watched)
    player = Player(("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--opponent", "search", "--seed", "4") == 0
    assert asked == [(0, 0)]


def test_an_answer_for_one_question_is_not_taken_for_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the time runs out; a "c" meant for the menu comes to the question whether to save
    keys = first_move_keys("tretre", 2)
    player = Player(*answers(keys, 31), ("c", 0), ("n", 0))
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.offered_for("Save the match record") == [None, None]
    assert "Answer y or n." in capsys.readouterr().out


def test_no_clock_plays_untimed(capsys: pytest.CaptureFixture[str]) -> None:
    keys = first_move_keys("tretre", 2)
    player = Player(*answers(keys, 100), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--variant", "tretre", "--seed", "2", "--no-clock") == 0
    assert set(player.offered) == {None}
    out = capsys.readouterr().out
    assert "The clock is off (--no-clock)" in out
    assert "You play" in out


def test_rules_without_a_limit_have_no_clock(capsys: pytest.CaptureFixture[str]) -> None:
    player = Player(("help", 1000), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--seed", "2") == 0
    assert set(player.offered) == {None}
    assert "clock" not in capsys.readouterr().out.lower()


# ----------------------------------------------------------------------------- play, stopping


def test_the_menu_asks_again_until_it_understands(capsys: pytest.CaptureFixture[str]) -> None:
    player = Player(
        (INTERRUPT, 0), ("x", 0), ("", 0), ("c", 0), ("quit", 0), ("abandon", 0), ("n", 0)
    )
    assert play(player, "--seed", "4") == 0
    assert [p.split()[0] for p in player.prompts] == [
        "Your",
        "Abandon",
        "Abandon",
        "Abandon",
        "Your",
        "Abandon",
        "Save",
    ]
    out = capsys.readouterr().out
    assert out.count("Answer a, s or c.") == 2
    assert "You abandon the match" in out


def test_ctrl_c_while_the_computer_plays_opens_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupted:
        """Greedy, but Ctrl-C is pressed while it chooses its first move."""

        calls = 0

        def choose(self, game: Any, rng: random.Random) -> scopa.Move:
            Interrupted.calls += 1
            if Interrupted.calls == 1:
                raise KeyboardInterrupt
            return GreedyAgent().choose(game, rng)

    monkeypatch.setitem(cli.AGENTS, "greedy", Interrupted)
    player = Player(("c", 0), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--seed", "4") == 0  # player 1 leads: the computer plays first
    assert [p.split()[0] for p in player.prompts] == ["Abandon", "Your", "Abandon", "Save"]


def test_saving_asks_before_replacing_a_file(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_text("an earlier record", encoding="utf-8")
    other = tmp_path / "other.txt"
    player = Player((INTERRUPT, 0), ("s", 0), (str(kept), 0), ("n", 0), (str(other), 0))
    assert play(player, "--seed", "4") == 0
    assert kept.read_text(encoding="utf-8") == "an earlier record"
    assert any(p.startswith(f"{kept} exists. Replace it?") for p in player.prompts)
    assert not read_record(other.read_text(encoding="utf-8")).is_over
    player = Player((INTERRUPT, 0), ("s", 0), (str(kept), 0), ("y", 0))
    assert play(player, "--seed", "4") == 0
    assert not read_record(kept.read_text(encoding="utf-8")).is_over


def test_saving_into_a_folder_asks_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.txt"
    player = Player((INTERRUPT, 0), ("s", 0), (str(tmp_path), 0), ("y", 0), (str(good), 0))
    assert play(player, "--seed", "4") == 0
    assert "Cannot write" in capsys.readouterr().out
    assert good.exists()


def test_a_file_name_that_cannot_be_a_file_is_asked_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.txt"
    long_name = "x" * 5000
    player = Player((INTERRUPT, 0), ("s", 0), ("bad\0name.txt", 0), (long_name, 0), (str(good), 0))
    assert play(player, "--seed", "4") == 0
    out = capsys.readouterr().out
    assert "Cannot write 'bad\\x00name.txt': a file name cannot hold a NUL character" in out
    assert "File name too long" in out
    assert long_name not in out  # the message quotes a short prefix
    assert all(len(line) <= 120 for line in out.splitlines())
    assert player.offered_for("File name") == [None, None, None]
    assert not read_record(good.read_text(encoding="utf-8")).is_over


def test_the_default_name_is_offered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    player = Player((INTERRUPT, 0), ("s", 0), ("", 0))
    assert play(player, "--seed", "4") == 0
    assert player.prompts[-1] == "File name [scopa-match.txt]: "
    assert (tmp_path / "scopa-match.txt").exists()


def test_a_wrong_number_for_the_capture_is_asked_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # classic, seed 0: player 1 leads; then you hold 3C 10C 1S and the table is
    # 4C 5C 4S 2B 4B. 10C takes three cards adding up to 10: a 4, another 4 and 2B.
    wrong = ["7", "0", "x", "9" * 5000, "\u00b2"]  # "²" is a digit, but not a number
    player = Player(("10c", 0), *answers([*wrong, "2", "quit", "a", "n"], 0))
    assert play(player, "--seed", "0") == 0
    assert player.offered_for("Which capture") == [None] * 6
    out = capsys.readouterr().out
    assert out.count("Choose one of the numbers 1 to 3.") == 5
    assert "  1) take 4C 4S 2B\n  2) take 4C 2B 4B\n  3) take 4S 2B 4B\n" in out
    assert "You play 10C taking 4C 2B 4B" in out
    # the menu lists the captures in the order of the legal moves
    match = scopa.Match.new(CLASSIC, seed=0)
    state = match.state.apply(GreedyAgent().choose(scopa.view(match.state), random.Random(0)))
    ten = scopa.Card.parse("10C")
    assert [str(m) for m in state.legal_moves() if m.card == ten] == [
        "10Cx4C+4S+2B",
        "10Cx4C+2B+4B",
        "10Cx4S+2B+4B",
    ]


def test_enter_at_the_capture_goes_back_to_the_card(capsys: pytest.CaptureFixture[str]) -> None:
    player = Player(("10c", 0), ("", 0), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--seed", "0") == 0
    assert [p.split()[0] for p in player.prompts] == ["Your", "Which", "Your", "Abandon", "Save"]


def test_ctrl_c_twice_offers_to_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "saved.txt"
    keys = first_move_keys("classic", 4)
    player = Player(*answers(keys, 0), (INTERRUPT, 0), (INTERRUPT, 0), ("y", 0), (str(saved), 0))
    assert play(player, "--seed", "4") == 1
    assert "Stopping. Save the match record first? [Y/n] " in player.prompts
    match = read_record(saved.read_text(encoding="utf-8"))
    assert not match.is_over
    assert len(match.state.history) >= 2  # the computer's lead and your move
    assert "scopa: stopped" in capsys.readouterr().err


def test_input_that_ends_saves_a_recovery_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scopa-recovery.txt").write_text("an earlier one", encoding="utf-8")
    keys = first_move_keys("classic", 4)
    player = Player(*answers(keys, 0))  # then the input ends: no answer to the offer either
    assert play(player, "--seed", "4") == 1
    assert (tmp_path / "scopa-recovery.txt").read_text(encoding="utf-8") == "an earlier one"
    recovered = tmp_path / "scopa-recovery-2.txt"
    match = read_record(recovered.read_text(encoding="utf-8"))
    assert len(match.state.history) >= 2
    out = capsys.readouterr().out
    assert f"The match record is saved in {recovered}" in out
    assert f"scopa play --resume {recovered}" in out


def test_piped_input_that_ends_saves_a_recovery_file(tmp_path: Path) -> None:
    keys = first_move_keys("classic", 4)
    result = run("play", "--seed", "4", stdin="\n".join(keys) + "\n", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == "scopa: stopped"
    recovered = tmp_path / "scopa-recovery.txt"
    assert f"The match record is saved in {recovered}" in result.stdout
    assert read_record(recovered.read_text(encoding="utf-8")).state.history
    # no move of yours, nothing to lose: no file
    untouched = tmp_path / "untouched"
    untouched.mkdir()
    result = run("play", "--seed", "4", stdin="", cwd=untouched)
    assert result.returncode == 1
    assert list(untouched.iterdir()) == []


def test_a_reader_without_an_answer_stops_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # None is the answer of a reader whose time ran out; with no clock, no answer at all
    monkeypatch.chdir(tmp_path)
    typed = iter(first_move_keys("classic", 4))

    def read(prompt: str, seconds: float | None) -> str | None:
        return next(typed, None)

    assert cli.main(["play", "--seed", "4"], read=read) == 1
    assert "scopa: stopped" in capsys.readouterr().err
    assert read_record((tmp_path / "scopa-recovery.txt").read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- records


def test_replay_of_a_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("scopa-record 1\nrules {}\n")
    result = run("replay", str(bad))
    assert result.returncode == 1
    assert one_line_error(result).startswith("scopa: error: line 2, rules")
    missing = run("replay", str(tmp_path / "none.txt"))
    assert missing.returncode == 2
    one_line_error(missing)


@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_a_record_that_is_not_utf8_is_one_line(command: list[str], tmp_path: Path) -> None:
    bad = tmp_path / "latin.txt"
    bad.write_bytes("scopa-record 1\n# partita dell'anno è\n".encode("latin-1"))
    result = run(*command, str(bad))
    assert result.returncode == 1
    assert "not UTF-8" in one_line_error(result)


def test_resuming_a_finished_match_is_one_line(tmp_path: Path) -> None:
    match = scopa.Match.new(CLASSIC, seed=2)
    match = match.abandon(1)
    done = tmp_path / "done.txt"
    done.write_text(write_record(match), encoding="utf-8")
    result = run("play", "--resume", str(done))
    assert result.returncode == 1
    assert "is over" in one_line_error(result)


MARKUP = "x[/bold]y [link=https://example.com]here[/link] [red]z"


@pytest.mark.parametrize("command", [["replay", "--all"], ["play", "--resume"]])
def test_a_rules_name_with_markup_is_refused_and_shown_as_it_is(
    command: list[str], tmp_path: Path
) -> None:
    # the library refuses such a name; a record written by hand with one is bad data, and
    # the message shows the name as written, not rendered
    record = record_file(tmp_path / "markup.txt", CLASSIC, plays=3)
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1][:-1] + f', "name": "{MARKUP}"}}'
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run(*command, str(record), stdin="quit\na\nn\n")
    assert result.returncode == 1
    error = one_line_error(result)
    assert "name must be printable text without markup characters" in error
    assert MARKUP[:30] in error


def test_typed_markup_is_shown_as_it_is() -> None:
    result = run("play", "--seed", "7", stdin=f"{MARKUP}\nquit\na\nn\n")
    assert result.returncode == 0, result.stderr
    assert MARKUP[:30] in result.stdout


def test_a_rules_name_the_terminal_cannot_show_is_escaped(tmp_path: Path) -> None:
    rules = attrs.evolve(CLASSIC, name="snow \u2603")
    for command in (["replay", "--all"], ["play", "--resume"]):
        record = record_file(tmp_path / "odd.txt", rules, plays=3)
        env = {**os.environ, "PYTHONIOENCODING": "ascii"}
        result = run(*command, str(record), stdin="quit\na\nn\n", env=env)
        assert result.returncode == 0, result.stderr
        assert "snow \\u2603" in result.stdout


def test_a_file_name_the_terminal_cannot_show_is_escaped() -> None:
    result = run("replay", "x\udcffy.txt")  # a file name that is not valid UTF-8
    assert result.returncode == 2
    assert "x\\udcffy.txt" in one_line_error(result)


# ----------------------------------------------------------------------------- a terminal


def spawn(*args: str) -> Any:
    """The command in a terminal of 40 lines of 80 columns.

    Every exchange waits for what the command writes (a prompt, a board), never for a time;
    the timeout only guards against a command that hangs, and is long enough for a loaded
    machine.
    """
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        sys.executable,
        ["-m", "scopa", *args],
        encoding="utf-8",
        timeout=120,
        env=TERMINAL,
        dimensions=(40, 80),
    )


def interrupt(child: Any, answer: str) -> None:
    """Press Ctrl-C, and answer the question whether to abandon the match."""
    child.sendintr()
    child.expect("Abandon the match")
    child.sendline(answer)


def ended(child: Any) -> int:
    """The exit status of the command in the terminal, which ends by itself.

    It is waited for: closing the terminal at once would hang up on a command still
    exiting, and signal it.
    """
    pexpect = pytest.importorskip("pexpect")
    child.expect(pexpect.EOF)
    status: int = child.wait()
    assert child.signalstatus is None  # it ended by itself, not by a signal
    return status


def exits_cleanly(child: Any) -> None:
    """The command in the terminal ends by itself, with exit status 0."""
    assert ended(child) == 0


def test_the_board_is_redrawn_in_place_in_colour() -> None:
    child = spawn("play", "--seed", "7")
    child.expect_exact("\x1b[H\x1b[2J")  # the screen is cleared, then the board drawn
    child.expect("Your move")
    board = child.before
    assert "table" in board
    assert re.search(r"> you +(?:\S+ )*\S+ +0 +0", re.sub(r"\x1b\[[0-9;]*m", "", board))
    assert re.search(r"\x1b\[[0-9;]*m(?:10|[1-9])[DCSB]\x1b\[0m", board)  # cards in colour
    child.sendline(first_move_keys("classic", 7)[0])
    child.expect_exact("\x1b[H\x1b[2J")  # drawn again for the next move
    child.expect("Your move")
    assert "You play" in child.before
    interrupt(child, "a")
    child.expect("Save the match record")
    child.sendline("n")
    exits_cleanly(child)


def start_timed(child: Any) -> None:
    """Read the rules of the clock, and press Enter to draw the board and start it."""
    child.expect("Press Enter to start: the clock starts when the board is drawn.")
    words = " ".join(child.before.split())
    assert "a player who runs out of time, even once, abandons the whole match" in words
    assert "\x1b[2J" not in child.before  # nothing has cleared the words away
    child.sendline("")


def test_the_countdown_is_visible_on_a_terminal() -> None:
    child = spawn("play", "--variant", "tretre", "--seed", "2")
    start_timed(child)
    child.expect_exact("\x1b[H\x1b[2J")
    child.expect("Clock: 30 s a move; running out of time abandons the match.")
    child.expect("Clock: 30 s left for this move")
    child.expect("Your move")
    # the line above the prompt is rewritten in place as the seconds pass (however slowly
    # a loaded machine lets it run: any count below 30)
    child.expect(r"\x1b7\x1b\[1A\r\x1b\[2K(?:\x1b\[[0-9;]*m)?Clock: [12]?[0-9] s left")
    child.close(force=True)


def test_ctrl_c_offers_to_abandon_with_the_variant_consequences() -> None:
    child = spawn("play", "--variant", "tretre", "--seed", "2")
    start_timed(child)
    child.expect("Your move")
    interrupt(child, "a")
    # hand 1 abandoned: -30 brilli, and the other player takes the 10 of the hand
    child.expect("brilli  you -30, player 1 10")
    child.expect("You abandoned: the computer wins.")
    child.expect("Save the match record")
    child.sendline("n")
    exits_cleanly(child)


def test_ctrl_c_can_save_and_resume(tmp_path: Path) -> None:
    saved = tmp_path / "saved.txt"
    child = spawn("play", "--seed", "4")
    child.expect("Your move")
    interrupt(child, "s")
    child.expect("File name")
    child.sendline(str(saved))
    exits_cleanly(child)
    assert not read_record(saved.read_text()).is_over
    resumed = run("play", "--resume", str(saved), stdin="quit\na\nn\n")
    assert resumed.returncode == 0
    assert "You abandon" in resumed.stdout


def test_a_replay_shows_the_stakes_the_hands_and_on_request_the_boards(
    tmp_path: Path,
) -> None:
    # tretre, seed 2: hand 1 is played to its end with the first legal moves, then player 0
    # runs out of time in hand 2
    rules = scopa.find_variant("tretre")
    match = scopa.Match.new(rules, seed=2)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    match = match.timeout()
    record = tmp_path / "tretre.txt"
    record.write_text(write_record(match), encoding="utf-8")
    out = run("replay", str(record), "--all").stdout
    words = " ".join(out.split())
    assert "Stakes: brilli: 10 in each of the first 3 hands" in words
    hand = match.hands[0]
    mine, theirs = hand.points
    assert f"Hand 1 is over: player 0 {mine}, player 1 {theirs}." in out
    assert f"Points: player 0 {mine}, player 1 {theirs}" in out
    # the 10 brilli of hand 1 in proportion to the points (5 each when nobody scores)
    total = mine + theirs
    shares = [10 * p / total if total else 5 for p in (mine, theirs)]
    shown = [f"{share:.2f}".removesuffix(".00") for share in shares]
    assert f"  Brilli: player 0 {shown[0]}, player 1 {shown[1]}" in out
    # at the end: player 0 abandons in hand 2, keeps hand 1's share and loses 30; player 1
    # adds the 10 of hand 2
    final = [shares[0] - 30, shares[1] + 10]
    shown = [f"{value:.2f}".removesuffix(".00") for value in final]
    assert f"Player 0 abandoned (timeout).\nPoints: player 0 {mine}, player 1 {theirs}\n" in out
    assert f"Brilli: player 0 {shown[0]}, player 1 {shown[1]}\nWinner: player 1\n" in out
    assert "table " not in out  # no boards unless asked
    boards = run("replay", str(record), "--all", "--boards").stdout
    plays = len(hand.history)
    assert boards.count("\ntable   ") == plays + 2  # hand 1 dealt and after each play; hand 2
    assert boards.count("tretre: the hand is over") == 1


def test_the_live_screen_and_the_replay_say_alike_where_the_leftovers_went(
    tmp_path: Path,
) -> None:
    # Under rules that leave the last cards on the table, seed 3's hand 1 ends with player 0
    # laying 4B down on 6B: both stay on the table, as its last position shows.
    rules = attrs.evolve(CLASSIC, leftovers=Leftovers.NOBODY)
    match = scopa.Match.new(rules, seed=3)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    hand = match.hands[0]
    final = scopa.GameState.new(rules, deck=hand.deck, dealer=hand.dealer)
    for _, move in hand.history:
        final = final.apply(move)
    assert hand.history[-1] == (0, Move.parse("4B"))
    assert final.table == {scopa.Card.parse("4B"), scopa.Card.parse("6B")}
    record = tmp_path / "kept.txt"
    record.write_text(write_record(match), encoding="utf-8")
    said = "The cards left on the table, 4B 6B, stay there."
    replayed = run("replay", str(record), "--all")
    assert replayed.returncode == 0, replayed.stderr
    assert f"  Player 0: 4B on the table.\n  {said}\n" in replayed.stdout
    resumed = run("play", "--resume", str(record), stdin="quit\na\nn\n")
    assert resumed.returncode == 0, resumed.stderr
    assert f"You play 4B on the table\n{said}\nHand 1 is over: " in resumed.stdout


def test_the_live_screen_and_the_replay_say_alike_that_the_dealer_took_the_leftovers(
    tmp_path: Path,
) -> None:
    # Seed 3's hand 1 again, under rules that give the last cards to the dealer: player 0
    # deals, player 1 captured last (10S x 10D), and player 0 lays 4B down on 6B last. Both
    # cards go to player 0, the dealer, not to player 1, the last to capture.
    rules = attrs.evolve(CLASSIC, leftovers=Leftovers.DEALER)
    match = scopa.Match.new(rules, seed=3)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    hand = match.hands[0]
    state = scopa.GameState.new(rules, deck=hand.deck, dealer=hand.dealer)
    for _, move in hand.history[:-1]:
        state = state.apply(move)
    assert hand.dealer == 0
    assert state.last_capturer == 1
    assert state.table == {scopa.Card.parse("6B")}
    assert hand.history[-1] == (0, Move.parse("4B"))
    record = tmp_path / "dealt.txt"
    record.write_text(write_record(match), encoding="utf-8")
    replayed = run("replay", str(record), "--all")
    assert replayed.returncode == 0, replayed.stderr
    said = "The cards left on the table, 4B 6B, go to player 0, the dealer."
    assert f"  Player 0: 4B on the table.\n  {said}\n" in replayed.stdout
    resumed = run("play", "--resume", str(record), stdin="quit\na\nn\n")
    assert resumed.returncode == 0, resumed.stderr
    said = "The cards left on the table, 4B 6B, go to you, the dealer."
    assert f"You play 4B on the table\n{said}\nHand 1 is over: " in resumed.stdout
    italian = run("replay", str(record), "--all", "--lang", "it")
    assert "Le carte rimaste in tavola, 4B 6B, vanno al giocatore 0, che è il mazziere." in (
        italian.stdout
    )


def test_replay_on_a_terminal_says_what_to_press(tmp_path: Path) -> None:
    record = record_file(tmp_path / "match.txt", CLASSIC, plays=4)
    child = spawn("replay", str(record))
    child.expect("Press Enter to see each play, or type q and Enter to stop.")
    child.expect_exact("(Enter, or q to stop) ")
    child.sendline("")
    child.expect("Player 1: ")
    child.expect_exact("(Enter, or q to stop) ")
    child.sendline("q")
    exits_cleanly(child)


def test_the_board_at_the_end_of_a_hand_is_headed_by_that_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setenv("TERM", "xterm")
    keys = keystrokes("classic", 7)
    boards: list[str] = []

    def read(prompt: str, seconds: float | None) -> str:
        """Play hand 1 with the keystrokes, keep the board it ends on, then abandon."""
        if prompt.startswith("Press Enter to deal"):
            boards.append(screen.getvalue().rsplit("\x1b[2J", 1)[-1])
            keys.clear()
            return ""
        answer = {"Abandon": "a", "Save": "n"}.get(prompt.split()[0])
        return answer or (keys.pop(0) if keys else "quit")

    assert cli.main(["play", "--seed", "7"], read=read) == 0
    board = re.sub(r"\x1b\[[0-9;]*m", "", boards[0])
    assert "classic match to 11 points, hand 1 over\n" in board
    assert "hand 2" not in board
    assert "score of the hand" in board


def test_what_was_typed_when_the_time_ran_out_is_not_read_by_the_next_prompt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    main, terminal = os.openpty()
    with open(terminal, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        keyboard = _keyboard.Keyboard(
            _screen.Screen(io.StringIO()), time.monotonic, translation("en")
        )
        os.write(main, b"7d")  # typed, but not entered before the time runs out
        assert keyboard("Your move: ", 0.5) is None
        os.write(main, b"y\n")
        assert keyboard("Save the match record? [y/N] ", None) == "y"
    os.close(main)


def test_no_wait_for_a_key_outlasts_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Ctrl-C whose signal comes just as the wait for a key begins is acted on by Python
    # only when the wait ends: a wait without limit would hang until a key was pressed.
    waits: list[float | None] = []

    def select(read: object, write: object, error: object, timeout: float | None = None) -> Any:
        waits.append(timeout)
        raise KeyboardInterrupt  # Python acting on the signal, as the wait ends

    main, terminal = os.openpty()
    with open(terminal, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        monkeypatch.setattr("select.select", select)
        keyboard = _keyboard.Keyboard(
            _screen.Screen(io.StringIO()), time.monotonic, translation("en")
        )
        with pytest.raises(KeyboardInterrupt):
            keyboard("Your move: ", None)
    os.close(main)
    assert len(waits) == 1
    assert waits[0] is not None
    assert 0 < waits[0] <= 1


def test_ctrl_d_on_a_terminal_offers_to_save(tmp_path: Path) -> None:
    saved = tmp_path / "saved.txt"
    child = spawn("play", "--seed", "4")
    child.expect("Your move")
    for key in first_move_keys("classic", 4):
        child.sendline(key)
    child.expect("Player 1 plays")  # the computer answers your move
    child.expect("Your move")
    child.sendeof()
    child.expect_exact("Stopping. Save the match record first? [Y/n] ")
    child.sendline("")
    child.expect("File name")
    child.sendline(str(saved))
    child.expect("Saved to")
    assert ended(child) == 1
    assert len(read_record(saved.read_text(encoding="utf-8")).state.history) >= 3


# ----------------------------------------------------------------------------- the family


@pytest.mark.parametrize("variant", scopa.variant_names())
def test_every_preset_plays_a_whole_match(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "match.txt"
    keys = keystrokes(variant, 3)
    player = Player(*answers([*keys, "y", str(record)], 0))
    assert play(player, "--variant", variant, "--seed", "3", "--no-clock") == 0
    out = capsys.readouterr().out
    match = read_record(record.read_text(encoding="utf-8"))
    assert match.is_over
    assert ("You win!" in out or "Your side wins!" in out) == (match.winner == 0)
    assert "The computer wins." in out or match.winner == 0


def test_a_cirulla_match_declares_shows_and_scores(tmp_path: Path) -> None:
    record = tmp_path / "cirulla.txt"
    keys = keystrokes("cirulla", 3)
    result = run(
        "play", "--variant", "cirulla", "--seed", "3", stdin="\n".join([*keys, "y", str(record)])
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Declare your hand?" in out
    assert "declaring busso (3 points), and show" in out
    assert re.search(r"^shown   player 1 (?:(?:10|[1-9])[DCSB] ?)+$", out, re.M)
    match = read_record(record.read_text(encoding="utf-8"))
    # every declaration scores its points in the hand's accusi: busso 3, tris 10
    for hand in match.hands:
        made = [0, 0]
        for player, move in hand.history:
            if move.declaration is not None:
                made[player] += {"busso": 3, "tris": 10}[move.declaration.value]
        assert list(hand.score["accusi"].points) == made
    replay = run("replay", str(record), "--all")
    assert replay.returncode == 0, replay.stderr
    assert "declaring busso (3 points)" in replay.stdout


def test_declarations_typed_refused_and_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # cirulla, seed 3: after player 1's 9D takes 9C you hold 2D 7C 6S, table 2S 8S 10S. With
    # the matta 7C as 1 the hand makes 9, a busso; 2, 6 and 7C cannot be three of a kind.
    player = Player(("2d@tris", 0), ("2d!", 0), ("2d@busso", 0), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--variant", "cirulla", "--seed", "3") == 0
    out = capsys.readouterr().out
    assert "You may declare your hand with this card: busso (3 points)." in out
    assert "Your hand 2D 7C 6S is not a tris: three cards of one rank." in out
    assert "There are no claims under the cirulla rules." in out
    assert "You play 2D taking 2S, declaring busso (3 points), and show 7C 6S" in out
    assert "Declare your hand?" not in player.prompts


CLAIMS = attrs.evolve(CLASSIC, name="claims", claim_out=True, target=1)


@pytest.mark.parametrize(
    ("typed", "right"),
    [
        # seed 31, after player 1's move: you hold 8S 2B 7B, table 7D 6C. 7B must take the
        # settebello, a point nobody can take back: the target of 1 is reached.
        ("7b!", True),
        # 8S takes nothing (no 8, 6 + 7 is 13): no point is sure yet
        ("8s!", False),
    ],
)
def test_a_claim_ends_the_match(
    typed: str, right: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_file(tmp_path / "claims.txt", CLAIMS, seed=31)
    player = Player((typed, 0), ("n", 0))
    assert cli.main(["play", "--resume", str(record), "--seed", "31"], read=player.read) == 0
    out = capsys.readouterr().out
    assert "table   7D 6C" in out
    assert "Add ! to a move (7D!) to claim" in out
    assert f"The claim is {'right' if right else 'wrong'}: the match is over." in out
    assert f"You claimed 1 point, {'rightly' if right else 'wrongly'}." in out
    assert ("You win!" if right else "The computer wins.") in out


def test_the_computer_claims_when_it_is_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # seed 4: player 1 leads and its 7D takes 1D 6C; the settebello is a sure point
    record = record_file(tmp_path / "claims.txt", CLAIMS, seed=4)
    player = Player(("y", 0), (str(tmp_path / "after.txt"), 0))
    assert cli.main(["play", "--resume", str(record), "--seed", "4"], read=player.read) == 0
    out = capsys.readouterr().out
    assert "Player 1 plays 7D taking 1D 6C, claiming the target" in out
    assert "Player 1 claimed 1 point, rightly." in out
    match = read_record((tmp_path / "after.txt").read_text(encoding="utf-8"))
    assert match.claim == Claim(1, True)
    replay = run("replay", str(tmp_path / "after.txt"), "--all")
    assert "Player 1: 7D taking 1D 6C, claiming the target." in replay.stdout
    assert "Player 1 claimed 1 point, rightly." in replay.stdout


def test_scopa_a_perdere_is_won_by_the_lowest_total(tmp_path: Path) -> None:
    record = tmp_path / "perdere.txt"
    keys = keystrokes("scopa-a-perdere", 3)
    script = "\n".join([*keys, "y", str(record)])
    result = run("play", "--variant", "scopa-a-perdere", "--seed", "3", stdin=script)
    assert result.returncode == 0, result.stderr
    match = read_record(record.read_text(encoding="utf-8"))
    mine, theirs = match.totals
    assert max(mine, theirs) >= 21
    assert mine != theirs
    loser = "You" if mine > theirs else "Player 1"
    assert f"{loser} reached 21 points, and the lowest total wins." in result.stdout
    assert ("You win!" if mine < theirs else "The computer wins.") in result.stdout


# ----------------------------------------------------------------------------- under faults


def test_the_start_of_a_match_on_a_terminal_names_the_game_and_the_suits_once() -> None:
    child = spawn("play", "--variant", "scopone", "--seed", "1")
    child.expect("Your move")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", child.before)
    assert shown.count(f"scopa {scopa.__version__}:") == 1
    assert shown.count("Suits: D denari") == 1
    # the words of the start are on the board, not cleared away with what came before
    board = " ".join(shown.rsplit("\x1b[2J", 1)[-1].split())
    assert "You are player 0, with player 2 as your partner" in board
    assert "Type a card as its rank and suit: 7D is the 7 of denari." in board
    child.sendline("4b")  # the next board no longer greets
    child.expect("Your move")
    later = " ".join(child.before.rsplit("\x1b[2J", 1)[-1].split())
    assert "You are player 0" not in later
    assert "Suits: D denari" in later
    child.close(force=True)


def test_a_resumed_match_lists_the_plays_made_before_it_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = record_file(tmp_path / "saved.txt", CLASSIC, seed=1, plays=4)
    plays = read_record(record.read_text(encoding="utf-8")).state.history
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("LINES", "60")  # room for every play below the board
    boards: list[str] = []

    def read(prompt: str, seconds: float | None) -> str:
        if prompt.startswith("Your move"):
            boards.append(screen.getvalue().rsplit("\x1b[2J", 1)[-1])
            return "quit"
        return {"Abandon": "a", "Save": "n"}[prompt.split()[0]]

    assert cli.main(["play", "--resume", str(record)], read=read) == 0
    board = re.sub(r"\x1b\[[0-9;]*m", "", boards[0])
    listed = board.split("\nPlays\n", 1)[1].rstrip().splitlines()
    said = [
        f"  {'You play' if player == 0 else 'Player 1 plays'} {move_text(move)}"
        for player, move in plays
    ]
    # then the computer's play since, before your move
    assert len(listed) == len(said) + 2
    recalled = [line.removesuffix(". Scopa!") for line in listed[: len(said) + 1]]
    assert recalled == ["  Hand 1: you deal", *said]


def test_a_resumed_match_recalls_the_hands_already_played(tmp_path: Path) -> None:
    match = scopa.Match.new(CLASSIC, seed=2)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    match = match.apply(match.state.legal_moves()[0])  # and the first play of hand 2
    record = tmp_path / "saved.txt"
    record.write_text(write_record(match), encoding="utf-8")
    result = run("play", "--resume", str(record), stdin="quit\na\nn\n")
    assert result.returncode == 0, result.stderr
    hand = match.hands[0]
    before_the_board = result.stdout.split("\n\nclassic match to 11 points, hand 2", 1)[0]
    lines = before_the_board.splitlines()
    first, second = lines.index("Hand 1: you deal"), lines.index("Hand 2: player 1 deals")
    played = [line for line in lines[first:second] if line.startswith(("You play", "Player 1"))]
    assert len(played) == len(hand.history)
    mine, theirs = hand.points
    assert f"Hand 1 is over: you {mine}, player 1 {theirs}." in lines[first:second]
    player, move = match.state.history[0]
    assert player == 0  # player 1 dealt: you lead
    assert lines[second + 1] == f"You play {move_text(move)}"


def test_a_move_typed_to_leave_the_help_under_the_clock_is_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (key,) = first_move_keys("tretre", 2)  # a card with one way to play it
    player = Player(("help", 2), (key, 3), ("quit", 0), ("a", 0), ("n", 0))
    assert play(player, "--variant", "tretre", "--seed", "2") == 0
    assert player.prompts[1] == "Press Enter to go back to your move, or type it now: "
    assert player.offered[1] is None  # the clock stops while the help is read
    assert [prompt.split()[0] for prompt in player.prompts] == [
        "Your",
        "Press",
        "Your",
        "Abandon",
        "Save",
    ]
    assert player.offered[2] == 30  # the next move's own clock: the card was played
    assert f"You play {key.upper()}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("redirection", "command", "closed"),
    [
        (">&-", ["rules", "classic"], "standard output"),
        (">&-", ["play", "--seed", "7"], "standard output"),
        ("<&-", ["play", "--seed", "7"], "standard input"),
    ],
)
def test_a_closed_standard_stream_is_one_line(
    redirection: str, command: list[str], closed: str
) -> None:
    line = f'exec "$0" -m scopa {" ".join(command)} {redirection}'
    result = subprocess.run(
        ["sh", "-c", line, sys.executable], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert closed in one_line_error(result)
    # with standard error closed too, the status alone says so (an uncaught error gives 1)
    quiet = subprocess.run(
        ["sh", "-c", f"{line} 2>&-", sys.executable], capture_output=True, text=True, timeout=120
    )
    assert quiet.returncode == 2


def test_a_replay_with_standard_input_closed_prints_everything(tmp_path: Path) -> None:
    record = record_file(tmp_path / "match.txt", CLASSIC, plays=4)
    result = subprocess.run(
        ["sh", "-c", 'exec "$0" -m scopa replay "$1" <&-', sys.executable, str(record)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n  Player ") == 4


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("ending", ["SIGHUP", "SIGTERM", "the terminal closes"])
def test_a_closed_terminal_or_a_terminate_signal_keeps_the_match(
    ending: str, tmp_path: Path
) -> None:
    child = spawn("play", "--seed", "7")
    child.expect("Your move")
    child.sendline("4s")
    child.expect_exact("\x1b[2J")  # the board is drawn again after your move
    child.expect("Your move")
    recovered = tmp_path / "scopa-recovery.txt"
    if ending == "the terminal closes":
        os.close(child.child_fd)  # the kernel hangs up the terminal: SIGHUP
        status = child.ptyproc.wait()
        assert child.ptyproc.signalstatus is None  # it ended by itself
    else:
        child.kill(getattr(signal, ending))
        child.expect_exact(f"The match record is saved in {recovered}; go on with: ")
        child.expect_exact("scopa: stopped (")
        status = ended(child)  # by itself, not by the signal
    assert status == 1
    match = read_record(recovered.read_text(encoding="utf-8"))
    assert (0, Move.parse("4S")) in match.state.history
    assert not match.is_over


def test_a_missing_numpy_is_said_with_how_to_install_it_from_here(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scopa._extras import install_hint

    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy raises ImportError
    monkeypatch.delitem(sys.modules, "scopa.policy", raising=False)
    for opponent in ("policy", "policy:mine.npz"):
        with pytest.raises(SystemExit) as stop:
            cli.main(["play", "--opponent", opponent], read=lambda prompt, seconds: None)
        assert stop.value.code == 2
        error = capsys.readouterr().err
        named = opponent if opponent == "policy" else repr(opponent)
        assert error.startswith(f"scopa: error: agent {named} needs numpy")
        assert error.endswith(f'which the extra "cli" installs: {install_hint("cli")}\n')


def test_the_piped_example_of_the_guide_does_what_it_says() -> None:
    guide = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    found = re.search(r"`(printf '([^']*)' \| scopa play --seed \d+)` ([^`]*?\.) ", guide)
    assert found is not None, "the guide has no piped example"
    pipeline, typed, said = found.groups()
    result = subprocess.run(
        ["sh", "-c", pipeline.replace("scopa", '"$0" -m scopa', 1), sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for refused in ("You do not hold", "You cannot play", "Choose one of", "Answer "):
        assert refused not in out
    # what the guide says happens: the card played, the capture chosen, the match abandoned
    card, taken = re.findall(r"\(([^)]*)\)", said)[:2]
    assert typed.split("\\n")[:2] == [card.lower(), "1"]
    assert out.count("  1) take ") == 1
    assert "of the three captures" in said
    assert "\n  3) take " in out
    assert "\n  4) take " not in out
    assert f"  1) take {taken}\n" in out
    assert f"You play {card} taking {taken}\n" in out
    assert "abandons the match and does not save it" in said
    assert "You abandon the match." in out
    assert out.rstrip().endswith("Save the match record? [y/N]")
