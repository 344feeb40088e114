"""The protocol form of one table: what it shows (rows, problems by cell, points as
typed), how a post is read, saving and submitting, and the htmx preview.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from mafiatab.core.problems import Problem
from mafiatab.core.scoring import format_points
from mafiatab.games import forms as pf
from mafiatab.games import log_check, selectors, services
from mafiatab.games.conversion import game_data
from mafiatab.games.models import Game
from mafiatab.games.schedule_forms import SEAT_CHOICES_ID
from mafiatab.games.views.access import _NO_BASE_VERSION, _base_version, _error_text, with_game
from mafiatab.registrations.selectors import seat_choices
from mafiatab.tournaments.permissions import permissions_for, user_can

#: The warning of a protocol whose table judge is not named (9.11: the judge signs it).
JUDGE_MISSING = Problem(None, None, "judge", "form.judge_missing", {})


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
    # The protocol against the console's log of the game: what the log decided (the
    # living players' votes, the winner) is refused; every other difference is a warning.
    played = log_check.log_protocol(game)
    notes = pf.in_form_rows(log_check.differences(parsed.data, played), parsed.rows)
    refused = [n for n in notes if n.code in log_check.REFUSING]
    warned = [n for n in notes if n.code not in log_check.REFUSING]
    # the tournament file leaves the judge optional (an imported game may lack him):
    # the form warns before signing, it does not refuse
    unnamed = [] if str(parsed.data.get("judge") or "").strip() else [JUDGE_MISSING]
    problems = [
        *parsed.problems,
        *pf.in_form_rows([*not_seated, *check.problems], parsed.rows),
        *refused,
    ]
    cells = pf.problems_by_cell(problems, parsed.data)
    sums = selectors.points_by_seat(parsed.data, check)
    listed = pf.problem_list(problems, parsed.data, pf.block_rows(raw))
    warnings = pf.problem_list(warned, parsed.data, pf.block_rows(raw))
    # beside its cell, a difference names its part too: the best move's cell also
    # holds the first-killed seat's
    warn_cells: dict[str, list[str]] = {}
    for item in [*warnings, *pf.problem_list(unnamed, parsed.data)]:
        warn_cells.setdefault(item.cell, []).append(pf.as_sentence(f"{item.place}: {item.text}"))
    return {
        "tournament": tournament,
        "game": game,
        "can": permissions_for(request.user, tournament),
        "raw": raw,
        "layout": _layout(raw, cells, sums, warn_cells),
        "cells": cells,
        "problem_count": len(listed),
        "problems": problems,
        "problem_items": listed,
        "warning_items": warnings,
        "form_warnings": pf.problem_list(unnamed, parsed.data),
        "has_log": played is not None,
        # "no difference from the log" only when nothing differs (a refused difference
        # included) and no problem is shown beside a part the log has: a judge reading
        # an error on a vote must not read beside it that the vote is the log's
        "log_same": played is not None
        and not notes
        and not any(_in_log(item.cell) for item in listed),
        "readable": check.protocol is not None,
        "base_version": base_version,
        "online": tournament.is_online,
        "chief": user_can(request.user, tournament, "confirm_protocol"),
        # while the console runs the game, its protocol is made from the log when closed
        "playing": selectors.is_played_on_console(game),
        "playing_notice": selectors.playing_notice(),
        # False for the table's judge once the chief judge confirmed (a form kept open)
        "may_change": user_can(request.user, tournament, "enter_protocol", game=game),
        "rules": tuple(tournament.regulation.negative_action_rules),
        "approval_above": format_points(tournament.regulation.judge_unapproved_cap),
        "role_letters": pf.ROLE_LETTERS,
        "seat_numbers": list(pf.SEATS),
        "best_seats": _best_seats(game, raw),
        "protests": game.protests.all(),
        "returned": selectors.last_return(game),
        "seat_choices": seat_choices(tournament.pk),
        "seat_choices_id": SEAT_CHOICES_ID,
        **(extra or {}),
    }


#: The form's cells of what the console's log does not hold (the date and the judge,
#: the judge's extra points, the penalties).
_NOT_IN_LOG = ("header", "extra", "pen")


def _in_log(cell: str) -> bool:
    """Whether a form cell shows a part of the protocol the console's log holds."""
    return not cell.startswith(_NOT_IN_LOG)


