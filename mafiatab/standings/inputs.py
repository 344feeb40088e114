"""The scoring input: a tournament's rows (games, penalties, registrations, seating)
-> the core `Tournament` that scoring and export read.

The scoring settings the core needs are the organiser's when he set them, else
the tournament's own defaults, decided here once (`scoring_settings`):

- participants N for 8.7: the approved participants (reserves who replaced a late
  player are not counted);
- games before the final for B of 8.6: from the stage plan (its qualifying and
  semifinal games), else from the schedule (the published seating of each stage
  before the final, else the tables made so far), never from the games played so
  far, so provisional compensation does not swing;
- the lot seed of 8.8.5, drawn when the tournament was created.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count

from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.core.roles import Stage
from mafiatab.games.conversion import scheduled_rounds, stored_protocols
from mafiatab.games.models import TableSeat
from mafiatab.penalties.conversion import active_penalties
from mafiatab.registrations.models import Status
from mafiatab.seating.models import DraftStatus
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.stages import plan_of

#: The stages whose games count in B (8.6), in the order they are played.
_BEFORE_FINAL = tuple(stage.value for stage in Stage if stage.is_before_final())


@dataclass(frozen=True)
class ScoringSettings:
    """The settings the core scores a tournament with, and where each comes from."""

    participants: int | None
    """N of 8.7 (None: nobody is registered; the core counts the seated players)."""
    participants_set: bool
    """True when the organiser set N; False: the approved participants are counted."""
    games_before_final: int | None
    """The games one player is scheduled to play before the final (None: no schedule
    yet; the core then derives it from the games)."""
    games_before_final_set: bool
    """True when the organiser set it; False: from the stage plan or the schedule."""
    games_before_final_from_plan: bool
    """True when it is not set and the stage plan gives it."""
    lot_seed: int
    """The seed of the lot of 8.8.5."""


def approved_participants(tournament: Tournament) -> int:
    """The approved participants (a reserve is no participant)."""
    return tournament.registrations.filter(status=Status.APPROVED).count()


def scheduled_games_before_final(tournament: Tournament) -> int | None:
    """Games one player is scheduled to play before the final: for each stage before
    the final, the published seating's games per player, else the most tables one
    player is seated at in that stage; None when nothing is scheduled."""
    per_stage = dict(
        tournament.seating_drafts.filter(
            status=DraftStatus.PUBLISHED, stage__in=_BEFORE_FINAL
        ).values_list("stage", "games_per_player")
    )
    for stage in _BEFORE_FINAL:
        if stage in per_stage:
            continue
        counts = (
            TableSeat.objects.filter(table__round__tournament=tournament, table__round__stage=stage)
            .values("registration")
            .annotate(n=Count("id"))
            .values_list("n", flat=True)
        )
        most = max(counts, default=0)
        if most:
            per_stage[stage] = most
    return sum(per_stage.values()) if per_stage else None


def default_games_before_final(tournament: Tournament) -> int | None:
    """B of 8.6 when the organiser did not set it: the stage plan's games before the
    final, else the schedule's (`scheduled_games_before_final`)."""
    plan = plan_of(tournament)
    if plan is not None:
        return plan.games_before_final()
    return scheduled_games_before_final(tournament)


def scoring_settings(tournament: Tournament) -> ScoringSettings:
    """The settings the core scores `tournament` with (see the module's docstring)."""
    participants = tournament.participants
    if participants is None:
        participants = approved_participants(tournament) or None
    games = tournament.games_before_final
    from_plan = games is None and tournament.stage_plan is not None
    if games is None:
        games = default_games_before_final(tournament)
    return ScoringSettings(
        participants=participants,
        participants_set=tournament.participants is not None,
        games_before_final=games,
        games_before_final_set=tournament.games_before_final is not None,
        games_before_final_from_plan=from_plan,
        lot_seed=tournament.lot_seed,
    )


def core_tournament(
    tournament: Tournament, *, provisional: bool = False, as_of: dt.datetime | None = None
) -> CoreTournament:
    """Everything the core needs to score (or export) the tournament, as core objects:
    its confirmed protocols, or with `provisional` the submitted ones too, and its
    scoring settings (`scoring_settings`). With `as_of`, the protocols and penalties
    as they were at that moment (what the public sees of frozen standings)."""
    settings = scoring_settings(tournament)
    games = stored_protocols(
        tournament.pk, ruleset=tournament.ruleset, provisional=provisional, as_of=as_of
    )
    return CoreTournament(
        name=tournament.name,
        ruleset=tournament.ruleset,
        games=games,
        participants=settings.participants,
        games_before_final=settings.games_before_final,
        lot_seed=settings.lot_seed,
        penalties=active_penalties(tournament.pk, as_of=as_of),
        schedule=scheduled_rounds(tournament.pk),
        stages=plan_of(tournament),
    )
