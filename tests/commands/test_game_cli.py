"""`mafiatab game replay LOG [--json]`: the state document, refused logs, broken files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mafiatab.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "core" / "game" / "golden"
VALID = sorted((GOLDEN / "valid").glob("*.log.json"))
INVALID = sorted((GOLDEN / "invalid").glob("*.log.json"))


@pytest.mark.parametrize("log", VALID, ids=lambda p: p.name)
def test_replay_json_prints_the_golden_state_and_exits_0(log, capsys):
    assert main(["game", "replay", str(log), "--json"]) == 0
    out, err = capsys.readouterr()
    expected = json.loads(log.with_name(log.name.replace(".log.json", ".state.json")).read_text())
    assert json.loads(out) == expected
    assert err == ""


@pytest.mark.parametrize("log", INVALID, ids=lambda p: p.name)
def test_a_refused_log_exits_2_with_one_line_per_problem_naming_the_file(log, capsys):
    assert main(["game", "replay", str(log), "--json"]) == 2
    out, err = capsys.readouterr()
    expected = log.with_name(log.name.replace(".log.json", ".problems.txt")).read_text()
    assert err.splitlines() == [f"{log}: {line}" for line in expected.splitlines()]
    assert out == ""


def test_the_spec_example_line_for_a_wrong_vote_count(tmp_path, capsys):
    data = json.loads(
        (GOLDEN / "invalid" / "vote_counts_not_summing_to_the_living.log.json").read_text()
    )
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data))
    assert main(["game", "replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"{path}: event 6 (vote): counts sum to 8, but 9 players are alive\n"
    )


def test_without_json_a_running_game_prints_its_phase_and_next_events(capsys):
    log = GOLDEN / "valid" / "vote_most_votes_leaves.log.json"
    assert main(["game", "replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "running: night 1; next: shots, foul, remove, pause, defeat"
    assert "left: seat 7 by vote, day 1" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "mafiatab-game-log/1",', "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        (b"[1, 2, 3]", "a game log must be a JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"format": "mafiatab-game-log/1", "round": 1' + b"0" * 5000 + b"}", "not valid JSON"),
        (b'{"format": "mafiatab-tournament/1"}', 'format must be "mafiatab-game-log/1"'),
    ],
)
def test_a_file_that_is_no_log_exits_2_with_a_clear_line(tmp_path, capsys, content, message):
    path = tmp_path / "log.json"
    path.write_bytes(content)
    assert main(["game", "replay", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}: ")
    assert message in err


def test_a_missing_file_exits_2(tmp_path, capsys):
    path = tmp_path / "nothing.json"
    assert main(["game", "replay", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}: cannot read")


def test_the_installed_command_refuses_a_broken_log_without_a_traceback(tmp_path):
    path = tmp_path / "log.json"
    path.write_text('{"format": "mafiatab-game-log/1", "table": "fiim", "events": 5}')
    result = subprocess.run(
        [sys.executable, "-m", "mafiatab", "game", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{path}: field seats: seats must be a list of 10 nicknames" in result.stderr
