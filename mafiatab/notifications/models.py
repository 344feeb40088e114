"""The inbox (one row per message and reader), the outbox of the further channels,
and each person's choices."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mafiatab.notifications.kinds import zone_named

#: Room for the link of a message (a path of the site).
LINK_LENGTH = 300


class Notification(models.Model):
    """One message to one account: its kind and parameters, said in the reader's
    language when it is read (never stored as text)."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=48)
    params = models.JSONField(default=dict, blank=True)
    link = models.CharField(max_length=LINK_LENGTH, blank=True)
    #: The tournament it is about (a plain number: this app stands below tournaments).
    tournament_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    #: The time zone of that tournament, its times are said in (empty: the site's); kept
    #: in step by the tournament's services when its time zone changes.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["recipient", "read_at"], name="notifications_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient_id}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None

    def zone(self) -> dt.tzinfo:
        """The time zone its times are said in: its tournament's, else the site's (also
        when this machine no longer knows the tournament's)."""
        return zone_named(self.time_zone) or timezone.get_default_timezone()


class DeliveryState(models.TextChoices):
    QUEUED = "queued", _("queued")
    SENDING = "sending", _("sending")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class Delivery(models.Model):
    """The outbox: one message to be handed to one further channel (e-mail), sent by
    the outbox worker, never inside a request."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(_("channel"), max_length=16)
    address = models.CharField(_("address"), max_length=254)
    state = models.CharField(
        _("state"), max_length=8, choices=DeliveryState.choices, default=DeliveryState.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    #: Who holds a row being sent, and until when (a drainer that died lets it go).
    claim = models.CharField(max_length=32, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    error = models.TextField(_("reason"), blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="notifications_due"),
        ]

    def __str__(self) -> str:
        return f"{self.channel}:{self.address} ({self.state})"


class Preferences(models.Model):
    """A person's choices: the language of his messages away from the site and the
    kinds he does not want by e-mail."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    language = models.CharField(_("language"), max_length=8, blank=True)
    email_off = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
