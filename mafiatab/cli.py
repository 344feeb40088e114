"""The `mafiatab` command line.

Each subcommand lives in `mafiatab/commands/<name>.py` and exposes
`register(subparsers)`, which adds its parser and sets `func` to a callable
taking the parsed arguments and returning the exit code. Command modules import
heavy things (Django, the seating search) inside their `run`, so that
`mafiatab standings` starts fast.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
from collections.abc import Sequence

#: Subcommand modules under `mafiatab.commands`, in the order `--help` lists them.
COMMAND_MODULES = (
    "standings",
    "seating",
    "game",
    "demo",
    "serve",
    "createsuperuser",
    "import_",
    "export",
    "outbox",
)
#: The errors of an output that cannot take what is written (a full disk, a closed pipe).
OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EPIPE, errno.EFBIG})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mafiatab",
        description="An open tournament system for sports mafia (FIIM regulation).",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"mafiatab.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"mafiatab.commands.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def setup_problem(exc: BaseException) -> str | None:
    """What is wrong with the setting up, in one line, when `exc` says so: a setting of
    the environment Django refuses, or a database it cannot reach. None otherwise."""
    exceptions = sys.modules.get("django.core.exceptions")
    if exceptions is not None and isinstance(exc, exceptions.ImproperlyConfigured):
        return str(exc)
    db = sys.modules.get("django.db")
    if db is not None and isinstance(exc, db.OperationalError):
        from mafiatab.commands import first_line

        return f"cannot use the database (DATABASE_URL): {first_line(exc)}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRORS:
            raise
        print(f"mafiatab: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        problem = setup_problem(exc)
        if problem is None:
            raise
        print(f"mafiatab: {problem}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