def _best_seats(game: Game, raw: dict[str, Any]) -> list[int]:
    """The seats the best move may name: those in the game at the first night when the
    console's log knows them (a seat already written stays offered), else every seat."""
    known = log_check.first_night_seats(game)
    if known is None:
        return list(pf.SEATS)
    written = {raw.get(f"bm_{i}", "") for i in pf.BEST_MOVE_CELLS}
    return [n for n in pf.SEATS if n in known or str(n) in written]


def _layout(
    raw: dict[str, Any],
    cells: dict[str, list[str]],
    sums: dict[int, Any],
    warnings: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The form's rows, each with its values, its problems and its warnings (the
    differences from the console's log)."""

    def pb(key: str) -> dict[str, Any]:
        return {
            "key": key,
            "messages": cells.get(key, []),
            "warnings": (warnings or {}).get(key, []),
        }

    blocks = pf.block_rows(raw)
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
        "blocks": rows("v", blocks, ("day", "nominees", "votes", "by", "revote", "lift")),
        "extras": rows("extra", pf.EXTRA_ROWS, ("seat", "points", "reason", "approved")),
        "penalties": rows("pen", pf.PENALTY_ROWS, ("seat", "rule", "reason")),
        "removals": rows("rem", pf.REMOVAL_ROWS, ("seat", "reason", "online", "waived")),
        "best": [raw.get(f"bm_{i}", "") for i in pf.BEST_MOVE_CELLS],
        "pb": {key: pb(key) for key in pf.cell_keys(blocks)},
    }


def _refused_post(
    request: HttpRequest, game: Game, parsed: pf.Parsed, action: str, base_version: int | None
) -> tuple[str | None, int]:
    """Why a post of the form is answered before any save (and the status), or None:
    the table's judge of a protocol confirmed meanwhile, no base version, entries that
    cannot be read."""
    if not user_can(request.user, game.tournament, "enter_protocol", game=game):
        return str(services.ProtocolConfirmed(game)), 409
    if base_version is None and action in ("save", "submit"):
        return str(_NO_BASE_VERSION), 400
    if parsed.problems and action != "check":
        return _("Some entries cannot be read; see the marked fields."), 200
    return None, 200


@with_game("enter_protocol", confirmed_judge=True)
def protocol(request: HttpRequest, game: Game) -> HttpResponse:
    """The protocol form of one table: the judge fills it, signs and submits it. A
    post of its table judge after the chief judge confirmed it (a form kept open) gets
    the form back saying so (409), nothing saved."""
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
    error, status = _refused_post(request, game, parsed, action, base_version)
    reason_errors: list[str] = []
    if error is None and action in ("save", "submit"):
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
            # a missing reason is said beside its field too
            reason_errors = exc.message_dict.get("reason", []) if hasattr(exc, "error_dict") else []
        else:
            if action == "submit":
                messages.success(request, _("The protocol is signed and submitted."))
            else:
                messages.success(request, _("The protocol is saved."))
            return redirect("games:detail", slug=game.tournament.slug, pk=game.pk)
    context = _form_context(
        request,
        game,
        raw,
        parsed,
        base_version=base_version or game.version,
        extra={"error": error, "reason": reason, "reason_errors": reason_errors},
    )
    if error and context["problem_items"]:  # the page opens at the first problem
        context["scroll_to"] = context["problem_items"][0].cell
    if error and status == 200:
        status = 422
    return render(request, "games/protocol.html", context, status=status)


@require_POST
@with_game("enter_protocol")
def preview(request: HttpRequest, game: Game) -> HttpResponse:
    """The points columns and the problems of the form as typed (htmx swaps them in)."""
    raw, parsed = _parse(request, game)
    context = _form_context(request, game, raw, parsed, base_version=game.version)
    return render(request, "games/_live.html", context)
