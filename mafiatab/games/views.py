"""Pages of rounds, tables, protocols and protests. Writes go through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST

from mafiatab.core.scoring import format_points
from mafiatab.games import forms as pf
from mafiatab.games import selectors, services
from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game, Protest, Round
from mafiatab.registrations.selectors import seat_choices
from mafiatab.tournaments.bounds import MAX_ID, MAX_INT, parse_int
from mafiatab.tournaments.models import StaffMember, Tournament
from mafiatab.tournaments.permissions import permissions_for, tournament_permission, user_can
from mafiatab.tournaments.views import tournament_context

# --- loading with the one permission check ---------------------------------------------


def _refuse(request: HttpRequest, found: bool) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not found:
        raise Http404(_("No such game."))
    raise PermissionDenied


def _load(request: HttpRequest, slug: str, pk: int, action: str) -> Game | HttpResponse:
    """The game `pk` when the user may do `action` on it ("view" for reading)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    game = (
        Game.objects.filter(tournament=tournament, pk=pk)
        .select_related("tournament", "table_slot__judge", "replay", "confirmed_by")
        .first()
    )
    if game is None:
        return _refuse(request, False)
    allowed = (
        selectors.can_view_game(request.user, game)
        if action == "view"
        else user_can(request.user, tournament, action, game=game)
    )
    if not allowed:
        return _refuse(request, True)
    return game


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


# --- rounds and tables ----------------------------------------------------------------


def _judges(tournament: Tournament) -> list[tuple[str, str]]:
    members = StaffMember.objects.filter(
        tournament=tournament, role__in=["table_judge", "chief_judge"]
    ).select_related("user")
    seen: dict[str, str] = {}
    for m in members:
        seen[str(m.user.pk)] = m.user.nickname or m.user.username
    return sorted(seen.items(), key=lambda item: item[1].lower())


