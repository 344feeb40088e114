"""Applications, participants, the waiting list, check-in and replacements."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.db import models
from django.utils.translation import gettext_lazy as _

from mafiatab.core.names import nickname_key

#: What a calendar feed's secret is signed for (no other signature of the site matches).
CALENDAR_SALT = "mafiatab.registrations.calendar"

#: Room for a nickname's key: case folding may lengthen a name (ß -> ss).
KEY_LENGTH = 256


class Status(models.TextChoices):
    PENDING = "pending", _("awaiting confirmation")
    APPROVED = "approved", _("participant")
    WAITING = "waiting", _("waiting list")
    REJECTED = "rejected", _("rejected")
    WITHDRAWN = "withdrawn", _("withdrawn")
    REMOVED = "removed", _("removed from the tournament")
    RESERVE = "reserve", _("reserve")


#: Statuses that hold a place (or a claim to one) in the tournament.
ACTIVE_STATUSES = (Status.PENDING, Status.APPROVED, Status.WAITING)
#: Statuses whose nickname no other registration of the tournament may share.
NAMED_STATUSES = (*ACTIVE_STATUSES, Status.RESERVE)
#: Who may sit at a table, and whom the lists of participants show: the participants
#: and the reserves who replaced one (a reserve is not counted among the participants).
SEATED_STATUSES = (Status.APPROVED, Status.RESERVE)
#: The only statuses after which a person may apply to the tournament again: his
#: application ended without him taking part. Any other keeps him on its lists (a
#: reserve who replaced a participant, one the organiser removed): he sees his status.
REAPPLY_STATUSES = (Status.WITHDRAWN, Status.REJECTED)


class Registration(models.Model):
    """One person's application to one tournament, and what became of it.

    Registrations are never deleted: a withdrawn or rejected one stays in the history.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="registrations",
        null=True,
        blank=True,
        help_text=_("Empty for players known only by the nickname in imported protocols."),
    )
    nickname = models.CharField(_("nickname"), max_length=64)
    nickname_key = models.CharField(
        max_length=KEY_LENGTH,
        editable=False,
        help_text="The nickname's identity (mafiatab.core.names.nickname_key).",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(_("applied"), auto_now_add=True)
    waiting_since = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    calendar_key = models.CharField(max_length=32, blank=True, default="", editable=False)
    """A part of the calendar feed's secret the player renews to end an address he
    shared by mistake (empty: the address it had first)."""
    platform_account = models.CharField(_("account on the platform"), max_length=100, blank=True)
    """Online addendum 2.2: the player's account on the tournament's platform."""
    screen_link = models.URLField(_("screen share link"), max_length=500, blank=True)
    """Online addendum 2.5: where the player's screen is shared."""
    camera_link = models.URLField(_("side camera link"), max_length=500, blank=True)
    """Online addendum 2.5: the player's side camera."""

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(status__in=["pending", "approved", "waiting"]),
                name="registrations_one_active_per_user",
            ),
            models.UniqueConstraint(
                fields=["tournament", "nickname_key"],
                condition=models.Q(status__in=["pending", "approved", "waiting", "reserve"]),
                name="registrations_one_active_per_nickname",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nickname} ({self.get_status_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # the key is an index of the nickname, derived whenever the row is written
        self.nickname_key = nickname_key(self.nickname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nickname" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_key"}
        super().save(*args, **kwargs)

    @property
    def is_seated_status(self) -> bool:
        """A participant or a reserve: someone who may hold a seat."""
        return self.status in SEATED_STATUSES

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def may_apply_again(self) -> bool:
        """His application ended without him taking part (`REAPPLY_STATUSES`)."""
        return self.status in REAPPLY_STATUSES

    @property
    def has_online_links(self) -> bool:
        """The online addendum's details are given: the account (2.2), the screen share
        and the side camera (2.5)."""
        return bool(self.platform_account and self.screen_link and self.camera_link)

    @property
    def calendar_token(self) -> str:
        """The secret of this player's calendar feed: a signature of the registration,
        so a calendar app subscribes without the player's session."""
        signed = f"{self.pk}:{self.calendar_key}" if self.calendar_key else str(self.pk)
        return signing.Signer(salt=CALENDAR_SALT).signature(signed)

    def has_calendar_token(self, token: str) -> bool:
        return signing.constant_time_compare(token, self.calendar_token)


class CheckIn(models.Model):
    """A participant confirmed presence before one day of the tournament."""

    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="checkins"
    )
    day = models.PositiveSmallIntegerField(_("day"))
    created_at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["day", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "day"], name="registrations_checkin_once"
            ),
        ]


class ReplacementScope(models.TextChoices):
    """What a replacement covers: the round it is made for, or every round from it on."""

    ROUND = "round", _("this round only")
    REST = "rest", _("for the rest of the tournament")


class Replacement(models.Model):
    """A reserve plays instead of a participant more than 15 minutes late: the round it
    is made for only (the participant keeps his later rounds), or that round and the
    rest of the tournament."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="replacements"
    )
    round = models.PositiveSmallIntegerField(_("round"))
    absent = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="replaced_in")
    reserve_nickname = models.CharField(_("reserve"), max_length=64)
    reserve = models.ForeignKey(
        Registration,
        on_delete=models.PROTECT,
        related_name="replacing",
        null=True,
        blank=True,
        help_text=_("The reserve's registration (status reserve, or a participant's)."),
    )
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"))
    scope = models.CharField(
        _("replaced for"),
        max_length=8,
        choices=ReplacementScope.choices,
        default=ReplacementScope.ROUND,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["round", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["absent", "round"], name="registrations_replaced_once"),
        ]


class Advancement(models.Model):
    """A participant who advanced into a stage (semifinal or final) by its published
    advance list. A player swapped out for the next in line keeps his row with
    `active` off, and the row of the one who replaced him names it in `replaces`.

    The advanced players are the only participants the stage's seating draws. (The
    advance list is made by the standings; the record lives here, beside the
    participants, so that the seating below the standings can read it.)
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="advancements"
    )
    stage = models.CharField(_("stage"), max_length=16)
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="advancements"
    )
    place = models.PositiveIntegerField(
        _("place"), help_text=_("His place in the advance list (1 = first).")
    )
    active = models.BooleanField(_("advanced"), default=True)
    replaces = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("The advanced player he replaced (a swap after publishing)."),
    )
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["tournament", "stage", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "registration"],
                name="registrations_advanced_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} -> {self.stage}"
