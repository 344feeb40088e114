"""Writes to the console's game logs: start, append an event, undo, finish.

The shell stores and the engine decides: an event is appended only when the log in
force replays and the engine takes the event after it (`engine.refusal`: one step).
Every write runs in a transaction on the locked log, checks the one permission
(`enter_protocol` on the game: its table judge or the chief judge), and an entry's
id makes a resend harmless: the stored entry is answered again.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.console import engine, selectors
from mafiatab.console.models import EntryKind, GameLog, LogEntry, ReportStatus, ViolationReport
from mafiatab.games import services as games
from mafiatab.games.conversion import game_data, protocol_data
from mafiatab.games.log_check import LOG_REASON
from mafiatab.games.models import Game, GameStatus, Table, TableSeat
from mafiatab.games.selectors import is_confirmed_for_its_judge
from mafiatab.games.services.schedule import lateness_give
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.permissions import ensure_can, roles_of

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


#: The longest event (as JSON) a log takes: a removal's reason is the longest part.
MAX_EVENT_CHARS = 2000
#: The most entries a log holds, its events and their undos together: the engine's
#: bound on a log's events (every entry is kept, an undone event included).
MAX_ENTRIES = engine.MAX_EVENTS


class LogConflict(Exception):
    """The log moved on since the entry was made (someone else appended), or it is closed."""


class EventRefused(ValidationError):
    """The engine refused the event (or the roles); `problems` are its reasons,
    translated, each under the field it names (`event.reason`, `roles.black`)."""

    def __init__(self, problems: list[engine.Problem], *, event: bool = True) -> None:
        self.problems = problems
        fields: dict[str, list[str]] = {}
        for p in problems:
            # an event's field is inside the event; the header's (roles, seats) are its own
            name = f"event.{p.field}".rstrip(".") if event else p.field or "roles"
            fields.setdefault(name, []).append(p.message)
        super().__init__({name: messages for name, messages in fields.items()})


@dataclass(frozen=True)
class Appended:
    """The answer to an append or an undo: the entry, and whether it was a resend."""

    entry: LogEntry
    duplicate: bool


def table_settings_of(game: Game) -> str:
    """The engine's table settings for a game: those of the tournament's regulation,
    named by its code."""
    return game.tournament.regulation.code


def header_for(
    game: Game, roles: dict[str, Any], *, today: dt.date | None = None
) -> dict[str, Any]:
    """The log document's header for `game`: the published table's seated participants,
    its ruleset's table settings, and the roles the judge entered."""
    data = game_data(game)
    seated = TableSeat.objects.filter(table_id=game.table_slot_id).select_related("registration")
    header: dict[str, Any] = {
        "format": engine.FORMAT,
        "table": table_settings_of(game),
        "id": game.label,
        "stage": game.stage,
        "date": data.get("date") or (today or timezone.localdate()).isoformat(),
        "seats": [seat.player for seat in seated.order_by("number")],
        "roles": roles,
    }
    if game.round is not None:
        header["round"] = game.round
    if game.table is not None:
        header["table_number"] = game.table
    if game.judge:
        header["judge"] = game.judge
    return header


def live_events(log: GameLog) -> list[dict[str, Any]]:
    """The events in force, in order: the log that is replayed (`selectors.live`)."""
    return selectors.live(log)


@transaction.atomic
def log_start(*, game: Game, roles: dict[str, Any], by: User) -> GameLog:
    """Start the console log of a published table's game with the roles the judge dealt."""
    game = Game.objects.locked(game)
    ensure_can(by, game.tournament, "enter_protocol", game=game)
    if game.table_slot_id is None:
        raise ValidationError(_("Only the game of a published table is run on the console."))
    if game.status != GameStatus.DRAFT:
        raise ValidationError(_("The protocol of this game is already submitted."))
    if GameLog.objects.filter(game=game).exists():
        raise ValidationError(_("The game has already started on the console."))
    if len(json.dumps(roles)) > MAX_EVENT_CHARS:
        raise ValidationError(_("The roles cannot be read."))
    header = header_for(game, roles)
    problems = engine.replay(header, []).problems
    if problems:
        raise EventRefused(problems, event=False)
    log = GameLog.objects.create(game=game, header=header, started_by=by)
    # The roles are a secret of the table's judges until the end: the audit entry,
    # which the organisers read, does not hold them (the log's header does).
    game.tournament.log_action(
        "game.console.started", by=by, target=game.label, after={"table": header["table"]}
    )
    return log


