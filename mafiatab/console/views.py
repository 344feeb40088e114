"""The console pages: the judge's console of a table, and the spectators' view.

The console page is a shell for `static/console/console.js`, which reads and writes
the log through the API (`mafiatab.console.api`); starting and finishing are plain
forms. Writes go through the services.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from mafiatab.accounts.models import User
from mafiatab.console import selectors, services
from mafiatab.console.broadcast import live_version
from mafiatab.console.forms import ReportForm, RolesForm
from mafiatab.console.models import ViolationReport
from mafiatab.console.strings import console_strings
from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game, GameStatus, Table
from mafiatab.games.selectors import confirmed_notice, is_confirmed_for_its_judge
from mafiatab.games.services import ProtocolChanged
from mafiatab.tournaments.models import StaffRole, Tournament
from mafiatab.tournaments.permissions import permissions_for


def _table_game(slug: str, pk: int) -> Game:
    tournament = get_object_or_404(Tournament, slug=slug)
    game = (
        Game.objects.filter(tournament=tournament, pk=pk, table_slot__isnull=False)
        .select_related("tournament", "table_slot__judge")
        .first()
    )
    if game is None:
        raise Http404(_("No such table."))
    return game


def _judge_game(request: HttpRequest, slug: str, pk: int) -> Game | HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    game = _table_game(slug, pk)
    if selectors.can_run(request.user, game):
        return game
    if request.method == "GET" and services.is_side_judge(request.user, game):
        return redirect("console:side", slug=slug, pk=pk)  # his own view of the table
    if request.method == "GET" and is_confirmed_for_its_judge(request.user, game):
        messages.info(request, confirmed_notice())
        return redirect("games:detail", slug=slug, pk=pk)
    raise PermissionDenied("enter_protocol")


def _base(request: HttpRequest, game: Game) -> dict[str, Any]:
    return {
        "tournament": game.tournament,
        "game": game,
        "can": permissions_for(request.user, game.tournament),
    }


def console(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The judge's console: the roles form before the game, then the live game."""
    game = _judge_game(request, slug, pk)
    if isinstance(game, HttpResponse):
        return game
    log = selectors.log_of(game)
    if log is None:
        form = RolesForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.log_start(game=game, roles=form.roles(), by=request.user)  # type: ignore[arg-type]
            except ValidationError as exc:
                for message in exc.messages:
                    form.add_error(None, message)
            else:
                return redirect("console:console", slug=slug, pk=pk)
        seats = [s["player"] for s in game_data(game)["seats"]]
        context = (
            _base(request, game)
            | _side_judge_context(game)
            | {
                "form": form,
                "rows": [(n, nick, form[f"role_{n}"]) for n, nick in enumerate(seats, start=1)],
            }
        )
        return render(request, "console/start.html", context, status=422 if form.errors else 200)
    context = _base(request, game) | {
        "log": log,
        "api": reverse("api:get_log", args=[slug, game.pk]),
        "strings": console_strings(),
        "online": game.tournament.is_online,
        "seat_numbers": list(range(1, 11)),
        # signed meanwhile (or stored so): the console takes no more events
        "signed": None
        if log.is_closed or game.status == GameStatus.DRAFT
        else selectors.signed_notice(),
    }
    if game.tournament.is_online:
        reports = services.reports_of(log)
        context |= _side_judge_context(game) | {
            "ready_rows": services.ready_rows(log),
            "ready_open": not log.is_closed and log.last_number == 0,
            "all_ready": services.is_ready(log),
            "reports": reports,
            "pending_reports": sum(1 for r in reports if r.is_pending),
            "reports_api": reverse("api:list_reports", args=[slug, game.pk]),
            "fine": _points(services.removal_fine(game)),
        }
    return render(request, "console/console.html", context)


