"""`mafiatab standings FILE`: the table, --json, --explain and refused files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mafiatab.cli import main
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import TournamentFileError, load_tournament

GOLDEN = Path(__file__).resolve().parents[1] / "core" / "golden"
TEN = ("Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb", "Hanna", "Igor", "Julia")
ROLES = ("red",) * 6 + ("sheriff", "black", "black", "don")


def game(gid: str, winner: str = "red", **other: Any) -> dict[str, Any]:
    seats = [{"player": p, "role": r} for p, r in zip(TEN, ROLES, strict=True)]
    return {"id": gid, "stage": "qualifying", "seats": seats, "winner": winner, **other}


def write(tmp_path: Path, data: object, name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def three_problems() -> dict[str, Any]:
    """A file with three different errors in three games."""
    first = game("Q1")
    first["seats"][1]["fouls"] = 5
    return {
        "format": "mafiatab-tournament/1",
        "name": "Broken Cup",
        "ruleset": "fiim",
        "games": [
            first,
            game("Q2", winner="blue"),
            game(
                "Q3",
                judge_extra=[{"seat": 8, "points": 0.5, "reason": "", "chief_approved": True}],
            ),
        ],
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["standings", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_lists_every_player_with_the_ranking_columns(capsys):
    code, out, err = run(capsys, str(GOLDEN / "8_4_judge_extra.json"))
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    header = next(line for line in lines if "player" in line.lower())
    for column in ("player", "total", "main", "extra", "penalties", "wins"):
        assert column in header.lower(), column
    rows = {line.split()[1]: line.split() for line in lines[lines.index(header) + 1 :] if line}
    # rank, player, total, main, extra, penalties, wins, don/sheriff wins, first-night deaths
    assert rows["Anna"] == ["1", "Anna", "1.60", "1.00", "0.60", "0.00", "1", "0", "0"]
    assert rows["Gleb"] == ["2", "Gleb", "1.00", "1.00", "0.00", "0.00", "1", "1", "0"]
    assert rows["Hanna"] == ["8", "Hanna", "0.40", "0.00", "0.40", "0.00", "0", "0", "0"]
    assert set(TEN) <= set(rows)
    order = [line.split()[1] for line in lines[lines.index(header) + 1 :] if line][:10]
    assert order.index("Anna") < order.index("Gleb") < order.index("Boris") < order.index("Hanna")


def test_table_shows_first_night_deaths_and_tournament_penalties(capsys):
    code, out, _ = run(capsys, str(GOLDEN / "8_8_1_extra_and_tournament_penalties.json"))
    assert code == 0
    hanna = next(line.split() for line in out.splitlines() if " Hanna " in f" {line} ")
    assert hanna[2:6] == ["-1.00", "0.00", "0.00", "-1.00"]
    code, out, _ = run(capsys, str(GOLDEN / "8_6_i_within_b.json"))
    anna = next(line.split() for line in out.splitlines() if " Anna " in f" {line} ")
    assert anna[1:] == ["Anna", "1.60", "1.60", "0.00", "0.00", "1", "0", "3"]


@pytest.mark.parametrize("case", ["8_7_k_odd_n", "replay_carry_over", "8_3_best_move"])
def test_json_output_is_the_standings_json(capsys, case):
    path = GOLDEN / f"{case}.json"
    code, out, err = run(capsys, str(path), "--json")
    assert code == 0
    assert err == ""
    expected = compute_standings(load_tournament(path)).to_json()
    assert json.loads(out) == json.loads(json.dumps(expected))


def test_explain_lists_every_line_with_clause_and_game(capsys):
    code, out, err = run(capsys, str(GOLDEN / "8_5_negative_actions.json"), "--explain", "Boris")
    assert code == 0
    assert err == ""
    lines = out.splitlines()
    assert any("8.5.1" in ln and "Q1-T1" in ln and "-0.40" in ln for ln in lines)
    assert any("8.5.3" in ln and "Q1-T1" in ln and "-0.40" in ln for ln in lines)
    assert any("8.2.1" in ln and "Q2-T1" in ln and "1.00" in ln for ln in lines)
    assert "0.20" in out  # the total: 1 - 0.4 - 0.4


def test_explain_shows_best_move_and_compensation(capsys):
    code, out, _ = run(
        capsys, str(GOLDEN / "8_7_k_not_on_compensation_or_extra.json"), "--explain", "Anna"
    )
    assert code == 0
    lines = out.splitlines()
    assert sum(1 for ln in lines if "8.6" in ln and "0.40" in ln) == 2
    assert any("Q1-T1" in ln and "8.6" in ln for ln in lines)
    assert any("Q3-T1" in ln and "1.33" in ln for ln in lines)
    assert "2.13" in out


def test_explain_finds_a_player_whatever_the_case_of_the_nickname(capsys):
    path = str(GOLDEN / "8_5_negative_actions.json")
    code, out, _ = run(capsys, path, "--explain", "BORIS")
    assert code == 0
    assert out.startswith("Boris: rank")
    assert out == run(capsys, path, "--explain", "Boris")[1]


def test_explain_of_unknown_player_is_a_clear_error(capsys):
    code, out, err = run(capsys, str(GOLDEN / "8_4_judge_extra.json"), "--explain", "Nobody")
    assert code == 2
    assert out == ""
    assert "Nobody" in err
    assert "Traceback" not in err


def test_refused_file_prints_one_line_per_problem_on_stderr(capsys, tmp_path):
    path = write(tmp_path, three_problems())
    with pytest.raises(TournamentFileError) as info:
        load_tournament(path)
    problems = info.value.problems
    assert len(problems) >= 3
    code, out, err = run(capsys, str(path))
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == len(problems)
    for problem in problems:
        assert sum(1 for line in lines if str(problem) in line) == 1, str(problem)
    assert any("Q1" in ln and "seat 2" in ln and "fouls" in ln for ln in lines)
    assert any("Q2" in ln and "winner" in ln for ln in lines)
    assert any("Q3" in ln and "seat 8" in ln and "judge_extra" in ln for ln in lines)


@pytest.mark.parametrize("flag", [[], ["--json"], ["--explain", "Anna"]])
def test_refused_file_is_refused_whatever_the_output(capsys, tmp_path, flag):
    code, out, err = run(capsys, str(write(tmp_path, three_problems())), *flag)
    assert code == 2
    assert out == ""
    assert err


def test_file_that_is_not_json_is_refused(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "mafiatab-tournament/1",', encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert "json" in err.lower()


def test_missing_file_is_refused(capsys, tmp_path):
    code, out, err = run(capsys, str(tmp_path / "nowhere.json"))
    assert (code, out) == (2, "")
    assert "nowhere.json" in err


def mafiatab_executable() -> Path:
    exe = Path(sys.executable).parent / "mafiatab"
    assert exe.exists(), f"{exe} is not installed"
    return exe


def test_installed_command_refuses_a_bad_file_without_traceback(tmp_path):
    path = write(tmp_path, three_problems(), "bad.json")
    result = subprocess.run(
        [str(mafiatab_executable()), "standings", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) >= 3


def test_installed_command_prints_the_json(tmp_path):
    path = GOLDEN / "8_2_4_removals.json"
    result = subprocess.run(
        [str(mafiatab_executable()), "standings", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(
        json.dumps(compute_standings(load_tournament(path)).to_json())
    )


def test_installed_command_refuses_an_infinite_number_without_traceback(tmp_path):
    # 1e400 is a valid JSON number that Python reads as inf.
    data = {
        "format": "mafiatab-tournament/1",
        "name": "Infinite Cup",
        "ruleset": "fiim",
        "penalties": [{"player": "Anna", "points": -0.5, "reason": "late"}],
        "games": [game("Q1")],
    }
    path = tmp_path / "inf.json"
    path.write_text(json.dumps(data).replace("-0.5", "-1e400"), encoding="utf-8")
    result = subprocess.run(
        [str(mafiatab_executable()), "standings", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in result.stderr
    assert (result.returncode, result.stdout) == (2, "")
    assert "penalties" in result.stderr


def test_an_output_that_cannot_be_written_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    class Full:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    assert main(["standings", str(GOLDEN / "8_4_judge_extra.json")]) == 1
    err = capsys.readouterr().err
    assert err == "mafiatab: cannot write the output: No space left on device\n"


def test_a_planned_file_shows_its_stage_groups_and_the_cut_line(capsys):
    code, out, _ = run(capsys, str(GOLDEN / "stages_semifinal.json"))
    assert code == 0
    lines = out.splitlines()
    groups = [line.split()[1] for line in lines if line.startswith("-- ")]
    assert groups == ["semifinal", "qualifying"]
    cut = lines.index("== cut: 10 advance to the final ==")
    assert lines[cut - 1].split()[1] == "S23"
    header = next(line for line in lines if " player " in line)
    assert header.split()[-7:] == ["qualifying", "semifinal", "final", "to", "cut", "left", "mark"]


def test_a_planned_file_gives_stage_by_stage_and_outlook_in_json(capsys):
    code, out, _ = run(capsys, str(GOLDEN / "stages_semifinal.json"), "--json")
    assert code == 0
    rows = {row["player"]: row for row in json.loads(out)["standings"]}
    assert rows["S23"]["stage"] == "semifinal"
    assert rows["S23"]["by_stage"] == {"qualifying": 0.1, "semifinal": 1.0}
    assert rows["S23"]["outlook"] == {"places": 10, "margin": 0.1, "games_left": 1, "mark": None}
    assert rows["S08"]["stage"] == "qualifying" and "outlook" not in rows["S08"]