def _resent(log: GameLog, client_id: uuid.UUID, kind: str) -> Appended | None:
    stored = LogEntry.objects.filter(client_id=client_id).first()
    if stored is None:
        return None
    if stored.log_id != log.pk or stored.kind != kind:
        raise LogConflict(_("The entry id %(id)s is already used.") % {"id": client_id})
    return Appended(entry=stored, duplicate=True)


def _ensure_writer(log: GameLog, by: Any) -> None:
    """The one permission of an entry (`enter_protocol` on the game); the table's own
    judge of a confirmed protocol passes too, to be told in words (`_check_open`) that
    the console takes no more events, not refused as a stranger."""
    if not is_confirmed_for_its_judge(by, log.game):
        ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)


def _check_open(log: GameLog, after: int | None) -> None:
    if log.is_closed:
        raise LogConflict(_("The game is over and its protocol was made; the log is closed."))
    if log.game.status != GameStatus.DRAFT:  # signed meanwhile (or stored so before)
        raise LogConflict(selectors.signed_notice())
    if log.last_number >= MAX_ENTRIES:
        raise ValidationError(
            _("The log is full: it holds at most %(n)d entries, its undos included.")
            % {"n": MAX_ENTRIES}
        )
    if after is not None and after != log.last_number:
        raise LogConflict(
            _(
                "The log has %(current)d entries, not %(after)d: someone else changed it. "
                "Reload the console."
            )
            % {"current": log.last_number, "after": after}
        )


def _add(log: GameLog, by: Any, client_id: uuid.UUID, **fields: Any) -> LogEntry:
    log.last_number += 1
    log.save(update_fields=["last_number"])
    return LogEntry.objects.create(
        log=log, number=log.last_number, client_id=client_id, created_by=by, **fields
    )


@transaction.atomic
def event_append(
    *, log: GameLog, event: dict[str, Any], client_id: uuid.UUID, after: int | None, by: User
) -> Appended:
    """Append `event` when the engine accepts the log with it.

    A resend of a stored entry id answers that entry again (`duplicate`); `after`, the
    number of the last entry the writer knew, guards against a concurrent append.
    """
    log = GameLog.objects.locked(log)
    _ensure_writer(log, by)
    resent = _resent(log, client_id, EntryKind.EVENT)
    if resent is not None:
        return resent
    _check_open(log, after)
    if len(json.dumps(event, ensure_ascii=False)) > MAX_EVENT_CHARS:
        raise ValidationError(
            _("The event is too long (at most %(n)d characters).") % {"n": MAX_EVENT_CHARS}
        )
    # a problem of the log names its event by the number the judge's history shows
    replayed = engine.replay(log.header, live_events(log), selectors.live_numbers(log))
    problems = engine.refusal(replayed, event)
    if problems:
        raise EventRefused(problems)
    return Appended(
        entry=_add(log, by, client_id, kind=EntryKind.EVENT, event=event), duplicate=False
    )


@transaction.atomic
def event_undo(*, log: GameLog, client_id: uuid.UUID, after: int | None, by: User) -> Appended:
    """Take back the last event in force; it stays in the history, marked undone."""
    log = GameLog.objects.locked(log)
    _ensure_writer(log, by)
    resent = _resent(log, client_id, EntryKind.UNDO)
    if resent is not None:
        return resent
    _check_open(log, after)
    last = (
        log.entries.filter(kind=EntryKind.EVENT, undone_by__isnull=True).order_by("-number").first()
    )
    if last is None:
        raise ValidationError(_("There is no event to undo."))
    return Appended(
        entry=_add(log, by, client_id, kind=EntryKind.UNDO, undoes=last), duplicate=False
    )


