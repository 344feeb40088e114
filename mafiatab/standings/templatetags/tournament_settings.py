"""`{% tournament_scoring tournament snapshot as scoring %}`: the settings the shown
standings use."""

from __future__ import annotations

from django import template

from mafiatab.standings.conversion import Snapshot
from mafiatab.standings.inputs import ScoringSettings, scoring_settings
from mafiatab.tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def tournament_scoring(tournament: Tournament, snapshot: Snapshot | None = None) -> ScoringSettings:
    """The scoring settings the shown standings were computed with and where each comes
    from: those frozen with `snapshot` when it is frozen standings, else the
    tournament's settings of now."""
    if snapshot is not None and snapshot.scoring is not None:
        return snapshot.scoring
    return scoring_settings(tournament)
