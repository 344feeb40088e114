"""Reading games: the chief judge's queue, a judge's tables, a protocol's check.

`check_protocol` is the one place the web app asks the core about a protocol
being typed: the same reading and validation as the tournament file, the voting
rules of `mafiatab.core.voting`, and the points of the game as `score_game`
computes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from mafiatab.core.protocol import Protocol
from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.core.regulations import get_regulation
from mafiatab.core.scoring import ScoreLine, score_game
from mafiatab.core.tournament_file import TournamentFileError, protocol_from_dict
from mafiatab.core.validation import Problem
from mafiatab.core.voting import validate_voting, voting_from_list
from mafiatab.games.conversion import file_form
from mafiatab.games.models import Game, GameStatus, Protest, ProtestStatus, Round
from mafiatab.tournaments.models import Tournament


@dataclass(frozen=True)
class ProtocolCheck:
    """What the core says about a protocol: its problems and, when it reads, its points."""

    protocol: Protocol | None
    problems: list[Problem] = field(default_factory=list)
    lines: list[ScoreLine] = field(default_factory=list)

    @property
    def is_valid(self) -> bool:
        return self.protocol is not None and not self.problems


def check_protocol(data: dict[str, Any], *, ruleset: str) -> ProtocolCheck:
    """Read `data` (the file form plus "voting") as the core does, collecting every problem."""
    gid = str(data.get("id") or "game 1")
    blocks, problems = voting_from_list(data.get("voting"), gid)
    try:
        protocol = protocol_from_dict(file_form(data), ruleset=ruleset)
    except TournamentFileError as exc:
        return ProtocolCheck(None, [*exc.problems, *problems])
    problems = [*problems, *validate_voting(protocol, blocks)]
    lines = score_game(protocol, get_regulation(ruleset))
    return ProtocolCheck(protocol, problems, lines)


def core_tournament_of(tournament: Tournament, *, provisional: bool = False) -> CoreTournament:
    """The core tournament of confirmed games (with `provisional`, submitted ones too)."""
    from mafiatab.tournaments.conversion import core_tournament

    return core_tournament(tournament, provisional=provisional)


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    """Rounds with their tables, judges and games."""
    return (
        Round.objects.filter(tournament=tournament)
        .prefetch_related("tables__judge", "tables__game", "tables__seats")
        .order_by("created_at", "id")
    )


def games_of_judge(tournament: Tournament, user: Any) -> QuerySet[Game]:
    """The protocols of the tables `user` judges in the tournament."""
    return (
        Game.objects.filter(tournament=tournament, table_slot__judge=user)
        .select_related("table_slot")
        .order_by("position")
    )


def submitted_games(tournament: Tournament) -> QuerySet[Game]:
    """Protocols signed by their table judges and waiting for the chief judge."""
    return Game.objects.filter(tournament=tournament, status=GameStatus.SUBMITTED).order_by(
        "submitted_at", "position"
    )


def open_protests(tournament: Tournament) -> QuerySet[Protest]:
    """Protests waiting for a decision."""
    return (
        Protest.objects.filter(game__tournament=tournament, status=ProtestStatus.OPEN)
        .select_related("game", "filed_by")
        .order_by("filed_at")
    )


def game_with_rows(tournament: Tournament, label: str) -> Game | None:
    """The game labelled `label`, its rows prefetched."""
    return (
        Game.objects.filter(tournament=tournament, label=label)
        .select_related("table_slot__judge", "replay", "confirmed_by")
        .prefetch_related("seats", "extras", "penalties", "removals")
        .first()
    )
