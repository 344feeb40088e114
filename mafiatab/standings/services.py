"""Reading standings: the core computes them from the tournament's rows."""

from __future__ import annotations

from mafiatab.core.standings import Standings, compute_standings
from mafiatab.tournaments.conversion import core_tournament
from mafiatab.tournaments.models import Tournament


def tournament_standings(tournament: Tournament) -> Standings:
    """The current standings of a stored tournament, as the core computes them."""
    return compute_standings(core_tournament(tournament))
