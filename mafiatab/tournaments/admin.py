"""Tournament data in Django's admin is read-only: every change goes through a
service, which checks its permission and leaves an audit entry. The admin shows the
data (and keeps accounts and API tokens manageable)."""

from typing import Any

from django.contrib import admin

from mafiatab.tournaments.models import StaffMember, Tournament


class ReadOnly:
    """No adding, changing or deleting through the admin: only viewing."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class StaffInline(ReadOnly, admin.TabularInline):
    model = StaffMember
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "ruleset", "starts_on", "stars", "registration_open")
    search_fields = ("name", "slug")
    inlines = [StaffInline]
