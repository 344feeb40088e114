"""Django's admin as a viewer: the data of every app is shown there, never changed.

Every change goes through a service, which checks its permission and leaves an
audit entry, so the admins of the apps (audit, tournaments, registrations,
penalties, seating) take `ReadOnly` from here, below all of them.
"""

from typing import Any


class ReadOnly:
    """No adding, changing or deleting through the admin: only viewing."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
