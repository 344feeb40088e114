"""Penalty rows <-> core `TournamentPenalty`s."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from django.db.models import Q

from mafiatab.core.protocol import TournamentPenalty
from mafiatab.penalties.models import Penalty


def core_penalty(row: Penalty) -> TournamentPenalty:
    """A penalty row as the core reads it (its stored decimal as an exact fraction)."""
    return TournamentPenalty(player=row.player, points=Fraction(row.points), reason=row.reason)


def active_penalties(
    tournament_id: int, *, as_of: dt.datetime | None = None
) -> tuple[TournamentPenalty, ...]:
    """The penalties in force (cancelled ones left out), in the order they were given;
    with `as_of`, those in force at that moment."""
    if as_of is None:
        rows = Penalty.objects.filter(tournament_id=tournament_id, cancelled_at__isnull=True)
    else:
        rows = Penalty.objects.filter(tournament_id=tournament_id, created_at__lte=as_of).filter(
            Q(cancelled_at__isnull=True) | Q(cancelled_at__gt=as_of)
        )
    return tuple(core_penalty(row) for row in rows.order_by("id"))
