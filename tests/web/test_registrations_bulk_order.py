"""A selection approved in one action takes the places in the order its applications
came in, as one-by-one approvals in the page's order would: the last to apply is the
one left on the waiting list when the places run out."""

from __future__ import annotations

import pytest

from mafiatab.registrations.models import Status
from mafiatab.registrations.services import registration_apply, registrations_approve

pytestmark = pytest.mark.django_db


def test_a_bulk_approval_beyond_the_limit_puts_the_last_applicant_on_the_waiting_list(
    make_tournament, organiser, make_user
):
    tournament = make_tournament(participant_limit=2)
    # applied in this order; the nicknames sort the other way round
    zoe, max_, ann = (
        registration_apply(tournament=tournament, user=make_user(nick))
        for nick in ("Zoe", "Max", "Ann")
    )
    registrations_approve(
        tournament=tournament, registration_ids=[ann.pk, max_.pk, zoe.pk], by=organiser
    )
    for registration in (zoe, max_, ann):
        registration.refresh_from_db()
    assert (zoe.status, max_.status, ann.status) == (
        Status.APPROVED,
        Status.APPROVED,
        Status.WAITING,
    )
