"""Personal API tokens: how scripts authenticate to the JSON API."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """A personal token acting as its owner in the API.

    Only a digest of the token is stored: the token itself is shown once, when it
    is created. Revoking a token deletes its row.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100, help_text=_("What the token is for."))
    prefix = models.CharField(
        _("prefix"), max_length=16, help_text=_("The token's first characters, to recognise it.")
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"
