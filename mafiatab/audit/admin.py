from django.contrib import admin

from mafiatab.audit.models import AuditEntry
from mafiatab.read_only_admin import ReadOnly


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor", "action", "target")
    list_filter = ("action",)
    readonly_fields = ("tournament", "actor", "action", "target", "before", "after", "created_at")
