"""The trained policy as an agent: parameter files, choices, the shipped policy."""

from __future__ import annotations

import io
import math
import pickle
import random
import struct
import subprocess
import sys
import tracemalloc
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='needs numpy, from the extra "policy"')

from scopa import GameState, InvalidArgumentError, Move, find_variant, variant_names, view  # noqa: E402
from scopa.agents import Agent, GreedyAgent, play_hand  # noqa: E402
from scopa.encoding import MOVE_FACTS, move_facts, observation_size  # noqa: E402
from scopa.policy import FORMAT, PolicyAgent, load_parameters, save_parameters  # noqa: E402
from scopa.tournament import tournament  # noqa: E402
from tests.helpers import position  # noqa: E402

CLASSIC = find_variant("classic")
WIDTH = 4


def hand_made(observations: int = 172, fact: int = 1, sign: float = 1.0) -> dict[str, Any]:
    """A network whose score is `sign * tanh(facts[fact])`: one hidden unit reads one fact."""
    hidden = np.zeros((MOVE_FACTS + WIDTH, WIDTH), np.float32)
    hidden[fact, 0] = 1.0
    score = np.zeros(WIDTH, np.float32)
    score[0] = sign
    return {
        "summary": np.zeros((observations, WIDTH), np.float32),
        "summary_bias": np.zeros(WIDTH, np.float32),
        "hidden": hidden,
        "hidden_bias": np.zeros(WIDTH, np.float32),
        "score": score,
        "score_bias": np.zeros((), np.float32),
    }


def lead() -> GameState:
    """Player 0 holds 7D 3C 10B over 2B 5D 9C: only 7D can capture (2B 5D)."""
    return position(CLASSIC, ["7D 3C 10B", "4S 5S 6S"], "2B 5D 9C", stock="9D 9S 9B 1D 1C 1S")


def test_a_hand_made_network_plays_by_its_fact() -> None:
    seen = view(lead(), 0)
    # Scoring "it captures" (fact 1): the capture 7D x 2B 5D scores tanh(1), the lays 0.
    taker = PolicyAgent(hand_made(fact=1))
    assert taker.choose(seen, random.Random(0)) == Move.parse("7D x 2B 5D")
    scores = taker.scores(seen)
    moves = seen.legal_moves()
    assert scores[moves.index(Move.parse("7D x 2B 5D"))] == pytest.approx(np.tanh(1.0))
    assert scores[moves.index(Move.parse("3C"))] == 0.0
    # Scoring minus the played card's value (fact 10): the lowest card, 3C, is laid.
    low = PolicyAgent(hand_made(fact=10, sign=-1.0))
    assert low.choose(seen, random.Random(0)) == Move.parse("3C")


def test_moves_the_network_cannot_tell_apart_tie_and_the_first_is_played() -> None:
    # Laying 8S or 8B, say, when both show the same facts: their scores are equal, whatever
    # the rounding of a matrix product, and the first of the best moves is played.
    agent = PolicyAgent()
    rng = random.Random(1)
    tied = 0
    for seed in range(12):
        state = GameState.new(CLASSIC, seed=seed)
        while not state.is_terminal:
            seen = view(state)
            moves = seen.legal_moves()
            scores = agent.scores(seen)
            by_facts: dict[tuple[float, ...], float] = {}
            for move, score in zip(moves, scores, strict=True):
                facts = tuple(move_facts(seen, move))
                tied += facts in by_facts
                assert by_facts.setdefault(facts, score) == score, (seed, str(move))
            assert agent.choose(seen, rng) == moves[scores.index(max(scores))]
            state = state.apply(rng.choice(moves))
    assert tied > 10  # the case arises: equal facts are common


def test_the_file_round_trip(tmp_path: Path) -> None:
    arrays = hand_made()
    arrays["value"] = np.ones(WIDTH, np.float32)  # not the policy's: left out
    path = tmp_path / "policy.npz"
    save_parameters(path, arrays, CLASSIC)
    loaded = load_parameters(path)
    assert sorted(loaded) == sorted(hand_made())
    assert all(np.array_equal(loaded[name], array) for name, array in hand_made().items())
    with np.load(path) as stored:
        assert int(stored["format"]) == FORMAT
        assert str(stored["variant"]) == "classic"
    agent = PolicyAgent.load(path)
    assert agent.choose(view(lead(), 0), random.Random(0)) == Move.parse("7D x 2B 5D")


def _saved(arrays: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, format=np.array(FORMAT), **arrays)
    return buffer.getvalue()


