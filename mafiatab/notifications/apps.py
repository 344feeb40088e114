import threading

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "mafiatab.notifications"
    label = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        #: Set when new messages are committed: the outbox worker of this process (if
        #: it runs one) drains at once instead of at its next look.
        self.outbox_wake = threading.Event()
