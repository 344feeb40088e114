"""Tournament-level penalties: lateness and lobby violations (online addendum)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from mafiatab.core.regulations import (
    PENALTY_LATENESS,
    PENALTY_LOBBY_FINE,
    PENALTY_LOBBY_REMOVAL,
    PENALTY_LOBBY_WARNING,
)


class Kind(models.TextChoices):
    LATENESS = PENALTY_LATENESS, _("late for a round (more than 5 minutes)")
    LOBBY_WARNING = PENALTY_LOBBY_WARNING, _("lobby violation: warning")
    LOBBY_FINE = PENALTY_LOBBY_FINE, _("lobby violation: fine")
    LOBBY_REMOVAL = PENALTY_LOBBY_REMOVAL, _("lobby violation: removal from the tournament")
    OTHER = "other", _("other disciplinary penalty")


class Penalty(models.Model):
    """One tournament-level penalty. A cancelled penalty stays, marked as cancelled."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="penalties"
    )
    player = models.CharField(_("player"), max_length=64, help_text=_("Nickname in protocols."))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=4)
    reason = models.TextField(_("reason"))
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    stage = models.CharField(_("stage"), max_length=16, blank=True, default="")
    """The stage of `round` ("qualifying", "semifinal", "final": each stage numbers its
    rounds from 1), blank when the penalty names no round or was given before stages were
    told apart (then it counts for the round in every stage)."""
    created_at = models.DateTimeField(auto_now_add=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    cancel_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.player}: {self.points} ({self.reason})"

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled_at is not None