def test_bad_and_truncated_files_are_refused(tmp_path: Path) -> None:
    good = _saved(hand_made())
    path = tmp_path / "policy.npz"
    path.write_bytes(good[: len(good) // 2])
    with pytest.raises(InvalidArgumentError, match="not a policy file"):
        PolicyAgent.load(path)
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(InvalidArgumentError, match="not a policy file"):
        load_parameters(path)
    with pytest.raises(FileNotFoundError):
        load_parameters(tmp_path / "missing.npz")
    missing = hand_made()
    del missing["hidden"]
    with pytest.raises(InvalidArgumentError, match="lacks the array 'hidden'"):
        load_parameters(io.BytesIO(_saved(missing)))
    wrong = hand_made()
    wrong["score"] = np.zeros(WIDTH + 1, np.float32)
    with pytest.raises(InvalidArgumentError, match="'score' must be floats of shape"):
        load_parameters(io.BytesIO(_saved(wrong)))
    broken = hand_made()
    broken["hidden_bias"][0] = np.nan
    with pytest.raises(InvalidArgumentError, match="not finite"):
        load_parameters(io.BytesIO(_saved(broken)))
    buffer = io.BytesIO()
    np.savez(buffer, format=np.array(FORMAT + 1), **hand_made())
    buffer.seek(0)
    with pytest.raises(InvalidArgumentError, match="format 1"):
        load_parameters(buffer)
    with pytest.raises(InvalidArgumentError, match="lacks the array"):
        save_parameters(tmp_path / "x.npz", {"summary": np.zeros((172, 4))}, CLASSIC)


def _npy(descr: str, shape: tuple[int, ...], data: bytes, *, version: int = 1) -> bytes:
    """A `.npy` array written by hand as numpy documents the format (version 1.0 or 2.0)."""
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode("latin-1")
    length_size = 2 if version == 1 else 4
    header += b" " * (-(8 + length_size + len(header) + 1) % 64) + b"\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header + data


def _archive(
    members: dict[str, bytes],
    compression: int = zipfile.ZIP_DEFLATED,
    zeros: dict[str, int] | None = None,
) -> bytes:
    """A zip archive of these members, a member named in `zeros` going on with that many."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            with archive.open(name, "w", force_zip64=True) as member:
                member.write(data)
                more = (zeros or {}).get(name, 0)
                for start in range(0, more, 1 << 20):
                    member.write(bytes(min(1 << 20, more - start)))
    return buffer.getvalue()


def _members(arrays: dict[str, Any], version: Any = FORMAT) -> dict[str, bytes]:
    """The `.npy` members of a policy file, as numpy writes them: `format`, then `arrays`."""
    members = {}
    for name, value in {"format": np.array(version), **arrays}.items():
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        members[f"{name}.npy"] = buffer.getvalue()
    return members


def _peak_bytes(read: Any) -> int:
    """The most memory Python and numpy held at once while `read()` ran (or raised)."""
    tracemalloc.start()
    try:
        read()
    except InvalidArgumentError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_an_unused_member_declaring_a_huge_array_is_never_read() -> None:
    # 10**11 float64 values declared, 8 bytes given: reading it would ask for 745 GiB.
    huge = _npy("<f8", (10**11,), bytes(8))
    file = _archive({**_members(hand_made()), "extra.npy": huge})
    assert len(file) < 60_000
    loaded = load_parameters(io.BytesIO(file))
    assert all(np.array_equal(loaded[name], array) for name, array in hand_made().items())
    # In a member the format names, such a header is refused before any data is read.
    for name, header, why in (
        ("hidden.npy", huge, "'hidden' must be floats of shape"),
        ("summary.npy", _npy("<f4", (172, 10**9), b""), "'summary' must have 1 to 1,024 columns"),
        ("summary.npy", _npy("<f4", (10**9, 4), b""), "'summary' must have a row for each"),
    ):
        hostile = _archive({**_members(hand_made()), name: header})
        with pytest.raises(InvalidArgumentError, match=why):
            load_parameters(io.BytesIO(hostile))


def test_a_zip_bomb_is_left_unread_or_refused_in_little_memory() -> None:
    zeros = 64 << 20  # 64 MiB of zeros, deflated to about 64 KiB
    good = _members(hand_made())
    bomb = {**good, "bomb.npy": _npy("<f8", (zeros // 8,), b"")}
    unused = _archive(bomb, zeros={"bomb.npy": zeros})
    assert len(unused) < 1_000_000
    assert _peak_bytes(lambda: load_parameters(io.BytesIO(unused))) < 4 << 20
    assert sorted(load_parameters(io.BytesIO(unused))) == sorted(hand_made())
    # A member the format names with zeros past its array, or with a 2.0 header that
    # declares 2**31 bytes of header: refused before the zeros are decompressed.
    declares_long_header = _npy("<f4", (172, WIDTH), b"", version=2)[:8] + struct.pack(
        "<I", 1 << 31
    )
    for summary, why in (
        (good["summary.npy"], "holds 67,111,"),
        (declares_long_header, "a header of 2,147,483,648 bytes"),
    ):
        hostile = _archive({**good, "summary.npy": summary}, zeros={"summary.npy": zeros})
        with pytest.raises(InvalidArgumentError, match=why):
            load_parameters(io.BytesIO(hostile))
        assert _peak_bytes(lambda: load_parameters(io.BytesIO(hostile))) < 4 << 20  # noqa: B023


def test_files_that_are_not_plain_policy_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "summary.npy"
    np.save(path, hand_made()["summary"])
    with pytest.raises(InvalidArgumentError, match=r"is a single array \(.npy\), not a policy"):
        load_parameters(path)
    good = _members(hand_made())
    for members, compression, why in (
        ({**good, "hidden.npy": _npy("|O", (22, 4), b"")}, zipfile.ZIP_DEFLATED, "not a plain"),
        ({**good, "hidden.npy": _npy("<i4", (22, 4), bytes(352))}, zipfile.ZIP_STORED, "floats"),
        ({**good, "hidden.npy": b"not an array"}, zipfile.ZIP_STORED, "no .npy magic"),
        ({**good, "score.npy": good["score.npy"][:-4]}, zipfile.ZIP_STORED, "holds"),
        (good, zipfile.ZIP_LZMA, "compressed otherwise than by deflate"),
    ):
        with pytest.raises(InvalidArgumentError, match=why):
            load_parameters(io.BytesIO(_archive(members, compression)))
    # members marked as encrypted (bit 0 of the flags of the central directory's entries):
    # the zip module would ask for a password
    marked = bytearray(_archive(good, zipfile.ZIP_STORED))
    entry = marked.find(b"PK\x01\x02")
    while entry >= 0:
        marked[entry + 8] |= 0x1
        entry = marked.find(b"PK\x01\x02", entry + 1)
    with pytest.raises(InvalidArgumentError, match="encrypted"):
        load_parameters(io.BytesIO(bytes(marked)))
    # a byte of a stored array changed: its checksum no longer matches
    damaged = bytearray(_archive(good, zipfile.ZIP_STORED))
    at = damaged.index(good["hidden.npy"]) + len(good["hidden.npy"]) - 1
    damaged[at] ^= 0x40
    with pytest.raises(InvalidArgumentError, match="not a policy file"):
        load_parameters(io.BytesIO(bytes(damaged)))


@pytest.mark.parametrize("version", ["x", "1", math.nan, math.inf, 1.5, 1.0, 1j, True, 2, [1]])
def test_only_the_integer_1_is_the_format(version: Any) -> None:
    file = _archive(_members(hand_made(), version=version))
    with pytest.raises(InvalidArgumentError, match=r"format 1|'format' must be the integer 1"):
        load_parameters(io.BytesIO(file))


def test_numpy_files_of_other_layouts_that_hold_a_policy_load() -> None:
    # Fortran order, a 2.0 header, float64 and float16 values: the same network.
    arrays = hand_made()
    members = _members({**arrays, "hidden": np.asfortranarray(arrays["hidden"])})
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, arrays["summary"].astype(np.float64), version=(2, 0))
    members["summary.npy"] = buffer.getvalue()
    members["score.npy"] = _npy("<f2", (WIDTH,), arrays["score"].astype("<f2").tobytes())
    loaded = load_parameters(io.BytesIO(_archive(members)))
    assert all(np.array_equal(loaded[name], array) for name, array in arrays.items())
    assert all(array.dtype == np.float32 for array in loaded.values())


def test_weights_finite_only_in_float64_are_refused(tmp_path: Path) -> None:
    # 1e300 is inf as a float32: the agent would score every move NaN.
    big = hand_made()
    big["hidden"] = big["hidden"].astype(np.float64)
    big["hidden"][0, 0] = 1e300
    with pytest.raises(InvalidArgumentError, match="'hidden' holds a value that is not finite"):
        save_parameters(tmp_path / "big.npz", big, CLASSIC)
    assert not (tmp_path / "big.npz").exists()
    with pytest.raises(InvalidArgumentError, match="not finite as a float32"):
        PolicyAgent(big)
    with pytest.raises(InvalidArgumentError, match="not finite as a float32"):
        load_parameters(io.BytesIO(_archive(_members(big))))
    # the largest float32 is finite
    edge = hand_made()
    edge["score_bias"] = np.float64(np.finfo(np.float32).max)
    assert PolicyAgent(edge).arrays["score_bias"] == np.finfo(np.float32).max


def test_networks_of_shapes_no_rules_read_are_refused() -> None:
    wide = hand_made()
    wide["summary"] = np.zeros((172, 1025), np.float32)
    with pytest.raises(InvalidArgumentError, match="1 to 1,024 columns"):
        PolicyAgent(wide)
    with pytest.raises(InvalidArgumentError, match="a row for each value of an observation"):
        PolicyAgent(hand_made(observations=173))
    with pytest.raises(TypeError, match="a policy's arrays must be a Mapping"):
        PolicyAgent([1, 2])


def test_the_repr_is_short() -> None:
    assert repr(PolicyAgent()) == "PolicyAgent()"
    assert eval(repr(PolicyAgent()), {"PolicyAgent": PolicyAgent}).scores(view(lead(), 0)) == (
        PolicyAgent().scores(view(lead(), 0))
    )
    assert repr(PolicyAgent(hand_made())) == (
        "<PolicyAgent: a network of width 4 for two-player rules without declarations>"
    )
    assert repr(PolicyAgent(hand_made(observations=262))).endswith(
        "four-player rules without declarations>"
    )


def test_rules_with_another_observation_are_refused() -> None:
    agent = PolicyAgent(hand_made())
    scopone = find_variant("scopone")
    assert observation_size(scopone) != 172
    with pytest.raises(InvalidArgumentError) as refused:
        agent.check_rules(scopone)
    assert str(refused.value) == (
        "this policy plays two-player rules without declarations (it reads observations of "
        "172 values); rules 'scopone' are four-player rules without declarations and give 262"
    )
    with pytest.raises(InvalidArgumentError, match="reads observations of 172 values"):
        agent.choose(view(GameState.new(scopone, seed=1)), random.Random(0))
    with pytest.raises(TypeError, match="PlayerView"):
        agent.choose(GameState.new(CLASSIC, seed=1), random.Random(0))  # type: ignore[arg-type]


def _claimed() -> list[str]:
    return [
        name
        for name in variant_names()
        if observation_size(find_variant(name)) == observation_size(CLASSIC)
    ]


@pytest.mark.parametrize("name", _claimed())
def test_the_shipped_policy_plays_legal_moves(name: str) -> None:
    rules = find_variant(name)
    agent = PolicyAgent()
    agent.check_rules(rules)
    for seed in range(3):
        state = GameState.new(rules, seed=seed)
        while not state.is_terminal:
            move = agent.choose(view(state), random.Random(0))
            assert move in state.legal_moves()
            state = state.apply(move)


def test_the_shipped_policy_is_small_and_beats_greedy_in_a_short_tournament() -> None:
    from importlib import resources

    data = resources.files("scopa").joinpath("data", "classic-policy.npz")
    assert len(data.read_bytes()) < 1_000_000
    # Not a measure of strength (the bots guide has that): the agent plays whole
    # hands in a tournament, and a pickled copy plays the same moves.
    result = tournament(CLASSIC, [PolicyAgent(), GreedyAgent()], deals=20, seed=1)
    assert result.agents[0].hands == 40
    copy = pickle.loads(pickle.dumps(PolicyAgent()))
    state = GameState.new(CLASSIC, seed=5)
    first = play_hand(state, {0: PolicyAgent(), 1: GreedyAgent()}, random.Random(0))
    second = play_hand(state, {0: copy, 1: GreedyAgent()}, random.Random(0))
    assert first.history == second.history


def _command(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scopa", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_command_plays_the_policy() -> None:
    result = _command("simulate", "--agents", "policy,greedy", "--deals", "4", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "policy" in result.stdout
    refused = _command(
        "simulate", "--variant", "scopone", "--agents", "policy,greedy", "--deals", "2"
    )
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert (
        "agent policy: this policy plays two-player rules without declarations "
        "(it reads observations of 172 values)" in refused.stderr
    )
    # With this seed you deal: the policy leads, then the input ends.
    played = _command("play", "--opponent", "policy", "--seed", "7")
    assert "Traceback" not in played.stderr
    assert "the computer (policy) plays player 1" in played.stdout
    assert "Player 1 plays" in played.stdout


def test_on_a_process_pool_the_policy_plays_the_same() -> None:
    agents: list[Agent] = [PolicyAgent(), GreedyAgent()]
    alone = tournament(CLASSIC, agents, deals=6, seed=8, chunk_size=2)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = tournament(CLASSIC, agents, deals=6, seed=8, chunk_size=2, executor=pool)
    assert pooled == alone


@pytest.mark.filterwarnings("ignore")
def test_on_a_dask_cluster_the_policy_plays_the_same() -> None:
    distributed = pytest.importorskip("distributed", reason='needs dask, from the extra "dask"')
    agents: list[Agent] = [PolicyAgent(), GreedyAgent()]
    alone = tournament(CLASSIC, agents, deals=4, seed=9, chunk_size=2)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = tournament(
            CLASSIC, agents, deals=4, seed=9, chunk_size=2, executor=client.get_executor()
        )
    assert remote == alone
