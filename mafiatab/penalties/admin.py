from django.contrib import admin

from mafiatab.penalties.models import Penalty


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament", "kind", "points", "created_at", "cancelled_at")
    list_filter = ("kind",)

    def has_delete_permission(self, request, obj=None):
        return False
