"""The channels a message travels by beyond the inbox, behind one small interface.

The inbox is every message's own row: each message is there, always. Each further
channel is a `Channel` in `CHANNELS`: `notify` asks it whom it reaches (its address
for one person and kind, or None), the outbox keeps one row per message and channel,
and the outbox worker hands the due rows to `send`. A Telegram or push channel is
one more class here and one more entry in `CHANNELS`; no event changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.utils import translation

from mafiatab.notifications.kinds import render


@dataclass(frozen=True)
class Outgoing:
    """One message for one channel, as the outbox hands it over."""

    address: str
    """Where the channel delivers it (an e-mail address)."""
    kind: str
    params: dict[str, Any]
    language: str
    """The recipient's language."""
    link: str
    """The absolute address of what the message is about ("" when none)."""
    unsubscribe: str
    """The absolute address that turns this kind off for this channel."""


@dataclass(frozen=True)
class Person:
    """What a channel may know of a recipient when a message is queued."""

    user_id: int
    email: str
    """His account's e-mail address ("" when none)."""
    email_off: Sequence[str] = ()
    """The kinds he gets no e-mail for."""


class Channel(Protocol):
    """A way a message reaches a person besides the inbox."""

    code: str
    """Stored in the outbox rows; never renamed."""

    def address_of(self, person: Person, kind: str) -> str | None:
        """Where this channel reaches `person` for a message of `kind` (None: it does
        not, e.g. he turned the kind off)."""
        ...

    def send(self, messages: Sequence[Outgoing]) -> list[str | None]:
        """Deliver the messages; for each, None when delivered or the reason it was not."""
        ...


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}"[:500]


class EmailChannel:
    """E-mail through Django's mail backend (`MAFIATAB_EMAIL_URL`)."""

    code = "email"

    def address_of(self, person: Person, kind: str) -> str | None:
        if not settings.EMAIL_CONFIGURED or not person.email or kind in person.email_off:
            return None
        return person.email

    def message(self, outgoing: Outgoing) -> EmailMessage:
        """The e-mail of one message, in its recipient's language."""
        with translation.override(outgoing.language):
            said = render(outgoing.kind, outgoing.params)
            parts = [said.text, ""]
            if outgoing.link:
                parts += [translation.gettext("Open: %(link)s") % {"link": outgoing.link}, ""]
            parts += [
                "--",
                translation.gettext(
                    "To receive no more e-mails of this kind, follow this link: %(link)s"
                )
                % {"link": outgoing.unsubscribe},
            ]
            subject = " ".join(said.title.split())[:200]
        return EmailMessage(
            subject=subject,
            body="\n".join(parts) + "\n",
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[outgoing.address],
            headers={"List-Unsubscribe": f"<{outgoing.unsubscribe}>"},
        )

    def send(self, messages: Sequence[Outgoing]) -> list[str | None]:
        connection = get_connection(fail_silently=False)
        try:
            connection.open()
        except Exception as exc:  # the server is down: every message waits for it
            return [_reason(exc)] * len(messages)
        results: list[str | None] = []
        try:
            for outgoing in messages:
                try:
                    connection.send_messages([self.message(outgoing)])
                except Exception as exc:
                    results.append(_reason(exc))
                else:
                    results.append(None)
        finally:
            # a server gone mid-way: what was sent is recorded all the same
            with contextlib.suppress(Exception):
                connection.close()
        return results


#: The channels beyond the inbox, in the order the outbox serves them.
CHANNELS: dict[str, Channel] = {channel.code: channel for channel in (EmailChannel(),)}
