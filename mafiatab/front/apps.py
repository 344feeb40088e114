from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FrontConfig(AppConfig):
    name = "mafiatab.front"
    label = "front"
    verbose_name = _("Tournament pages")
