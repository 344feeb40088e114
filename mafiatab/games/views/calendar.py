"""The iCalendar feeds: the tournament's rounds, and a player's own tables behind the
secret of his registration (a calendar app subscribes without his session)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from mafiatab.games.calendar import player_feed, tournament_feed
from mafiatab.registrations.models import SEATED_STATUSES, Registration, Status
from mafiatab.tournaments.models import Tournament

#: Calendar apps poll a feed; an hour's caching is what they expect of one.
MAX_AGE = 3600


def _feed(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    response["Cache-Control"] = f"private, max-age={MAX_AGE}"
    return response


@require_safe
def tournament_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """Every timed round of the tournament."""
    tournament = get_object_or_404(Tournament, slug=slug)
    url = request.build_absolute_uri(tournament.get_absolute_url())
    return _feed(tournament_feed(tournament, url=url, host=request.get_host()), tournament.slug)


@require_safe
def player_calendar(request: HttpRequest, slug: str, pk: int, token: str) -> HttpResponse:
    """The player's own tables; 404 for a wrong secret, as for an unknown player."""
    tournament = get_object_or_404(Tournament, slug=slug)
    registration = Registration.objects.filter(
        tournament=tournament, pk=pk, status__in=(*SEATED_STATUSES, Status.REMOVED)
    ).first()
    if registration is None or not registration.has_calendar_token(token):
        raise Http404
    url = request.build_absolute_uri(tournament.get_absolute_url())
    body = player_feed(registration, url=url, host=request.get_host())
    return _feed(body, f"{tournament.slug}-{registration.pk}")
