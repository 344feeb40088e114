"""Saving the tournament's information unchanged puts nothing on its history."""

from __future__ import annotations

import pytest

from mafiatab.audit.models import AuditEntry
from mafiatab.tournaments.services import TournamentInfo, info_of, tournament_update


@pytest.mark.django_db
def test_an_unchanged_save_writes_no_history_entry(tournament, organiser):
    def updates() -> int:
        return AuditEntry.objects.filter(
            tournament_id=tournament.pk, action="tournament.updated"
        ).count()

    tournament_update(tournament=tournament, info=info_of(tournament), by=organiser)
    assert updates() == 0
    renamed = TournamentInfo(**(info_of(tournament).__dict__ | {"name": "Renamed cup"}))
    tournament_update(tournament=tournament, info=renamed, by=organiser)
    assert updates() == 1
    tournament.refresh_from_db()
    assert tournament.name == "Renamed cup"
