"""`mafiatab import FILE`: store a tournament file (all of it or nothing)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "import",
        help="store a tournament file in the database",
        description=(
            "Store a mafiatab-tournament/1 file: all of it or nothing. "
            "Prints the new tournament's address (slug) as the last line."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the tournament file (JSON)")
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.set_defaults(func=run)


def _refuse(lines: list[str]) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from mafiatab.core.tournament_file import TournamentFileError, load_tournament

    try:
        core = load_tournament(args.file)
    except TournamentFileError as exc:
        return _refuse([str(problem) for problem in exc.problems] or [str(exc)])
    except OSError as exc:
        return _refuse([f"{args.file}: {exc.strerror or exc}"])

    from mafiatab.tournaments.cli import setup_django

    setup_django(args.data_dir)
    from django.core.exceptions import ValidationError

    from mafiatab.tournaments.services import tournament_import

    try:
        tournament = tournament_import(core=core, by=None)
    except ValidationError as exc:
        return _refuse(exc.messages)
    print(
        f"Imported {tournament.name!r}: {len(core.games)} games, {len(core.penalties)} penalties."
    )
    print(tournament.slug)
    return 0
