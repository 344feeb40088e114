from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintablesConfig(AppConfig):
    name = "mafiatab.printables"
    label = "printables"
    verbose_name = _("Printables and exports")
