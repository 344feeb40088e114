"""Builders of tournament files (as decoded JSON dicts) for the core tests.

The default table: seats 1-6 red (Anna..Fedor), seat 7 sheriff (Gleb),
seats 8-9 black (Hanna, Igor), seat 10 don (Julia).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from mafiatab.core.standings import Standing, Standings, compute_standings
from mafiatab.core.tournament_file import parse_tournament

TEN = ("Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb", "Hanna", "Igor", "Julia")
#: Seats 1-6 red, 7 sheriff, 8-9 black, 10 don, as protocol letters.
DEFAULT_ROLES = "ККККККШЧЧД"
LETTER_TO_ROLE = {"К": "red", "Ш": "sheriff", "Ч": "black", "Д": "don"}

F = Fraction


def seats(
    players: Sequence[str] = TEN,
    roles: str | Sequence[str] = DEFAULT_ROLES,
    fouls: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """Ten seat dicts; `roles` as a string of protocol letters or a list of role names."""
    names = [LETTER_TO_ROLE[r] for r in roles] if isinstance(roles, str) else list(roles)
    result = []
    for i, (player, role) in enumerate(zip(players, names, strict=True)):
        seat: dict[str, Any] = {"player": player, "role": role}
        if fouls is not None:
            seat["fouls"] = fouls[i]
        result.append(seat)
    return result


def game(
    id: str | None = "G1",
    *,
    stage: str = "qualifying",
    winner: str = "red",
    players: Sequence[str] = TEN,
    roles: str | Sequence[str] = DEFAULT_ROLES,
    fouls: Sequence[int] | None = None,
    first_killed: int | None = None,
    best_move: Iterable[int] | None = None,
    judge_extra: Iterable[dict[str, Any]] = (),
    penalties: Iterable[dict[str, Any]] = (),
    disqualified: Iterable[dict[str, Any]] = (),
    replayed: bool | None = None,
    **other: Any,
) -> dict[str, Any]:
    """One game protocol as it appears in a tournament file."""
    data: dict[str, Any] = {}
    if id is not None:
        data["id"] = id
    data["stage"] = stage
    data["seats"] = seats(players, roles, fouls)
    data["winner"] = winner
    if first_killed is not None:
        data["first_killed"] = first_killed
    if best_move is not None:
        data["best_move"] = list(best_move)
    if judge_extra := list(judge_extra):
        data["judge_extra"] = judge_extra
    if penalties := list(penalties):
        data["penalties"] = penalties
    if disqualified := list(disqualified):
        data["disqualified"] = disqualified
    if replayed is not None:
        data["replayed"] = replayed
    data.update(other)
    return data


def extra(
    seat: int, points: float, *, chief_approved: bool = False, reason: str = "good game"
) -> dict[str, Any]:
    """A judge extra point entry (8.4)."""
    return {"seat": seat, "points": points, "reason": reason, "chief_approved": chief_approved}


def penalty(seat: int, rule: str, reason: str = "harmed the game") -> dict[str, Any]:
    """A -0.4 penalty entry (8.5)."""
    return {"seat": seat, "rule": rule, "reason": reason}


def removal(
    seat: int, *, online: bool = False, fined: bool = True, reason: str = "removed"
) -> dict[str, Any]:
    """A removal entry (8.2.4)."""
    return {"seat": seat, "reason": reason, "online": online, "fined": fined}


def fine(player: str, points: float, reason: str = "late") -> dict[str, Any]:
    """A tournament-level penalty entry."""
    return {"player": player, "points": points, "reason": reason}


def tournament(
    *games: dict[str, Any],
    name: str = "Test Cup",
    ruleset: str = "fiim",
    participants: int | None = None,
    games_before_final: int | None = None,
    lot_seed: int | None = None,
    penalties: Iterable[dict[str, Any]] = (),
    stages: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A whole tournament file."""
    data: dict[str, Any] = {"format": "mafiatab-tournament/1", "name": name, "ruleset": ruleset}
    if participants is not None:
        data["participants"] = participants
    if games_before_final is not None:
        data["games_before_final"] = games_before_final
    if lot_seed is not None:
        data["lot_seed"] = lot_seed
    if penalties := list(penalties):
        data["penalties"] = penalties
    if stages is not None:
        data["stages"] = stages
    data["games"] = list(games)
    return data


def standings_of(data: dict[str, Any]) -> Standings:
    """Parse a tournament file dict and compute its standings."""
    return compute_standings(parse_tournament(data))


def row(standings: Standings, player: str) -> Standing:
    """The standing of `player`."""
    for r in standings.rows:
        if r.player == player:
            return r
    raise AssertionError(f"{player!r} is not in the standings")


def rows_by_player(standings: Standings) -> dict[str, Standing]:
    """Every standing by player."""
    return {r.player: r for r in standings.rows}
