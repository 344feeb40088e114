from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationsConfig(AppConfig):
    name = "mafiatab.registrations"
    label = "registrations"
    verbose_name = _("Registrations")
