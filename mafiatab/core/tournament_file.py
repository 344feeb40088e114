"""Reading and writing the tournament file, format `mafiatab-tournament/1`.

The file is the interchange format between mafiatab, other tools and people
(spec: tournament-file.md). A file is accepted whole or refused whole: reading
collects every problem (wrong types, missing keys, broken rules) and raises one
`TournamentFileError` that lists them all. The reading itself is
`mafiatab.core.records`, the one reading of every protocol whatever its door.
"""

from __future__ import annotations

import json
import os
from typing import Any

from mafiatab.core.numbers import json_number
from mafiatab.core.problems import Problem, problem
from mafiatab.core.protocol import Protocol, Tournament
from mafiatab.core.records import (
    FORMAT,
    TournamentFileError,
    decode_json,
    read_document,
    read_protocol,
    read_text,
    to_fraction,
)
from mafiatab.core.regulations import get_regulation
from mafiatab.core.schedule import ScheduledRound

__all__ = [
    "FORMAT",
    "Problem",
    "TournamentFileError",
    "decode_json",
    "dumps_tournament",
    "load_tournament",
    "loads_tournament",
    "parse_tournament",
    "protocol_from_dict",
    "protocol_to_dict",
    "to_fraction",
    "tournament_to_dict",
]


def parse_tournament(data: object) -> Tournament:
    """A tournament from a decoded `mafiatab-tournament/1` document.

    Raises `TournamentFileError` listing every problem: of shape, and of the
    regulation's rules for every game whose shape is right.
    """
    return read_document(data)


def loads_tournament(text: str | bytes) -> Tournament:
    """A tournament from the text of a file; TournamentFileError for broken JSON too."""
    return read_text(text)


def load_tournament(path: str | os.PathLike[str]) -> Tournament:
    """A tournament from a file on disk; TournamentFileError if it can't be read."""
    try:
        with open(path, "rb") as handle:
            text = handle.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise TournamentFileError(
            [problem(None, None, "file", "file.unreadable", path=str(path), reason=reason)]
        ) from None
    return loads_tournament(text)


def protocol_from_dict(data: object, *, position: int = 1, ruleset: str = "fiim") -> Protocol:
    """One protocol from its file form (voting blocks included), validated against
    `ruleset`; TournamentFileError listing every problem."""
    return read_protocol(data, position, get_regulation(ruleset))


def protocol_to_dict(protocol: Protocol) -> dict[str, Any]:
    """The file form of one protocol (English role names; optional keys only when set)."""
    data: dict[str, Any] = {"id": protocol.id, "stage": protocol.stage.value}
    for key in ("round", "table", "date", "judge"):
        value = getattr(protocol, key)
        if value is not None:
            data[key] = value
    data["seats"] = [
        {"player": player, "role": role.value, "fouls": fouls}
        for player, role, fouls in zip(
            protocol.players, protocol.roles, protocol.fouls, strict=True
        )
    ]
    data["winner"] = protocol.winner.value
    data["first_killed"] = protocol.first_killed
    if protocol.best_move:
        data["best_move"] = list(protocol.best_move)
    if protocol.judge_extra:
        data["judge_extra"] = [
            {
                "seat": e.seat,
                "points": json_number(e.points),
                "reason": e.reason,
                "chief_approved": e.chief_approved,
            }
            for e in protocol.judge_extra
        ]
    if protocol.penalties:
        data["penalties"] = [
            {"seat": p.seat, "rule": p.rule, "reason": p.reason} for p in protocol.penalties
        ]
    if protocol.disqualified:
        data["disqualified"] = [
            {"seat": r.seat, "reason": r.reason, "online": r.online, "fined": r.fined}
            for r in protocol.disqualified
        ]
    if protocol.replayed:
        data["replayed"] = True
    if protocol.voting:
        data["voting"] = [block.to_dict() for block in protocol.voting]
    return data


def tournament_to_dict(tournament: Tournament) -> dict[str, Any]:
    """The `mafiatab-tournament/1` document of a tournament."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
    }
    if tournament.participants is not None:
        data["participants"] = tournament.participants
    if tournament.games_before_final is not None:
        data["games_before_final"] = tournament.games_before_final
    if tournament.stages is not None:
        data["stages"] = tournament.stages.to_json()
    data["lot_seed"] = tournament.lot_seed
    data["penalties"] = [
        {"player": p.player, "points": json_number(p.points), "reason": p.reason}
        for p in tournament.penalties
    ]
    data["games"] = [protocol_to_dict(p) for p in tournament.games]
    if tournament.schedule:
        data["schedule"] = [_scheduled_to_dict(r) for r in tournament.schedule]
    return data


def _scheduled_to_dict(entry: ScheduledRound) -> dict[str, Any]:
    data: dict[str, Any] = {"stage": entry.stage, "round": entry.round}
    if entry.starts_at is not None:
        data["starts_at"] = entry.starts_at.isoformat()
    if entry.place:
        data["place"] = entry.place
    if entry.link:
        data["link"] = entry.link
    return data


def dumps_tournament(tournament: Tournament) -> str:
    """The file text of a tournament: UTF-8 JSON, indented, Cyrillic kept readable."""
    return json.dumps(tournament_to_dict(tournament), ensure_ascii=False, indent=2) + "\n"
