"""`scopa simulate` stopped by Ctrl-C, and the arguments it refuses before playing."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from scopa import cli

COMMAND = [sys.executable, "-m", "scopa"]


def children(pid: int) -> list[int]:
    """The process ids of the children of `pid` (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="reads the children of a process in /proc")
@pytest.mark.parametrize("whom", ["group", "command", "group twice", "group twice later"])
def test_one_ctrl_c_stops_a_pool_at_once(whom: str) -> None:
    # Ctrl-C at a terminal signals the whole process group; `kill -INT` the command alone
    deals = ["--deals", "200000", "--workers", "2"]
    command = subprocess.Popen(
        [*COMMAND, "simulate", "--agents", "greedy,random", *deals],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(children(command.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(children(command.pid)) >= 2, "the workers did not start"
        time.sleep(1)  # the workers are playing
        if whom == "command":
            command.send_signal(signal.SIGINT)
        else:
            os.killpg(command.pid, signal.SIGINT)
        if whom.startswith("group twice"):  # an impatient second Ctrl-C left the pool hung
            # for good; one that came as the command exited ended it by the signal
            time.sleep(0.05 if whom.endswith("later") else 0.02)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(command.pid, signal.SIGINT)
        # the guard against a hang: the queued deals took minutes, a second Ctrl-C forever
        out, err = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.communicate()
    # a second Ctrl-C while the workers are being stopped is ignored: the command stops once
    assert command.returncode == 1
    assert err.endswith("scopa: stopped\n")
    assert "Traceback" not in err
    assert "paired" not in out  # no table of a tournament cut short


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
    monkeypatch.setattr(cli, "tournament", no_tournament)
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
