"""The forms of the rounds page: a round, its tables, its time and place, a player
late for it, and another judge for a table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from mafiatab.core.names import MAX_NICKNAME
from mafiatab.core.protocol import SEATS
from mafiatab.games.models import STAGE_CHOICES
from mafiatab.tournaments.bounds import (
    MAX_SMALL,
    BoundedDateTimeField,
    BoundedIntegerField,
)
from mafiatab.widgets import HtmlForm


class RoundForm(HtmlForm):
    stage = forms.ChoiceField(label=gettext_lazy("Stage"), choices=STAGE_CHOICES)
    number = BoundedIntegerField(label=gettext_lazy("Round"), min_value=1, max_value=MAX_SMALL)


class RoundScheduleForm(HtmlForm):
    """When and where a round is played: its start time, its place and, online, the
    room or platform link."""

    starts_at = BoundedDateTimeField(label=gettext_lazy("Starts at"), required=False)
    place = forms.CharField(label=gettext_lazy("Place"), max_length=200, required=False)
    link = forms.URLField(
        label=gettext_lazy("Link (online)"),
        max_length=500,
        required=False,
        assume_scheme="https",
        help_text=gettext_lazy("The room or platform link of an online round."),
    )
    stamp = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    """The stamp of the schedule shown: a save over a change made meanwhile is refused."""


class LatenessForm(HtmlForm):
    """A player late for a round: the minutes are measured from the round's start."""

    player = forms.CharField(
        label=gettext_lazy("Player"),
        max_length=MAX_NICKNAME,
        widget=forms.TextInput(attrs={"list": "seat-choices", "autocomplete": "off"}),
    )
    arrived_at = BoundedDateTimeField(
        label=gettext_lazy("Arrived at"),
        help_text=gettext_lazy("Lateness is counted from the round's start time."),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, required=False)


#: The id of the list of participants that a seat's input offers as you type.
SEAT_CHOICES_ID = "seat-choices"


class TableForm(HtmlForm):
    """A table of a round: its number, its judge and the ten participants by seat.

    Each seat takes a participant's nickname in any case (the page offers the
    participants as you type); the service resolves them to registrations."""

    number = BoundedIntegerField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_SMALL)
    judge = forms.ChoiceField(label=gettext_lazy("Judge"), required=False)

    def __init__(self, *args: Any, judges: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].choices = [("", "—"), *judges]
        for n in SEATS:
            self.fields[f"player_{n}"] = forms.CharField(
                label=gettext_lazy("Seat %(n)d") % {"n": n},
                max_length=MAX_NICKNAME,
                required=False,
                widget=forms.TextInput(attrs={"list": SEAT_CHOICES_ID, "autocomplete": "off"}),
            )

    def players_list(self) -> tuple[str, ...]:
        """The ten nicknames as typed, seat 1 first (empty seats included)."""
        return tuple(self.cleaned_data.get(f"player_{n}", "").strip() for n in SEATS)


class TableJudgeForm(HtmlForm):
    """Another judge (or none) for a table of a published round."""

    judge = forms.ChoiceField(label=gettext_lazy("Judge"), required=False)

    def __init__(self, *args: Any, judges: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].choices = [("", "—"), *judges]
