from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mafiatab.cli import main
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import loads_tournament
from mafiatab.games.models import Game, GameSeat
from mafiatab.penalties.models import Penalty
from mafiatab.registrations.models import Registration
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _import(path, capsys):
    code = main(["import", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_import_then_export_gives_the_same_file_and_standings(tmp_path, capsys, demo_file_text):
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    code, out, _err = _import(source, capsys)
    assert code == 0
    from django.db import connection

    assert f"into the {connection.display_name} database" in out  # which one it went to
    slug = out.strip().splitlines()[-1]
    tournament = Tournament.objects.get(slug=slug)

    expected = compute_standings(loads_tournament(demo_file_text)).to_json()
    assert tournament_standings(tournament).to_json() == expected

    exported = tmp_path / "out.json"
    assert main(["export", slug, "-o", str(exported)]) == 0
    assert exported.read_text(encoding="utf-8") == demo_file_text

    code, out, _err = _import(exported, capsys)
    again = Tournament.objects.get(slug=out.strip().splitlines()[-1])
    assert again.slug != slug
    assert tournament_standings(again).to_json() == expected
    assert main(["export", again.slug]) == 0
    assert capsys.readouterr().out == demo_file_text


def test_import_stores_every_participant_and_the_protocol_rows(capsys, tmp_path, demo_file_text):
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    _import(source, capsys)
    core = loads_tournament(demo_file_text)
    assert Game.objects.count() == len(core.games)
    assert GameSeat.objects.count() == 10 * len(core.games)
    assert Penalty.objects.count() == len(core.penalties)
    assert set(Registration.objects.values_list("nickname", flat=True)) == set(core.player_names())


def test_a_broken_file_is_refused_whole_with_every_problem(capsys, tmp_path, demo_file_text):
    data = json.loads(demo_file_text)
    data["games"][0]["seats"][0]["role"] = "sheriff"  # two sheriffs, no don
    data["games"][3]["winner"] = "purple"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = _import(broken, capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) >= 2
    assert any("Q1-T1" in line and "role" in line for line in lines)
    assert any("winner" in line for line in lines)
    assert out == ""
    assert not Tournament.objects.exists()
    assert not Game.objects.exists()


def test_a_file_that_is_not_json_or_missing_is_refused(capsys, tmp_path):
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    code, _out, err = _import(garbage, capsys)
    assert code == 2 and err.strip()
    code, _out, err = _import(tmp_path / "missing.json", capsys)
    assert code == 2 and "missing.json" in err
    assert not Tournament.objects.exists()


def test_export_of_an_unknown_tournament_is_an_error(capsys):
    assert main(["export", "no-such-cup"]) == 2
    assert "no-such-cup" in capsys.readouterr().err


def test_export_to_a_place_that_cannot_be_written_is_one_line_and_leaves_nothing(
    tmp_path, capsys, demo_file_text
):
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    slug = _import(source, capsys)[1].strip().splitlines()[-1]
    missing = tmp_path / "no-such-dir" / "out.json"
    assert main(["export", slug, "-o", str(missing)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "out.json" in err and "Traceback" not in err
    directory = tmp_path / "a-directory"
    directory.mkdir()
    assert main(["export", slug, "-o", str(directory)]) == 2
    assert "a-directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-directory", "demo.json"]
    assert not list(directory.iterdir())


def test_import_with_a_slug_restores_the_address_the_tournament_had(
    tmp_path, capsys, demo_file_text
):
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    assert main(["import", str(source), "--slug", "winter-cup"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "winter-cup"
    assert Tournament.objects.get(slug="winter-cup").games.count() > 0
    for slug, reason in (("winter-cup", "is taken"), ("winter cup!", "Latin letters")):
        assert main(["import", str(source), "--slug", slug]) == 2
        err = capsys.readouterr().err
        assert reason in err and len(err.strip().splitlines()) == 1
    assert Tournament.objects.count() == 1


def test_the_command_line_round_trip_in_a_fresh_data_directory(tmp_path, demo_file_text):
    """The real commands, in their own processes, against their own database."""
    source = tmp_path / "demo.json"
    source.write_text(demo_file_text, encoding="utf-8")
    data_dir = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    command = [sys.executable, "-m", "mafiatab"]
    done = subprocess.run(
        [*command, "import", str(source), "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    slug = done.stdout.strip().splitlines()[-1]
    exported = tmp_path / "exported.json"
    done = subprocess.run(
        [*command, "export", slug, "--data-dir", str(data_dir), "-o", str(exported)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert exported.read_text(encoding="utf-8") == demo_file_text
    if "DATABASE_URL" not in env:
        assert (Path(data_dir) / "mafiatab.sqlite3").exists()

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "mafiatab-tournament/1"}', encoding="utf-8")
    done = subprocess.run(
        [*command, "import", str(broken), "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2
    assert "name" in done.stderr and "Traceback" not in done.stderr


def test_an_import_that_fails_on_its_way_leaves_nothing_stored(demo_file_text, monkeypatch):
    from mafiatab.standings.services.tournament_file import tournament_import

    def broken(*_args, **_kwargs):
        raise RuntimeError("the last step fails")

    monkeypatch.setattr(Tournament, "standings_changed", broken)
    with pytest.raises(RuntimeError):
        tournament_import(core=loads_tournament(demo_file_text), by=None)
    assert Tournament.objects.count() == 0
    assert (Registration.objects.count(), Game.objects.count(), Penalty.objects.count()) == (
        0,
        0,
        0,
    )
