"""`mafiatab serve`: serve the site for real, with gunicorn.

Production settings are on unless the environment says otherwise
(`MAFIATAB_PRODUCTION=0` serves plain HTTP, e.g. on a local network without TLS).
The database must be migrated: the command refuses to start otherwise, or applies
the migrations itself with `--migrate`.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from typing import Any


class SettingError(ValueError):
    """An environment variable that does not hold what it must."""


def _env_int(name: str, default: int) -> int:
    """A whole number from the environment; anything else is refused by name (an env
    file's `MAFIATAB_WORKERS=4  # processes` keeps the comment in the value)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise SettingError(f"{name} must be a whole number, not {value[:60]!r}")
    return int(value)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web application with gunicorn (production settings)",
        description=(
            "Serve the site with gunicorn: WORKERS processes of THREADS threads each, "
            "listening on HOST:PORT. Refuses to start while the database has unapplied "
            "migrations, unless --migrate applies them. Production settings (HTTPS only, "
            "secure cookies, HSTS, proxy headers) are on unless MAFIATAB_PRODUCTION=0."
        ),
    )
    parser.add_argument(
        "--host",
        default=os.environ.get("MAFIATAB_HOST", "127.0.0.1"),
        help="address to listen on (MAFIATAB_HOST, default 127.0.0.1: behind a proxy)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="port to listen on (MAFIATAB_PORT, default 8000)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes (MAFIATAB_WORKERS, default 2)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads per worker (MAFIATAB_THREADS, default 4)",
    )
    parser.add_argument(
        "--migrate", action="store_true", help="apply unapplied database migrations first"
    )
    parser.add_argument(
        "--no-outbox",
        dest="outbox",
        action="store_false",
        default=os.environ.get("MAFIATAB_OUTBOX", "1") != "0",
        help=(
            "do not drain the e-mail outbox in this server (MAFIATAB_OUTBOX=0): "
            "`mafiatab outbox --watch` runs as a service of its own"
        ),
    )
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.set_defaults(func=run)


def unapplied_migrations() -> list[str]:
    """The migrations the database lacks, as `app.name`."""
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def _from_environment(args: argparse.Namespace) -> None:
    """Options not given on the command line come from the environment."""
    for option, name, default in (
        ("port", "MAFIATAB_PORT", 8000),
        ("workers", "MAFIATAB_WORKERS", 2),
        ("threads", "MAFIATAB_THREADS", 4),
    ):
        if getattr(args, option) is None:
            setattr(args, option, _env_int(name, default))


def _refusal(missing: list[str], *, empty: bool) -> str:
    """Why `mafiatab serve` does not start: a new database wants its tables made, an
    older one a backup before its upgrade."""
    if empty:
        return (
            f"The database is empty ({len(missing)} unapplied migration(s)): "
            "run `mafiatab serve --migrate` to make its tables."
        )
    return (
        f"The database has {migrations_named(missing)}. "
        "Back it up, then run `mafiatab serve --migrate` to apply them."
    )


def migrations_named(missing: list[str]) -> str:
    """The unapplied migrations, counted and the first ones named, for a message."""
    more = ", ..." if len(missing) > 3 else ""
    return f"{len(missing)} unapplied migration(s) ({', '.join(missing[:3])}{more})"


def run(args: argparse.Namespace) -> int:
    try:
        _from_environment(args)
    except SettingError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.workers < 1 or args.threads < 1:
        print("--workers and --threads must be 1 or more", file=sys.stderr)
        return 2
    if args.data_dir is not None:
        from pathlib import Path

        os.environ["MAFIATAB_DATA_DIR"] = str(Path(args.data_dir).expanduser().resolve())
    os.environ.setdefault("MAFIATAB_PRODUCTION", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")
    import django
    from django.conf import settings
    from django.db import connections

    from mafiatab.tournaments.cli import migrate_database

    django.setup()
    missing = unapplied_migrations()
    if missing and not args.migrate:
        empty = not connections["default"].introspection.table_names()
        print(_refusal(missing, empty=empty), file=sys.stderr)
        return 2
    if missing:
        print(f"Applying {len(missing)} migration(s)...", flush=True)
        migrate_database()
    mode = "production (HTTPS only)" if settings.PRODUCTION else "plain HTTP (not production)"
    return gunicorn_run(
        bind=f"{args.host}:{args.port}",
        workers=args.workers,
        threads=args.threads,
        outbox=args.outbox,
        ready=(
            f"Serving {mode} on http://{args.host}:{args.port}/ with {args.workers} worker(s) "
            f"of {args.threads} thread(s) (Ctrl-C stops)"
        ),
    )


def _outbox_process() -> subprocess.Popen[bytes]:
    """`mafiatab outbox --watch` on this server's data directory, as a process of its
    own: not a thread of gunicorn's master, which forks its workers (a thread inside
    SQLite at the fork leaves its lock held forever in the worker)."""
    from django.conf import settings

    command = [sys.executable, "-m", "mafiatab", "outbox", "--watch"]
    return subprocess.Popen([*command, "--data-dir", str(settings.DATA_DIR)])


def _stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)  # it ends between two passes
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def gunicorn_run(
    *, bind: str, workers: int, threads: int, ready: str | None = None, outbox: bool = True
) -> int:
    """Run the application under gunicorn until interrupted; the exit code. `ready` is
    printed once gunicorn listens (not before: the port may be taken). With `outbox`,
    `mafiatab outbox --watch` runs beside gunicorn (one per server) until it stops."""
    from django.db import connections

    connections.close_all()  # the workers open their own
    drainer: list[subprocess.Popen[bytes]] = []

    def when_ready(_server: Any) -> None:
        if outbox:
            drainer.append(_outbox_process())
        if ready:
            print(ready, flush=True)

    def on_exit(_server: Any) -> None:
        _stop(drainer[0] if drainer else None)

    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {
                "bind": bind,
                "workers": workers,
                "threads": threads,
                "worker_class": "gthread",
                "accesslog": "-",
                "graceful_timeout": 5,
                "control_socket_disable": True,  # no socket left in $HOME
                "when_ready": when_ready,
                "on_exit": on_exit,
            }.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self) -> Any:
            from mafiatab.wsgi import application

            return application

    try:
        Server().run()
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        _stop(drainer[0] if drainer else None)
    return 0
