"""Signing in with a username and password, and finding the signed-in account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.db import connection

from mafiatab.accounts.models import User


class AccountBackend(ModelBackend):
    """Django's model backend, with the account of a session found in one plain query.

    Every page a signed-in person opens asks for his account; on the pages kept in the
    cache, the ORM's query cost more than everything else. Django still checks the
    session against the account's password and `is_active` as always.
    """

    def get_user(self, user_id: Any) -> User | None:
        table = connection.ops.quote_name(User._meta.db_table)
        column = connection.ops.quote_name(User._meta.pk.column)
        sql = f"SELECT * FROM {table} WHERE {column} = %s"
        found = list(User.objects.raw(sql, [user_id]))
        if found and self.user_can_authenticate(found[0]):
            return found[0]
        return None
