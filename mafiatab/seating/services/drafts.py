"""Generating a seating draft (and again with a new seed): the core plans it within
the server's search budget, and the draft is kept with an audit entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from mafiatab.core.seating import (
    DEFAULT_TIME_LIMIT,
    TABLE_SIZE,
    Schedule,
    SeatingError,
    plan_final,
    plan_seating,
)
from mafiatab.games.models import STAGE_CHOICES
from mafiatab.messages import seating_error_text
from mafiatab.seating.models import SeatingDraft
from mafiatab.seating.services.inputs import (
    ITERATIONS_SETTING,
    TIME_LIMIT_SETTING,
    SeatingInputs,
    club_groups,
    next_seed,
    participants,
    planned_stage_without_list,
)
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


def _plan(names: Sequence[str], games: int, **options: Any) -> Schedule:
    """The core's schedule of `names` within this server's search budget (the settings);
    ValidationError with the core's reason when the inputs admit no schedule."""
    try:
        return plan_seating(
            names,
            games,
            time_limit=getattr(settings, TIME_LIMIT_SETTING, DEFAULT_TIME_LIMIT),
            iterations=getattr(settings, ITERATIONS_SETTING, None),
            **options,
        )
    except SeatingError as exc:
        raise ValidationError(
            _("This seating cannot be made: %(reason)s.") % {"reason": seating_error_text(exc)}
        ) from None


def _final(names: Sequence[str], games: int, seed: int) -> Schedule:
    """The final at one table by the core's Williams squares (each finalist in every
    seat and right after every other as evenly as the games allow)."""
    try:
        return plan_final(names, games, seed=seed)
    except SeatingError as exc:
        raise ValidationError(
            _("This seating cannot be made: %(reason)s.") % {"reason": seating_error_text(exc)}
        ) from None


def _new_draft(
    *,
    tournament: Tournament,
    stage: str,
    schedule: Schedule,
    options: dict[str, Any],
    by: User | None,
    action: str,
    judges: Mapping[str, str] | None = None,
    noted: Mapping[str, Any] | None = None,
) -> SeatingDraft:
    """Keep `schedule` as a draft of `stage`, with an audit entry `action` (its summary
    and what `noted` adds)."""
    with transaction.atomic():
        draft = SeatingDraft.objects.create(
            tournament=tournament,
            stage=stage,
            games_per_player=schedule.games,
            tables=schedule.tables,
            seed=schedule.seed,
            options=options,
            schedule=schedule.to_json(),
            metrics=schedule.metrics.to_json(),
            flags=[flag.to_json() for flag in schedule.flags],
            judges=dict(judges or {}),
            created_by=by,
        )
        tournament.log_action(
            action,
            by=by,
            target=draft.get_stage_display(),
            after=_summary(draft) | dict(noted or {}),
        )
    return draft


def seating_generate(
    *, tournament: Tournament, inputs: SeatingInputs, by: User | None
) -> SeatingDraft:
    """Plan a seating of the current participants and keep it as a draft.

    Raises ValidationError with the core's reason when the inputs admit no schedule.
    """
    ensure_can(by, tournament, "generate_seating")
    if planned_stage_without_list(tournament, inputs.stage):
        raise ValidationError(
            _(
                "The advance list of the %(stage)s is not published yet: its seating "
                "draws only the players who advanced."
            )
            % {"stage": dict(STAGE_CHOICES).get(inputs.stage, inputs.stage)}
        )
    people = participants(tournament, inputs.stage)
    names = [p.nickname for p in people]
    if inputs.stage == "final" and len(names) == TABLE_SIZE:
        return _new_draft(
            tournament=tournament,
            stage=inputs.stage,
            schedule=_final(names, inputs.games, inputs.seed),
            options=inputs.to_json() | {"final": "williams"},
            by=by,
            action="seating.generated",
        )
    groups = [frozenset(g) for g in inputs.avoid]
    if inputs.keep_clubs_apart:
        groups += [frozenset(g) for g in club_groups(people)]
    schedule = _plan(
        names,
        inputs.games,
        tables=inputs.tables,
        seed=inputs.seed,
        avoid=groups,
        fixed_tables=dict(inputs.fixed_tables),
    )
    return _new_draft(
        tournament=tournament,
        stage=inputs.stage,
        schedule=schedule,
        options=inputs.to_json(),
        by=by,
        action="seating.generated",
    )


def seating_regenerate(*, draft: SeatingDraft, by: User | None) -> SeatingDraft:
    """The same request as `draft` with a seed not used yet; the earlier draft stays."""
    ensure_can(by, draft.tournament, "generate_seating")
    options = draft.options
    inputs = SeatingInputs(
        stage=draft.stage,
        games=draft.games_per_player,
        tables=draft.tables,
        seed=next_seed(draft.tournament),
        avoid=tuple(tuple(g) for g in options.get("avoid", [])),
        keep_clubs_apart=bool(options.get("keep_clubs_apart", False)),
        fixed_tables={str(k): int(v) for k, v in options.get("fixed_tables", {}).items()},
    )
    return seating_generate(tournament=draft.tournament, inputs=inputs, by=by)


def _summary(draft: SeatingDraft) -> dict[str, Any]:
    metrics = draft.metrics
    return {
        "draft": draft.pk,
        "stage": draft.stage,
        "players": len(draft.players),
        "games": draft.games_per_player,
        "tables": draft.tables,
        "seed": draft.seed,
        "rounds": len(draft.rounds),
        "max_meetings": metrics.get("max_meetings"),
        "variance": metrics.get("variance"),
        "seat_balance_exact": metrics.get("seat_balance_exact"),
    }
