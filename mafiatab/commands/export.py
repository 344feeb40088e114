"""`mafiatab export SLUG`: write a stored tournament back as a tournament file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a stored tournament as a tournament file",
        description="Write the tournament's confirmed protocols and penalties as a file.",
    )
    parser.add_argument("slug", metavar="SLUG", help="the tournament's address")
    parser.add_argument(
        "--data-dir", default=None, metavar="DIR", help="data directory (default ./data)"
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.add_argument(
        "--archive",
        metavar="FILE",
        help="write the tournament's archive (ZIP: the file, standings PDF and XLSX, "
        "seating and every protocol as PDF, game logs) here instead",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "ru"),
        default="en",
        help="language of the archive's documents (default en)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mafiatab.tournaments.cli import setup_django

    # A backup only reads: it never changes the database's tables behind the servers'
    # backs (after a new version is installed, `mafiatab serve --migrate` does that).
    setup_django(args.data_dir, migrate=False)
    from mafiatab.commands.serve import migrations_named, unapplied_migrations

    missing = unapplied_migrations()
    if missing:
        print(
            f"the database has {migrations_named(missing)} of this version: "
            "export with the version that serves it, or run `mafiatab serve --migrate` first",
            file=sys.stderr,
        )
        return 2
    from mafiatab.core.tournament_file import dumps_tournament
    from mafiatab.core.validation import validate_tournament
    from mafiatab.standings.inputs import core_tournament
    from mafiatab.tournaments.models import Tournament

    tournament = Tournament.objects.filter(slug=args.slug).first()
    if tournament is None:
        print(f"no tournament with the address {args.slug!r}", file=sys.stderr)
        return 2
    core = core_tournament(tournament)
    problems = validate_tournament(core)
    if problems:
        print(f"the tournament {args.slug!r} cannot be written as a valid file:", file=sys.stderr)
        for problem in problems:
            print(problem, file=sys.stderr)
        return 2
    if args.archive:
        return _archive(tournament, core, args)
    text = dumps_tournament(core)
    if args.output:
        return _write(Path(args.output), text)
    sys.stdout.write(text)
    return 0


def _write(target: Path, text: str) -> int:
    """Write the file next to its target, then move it in place: a place that cannot be
    written is one line on stderr (exit code 2), and a failed run leaves no half-written
    file."""
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        print(f"cannot write the file {str(target)!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def _archive(tournament: Any, core: Any, args: argparse.Namespace) -> int:
    """Write the archive (its tournament file from `core`, the one just checked) next
    to its target, then move it in place: a failed run leaves no half-written archive."""
    from django.utils import translation

    from mafiatab.printables.archive import write_archive

    target = Path(args.archive)
    partial = target.with_name(target.name + ".partial")
    try:
        with translation.override(args.lang), partial.open("wb") as out:
            size = write_archive(tournament, out, core=core)
        partial.replace(target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        print(f"cannot write the archive {str(target)!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if args.output:
        from mafiatab.core.tournament_file import dumps_tournament

        if _write(Path(args.output), dumps_tournament(core)):
            return 2
    print(f"wrote {target} ({size} bytes)", file=sys.stderr)
    return 0
