from django.contrib import admin

from mafiatab.audit.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor", "action", "target")
    list_filter = ("action",)
    readonly_fields = ("tournament", "actor", "action", "target", "before", "after", "created_at")

    def has_delete_permission(self, request, obj=None):
        return False
