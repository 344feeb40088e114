from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from mafiatab.accounts.models import User


@admin.register(User)
class MafiatabUserAdmin(UserAdmin):
    list_display = ("username", "nickname", "city", "club", "is_staff")
    search_fields = ("username", "nickname", "city", "club")
    fieldsets = (*UserAdmin.fieldsets, ("Mafiatab", {"fields": ("nickname", "city", "club")}))
