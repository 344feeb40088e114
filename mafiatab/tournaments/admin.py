"""Tournament data in Django's admin is read-only: every change goes through a
service, which checks its permission and leaves an audit entry. The admin shows the
data (and keeps accounts and API tokens manageable)."""

from django.contrib import admin

from mafiatab.read_only_admin import ReadOnly
from mafiatab.tournaments.models import StaffMember, Tournament


class StaffInline(ReadOnly, admin.TabularInline):
    model = StaffMember
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "ruleset", "starts_on", "stars", "registration_open")
    search_fields = ("name", "slug")
    inlines = [StaffInline]
