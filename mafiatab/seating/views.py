from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from mafiatab.games.services import replacement_record
from mafiatab.messages import flag_text
from mafiatab.registrations.forms import (
    REPLACEMENT_FIELDS,
    REPLACEMENT_REFUSED,
    ReplacementForm,
)
from mafiatab.registrations.models import SEATED_STATUSES, Registration, ReplacementScope
from mafiatab.seating.conversion import (
    find_player,
    games_each,
    grid,
    histogram_bars,
    seatings_of_tables,
    seats_of,
)
from mafiatab.seating.forms import GenerateForm, PublishForm
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services import (
    default_tables,
    judges_seated,
    next_seed,
    not_checked_in,
    participants,
    published_draft,
    seating_generate,
    seating_publish,
    seating_regenerate,
    seating_reseat,
)
from mafiatab.tournaments.models import StaffRole, Tournament
from mafiatab.tournaments.pages import tournament_context
from mafiatab.tournaments.permissions import tournament_permission, user_can


def _published(tournament: Tournament) -> list[SeatingDraft]:
    """The seating of each stage as the rounds' tables hold it: the published ones, and
    those of tables entered by hand on the rounds page (not stored)."""
    published = tournament.seating_drafts.filter(status=DraftStatus.PUBLISHED).order_by("id")
    return seatings_of_tables(tournament.pk, list(published))


def _my_nickname(request: HttpRequest, tournament: Tournament) -> str | None:
    if not request.user.is_authenticated:
        return None
    registration = tournament.registrations.filter(
        user=request.user, status__in=SEATED_STATUSES
    ).first()
    return registration.nickname if registration else None


def _search(published: list[SeatingDraft], query: str) -> list[dict[str, Any]]:
    """Every player of the published seatings matching `query`, with his seats."""
    results = []
    for draft in published:
        for name in find_player(draft, query)[:20]:
            results.append({"draft": draft, "player": name, "seats": seats_of(draft, name)})
    return results


def _shown(draft: SeatingDraft) -> dict[str, Any]:
    """A published seating as its tables hold it: rounds, and the games each player plays."""
    rounds = grid(draft)
    return {"draft": draft, "rounds": rounds, "games": games_each(rounds)}


def _stage_seats(published: list[SeatingDraft], nickname: str) -> list[tuple[Any, list[Any]]]:
    """The player's seats in each published stage; none (an empty list) for a stage he
    does not play in at all (a final he did not reach), not a "sits out" per round."""
    stages = []
    for draft in published:
        seats = seats_of(draft, nickname)
        plays = any(s.table is not None or s.replaced_by for s in seats)
        stages.append((draft, seats if plays else []))
    return stages


@require_GET
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """The published seating of each stage, searchable by nickname, and the visitor's seats."""
    tournament = get_object_or_404(Tournament, slug=slug)
    published = _published(tournament)
    query = request.GET.get("q", "").strip()
    results = _search(published, query) if query else []
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "seating/_search.html", {"results": results, "query": query})
    mine = _my_nickname(request, tournament)
    context = tournament_context(request, tournament) | {
        "published": [_shown(d) for d in published],
        "query": query,
        "results": results,
        "my_nickname": mine,
        "my_seats": _stage_seats(published, mine) if mine else [],
    }
    return render(request, "seating/index.html", context)


