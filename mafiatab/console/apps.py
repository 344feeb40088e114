from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

#: How many live requests of a process may wait for a change at once (each holds a
#: thread of the server; any more are answered at once and ask again a second later).
LIVE_WAITERS = 2


class ConsoleConfig(AppConfig):
    name = "mafiatab.console"
    label = "console"
    verbose_name = _("Judge console")

    def ready(self) -> None:
        from mafiatab.security.heavy import HeavyExports

        #: The slots of waiting live requests (`mafiatab.console.broadcast_views`).
        self.live_waiters = HeavyExports(LIVE_WAITERS)
