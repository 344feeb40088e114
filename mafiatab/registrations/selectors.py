"""Reading registrations: who may hold a seat, found by nickname in any case.

A nickname is matched by its key (`mafiatab.core.names.nickname_key`, case folded
in Python), never by the database's collation, so "кэп" finds "Кэп" on SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from mafiatab.core.names import nickname_key
from mafiatab.registrations.models import SEATED_STATUSES, Registration, Status

if TYPE_CHECKING:
    from mafiatab.tournaments.models import Tournament


def seat_holders(tournament_id: int) -> dict[str, Registration]:
    """Everyone who may hold a seat (participants and reserves), by nickname key."""
    rows = Registration.objects.filter(tournament_id=tournament_id, status__in=SEATED_STATUSES)
    return {r.nickname_key: r for r in rows.order_by("id")}


def seat_choices(tournament_id: int, query: str = "", limit: int | None = None) -> list[str]:
    """The nicknames a seat may hold, those containing `query` (any case), sorted."""
    wanted = nickname_key(query)
    names = sorted((r.nickname for r in seat_holders(tournament_id).values()), key=nickname_key)
    if wanted:
        names = [n for n in names if wanted in nickname_key(n)]
    return names[:limit] if limit is not None else names


def reserves_who_played(tournament: Tournament) -> QuerySet[Registration]:
    """The reserves who replaced a participant, by nickname. The lists of participants
    show them (as reserves); N of 8.7 and the participant limit do not count them."""
    return (
        tournament.registrations.filter(status=Status.RESERVE, replacing__isnull=False)
        .select_related("user")
        .distinct()
        .order_by("nickname")
    )


def listed_participants(tournament: Tournament) -> QuerySet[Registration]:
    """Whom the lists of participants show, by nickname: the approved participants and
    the reserves who replaced one."""
    reserves = reserves_who_played(tournament).values("pk")
    listed = Q(status=Status.APPROVED) | Q(pk__in=reserves)
    return tournament.registrations.filter(listed).order_by("nickname")
