from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from mafiatab.accounts.models import User
from mafiatab.accounts.services import check_nickname
from mafiatab.widgets import HtmlForm, HtmlFormats


class SignUpForm(HtmlFormats, UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "nickname", "email", "city", "club")
        labels = {"username": _("Login"), "email": _("E-mail")}

    def clean_nickname(self) -> str:
        try:
            return check_nickname(self.cleaned_data.get("nickname", ""))
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["nickname"]) from exc

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise ValidationError(_("This login is already taken."))
        return username


class ProfileForm(HtmlForm):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=64,
        help_text=_("The name written in game protocols; unique regardless of case."),
    )
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        required=False,
        help_text=_("Optional: to set a new password when you forget yours."),
    )

    def __init__(self, *args: object, user: User, **kwargs: object) -> None:
        self.user = user
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def clean_nickname(self) -> str:
        try:
            return check_nickname(self.cleaned_data["nickname"], exclude=self.user)
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["nickname"]) from exc


class ResetForm(PasswordResetForm):
    """Django's password reset form, asking for the e-mail with the site's word."""

    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text=_("The address given at sign-up."),
    )
