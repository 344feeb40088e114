"""Stages, rounds and tables; game protocols with their versions; protests.

A `Game` holds the current state of one protocol in rows (seats, extras,
penalties, removals) so that scoring reads it fast; every save of a protocol is
also kept as an immutable `ProtocolVersion`, so nothing is ever lost.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from mafiatab.messages import reason_text

STAGE_CHOICES = [
    ("qualifying", _("qualifying")),
    ("semifinal", _("semifinal")),
    ("final", _("final")),
]
WINNER_CHOICES = [("red", _("red")), ("black", _("black")), ("draw", _("draw"))]
ROLE_CHOICES = [
    ("red", _("red")),
    ("sheriff", _("sheriff")),
    ("black", _("black")),
    ("don", _("don")),
]


class GameStatus(models.TextChoices):
    """Where a protocol stands: being filled, signed by the table judge, confirmed."""

    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")


class Round(models.Model):
    """A round (tour) of one stage of a tournament."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="rounds"
    )
    stage = models.CharField(_("stage"), max_length=16, choices=STAGE_CHOICES)
    number = models.PositiveIntegerField(_("round"))
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    """When the round's games start; lateness is measured from it."""
    place = models.CharField(_("place"), max_length=200, blank=True)
    """Where the round is played (a hall, a room)."""
    link = models.URLField(_("link"), max_length=500, blank=True)
    """The room or platform link of an online round."""

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "stage", "number"], name="games_round_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_stage_display()} {self.number}"


class Table(models.Model):
    """One table of a round: its judge and its ten seats."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="judged_tables",
        null=True,
        blank=True,
        verbose_name=_("judge"),
    )
    side_judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="side_judged_tables",
        null=True,
        blank=True,
        verbose_name=_("side judge"),
        help_text=_("Online addendum 2.6: the judge who watches the players' screens."),
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="games_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, {_('table')} {self.number}"

    @property
    def tournament_id(self) -> int:
        return self.round.tournament_id


class TableSeat(models.Model):
    """A participant seated at a table (seat 1..10): a registration, never free text."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    registration = models.ForeignKey(
        "registrations.Registration",
        on_delete=models.PROTECT,
        related_name="table_seats",
        verbose_name=_("participant"),
    )

    @property
    def player(self) -> str:
        """The participant's nickname as registered."""
        return self.registration.nickname

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_table_seat_unique"),
        ]


class GameManager(models.Manager["Game"]):
    def locked(self, game: Game | int) -> Game:
        """The game's row (only its own, not the tournament's), fresh and locked for the
        transaction, with its tournament and published table: every writer of a protocol
        (its versions, its console log, protests) takes it first."""
        pk = game if isinstance(game, int) else game.pk
        return (
            self.select_for_update(of=("self",))
            .select_related("tournament", "table_slot")
            .get(pk=pk)
        )


class Game(models.Model):
    """One game protocol of a tournament in its current version."""

    objects = GameManager()

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="games"
    )
    position = models.PositiveIntegerField(help_text=_("Order of the game in the tournament."))
    label = models.CharField(_("game"), max_length=64)
    stage = models.CharField(_("stage"), max_length=16, choices=STAGE_CHOICES)
    round = models.PositiveIntegerField(_("round"), null=True, blank=True)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    date = models.CharField(_("date"), max_length=32, blank=True, null=True)
    judge = models.CharField(_("judge"), max_length=64, blank=True, null=True)
    winner = models.CharField(_("winner"), max_length=8, choices=WINNER_CHOICES, blank=True)
    first_killed = models.PositiveSmallIntegerField(_("killed first night"), null=True, blank=True)
    best_move = models.JSONField(_("best move"), default=list, blank=True)
    replayed = models.BooleanField(_("replayed"), default=False)
    voting = models.JSONField(_("voting"), default=list, blank=True)
    table_slot = models.OneToOneField(
        Table, on_delete=models.PROTECT, related_name="game", null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=16, choices=GameStatus.choices, default=GameStatus.CONFIRMED
    )
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("The number of the current version.")
    )
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    replay = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        related_name="replay_of",
        null=True,
        blank=True,
        help_text=_("The game that replays this one (online addendum)."),
    )

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "label"], name="games_label_unique"),
            models.UniqueConstraint(
                fields=["tournament", "position"], name="games_position_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def is_confirmed(self) -> bool:
        return self.status == GameStatus.CONFIRMED

    @property
    def judge_user_id(self) -> int | None:
        """The account of the table's judge (None for an imported game)."""
        slot = self.table_slot
        return slot.judge_id if slot is not None else None

    def protest_deadline(self) -> dt.datetime | None:
        """When protests against the game stop being accepted: the regulation's window
        after its protocol's submission (8.9.1); None before the submission."""
        if self.submitted_at is None:
            return None
        minutes = self.tournament.regulation.protest_window_minutes
        return self.submitted_at + dt.timedelta(minutes=minutes)

    def seat_of_user(self, user: Any) -> int | None:
        """The seat `user` played in this game through his registration (None if he did
        not). A nickname never decides it: a rename moves nobody into a seat."""
        if user is None or not user.is_authenticated:
            return None
        return (
            self.seats.filter(registration__user=user)
            .values_list("number", flat=True)
            .order_by("number")
            .first()
        )


class GameSeat(models.Model):
    """A seat of the current protocol: an index derived from the protocol's JSON, with
    the registration its nickname resolves to in the tournament."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=64)
    registration = models.ForeignKey(
        "registrations.Registration",
        on_delete=models.PROTECT,
        related_name="game_seats",
        null=True,
        blank=True,
    )
    role = models.CharField(max_length=8, choices=ROLE_CHOICES, blank=True)
    fouls = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_seat_unique"),
        ]


class GameExtra(models.Model):
    """Judge extra points (8.4)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extras")
    position = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    points = models.DecimalField(max_digits=8, decimal_places=4)
    reason = models.TextField(blank=True)
    chief_approved = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "position"]


