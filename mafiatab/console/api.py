"""The console's API (django-ninja Router): a game's log and state, appending events
and undoing the last one.

Reading is open to everyone (the spectator's view: no roles before the end); the
table's judge and the chief judge read everything. Writing is theirs only, with the
same permission as the pages (`user_can(..., "enter_protocol", game=game)`). An
entry's `id` makes a resend harmless: the stored entry is answered again (200
instead of 201). `after` is the number of the last entry the writer knew: when
the log moved on meanwhile, the write is refused with 409.

Beside the log, where the judge stands (the speech and the timer) is kept with
`PUT .../log/place` and read with the log: no event of the rules, the last save
wins, so that another device of the table's judges continues at the same speech.
The bodies and answers are the schemas of `mafiatab.console.schemas`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Path, Router
from ninja import Status as HttpStatus
from ninja.errors import HttpError

from mafiatab.accounts.models import User
from mafiatab.api.auth import caller
from mafiatab.api.errors import MAX_ID, NOT_FOUND, VERSIONED_WRITE, NotFound
from mafiatab.api.schemas import GameId, points
from mafiatab.console import selectors, services
from mafiatab.console.models import GameLog, ViolationReport
from mafiatab.console.schemas import (
    ConsoleDecisionIn,
    ConsoleEventIn,
    ConsoleFineIn,
    ConsoleLogOut,
    ConsolePlaceIn,
    ConsolePlaceOut,
    ConsoleReadyIn,
    ConsoleReadyOut,
    ConsoleReportIn,
    ConsoleReportOut,
    ConsoleStartIn,
    ConsoleUndoIn,
    SideJudgeIn,
    SideJudgeOut,
)
from mafiatab.games.models import Game, Table
from mafiatab.games.selectors import points_shown_to
from mafiatab.tournaments.api import tournament_or_404

router = Router(tags=["console"])

ReportId = Path(..., ge=1, le=MAX_ID, description="The report's id.")


def _game(slug: str, game_id: int) -> Game:
    tournament = tournament_or_404(slug)
    game = (
        Game.objects.filter(tournament=tournament, pk=game_id, table_slot__isnull=False)
        .select_related("tournament", "table_slot")
        .first()
    )
    if game is None:
        raise NotFound(_("There is no table game %(id)d in this tournament.") % {"id": game_id})
    return game


def _log(game: Game) -> GameLog:
    log = selectors.log_of(game)
    if log is None:
        raise NotFound(_("The game has not started on the console."))
    return log


def _write(write: Any) -> Any:
    try:
        return write()
    except services.LogConflict as exc:
        raise HttpError(409, str(exc)) from exc
    except PermissionDenied as exc:
        raise HttpError(
            403, _("Only the table's judge and the chief judge run this game.")
        ) from exc


def _answer(game: Game, appended: services.Appended | None = None) -> HttpStatus:
    """The answer to a write: the state and, for an entry, that entry alone (a log of
    thousands of entries is not sent back on each write)."""
    if appended is None:
        return HttpStatus(201, selectors.log_view(game, full=True, disclose=True))
    view = selectors.log_view(game, full=True, disclose=True, only=appended.entry.number)
    view.update(
        duplicate=appended.duplicate,
        partial=True,
        entry=view["entries"][0] if view["entries"] else None,
    )
    return HttpStatus(200 if appended.duplicate else 201, view)


@router.get(
    "/tournaments/{slug}/games/{game_id}/log",
    response={200: ConsoleLogOut, **NOT_FOUND},
    auth=None,
    summary="A game's console log and state",
)
def get_log(request: HttpRequest, slug: str, game_id: int = GameId):
    """The log and the state after it. Roles, shooters and checked seats only for the
    table's judge and the chief judge until the game ends; after it, for everyone
    unless the organiser withholds the game's points (hidden or frozen standings):
    the public is then told the winner only."""
    game = _game(slug, game_id)
    user = caller(request)
    return selectors.log_view(
        game, full=selectors.can_run(user, game), disclose=points_shown_to(user, game)
    )


@router.post(
    "/tournaments/{slug}/games/{game_id}/log",
    response={201: ConsoleLogOut, **VERSIONED_WRITE},
    summary="Start a game on the console",
)
def start_log(request: HttpRequest, slug: str, data: ConsoleStartIn, game_id: int = GameId):
    """Start the log with the roles dealt; the seats are the published table's."""
    game = _game(slug, game_id)
    _write(lambda: services.log_start(game=game, roles=data.roles, by=request.auth))
    return _answer(game)