def _side_judge_context(game: Game) -> dict[str, Any]:
    """The side judge of an online table, and whom the chief judge may name."""
    if not game.tournament.is_online:
        return {}
    table = Table.objects.select_related("side_judge").get(pk=game.table_slot_id)
    judges = [j for j in game.tournament.staff(StaffRole.TABLE_JUDGE) if j.pk != table.judge_id]
    return {"side_judge": table.side_judge, "side_judges": judges}


@require_POST
def side_judge_assign(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The chief judge names the side judge of an online table (addendum 2.6)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    game = _table_game(slug, pk)
    chosen = request.POST.get("judge", "")
    judge = None
    if chosen:
        judge = User.objects.filter(pk=_id(chosen)).first()
        if judge is None:
            messages.error(request, _("Choose one of the tournament's judges."))
            return redirect("console:console", slug=slug, pk=pk)
    table = Table.objects.get(pk=game.table_slot_id)
    if _told(
        request,
        lambda: services.side_judge_set(table=table, judge=judge, by=request.user),  # type: ignore[arg-type]
    ):
        messages.success(request, _("The side judge is saved."))
    return redirect("console:console", slug=slug, pk=pk)


def _id(text: str) -> int:
    """A row id given in a form (0, which names nothing, when it is not one)."""
    return int(text) if text.isdigit() and len(text) <= 18 else 0


def _points(value: Any) -> str:
    """A number of points as the pages show it: -0.8."""
    if value is None:
        return ""
    return f"{float(value):g}".replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def _back(slug: str, pk: int, anchor: str) -> HttpResponse:
    return redirect(reverse("console:console", args=[slug, pk]) + anchor)


def _told(request: HttpRequest, write: Any) -> bool:
    """Run a write of the console page; its refusal is told on the page."""
    try:
        write()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    except services.LogConflict as exc:
        messages.error(request, str(exc))
    else:
        return True
    return False


def _running_log(request: HttpRequest, slug: str, pk: int) -> Any:
    game = _judge_game(request, slug, pk)
    if isinstance(game, HttpResponse):
        return game
    log = selectors.log_of(game)
    if log is None:
        raise Http404(_("The game has not started on the console."))
    return log


def _seat(request: HttpRequest) -> int:
    """The seat a form names (0, which no seat is, for anything but a short number)."""
    text = request.POST.get("seat", "").strip()
    return int(text) if text.isdigit() and len(text) <= 2 else 0


@require_POST
def ready(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The judge ticks a seat of the ready check (lobby rules, 5)."""
    log = _running_log(request, slug, pk)
    if isinstance(log, HttpResponse):
        return log
    seat = _seat(request)
    checks = {name: name in request.POST for name in log.game.tournament.regulation.ready_checks}
    _told(request, lambda: services.ready_save(log=log, seat=seat, checks=checks, by=request.user))
    return _back(slug, pk, "#ready")


@require_POST
def ready_fine(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A seat not ready without a good reason gets the lateness fine (lobby rules, 6)."""
    log = _running_log(request, slug, pk)
    if isinstance(log, HttpResponse):
        return log
    seat = _seat(request)
    reason = request.POST.get("reason", "")[: services.MAX_REPORT_REASON]
    if _told(
        request, lambda: services.ready_fine(log=log, seat=seat, reason=reason, by=request.user)
    ):
        messages.success(request, _("The lateness fine is given."))
    return _back(slug, pk, "#ready")


@require_POST
def report_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The table judge accepts (the removal with its fine goes into the log) or dismisses
    a side judge's report."""
    log = _running_log(request, slug, pk)
    if isinstance(log, HttpResponse):
        return log
    found = get_object_or_404(ViolationReport, pk=_id(request.POST.get("report", "")), log=log)
    accept = request.POST.get("decision") == "accept"
    if _told(
        request,
        lambda: services.violation_decide(
            report=found, accept=accept, client_id=uuid.uuid4(), after=None, by=request.user
        ),
    ):
        messages.success(
            request,
            _("The report is accepted: the player is removed.")
            if accept
            else _("The report is dismissed."),
        )
    return _back(slug, pk, "#reports")


def side(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The side judge's view of his table (addendum 2.6): the players' links and the
    phase (no roles), and the report of a violation of the addendum (4.1)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    game = _table_game(slug, pk)
    if not services.is_side_judge(request.user, game):
        raise PermissionDenied("report_violation")
    log = selectors.log_of(game)
    view = selectors.log_view(game, full=False, disclose=False)
    alive = set((view["state"] or {}).get("alive", range(1, 11)))
    rows = [row | {"alive": row["seat"] in alive} for row in services.online_seats(game)]
    form = ReportForm(
        request.POST or None, seats=[(r["seat"], r["player"]) for r in rows if r["alive"]]
    )
    if request.method == "POST" and log is not None and form.is_valid():
        try:
            services.violation_report(
                log=log,
                seat=form.cleaned_data["seat"],
                reason=form.cleaned_data["reason"],
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        except services.LogConflict as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The report is sent to the table judge."))
            return redirect("console:side", slug=slug, pk=pk)
    context = _base(request, game) | {
        "log": log,
        "view": view,
        "rows": rows,
        "form": form,
        "reports": services.reports_of(log) if log is not None else [],
        "fine": _points(services.removal_fine(game)),
    }
    return render(request, "console/side.html", context, status=422 if form.errors else 200)


@require_POST
def finish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The game is over: its protocol opens, prefilled, in the protocol form."""
    game = _judge_game(request, slug, pk)
    if isinstance(game, HttpResponse):
        return game
    log = selectors.log_of(game)
    if log is None:
        raise Http404(_("The game has not started on the console."))
    if not log.is_closed:
        try:
            services.log_finish(log=log, by=request.user)  # type: ignore[arg-type]
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("console:console", slug=slug, pk=pk)
        except ProtocolChanged as exc:  # the protocol form saved meanwhile: nothing is lost
            messages.error(request, str(exc))
            return redirect("console:console", slug=slug, pk=pk)
        messages.success(
            request,
            _("The protocol is filled from the game: add extra points and penalties, then sign."),
        )
    return redirect("games:protocol", slug=slug, pk=pk)


#: What the console page needs to open without a connection.
_CONSOLE_ASSETS = (
    "console/console.js",
    "console/console.css",
    "mafiatab/site.css",
    "mafiatab/site.js",
    "mafiatab/favicon.svg",
)


@require_GET
def service_worker(request: HttpRequest, slug: str) -> HttpResponse:
    """The console's service worker, served from the tournament's address so that its
    scope covers the tournament's console pages."""
    get_object_or_404(Tournament, slug=slug)
    assets = [static(name) for name in _CONSOLE_ASSETS]
    version = hashlib.sha256(
        "".join(_asset_stamp(name) for name in _CONSOLE_ASSETS).encode()
    ).hexdigest()[:12]
    response = render(
        request,
        "console/sw.js",
        {"assets": json.dumps(assets), "version": version},
        content_type="application/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


def _asset_stamp(name: str) -> str:
    path = finders.find(name)
    if not path:
        return name
    stat = os.stat(path)
    return f"{name}:{stat.st_size}:{stat.st_mtime_ns}"


@require_GET
def spectator(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The table as spectators see it; it updates itself (`static/console/live.js`)."""
    game = _table_game(slug, pk)
    version = live_version(game.pk)  # read first: a change while rendering is sent later
    view = selectors.table_view(game, viewer=request.user)
    context = _base(request, game) | {"view": view, "version": version}
    return render(request, "console/spectator.html", context)


@require_GET
def spectator_board(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The spectators' board alone (htmx polls it)."""
    game = _table_game(slug, pk)
    view = selectors.table_view(game, viewer=request.user)
    context = _base(request, game) | {"view": view}
    return render(request, "console/_board.html", context)
