"""Signing in with a username and password, and finding the signed-in account."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend


class AccountBackend(ModelBackend):
    """Django's model backend, under the name that the sessions already stored carry
    (`_auth_user_backend`), so that nobody is signed out when it changes."""