@transaction.atomic
def place_save(*, log: GameLog, place: dict[str, Any], by: User) -> GameLog:
    """Keep where the judge stands (the day, the speech, the timer) beside the log, so
    that another device of the table's judges continues at the same speech. The place
    is no event of the rules: the last save wins, one at a time on the locked log."""
    log = GameLog.objects.locked(log)
    ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)
    if log.is_closed:
        raise LogConflict(_("The game is over and its protocol was made; the log is closed."))
    before = log.place
    log.place = place
    log.place_revision += 1
    log.place_at = timezone.now()
    log.save(update_fields=["place", "place_revision", "place_at"])
    log.game.tournament.log_action(
        "game.console.place", by=by, target=log.game.label, before=before, after=place
    )
    return log


@transaction.atomic
def log_finish(*, log: GameLog, by: User) -> GameLog:
    """Close a finished game's log and save its protocol as the game's draft, which the
    judge completes (extra points, penalties) and signs in the protocol form."""
    log = GameLog.objects.locked(log)
    game = log.game
    ensure_can(by, game.tournament, "enter_protocol", game=game)
    if log.is_closed:
        raise ValidationError(_("The protocol of this game was already made."))
    if game.status != GameStatus.DRAFT:
        raise ValidationError(_("The protocol of this game is already submitted."))
    replayed = engine.replay(log.header, live_events(log))
    if replayed.problems or replayed.state is None or not engine.is_finished(replayed.state):
        raise ValidationError(_("The game is not over yet."))
    played = engine.protocol_of(replayed.state)
    stored = game_data(game)
    # the date and the judge typed in the form before the game stay when the log has none
    kept = {k: stored[k] for k in ("date", "judge") if stored.get(k) and not played.get(k)}
    data = protocol_data(played | kept)
    version = games.protocol_save(
        game=game,
        data=data,
        by=by,
        base_version=game.version,
        reason_code=LOG_REASON,
        reason_params={"first_night": engine.seats_at_first_night(replayed.state)},
    )
    log.finished_at = timezone.now()
    log.finished_by = by
    log.save(update_fields=["finished_at", "finished_by"])
    game.tournament.log_action(
        "game.console.finished",
        by=by,
        target=game.label,
        after={"winner": data.get("winner"), "events": log.last_number, "version": version.number},
    )
    return log


# --- The online table: the side judge (addendum 2.6) and the lobby's ready check ---

#: The longest reason of a side judge's report.
MAX_REPORT_REASON = 300


def _require_online(game: Game) -> None:
    if not game.tournament.is_online:
        raise ValidationError(
            _("Only an online table has a side judge and a ready check (online addendum).")
        )


@transaction.atomic
def side_judge_set(*, table: Table, judge: User | None, by: User) -> Table:
    """Name the side judge of a published table of an online tournament (addendum 2.6):
    one of the tournament's table judges, not the table's own judge."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    ensure_can(by, tournament, "publish_seating")
    if not tournament.is_online:
        raise ValidationError(
            {"judge": _("Only an online table has a side judge (online addendum 2.6).")}
        )
    if judge is not None:
        if StaffRole.TABLE_JUDGE.value not in roles_of(judge, tournament):
            raise ValidationError({"judge": _("The side judge must be a judge of the tournament.")})
        if judge.pk == table.judge_id:
            raise ValidationError(
                {"judge": _("The table's own judge cannot be its side judge too.")}
            )
    before = table.side_judge.nickname if table.side_judge else None
    table.side_judge = judge
    table.save(update_fields=["side_judge"])
    tournament.log_action(
        "table.side_judge",
        by=by,
        target=str(table),
        before={"side_judge": before},
        after={"side_judge": judge.nickname if judge else None},
    )
    return table


def is_side_judge(user: Any, game: Game) -> bool:
    """True when `user` is the side judge of `game`'s table (still a judge of the
    tournament) and the protocol is not confirmed."""
    if user is None or not user.is_authenticated or game.table_slot_id is None:
        return False
    side = Table.objects.filter(pk=game.table_slot_id).values_list("side_judge", flat=True).first()
    if side is None or side != user.pk or game.is_confirmed:
        return False
    return StaffRole.TABLE_JUDGE.value in roles_of(user, game.tournament)


def removal_fine(game: Game) -> Any:
    """The fine of a removal for a violation of the online addendum (4.1), as the
    tournament's regulation says it (None where there is none)."""
    regulation = game.tournament.regulation
    return regulation.removal_points(online=True, fined=True) if regulation.online else None


