from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mafiatab.penalties.models import Kind
from mafiatab.tournaments.bounds import MAX_SMALL, BoundedIntegerField
from mafiatab.widgets import HtmlForm

GIVABLE = [(k.value, k.label) for k in Kind if k is not Kind.OTHER]


class PenaltyForm(HtmlForm):
    player = forms.CharField(
        label=_("Player"), max_length=64, widget=forms.TextInput(attrs={"list": "players"})
    )
    kind = forms.ChoiceField(label=_("Penalty"), choices=GIVABLE)
    minutes_late = BoundedIntegerField(
        label=_("Minutes late"),
        min_value=0,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("For lateness: fined when more than 5 minutes."),
    )
    round = BoundedIntegerField(label=_("Round"), min_value=1, max_value=MAX_SMALL, required=False)
    reason = forms.CharField(label=_("Reason"), max_length=500)


class CancelForm(HtmlForm):
    reason = forms.CharField(label=_("Reason for the cancellation"), max_length=500)
