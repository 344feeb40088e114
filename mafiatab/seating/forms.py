from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from mafiatab.accounts.models import User
from mafiatab.core.seating import MAX_GAMES
from mafiatab.seating.models import STAGE_CHOICES
from mafiatab.seating.services import SeatingInputs
from mafiatab.tournaments.bounds import MAX_SMALL, BoundedIntegerField, parse_int
from mafiatab.widgets import HtmlForm


class GenerateForm(HtmlForm):
    stage = forms.ChoiceField(label=_("Stage"), choices=STAGE_CHOICES, initial="qualifying")
    games = BoundedIntegerField(
        label=_("Games per player"),
        min_value=1,
        max_value=MAX_GAMES,
        help_text=_("Participants × games must be a multiple of 10."),
    )
    tables = BoundedIntegerField(
        label=_("Tables in play at once"),
        min_value=1,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("Empty: one table per ten participants; with fewer, players sit out in turn."),
    )
    seed = BoundedIntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=2**62,
        help_text=_("The same seed and the same inputs give the same seating."),
    )
    avoid = forms.CharField(
        label=_("Keep apart"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Alpha, Bravo"}),
        help_text=_("One group a line, nicknames separated by commas (a pair, a team)."),
    )
    keep_clubs_apart = forms.BooleanField(
        label=_("Keep members of the same club apart"),
        required=False,
        help_text=_("Clubs come from the players' profiles."),
    )
    fixed_tables = forms.CharField(
        label=_("Players fixed to a table"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Alpha: 1"}),
        help_text=_("One a line: nickname, a colon, the table number (e.g. a streamed table)."),
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {name.casefold(): name for name in players}

    def _player(self, name: str) -> str:
        found = self.players.get(name.strip().casefold())
        if found is None:
            raise ValidationError(
                _("%(nick)s is not a participant of this tournament.") % {"nick": name.strip()}
            )
        return found

    def clean_avoid(self) -> tuple[tuple[str, ...], ...]:
        groups: list[tuple[str, ...]] = []
        for line in self.cleaned_data["avoid"].splitlines():
            names = [n for n in line.replace(";", ",").split(",") if n.strip()]
            if not names:
                continue
            members = tuple(dict.fromkeys(self._player(n) for n in names))
            if len(members) < 2:
                raise ValidationError(
                    _("A group to keep apart needs two players or more: %(line)s")
                    % {"line": line.strip()}
                )
            groups.append(members)
        return tuple(groups)

    def clean_fixed_tables(self) -> dict[str, int]:
        fixed: dict[str, int] = {}
        for line in self.cleaned_data["fixed_tables"].splitlines():
            if not line.strip():
                continue
            name, colon, number = line.rpartition(":")
            table = parse_int(number, low=1, high=MAX_SMALL)
            if not colon or table is None or not name.strip():
                raise ValidationError(
                    _("Write a nickname, a colon and a table number, not: %(line)s")
                    % {"line": line.strip()}
                )
            fixed[self._player(name)] = table
        return fixed

    def inputs(self) -> SeatingInputs:
        data = self.cleaned_data
        return SeatingInputs(
            stage=data["stage"],
            games=data["games"],
            tables=data["tables"],
            seed=data["seed"],
            avoid=data["avoid"],
            keep_clubs_apart=data["keep_clubs_apart"],
            fixed_tables=data["fixed_tables"],
        )


class JudgeChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: User) -> str:
        return obj.nickname or obj.username


class PublishForm(HtmlForm):
    """A judge for each physical table of the draft, the table judges in order by default.
    A table does not offer the judges who hold a seat at it (`seated`: table number ->
    their ids): nobody judges a game he plays."""

    def __init__(
        self,
        *args: Any,
        tables: list[int],
        judges: list[User],
        seated: dict[int, set[int]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        seated = seated or {}
        queryset = User.objects.filter(pk__in=[j.pk for j in judges]).order_by("nickname")
        free = [j.pk for j in judges]  # the defaults: each judge to the first table he may judge
        for number in tables:
            barred = seated.get(number, set())
            initial = next((pk for pk in free if pk not in barred), None)
            if initial is not None:
                free.remove(initial)
            self.fields[f"table_{number}"] = JudgeChoice(
                label=_("Judge of table %(n)d") % {"n": number},
                queryset=queryset.exclude(pk__in=barred),
                required=False,
                empty_label="—",
                initial=initial,
            )
        self.tables = tables

    def judges(self) -> dict[int, User | None]:
        return {n: self.cleaned_data.get(f"table_{n}") for n in self.tables}
