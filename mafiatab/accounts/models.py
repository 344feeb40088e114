"""People: one account per person, with the nickname written in protocols."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from mafiatab.core.names import nickname_key

#: Room for a nickname's key: case folding may lengthen a name (ß -> ss).
KEY_LENGTH = 256


class LoginValidator(UnicodeUsernameValidator):
    """Django's username rule, said with the site's word for it: the login."""

    message = _("A login may hold only letters, digits and the characters @ . + - _.")


class User(AbstractUser):
    """An account. `username` is the login; `nickname` is the name in protocols."""

    # One word for it everywhere (forms, errors, the password validator, the admin).
    username = models.CharField(
        _("login"),
        max_length=150,
        unique=True,
        help_text=_("At most 150 characters: letters, digits and @ . + - _."),
        validators=[LoginValidator()],
        error_messages={"unique": _("This login is already taken.")},
    )
    email = models.EmailField(
        _("e-mail"),
        blank=True,
        help_text=_("Optional: to set a new password when you forget yours."),
    )

    nickname = models.CharField(
        _("nickname"),
        max_length=64,
        help_text=_("The name written in game protocols; unique regardless of case."),
    )
    nickname_key = models.CharField(
        max_length=KEY_LENGTH,
        editable=False,
        help_text="The nickname's identity (mafiatab.core.names.nickname_key), kept unique.",
    )
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)

    REQUIRED_FIELDS = ["email", "nickname"]

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(fields=["nickname_key"], name="accounts_user_nickname_key"),
        ]

    def __str__(self) -> str:
        return self.nickname or self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        # the key is an index of the nickname, derived whenever the row is written
        self.nickname_key = nickname_key(self.nickname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nickname" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_key"}
        super().save(*args, **kwargs)
