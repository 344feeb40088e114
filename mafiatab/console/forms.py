"""The form the judge fills before the game: the roles dealt to the ten seats."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from mafiatab.widgets import HtmlForm

SEATS = range(1, 11)
ROLE_CHOICES = [
    ("red", _("red")),
    ("sheriff", _("sheriff")),
    ("don", _("don")),
    ("black", _("black")),
]


class RolesForm(HtmlForm):
    """One role per seat; the engine checks the deal (one sheriff, one don, two blacks)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in SEATS:
            self.fields[f"role_{n}"] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": n}, choices=ROLE_CHOICES, initial="red"
            )

    def roles(self) -> dict[str, Any]:
        """The log header's `roles`: every seat not named is red."""
        roles: dict[str, Any] = {"black": []}
        for n in SEATS:
            role = self.cleaned_data[f"role_{n}"]
            if role == "black":
                roles["black"].append(n)
            elif role in ("sheriff", "don"):
                roles[role] = n
        return roles

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for role, label in (("sheriff", _("sheriff")), ("don", _("don"))):
            seats = [n for n in SEATS if cleaned.get(f"role_{n}") == role]
            if len(seats) > 1:
                raise forms.ValidationError(
                    _("Seats %(seats)s are all dealt the %(role)s card: the deck has one.")
                    % {"seats": ", ".join(map(str, seats)), "role": label}
                )
        return cleaned


class ReportForm(HtmlForm):
    """The side judge's report of a violation of the online addendum (4.1) by a seat."""

    seat = forms.TypedChoiceField(label=_("Seat"), choices=[], coerce=int)
    reason = forms.CharField(
        label=_("What the player did"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["seat"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(n, f"{n} · {nick}") for n, nick in seats]
