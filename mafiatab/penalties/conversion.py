"""Penalty rows <-> core `TournamentPenalty`s."""

from __future__ import annotations

from mafiatab.core.protocol import TournamentPenalty
from mafiatab.games.conversion import decimal_to_fraction
from mafiatab.penalties.models import Penalty


def core_penalty(row: Penalty) -> TournamentPenalty:
    return TournamentPenalty(
        player=row.player, points=decimal_to_fraction(row.points), reason=row.reason
    )


def active_penalties(tournament_id: int) -> tuple[TournamentPenalty, ...]:
    """The penalties in force (cancelled ones left out), in the order they were given."""
    rows = Penalty.objects.filter(tournament_id=tournament_id, cancelled_at__isnull=True)
    return tuple(core_penalty(row) for row in rows.order_by("id"))
