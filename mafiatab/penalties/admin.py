from django.contrib import admin

from mafiatab.penalties.models import Penalty
from mafiatab.read_only_admin import ReadOnly


@admin.register(Penalty)
class PenaltyAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "tournament", "kind", "points", "created_at", "cancelled_at")
    list_filter = ("kind",)