@transaction.atomic
def violation_report(*, log: GameLog, seat: int, reason: str, by: User) -> ViolationReport:
    """The side judge reports a seat's violation of the online addendum (4.1): a proposed
    removal the table judge accepts or dismisses."""
    log = GameLog.objects.locked(log)
    game = log.game
    if not is_side_judge(by, game):
        raise PermissionDenied("report_violation")
    _require_online(game)
    if log.is_closed:
        raise LogConflict(_("The game is over and its protocol was made; the log is closed."))
    reason = reason.strip()
    errors: dict[str, str] = {}
    if not 1 <= seat <= 10:
        errors["seat"] = _("The seat is a number from 1 to 10.")
    if not reason:
        errors["reason"] = _("Give the reason: what the player did.")
    elif len(reason) > MAX_REPORT_REASON:
        errors["reason"] = _("The reason is at most %(n)d characters.") % {"n": MAX_REPORT_REASON}
    if errors:
        raise ValidationError(errors)
    replayed = engine.replay(log.header, live_events(log))
    if replayed.state is not None and seat not in replayed.state.alive:
        raise ValidationError(
            {"seat": _("Seat %(seat)d is no longer in the game.") % {"seat": seat}}
        )
    if log.reports.filter(seat=seat, status=ReportStatus.PENDING).exists():
        raise LogConflict(
            _("A report on seat %(seat)d awaits the table judge already.") % {"seat": seat}
        )
    report = ViolationReport.objects.create(log=log, seat=seat, reason=reason, reported_by=by)
    game.tournament.log_action(
        "game.console.violation_reported",
        by=by,
        target=game.label,
        after={"seat": seat, "reason": reason, "report": report.pk},
    )
    return report


@transaction.atomic
def violation_decide(
    *,
    report: ViolationReport,
    accept: bool,
    client_id: uuid.UUID,
    after: int | None,
    by: User,
) -> ViolationReport:
    """The table judge (or the chief judge) accepts a side judge's report, which removes
    the seat through the log with the online addendum's fine, or dismisses it."""
    log = GameLog.objects.locked(report.log)
    ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)
    report = ViolationReport.objects.select_for_update().get(pk=report.pk)
    if not report.is_pending:
        raise LogConflict(_("This report was already decided."))
    if accept:
        event = {
            "type": "remove",
            "seat": report.seat,
            "reason": _("Online addendum 4.1: %(reason)s") % {"reason": report.reason},
            "online": True,
            "fined": True,
        }
        appended = event_append(log=log, event=event, client_id=client_id, after=after, by=by)
        report.entry = appended.entry
    report.status = ReportStatus.ACCEPTED if accept else ReportStatus.DISMISSED
    report.decided_at = timezone.now()
    report.decided_by = by
    report.save(update_fields=["status", "decided_at", "decided_by", "entry"])
    log.game.tournament.log_action(
        "game.console.violation_accepted" if accept else "game.console.violation_dismissed",
        by=by,
        target=log.game.label,
        after={"seat": report.seat, "report": report.pk},
    )
    return report


