"""The tournament's stage plan: its one stored form (the tournament file's `stages`,
`Tournament.stage_plan`) read by the core's `StagePlan.parse`, the one reader of a plan
whatever its door (the settings form, the API, an imported file)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from mafiatab.core.records import TournamentFileError
from mafiatab.core.stages import StagePlan
from mafiatab.messages import problem_text
from mafiatab.tournaments.models import Tournament


def read_plan(stages: Any) -> StagePlan | None:
    """The plan in `stages` (None: no plan); ValidationError with one message for
    each of its problems, in the reader's language."""
    if stages is None:
        return None
    try:
        return StagePlan.parse(stages)
    except TournamentFileError as exc:
        raise ValidationError([problem_text(p) for p in exc.problems]) from None


def plan_of(tournament: Tournament) -> StagePlan | None:
    """The tournament's stage plan (None: qualifying rounds alone)."""
    if tournament.stage_plan is None:
        return None
    return StagePlan.parse(tournament.stage_plan)
