"""The standings table's rows with a stage plan: each stage's group opened by its
name, each player's points per stage, and the cut line of the next stage drawn
below the last player who would advance now."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from fractions import Fraction

from django.db.models import Count, Max

from mafiatab.core.advancing import Outlook, outlook, running_stage
from mafiatab.core.names import nickname_key
from mafiatab.core.roles import Stage
from mafiatab.core.standings import Standing, Standings
from mafiatab.games.models import TableSeat


@dataclass(frozen=True)
class StagedRow:
    """One row of the table as the page draws it."""

    row: Standing
    """The player's standing."""
    group: str | None
    """The stage's code when this row opens its stage's group (with a plan only)."""
    cut: bool
    """The cut line of the next stage falls right below this row."""
    points: tuple[Fraction | None, ...]
    """His points in each stage of the plan, in order (None: he was not seated in it)."""
    outlook: Outlook | None = None
    """Where he stands against the cut while his stage runs (None: no running stage)."""


def public_outlook(standings: Standings) -> dict[str, Outlook]:
    """The core's outlook of the shared standings, without the marks while the running
    stage hides its judges' extras: the points they leave out could turn a "through"
    or an "out of reach" either way (the points to the cut are still shown)."""
    found = outlook(standings)
    stage = running_stage(standings)
    plan = standings.plan
    if found and stage is not None and plan is not None and plan.hides_extras(stage):
        return {player: replace(o, mark=None) for player, o in found.items()}
    return found


def games_left(
    tournament_id: int,
    standings: Standings,
    player: str,
    *,
    as_of: dt.datetime | None = None,
) -> int | None:
    """The games `player` has still to play in the running stage: his seats in its
    rounds whose games are not counted yet, plus the games of its rounds not made yet
    (the plan's games beyond the most seats any player has in its rounds so far). A
    seat a reserve took from him is no seat of his, so a participant replaced in the
    last round has nothing left. None when no stage runs or he is not in it. With
    `as_of` (frozen standings), the rounds made by then."""
    stage = running_stage(standings)
    plan = standings.plan
    spec = plan.spec(stage) if plan is not None and stage is not None else None
    if stage is None or spec is None:
        return None
    row = next((r for r in standings.group(stage) if r.player == player), None)
    if row is None:
        return None
    seats = TableSeat.objects.filter(
        table__round__tournament_id=tournament_id, table__round__stage=stage.value
    )
    if as_of is not None:
        seats = seats.filter(table__round__created_at__lte=as_of)
    key = nickname_key(player)
    his = seats.filter(registration__nickname_key=key).count()
    most = (
        seats.values("registration").annotate(n=Count("id")).aggregate(most=Max("n"))["most"] or 0
    )
    return max(his - row.games_in(stage), 0) + max(spec.games - most, 0)


def stage_columns(standings: Standings) -> list[str]:
    """The codes of the plan's stages, one column each (none without a plan or with
    a plan of one stage)."""
    plan = standings.plan
    if plan is None or len(plan.stages) < 2:
        return []
    return [spec.stage.value for spec in plan.stages]


def _cut_stage(standings: Standings) -> tuple[Stage, int] | None:
    """The furthest stage played that players still advance from, with how many
    advance: its cut is drawn while nobody has played the next stage."""
    plan = standings.plan
    if plan is None:
        return None
    played = {r.stage for r in standings.rows if r.stage is not None}
    for spec in reversed(plan.stages):
        if spec.stage in played:
            following = plan.next_stage(spec.stage)
            if following is None or following in played:
                return None
            places = plan.spec(following)
            return (spec.stage, places.players or 0) if places is not None else None
    return None


def staged_rows(standings: Standings) -> list[StagedRow]:
    """The rows with their groups, cut line and points per stage."""
    columns = stage_columns(standings)
    cut = _cut_stage(standings)
    outlooks = public_outlook(standings)
    grouped = standings.plan is not None and len(columns) > 0
    found: list[StagedRow] = []
    previous: Stage | None = None
    in_group = 0
    for row in standings.rows:
        opens = grouped and (not found or row.stage is not previous)
        in_group = 1 if opens or not found else in_group + 1
        previous = row.stage
        played = {stage.value for stage, _points in row.by_stage}
        found.append(
            StagedRow(
                row=row,
                group=row.stage.value if opens and row.stage is not None else None,
                cut=cut is not None and row.stage is cut[0] and in_group == cut[1],
                points=tuple(
                    row.points_in(Stage(code)) if code in played else None for code in columns
                ),
                outlook=outlooks.get(row.player),
            )
        )
    return found