@tournament_permission("view_protocols")
def rounds(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every round with its tables; the organiser and the chief judge add rounds here."""
    can = permissions_for(request.user, tournament)
    judges = _judges(tournament)
    form = pf.RoundForm(request.POST or None)
    if request.method == "POST":
        if not can["manage_rounds"]:
            raise PermissionDenied("manage_rounds")
        if form.is_valid():
            try:
                services.round_create(
                    tournament=tournament,
                    stage=form.cleaned_data["stage"],
                    number=form.cleaned_data["number"],
                    tables=[],
                    by=request.user,  # type: ignore[arg-type]
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("The round was created; add its tables."))
                return redirect("games:rounds", slug=tournament.slug)
    context = {
        "tournament": tournament,
        "can": can,
        "rounds": [
            # each round's form has its own field ids, so every label finds its field
            (round_, pf.TableForm(judges=judges, auto_id=f"id_round{round_.pk}_%s"))
            for round_ in selectors.rounds_of(tournament)
        ],
        "form": form,
        "seat_choices": seat_choices(tournament.pk),
        "seat_choices_id": pf.SEAT_CHOICES_ID,
    }
    return render(request, "games/rounds.html", context)


@require_POST
@tournament_permission("manage_rounds")
def table_add(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, pk=pk)
    form = pf.TableForm(request.POST, judges=_judges(tournament))
    if form.is_valid():
        judge_id = form.cleaned_data["judge"]
        judge = None
        if judge_id:
            judge = StaffMember.objects.filter(tournament=tournament, user_id=judge_id).first()
        try:
            services.table_add(
                round=round_,
                plan=services.TablePlan(
                    number=form.cleaned_data["number"],
                    judge=judge.user if judge else None,
                    players=form.players_list(),
                ),
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as exc:
            messages.error(request, _error_text(exc))
        else:
            messages.success(request, _("The table was added."))
    else:
        messages.error(request, _("Give the table number and ten participants."))
    return redirect("games:rounds", slug=tournament.slug)


@tournament_permission("view_protocols")
def my_tables(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The protocols of the tables the signed-in judge serves."""
    context = {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "games": selectors.games_of_judge(tournament, request.user),
    }
    return render(request, "games/my_tables.html", context)


@tournament_permission("confirm_protocol")
def queue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The chief judge's queue: submitted protocols and open protests."""
    context = {
        "tournament": tournament,
        "can": permissions_for(request.user, tournament),
        "games": selectors.submitted_games(tournament),
        "protests": selectors.open_protests(tournament),
    }
    return render(request, "games/queue.html", context)


# --- the game page and its history ------------------------------------------------------


@require_GET
def game_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every game by stage and round: confirmed ones for all, every status for the staff."""
    tournament = get_object_or_404(Tournament, slug=slug)
    staff = user_can(request.user, tournament, "view_protocols")
    context = tournament_context(request, tournament) | {
        "staff_view": staff,
        "rounds": selectors.games_by_round(tournament, with_unconfirmed=staff),
        "seat_numbers": list(pf.SEATS),
    }
    return render(request, "games/list.html", context)


@require_GET
def detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A game's protocol, public once confirmed."""
    game = _load(request, slug, pk, "view")
    if isinstance(game, HttpResponse):
        return game
    tournament = game.tournament
    data = game_data(game)
    check = selectors.check_protocol(data, ruleset=tournament.ruleset)
    context = {
        "tournament": tournament,
        "game": game,
        "can": permissions_for(request.user, tournament),
        "can_edit": user_can(request.user, tournament, "enter_protocol", game=game),
        "can_protest": game.submitted_at is not None
        and user_can(request.user, tournament, "file_protest", game=game),
        "rows": _seat_rows(data, check, {}),
        "data": data,
        "protests": game.protests.select_related("filed_by", "decided_by", "version"),
        "games": Game.objects.filter(tournament=tournament).exclude(pk=game.pk),
    }
    return render(request, "games/detail.html", context)


@require_GET
def history(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Every version of the protocol: who, when, why, and what changed."""
    game = _load(request, slug, pk, "view")
    if isinstance(game, HttpResponse):
        return game
    versions = list(game.versions.select_related("author"))
    entries = []
    previous: dict[str, Any] = {}
    for version in versions:
        entries.append(
            {"version": version, "changes": selectors.version_changes(previous, version.data)}
        )
        previous = version.data
    context = {
        "tournament": game.tournament,
        "game": game,
        "can": permissions_for(request.user, game.tournament),
        "entries": list(reversed(entries)),
    }
    return render(request, "games/history.html", context)


# --- the protocol form -------------------------------------------------------------------


def _seat_rows(
    data: dict[str, Any], check: selectors.ProtocolCheck, cells: dict[str, list[str]]
) -> list[dict[str, Any]]:
    sums = selectors.points_by_seat(data, check)
    raw = pf.raw_from_data(data)
    rows = []
    for n in pf.SEATS:
        points = sums.get(n)
        rows.append(
            {
                "n": n,
                "player": raw.get(f"player_{n}", ""),
                "role": raw.get(f"role_{n}", ""),
                "letter": _letter(raw.get(f"role_{n}", "")),
                "fouls": len(raw.get(f"fouls_{n}") or []),
                "main": format_points(points["main"]) if points else "",
                "extra": format_points(points["extra"], signed=True)
                if points and points["extra"]
                else "",
            }
        )
    return rows


def _letter(role: str) -> str:
    from mafiatab.core.roles import Role

    try:
        return Role.parse(role).letter if role else ""
    except ValueError:
        return role


def _chief_flags(parsed: pf.Parsed, stored: dict[str, Any], *, chief: bool) -> None:
    """Only the chief judge sets the 8.4.3 approval; a table judge keeps what was approved."""
    if chief:
        return
    approved = {
        (e.get("seat"), str(e.get("points")))
        for e in stored.get("judge_extra") or []
        if e.get("chief_approved")
    }
    for extra in parsed.data.get("judge_extra") or []:
        extra["chief_approved"] = (extra["seat"], str(extra["points"])) in approved


def _parse(request: HttpRequest, game: Game) -> tuple[dict[str, Any], pf.Parsed]:
    stored = game_data(game)
    raw = pf.raw_from_post(request.POST)
    parsed = pf.data_from_raw(raw, base=stored, online=game.tournament.is_online)
    chief = user_can(request.user, game.tournament, "confirm_protocol")
    _chief_flags(parsed, stored, chief=chief)
    if game.replayed:
        parsed.data["replayed"] = True
    return raw, parsed


def _form_context(
    request: HttpRequest,
    game: Game,
    raw: dict[str, Any],
    parsed: pf.Parsed,
    *,
    base_version: int,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    tournament = game.tournament
    check = selectors.check_protocol(parsed.data, ruleset=tournament.ruleset)
    _seated, not_seated = selectors.seat_participants(
        tournament.pk, parsed.data, stored=game_data(game)
    )
    problems = [*parsed.problems, *not_seated, *check.problems]
    cells = pf.problems_by_cell(problems, parsed.data)
    sums = selectors.points_by_seat(parsed.data, check)
    return {
        "tournament": tournament,
        "game": game,
        "can": permissions_for(request.user, tournament),
        "raw": raw,
        "layout": _layout(raw, cells, sums),
        "cells": cells,
        "problem_count": len(problems),
        "problems": problems,
        "readable": check.protocol is not None,
        "base_version": base_version,
        "online": tournament.is_online,
        "chief": user_can(request.user, tournament, "confirm_protocol"),
        "rules": tuple(tournament.regulation.negative_action_rules),
        "approval_above": format_points(tournament.regulation.judge_unapproved_cap),
        "role_letters": pf.ROLE_LETTERS,
        "seat_numbers": list(pf.SEATS),
        "protests": game.protests.all(),
        "seat_choices": seat_choices(tournament.pk),
        "seat_choices_id": pf.SEAT_CHOICES_ID,
        **(extra or {}),
    }


def _layout(
    raw: dict[str, Any], cells: dict[str, list[str]], sums: dict[int, Any]
) -> dict[str, Any]:
    """The form's rows, each with its values and its problems."""

    def pb(key: str) -> dict[str, Any]:
        return {"key": key, "messages": cells.get(key, [])}

    seats = []
    for n in pf.SEATS:
        points = sums.get(n)
        fouls = raw.get(f"fouls_{n}") or []
        seats.append(
            {
                "n": n,
                "player": raw.get(f"player_{n}", ""),
                "role": raw.get(f"role_{n}", ""),
                "fouls": [(i, str(i) in fouls) for i in range(1, pf.MAX_FOULS + 1)],
                "pb_player": pb(f"player_{n}"),
                "pb_role": pb(f"role_{n}"),
                "pb_fouls": pb(f"fouls_{n}"),
                "main": format_points(points["main"]) if points else "",
                "extra": format_points(points["extra"], signed=True)
                if points and points["extra"]
                else "",
            }
        )

    def rows(prefix: str, count: range, names: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            {"i": i, **{name: raw.get(f"{prefix}{i}_{name}", "") for name in names}}
            | {"pb": pb(f"{prefix}{i}")}
            for i in count
        ]

    return {
        "seats": seats,
        "blocks": rows("v", pf.BLOCKS, ("day", "nominees", "votes", "by", "revote")),
        "extras": rows("extra", pf.EXTRA_ROWS, ("seat", "points", "reason", "approved")),
        "penalties": rows("pen", pf.PENALTY_ROWS, ("seat", "rule", "reason")),
        "removals": rows("rem", pf.REMOVAL_ROWS, ("seat", "reason", "online", "waived")),
        "best": [raw.get(f"bm_{i}", "") for i in pf.BEST_MOVE_CELLS],
        "pb": {key: pb(key) for key in pf.cell_keys()},
    }


_NO_BASE_VERSION = _lazy(
    "The form does not say which version of the protocol it was started from, so it "
    "could overwrite someone else's entries: reload the protocol and enter them again."
)


def _base_version(request: HttpRequest) -> int | None:
    """The `base_version` the form was started from; None when missing or not a version."""
    return parse_int(request.POST.get("base_version", ""), low=0, high=MAX_INT)


def protocol(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The protocol form of one table: the judge fills it, signs and submits it."""
    game = _load(request, slug, pk, "enter_protocol")
    if isinstance(game, HttpResponse):
        return game
    if request.method != "POST":
        stored = game_data(game)
        raw = pf.raw_from_data(stored)
        parsed = pf.data_from_raw(raw, base=stored, online=game.tournament.is_online)
        parsed.data = stored
        context = _form_context(request, game, raw, parsed, base_version=game.version)
        return render(request, "games/protocol.html", context)
    raw, parsed = _parse(request, game)
    action = request.POST.get("action", "save")
    base_version = _base_version(request)
    reason = request.POST.get("reason", "")
    error, status = None, 200
    if base_version is None and action in ("save", "submit"):
        error, status = _NO_BASE_VERSION, 400
    elif parsed.problems and action != "check":
        error = _("Some entries cannot be read; see the marked fields.")
    elif action in ("save", "submit"):
        try:
            services.protocol_save(
                game=game,
                data=parsed.data,
                by=request.user,  # type: ignore[arg-type]
                base_version=base_version,
                submit=action == "submit",
                reason=reason,
            )
        except services.ProtocolChanged as exc:
            error, status = str(exc), 409
        except services.ProtocolInvalid:
            error = _("The protocol has problems; see the marked fields.")
        except ValidationError as exc:
            error = _error_text(exc)
        else:
            if action == "submit":
                messages.success(request, _("The protocol is signed and submitted."))
            else:
                messages.success(request, _("The protocol is saved."))
            return redirect("games:detail", slug=slug, pk=game.pk)
    context = _form_context(
        request,
        game,
        raw,
        parsed,
        base_version=base_version or game.version,
        extra={"error": error, "reason": reason},
    )
    if error and status == 200:
        status = 422
    return render(request, "games/protocol.html", context, status=status)


@require_POST
def preview(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The points columns and the problems of the form as typed (htmx swaps them in)."""
    game = _load(request, slug, pk, "enter_protocol")
    if isinstance(game, HttpResponse):
        return game
    raw, parsed = _parse(request, game)
    context = _form_context(request, game, raw, parsed, base_version=game.version)
    return render(request, "games/_live.html", context)


# --- the chief judge's decisions ----------------------------------------------------------


def _game_action(
    request: HttpRequest, game: Game, action: Callable[[], object], success: str
) -> HttpResponse:
    """Run a service on a game, tell the user how it went, and go back to the game."""
    try:
        action()
    except services.ProtocolChanged as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
    else:
        messages.success(request, success)
    return redirect("games:detail", slug=game.tournament.slug, pk=game.pk)


@require_POST
def confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    game = _load(request, slug, pk, "confirm_protocol")
    if isinstance(game, HttpResponse):
        return game
    return _game_action(
        request,
        game,
        lambda: services.protocol_confirm(
            game=game,
            by=request.user,  # type: ignore[arg-type]
            base_version=_base_version(request),
        ),
        _("The protocol is confirmed."),
    )


@require_POST
def return_protocol(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    game = _load(request, slug, pk, "confirm_protocol")
    if isinstance(game, HttpResponse):
        return game
    return _game_action(
        request,
        game,
        lambda: services.protocol_return(
            game=game,
            by=request.user,  # type: ignore[arg-type]
            reason=request.POST.get("reason", ""),
        ),
        _("The protocol was returned to its judge."),
    )


@require_POST
def replay(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    game = _load(request, slug, pk, "confirm_protocol")
    if isinstance(game, HttpResponse):
        return game
    replay_id = parse_int(request.POST.get("replay", ""), low=1, high=MAX_ID)
    replay_game = (
        Game.objects.filter(tournament=game.tournament, pk=replay_id).first()
        if replay_id is not None
        else None
    )
    return _game_action(
        request,
        game,
        lambda: services.game_mark_replayed(
            game=game,
            by=request.user,  # type: ignore[arg-type]
            replay=replay_game,
            reason=request.POST.get("reason", ""),
        ),
        _("The game is marked replayed."),
    )


# --- protests --------------------------------------------------------------------------------


@require_POST
def protest(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    game = _load(request, slug, pk, "file_protest")
    if isinstance(game, HttpResponse):
        return game
    return _game_action(
        request,
        game,
        lambda: services.protest_file(
            game=game,
            by=request.user,  # type: ignore[arg-type]
            text=request.POST.get("text", ""),
        ),
        _("Your protest is filed; the chief judge will decide."),
    )


def protest_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The chief judge decides a protest, changing the protocol if the decision says so."""
    tournament = get_object_or_404(Tournament, slug=slug)
    found = (
        Protest.objects.filter(game__tournament=tournament, pk=pk).select_related("game").first()
    )
    if found is None or not user_can(request.user, tournament, "decide_protest"):
        return _refuse(request, found is not None)
    game = found.game
    stored = game_data(game)
    error = None
    if request.method == "POST":
        raw, parsed = _parse(request, game)
        change = request.POST.get("change") == "on"
        try:
            if change and _base_version(request) is None:
                raise ValidationError(str(_NO_BASE_VERSION))
            if change and parsed.problems:
                raise ValidationError(_("Some entries cannot be read; see the marked fields."))
            services.protest_decide(
                protest=found,
                by=request.user,  # type: ignore[arg-type]
                upheld=request.POST.get("upheld") == "yes",
                decision=request.POST.get("decision", ""),
                by_committee=request.POST.get("by_committee") == "on",
                data=parsed.data if change else None,
                base_version=_base_version(request),
            )
        except services.ProtocolChanged as exc:
            error = str(exc)
        except services.ProtocolInvalid:
            error = _("The protocol has problems; see the marked fields.")
        except ValidationError as exc:
            error = _error_text(exc)
        else:
            messages.success(request, _("The protest is decided."))
            return redirect("games:detail", slug=slug, pk=game.pk)
    else:
        raw = pf.raw_from_data(stored)
        parsed = pf.data_from_raw(raw, base=stored, online=tournament.is_online)
        parsed.data = stored
    base_version = _base_version(request) or game.version
    context = _form_context(
        request,
        game,
        raw,
        parsed,
        base_version=base_version,
        extra={"protest": found, "error": error, "post": request.POST},
    )
    return render(request, "games/decide.html", context, status=422 if error else 200)
