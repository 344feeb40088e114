"""A tournament's rows -> the core `Tournament` that scoring and export read."""

from __future__ import annotations

from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.games.conversion import stored_protocols
from mafiatab.penalties.conversion import active_penalties
from mafiatab.tournaments.models import Tournament


def core_tournament(tournament: Tournament, *, provisional: bool = False) -> CoreTournament:
    """Everything the core needs to score (or export) the tournament, as core objects:
    its confirmed protocols, or with `provisional` the submitted ones too."""
    return CoreTournament(
        name=tournament.name,
        ruleset=tournament.ruleset,
        games=stored_protocols(tournament.pk, provisional=provisional),
        participants=tournament.participants,
        games_before_final=tournament.games_before_final,
        lot_seed=tournament.lot_seed,
        penalties=active_penalties(tournament.pk),
    )
