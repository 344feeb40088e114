from django.contrib import admin

from mafiatab.read_only_admin import ReadOnly
from mafiatab.registrations.models import Registration


@admin.register(Registration)
class RegistrationAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("nickname", "tournament", "status", "created_at", "decided_by")
    list_filter = ("status",)
    search_fields = ("nickname",)
