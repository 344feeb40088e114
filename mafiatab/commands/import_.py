"""`mafiatab import FILE`: store a tournament file (all of it or nothing)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mafiatab.commands import first_line, read_tournament_file


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
    parser.add_argument(
        "--organiser",
        metavar="USERNAME",
        default=None,
        help="the account that organises the imported tournament (Django's admin is read-only)",
    )
    parser.add_argument(
        "--slug",
        metavar="SLUG",
        default=None,
        help="the tournament's address, e.g. the one it had before a restore "
        "(default: made from its name; refused when taken)",
    )
    parser.set_defaults(func=run)


def _refuse(lines: list[str]) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    core, problems = read_tournament_file(args.file)
    if core is None:
        return _refuse(problems)

    from mafiatab.tournaments.cli import setup_django

    setup_django(args.data_dir)
    from django.core.exceptions import ValidationError
    from django.db import DatabaseError, transaction

    from mafiatab.accounts.models import User
    from mafiatab.standings.services.tournament_file import tournament_import
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    organiser = None
    if args.organiser is not None:
        organiser = User.objects.filter(username=args.organiser, is_active=True).first()
        if organiser is None:
            return _refuse([f"there is no active account {args.organiser!r}"])
    try:
        with transaction.atomic():
            tournament = tournament_import(core=core, by=None, slug=args.slug)
            if organiser is not None:
                staff_assign(
                    tournament=tournament, user=organiser, role=StaffRole.ORGANISER, by=None
                )
    except ValidationError as exc:
        return _refuse(exc.messages)
    except (DatabaseError, OverflowError, ValueError) as exc:
        # The checks above should leave nothing for the database to refuse; if it
        # does, the file is still refused in one line and nothing is stored.
        return _refuse([f"{args.file}: the database refused it ({first_line(exc)})"])
    from mafiatab.tournaments.cli import database_description

    print(
        f"Imported {tournament.name!r}: {len(core.games)} games, {len(core.penalties)} "
        f"penalties, into {database_description()}."
    )
    print(tournament.slug)
    return 0
