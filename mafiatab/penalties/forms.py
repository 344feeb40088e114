from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mafiatab.core.regulations import Regulation
from mafiatab.penalties.services import givable_kinds
from mafiatab.tournaments.bounds import MAX_SMALL, BoundedIntegerField
from mafiatab.widgets import HtmlForm


class PenaltyForm(HtmlForm):
    player = forms.CharField(
        label=_("Player"), max_length=64, widget=forms.TextInput(attrs={"list": "players"})
    )
    kind = forms.ChoiceField(label=_("Penalty"))
    minutes_late = BoundedIntegerField(
        label=_("Minutes late"),
        min_value=0,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("For lateness: fined when more than 5 minutes."),
    )
    round = BoundedIntegerField(label=_("Round"), min_value=1, max_value=MAX_SMALL, required=False)
    reason = forms.CharField(label=_("Reason"), max_length=500)

    def __init__(self, *args: Any, regulation: Regulation, **kwargs: Any) -> None:
        """The kinds offered are those the tournament's regulation has."""
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.value, k.label) for k in givable_kinds(regulation)]


class CancelForm(HtmlForm):
    reason = forms.CharField(label=_("Reason for the cancellation"), max_length=500)
