from django.contrib import admin

from mafiatab.read_only_admin import ReadOnly
from mafiatab.seating.models import SeatingDraft


@admin.register(SeatingDraft)
class SeatingDraftAdmin(ReadOnly, admin.ModelAdmin):
    """Drafts are made and published through their services; the admin only shows them."""

    list_display = ("tournament", "stage", "seed", "games_per_player", "tables", "status")
    list_filter = ("status", "stage")
    search_fields = ("tournament__name",)