@router.post(
    "/tournaments/{slug}/games/{game_id}/log/events",
    response={200: ConsoleLogOut, 201: ConsoleLogOut, **VERSIONED_WRITE},
    summary="Append an event",
)
def append_event(request: HttpRequest, slug: str, data: ConsoleEventIn, game_id: int = GameId):
    """Append one event when the engine accepts it (422 with its reasons otherwise)."""
    game = _game(slug, game_id)
    log = _log(game)
    appended = _write(
        lambda: services.event_append(
            log=log, event=data.event, client_id=data.id, after=data.after, by=request.auth
        )
    )
    return _answer(game, appended)


@router.post(
    "/tournaments/{slug}/games/{game_id}/log/undo",
    response={200: ConsoleLogOut, 201: ConsoleLogOut, **VERSIONED_WRITE},
    summary="Undo the last event",
)
def undo_event(request: HttpRequest, slug: str, data: ConsoleUndoIn, game_id: int = GameId):
    """Take back the last event in force; it stays in the log, marked undone."""
    game = _game(slug, game_id)
    log = _log(game)
    appended = _write(
        lambda: services.event_undo(log=log, client_id=data.id, after=data.after, by=request.auth)
    )
    return _answer(game, appended)


@router.put(
    "/tournaments/{slug}/games/{game_id}/log/place",
    response={200: ConsolePlaceOut, **VERSIONED_WRITE},
    summary="Keep the speaker and the timer",
)
def save_place(request: HttpRequest, slug: str, data: ConsolePlaceIn, game_id: int = GameId):
    """Keep where the judge stands (the speech of the day and the timer) beside the log,
    so that another device of the table's judges continues at the same speech. No event
    of the rules: the last save wins."""
    game = _game(slug, game_id)
    log = _log(game)
    saved = _write(lambda: services.place_save(log=log, place=data.model_dump(), by=request.auth))
    return selectors.place_view(saved)


# --- The online table: the side judge's reports (addendum 2.6, 4.1) and the ready check ---


def _report_out(report: ViolationReport, fine: Any) -> dict[str, Any]:
    return {
        "id": report.pk,
        "seat": report.seat,
        "reason": report.reason,
        "status": report.status,
        "reported_by": report.reported_by.nickname,
        "reported_at": report.reported_at.isoformat(),
        "decided_by": report.decided_by.nickname if report.decided_by else None,
        "decided_at": report.decided_at.isoformat() if report.decided_at else None,
        "entry": report.entry.number if report.entry else None,
        "fine": points(fine) if fine is not None else None,
    }


def _ready_out(log: GameLog) -> dict[str, Any]:
    return {
        "open": not log.is_closed and log.last_number == 0,
        "ready": services.is_ready(log),
        "revision": log.ready_revision,
        "seats": services.ready_rows(log),
    }


def _refused(message: str) -> HttpError:
    return HttpError(403, message)


@router.get(
    "/tournaments/{slug}/games/{game_id}/log/reports",
    response={200: list[ConsoleReportOut], **VERSIONED_WRITE},
    summary="The side judge's reports",
)
def list_reports(request: HttpRequest, slug: str, game_id: int = GameId):
    """The side judge's reports of the game: to the table's judges and the side judge."""
    game = _game(slug, game_id)
    log = _log(game)
    user = request.auth
    if not (selectors.can_run(user, game) or services.is_side_judge(user, game)):
        raise _refused(_("Only the table's judges read the side judge's reports."))
    fine = services.removal_fine(game)
    return [_report_out(r, fine) for r in services.reports_of(log)]


@router.post(
    "/tournaments/{slug}/games/{game_id}/log/reports",
    response={201: ConsoleReportOut, **VERSIONED_WRITE},
    summary="Report a violation of the online addendum",
)
def report_violation(request: HttpRequest, slug: str, data: ConsoleReportIn, game_id: int = GameId):
    """The side judge reports a seat's violation of the online addendum (4.1): a proposed
    removal with the addendum's fine, which the table judge accepts or dismisses."""
    game = _game(slug, game_id)
    log = _log(game)
    try:
        report = services.violation_report(
            log=log, seat=data.seat, reason=data.reason, by=request.auth
        )
    except services.LogConflict as exc:
        raise HttpError(409, str(exc)) from exc
    except PermissionDenied as exc:
        raise _refused(_("Only the side judge of this table reports a violation.")) from exc
    return HttpStatus(201, _report_out(report, services.removal_fine(game)))


