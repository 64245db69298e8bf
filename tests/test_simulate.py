"""`scopa simulate` stopped by Ctrl-C, and the arguments it refuses before playing."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from scopa import cli
from scopa.cli import _simulate

COMMAND = [sys.executable, "-m", "scopa"]
WORKERS = ["--workers", "2"]


@pytest.fixture(autouse=True)
def _in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read the command in English, whatever the machine's locale."""
    monkeypatch.setenv("LANGUAGE", "en")


def children(pid: int) -> list[int]:
    """The process ids of the children of `pid` (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def playing_on_a_pool() -> Any:
    """`scopa simulate` on two workers in a terminal, once the workers have played a chunk.

    The progress bar counts the deals of the chunks that have finished: waiting for a count
    above zero waits for the workers to be playing, however loaded the machine is.
    """
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        [*COMMAND[1:], "simulate", "--agents", "greedy,random", "--deals", "200000", *WORKERS],
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "TERM": "xterm-256color", "LANGUAGE": "en"},
        dimensions=(24, 100),
    )
    child.expect(r"[1-9][0-9]*/200000 deals")
    return child


def ended(child: Any) -> tuple[int | None, str]:
    """The exit status of the command in the terminal and what it wrote after the bar."""
    pexpect = pytest.importorskip("pexpect")
    # the guard against a hang: the queued deals take minutes, a hung pool forever
    child.expect(pexpect.EOF)
    out = child.before
    status = child.wait()  # closing the terminal would hang up on a command still exiting
    assert child.signalstatus is None  # it ended by itself, not by a signal
    return status, out


@pytest.mark.skipif(sys.platform != "linux", reason="reads the children of a process in /proc")
@pytest.mark.parametrize("whom", ["group", "command", "group twice", "group twice later"])
def test_one_ctrl_c_stops_a_pool_at_once(whom: str) -> None:
    # Ctrl-C at a terminal signals the whole process group; `kill -INT` the command alone
    child = playing_on_a_pool()
    workers = children(child.pid)
    assert len(workers) == 2
    if whom == "command":
        child.kill(signal.SIGINT)
    else:
        child.sendintr()
    if whom == "group twice":  # an impatient second Ctrl-C once left the pool hung for good
        child.sendintr()
    if whom == "group twice later":  # one that came as the command exited ended it by the signal
        child.expect_exact("scopa: stopped")
        with contextlib.suppress(OSError):  # unless it has gone already
            child.sendintr()
    status, out = ended(child)
    # a second Ctrl-C while the workers are being stopped is ignored: the command stops once
    assert status == 1
    assert "Traceback" not in out
    assert "paired" not in out  # no table of a tournament cut short
    if whom != "group twice later":
        assert out.rstrip().endswith("scopa: stopped")
    assert not any(Path(f"/proc/{worker}").exists() for worker in workers)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the children of a process in /proc")
def test_a_worker_killed_is_one_line() -> None:
    # as the system does to a process that runs out of memory
    child = playing_on_a_pool()
    os.kill(children(child.pid)[0], signal.SIGKILL)
    child.expect_exact("scopa: error: a worker process died")
    status, out = ended(child)
    assert status == 1
    lines = ("scopa: error: a worker process died" + out).strip().splitlines()
    assert len(lines) == 1
    assert "paired deals finished" in lines[0]


def no_tournament(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the tournament ran before the arguments were checked")


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        (["--deals", "10000000000"], "--deals must be from 1 to 10,000,000"),
        (["--deals", "9", "--json", "r" * 300 + ".json"], "--json 'rrrr"),
    ],
    ids=["too-many-deals", "long-file-name"],
)
def test_simulate_refuses_at_once_what_it_cannot_do(
    argument: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(_simulate, "tournament", no_tournament)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        cli.main(["simulate", "--agents", "greedy,random", *argument])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith(f"scopa: error: {message}")
    assert len(error.splitlines()) == 1
    assert len(error) < 250  # the name is quoted short


def test_simulate_says_nothing_of_matches_it_did_not_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["simulate", "--agents", "greedy,random", "--deals", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "classic: 2 paired deals, seed 4\n" in out
    assert "match" not in out
