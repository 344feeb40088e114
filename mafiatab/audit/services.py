"""Writing audit entries. Called from the other apps' services, inside their transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafiatab.audit.models import AuditEntry

if TYPE_CHECKING:
    from mafiatab.accounts.models import User
    from mafiatab.tournaments.models import Tournament


def audit_record(
    *,
    tournament: Tournament | None,
    action: str,
    by: User | None,
    target: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one audit entry. `by` is None for changes made from the command line."""
    actor = by if by is not None and by.is_authenticated else None
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor,
        action=action,
        target=target[:200],
        before=before,
        after=after,
    )
