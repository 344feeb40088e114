"""Creating, using and revoking personal API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.api.models import ApiToken
from mafiatab.audit.services import audit_record

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

#: Every token starts with this, so a leaked one is easy to recognise.
TOKEN_PREFIX = "mft_"
#: How many characters of a token are kept in clear to tell tokens apart.
SHOWN_CHARACTERS = 12
#: `last_used_at` is written at most this often, not on every request.
LAST_USED_RESOLUTION = timedelta(minutes=5)


def token_digest(key: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new personal token for `user`; returns the row and the token (shown only once)."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("Say what the token is for.")})
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[:SHOWN_CHARACTERS], digest=token_digest(key)
    )
    audit_record(
        action="api.token.created",
        by=user,
        target=user.nickname or user.username,
        after={"name": name, "prefix": token.prefix},
    )
    return token, key


@transaction.atomic
def token_revoke(*, token: ApiToken, by: User) -> None:
    """Revoke a token: it stops working at once. Only its owner revokes it."""
    if by is None or not by.is_authenticated or by.pk != token.user_id:
        raise PermissionDenied("revoke_token")
    audit_record(
        action="api.token.revoked",
        by=by,
        target=token.user.nickname or token.user.username,
        before={"name": token.name, "prefix": token.prefix},
    )
    token.delete()


def token_user(key: str) -> User | None:
    """The active account a token belongs to, or None for an unknown or revoked token."""
    if not key.startswith(TOKEN_PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(key), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
