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
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.names import nickname_key
from mafiatab.games import conversion
from mafiatab.games.models import (
    STAGE_CHOICES,
    Game,
    GameStatus,
    Protest,
    ProtestStatus,
    ProtocolVersion,
    Round,
    Table,
    TableSeat,
)
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


def _check_plans(
    tournament: Tournament, tables: Sequence[TablePlan]
) -> dict[int, list[Registration]]:
    """Each table's ten participants (by table number), resolved from the nicknames in
    any case; ValidationError naming every seat that cannot be filled."""
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
    ensure_can(by, tournament, "manage_rounds")
    if stage not in STAGES:
        raise ValidationError({"stage": _("Unknown stage %(stage)s.") % {"stage": stage}})
    if number < 1:
        raise ValidationError({"number": _("The round number must be 1 or more.")})
    if Round.objects.filter(tournament=tournament, stage=stage, number=number).exists():
        raise ValidationError({"number": _("This round already exists.")})
    seats = _check_plans(tournament, tables)
    round = Round.objects.create(tournament=tournament, stage=stage, number=number, created_by=by)
    for plan in sorted(tables, key=lambda p: p.number):
        _create_table(round=round, plan=plan, seats=seats[plan.number], by=by)
    tournament.log_action(
        "round.created",
        by=by,
        target=str(round),
        after={
            "stage": stage,
            "number": number,
            "tables": [
                {
                    "number": p.number,
                    "judge": _nick(p.judge),
                    "players": [r.nickname for r in seats[p.number]],
                }
                for p in tables
            ],
        },
    )
    _standings_changed(tournament)  # the schedule gives B of 8.6
    return round


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
    table = _create_table(round=round, plan=plan, seats=seats, by=by)
    tournament.log_action(
        "table.created",
        by=by,
        target=str(table),
        after={
            "number": plan.number,
            "judge": _nick(plan.judge),
            "players": [r.nickname for r in seats],
        },
    )
    _standings_changed(tournament)  # the schedule gives B of 8.6
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
        conversion.write_game_data(game, data, holders=seat_holders(game.tournament_id))
    except conversion.UnstorablePoints as exc:
        raise ValidationError(str(exc)) from exc
    return version


# --- protocols ---------------------------------------------------------------------

#: 8.9.1: a protest is written within this many minutes after the game.


class ProtocolChanged(Exception):
    """Someone saved the protocol after the version the writer started from."""

    def __init__(self, game: Game, base_version: int) -> None:
        self.game = game
        self.base_version = base_version
        self.current_version = game.version
        super().__init__(
            _(
                "The protocol was changed by someone else (version %(current)d, you started "
                "from version %(base)d). Your entries were not saved over it: reload the "
                "protocol and enter them again."
            )
            % {"current": game.version, "base": base_version}
        )


class ProtocolInvalid(ValidationError):
    """The protocol breaks rules of the regulation; `problems` lists them all."""

    def __init__(self, problems: list[Any]) -> None:
        self.problems = problems
        super().__init__([str(p) for p in problems])


def _standings_changed(tournament: Tournament) -> None:
    """Tell the standings that their inputs changed (a protocol confirmed or changed
    after confirmation, a protest decision, a replay)."""
    from mafiatab.standings import services as standings

    notify = getattr(standings, "standings_changed", None)
    if notify is not None:
        notify(tournament=tournament)


def _locked(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("tournament", "table_slot")
        .get(pk=game.pk)
    )


def _require(by: User | None, game: Game, action: str) -> None:
    from mafiatab.tournaments.permissions import user_can

    if not user_can(by, game.tournament, action, game=game):
        raise PermissionDenied(action)


def _approvals(data: dict[str, Any]) -> set[tuple[Any, Fraction]]:
    return {
        (extra.get("seat"), Fraction(str(extra.get("points"))))
        for extra in data.get("judge_extra") or []
        if extra.get("chief_approved")
    }


def _check_approvals(game: Game, data: dict[str, Any], by: User | None) -> None:
    """Only the chief judge approves extra points (8.4.3): anyone else may keep the
    approvals the protocol already has, never add one (whatever the door: form, API)."""
    from mafiatab.tournaments.permissions import user_can

    if user_can(by, game.tournament, "confirm_protocol", game=game):
        return
    try:
        added = _approvals(data) - _approvals(conversion.game_data(game))
    except (ValueError, ZeroDivisionError):
        return  # unreadable points: the core's validation names them
    if added:
        raise ValidationError(
            {"judge_extra": _("Only the chief judge approves extra points (8.4.3).")}
        )


