"""`mafiatab demo`: a ready-to-use site with the demo tournament, served on loopback."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="serve the web application with the demo tournament",
        description=(
            "Create and migrate the database in DIR; on a new database load the demo "
            "tournament and its accounts; then serve the site on 127.0.0.1:PORT. "
            "The demo logins are printed whenever the demo accounts exist."
        ),
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.set_defaults(func=run)


def _print_logins(logins: list[Any], password: str) -> None:
    print(f"Demo accounts (password for all: {password}):")
    width = max(len(login.username) for login in logins)
    for login in logins:
        print(f"  {login.username:<{width}}  {login.nickname}  ({login.role})")


def run(args: argparse.Namespace) -> int:
    from mafiatab.tournaments.cli import setup_django

    data_dir = setup_django(args.data_dir)
    from mafiatab.commands.demo_tournament import DEMO_PASSWORD, demo_load, demo_logins
    from mafiatab.tournaments.models import Tournament

    if not Tournament.objects.exists():
        tournament, logins = demo_load()
        print(f"Loaded the demo tournament {tournament.name!r} into {data_dir}.")
    else:
        print(f"Using the existing data in {data_dir}.")
        logins = demo_logins()
    if logins:
        _print_logins(logins, DEMO_PASSWORD)
    return serve(port=args.port)


def serve(*, port: int) -> int:
    """Serve the application with gunicorn on 127.0.0.1:`port` until interrupted."""
    from mafiatab.commands.serve import gunicorn_run

    print(f"Serving on http://127.0.0.1:{port}/ (Ctrl-C stops)", flush=True)
    return gunicorn_run(bind=f"127.0.0.1:{port}", workers=1, threads=4)
