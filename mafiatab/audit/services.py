"""Writing audit entries. Called from the other apps' services, inside their transaction.

The audit log stands below every app that writes to it (accounts, the API's tokens,
tournaments through `Tournament.log_action`): it names a tournament by its id and
imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafiatab.audit.models import AuditEntry

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser


def audit_record(
    *,
    action: str,
    by: AbstractBaseUser | AnonymousUser | None,
    tournament_id: int | None = None,
    target: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one audit entry, of the tournament `tournament_id` (None: of no tournament,
    like an account's changes). `by` is None for changes made from the command line."""
    actor = by if by is not None and by.is_authenticated else None
    return AuditEntry.objects.create(
        tournament_id=tournament_id,
        actor=actor,
        action=action,
        target=target[:200],
        before=before,
        after=after,
    )
