from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class RejectForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class AddPlayerForm(forms.Form):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=64,
        help_text=_("An account's nickname, or the name of a player without an account."),
    )


class CheckInForm(forms.Form):
    registration = forms.IntegerField(widget=forms.HiddenInput)
    day = forms.IntegerField(label=_("Day"), min_value=1)


class ReplacementForm(forms.Form):
    absent = forms.IntegerField(label=_("Late participant"))
    reserve_nickname = forms.CharField(label=_("Reserve"), max_length=64)
    round = forms.IntegerField(label=_("Round"), min_value=1)
    minutes_late = forms.IntegerField(label=_("Minutes late"), min_value=0)