def _ready_check_of(log: GameLog, seat: int, by: User) -> GameLog:
    """The log, locked, once `by` may mark `seat` in its ready check now: the table's
    judges of an online table, before the first speech, a seat from 1 to 10."""
    log = GameLog.objects.locked(log)
    ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)
    _require_online(log.game)
    if log.is_closed or log.last_number > 0 or int(log.place.get("speech") or 0) > 0:
        raise LogConflict(_("The game has begun: the ready check is done before the first speech."))
    if not 1 <= seat <= 10:
        raise ValidationError({"seat": _("The seat is a number from 1 to 10.")})
    return log


@transaction.atomic
def ready_save(*, log: GameLog, seat: int, checks: dict[str, bool], by: User) -> GameLog:
    """The judge ticks what he checked of a seat before the first speech (lobby rules,
    5): its microphone, connection and camera, then the player's confirmation."""
    log = _ready_check_of(log, seat, by)
    unknown = sorted(set(checks) - set(log.game.tournament.regulation.ready_checks))
    if unknown:
        raise ValidationError({unknown[0]: _("Unknown check: %(name)s.") % {"name": unknown[0]}})
    before = dict(log.ready)
    row = dict(before.get(str(seat), {}))
    row.update({name: bool(value) for name, value in checks.items()})
    log.ready = before | {str(seat): row}
    log.ready_revision += 1
    log.save(update_fields=["ready", "ready_revision"])
    log.game.tournament.log_action(
        "game.console.ready", by=by, target=log.game.label, after={"seat": seat, **row}
    )
    return log


def is_ready(log: GameLog) -> bool:
    """Every seat passed every check and confirmed: the judge may begin the game (the
    regulation says it of the ten seats' marks)."""
    regulation = log.game.tournament.regulation
    return regulation.is_ready(log.ready.get(str(seat), {}) for seat in range(1, 11))


@transaction.atomic
def ready_fine(*, log: GameLog, seat: int, reason: str, by: User) -> GameLog:
    """A seat not ready without a good reason gets the lateness fine (lobby rules, 6):
    the minutes late are counted from the round's start until now."""
    log = _ready_check_of(log, seat, by)
    row = dict(log.ready.get(str(seat), {}))
    if row.get("fined"):
        raise LogConflict(_("Seat %(seat)d was already fined for lateness.") % {"seat": seat})
    table = Table.objects.select_related("round__tournament").get(pk=log.game.table_slot_id)
    player = log.header["seats"][seat - 1]
    penalty = lateness_give(
        round=table.round, player=player, arrived_at=timezone.now(), reason=reason, by=by
    )
    row["fined"] = penalty.pk
    log.ready = dict(log.ready) | {str(seat): row}
    log.ready_revision += 1
    log.save(update_fields=["ready", "ready_revision"])
    return log


def online_seats(game: Game) -> list[dict[str, Any]]:
    """The seats of an online table with each player's details of the addendum (2.2,
    2.5): his platform account and the links to his screen share and side camera."""
    seated = TableSeat.objects.filter(table_id=game.table_slot_id).select_related("registration")
    return [
        {
            "seat": s.number,
            "player": s.player,
            "platform_account": s.registration.platform_account,
            "screen_link": s.registration.screen_link,
            "camera_link": s.registration.camera_link,
        }
        for s in seated.order_by("number")
    ]


def ready_rows(log: GameLog) -> list[dict[str, Any]]:
    """The ready check seat by seat, for the console: each check and the fine given."""
    seats = log.header.get("seats", [])
    names = log.game.tournament.regulation.ready_checks
    rows = []
    for number, player in enumerate(seats, start=1):
        row = log.ready.get(str(number), {})
        checks = {name: bool(row.get(name)) for name in names}
        rows.append({"seat": number, "player": player, "fined": bool(row.get("fined")), **checks})
    return rows


def reports_of(log: GameLog) -> list[ViolationReport]:
    """The side judge's reports of a game, oldest first."""
    return list(log.reports.select_related("reported_by", "decided_by"))
