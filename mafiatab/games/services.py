"""Writes to rounds, tables, protocols and protests. Each leaves an audit entry.

A protocol is never overwritten: every save adds a `ProtocolVersion` and the
game's rows follow the newest one. Saving names the version the writer started
from (`base_version`); when someone saved in between, the save is refused with
`ProtocolChanged` so nothing is lost.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.games import conversion
from mafiatab.games.models import (
    STAGE_CHOICES,
    Game,
    GameStatus,
    ProtocolVersion,
    Round,
    Table,
    TableSeat,
)
from mafiatab.tournaments.models import StaffMember, Tournament

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

STAGES = [code for code, _label in STAGE_CHOICES]
STAGE_LETTERS = {"qualifying": "Q", "semifinal": "S", "final": "F"}


@dataclass(frozen=True)
class TablePlan:
    """One table of a round to create: its number, its judge and ten nicknames."""

    number: int
    judge: User | None
    players: tuple[str, ...] = field(default=())
    """Ten nicknames, seat 1 first."""


def _nick(user: User | None) -> str | None:
    if user is None:
        return None
    return user.nickname or user.username


def _check_plans(tournament: Tournament, tables: Sequence[TablePlan]) -> None:
    errors: list[str] = []
    numbers: set[int] = set()
    seated: dict[str, int] = {}
    staff_ids = set(
        StaffMember.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    )
    for plan in tables:
        where = _("Table %(n)s") % {"n": plan.number}
        if plan.number < 1:
            errors.append(_("%(where)s: the table number must be 1 or more.") % {"where": where})
        if plan.number in numbers:
            errors.append(_("%(where)s is planned twice.") % {"where": where})
        numbers.add(plan.number)
        if plan.judge is not None and plan.judge.pk not in staff_ids:
            errors.append(
                _("%(where)s: %(judge)s is not a judge of this tournament.")
                % {"where": where, "judge": _nick(plan.judge)}
            )
        players = [p.strip() for p in plan.players]
        if len(players) != 10:
            errors.append(
                _("%(where)s: a table has 10 players, not %(n)d.")
                % {"where": where, "n": len(players)}
            )
        for seat, nick in enumerate(players, start=1):
            if not nick:
                errors.append(
                    _("%(where)s, seat %(seat)d: the nickname is empty.")
                    % {"where": where, "seat": seat}
                )
                continue
            if nick.lower() in seated:
                errors.append(
                    _("%(where)s, seat %(seat)d: %(nick)s is already seated at table %(other)s.")
                    % {"where": where, "seat": seat, "nick": nick, "other": seated[nick.lower()]}
                )
            seated[nick.lower()] = plan.number
    if errors:
        raise ValidationError(errors)


def _label(tournament: Tournament, stage: str, round_number: int, table: int) -> str:
    base = f"{STAGE_LETTERS[stage]}{round_number}-T{table}"
    label, n = base, 1
    while Game.objects.filter(tournament=tournament, label=label).exists():
        n += 1
        label = f"{base}-{n}"
    return label


def _next_position(tournament: Tournament) -> int:
    last = Game.objects.filter(tournament=tournament).aggregate(m=Max("position"))["m"]
    return (last or 0) + 1


def _create_table(*, round: Round, plan: TablePlan, by: User | None) -> Table:
    tournament = round.tournament
    table = Table.objects.create(round=round, number=plan.number, judge=plan.judge)
    players = [p.strip() for p in plan.players]
    TableSeat.objects.bulk_create(
        TableSeat(table=table, number=n, player=nick) for n, nick in enumerate(players, start=1)
    )
    game = Game.objects.create(
        tournament=tournament,
        position=_next_position(tournament),
        label=_label(tournament, round.stage, round.number, plan.number),
        stage=round.stage,
        round=round.number,
        table=plan.number,
        judge=_nick(plan.judge),
        table_slot=table,
        status=GameStatus.DRAFT,
        version=0,
    )
    data = conversion.game_data(game) | {
        "seats": [{"player": nick, "role": None, "fouls": 0} for nick in players]
    }
    _new_version(game, data, status=GameStatus.DRAFT, action="created", by=by, reason="")
    return table


@transaction.atomic
def round_create(
    *,
    tournament: Tournament,
    stage: str,
    number: int,
    tables: Sequence[TablePlan],
    by: User | None,
) -> Round:
    """A new round of `stage` with its tables, each with an empty protocol (a draft)
    that already holds the ten seated nicknames."""
    if stage not in STAGES:
        raise ValidationError({"stage": _("Unknown stage %(stage)s.") % {"stage": stage}})
    if number < 1:
        raise ValidationError({"number": _("The round number must be 1 or more.")})
    if Round.objects.filter(tournament=tournament, stage=stage, number=number).exists():
        raise ValidationError({"number": _("This round already exists.")})
    _check_plans(tournament, tables)
    round = Round.objects.create(tournament=tournament, stage=stage, number=number, created_by=by)
    for plan in sorted(tables, key=lambda p: p.number):
        _create_table(round=round, plan=plan, by=by)
    tournament.log_action(
        "round.created",
        by=by,
        target=str(round),
        after={
            "stage": stage,
            "number": number,
            "tables": [
                {"number": p.number, "judge": _nick(p.judge), "players": list(p.players)}
                for p in tables
            ],
        },
    )
    return round


@transaction.atomic
def table_add(*, round: Round, plan: TablePlan, by: User | None) -> Table:
    """Add one table to an existing round."""
    tournament = round.tournament
    others = Table.objects.filter(round=round)
    if others.filter(number=plan.number).exists():
        raise ValidationError(_("Table %(n)s already exists in this round.") % {"n": plan.number})
    existing = [
        TablePlan(number=t.number, judge=None, players=tuple(s.player for s in t.seats.all()))
        for t in others.prefetch_related("seats")
    ]
    _check_plans(tournament, [*existing, plan])
    table = _create_table(round=round, plan=plan, by=by)
    tournament.log_action(
        "table.created",
        by=by,
        target=str(table),
        after={"number": plan.number, "judge": _nick(plan.judge), "players": list(plan.players)},
    )
    return table


def _new_version(
    game: Game,
    data: dict[str, Any],
    *,
    status: str,
    action: str,
    by: User | None,
    reason: str,
    now: dt.datetime | None = None,
) -> ProtocolVersion:
    """Record `data` as the game's next version and make the rows follow it."""
    number = game.version + 1
    version = ProtocolVersion.objects.create(
        game=game,
        number=number,
        data=data,
        status=status,
        action=action,
        reason=reason,
        author=by if by is not None and by.is_authenticated else None,
        created_at=now or timezone.now(),
    )
    game.version = number
    game.status = status
    try:
        conversion.write_game_data(game, data)
    except conversion.UnstorablePoints as exc:
        raise ValidationError(str(exc)) from exc
    return version
