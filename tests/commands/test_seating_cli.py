"""`mafiatab seating`, run in-process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mafiatab.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["seating", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_is_the_schedule_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--players", "20", "--games", "5", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "mafiatab-seating/1"
    assert data["players"] == [str(i) for i in range(1, 21)]
    assert len(data["rounds"]) == 5
    assert all(len(t["seats"]) == 10 for r in data["rounds"] for t in r["tables"])
    assert data["metrics"]["seat_balance_exact"] is True


def test_same_seed_prints_the_same_schedule(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "--players", "20", "--games", "4", "--seed", "9", "--json")[1]
    second = run(capsys, "--players", "20", "--games", "4", "--seed", "9", "--json")[1]
    assert first == second


def test_summary_shows_histogram_seat_balance_and_rotation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--players", "25", "--games", "4", "--tables", "2")
    assert code == 0
    assert "Round 1" in out and "Table 2:" in out and "Sitting out:" in out
    assert "Pair meetings: mean 1.50, max" in out
    assert "0 games:" in out and "1 game:" in out
    assert "Seat balance: exact" in out
    assert "Table rotation:" in out


def test_summary_says_when_a_seating_needed_no_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "--players", "10", "--games", "3")
    assert code == 0
    assert "Search: none, this seating is built without a search" in out
    code, out, _ = run(capsys, "--players", "20", "--games", "2", "--tables", "1")
    assert code == 0
    assert re.search(r"^Search: [1-9][0-9]* iterations$", out, re.MULTILINE)


def test_names_file_gives_the_players(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    names = tmp_path / "names.txt"
    names.write_text("\n".join(f"Ник{i}" for i in range(1, 11)) + "\n\n", encoding="utf-8")
    code, out, err = run(capsys, "--games", "3", "--names", str(names), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["players"][0] == "Ник1"
    assert sorted(data["rounds"][0]["tables"][0]["seats"]) == sorted(data["players"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "25", "--games", "7"], "175 seats, not a multiple of 10"),
        (["--players", "9", "--games", "10"], "9 players cannot fill a table"),
        (["--players", "30", "--games", "10", "--tables", "4"], "4 tables need 40 players"),
        (["--games", "10"], "give --players N or --names FILE"),
        (["--players", "20", "--games", "2", "--time-limit", "0"], "time limit must be positive"),
        (["--players", "9" * 20, "--games", "10"], "at most 1000"),
        (["--players", "1001", "--games", "1"], "1001 players are more than"),
        (["--players", "30", "--games", "1000"], "1000 games each are more than"),
    ],
)
def test_impossible_inputs_give_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        (b"a\nb\na\n", "line 3: 'a' already on line 1"),
        (b"\n  \n", "lists no players"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
    ],
)
def test_bad_names_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "names.txt"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "--games", "2", "--names", str(path))
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_names_file_and_player_count_must_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "names.txt"
    path.write_text("\n".join(str(i) for i in range(10)), encoding="utf-8")
    code, _, err = run(capsys, "--players", "20", "--games", "2", "--names", str(path))
    assert code == 2
    assert "--players 20 but" in err and "lists 10 players" in err


def test_the_final_is_planned_at_one_table_with_the_after_metrics(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--players", "10", "--games", "10", "--final", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert all(len(r["tables"]) == 1 for r in data["rounds"])
    assert data["metrics"]["after"] == {"max": 1, "min": 1, "histogram": [0, 90]}
    code, out, _ = run(capsys, "--players", "10", "--games", "4", "--final", "--seed", "2")
    assert code == 0 and "Right after: each ordered pair 0 to 1 times" in out
    code, _, err = run(capsys, "--players", "12", "--games", "4", "--final")
    assert code == 2 and "12 players" in err
