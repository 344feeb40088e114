from django.contrib import admin

from mafiatab.tournaments.models import StaffMember, Tournament


class StaffInline(admin.TabularInline):
    model = StaffMember
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "starts_on", "stars", "registration_open")
    search_fields = ("name", "slug")
    inlines = [StaffInline]
