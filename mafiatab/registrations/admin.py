from django.contrib import admin

from mafiatab.registrations.models import Registration


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("nickname", "tournament", "status", "created_at", "decided_by")
    list_filter = ("status",)
    search_fields = ("nickname",)

    def has_delete_permission(self, request, obj=None):
        return False
