from django.contrib import admin

from mafiatab.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are created by their owners through the API; here they can be seen and revoked."""

    list_display = ("prefix", "name", "user", "created_at", "last_used_at")
    search_fields = ("name", "prefix", "user__nickname", "user__username")
    readonly_fields = ("user", "name", "prefix", "digest", "created_at", "last_used_at")

    def has_add_permission(self, request, obj=None):
        return False
