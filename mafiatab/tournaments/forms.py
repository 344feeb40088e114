from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from mafiatab.accounts.models import User
from mafiatab.core.names import nickname_key
from mafiatab.tournaments.bounds import MAX_INT, MAX_SMALL, BoundedIntegerField
from mafiatab.tournaments.models import RULESET_CHOICES, StaffRole
from mafiatab.tournaments.services import (
    MAX_LOT_SEED,
    ScoringInputs,
    TournamentInfo,
    check_info,
)
from mafiatab.tournaments.zones import TIME_ZONE_CHOICES, time_zones, zone_label
from mafiatab.widgets import DateInput, HtmlForm


class TournamentForm(HtmlForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    ruleset = forms.ChoiceField(label=_("Rules"), choices=RULESET_CHOICES)
    starts_on = forms.DateField(label=_("First day"), required=False, widget=DateInput)
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=DateInput)
    place = forms.CharField(
        label=_("Place"), max_length=200, required=False, help_text=_("City and venue.")
    )
    platform = forms.CharField(
        label=_("Online platform"),
        max_length=100,
        required=False,
        help_text=_("For online tournaments: where the games are played."),
    )
    stars = forms.TypedChoiceField(
        label=_("Stars"),
        choices=[("", "—")] + [(str(n), "★" * n) for n in range(1, 6)],
        coerce=int,
        empty_value=None,
        required=False,
    )
    description = forms.CharField(
        label=_("About the tournament"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=10000,
    )
    participant_limit = BoundedIntegerField(
        label=_("Participant limit"),
        min_value=1,
        max_value=MAX_INT,
        required=False,
        help_text=_("Approved players beyond it join the waiting list. Empty: no limit."),
    )
    waiting_list_limit = BoundedIntegerField(
        label=_("Waiting list limit"),
        min_value=0,
        max_value=MAX_INT,
        required=False,
        help_text=_("Empty: no limit."),
    )
    registration_open = forms.BooleanField(
        label=_("Registration open"), required=False, initial=True
    )
    stream_url = forms.URLField(
        label=_("Stream address"),
        max_length=300,
        required=False,
        assume_scheme="https",
        help_text=_("Where the tournament is streamed; shown beside the tables' overlays."),
    )
    language = forms.ChoiceField(
        label=_("Language of the broadcast"),
        # the languages by what they are to the reader (the switcher names each in itself)
        choices=[("", _("Each viewer's own")), ("ru", _("in Russian")), ("en", _("in English"))],
        required=False,
        help_text=_("The overlays, the result cards and the standings strip speak it."),
    )

    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=[],
        required=False,
        help_text=_("The schedule's times are entered and shown in it."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zones = [zone for zone, _label in TIME_ZONE_CHOICES]
        current = self.initial.get("time_zone") or self.data.get("time_zone") or ""
        if isinstance(current, str) and current not in zones and current in time_zones():
            zones.append(current)  # set elsewhere: offered too
        self.fields["time_zone"].choices = [
            ("", _("The site's (%(zone)s)") % {"zone": zone_label(settings.TIME_ZONE)}),
            *((zone, zone_label(zone)) for zone in zones),
        ]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            check_info(self.info())
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                self.add_error(field if field in self.fields else None, errors)
        return data

    def info(self) -> TournamentInfo:
        data = self.cleaned_data
        return TournamentInfo(
            name=data["name"].strip(),
            ruleset=data["ruleset"],
            starts_on=data.get("starts_on"),
            ends_on=data.get("ends_on"),
            place=data.get("place", "").strip(),
            platform=data.get("platform", "").strip(),
            stars=data.get("stars"),
            description=data.get("description", "").strip(),
            participant_limit=data.get("participant_limit"),
            waiting_list_limit=data.get("waiting_list_limit"),
            registration_open=bool(data.get("registration_open")),
            stream_url=data.get("stream_url", "").strip(),
            language=data.get("language", ""),
            time_zone=data.get("time_zone", ""),
        )


def _account_by_nickname(nickname: str) -> User:
    user = User.objects.filter(nickname_key=nickname_key(nickname)).first()
    if user is None:
        raise ValidationError(_("No account has the nickname %(nick)s.") % {"nick": nickname})
    return user


class NewTournamentForm(TournamentForm):
    """A new tournament: its information, and who is its chief judge."""

    chief_judge = forms.CharField(
        label=_("Chief judge"),
        max_length=64,
        required=False,
        help_text=_("The nickname of his account. Empty: you are the chief judge."),
    )

    def clean_chief_judge(self) -> User | None:
        nickname = " ".join(self.cleaned_data.get("chief_judge", "").split())
        return _account_by_nickname(nickname) if nickname else None


class ScoringForm(HtmlForm):
    """The scoring settings; an empty number means the tournament's default."""

    participants = forms.IntegerField(
        label=_("Participants N (8.7)"),
        min_value=1,
        max_value=2**31 - 1,
        required=False,
    )
    games_before_final = forms.IntegerField(
        label=_("Games before the final (8.6)"),
        min_value=1,
        max_value=2**31 - 1,
        required=False,
    )
    lot_seed = forms.IntegerField(
        label=_("Lot seed (8.8.5)"),
        min_value=0,
        max_value=MAX_LOT_SEED,
        help_text=_("Drawn when the tournament was created; the same seed gives the same lot."),
    )

    def __init__(self, *args: Any, defaults: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if defaults is not None:
            self.fields["participants"].help_text = _(
                "Empty: the approved participants, reserves not counted (now %(n)s)."
            ) % {"n": defaults.approved}
            self.fields["games_before_final"].help_text = _(
                "Empty: from the stage plan or the published schedule, not from the games played "
                "(now %(n)s)."
            ) % {"n": defaults.scheduled if defaults.scheduled is not None else "—"}

    def scoring(self) -> ScoringInputs:
        data = self.cleaned_data
        return ScoringInputs(
            participants=data.get("participants"),
            games_before_final=data.get("games_before_final"),
            lot_seed=data["lot_seed"],
        )


POINTS_CHOICES = [
    ("carry", _("carried over: the total of every stage")),
    ("reset", _("reset: the points of the final alone")),
]
FINAL_PLAYERS_CHOICES = [("", _("no final")), ("10", "10"), ("20", "20")]


class StagePlanForm(HtmlForm):
    """The stage plan in fields; `stages()` gives it in the tournament file's form
    (a list of stages), which the core's reader validates."""

    qualifying_games = BoundedIntegerField(
        label=_("Qualifying games per player"),
        min_value=1,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("Empty: no stage plan, every player ranked by the 8.8 chain alone."),
    )
    semifinal_players = BoundedIntegerField(
        label=_("Semifinal players"),
        min_value=1,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("A multiple of 10. Empty: no semifinal."),
    )
    semifinal_games = BoundedIntegerField(
        label=_("Semifinal games per player"), min_value=1, max_value=MAX_SMALL, required=False
    )
    semifinal_hide_extras = forms.BooleanField(
        label=_("Hide the semifinal's judge extras until the tournament is closed"),
        required=False,
    )
    final_players = forms.TypedChoiceField(
        label=_("Final players"),
        choices=FINAL_PLAYERS_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("One final table of 10, or two of 20."),
    )
    final_games = BoundedIntegerField(
        label=_("Final games per player"), min_value=1, max_value=MAX_SMALL, required=False
    )
    final_points = forms.ChoiceField(
        label=_("Points in the final"), choices=POINTS_CHOICES, initial="carry"
    )
    final_hide_extras = forms.BooleanField(
        label=_("Hide the final's judge extras until the tournament is closed"),
        required=False,
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if self.errors:
            return data
        pairs = (
            ("semifinal_players", "semifinal_games", _("Give the semifinal's games too.")),
            ("semifinal_games", "semifinal_players", _("Give the semifinal's players too.")),
            ("final_players", "final_games", _("Give the final's games too.")),
            ("final_games", "final_players", _("Give the final's players too.")),
        )
        for given, missing, message in pairs:
            if data.get(given) is not None and data.get(missing) is None:
                self.add_error(missing, message)
        later = ("semifinal_players", "final_players")
        if data.get("qualifying_games") is None and any(data.get(f) is not None for f in later):
            self.add_error("qualifying_games", _("A plan starts with the qualifying games."))
        return data

    def stages(self, *, partial: bool = False) -> list[dict[str, Any]] | None:
        """The plan as the file's `stages` (None: no plan). With `partial`, in a form
        with errors, what of it could be read: a stage's games may be None, and later
        stages are kept when the qualifying games are missing."""
        data = self.cleaned_data
        if data.get("qualifying_games") is None and not partial:
            return None
        plan: list[dict[str, Any]] = [
            {"stage": "qualifying", "games": data.get("qualifying_games")}
        ]
        if data.get("semifinal_players") is not None:
            plan.append(
                {
                    "stage": "semifinal",
                    "players": data["semifinal_players"],
                    "games": data.get("semifinal_games"),
                    "hide_extras": bool(data.get("semifinal_hide_extras")),
                }
            )
        if data.get("final_players") is not None:
            plan.append(
                {
                    "stage": "final",
                    "players": data["final_players"],
                    "games": data.get("final_games"),
                    "points": data.get("final_points") or "carry",
                    "hide_extras": bool(data.get("final_hide_extras")),
                }
            )
        return plan


def stage_plan_initial(stages: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The form's fields from a stored plan (the file's `stages`)."""
    initial: dict[str, Any] = {"final_points": "carry"}
    for stage in stages or []:
        name = stage.get("stage")
        if name == "qualifying":
            initial["qualifying_games"] = stage.get("games")
        elif name in ("semifinal", "final"):
            initial[f"{name}_players"] = stage.get("players")
            initial[f"{name}_games"] = stage.get("games")
            initial[f"{name}_hide_extras"] = bool(stage.get("hide_extras"))
            if name == "final":
                initial["final_points"] = stage.get("points") or "carry"
    return initial


class StaffForm(HtmlForm):
    nickname = forms.CharField(label=_("Nickname"), max_length=64)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.choices)

    def clean_nickname(self) -> User:
        return _account_by_nickname(self.cleaned_data["nickname"].strip())


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Show a service's ValidationError on the form, by field where it names one."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
