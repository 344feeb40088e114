"""The judge console's game logs: a log per game of a published table, and its entries.

The log is stored as entries in the order they were made. An entry is either one of
the judge's events (`mafiatab-game-log/1`) or an `undo` of the last event still in
force; an undone event is kept (with the undo that took it back) but left out of
the log that is replayed. Each entry carries the id the browser gave it, so a resend
is recognised and answered with the stored result.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GameLogManager(models.Manager["GameLog"]):
    def locked(self, log: GameLog) -> GameLog:
        """The log's row, fresh and locked for the transaction, with its game and the
        game's tournament: every writer of the log (an event, an undo, the place, the
        end) takes it first, so that two appends are served one after the other."""
        return self.select_for_update().select_related("game__tournament").get(pk=log.pk)


class GameLog(models.Model):
    """The log of one game run on the console: its header and where it stands."""

    objects = GameLogManager()

    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="console_log", verbose_name=_("game")
    )
    header = models.JSONField(
        help_text=_("The log document without its events: table settings, seats, roles.")
    )
    last_number = models.PositiveIntegerField(
        default=0, help_text=_("The number of the last entry (0 before the first).")
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    place = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "Where the judge stands: the day, the speech and the timer (not an event of "
            "the rules; another device of the table's judges continues from it)."
        ),
    )
    place_revision = models.PositiveIntegerField(
        default=0, help_text=_("How many times the place was saved.")
    )
    place_at = models.DateTimeField(null=True, blank=True, help_text=_("When the place was saved."))
    ready = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "The lobby's ready check before the first speech, seat by seat: microphone, "
            "connection, camera and the player's confirmation (not an event of the rules)."
        ),
    )
    ready_revision = models.PositiveIntegerField(
        default=0, help_text=_("How many times the ready check was saved.")
    )

    class Meta:
        verbose_name = _("game log")

    def __str__(self) -> str:
        return f"log of {self.game}"

    @property
    def is_closed(self) -> bool:
        """True once its protocol was made: no more entries."""
        return self.finished_at is not None


class EntryKind(models.TextChoices):
    EVENT = "event", _("event")
    UNDO = "undo", _("undo")


class LogEntry(models.Model):
    """One entry of a game log: an event, or the undo of the last event in force."""

    log = models.ForeignKey(GameLog, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField(help_text=_("1 for the first entry, and so on."))
    client_id = models.UUIDField(unique=True, help_text=_("The id the console gave the entry."))
    kind = models.CharField(max_length=8, choices=EntryKind.choices)
    event = models.JSONField(null=True, blank=True, help_text=_("The event, for an event."))
    undoes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        related_name="undone_by",
        null=True,
        blank=True,
        help_text=_("The event this undo took back."),
    )
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["log", "number"]
        constraints = [
            models.UniqueConstraint(fields=["log", "number"], name="console_entry_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.log_id}#{self.number} {self.kind}"


class DirectorLink(models.Model):
    """A private link to the director's view of a tournament's overlays (the roles
    shown while the games run), made by the chief judge and valid until he revokes it."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="director_links",
        verbose_name=_("tournament"),
    )
    token = models.CharField(max_length=64, unique=True, help_text=_("The link's secret."))
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("director's link")

    def __str__(self) -> str:
        return f"director's link {self.pk} of {self.tournament_id}"

    @property
    def is_active(self) -> bool:
        """True until revoked."""
        return self.revoked_at is None


class ReportStatus(models.TextChoices):
    PENDING = "pending", _("awaiting the table judge")
    ACCEPTED = "accepted", _("accepted: the player is removed")
    DISMISSED = "dismissed", _("dismissed")


class ViolationReport(models.Model):
    """A side judge's report of a violation of the online addendum (4.1) by a seat: a
    proposed removal that the table judge accepts (the removal goes into the log) or
    dismisses. The report is no event of the rules; it is kept beside the log."""

    log = models.ForeignKey(GameLog, on_delete=models.CASCADE, related_name="reports")
    seat = models.PositiveSmallIntegerField(_("seat"))
    reason = models.CharField(_("reason"), max_length=300)
    status = models.CharField(
        max_length=12, choices=ReportStatus.choices, default=ReportStatus.PENDING
    )
    reported_at = models.DateTimeField(default=timezone.now)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    entry = models.OneToOneField(
        LogEntry,
        on_delete=models.PROTECT,
        related_name="report",
        null=True,
        blank=True,
        help_text=_("The removal entered in the log when the report was accepted."),
    )

    class Meta:
        ordering = ["log", "reported_at", "pk"]
        verbose_name = _("side judge's report")

    def __str__(self) -> str:
        return f"report {self.pk}: seat {self.seat} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status == ReportStatus.PENDING
