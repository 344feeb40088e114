"""`mafiatab createsuperuser`: the first account of a new site, an administrator who
can organise tournaments and open the admin."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

PASSWORD_ENV = "MAFIATAB_ADMIN_PASSWORD"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "createsuperuser",
        help="create the first organiser (an administrator account)",
        description=(
            "Create an administrator account: it signs in like everyone else, creates "
            "tournaments and opens the admin. Asks for what is not given; the password "
            f"is asked twice, or read from {PASSWORD_ENV} with --no-input."
        ),
    )
    parser.add_argument("--username", help="the login")
    parser.add_argument("--nickname", help="the name shown on the site (default: the login)")
    parser.add_argument("--email", default="", help="e-mail address (optional)")
    parser.add_argument(
        "--no-input", action="store_true", help=f"ask nothing; the password from {PASSWORD_ENV}"
    )
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.set_defaults(func=run)


def _ask(prompt: str, given: str | None, *, no_input: bool) -> str:
    if given is not None or no_input:
        return (given or "").strip()
    return input(prompt).strip()


def _password(no_input: bool) -> str | None:
    if no_input:
        return os.environ.get(PASSWORD_ENV) or None
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Password (again): "):
        print("the two passwords differ", file=sys.stderr)
        return None
    return first


def run(args: argparse.Namespace) -> int:
    from mafiatab.tournaments.cli import setup_django

    setup_django(args.data_dir)
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    from mafiatab.accounts.models import User
    from mafiatab.accounts.services import account_create

    try:
        username = _ask("Login: ", args.username, no_input=args.no_input)
        if not username:
            print("give the login (--username)", file=sys.stderr)
            return 2
        nickname = _ask("Nickname: ", args.nickname, no_input=args.no_input) or username
        password = _password(args.no_input)
    except EOFError:  # the input ended (Ctrl-D, or no terminal and nothing piped in)
        print(
            f"\nno answer: run it in a terminal, or give --username, --nickname and "
            f"--no-input with the password in {PASSWORD_ENV}",
            file=sys.stderr,
        )
        return 2
    if not password:
        print(f"give a password (asked, or {PASSWORD_ENV} with --no-input)", file=sys.stderr)
        return 2
    try:
        validate_password(password, User(username=username, nickname=nickname))
        user = account_create(
            username=username, password=password, nickname=nickname, email=args.email
        )
    except ValidationError as exc:
        for message in exc.messages:
            print(message, file=sys.stderr)
        return 2
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    from mafiatab.tournaments.cli import database_description

    print(
        f"Created the administrator {username!r} in {database_description()}; "
        "sign in at /accounts/login/."
    )
    return 0
