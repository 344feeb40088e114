"""`{% scoring_settings tournament as scoring %}`: the settings the standings use."""

from __future__ import annotations

from django import template

from mafiatab.standings.inputs import ScoringSettings, scoring_settings
from mafiatab.tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def tournament_scoring(tournament: Tournament) -> ScoringSettings:
    """The scoring settings of `tournament` and where each comes from."""
    return scoring_settings(tournament)
