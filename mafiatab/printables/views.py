"""Downloads: protocols, seating sheets, standings (PDF, XLSX) and the archive.

Each download follows the rules of the page it comes from: a protocol those of the
game page (`can_view_game`), the standings those of the standings page
(`viewer_standings`: hidden for the public, frozen as frozen), blank protocols of a
round and the archive are for the staff. The language is the reader's, or `?lang=`.

Every download but a single protocol is a heavy export (`heavy_export`): a few at a
time per process, one more is a 503 "try again".
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from mafiatab.games.models import STAGE_CHOICES, Game
from mafiatab.games.selectors import can_view_game, protocol_shown
from mafiatab.printables import documents
from mafiatab.printables.archive import archive_stream
from mafiatab.printables.pdf import Renderer
from mafiatab.printables.sheets import (
    blank_sheet,
    chief_judge_names,
    find_round,
    round_blank_sheets,
    safe_name,
)
from mafiatab.security.heavy import heavy_export
from mafiatab.standings.services import viewer_standings
from mafiatab.tournaments.bounds import MAX_SMALL, parse_int
from mafiatab.tournaments.disclosure import disclosure_for, withheld_refusal
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class BadRequest(Exception):
    """A query parameter that cannot be read: answered 400 with its message."""


def _in_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Render in `?lang=` when given (ru or en), else in the reader's language; a bad
    parameter is answered 400 with what is wrong."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        lang = request.GET.get("lang")
        known = [code for code, _name in settings.LANGUAGES]
        if lang is not None and lang not in known:
            return HttpResponseBadRequest(
                _("Unknown language %(lang)r: use one of %(known)s.")
                % {"lang": lang, "known": ", ".join(known)},
                content_type="text/plain; charset=utf-8",
            )
        with translation.override(lang or translation.get_language()):
            try:
                return view(request, *args, **kwargs)
            except BadRequest as exc:
                return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")

    return wrapper


def _download(content: bytes, content_type: str, filename: str, *, inline: bool) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(not inline, filename)
    return response


def _refuse(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _number(request: HttpRequest, name: str) -> int | None:
    text = request.GET.get(name)
    if text is None or text == "":
        return None
    number = parse_int(text, low=1, high=MAX_SMALL)
    if number is None:
        raise BadRequest(
            _("%(name)s must be a whole number from 1, not %(value)r.")
            % {"name": name, "value": text[:20]}
        )
    return number


@require_safe
@_in_language
def game_protocol(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A game's filled protocol from its latest version; marked provisional until the
    chief judge confirms it, then rendered once and kept with the version. Readable by
    whoever may read the game page, unless the organiser withholds the game's points
    from him (hidden or frozen standings)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    game = Game.objects.filter(tournament=tournament, pk=pk).select_related("tournament").first()
    if game is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404(_("No such game."))
    if not can_view_game(request.user, game):
        return _refuse(request)
    disclosure = disclosure_for(request.user, tournament)
    if not protocol_shown(disclosure, game):
        return withheld_refusal(request, disclosure)
    [(filename, pdf)] = documents.protocol_pdfs(tournament, [game])
    return _download(pdf, PDF, f"{tournament.slug}-{filename}", inline=True)


@require_safe
@_in_language
@heavy_export
def blank_protocols(request: HttpRequest, slug: str) -> HttpResponse:
    """Blank protocols for paper tables: with `?round=N` (and `&stage=`) one page per
    table of that round, header and nicknames filled (for the staff); without, one
    fully blank form (for anyone)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    number = _number(request, "round")
    chief = chief_judge_names(tournament)
    if number is None:
        sheets = [blank_sheet(tournament, chief_judge=chief)]
        filename = f"{tournament.slug}-protocol-blank.pdf"
    else:
        if not user_can(request.user, tournament, "view_protocols"):
            return _refuse(request)
        stage = request.GET.get("stage") or None
        stages = [code for code, _label in STAGE_CHOICES]
        if stage is not None and stage not in stages:
            raise BadRequest(
                _("Unknown stage %(stage)r: use one of %(known)s.")
                % {"stage": stage, "known": ", ".join(stages)}
            )
        round_ = find_round(tournament, number, stage)
        if round_ is None:
            raise Http404(_("There is no round %(n)d.") % {"n": number})
        sheets = round_blank_sheets(round_, chief_judge=chief)
        if not sheets:
            raise Http404(_("Round %(n)d has no table.") % {"n": number})
        filename = f"{tournament.slug}-{round_.stage}-round-{number}-protocols.pdf"
    pdf = documents.protocols_pdf(Renderer(), sheets)
    return _download(pdf, PDF, filename, inline=True)


@require_safe
@_in_language
@heavy_export
def seating(request: HttpRequest, slug: str) -> HttpResponse:
    """Every round with a block per table, as the seating page shows them."""
    tournament = get_object_or_404(Tournament, slug=slug)
    staff = user_can(request.user, tournament, "view_protocols")
    pdf = documents.seating_pdf(Renderer(), tournament, staff=staff)
    return _download(pdf, PDF, f"{tournament.slug}-seating.pdf", inline=True)


@require_safe
@_in_language
@heavy_export
def judge_copies(request: HttpRequest, slug: str) -> HttpResponse:
    """The judges' copies: every round of a table on its page (`?table=N`: that one)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    staff = user_can(request.user, tournament, "view_protocols")
    table = _number(request, "table")
    pdf = documents.judge_copies_pdf(Renderer(), tournament, staff=staff, table=table)
    if pdf is None:
        raise Http404(_("No round has a table %(n)d.") % {"n": table})
    suffix = f"-table-{table}" if table else ""
    return _download(pdf, PDF, f"{tournament.slug}-seating-judges{suffix}.pdf", inline=True)


def _standings(request: HttpRequest, slug: str) -> tuple[Tournament, Any, bool] | HttpResponse:
    """The standings the reader may see, or the refusal of hidden standings."""
    provisional = request.GET.get("provisional") == "1"
    tournament = get_object_or_404(Tournament, slug=slug)
    disclosure = disclosure_for(request.user, tournament)
    if disclosure.withholds_all:
        return withheld_refusal(request, disclosure)
    shown = viewer_standings(tournament=tournament, staff=disclosure.staff, provisional=provisional)
    if shown.snapshot is None:
        return withheld_refusal(request, disclosure)
    return tournament, shown, provisional


@require_safe
@_in_language
@heavy_export
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings the reader may see, as PDF (`?provisional=1` as on the page)."""
    found = _standings(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, shown, provisional = found
    pdf = documents.standings_pdf(Renderer(), tournament, shown, provisional=provisional)
    kind = "provisional" if provisional else "official"
    return _download(pdf, PDF, f"{tournament.slug}-standings-{kind}.pdf", inline=True)


@require_safe
@_in_language
@heavy_export
def standings_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings the reader may see, and every score line, as XLSX."""
    found = _standings(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, shown, provisional = found
    kind = "provisional" if provisional else "official"
    content = documents.standings_xlsx(shown)
    return _download(content, XLSX, f"{tournament.slug}-standings-{kind}.xlsx", inline=False)


@require_safe
@_in_language
@heavy_export
def archive(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament in one ZIP file, for its staff; streamed as it is made."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not user_can(request.user, tournament, "view_protocols"):
        return _refuse(request)
    language = translation.get_language()

    def chunks() -> Any:
        with translation.override(language):
            yield from archive_stream(tournament)

    response = StreamingHttpResponse(chunks(), content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(
        True, f"{safe_name(tournament.slug)}-archive.zip"
    )
    return response