def _check_base(game: Game, base_version: int | None) -> None:
    if base_version is not None and base_version != game.version:
        raise ProtocolChanged(game, base_version)


def _seated(game: Game, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every seat's nickname in its participant's spelling; ProtocolInvalid
    naming each seat held by somebody who is no participant of the tournament."""
    from mafiatab.games.selectors import seat_participants

    seated, problems = seat_participants(
        game.tournament_id, data, stored=conversion.game_data(game)
    )
    if problems:
        raise ProtocolInvalid(problems)
    return seated


def _require_base(base_version: int | None) -> None:
    """A change of the protocol names the version it starts from."""
    if base_version is None:
        raise ValidationError(
            {
                "base_version": _(
                    "Name the version of the protocol the change starts from "
                    "(base_version), so that nobody's entries are overwritten."
                )
            }
        )


def _valid(game: Game, data: dict[str, Any]) -> None:
    from mafiatab.games.selectors import check_protocol

    check = check_protocol(data, ruleset=game.tournament.ruleset)
    if not check.is_valid:
        raise ProtocolInvalid(check.problems)


def _check_lengths(data: dict[str, Any]) -> None:
    """A draft is saved without the core's validation: its texts must still fit the
    columns that hold them (the date and the judge's name)."""
    errors = {}
    for key in ("date", "judge"):
        limit = Game._meta.get_field(key).max_length or 0
        value = data.get(key)
        if isinstance(value, str) and len(value) > limit:
            errors[key] = _("At most %(n)d characters.") % {"n": limit}
    if errors:
        raise ValidationError(errors)


def _fixed_keys(game: Game, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the header keys that belong to the game, not to the form."""
    fixed = dict(data)
    fixed["id"] = game.label
    fixed["stage"] = game.stage
    for key in ("round", "table"):
        value = getattr(game, key)
        if value is None:
            fixed.pop(key, None)
        else:
            fixed[key] = value
    fixed["replayed"] = game.replayed
    if not game.replayed:
        fixed.pop("replayed")
    return fixed


@transaction.atomic
def protocol_save(
    *,
    game: Game,
    data: dict[str, Any],
    by: User,
    base_version: int,
    submit: bool = False,
    reason: str = "",
    now: dt.datetime | None = None,
) -> ProtocolVersion:
    """Save the protocol as a new version.

    A draft may be saved incomplete; submitting (the table judge's signature, 9.11)
    needs a protocol without problems. A submitted protocol stays submitted when
    saved again (it must stay valid); a confirmed one can only be changed by the
    chief judge, stays confirmed and the standings follow.
    """
    game = _locked(game)
    _require(by, game, "enter_protocol")
    _require_base(base_version)
    _check_base(game, base_version)
    data = _seated(game, _fixed_keys(game, data))
    _check_lengths(data)
    _check_approvals(game, data, by)
    now = now or timezone.now()
    status = game.status
    if submit or status != GameStatus.DRAFT:
        _valid(game, data)
    if status == GameStatus.CONFIRMED:
        if not reason.strip():
            raise ValidationError({"reason": _("Say why the confirmed protocol is changed.")})
        action = "changed"
    elif submit or status == GameStatus.SUBMITTED:
        action, status = "submitted", GameStatus.SUBMITTED
        if game.submitted_at is None:
            game.submitted_at = now
    else:
        action = "saved"
    version = _new_version(game, data, status=status, action=action, by=by, reason=reason, now=now)
    game.tournament.log_action(
        f"game.protocol.{action}",
        by=by,
        target=game.label,
        after={"version": version.number, "reason": reason}
        if reason
        else {"version": version.number},
    )
    if status != GameStatus.DRAFT:  # provisional standings count submitted protocols
        _standings_changed(game.tournament)
    return version


@transaction.atomic
def protocol_confirm(
    *, game: Game, by: User, base_version: int | None = None, now: dt.datetime | None = None
) -> ProtocolVersion:
    """The chief judge confirms a submitted protocol: from now on it counts."""
    game = _locked(game)
    _require(by, game, "confirm_protocol")
    _check_base(game, base_version)
    if game.status != GameStatus.SUBMITTED:
        raise ValidationError(_("Only a submitted protocol can be confirmed."))
    data = conversion.game_data(game)
    _valid(game, data)
    now = now or timezone.now()
    game.confirmed_at = now
    game.confirmed_by = by
    version = _new_version(
        game, data, status=GameStatus.CONFIRMED, action="confirmed", by=by, reason="", now=now
    )
    game.tournament.log_action(
        "game.protocol.confirmed", by=by, target=game.label, after={"version": version.number}
    )
    _standings_changed(game.tournament)
    return version


@transaction.atomic
def protocol_return(*, game: Game, by: User, reason: str) -> ProtocolVersion:
    """The chief judge sends a submitted protocol back to its table judge (a draft again)."""
    game = _locked(game)
    _require(by, game, "confirm_protocol")
    if game.status != GameStatus.SUBMITTED:
        raise ValidationError(_("Only a submitted protocol can be returned."))
    if not reason.strip():
        raise ValidationError({"reason": _("Say what the table judge should fix.")})
    version = _new_version(
        game,
        conversion.game_data(game),
        status=GameStatus.DRAFT,
        action="returned",
        by=by,
        reason=reason.strip(),
    )
    game.tournament.log_action(
        "game.protocol.returned", by=by, target=game.label, after={"reason": reason.strip()}
    )
    _standings_changed(game.tournament)
    return version


@transaction.atomic
def game_mark_replayed(
    *, game: Game, by: User, replay: Game | None, reason: str, now: dt.datetime | None = None
) -> ProtocolVersion:
    """The chief judge annuls a game that is replayed (online addendum): it counts for
    nothing but its removal penalties (the core's `replayed`); `replay` is the new game."""
    game = _locked(game)
    _require(by, game, "confirm_protocol")
    if game.replayed:
        raise ValidationError(_("The game is already marked replayed."))
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the game is replayed.")})
    if replay is not None and (replay.pk == game.pk or replay.tournament_id != game.tournament_id):
        raise ValidationError({"replay": _("The replay must be another game of the tournament.")})
    game.replayed = True
    game.replay = replay
    data = conversion.game_data(game) | {"replayed": True}
    version = _new_version(
        game, data, status=game.status, action="replayed", by=by, reason=reason.strip(), now=now
    )
    game.tournament.log_action(
        "game.replayed",
        by=by,
        target=game.label,
        after={"replay": replay.label if replay else None, "reason": reason.strip()},
    )
    _standings_changed(game.tournament)
    return version


# --- protests (8.9) -------------------------------------------------------------------


@transaction.atomic
def protest_file(*, game: Game, by: User, text: str, now: dt.datetime | None = None) -> Protest:
    """A player of the game protests its result, within the regulation's window after the protocol's
    submission (8.9.1)."""
    game = _locked(game)
    now = now or timezone.now()
    seat = game.seat_of_user(by)
    from mafiatab.tournaments.permissions import user_can

    if seat is None or not user_can(by, game.tournament, "file_protest", game=game):
        raise PermissionDenied("file_protest")
    if not text.strip():
        raise ValidationError({"text": _("Write what the protest is about.")})
    if game.submitted_at is None:
        raise ValidationError(_("The protocol has not been submitted yet."))
    minutes = game.tournament.regulation.protest_window_minutes
    window = dt.timedelta(minutes=minutes)
    if now > game.submitted_at + window:
        raise ValidationError(
            _(
                "A protest is written within %(minutes)d minutes after the game (8.9.1); "
                "it is too late."
            )
            % {"minutes": minutes}
        )
    if Protest.objects.filter(game=game, filed_by=by).exists():
        raise ValidationError(_("You have already protested this game."))
    protest = Protest.objects.create(
        game=game, filed_by=by, seat=seat, text=text.strip(), filed_at=now
    )
    game.tournament.log_action(
        "game.protest.filed", by=by, target=game.label, after={"seat": seat, "text": text.strip()}
    )
    return protest


@transaction.atomic
def protest_decide(
    *,
    protest: Protest,
    by: User,
    upheld: bool,
    decision: str,
    by_committee: bool = False,
    data: dict[str, Any] | None = None,
    base_version: int | None = None,
    now: dt.datetime | None = None,
) -> Protest:
    """The chief judge (or the appeal committee) decides a protest, with reasons; final
    within the tournament (8.9.4). With `data` the decision changes the protocol: a new
    version, and the standings follow."""
    protest = Protest.objects.select_for_update().get(pk=protest.pk)
    game = _locked(protest.game)
    _require(by, game, "decide_protest")
    if not protest.is_open:
        raise ValidationError(_("The protest has been decided; the decision is final (8.9.4)."))
    if not decision.strip():
        raise ValidationError({"decision": _("Give the reasons of the decision.")})
    now = now or timezone.now()
    if data is not None:
        _require_base(base_version)
        _check_base(game, base_version)
        data = _seated(game, _fixed_keys(game, data))
        _check_lengths(data)
        _check_approvals(game, data, by)
        _valid(game, data)
        protest.version = _new_version(
            game,
            data,
            status=game.status,
            action="protest",
            by=by,
            reason=decision.strip(),
            now=now,
        )
    protest.status = ProtestStatus.UPHELD if upheld else ProtestStatus.REJECTED
    protest.decision = decision.strip()
    protest.by_committee = by_committee
    protest.decided_by = by
    protest.decided_at = now
    protest.save()
    game.tournament.log_action(
        "game.protest.decided",
        by=by,
        target=game.label,
        after={
            "upheld": upheld,
            "decision": protest.decision,
            "version": protest.version.number if protest.version else None,
        },
    )
    if protest.version is not None:
        _standings_changed(game.tournament)
    return protest


# --- replacements --------------------------------------------------------------------


def _is_untouched(game: Game) -> bool:
    """A protocol nobody has written in yet (only its first, created version)."""
    return game.status == GameStatus.DRAFT and game.version <= 1


@transaction.atomic
def seat_replace(
    *,
    tournament: Tournament,
    stage: str,
    round_number: int,
    absent: Registration,
    reserve: Registration,
    by: User | None,
) -> Game | None:
    """The reserve takes the absent participant's seat in the round's table and, unless it
    is confirmed, in its protocol (a new version). None when the absent participant has
    no seat in that round (the round is not made yet, or he sits out)."""
    ensure_can(by, tournament, "replace_player")
    seat = (
        TableSeat.objects.select_for_update()
        .filter(
            table__round__tournament=tournament,
            table__round__stage=stage,
            table__round__number=round_number,
            registration=absent,
        )
        .select_related("table")
        .first()
    )
    if seat is None:
        return None
    seat.registration = reserve
    seat.save(update_fields=["registration"])
    game = _locked(Game.objects.get(table_slot=seat.table))
    changed_protocol = not game.is_confirmed
    if changed_protocol:
        data = conversion.game_data(game)
        seats = [dict(s) for s in data.get("seats") or []]
        if len(seats) >= seat.number:
            seats[seat.number - 1]["player"] = reserve.nickname
        _new_version(
            game,
            data | {"seats": seats},
            status=game.status,
            action="replaced",
            by=by,
            reason=f"{reserve.nickname} replaces {absent.nickname}",
        )
        if game.status != GameStatus.DRAFT:
            _standings_changed(tournament)
    tournament.log_action(
        "game.seat.replaced",
        by=by,
        target=game.label,
        after={
            "seat": seat.number,
            "absent": absent.nickname,
            "reserve": reserve.nickname,
            "protocol_changed": changed_protocol,
        },
    )
    return game


@transaction.atomic
def reseat_table(*, table: Table, players: Sequence[str], by: User | None) -> Table:
    """Seat other participants at a table of a round not begun (a new seating after a
    replacement): its seats and its untouched protocol (a new version) follow."""
    ensure_can(by, table.round.tournament, "publish_seating", "manage_rounds")
    tournament = table.round.tournament
    game = _locked(Game.objects.get(table_slot=table))
    if not _is_untouched(game):
        raise ValidationError(
            _("%(game)s has a protocol already; its table cannot be seated again.")
            % {"game": game.label}
        )
    plan = TablePlan(number=table.number, judge=None, players=tuple(players))
    # the other tables of the round are seated again in the same call: checked alone
    seats = _check_plans(tournament, [plan])[table.number]
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, number=n, registration=holder)
        for n, holder in enumerate(seats, start=1)
    )
    data = conversion.game_data(game) | {
        "seats": [{"player": holder.nickname, "role": None, "fouls": 0} for holder in seats]
    }
    _new_version(game, data, status=GameStatus.DRAFT, action="reseated", by=by, reason="")
    return table
