"""Tournaments and the people who run them."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mafiatab.audit.services import audit_record
from mafiatab.core.regulations import REGULATIONS, Regulation, get_regulation

if TYPE_CHECKING:
    from mafiatab.accounts.models import User
    from mafiatab.audit.models import AuditEntry

RULESET_LABELS = {
    "fiim": _("FIIM tournament rules"),
    "fiim-online": _("FIIM tournament rules with the addendum for online tournaments"),
}
RULESET_CHOICES = [(code, RULESET_LABELS.get(code, reg.title)) for code, reg in REGULATIONS.items()]


class TournamentManager(models.Manager["Tournament"]):
    def locked(self, tournament: Tournament | int) -> Tournament:
        """The tournament's row, fresh and locked for the transaction: every writer that
        decides by the tournament's state (registrations, stages, advancing) takes it first,
        so two writers are served one after the other."""
        pk = tournament if isinstance(tournament, int) else tournament.pk
        return self.select_for_update().get(pk=pk)


class Tournament(models.Model):
    """A tournament: its information, settings and the stored protocols' container."""

    objects = TournamentManager()

    slug = models.SlugField(_("address"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.CharField(_("ruleset"), max_length=32, choices=RULESET_CHOICES)
    starts_on = models.DateField(_("first day"), null=True, blank=True)
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True)
    platform = models.CharField(_("online platform"), max_length=100, blank=True)
    stars = models.PositiveSmallIntegerField(
        _("stars"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
        help_text=_("The tournament's status in stars."),
    )
    description = models.TextField(_("about the tournament"), blank=True)
    participant_limit = models.PositiveIntegerField(
        _("participant limit"),
        null=True,
        blank=True,
        help_text=_("Beyond it approved players join the waiting list. Empty: no limit."),
    )
    waiting_list_limit = models.PositiveIntegerField(
        _("waiting list limit"),
        null=True,
        blank=True,
        help_text=_("Empty: no limit."),
    )
    registration_open = models.BooleanField(_("registration open"), default=True)
    participants = models.PositiveIntegerField(
        _("participants for 8.7"),
        null=True,
        blank=True,
        help_text=_(
            "Registered participants counted by section 8.7. "
            "Empty: the players seated in the games."
        ),
    )
    games_before_final = models.PositiveIntegerField(
        _("games before the final"),
        null=True,
        blank=True,
        help_text=_(
            "Games one player is scheduled to play before the final (8.6). Empty: derived."
        ),
    )
    lot_seed = models.BigIntegerField(_("lot seed"), default=0)
    stream_url = models.URLField(
        _("stream address"),
        max_length=300,
        blank=True,
        help_text=_("Where the tournament is streamed; shown beside the tables' overlays."),
    )
    language = models.CharField(
        _("language of the broadcast"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The overlays, the result cards and the standings strip speak it."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("The schedule's times are said in it (empty: the site's time zone)."),
    )
    stage_plan = models.JSONField(
        _("stage plan"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "The stages in order, as the tournament file's stages (validated by the core). "
            "Empty: qualifying rounds alone."
        ),
    )
    closed_at = models.DateTimeField(
        _("closed at"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "When the organiser closed the tournament; hidden final extras show from then."
        ),
    )
    checkin_day = models.PositiveSmallIntegerField(
        _("check-in open for day"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The day players check in for themselves now (empty: closed)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    standings_version = models.PositiveIntegerField(
        _("standings version"),
        default=0,
        editable=False,
        help_text=_("Raised by every change of what the standings are computed from."),
    )
    standings_hidden = models.BooleanField(
        _("standings hidden"),
        default=False,
        help_text=_("Only the tournament's staff see the standings."),
    )
    standings_frozen_version = models.PositiveIntegerField(
        _("frozen standings version"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The public sees the standings as they were at this version."),
    )
    standings_frozen_at = models.DateTimeField(
        _("standings frozen at"), null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["-starts_on", "-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})

    @property
    def regulation(self) -> Regulation:
        return get_regulation(self.ruleset)

    @property
    def is_closed(self) -> bool:
        """True once the organiser closed the tournament."""
        return self.closed_at is not None

    @property
    def is_online(self) -> bool:
        return self.regulation.online

    def zone(self) -> dt.tzinfo:
        """The time zone the schedule is said in: the tournament's, else the site's
        (also when this machine no longer knows the tournament's)."""
        if self.time_zone:
            try:
                return zoneinfo.ZoneInfo(self.time_zone)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                pass
        return timezone.get_default_timezone()

    def day_count(self) -> int:
        """Number of tournament days (1 when the dates are not known)."""
        if self.starts_on and self.ends_on and self.ends_on >= self.starts_on:
            return (self.ends_on - self.starts_on).days + 1
        return 1

    def staff(self, role: str) -> list[User]:
        """The active staff members holding `role`."""
        return [m.user for m in self.staff_members.filter(role=role).select_related("user")]

    def log_action(
        self,
        action: str,
        *,
        by: User | None,
        target: str = "",
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
    ) -> AuditEntry:
        """Record a change of this tournament's state in the audit log."""
        return audit_record(
            tournament_id=self.pk, action=action, by=by, target=target, before=before, after=after
        )

    def standings_changed(self) -> None:
        """Record that the scoring inputs changed (protocols, protests, replays,
        penalties, participants, scoring settings, imports): `standings_version` goes up
        by one in one atomic update, and the next reading of the standings recomputes.

        Call it inside the transaction of the change, so that the new version and the
        changed rows become visible together.
        """
        Tournament.objects.filter(pk=self.pk).update(standings_version=F("standings_version") + 1)
        self.refresh_from_db(fields=["standings_version"])


class StaffRole(models.TextChoices):
    ORGANISER = "organiser", _("organiser")
    CHIEF_JUDGE = "chief_judge", _("chief judge")
    TABLE_JUDGE = "table_judge", _("table judge")


class StaffMember(models.Model):
    """A person holding a staff role in one tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="staff_members"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_roles"
    )
    role = models.CharField(_("role"), max_length=16, choices=StaffRole.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournaments_staff_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"
