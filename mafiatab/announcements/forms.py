from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mafiatab.announcements.services import ALL, STAGE, TABLE, TEXT_LIMIT, Audience
from mafiatab.games.models import STAGE_CHOICES, Table
from mafiatab.tournaments.models import Tournament
from mafiatab.widgets import HtmlForm

SCOPES = [
    (ALL, _("all participants")),
    (STAGE, _("the players of a stage")),
    (TABLE, _("one table")),
]


class BroadcastForm(HtmlForm):
    scope = forms.ChoiceField(label=_("To"), choices=SCOPES, initial=ALL)
    stage = forms.ChoiceField(label=_("Stage"), choices=[("", "—"), *STAGE_CHOICES], required=False)
    table = forms.TypedChoiceField(label=_("Table"), coerce=int, required=False, empty_value=None)
    text = forms.CharField(
        label=_("Message"),
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "At most 2000 characters. It comes to the inbox, and by e-mail to those who want it."
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tables = (
            Table.objects.filter(round__tournament=tournament)
            .select_related("round")
            .order_by("round__stage", "round__number", "number")
        )
        self.fields["table"].choices = [("", "—")] + [(t.pk, str(t)) for t in tables[:2000]]

    def audience(self) -> Audience:
        data = self.cleaned_data
        return Audience(
            scope=data["scope"], stage=data.get("stage") or "", table_id=data.get("table")
        )