class GamePenalty(models.Model):
    """A 8.5 penalty."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties")
    position = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    rule = models.CharField(max_length=16)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "position"]


class GameRemoval(models.Model):
    """A removal from the table (8.2.4)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="removals")
    position = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    reason = models.TextField(blank=True)
    online = models.BooleanField(default=False)
    fined = models.BooleanField(default=True)

    class Meta:
        ordering = ["game", "position"]


#: What made each version of a protocol, as the history page names it.
VERSION_ACTIONS = {
    "created": pgettext_lazy("protocol version", "created"),
    "imported": pgettext_lazy("protocol version", "imported from a tournament file"),
    "saved": pgettext_lazy("protocol version", "saved as a draft"),
    "submitted": pgettext_lazy("protocol version", "signed and submitted"),
    "changed": pgettext_lazy("protocol version", "changed after confirmation"),
    "confirmed": pgettext_lazy("protocol version", "confirmed"),
    "returned": pgettext_lazy("protocol version", "returned to the judge"),
    "replayed": pgettext_lazy("protocol version", "marked replayed"),
    "protest": pgettext_lazy("protocol version", "changed by a protest decision"),
    "replaced": pgettext_lazy("protocol version", "a reserve took a seat"),
    "reseated": pgettext_lazy("protocol version", "seated again after a replacement"),
    "judge": pgettext_lazy("protocol version", "the table given to another judge"),
}

#: The status an action's words already say.
_ACTION_STATUS = {
    "saved": GameStatus.DRAFT,
    "submitted": GameStatus.SUBMITTED,
    "confirmed": GameStatus.CONFIRMED,
}


class ProtocolVersion(models.Model):
    """One saved state of a protocol. Versions are never changed or deleted.

    `data` is the protocol in the tournament file's form (`protocol_to_dict`; a
    draft may lack a winner or roles) plus its `"voting"` blocks.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    data = models.JSONField()
    status = models.CharField(_("status"), max_length=16, choices=GameStatus.choices)
    action = models.CharField(_("action"), max_length=32)
    reason = models.TextField(_("reason"), blank=True)
    reason_code = models.CharField(max_length=64, blank=True, default="")
    """A reason the server wrote (`messages.STORED_REASONS`); `reason` stays empty."""
    reason_params = models.JSONField(default=dict, blank=True)
    """The parameters of `reason_code`."""
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("author"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.number}"

    @property
    def action_display(self) -> str:
        """What made this version, in the reader's language."""
        return str(VERSION_ACTIONS.get(self.action, self.action))

    @property
    def status_display(self) -> str:
        """The protocol's status after this version, when the action's words do not say
        it already ("signed and submitted" is submitted, "saved as a draft" a draft:
        said once)."""
        if _ACTION_STATUS.get(self.action) == self.status:
            return ""
        status = str(self.get_status_display())
        return "" if status == self.action_display else status

    @property
    def reason_text(self) -> str:
        """Why this version was made, in the reader's language when the server wrote it."""
        return reason_text(self.reason_code, self.reason_params, self.reason)


class ProtocolPdf(models.Model):
    """The PDF of a confirmed protocol version as it was first printed: an official
    document, rendered once and kept with its version.

    One per version, language and `digest` (of what the sheet prints): a sheet that
    prints something else for the same version (a protest decided without changing
    the protocol, the tournament renamed) is a document of its own, kept beside the
    first. A provisional protocol's PDF is never kept; a change of a confirmed
    protocol is a new version, so the old version keeps its own PDF."""

    version = models.ForeignKey(ProtocolVersion, on_delete=models.CASCADE, related_name="pdfs")
    language = models.CharField(max_length=16)
    digest = models.CharField(max_length=64)  # SHA-256 of what the sheet prints
    pdf = models.BinaryField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["version", "language", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "language", "digest"], name="games_protocol_pdf_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} ({self.language})"


class ProtestStatus(models.TextChoices):
    OPEN = "open", _("awaiting decision")
    UPHELD = "upheld", _("upheld")
    # "rejected" alone is a registration's (an application, feminine in Russian).
    REJECTED = "rejected", pgettext_lazy("protest", "rejected")


class Protest(models.Model):
    """A player's protest against the result of a game (8.9)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="protests")
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="protests"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    text = models.TextField(_("protest"))
    filed_at = models.DateTimeField(_("filed"))
    status = models.CharField(
        _("status"), max_length=16, choices=ProtestStatus.choices, default=ProtestStatus.OPEN
    )
    decision = models.TextField(_("decision"), blank=True)
    by_committee = models.BooleanField(_("decided by the appeal committee"), default=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    version = models.ForeignKey(
        ProtocolVersion,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text=_("The protocol version the decision made, if it changed the protocol."),
    )

    class Meta:
        ordering = ["filed_at", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.text[:40]}"

    @property
    def is_open(self) -> bool:
        return self.status == ProtestStatus.OPEN
