from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.registrations.services import (
    registration_add,
    registration_apply,
    registration_approve,
    registration_reject,
)

pytestmark = pytest.mark.django_db


def test_approval_records_who_when_what_before_and_after(tournament, organiser, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    registration_approve(registration=registration, by=organiser)
    entry = AuditEntry.objects.get(action="registration.approved")
    assert entry.tournament == tournament
    assert entry.actor == organiser
    assert entry.target == "Lis"
    assert entry.before == {"nickname": "Lis", "status": "pending"}
    assert entry.after == {"nickname": "Lis", "status": "approved"}
    assert entry.created_at is not None


def test_every_change_of_state_leaves_an_entry(tournament, staff, make_user):
    chief, organiser = staff["chief"], staff["organiser"]
    rejected = registration_apply(tournament=tournament, user=make_user("Lis"))
    registration_reject(registration=rejected, by=chief, reason="duplicate account")
    registration_add(tournament=tournament, nickname="Guest", by=organiser)
    penalty = penalty_give(
        tournament=tournament, player="Seated", kind="lobby_fine", reason="insults", by=chief
    )
    penalty_cancel(penalty=penalty, by=chief, reason="mistake")
    actions = list(
        AuditEntry.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "tournament.created",
        "staff.assigned",
        "staff.assigned",
        "staff.removed",
        "staff.assigned",
        "registration.added",
        "registration.applied",
        "registration.rejected",
        "registration.added",
        "penalty.given",
        "penalty.cancelled",
    ]
    cancelled = AuditEntry.objects.get(action="penalty.cancelled")
    assert cancelled.before["cancelled"] is False
    assert cancelled.after["cancelled"] is True
    assert cancelled.after["cancel_reason"] == "mistake"


def test_history_page_shows_the_log_to_the_organiser_only(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    registration_reject(registration=registration, by=staff["organiser"], reason="too late")
    url = reverse("tournaments:history", args=[tournament.slug])
    client.force_login(staff["organiser"])
    page = client.get(url).content.decode()
    assert "Application rejected" in page and "too late" in page
    client.force_login(staff["player"])
    assert client.get(url).status_code == 403


def test_the_history_page_names_each_change_in_words(client, tournament, staff, make_user):
    from django.utils import translation

    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    registration_reject(registration=registration, by=staff["organiser"], reason="too late")
    url = reverse("tournaments:history", args=[tournament.slug])
    client.force_login(staff["organiser"])
    english = client.get(url).content.decode()
    assert "Application rejected" in english and "Tournament created" in english
    with translation.override("en"):  # the request's Russian stays in the request
        russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Заявка отклонена" in russian and "registration.rejected" not in russian
    assert "False" not in russian and "True" not in russian


def test_every_recorded_kind_of_change_has_a_name():
    import re
    from pathlib import Path

    from mafiatab.messages import AUDIT_ACTIONS as ACTIONS

    package = Path(__file__).resolve().parents[2] / "mafiatab"
    codes = set()
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'log_action\(\s*"([a-z_.]+)"', text))
        codes |= set(re.findall(r'"((?:registration|game\.protocol)\.[a-z_]+)"', text))
    codes |= {f"game.protocol.{a}" for a in ("saved", "submitted", "changed")}
    assert codes and codes <= set(ACTIONS), sorted(codes - set(ACTIONS))