@router.post(
    "/tournaments/{slug}/games/{game_id}/log/reports/{report_id}/decision",
    response={200: ConsoleReportOut, **VERSIONED_WRITE},
    summary="Accept or dismiss a side judge's report",
)
def decide_report(
    request: HttpRequest,
    slug: str,
    data: ConsoleDecisionIn,
    game_id: int = GameId,
    report_id: int = ReportId,
):
    """Accept (the removal with its fine goes into the log) or dismiss the report."""
    game = _game(slug, game_id)
    log = _log(game)
    report = ViolationReport.objects.filter(pk=report_id, log=log).first()
    if report is None:
        raise NotFound(_("There is no report %(id)d on this game.") % {"id": report_id})
    decided = _write(
        lambda: services.violation_decide(
            report=report,
            accept=data.decision == "accept",
            client_id=data.id,
            after=data.after,
            by=request.auth,
        )
    )
    return _report_out(decided, services.removal_fine(game))


@router.get(
    "/tournaments/{slug}/games/{game_id}/log/ready",
    response={200: ConsoleReadyOut, **VERSIONED_WRITE},
    summary="The ready check",
)
def get_ready(request: HttpRequest, slug: str, game_id: int = GameId):
    """The lobby's ready check, seat by seat (the table's judges)."""
    game = _game(slug, game_id)
    log = _log(game)
    if not selectors.can_run(request.auth, game):
        raise _refused(_("Only the table's judge and the chief judge run this game."))
    return _ready_out(log)


@router.put(
    "/tournaments/{slug}/games/{game_id}/log/ready",
    response={200: ConsoleReadyOut, **VERSIONED_WRITE},
    summary="Tick a seat of the ready check",
)
def save_ready(request: HttpRequest, slug: str, data: ConsoleReadyIn, game_id: int = GameId):
    """Tick what was checked of one seat before the first speech; the checks left out
    stay as they were."""
    game = _game(slug, game_id)
    log = _log(game)
    checks = {
        name: value
        for name in game.tournament.regulation.ready_checks
        if (value := getattr(data, name, None)) is not None
    }
    saved = _write(
        lambda: services.ready_save(log=log, seat=data.seat, checks=checks, by=request.auth)
    )
    return _ready_out(saved)


@router.post(
    "/tournaments/{slug}/games/{game_id}/log/ready/fine",
    response={200: ConsoleReadyOut, **VERSIONED_WRITE},
    summary="Fine a seat not ready for lateness",
)
def fine_not_ready(request: HttpRequest, slug: str, data: ConsoleFineIn, game_id: int = GameId):
    """A seat not ready without a good reason gets the lateness fine (lobby rules, 6);
    the chief judge gives penalties."""
    game = _game(slug, game_id)
    log = _log(game)
    saved = _write(
        lambda: services.ready_fine(log=log, seat=data.seat, reason=data.reason, by=request.auth)
    )
    return _ready_out(saved)


@router.put(
    "/tournaments/{slug}/games/{game_id}/side-judge",
    response={200: SideJudgeOut, **VERSIONED_WRITE},
    summary="Name the side judge of an online table",
)
def set_side_judge(request: HttpRequest, slug: str, data: SideJudgeIn, game_id: int = GameId):
    """The chief judge (or the organiser) names the side judge of a published table of an
    online tournament: one of its table judges, not the table's own."""
    game = _game(slug, game_id)
    judge = None
    if data.judge.strip():
        judge = User.objects.filter(nickname__iexact=data.judge.strip()).first()
        if judge is None:
            raise DjangoValidationError(
                {"judge": _("There is no judge %(nick)s.") % {"nick": data.judge}}
            )
    table = Table.objects.get(pk=game.table_slot_id)
    saved = _write(lambda: services.side_judge_set(table=table, judge=judge, by=request.auth))
    return {"game_id": game.pk, "judge": saved.side_judge.nickname if saved.side_judge else None}
