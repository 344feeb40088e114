"""People: one account per person, with the nickname written in protocols."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """An account. `username` is the login; `nickname` is the name in protocols."""

    nickname = models.CharField(
        _("nickname"),
        max_length=64,
        help_text=_("The name written in game protocols; unique regardless of case."),
    )
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)

    REQUIRED_FIELDS = ["email", "nickname"]

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(Lower("nickname"), name="accounts_user_nickname_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.nickname or self.username
