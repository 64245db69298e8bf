"""The command's agents given by the user: a trained policy file, and an agent of their own."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import scopa
from scopa.agents import RandomAgent
from scopa.board import move_text
from scopa.moves import Move
from scopa.state import PlayerView
from scopa.tournament import tournament
from tests.helpers import CLASSIC

COMMAND = [sys.executable, "-m", "scopa"]

MINE = '''
import threading


class FirstMove:
    """Plays the first legal move, holding what no pickle carries."""

    def __init__(self):
        self.lock = threading.Lock()

    def choose(self, seen, rng):
        return seen.legal_moves()[0]


def make():
    return FirstMove()


played = FirstMove()
number = 3


class Broken:
    def __init__(self):
        raise RuntimeError("no weights in " + "x" * 500)


class Peeking:
    def choose(self, seen, rng):
        return seen.legal_moves()[0]

    def choose_from_state(self, state, rng):
        return state.legal_moves()[0]
'''


@pytest.fixture(autouse=True)
def _modules_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every command in English, in a folder holding the user's modules."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")
    (tmp_path / "mybots.py").write_text(MINE, encoding="utf-8")
    (tmp_path / "raising.py").write_text("raise RuntimeError('no GPU')\n", encoding="utf-8")
    (tmp_path / "needy.py").write_text("import no_such_package_xyz\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("def choose(:\n", encoding="utf-8")
    (tmp_path / "notes.npz").write_text("not a policy\n", encoding="utf-8")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=300, check=False, input=""
    )


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("scopa: error: ")
    return lines[0]


class FirstMove:
    """The agent of mybots.py, here."""

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        return seen.legal_moves()[0]


def table(agents: str, workers: int) -> str:
    """The table `scopa simulate` prints for these agents on 6 deals of seed 2."""
    result = run(
        "simulate", "--agents", agents, "--deals", "6", "--seed", "2", "--workers", str(workers)
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("spec", ["mybots:FirstMove", "mybots:make", "mybots:played"])
@pytest.mark.parametrize("workers", [1, 2])
def test_an_agent_of_your_own_plays_a_tournament(spec: str, workers: int) -> None:
    # a class is made with no arguments, a function that makes one is called, an agent is
    # taken as it is; on a pool, each worker builds it again (it cannot be pickled)
    expected = tournament(
        CLASSIC, [FirstMove(), RandomAgent()], deals=6, seed=2, names=[spec, "random"]
    )
    assert table(f"{spec},random", workers).strip() == expected.table()


def test_an_agent_of_your_own_plays_a_match() -> None:
    result = run("play", "--opponent", "mybots:FirstMove", "--seed", "4")
    assert result.returncode == 1  # the input ends at the first question
    assert "the computer (mybots:FirstMove) plays player 1" in " ".join(result.stdout.split())
    lead = scopa.GameState.new(CLASSIC, seed=4).legal_moves()[0]  # player 1 leads
    assert f"Player 1 plays {move_text(lead)}\n" in result.stdout


def test_the_help_says_how_to_name_them() -> None:
    for command in ("play", "simulate"):
        words = " ".join(run(command, "--help").stdout.split())
        assert "policy:FILE" in words
        assert "MODULE:NAME" in words


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchmodule:Agent", "there is no module 'nosuchmodule' in the current folder"),
        ("mybots.sub:Agent", "there is no module 'mybots.sub'"),
        ("mybots:Missing", "mybots has no 'Missing'"),
        ("mybots:number", "is not an agent: int objects have no choose(seen, rng) method"),
        ("mybots:Broken", "making it raised RuntimeError: no weights in xxxx"),
        ("mybots:Peeking", "reads the whole state (choose_from_state)"),
        ("raising:Agent", "importing raising raised RuntimeError: no GPU"),
        ("needy:Agent", "importing needy raised ModuleNotFoundError: No module named 'no_such"),
        ("broken:Agent", "importing broken raised SyntaxError: "),
        ("mybots:", "give an agent of your own as MODULE:NAME"),
        (":Agent", "give an agent of your own as MODULE:NAME"),
        ("mybots:1st", "give an agent of your own as MODULE:NAME"),
        ("oracle", "unknown agent 'oracle'; known agents: random, greedy, search, policy"),
    ],
)
def test_an_agent_that_cannot_be_had_is_one_line(spec: str, message: str) -> None:
    for command in (
        ["play", "--opponent", spec],
        ["simulate", "--agents", f"greedy,{spec}", "--deals", "2"],
    ):
        error = one_line_error(run(*command))
        assert message in error, error
        assert len(error) < 400  # what an import raised is cut short


# ----------------------------------------------------------------------------- policy files


def figures(agents: str, workers: int, output: Path) -> dict[str, Any]:
    """The result `scopa simulate --json` writes, without the agents' names."""
    result = run(
        *("simulate", "--agents", agents, "--deals", "6", "--seed", "2"),
        *("--workers", str(workers), "--json", str(output)),
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
    for agent in data["agents"]:
        del agent["name"]
    return data


def test_a_policy_file_plays_as_its_weights(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from scopa.policy import PolicyAgent, save_parameters

    saved = tmp_path / "mine.npz"
    save_parameters(saved, PolicyAgent().arrays, CLASSIC)  # the shipped policy's weights
    shipped = figures("policy,random", 1, tmp_path / "shipped.json")
    for workers in (1, 2):
        assert figures(f"policy:{saved},random", workers, tmp_path / "mine.json") == shipped


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("policy:missing.npz", "cannot read 'missing.npz': No such file or directory"),
        ("policy:notes.npz", "not a policy file"),
        ("policy:", "give the policy's file, as policy:FILE"),
    ],
)
def test_a_policy_file_that_cannot_be_read_is_one_line(spec: str, message: str) -> None:
    pytest.importorskip("numpy")
    error = one_line_error(run("play", "--opponent", spec))
    assert error.startswith(f"scopa: error: agent {spec!r}: "), error
    assert message in error, error


def test_a_policy_for_other_rules_is_refused_before_playing(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from scopa.policy import PolicyAgent, save_parameters

    saved = tmp_path / "classic.npz"
    save_parameters(saved, PolicyAgent().arrays, CLASSIC)
    error = one_line_error(run("play", "--opponent", f"policy:{saved}", "--variant", "scopone"))
    assert error.startswith("scopa: error: agent 'policy:"), error
    assert "'scopone'" in error  # the policy's own reason names the rules


def test_the_module_path_is_as_it_was_after_the_command(tmp_path: Path) -> None:
    from scopa import cli

    before = list(sys.path)
    (tmp_path / "scripted.py").write_text(
        textwrap.dedent("""
            class Agent:
                def choose(self, seen, rng):
                    return seen.legal_moves()[-1]
        """),
        encoding="utf-8",
    )
    status = cli.main(
        ["simulate", "--agents", "scripted:Agent,greedy", "--deals", "1"],
    )
    assert status == 0
    assert sys.path == before
    sys.modules.pop("scripted", None)
