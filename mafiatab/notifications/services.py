"""Writing messages, reading them, the choices, and draining the outbox.

`notify` is called by the services of the apps above, inside their transaction: the
messages and their outbox rows appear when the change is committed, and nothing is
sent inside the request. `mafiatab outbox` sends them (`mafiatab serve` and
`mafiatab demo` start it beside gunicorn, as a process of its own).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.accounts.models import User
from mafiatab.audit.services import audit_record
from mafiatab.notifications.channels import CHANNELS, Channel, Outgoing, Person
from mafiatab.notifications.kinds import KINDS
from mafiatab.notifications.models import (
    LINK_LENGTH,
    Delivery,
    DeliveryState,
    Notification,
    Preferences,
)

#: Tries of one outbox row before it is marked failed.
MAX_ATTEMPTS = 8
#: The wait after the first failure, doubled after each next one, at most `MAX_BACKOFF`.
FIRST_BACKOFF = dt.timedelta(seconds=30)
MAX_BACKOFF = dt.timedelta(hours=1)
#: How long a drainer holds the rows it claimed: past it, a drainer that died lets them go.
CLAIM_LEASE = dt.timedelta(minutes=5)
_UNSUBSCRIBE_SALT = "mafiatab.notifications.unsubscribe"

Recipient = User | int | None


def _user_id(recipient: Recipient) -> int | None:
    if recipient is None or isinstance(recipient, int):
        return recipient
    return int(recipient.pk) if recipient.pk is not None else None


class About(Protocol):
    """The tournament a message is about, as this app knows it (it stands below the
    tournaments): its id and its time zone (empty: the site's)."""

    @property
    def pk(self) -> Any: ...

    @property
    def time_zone(self) -> str: ...


def notify(
    recipients: Iterable[Recipient],
    kind: str,
    params: Mapping[str, Any],
    link: str = "",
    *,
    tournament: About | None = None,
) -> int:
    """Send the message `kind` with `params` to each recipient (accounts or their ids;
    None and repeats are skipped), linking to `link`; the number of messages. Its time
    is said in the time zone of the `tournament` it is about."""
    return notify_each(((r, params) for r in recipients), kind, link=link, tournament=tournament)


def notify_each(
    messages: Iterable[tuple[Recipient, Mapping[str, Any]]],
    kind: str,
    *,
    link: str = "",
    tournament: About | None = None,
) -> int:
    """Send the message `kind` to each recipient with his own parameters (a recipient
    named twice gets the first); the number of messages. In bulk: a few queries
    whatever their number."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of message {kind!r}")
    if len(link) > LINK_LENGTH:
        raise ValueError("the link of a message is too long")
    now = timezone.now()
    rows: dict[int, Notification] = {}
    for recipient, params in messages:
        user_id = _user_id(recipient)
        if user_id is None or user_id in rows:
            continue
        rows[user_id] = Notification(
            recipient_id=user_id,
            kind=kind,
            params=dict(params),
            link=link,
            tournament_id=tournament.pk if tournament is not None else None,
            time_zone=(tournament.time_zone or "") if tournament is not None else "",
            created_at=now,
        )
    if not rows:
        return 0
    stored = Notification.objects.bulk_create(list(rows.values()), batch_size=500)
    _queue(stored, kind, now)
    return len(stored)


def messages_rezone(*, tournament_id: int, time_zone: str) -> int:
    """The messages about a tournament say their times in its new time zone (called by
    the tournament's services when it changes); the number of messages."""
    return Notification.objects.filter(tournament_id=tournament_id).update(time_zone=time_zone)


def _queue(stored: Sequence[Notification], kind: str, now: dt.datetime) -> None:
    """The outbox rows of the new messages, one for each channel that reaches its reader."""
    ids = [n.recipient_id for n in stored]
    emails = dict(User.objects.filter(pk__in=ids).values_list("pk", "email"))
    off = dict(Preferences.objects.filter(user_id__in=ids).values_list("user_id", "email_off"))
    deliveries = []
    people = {
        uid: Person(user_id=uid, email=email, email_off=off.get(uid) or ())
        for uid, email in emails.items()
    }
    for notification in stored:
        person = people.get(notification.recipient_id)
        if person is None:
            continue
        for channel in CHANNELS.values():
            address = channel.address_of(person, kind)
            if address:
                deliveries.append(
                    Delivery(
                        notification=notification,
                        channel=channel.code,
                        address=address,
                        next_attempt_at=now,
                    )
                )
    if deliveries:
        Delivery.objects.bulk_create(deliveries, batch_size=500)


# -- the inbox ---------------------------------------------------------------------


def unread_count(user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True).count()


@transaction.atomic
def inbox_mark_read(*, user: User, ids: Sequence[int] | None = None) -> int:
    """Mark `user`'s own messages read (`ids`: those only; None: all of them); how many
    changed. Another's message is not found."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("read_messages")
    rows = Notification.objects.filter(recipient_id=user.pk, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids)[:1000])
    changed = rows.update(read_at=timezone.now())
    if changed:
        audit_record(
            action="notifications.read", by=user, target=str(user), after={"messages": changed}
        )
    return changed


# -- the choices -------------------------------------------------------------------


def preferences_of(user: User) -> Preferences:
    found = Preferences.objects.filter(user_id=user.pk).first()
    return found or Preferences(user=user, language="", email_off=[])


@transaction.atomic
def preferences_update(*, user: User, email_off: Iterable[str]) -> Preferences:
    """Set the kinds `user` gets no e-mail for (he sets them himself)."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("notification_preferences")
    off = sorted({k for k in email_off if k in KINDS})
    prefs = Preferences.objects.select_for_update().filter(user=user).first()
    if prefs is None:
        if not off:
            return Preferences(user=user, language="", email_off=[])  # nothing to keep
        prefs = Preferences.objects.create(user=user)
    if prefs.email_off == off:
        return prefs  # posted back unchanged: nothing to write
    before = {"email_off": prefs.email_off}
    prefs.email_off = off
    prefs.save(update_fields=["email_off"])
    audit_record(
        action="notifications.preferences",
        by=user,
        target=str(user),
        before=before,
        after={"email_off": prefs.email_off},
    )
    return prefs


def language_remember(*, user: User, language: str) -> None:
    """Keep the language `user` reads the site in: his e-mails are written in it. (The
    account's own setting, recorded as he uses the site; no audit entry.)"""
    if language not in dict(settings.LANGUAGES):
        return
    updated = Preferences.objects.filter(user_id=user.pk).update(language=language)
    if not updated:
        Preferences.objects.get_or_create(user_id=user.pk, defaults={"language": language})


def unsubscribe_token(user_id: int, kind: str) -> str:
    """The signed token of the link that turns `kind` off by e-mail for this person."""
    return signing.dumps({"u": user_id, "k": kind}, salt=_UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[User, str]:
    """The person and kind of an unsubscribe token; ValidationError when it is not one."""
    try:
        data = signing.loads(token[:500], salt=_UNSUBSCRIBE_SALT)
        user = User.objects.get(pk=int(data["u"]))
        kind = str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError, User.DoesNotExist):
        raise ValidationError(_("This link is not valid.")) from None
    if kind not in KINDS:
        raise ValidationError(_("This link is not valid."))
    return user, kind


@transaction.atomic
def email_kind_off(*, token: str) -> tuple[User, str]:
    """Turn one kind off by e-mail for the person of the token (the token is the proof:
    he need not sign in)."""
    user, kind = unsubscribe_read(token)
    prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
    if kind not in prefs.email_off:
        before = list(prefs.email_off)
        prefs.email_off = sorted({*prefs.email_off, kind})
        prefs.save(update_fields=["email_off"])
        audit_record(
            action="notifications.unsubscribed",
            by=None,
            target=str(user),
            before={"email_off": before},
            after={"email_off": prefs.email_off},
        )
    return user, kind


# -- the outbox ----------------------------------------------------------------------


@dataclass(frozen=True)
class Drained:
    """What one pass over the outbox did."""

    sent: int = 0
    retried: int = 0
    failed: int = 0

    @property
    def handled(self) -> int:
        return self.sent + self.retried + self.failed


def _due(now: dt.datetime) -> Q:
    return Q(state=DeliveryState.QUEUED, next_attempt_at__lte=now) | Q(
        state=DeliveryState.SENDING, claimed_until__lt=now
    )


def backoff(attempts: int) -> dt.timedelta:
    """The wait after the `attempts`-th failure."""
    return min(FIRST_BACKOFF * (2 ** max(attempts - 1, 0)), MAX_BACKOFF)


def _claim(now: dt.datetime, limit: int) -> tuple[str, list[Delivery]]:
    """Claim up to `limit` due rows in one conditional update: two drainers never hold
    the same row (the second's update finds it no longer due)."""
    token = secrets.token_hex(16)
    ids = list(
        Delivery.objects.filter(_due(now))
        .order_by("next_attempt_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    if not ids:
        return token, []
    with transaction.atomic():
        Delivery.objects.filter(_due(now), pk__in=ids).update(
            state=DeliveryState.SENDING, claim=token, claimed_until=now + CLAIM_LEASE
        )
    claimed = list(
        Delivery.objects.filter(claim=token, state=DeliveryState.SENDING)
        .select_related("notification")
        .order_by("id")
    )
    return token, claimed


def site_url(path: str) -> str:
    """The absolute address of a path of the site (`MAFIATAB_SITE_URL`)."""
    if not path:
        return ""
    return settings.MAFIATAB_SITE_URL.rstrip("/") + path


def _outgoing(delivery: Delivery, languages: Mapping[int, str]) -> Outgoing:
    notification = delivery.notification
    token = unsubscribe_token(notification.recipient_id, notification.kind)
    return Outgoing(
        address=delivery.address,
        kind=notification.kind,
        params=notification.params,
        language=languages.get(notification.recipient_id) or settings.LANGUAGE_CODE,
        link=site_url(notification.link),
        unsubscribe=site_url(reverse("notifications:unsubscribe", kwargs={"token": token})),
    )


def _record(delivery: Delivery, token: str, error: str | None, now: dt.datetime) -> str:
    """Record one row's outcome (only while this drainer still holds it); its state."""
    attempts = delivery.attempts + 1
    mine = Delivery.objects.filter(pk=delivery.pk, claim=token, state=DeliveryState.SENDING)
    if error is None:
        mine.update(
            state=DeliveryState.SENT, attempts=attempts, sent_at=now, error="", claimed_until=None
        )
        return DeliveryState.SENT
    state = DeliveryState.FAILED if attempts >= MAX_ATTEMPTS else DeliveryState.QUEUED
    mine.update(
        state=state,
        attempts=attempts,
        error=error,
        next_attempt_at=now + backoff(attempts),
        claimed_until=None,
    )
    return state


def outbox_drain(
    *,
    limit: int = 100,
    now: dt.datetime | None = None,
    channels: Mapping[str, Channel] | None = None,
) -> Drained:
    """Send the due rows of the outbox (at most `limit`), each by its channel; a failure
    waits longer each time, and after `MAX_ATTEMPTS` the row is failed with its reason."""
    channels = CHANNELS if channels is None else channels
    now = now or timezone.now()
    token, claimed = _claim(now, limit)
    if not claimed:
        return Drained()
    languages = dict(
        Preferences.objects.filter(
            user_id__in={d.notification.recipient_id for d in claimed}
        ).values_list("user_id", "language")
    )
    counts = {DeliveryState.SENT: 0, DeliveryState.QUEUED: 0, DeliveryState.FAILED: 0}
    for code in sorted({d.channel for d in claimed}):
        rows = [d for d in claimed if d.channel == code]
        channel = channels.get(code)
        if channel is None:
            results: list[str | None] = [f"no channel {code!r} in this server"] * len(rows)
        else:
            results = channel.send([_outgoing(d, languages) for d in rows])
        done = timezone.now()
        for delivery, error in zip(rows, results, strict=True):
            counts[_record(delivery, token, error, done)] += 1
    return Drained(
        sent=counts[DeliveryState.SENT],
        retried=counts[DeliveryState.QUEUED],
        failed=counts[DeliveryState.FAILED],
    )


def outbox_drain_all(*, limit: int = 100) -> Drained:
    """Drain the outbox, `limit` rows at a time, until nothing is due; the sums."""
    total = Drained()
    while (done := outbox_drain(limit=limit)).handled:
        total = Drained(
            sent=total.sent + done.sent,
            retried=total.retried + done.retried,
            failed=total.failed + done.failed,
        )
    return total
