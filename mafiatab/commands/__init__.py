"""Subcommands of the `mafiatab` CLI; see `mafiatab.cli`."""

from __future__ import annotations

from typing import Any


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message, short enough for one line of output."""
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def read_tournament_file(path: str) -> tuple[Any, list[str]]:
    """The parsed tournament file, or None and its problems, one line each: whatever
    the file holds (nesting, huge numbers, wrong types), never a traceback."""
    from mafiatab.core.tournament_file import TournamentFileError, load_tournament

    try:
        return load_tournament(path), []
    except TournamentFileError as exc:
        return None, [str(problem) for problem in exc.problems] or [str(exc)]
    except OSError as exc:
        return None, [f"{path}: {exc.strerror or exc}"]
    except RecursionError:
        return None, [f"{path}: the JSON is nested too deeply to be a tournament file"]
    except (ValueError, TypeError, OverflowError) as exc:
        return None, [f"{path}: not a tournament file ({first_line(exc)})"]
