"""Seating drafts: a generated schedule of a stage, kept for comparison until one is published."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from mafiatab.games.models import STAGE_CHOICES


class DraftStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")


class SeatingDraft(models.Model):
    """One generated seating of a stage: the inputs, the schedule file, its quality.

    Drafts are never edited: another seed makes another draft, and at most one draft
    of a stage is published (its rounds and tables then exist in the games).
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="seating_drafts"
    )
    stage = models.CharField(_("stage"), max_length=16, choices=STAGE_CHOICES)
    games_per_player = models.PositiveSmallIntegerField(_("games per player"))
    tables = models.PositiveSmallIntegerField(_("tables in play at once"))
    seed = models.BigIntegerField(_("seed"))
    options = models.JSONField(
        _("options"),
        default=dict,
        blank=True,
        help_text=_("Groups kept apart and players fixed to a table, as given."),
    )
    schedule = models.JSONField(
        _("schedule"), help_text=_("The schedule file (mafiatab-seating/1).")
    )
    metrics = models.JSONField(_("metrics"))
    flags = models.JSONField(_("compromises"), default=list, blank=True)
    judges = models.JSONField(
        _("judges"),
        default=dict,
        blank=True,
        help_text=_("Table number -> the judge's nickname, chosen when publishing."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=DraftStatus.choices, default=DraftStatus.DRAFT
    )
    created_at = models.DateTimeField(_("generated"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("seating draft")
        verbose_name_plural = _("seating drafts")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage"],
                condition=models.Q(status="published"),
                name="seating_one_published_per_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.stage} · seed {self.seed}"

    def get_absolute_url(self) -> str:
        return reverse("seating:draft", kwargs={"slug": self.tournament.slug, "pk": self.pk})

    @property
    def is_published(self) -> bool:
        return self.status == DraftStatus.PUBLISHED

    @property
    def players(self) -> list[str]:
        return list(self.schedule.get("players", []))

    @property
    def rounds(self) -> list[dict[str, Any]]:
        return list(self.schedule.get("rounds", []))

    def judge_of(self, table: int) -> str:
        """The nickname of the judge of a physical table ('' when none is known)."""
        return str(self.judges.get(str(table), ""))
