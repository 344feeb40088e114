"""The tournament's stage plan: its one stored form (the tournament file's `stages`,
`Tournament.stage_plan`) read by the core's `StagePlan.parse`, the one reader of a plan
whatever its door (the settings form, the API, an imported file)."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from mafiatab.core.problems import Problem
from mafiatab.core.records import TournamentFileError
from mafiatab.core.roles import Stage
from mafiatab.core.stages import (
    StagePlan,
    plan_participant_problems,
    plan_seating_problems,
)
from mafiatab.messages import problem_text
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import APPROVED

#: The stored status of a published seating (`seating.DraftStatus.PUBLISHED`).
PUBLISHED_SEATING = "published"

_PLACE = re.compile(r"stages\[(\d+)\]\.(\w+)")


def _field_of(stages: Any, problem: Problem) -> str:
    """The settings form's field a problem of the plan is about (`semifinal_players` for
    `stages[2].players` when the second stage is the semifinal); else no field."""
    found = _PLACE.fullmatch(problem.field)
    if found is None or not isinstance(stages, list):
        return NON_FIELD_ERRORS
    index, key = int(found.group(1)), found.group(2)
    entry = stages[index - 1] if 0 < index <= len(stages) else None
    name = entry.get("stage") if isinstance(entry, dict) else None
    if name not in {s.value for s in Stage} or key not in ("players", "games"):
        return NON_FIELD_ERRORS
    return f"{name}_{key}"


def _refuse(stages: Any, problems: list[Problem]) -> ValidationError:
    errors: dict[str, list[str]] = {}
    for found in problems:
        errors.setdefault(_field_of(stages, found), []).append(problem_text(found))
    return ValidationError(errors)


def published_games(tournament: Tournament) -> dict[Stage, int]:
    """The games per player of each stage whose seating is published."""
    rows = tournament.seating_drafts.filter(status=PUBLISHED_SEATING).values_list(
        "stage", "games_per_player"
    )
    return {Stage(stage): games for stage, games in rows}


def _participants(tournament: Tournament, published: dict[Stage, int]) -> int | None:
    """The players the plan's first stage holds: once its seating is published, the
    approved participants; before, at most the participant limit (None: not known yet,
    registration still runs)."""
    if Stage.QUALIFYING in published:
        return tournament.registrations.filter(status=APPROVED).count()
    return tournament.participant_limit


def checked_plan(tournament: Tournament, stages: Any) -> StagePlan | None:
    """The plan in `stages` for `tournament` (None: no plan), checked against what the
    tournament already holds: no more players advance into its second stage than it has
    participants (the approved once the qualifying seating is published, else its
    participant limit), and a stage whose seating is published keeps that seating's
    games per player (8.6 B counts the plan's). ValidationError by the settings form's
    field otherwise, each problem in the reader's language."""
    if stages is None:
        return None
    try:
        plan = StagePlan.parse(stages)
    except TournamentFileError as exc:
        raise _refuse(stages, exc.problems) from None
    published = published_games(tournament)
    problems = plan_participant_problems(plan, _participants(tournament, published))
    problems += plan_seating_problems(plan, published)
    if problems:
        raise _refuse(stages, problems)
    return plan


def players_refusal(tournament: Tournament, stages: list[dict[str, Any]]) -> ValidationError | None:
    """What is wrong with the players of a plan whose games are not all given yet (the
    settings form asks for them beside): the plan read as `checked_plan` reads it, a
    missing number of games taken as 1, and only the problems of its players' fields
    kept, so that a wrong number of players is said at once, not after the games."""
    filled = [dict(stage, games=stage.get("games") or 1) for stage in stages]
    try:
        checked_plan(tournament, filled)
    except ValidationError as exc:
        kept = {
            field: errors
            for field, errors in exc.message_dict.items()
            if field.endswith("_players")
        }
        return ValidationError(kept) if kept else None
    return None


def plan_of(tournament: Tournament) -> StagePlan | None:
    """The tournament's stage plan (None: qualifying rounds alone)."""
    if tournament.stage_plan is None:
        return None
    return StagePlan.parse(tournament.stage_plan)
