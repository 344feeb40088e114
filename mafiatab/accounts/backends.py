"""Signing in with a username and password, and finding the signed-in account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend

from mafiatab.accounts.models import User
from mafiatab.rows import row_by


class AccountBackend(ModelBackend):
    """Django's model backend, with the account of a session found in one plain query.

    Every page a signed-in person opens asks for his account; on the pages kept in the
    cache, the ORM's query cost more than everything else. Django still checks the
    session against the account's password and `is_active` as always.
    """

    def get_user(self, user_id: Any) -> User | None:
        found = row_by(User, User._meta.pk.column, user_id)
        if found is not None and self.user_can_authenticate(found):
            return found
        return None
