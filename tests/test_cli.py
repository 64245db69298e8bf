"""The `scopa` command, driven as a user would: subprocesses, piped input, a terminal."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import scopa
from scopa.agents import GreedyAgent
from scopa.records import read_record

COMMAND = [sys.executable, "-m", "scopa"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def keystrokes(variant: str, seed: int) -> list[str]:
    """What a player who always plays their first legal move types in a whole match."""
    rules = scopa.find_variant(variant)
    match = scopa.Match.new(rules, seed=seed)
    rng = random.Random(seed)
    opponent = GreedyAgent()
    keys = []
    while not match.is_over:
        state = match.state
        if state.current_player != 0:
            match = match.apply(opponent.choose(state, rng))
            continue
        move = state.legal_moves()[0]
        keys.append(str(move.card).lower())
        options = [m for m in state.legal_moves() if m.card == move.card]
        if len(options) > 1:
            keys.append(str(options.index(move) + 1))
        match = match.apply(move)
    return keys


@pytest.mark.parametrize("command", [[], ["play"], ["simulate"], ["replay"], ["rules"]])
def test_help_is_complete(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.returncode == 0
    assert "usage: scopa" in result.stdout
    for word in {
        "play": ["--variant", "--opponent", "--seed"],
        "simulate": ["--agents", "--deals", "--workers", "--json"],
    }.get(command[0] if command else "", []):
        assert word in result.stdout


def test_usage_errors_exit_2_with_one_line() -> None:
    for args in (
        ["rules", "briscola"],
        ["play", "--variant", "briscola"],
        ["frobnicate"],
        ["simulate", "--agents", "greedy,oracle", "--deals", "2"],
    ):
        result = run(*args)
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines()[-1].startswith("scopa: error:")


def test_rules_lists_every_preset_and_shows_knobs() -> None:
    listing = run("rules")
    assert listing.returncode == 0
    for name in scopa.variant_names():
        assert name in listing.stdout
    one = run("rules", "Scopa d'assi")
    assert "ace_captures_all" in one.stdout
    assert "True" in one.stdout


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
    assert "Hand 1" in out
    assert "primiera" in out
    assert "The computer wins." in out or "You win!" in out
    assert f"Saved to {record}" in out
    match = read_record(record.read_text())
    assert match.is_over
    replay = run("replay", str(record), "--all")
    assert replay.returncode == 0
    assert "Hand 1" in replay.stdout
    assert "Winner: side" in replay.stdout


def test_a_card_not_in_hand_is_refused() -> None:
    keys = keystrokes("classic", 7)
    hand = read_first_hand("classic", 7)
    absent = next(c for c in scopa.DECK if c not in hand)
    result = run("play", "--seed", "7", stdin="\n".join([str(absent), *keys, "n"]) + "\n")
    assert result.returncode == 0
    assert "is not a card you can play now" in result.stdout


def read_first_hand(variant: str, seed: int) -> frozenset[scopa.Card]:
    return scopa.Match.new(scopa.find_variant(variant), seed=seed).state.hands[0]


def test_replay_of_a_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("scopa-record 1\nrules {}\n")
    result = run("replay", str(bad))
    assert result.returncode == 1
    assert result.stderr.startswith("scopa: error: line 2, rules")
    missing = run("replay", str(tmp_path / "none.txt"))
    assert missing.returncode == 2


def test_ctrl_c_offers_to_abandon_with_the_variant_consequences() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "scopa", "play", "--variant", "tretre", "--seed", "2"],
        encoding="utf-8",
        timeout=30,
    )
    child.expect("Your move")
    child.sendintr()
    child.expect("Abandon the match")
    child.sendline("a")
    child.expect("Brilli: 10.00 / -30.00|Brilli: -30.00 / 10.00")
    child.expect("Save the match record")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_can_save_and_resume(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    saved = tmp_path / "saved.txt"
    child = pexpect.spawn(
        sys.executable, ["-m", "scopa", "play", "--seed", "4"], encoding="utf-8", timeout=30
    )
    child.expect("Your move")
    child.sendintr()
    child.expect("Abandon the match")
    child.sendline("s")
    child.expect("File name")
    child.sendline(str(saved))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not read_record(saved.read_text()).is_over
    resumed = run("play", "--resume", str(saved), stdin="quit\na\nn\n")
    assert resumed.returncode == 0
    assert "You abandon" in resumed.stdout
