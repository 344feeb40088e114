"""Rounds and their tables: `round_create` and `table_add` seat ten participants at each
table (a `TablePlan`) and open the table's protocol as a draft holding their nicknames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from mafiatab.core.names import nickname_key
from mafiatab.games import conversion
from mafiatab.games.models import STAGE_CHOICES, Game, GameStatus, Round, Table, TableSeat
from mafiatab.games.services import notices
from mafiatab.games.services.versions import _new_version
from mafiatab.registrations.models import Registration
from mafiatab.registrations.selectors import seat_holders
from mafiatab.tournaments.models import StaffMember, Tournament
from mafiatab.tournaments.permissions import ensure_can

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


def is_judge_of(judge: User, registration: Registration) -> bool:
    """`registration` is `judge` himself (his account, or his nickname in any case):
    he cannot hold a seat at a table he judges."""
    if registration.user_id is not None:
        return registration.user_id == judge.pk
    return registration.nickname_key == nickname_key(_nick(judge) or "")


def judge_seat_refusal(
    *, where: str, judge: User | None, seats: Sequence[tuple[int, Registration]]
) -> str | None:
    """Why `judge` cannot judge the table `where` seated with `seats` (seat number and
    holder): he holds one of its seats. None when he may (or there is no judge)."""
    if judge is None:
        return None
    for seat, holder in seats:
        if is_judge_of(judge, holder):
            return _(
                "%(where)s: %(judge)s plays at this table (seat %(seat)d) and cannot be its "
                "judge; choose another judge or seat him at another table."
            ) % {"where": where, "judge": holder.nickname, "seat": seat}
    return None


def _check_plans(
    tournament: Tournament, tables: Sequence[TablePlan]
) -> dict[int, list[Registration]]:
    """Each table's ten participants (by table number), resolved from the nicknames in
    any case; ValidationError naming every seat that cannot be filled, and a judge who
    holds a seat at his own table."""
    errors: list[str] = []
    numbers: set[int] = set()
    seated: dict[int, int] = {}
    holders = seat_holders(tournament.pk)
    resolved: dict[int, list[Registration]] = {}
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
        resolved[plan.number] = []
        held: list[tuple[int, Registration]] = []
        for seat, nick in enumerate(players, start=1):
            if not nick:
                errors.append(
                    _("%(where)s, seat %(seat)d: the nickname is empty.")
                    % {"where": where, "seat": seat}
                )
                continue
            holder = holders.get(nickname_key(nick))
            if holder is None:
                errors.append(
                    _("%(where)s, seat %(seat)d: %(nick)s is not a participant of this tournament.")
                    % {"where": where, "seat": seat, "nick": nick}
                )
                continue
            if holder.pk in seated:
                errors.append(
                    _("%(where)s, seat %(seat)d: %(nick)s is already seated at table %(other)s.")
                    % {
                        "where": where,
                        "seat": seat,
                        "nick": holder.nickname,
                        "other": seated[holder.pk],
                    }
                )
            seated[holder.pk] = plan.number
            resolved[plan.number].append(holder)
            held.append((seat, holder))
        if refusal := judge_seat_refusal(where=where, judge=plan.judge, seats=held):
            errors.append(refusal)
    if errors:
        raise ValidationError(errors)
    return resolved


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


def _create_table(
    *, round: Round, plan: TablePlan, seats: Sequence[Registration], by: User | None
) -> Table:
    tournament = round.tournament
    table = Table.objects.create(round=round, number=plan.number, judge=plan.judge)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, number=n, registration=holder)
        for n, holder in enumerate(seats, start=1)
    )
    players = [holder.nickname for holder in seats]
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
    data = conversion.new_game_data(game, players)
    _new_version(game, data, status=GameStatus.DRAFT, action="created", by=by, reason="")
    return table


def _check_advanced(tournament: Tournament, stage: str, seats: dict[int, list[Any]]) -> None:
    """A round of a stage whose advance list is published seats only the players who
    advanced into it (the organiser enters the final's seats by hand, or they chose)."""
    advanced = set(
        tournament.advancements.filter(stage=stage, active=True).values_list(
            "registration_id", flat=True
        )
    )
    if not advanced:
        return
    outside = sorted(
        {r.nickname for players in seats.values() for r in players if r.pk not in advanced}
    )
    if outside:
        raise ValidationError(
            _("Only the players who advanced into this stage play in it, not %(names)s.")
            % {"names": ", ".join(outside)}
        )


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
    ensure_can(by, tournament, "manage_rounds")
    if stage not in STAGES:
        raise ValidationError({"stage": _("Unknown stage %(stage)s.") % {"stage": stage}})
    if number < 1:
        raise ValidationError({"number": _("The round number must be 1 or more.")})
    if Round.objects.filter(tournament=tournament, stage=stage, number=number).exists():
        raise ValidationError({"number": _("This round already exists.")})
    seats = _check_plans(tournament, tables)
    _check_advanced(tournament, stage, seats)
    round = Round.objects.create(tournament=tournament, stage=stage, number=number, created_by=by)
    for plan in sorted(tables, key=lambda p: p.number):
        _create_table(round=round, plan=plan, seats=seats[plan.number], by=by)
    _log_round(
        round,
        by,
        [(p.number, _nick(p.judge), [r.nickname for r in seats[p.number]]) for p in tables],
    )
    tournament.standings_changed()  # the schedule gives B of 8.6
    return round


@transaction.atomic
def round_seat(
    *,
    tournament: Tournament,
    stage: str,
    number: int,
    tables: Sequence[TablePlan],
    by: User | None,
) -> Round:
    """Round `number` of `stage` holding `tables` (a seating's): created when it does not
    exist; a round made before without a table (to set its time first) gets them, its
    time, place and link kept. Refused when the round already holds tables."""
    ensure_can(by, tournament, "manage_rounds")
    round = (
        Round.objects.select_for_update()
        .filter(tournament=tournament, stage=stage, number=number)
        .first()
    )
    if round is None:
        return round_create(tournament=tournament, stage=stage, number=number, tables=tables, by=by)
    held = sorted(round.tables.values_list("number", flat=True))
    if held:
        raise ValidationError(
            {
                "number": _("Round %(round)s already holds tables %(tables)s.")
                % {"round": round, "tables": ", ".join(str(n) for n in held)}
            }
        )
    seats = _check_plans(tournament, tables)
    _check_advanced(tournament, stage, seats)
    for plan in sorted(tables, key=lambda p: p.number):
        table = _create_table(round=round, plan=plan, seats=seats[plan.number], by=by)
        tournament.log_action(
            "table.created",
            by=by,
            target=str(table),
            after={
                "stage": round.stage,
                "round": round.number,
                "number": plan.number,
                "judge": _nick(plan.judge),
                "players": [r.nickname for r in seats[plan.number]],
            },
        )
    tournament.standings_changed()  # the schedule gives B of 8.6
    return round


def _log_round(round: Round, by: User | None, tables: list[tuple[int, str, list[str]]]) -> None:
    """The audit entry of a round made: each table's number, judge and players."""
    round.tournament.log_action(
        "round.created",
        by=by,
        target=str(round),
        after={
            "stage": round.stage,
            "number": round.number,
            "tables": [
                {"number": number, "judge": judge, "players": players}
                for number, judge, players in tables
            ],
        },
    )


@transaction.atomic
def table_add(*, round: Round, plan: TablePlan, by: User | None) -> Table:
    """Add one table to an existing round."""
    ensure_can(by, round.tournament, "manage_rounds")
    tournament = round.tournament
    others = Table.objects.filter(round=round)
    if others.filter(number=plan.number).exists():
        raise ValidationError(_("Table %(n)s already exists in this round.") % {"n": plan.number})
    existing = [
        TablePlan(number=t.number, judge=None, players=tuple(s.player for s in t.seats.all()))
        for t in others.prefetch_related("seats__registration")
    ]
    seats = _check_plans(tournament, [*existing, plan])[plan.number]
    _check_advanced(tournament, round.stage, {plan.number: seats})
    table = _create_table(round=round, plan=plan, seats=seats, by=by)
    tournament.log_action(
        "table.created",
        by=by,
        target=str(table),
        after={
            "stage": round.stage,
            "round": round.number,
            "number": plan.number,
            "judge": _nick(plan.judge),
            "players": [r.nickname for r in seats],
        },
    )
    tournament.standings_changed()  # the schedule gives B of 8.6
    notices.table_added(table)
    return table


@transaction.atomic
def rounds_from_games(*, tournament: Tournament, by: User | None) -> list[Round]:
    """The rounds and tables of games stored without them (a tournament file's): each
    game with a round gets the table its protocol names (its place in the round when it
    names none), seated as the protocol, so the tournament has the rows a tournament run
    on its pages has. A game that replays another at the same table keeps none."""
    ensure_can(by, tournament, "manage_rounds", console=True)
    games = (
        Game.objects.filter(tournament=tournament, table_slot=None, round__isnull=False)
        .prefetch_related("seats")
        .order_by("position")
    )
    groups: dict[tuple[str, int | None], list[Game]] = {}
    for game in games:
        groups.setdefault((game.stage, game.round), []).append(game)
    created: list[Round] = []
    for (stage, number), group in groups.items():
        round, new = Round.objects.get_or_create(
            tournament=tournament, stage=stage, number=number, defaults={"created_by": by}
        )
        taken = set(round.tables.values_list("number", flat=True))
        for index, game in enumerate(group, start=1):
            table_number = game.table or index
            if table_number in taken:
                continue
            taken.add(table_number)
            table = Table.objects.create(round=round, number=table_number, judge=None)
            TableSeat.objects.bulk_create(
                TableSeat(table=table, number=seat.number, registration_id=seat.registration_id)
                for seat in game.seats.all()
                if seat.registration_id is not None
            )
            game.table_slot = table
            game.save(update_fields=["table_slot"])
        if new:
            created.append(round)
            rows = round.tables.select_related("game").prefetch_related("seats__registration")
            _log_round(
                round,
                by,
                [(t.number, t.game.judge, [s.player for s in t.seats.all()]) for t in rows],
            )
    return created


@transaction.atomic
def table_judge_set(*, table: Table, judge: User | None, by: User | None) -> Table:
    """Give a table of a published round another judge (or none): the table, its game
    and its protocol (a new version, unless confirmed) name him; the new judge hears of
    the table and the judge it was taken from hears it is no longer his. A confirmed
    protocol keeps the judge on its record: refused."""
    tournament = table.round.tournament
    ensure_can(by, tournament, "manage_rounds")
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "judge")
        .get(pk=table.pk)
    )
    game = Game.objects.locked(Game.objects.get(table_slot=table))
    if (
        judge is not None
        and not StaffMember.objects.filter(tournament=tournament, user=judge).exists()
    ):
        raise ValidationError(
            {"judge": _("%(judge)s is not a judge of this tournament.") % {"judge": _nick(judge)}}
        )
    seats = [(s.number, s.registration) for s in table.seats.select_related("registration")]
    where = _("Table %(n)s of round %(round)s") % {"n": table.number, "round": table.round.number}
    if refusal := judge_seat_refusal(where=where, judge=judge, seats=seats):
        raise ValidationError({"judge": refusal})
    if game.status == GameStatus.CONFIRMED:
        raise ValidationError(
            {
                "judge": _(
                    "The protocol of %(game)s is confirmed: the judge who signed it stays "
                    "on the record."
                )
                % {"game": game.label}
            }
        )
    before = table.judge
    if (before.pk if before else None) == (judge.pk if judge else None):
        return table  # a second organiser who chose the same judge: nothing to record
    table.judge = judge
    table.save(update_fields=["judge"])
    data = conversion.game_data(game)
    if judge is not None:
        data["judge"] = _nick(judge)
    else:
        data.pop("judge", None)
    game.judge = _nick(judge)
    _new_version(game, data, status=game.status, action="judge", by=by, reason="")
    game.save()
    tournament.log_action(
        "table.judge_changed",
        by=by,
        target=game.label,
        before={"judge": _nick(before)},
        after={"judge": _nick(judge)},
    )
    notices.table_judge_changed(table, before)
    return table
