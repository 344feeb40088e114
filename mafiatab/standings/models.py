"""Computed standings, kept so that the core computes them once per change.

A snapshot holds the standings of one tournament at one `standings_version` (official
or provisional) in an exact JSON form, and every player's explanation beside it. Rows
are shared by every process serving the application; old versions are deleted when a
newer one is stored, except the one the public sees while the standings are frozen.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class StandingsSnapshot(models.Model):
    """The standings of a tournament at one version of its scoring inputs."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="standings_snapshots"
    )
    version = models.PositiveIntegerField(_("version"))
    provisional = models.BooleanField(_("provisional"), default=False)
    inputs = models.CharField(
        max_length=200,
        help_text="The tournament's scoring settings the snapshot was computed with.",
    )
    computed_at = models.DateTimeField(_("computed at"))
    data = models.JSONField(help_text="The standings with exact numbers (see services).")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version", "provisional", "inputs"],
                name="standings_snapshot_unique",
            ),
        ]

    def __str__(self) -> str:
        kind = "provisional" if self.provisional else "official"
        return f"{self.tournament_id} v{self.version} {kind}"


class PlayerExplanation(models.Model):
    """Every line of one player's points in a snapshot, grouped by game."""

    snapshot = models.ForeignKey(
        StandingsSnapshot, on_delete=models.CASCADE, related_name="explanations"
    )
    player = models.CharField(max_length=64)
    data = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "player"], name="standings_explanation_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.player
