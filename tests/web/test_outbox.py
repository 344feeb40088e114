"""The outbox: e-mail through a real SMTP server (aiosmtpd), never inside the request;
a server outage loses nothing, a drainer's restart sends nothing twice."""

from __future__ import annotations

import datetime as dt
import re
import socket

import pytest
from django.urls import reverse
from django.utils import timezone

from mafiatab.notifications.models import Delivery, DeliveryState, Preferences
from mafiatab.notifications.services import (
    CLAIM_LEASE,
    MAX_ATTEMPTS,
    _claim,
    notify,
    outbox_drain,
)

pytestmark = pytest.mark.django_db

SEATING = {
    "tournament": "Кубок Весны",
    "stage": "qualifying",
    "rows": [{"round": 3, "table": 2, "seat": 7, "judge": "Арбитр"}],
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def reader(make_user):
    user = make_user("Читатель", username="reader", email="reader@example.org")
    Preferences.objects.create(user=user, language="ru")
    return user


def test_an_e_mail_says_the_message_in_the_readers_language_with_its_unsubscribe_link(
    smtp_server, reader, client
):
    notify([reader], "seating.published", SEATING, link="/t/spring/seating/mine/")
    assert smtp_server.messages == []  # queued, not sent by the caller
    assert outbox_drain().sent == 1
    [mail] = smtp_server.messages
    assert mail["To"] == "reader@example.org"
    assert mail["Subject"].strip() == "Кубок Весны: опубликована рассадка (этап: отборочный тур)"
    body = smtp_server.text(mail)
    assert "Тур 3: стол 2, место 7, судья Арбитр" in body
    assert "http://127.0.0.1:8000/t/spring/seating/mine/" in body
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/unsubscribe/\S+/)", body)
    assert link is not None
    assert mail["List-Unsubscribe"].strip() == f"<http://127.0.0.1:8000{link.group(1)}>"
    assert Delivery.objects.get().state == DeliveryState.SENT

    # the link asks first (a mail scanner opening it changes nothing), then turns it off
    page = client.get(link.group(1))
    assert page.status_code == 200 and Preferences.objects.get(user=reader).email_off == []
    client.post(link.group(1))
    assert Preferences.objects.get(user=reader).email_off == ["seating.published"]
    notify([reader], "seating.published", SEATING)
    notify([reader], "protocol.confirmed", {"tournament": "T", "game": "Q1-T1"})
    assert list(
        Delivery.objects.filter(state=DeliveryState.QUEUED).values_list(
            "notification__kind", flat=True
        )
    ) == ["protocol.confirmed"]


def test_a_forged_unsubscribe_link_changes_nothing(client, reader):
    response = client.post(reverse("notifications:unsubscribe", args=["forged:token"]))
    assert response.status_code == 400
    assert Preferences.objects.get(user=reader).email_off == []


def test_with_the_server_down_the_outbox_keeps_the_message_and_sends_it_when_it_returns(
    smtp_server, reader, settings
):
    notify([reader], "seating.published", SEATING)
    working_port = settings.EMAIL_PORT
    settings.EMAIL_PORT = _free_port()  # nobody listens there
    now = timezone.now()
    assert outbox_drain(now=now).retried == 1
    row = Delivery.objects.get()
    assert row.state == DeliveryState.QUEUED and row.attempts == 1
    assert "Connection refused" in row.error or "Errno" in row.error
    assert row.next_attempt_at > now
    assert outbox_drain(now=now).handled == 0  # not before its next try
    settings.EMAIL_PORT = working_port
    assert outbox_drain(now=row.next_attempt_at).sent == 1
    assert len(smtp_server.messages) == 1
    row.refresh_from_db()
    assert row.state == DeliveryState.SENT and row.error == ""


def test_a_drainer_that_dies_loses_nothing_and_nothing_is_sent_twice(smtp_server, make_user):
    people = [make_user(f"Mail{i}", email=f"mail{i}@example.org") for i in range(3)]
    notify(people, "broadcast", {"tournament": "T", "text": "Round 2 at 11:00"})
    now = timezone.now()
    _token, claimed = _claim(now, 2)  # a drainer claims two rows, then its process stops
    assert len(claimed) == 2
    assert _claim(now, 10)[1][0].pk not in {d.pk for d in claimed}  # a second drainer: the third
    # the third row is held by that second (also dead) drainer now; both claims lapse
    assert outbox_drain(now=now + dt.timedelta(minutes=1)).handled == 0
    assert outbox_drain(now=now + CLAIM_LEASE + dt.timedelta(seconds=1)).sent == 3
    assert outbox_drain(now=now + CLAIM_LEASE * 3).handled == 0
    assert sorted(m["To"] for m in smtp_server.messages) == [p.email for p in people]


class Refusing:
    code = "email"

    def address_of(self, person, kind):
        return person.email

    def send(self, messages):
        return ["550 mailbox unavailable"] * len(messages)


def test_a_message_that_cannot_be_sent_fails_after_its_tries_with_the_reason_shown(
    smtp_server, reader, client, tournament, organiser
):
    notify([reader], "broadcast", {"tournament": "T", "text": "x"}, tournament=tournament)
    now = timezone.now()
    for _attempt in range(MAX_ATTEMPTS):
        outbox_drain(now=now, channels={"email": Refusing()})
        now = Delivery.objects.get().next_attempt_at
    row = Delivery.objects.get()
    assert row.state == DeliveryState.FAILED and row.attempts == MAX_ATTEMPTS
    assert outbox_drain(now=now + dt.timedelta(days=1)).handled == 0
    client.force_login(organiser)
    page = client.get(reverse("announcements:messages", args=[tournament.slug])).content.decode()
    assert "550 mailbox unavailable" in page and "status-failed" in page


def test_without_a_mail_server_configured_nothing_is_queued(settings, reader):
    settings.EMAIL_CONFIGURED = False
    notify([reader], "broadcast", {"tournament": "T", "text": "x"})
    assert not Delivery.objects.exists()


def test_the_publishing_request_queues_the_e_mails_and_sends_none(
    client, smtp_server, tournament, organiser, make_user, settings
):
    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.services import SeatingInputs, seating_generate

    settings.MAFIATAB_SEATING_ITERATIONS = 300
    for i in range(10):
        user = make_user(f"Post{i}", email=f"post{i}@example.org")
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=1, tables=1, seed=1)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    Delivery.objects.all().delete()  # the e-mails of the registrations
    client.force_login(organiser)
    response = client.post(reverse("seating:publish", args=[tournament.slug, draft.pk]))
    assert response.status_code == 302
    assert Delivery.objects.filter(state=DeliveryState.QUEUED).count() == 10
    assert smtp_server.messages == []
    assert outbox_drain().sent == 10
    assert len(smtp_server.messages) == 10


@pytest.mark.django_db(transaction=True)
def test_the_servers_drainer_drains_the_whole_outbox_in_one_look(smtp_server, make_user):
    from mafiatab.notifications.services import outbox_drain_all

    people = [make_user(f"Many{i:03d}", email=f"many{i:03d}@example.org") for i in range(120)]
    notify(people, "broadcast", {"tournament": "T", "text": "hello"})
    assert outbox_drain_all().sent == 120  # more than one pass of 100
    assert len(smtp_server.messages) == 120
    assert outbox_drain_all().handled == 0
