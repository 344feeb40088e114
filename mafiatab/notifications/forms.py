from __future__ import annotations

from typing import Any

from django import forms

from mafiatab.notifications.kinds import KINDS
from mafiatab.widgets import HtmlForm


class PreferencesForm(HtmlForm):
    """Per kind of message, whether a person gets it by e-mail too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, label_suffix="", **kwargs)
        for code, kind in KINDS.items():
            self.fields[self.field_of(code)] = forms.BooleanField(label=kind.label, required=False)

    @staticmethod
    def field_of(code: str) -> str:
        """The field of a kind's choice: its code behind `email_`, as it is (a code is
        never renamed, so neither is its field; no two kinds share one)."""
        return "email_" + code

    def email_off(self) -> list[str]:
        """The kinds left unticked."""
        return [code for code in KINDS if not self.cleaned_data.get(self.field_of(code))]