@login_required
@require_GET
def mine(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in participant's table and seat in every round."""
    tournament = get_object_or_404(Tournament, slug=slug)
    nickname = _my_nickname(request, tournament)
    published = _published(tournament)
    context = tournament_context(request, tournament) | {
        "my_nickname": nickname,
        "published": published,
        "my_seats": _stage_seats(published, nickname) if nickname else [],
    }
    return render(request, "seating/mine.html", context)


def _generate_form(tournament: Tournament, data: Any = None) -> GenerateForm:
    people = participants(tournament)
    initial = {
        "stage": "qualifying",
        "games": 10,
        "tables": default_tables(len(people)),
        "seed": next_seed(tournament),
    }
    return GenerateForm(data, initial=initial, players=[p.nickname for p in people])


def _drafts_page(request: HttpRequest, tournament: Tournament, form: GenerateForm) -> HttpResponse:
    if request.htmx:
        return render(
            request, "seating/_generate_form.html", {"form": form, "tournament": tournament}
        )
    people = participants(tournament)
    context = tournament_context(request, tournament) | {
        "form": form,
        "drafts": tournament.seating_drafts.select_related("created_by"),
        "participant_count": len(people),
        "club_count": len({p.club.casefold() for p in people if p.club}),
    }
    return render(request, "seating/drafts.html", context)


@tournament_permission("generate_seating")
@require_GET
def drafts(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _drafts_page(request, tournament, _generate_form(tournament))


def _to_draft(request: HttpRequest, draft: SeatingDraft) -> HttpResponse:
    messages.success(request, _("Seating generated with seed %(seed)d.") % {"seed": draft.seed})
    url = draft.get_absolute_url()
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_POST
@tournament_permission("generate_seating")
def generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = _generate_form(tournament, request.POST)
    if form.is_valid():
        try:
            draft = seating_generate(tournament=tournament, inputs=form.inputs(), by=request.user)
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            return _to_draft(request, draft)
    return _drafts_page(request, tournament, form)


def _publish_form(draft: SeatingDraft, data: Any = None) -> PublishForm:
    tables = sorted({int(t["table"]) for r in draft.rounds for t in r["tables"]})
    judges = draft.tournament.staff(StaffRole.TABLE_JUDGE)
    seated = judges_seated(draft, judges)
    return PublishForm(data, tables=tables, judges=judges, seated=seated)


def _draft_page(
    request: HttpRequest, draft: SeatingDraft, publish_form: PublishForm | None = None
) -> HttpResponse:
    tournament = draft.tournament
    other = published_draft(tournament, draft.stage)
    reseat_of = draft.options.get("reseat_of")
    if other is not None and other.pk == reseat_of and not draft.is_published:
        other = None  # a re-seating takes the published seating's place
    context = tournament_context(request, tournament) | {
        "reseat": {"of": reseat_of, "note": reseat_note(draft.options)} if reseat_of else None,
        "not_checked_in": not_checked_in(tournament)
        if not draft.is_published and _starts_round_one(draft)
        else [],
        "draft": draft,
        "flags": [flag_text(flag) for flag in draft.flags],
        "metrics": draft.metrics,
        "bars": histogram_bars(draft.metrics),
        "rounds": grid(draft),
        "publish_form": publish_form or _publish_form(draft),
        "published_other": other if other and other.pk != draft.pk else None,
        "drafts": tournament.seating_drafts.filter(stage=draft.stage),
    }
    return render(request, "seating/draft.html", context)


def _rounds_text(first: int, last: int) -> str:
    if first == last:
        return _("round %(n)d") % {"n": first}
    return _("rounds %(first)d–%(last)d") % {"first": first, "last": last}


def reseat_note(options: dict[str, Any]) -> str:
    """What a re-seating keeps: the rounds played stay as played, a round not played
    yet but kept (the replacement's first round, with the reserve seated) as seated."""
    fixed = int(options.get("fixed_rounds") or 0)
    played = min(int(options.get("played_rounds", fixed)), fixed)
    kept = [_("A new seating after a replacement.")]
    if played:
        kept.append(
            _("Played, kept as they are: %(rounds)s.") % {"rounds": _rounds_text(1, played)}
        )
    if fixed > played:
        kept.append(
            _("Not played yet, kept as seated with the reserve: %(rounds)s.")
            % {"rounds": _rounds_text(played + 1, fixed)}
        )
    kept.append(
        _(
            "Publishing it seats the later rounds again and takes the place of the "
            "published seating."
        )
    )
    return " ".join(kept)


def _starts_round_one(draft: SeatingDraft) -> bool:
    """Publishing this draft seats the tournament's first round (round 1 of the
    qualifying stage; a re-seating keeps its played rounds)."""
    return (
        draft.stage == "qualifying"
        and not draft.options.get("fixed_rounds")
        and any(int(r["round"]) == 1 for r in draft.rounds)
    )


@tournament_permission("generate_seating")
@require_GET
def draft_detail(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    draft = get_object_or_404(SeatingDraft, pk=pk, tournament=tournament)
    return _draft_page(request, draft)


@require_POST
@tournament_permission("generate_seating")
def regenerate(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    draft = get_object_or_404(SeatingDraft, pk=pk, tournament=tournament)
    try:
        new = seating_regenerate(draft=draft, by=request.user)
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
        url = draft.get_absolute_url()
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return _to_draft(request, new)


@require_POST
@tournament_permission("publish_seating")
def publish(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    draft = get_object_or_404(SeatingDraft, pk=pk, tournament=tournament)
    form = _publish_form(draft, request.POST)
    if form.is_valid():
        try:
            seating_publish(draft=draft, judges=form.judges(), by=request.user)
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("Seating published: the rounds and tables are created."))
            absent = not_checked_in(tournament) if _starts_round_one(draft) else []
            if absent:
                messages.warning(
                    request,
                    _("Not checked in for day 1: %(names)s.") % {"names": ", ".join(absent)},
                )
            return redirect("seating:index", slug=tournament.slug)
    return _draft_page(request, draft, form)


@require_GET
def print_sheet(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The seating sheet to print: one block per table, a page per round."""
    tournament = get_object_or_404(Tournament, slug=slug)
    draft = get_object_or_404(SeatingDraft, pk=pk, tournament=tournament)
    if not draft.is_published and not user_can(request.user, tournament, "generate_seating"):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("generate_seating")
    context = {"tournament": tournament, "draft": draft, "rounds": grid(draft)}
    return render(request, "seating/print.html", context)


def _manage(tournament: Tournament) -> HttpResponse:
    return redirect("registrations:manage", slug=tournament.slug)


@require_POST
@tournament_permission("replace_player")
def replace(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A reserve replaces a late participant (the registrations page's form): for one
    round the seating stays as published; for the rest of the tournament the rounds
    not yet played are seated again in a draft to publish."""
    form = ReplacementForm(request.POST)
    if not form.is_valid():
        return _replacement_refused(
            request, tournament, [e for errors in form.errors.values() for e in errors]
        )
    data = form.cleaned_data
    absent = get_object_or_404(Registration, pk=data["absent"], tournament=tournament)
    rest = data["scope"] == ReplacementScope.REST
    try:
        replacement = replacement_record(
            tournament=tournament,
            absent=absent,
            reserve_nickname=data["reserve_nickname"],
            round=data["round"],
            minutes_late=data["minutes_late"],
            scope=data["scope"],
            new_player=data["new_player"],
            by=request.user,
        )
    except ValidationError as exc:
        return _replacement_refused(request, tournament, exc.messages)
    said = {
        "reserve": replacement.reserve_nickname,
        "nick": absent.nickname,
        "round": data["round"],
    }
    messages.success(
        request,
        _("%(reserve)s replaces %(nick)s from round %(round)d for the rest of the tournament.")
        % said
        if rest
        else _("%(reserve)s replaces %(nick)s in round %(round)d.") % said,
    )
    # replaced for one round, he keeps his later rounds: the seating stays as published
    if rest:
        _reseat(request, tournament, data["round"])
    return _manage(tournament)


def _replacement_refused(
    request: HttpRequest, tournament: Tournament, errors: list[str]
) -> HttpResponse:
    """Back to the registrations page's form, with what was typed and why it is
    refused beside it (not at the top of a long page)."""
    request.session[REPLACEMENT_REFUSED] = {
        "errors": [str(e) for e in errors][:10],
        "values": {name: request.POST.get(name, "")[:64] for name in REPLACEMENT_FIELDS},
    }
    return redirect(reverse("registrations:manage", args=[tournament.slug]) + "#replace")


def _reseat(request: HttpRequest, tournament: Tournament, round_number: int) -> None:
    """Plan the rounds not yet played again, as a draft to publish."""
    try:
        draft = seating_reseat(tournament=tournament, by=request.user, at_least=round_number)
    except ValidationError as exc:
        for message in exc.messages:
            messages.warning(request, message)
        return
    if draft is not None:
        messages.info(
            request,
            format_html(
                '{} <a href="{}">{}</a>',
                _("The rounds not yet played are seated again in a new draft."),
                draft.get_absolute_url(),
                _("Review and publish it."),
            ),
        )
