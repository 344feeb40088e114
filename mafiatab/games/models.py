"""Stored game protocols, one row per game and per seat, extra, penalty and removal."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

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


class Game(models.Model):
    """A confirmed game protocol of a tournament."""

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
    winner = models.CharField(_("winner"), max_length=8, choices=WINNER_CHOICES)
    first_killed = models.PositiveSmallIntegerField(_("killed first night"), null=True, blank=True)
    best_move = models.JSONField(_("best move"), default=list, blank=True)
    replayed = models.BooleanField(_("replayed"), default=False)

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


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=64)
    role = models.CharField(max_length=8, choices=ROLE_CHOICES)
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
