from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mafiatab.core.names import MAX_NICKNAME
from mafiatab.registrations.models import ReplacementScope
from mafiatab.registrations.online import OnlineLinks
from mafiatab.tournaments.bounds import MAX_ID, MAX_SMALL, BoundedIntegerField
from mafiatab.widgets import HtmlForm


class OnlineLinksForm(HtmlForm):
    """The online addendum's details of a player: 2.2 and 2.5."""

    platform_account = forms.CharField(
        label=_("Your account on the platform"),
        max_length=100,
        required=False,
        help_text=_("Online addendum 2.2: the name under which you play on the platform."),
    )
    screen_link = forms.URLField(
        label=_("Screen share link"),
        max_length=500,
        assume_scheme="https",
        required=False,
        help_text=_("Online addendum 2.5: where the judges watch your screen."),
    )
    camera_link = forms.URLField(
        label=_("Side camera link"),
        max_length=500,
        assume_scheme="https",
        required=False,
        help_text=_("Online addendum 2.5: the camera that shows you from the side."),
    )

    def links(self) -> OnlineLinks:
        data = self.cleaned_data
        return OnlineLinks(
            platform_account=data["platform_account"],
            screen_link=data["screen_link"],
            camera_link=data["camera_link"],
        )


class RejectForm(HtmlForm):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class WithdrawForm(HtmlForm):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class AddPlayerForm(HtmlForm):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=MAX_NICKNAME,
        error_messages={
            "required": _("Give the player's nickname."),
            "max_length": _(
                "A nickname is at most %(limit_value)d characters; this one has %(show_value)d."
            ),
        },
        help_text=_("An account's nickname, or the name of a player without an account."),
    )


class CheckInForm(HtmlForm):
    registration = BoundedIntegerField(min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
    day = BoundedIntegerField(label=_("Day"), min_value=1, max_value=MAX_SMALL)


class IdsField(forms.Field):
    """The ids of the rows ticked in a list (`<input type=checkbox name=... value=id>`)."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "required": _("Choose at least one registration."),
        "invalid": _("The selection is not a list of registrations."),
    }

    def to_python(self, value: object) -> list[int]:
        if not value:
            return []
        if not isinstance(value, list | tuple):
            value = [value]
        try:
            ids = [int(str(item)) for item in value]
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if any(not 1 <= item <= MAX_ID for item in ids) or len(ids) > 10_000:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return ids


class ApproveSelectionForm(HtmlForm):
    registrations = IdsField()


class CheckInSelectionForm(HtmlForm):
    registrations = IdsField()
    day = BoundedIntegerField(label=_("Day"), min_value=1, max_value=MAX_SMALL)


#: Where a refused replacement leaves what was typed and why, for the registrations
#: page to show them again in its form (the form posts to the seating app, which
#: re-seats, and comes back here).
REPLACEMENT_REFUSED = "registrations.replacement_refused"
REPLACEMENT_FIELDS = ("absent", "reserve_nickname", "new_player", "round", "minutes_late", "scope")


class ReplacementForm(HtmlForm):
    absent = BoundedIntegerField(label=_("Late participant"), min_value=1, max_value=MAX_ID)
    reserve_nickname = forms.CharField(
        label=_("Reserve"),
        max_length=64,
        help_text=_(
            "A player of the waiting list, or a reserve who played already. Anybody else "
            "only with “A new player” ticked."
        ),
    )
    new_player = forms.BooleanField(
        label=_("A new player"),
        required=False,
        help_text=_("The reserve is not on the tournament's lists: add him as a reserve."),
    )
    round = BoundedIntegerField(label=_("Round"), min_value=1, max_value=MAX_SMALL)
    minutes_late = BoundedIntegerField(
        label=_("Minutes late"),
        min_value=0,
        max_value=MAX_SMALL,
        required=False,
        help_text=_("Empty: measured from the round's start time."),
    )
    scope = forms.ChoiceField(
        label=_("The reserve plays"),
        choices=ReplacementScope.choices,
        initial=ReplacementScope.ROUND,
        required=False,
        widget=forms.RadioSelect,
        error_messages={
            "invalid_choice": _(
                "Choose whether the reserve plays this round only or the rest of the tournament."
            )
        },
    )

    def clean_scope(self) -> str:
        """No choice sent (an older page, a script): this round only."""
        return self.cleaned_data.get("scope") or ReplacementScope.ROUND
