"""`why` in `scopa play` and `scopa replay --why`: the rules' reasons for a move and a score.

The positions come from records, so that each known answer is worked out by hand from the
table and the hand: the first position is that of [the rules' example of what a card can
capture](../docs/rules.md): player 1 has led the Ace of denari, and player 0 holds 3S 5B
7B on a table of 1D 5D 3C 4C 2B.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import scopa
from scopa import cli
from scopa.records import read_record, write_record
from tests.helpers import CLASSIC, Terminal
from tests.test_cli import keystrokes

COMMAND = [sys.executable, "-m", "scopa"]


@pytest.fixture(autouse=True)
def _in_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every command in a folder of its own, in English whatever the machine's locale."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        encoding="utf-8",
    )


def words(text: str) -> str:
    """Text with its lines joined, so that a sentence wrapped over two lines is found."""
    return " ".join(text.split())


def points(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"


def lead_of_seed_89(path: Path, *, first_dealer: int = 0) -> Path:
    """A record of classic, seed 89, after the first legal move (player 1 leads 1D)."""
    match = scopa.Match.new(CLASSIC, seed=89, first_dealer=first_dealer)
    if first_dealer == 0:
        match = match.apply(match.state.legal_moves()[0])
    path.write_text(write_record(match), encoding="utf-8")
    return path


def test_the_position_of_the_known_answers(tmp_path: Path) -> None:
    state = read_record(lead_of_seed_89(tmp_path / "lead.txt").read_text()).state
    assert state.history == ((1, scopa.Move.parse("1D")),)
    assert sorted(map(str, state.table)) == sorted(["1D", "5D", "3C", "4C", "2B"])
    assert sorted(map(str, state.hands[0])) == sorted(["3S", "5B", "7B"])
    assert state.current_player == 0


def test_why_explains_the_last_play_and_the_moves_a_card_may_make(tmp_path: Path) -> None:
    record = lead_of_seed_89(tmp_path / "lead.txt")
    script = ["why", "why 5B", "why 7B", "why 5Bx1D+4C", "why zz", "quit", "a", "n"]
    result = run("play", "--resume", str(record), stdin="\n".join(script) + "\n")
    assert result.returncode == 0, result.stderr
    out = words(result.stdout)
    # the last play: an Ace on a table with no Ace and no cards that add up to 1
    assert "Player 1 may play 1D. - 1D takes nothing and stays on the table" in out
    # 5B: the 5 of denari is on the table, and a card of equal rank is taken before any sum;
    # the sums of 5 it may not take are 1+4 and 3+2
    assert "Player 0 may play 5Bx5D. - 5B takes 5D, a card of equal rank." in out
    assert "no sum may be taken (1D+4C, 3C+2B)" in out
    # 7B: no 7 on the table; 1+4+2, 3+4 and 5+2 make 7, and the player chooses
    assert "Player 0 may play 7Bx1D+4C+2B." in out
    assert (
        "7B can capture in 3 ways, and its player chooses: 7Bx1D+4C+2B, 7Bx3C+4C, 7Bx5D+2B" in out
    )
    assert "Player 0 cannot play 5Bx1D+4C. - 5B must take 5D" in out
    assert "cannot read 'zz' as a card" in out
    # an explanation changes nothing: the match is abandoned with no move of player 0
    assert "You abandoned: the computer wins." in out


def test_a_refused_move_says_the_rule_it_breaks(tmp_path: Path) -> None:
    record = lead_of_seed_89(tmp_path / "lead.txt")
    result = run("play", "--resume", str(record), stdin="5Bx1D+4C\n7Bx9C\nquit\na\nn\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert (
        "5B must take 5D: a card of equal rank on the table is taken first, before any sum."
        " (rules: What a card can capture)\n"
    ) in out
    assert "9C is not on the table: a card takes only cards that are on the table." in out
    assert out.count("Your move (a card such as 7D; help, why, quit): ") == 3


def test_why_before_any_play_says_so(tmp_path: Path) -> None:
    # player 1 deals the first hand, so player 0 leads it
    record = lead_of_seed_89(tmp_path / "deal.txt", first_dealer=1)
    result = run("play", "--resume", str(record), stdin="why\nquit\na\nn\n")
    assert result.returncode == 0, result.stderr
    assert "No card has been played yet." in result.stdout


def test_why_score_explains_the_last_hand(tmp_path: Path) -> None:
    match = scopa.Match.new(CLASSIC, seed=7)
    while not match.hands:
        match = match.apply(match.state.legal_moves()[0])
    record = tmp_path / "hand.txt"
    record.write_text(write_record(match), encoding="utf-8")
    mine, theirs = match.hands[0].points
    result = run("play", "--resume", str(record), stdin="why score\nquit\na\nn\n")
    assert result.returncode == 0, result.stderr
    out = words(result.stdout)
    assert f"Score of the hand: player 0 {points(mine)}, player 1 {points(theirs)}." in out
    # the cards left on the table go to the last to capture: the two piles hold all 40
    taken = re.search(r"carte: cards taken: player 0 (\d+), player 1 (\d+)\.", out)
    assert taken is not None
    assert int(taken[1]) + int(taken[2]) == 40
    for category in ("scope:", "denari:", "settebello:", "primiera:"):
        assert f"- {category}" in out


def test_why_at_the_end_of_a_hand_on_a_terminal_explains_its_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setenv("TERM", "xterm")
    keys = keystrokes("classic", 7)
    asked: list[str] = []

    def read(prompt: str, seconds: float | None) -> str:
        """Play hand 1, ask why at its end, deal the next, then abandon."""
        asked.append(prompt)
        if prompt.startswith("Press Enter to deal"):
            keys.clear()
            return "why" if len(asked) < 2 or not asked[-2].startswith("Press") else ""
        answer = {"Abandon": "a", "Save": "n"}.get(prompt.split()[0])
        return answer or (keys.pop(0) if keys else "quit")

    assert cli.main(["play", "--seed", "7"], read=read) == 0
    ends = [p for p in asked if p.startswith("Press Enter to deal")]
    assert ends == [
        "Press Enter to deal the next hand, or type why for the reasons of the score. ",
        "Press Enter to deal the next hand. ",
    ]
    out = words(re.sub(r"\x1b\[[0-9;]*[mHJ]", "", screen.getvalue()))
    assert re.search(r"Score of the hand: player 0 \d+ points?, player 1 \d+ points?\.", out)
    assert "- primiera: the best card of each suit" in out


def test_the_help_says_how_to_ask_why(tmp_path: Path) -> None:
    record = lead_of_seed_89(tmp_path / "lead.txt")
    result = run("play", "--resume", str(record), stdin="help\nquit\na\nn\n")
    out = words(result.stdout)
    assert "Type why to see why the last play was legal and what it took" in out
    assert "Legal moves: 3Sx3C, 5Bx5D, 7Bx1D+4C+2B, 7Bx3C+4C, 7Bx5D+2B" in out


def test_replay_why_explains_every_play_and_every_hand(tmp_path: Path) -> None:
    match = scopa.Match.new(CLASSIC, seed=7)
    while len(match.hands) < 1 or len(match.state.history) < 3:
        match = match.apply(match.state.legal_moves()[0])
    record = tmp_path / "match.txt"
    record.write_text(write_record(match), encoding="utf-8")
    result = run("replay", str(record), "--all", "--why")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    plays = [*match.hands[0].history, *match.state.history]
    played = [i for i, line in enumerate(lines) if re.match(r"  Player \d: ", line)]
    assert len(played) == len(plays)
    for at, (player, move) in zip(played, plays, strict=True):
        # each play is followed by why it was legal, indented under it
        assert lines[at + 1] == f"    Player {player} may play {move}.", lines[at : at + 2]
    mine, theirs = match.hands[0].points
    summary = f"  Score of the hand: player 0 {points(mine)}, player 1 {points(theirs)}."
    assert lines.count(summary) == 1
    plain = run("replay", str(record), "--all").stdout
    assert "may play" not in plain
    assert "Score of the hand" not in plain
