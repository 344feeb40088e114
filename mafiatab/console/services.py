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

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.console import engine, selectors
from mafiatab.console.models import EntryKind, GameLog, LogEntry
from mafiatab.games import services as games
from mafiatab.games.conversion import game_data, protocol_data
from mafiatab.games.models import Game, GameStatus, TableSeat
from mafiatab.tournaments.permissions import ensure_can

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


def _check_open(log: GameLog, after: int | None) -> None:
    if log.is_closed:
        raise LogConflict(_("The game is over and its protocol was made; the log is closed."))
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
    ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)
    resent = _resent(log, client_id, EntryKind.EVENT)
    if resent is not None:
        return resent
    _check_open(log, after)
    if len(json.dumps(event, ensure_ascii=False)) > MAX_EVENT_CHARS:
        raise ValidationError(
            _("The event is too long (at most %(n)d characters).") % {"n": MAX_EVENT_CHARS}
        )
    problems = engine.refusal(engine.replay(log.header, live_events(log)), event)
    if problems:
        raise EventRefused(problems)
    return Appended(
        entry=_add(log, by, client_id, kind=EntryKind.EVENT, event=event), duplicate=False
    )


@transaction.atomic
def event_undo(*, log: GameLog, client_id: uuid.UUID, after: int | None, by: User) -> Appended:
    """Take back the last event in force; it stays in the history, marked undone."""
    log = GameLog.objects.locked(log)
    ensure_can(by, log.game.tournament, "enter_protocol", game=log.game)
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
    version = games.protocol_save(game=game, data=data, by=by, base_version=game.version)
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
