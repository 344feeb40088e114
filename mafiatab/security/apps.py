from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from mafiatab.security.heavy import HeavyExports


class SecurityConfig(AppConfig):
    name = "mafiatab.security"
    label = "security"
    verbose_name = _("Security")

    def ready(self) -> None:
        #: The slots of heavy exports in this process (`mafiatab.security.heavy`).
        self.heavy_exports = HeavyExports(settings.MAFIATAB_HEAVY_EXPORTS)
