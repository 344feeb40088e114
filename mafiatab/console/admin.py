from django.contrib import admin

from mafiatab.console.models import GameLog, LogEntry


class LogEntryInline(admin.TabularInline):
    model = LogEntry
    fk_name = "log"
    fields = ("number", "kind", "event", "undoes", "created_at", "created_by")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(GameLog)
class GameLogAdmin(admin.ModelAdmin):
    """The logs are read here; they are written only by the console's services."""

    list_display = ("game", "last_number", "started_at", "finished_at")
    readonly_fields = ("game", "header", "last_number", "started_at", "started_by")
    readonly_fields += ("finished_at", "finished_by")
    inlines = [LogEntryInline]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
