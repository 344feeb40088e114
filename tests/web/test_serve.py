"""`mafiatab serve` for real: it refuses an unmigrated database, and two servers on one
PostgreSQL database agree at once (a protocol confirmed through one counts in the
standings read through the other)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from .test_games_fixtures import complete_data

MAFIATAB = [sys.executable, "-m", "mafiatab"]

#: Tests that run commands on a database of their own: once, in the SQLite pass.
ONCE = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="independent of the test database; runs in the SQLite pass",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAFIATAB_", "DJANGO_"))}
    env.pop("DATABASE_URL", None)
    return env | {"MAFIATAB_DATA_DIR": str(data_dir)} | extra


@ONCE
def test_serve_refuses_a_database_with_unapplied_migrations(tmp_path):
    result = subprocess.run(
        [*MAFIATAB, "serve", "--port", str(_free_port())],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "unapplied migration" in result.stderr
    assert "mafiatab serve --migrate" in result.stderr
    assert "Traceback" not in result.stderr


@ONCE
def test_serve_asks_for_a_backup_before_migrating_a_database_with_tables_not_a_new_one(tmp_path):
    env = _env(tmp_path, MAFIATAB_ADMIN_PASSWORD="a-long-organiser-pass")
    serve = ["serve", "--port", str(_free_port())]
    new = _run(serve, env)
    assert new.returncode == 2 and "The database is empty" in new.stderr
    assert "Back it up" not in new.stderr
    made = _run(["createsuperuser", "--username", "boss", "--no-input"], env)
    assert made.returncode == 0, made.stderr
    import sqlite3

    with sqlite3.connect(tmp_path / "mafiatab.sqlite3") as db:  # as before an upgrade
        db.execute("delete from django_migrations where app = 'console'")
    older = _run(serve, env)
    assert older.returncode == 2 and "Back it up" in older.stderr
    assert "console." in older.stderr


@ONCE
def test_createsuperuser_makes_an_administrator_who_can_sign_in(tmp_path):
    env = _env(tmp_path, MAFIATAB_ADMIN_PASSWORD="a-long-organiser-pass")
    command = [*MAFIATAB, "createsuperuser", "--username", "boss", "--nickname", "Boss"]
    result = subprocess.run(
        [*command, "--no-input"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    # Which database it went to: a shell without DATABASE_URL writes to SQLite.
    assert f"SQLite database {tmp_path / 'mafiatab.sqlite3'}" in result.stdout
    import sqlite3

    from django.contrib.auth.hashers import check_password

    with sqlite3.connect(tmp_path / "mafiatab.sqlite3") as db:
        row = db.execute(
            "select nickname, is_superuser, is_staff, password from accounts_user"
            " where username = 'boss'"
        ).fetchone()
    assert row[:3] == ("Boss", 1, 1)
    assert check_password("a-long-organiser-pass", row[3])
    again = subprocess.run(
        [*command, "--no-input"], env=env, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 2 and "already taken" in again.stderr


def _run(args: list[str], env: dict[str, str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAFIATAB, *args], env=env, capture_output=True, text=True, timeout=120, **kwargs
    )


def _one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr


@ONCE
def test_createsuperuser_with_nothing_to_read_says_how_to_run_it_instead_of_a_traceback(
    tmp_path,
):
    result = _run(["createsuperuser"], _env(tmp_path), stdin=subprocess.DEVNULL)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert "--no-input" in result.stderr and "MAFIATAB_ADMIN_PASSWORD" in result.stderr


@ONCE
def test_a_setting_with_an_env_file_comment_in_its_number_is_named_in_one_line(tmp_path):
    # A systemd EnvironmentFile keeps a comment after the value as part of it.
    env = _env(tmp_path, MAFIATAB_LOGIN_FAILURES="5     # failed logins before a lockout")
    result = _run(["createsuperuser", "--username", "boss", "--no-input"], env)
    _one_line_refusal(result, "MAFIATAB_LOGIN_FAILURES", "must be a number")


@ONCE
def test_a_heavy_exports_limit_below_one_is_named_in_one_line(tmp_path):
    env = _env(tmp_path, MAFIATAB_HEAVY_EXPORTS="0")
    result = _run(["createsuperuser", "--username", "boss", "--no-input"], env)
    _one_line_refusal(result, "MAFIATAB_HEAVY_EXPORTS", "whole number from 1")


@ONCE
def test_serve_refuses_a_worker_count_that_is_not_a_number_instead_of_ignoring_it(tmp_path):
    env = _env(tmp_path, MAFIATAB_WORKERS="4            # processes; about 2 per CPU core")
    result = _run(["serve", "--port", str(_free_port())], env)
    _one_line_refusal(result, "MAFIATAB_WORKERS", "whole number")


@ONCE
def test_a_database_that_cannot_be_reached_is_one_line_naming_database_url(tmp_path):
    url = f"postgres://mafiatab:wrong@127.0.0.1:{_free_port()}/mafiatab"
    for command in (["serve", "--port", str(_free_port())], ["export", "some-cup"]):
        result = _run(command, _env(tmp_path, DATABASE_URL=url))
        _one_line_refusal(result, "DATABASE_URL", "127.0.0.1")


@ONCE
def test_a_misspelt_database_url_is_named_in_one_line(tmp_path):
    env = _env(tmp_path, DATABASE_URL="postgress://mafiatab:pw@127.0.0.1:5432/mafiatab")
    result = _run(["export", "some-cup"], env)
    _one_line_refusal(result, "DATABASE_URL", "postgres://USER:PASSWORD@HOST:PORT/NAME")


@ONCE
def test_export_leaves_a_database_lacking_migrations_untouched_and_says_so(tmp_path):
    result = _run(["export", "some-cup"], _env(tmp_path))
    _one_line_refusal(result, "migration", "mafiatab serve --migrate")
    import sqlite3

    with sqlite3.connect(tmp_path / "mafiatab.sqlite3") as db:
        tables = db.execute("select name from sqlite_master where type = 'table'").fetchall()
    assert tables == []


@ONCE
def test_serve_on_a_taken_port_fails_without_claiming_to_serve(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _run(["serve", "--migrate", "--port", str(port)], _env(tmp_path))
    assert result.returncode != 0
    assert "Serving" not in result.stdout, result.stdout
    assert f"127.0.0.1:{port}" in result.stderr or str(port) in result.stderr


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()]


def _command_line(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().rstrip("\0").split("\0")


@ONCE
def test_serve_drains_the_outbox_in_a_process_of_its_own_not_a_thread_of_the_forking_master(
    tmp_path,
):
    """gunicorn's master forks its workers: a drainer thread inside SQLite at a fork
    left SQLite's lock held in the worker, whose every page then waited forever. The
    master runs no thread; the drainer is `mafiatab outbox --watch`, a child of its own,
    stopped with the server."""
    port = _free_port()
    log_path = tmp_path / "serve.log"
    env = _env(
        tmp_path / "data",
        MAFIATAB_PRODUCTION="0",
        MAFIATAB_WORKERS="2",
        MAFIATAB_ALLOWED_HOSTS="tournament.example",
    )
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [*MAFIATAB, "serve", "--migrate", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            _wait_healthy(port, process, log_path)
            for _ in range(20):  # every worker answers its pages
                assert _request(port, "/")[0] == 200
            assert len(list(Path(f"/proc/{process.pid}/task").iterdir())) == 1
            drainers = [
                child for child in _children(process.pid) if "outbox" in _command_line(child)
            ]
            assert len(drainers) == 1, log_path.read_text()
            drainer = _command_line(drainers[0])
            assert drainer[drainer.index("outbox") + 1] == "--watch"
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert (
        not Path(f"/proc/{drainers[0]}").exists()
        or "zombie" in Path(f"/proc/{drainers[0]}/status").read_text()
    )


def _blocked_on(inode: int) -> bool:
    """Whether some process waits for a lock on the file with this inode (/proc/locks
    lists a waiter with "->")."""
    lines = Path("/proc/locks").read_text().splitlines()
    return any("->" in line and line.split()[-3].endswith(f":{inode}") for line in lines)


@ONCE
def _start_createsuperuser(env: dict[str, str]) -> subprocess.Popen[str]:
    """`mafiatab createsuperuser` of the organiser "boss", started in the background."""
    return subprocess.Popen(
        [*MAFIATAB, "createsuperuser", "--username", "boss", "--no-input"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_command_started_while_another_migrates_waits_for_it_instead_of_failing(tmp_path):
    """The README's first start runs `serve --migrate` and `createsuperuser` together:
    the second command waits for the migrations to end, it does not apply them twice."""
    import fcntl
    import sqlite3

    env = _env(tmp_path, MAFIATAB_ADMIN_PASSWORD="a-long-organiser-pass")
    with (tmp_path / "migrate.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a migrating `mafiatab serve --migrate` does
        process = _start_createsuperuser(env)
        deadline = time.monotonic() + 60
        inode = os.fstat(lock.fileno()).st_ino
        while not _blocked_on(inode) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()
        assert _blocked_on(inode)
        fcntl.flock(lock, fcntl.LOCK_UN)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    with sqlite3.connect(tmp_path / "mafiatab.sqlite3") as db:
        assert db.execute("select count(*) from accounts_user").fetchone() == (1,)


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL (scripts/pg.sh)",
)
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_command_waits_for_the_migrations_another_runs(tmp_path):
    from mafiatab.accounts.models import User
    from mafiatab.tournaments.cli import MIGRATION_LOCK_KEY

    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env = _env(tmp_path, DATABASE_URL=url, MAFIATAB_ADMIN_PASSWORD="a-long-organiser-pass")
    waiting = "select count(*) from pg_locks where locktype = 'advisory' and not granted"
    with connection.cursor() as cursor:
        cursor.execute("select pg_advisory_lock(%s)", [MIGRATION_LOCK_KEY])
        process = _start_createsuperuser(env)
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            cursor.execute(waiting)
            if cursor.fetchone()[0]:
                break
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()
        assert not User.objects.filter(username="boss").exists()
        cursor.execute("select pg_advisory_unlock(%s)", [MIGRATION_LOCK_KEY])
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert User.objects.filter(username="boss", is_superuser=True).exists()


@ONCE
def test_make_demo_passes_the_port():
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        ["make", "-n", "-C", str(root), "demo", "PORT=8100"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "mafiatab demo --port 8100" in result.stdout, result.stderr


# --- two servers on one PostgreSQL database ---------------------------------------------

HEADERS = {"Host": "tournament.example", "X-Forwarded-Proto": "https"}


def _request(port: int, path: str, *, method: str = "GET", body: Any = None, token: str = ""):
    headers = dict(HEADERS)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _wait_healthy(port: int, process: subprocess.Popen[str], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped: {log.read_text()}")
        try:
            if _request(port, "/healthz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server did not start")


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[list[int]]:
    """Two `mafiatab serve` processes on the test database, in production settings
    behind a (simulated) HTTPS proxy."""
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    processes: list[subprocess.Popen[str]] = []
    logs: list[Any] = []
    ports = [_free_port(), _free_port()]
    try:
        for i, port in enumerate(ports):
            env = _env(
                tmp_path / f"server{i}",
                DATABASE_URL=url,
                MAFIATAB_SECRET_KEY="two-servers-share-one-secret-key-" + "x" * 30,
                MAFIATAB_ALLOWED_HOSTS="tournament.example",
                MAFIATAB_WORKERS="1",
                MAFIATAB_THREADS="2",
            )
            log = (tmp_path / f"server{i}.log").open("w")
            logs.append(log)
            processes.append(
                subprocess.Popen(
                    [*MAFIATAB, "serve", "--port", str(port)],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            )
        for i, (port, process) in enumerate(zip(ports, processes, strict=True)):
            _wait_healthy(port, process, tmp_path / f"server{i}.log")
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            log.close()


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL (scripts/pg.sh); SQLite has one file per server",
)
@pytest.mark.django_db(transaction=True)
def test_a_protocol_confirmed_through_one_server_counts_at_once_through_the_other(
    two_servers, tournament, staff
):
    from mafiatab.api.services import token_create
    from mafiatab.games.services import TablePlan, protocol_save, round_create
    from mafiatab.registrations.services import registration_add

    first, second = two_servers
    for n in range(10):  # a seat holds a participant
        registration_add(tournament=tournament, nickname=f"Nick{n}", by=staff["organiser"])
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[
            TablePlan(number=1, judge=staff["judge"], players=tuple(f"Nick{n}" for n in range(10)))
        ],
        by=staff["chief"],
    )
    game = round_.tables.get().game
    protocol_save(
        game=game, data=complete_data(game), by=staff["judge"], base_version=1, submit=True
    )
    _token, key = token_create(user=staff["chief"], name="two servers")
    standings = f"/api/tournaments/{tournament.slug}/standings"

    def nicks_with_games(port: int) -> set[str]:
        status, body = _request(port, standings)
        assert status == 200, body
        return {row["player"] for row in json.loads(body)["standings"] if row["games"]}

    assert nicks_with_games(second) == set()  # read (and kept) by the second server
    # Production settings: the proxy's HTTPS is believed, plain HTTP is sent to HTTPS,
    # static files are served by the application.
    plain = urllib.request.Request(f"http://127.0.0.1:{first}/", headers={"Host": HEADERS["Host"]})
    opener = urllib.request.build_opener(_NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(plain, timeout=30)
    assert redirect.value.code == 301
    redirect.value.close()
    assert redirect.value.headers["Location"] == "https://tournament.example/"
    status, css = _request(second, "/static/mafiatab/site.css")
    assert status == 200 and b".htmx-indicator" in css
    status, body = _request(
        first,
        f"/api/tournaments/{tournament.slug}/games/{game.pk}/confirm",
        method="POST",
        body={"base_version": 2},
        token=key,
    )
    assert status == 200, body
    assert nicks_with_games(second) == {f"Nick{n}" for n in range(10)}
    assert nicks_with_games(first) == {f"Nick{n}" for n in range(10)}
