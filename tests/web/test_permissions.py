from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.penalties.services import penalty_give
from mafiatab.registrations.models import SEATED_STATUSES, Registration, Status
from mafiatab.registrations.services import registration_apply
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.permissions import ACTIONS, APPROVED, NOBODY, SEATED, user_can, viewer_in

pytestmark = pytest.mark.django_db

#: Pages anyone may see; every other URL of the application is a write or a staff page.
PUBLIC = {
    "healthz",
    "set_language",
    "accounts:login",
    "accounts:signup",
    "accounts:password_reset",
    "accounts:password_reset_done",
    "accounts:password_reset_confirm",
    "accounts:password_reset_complete",
    "accounts:logout",
    "tournaments:list",
    # the broadcast: on air, what the public sees
    "console:board_live",
    "console:overlay",
    "console:overlay_live",
    "console:card",
    "console:card_live",
    "console:broadcast",
    # open to whoever holds the private link (a wrong one is a 404)
    "console:director",
    "console:director_overlay",
    "console:director_overlay_live",
    "tournaments:detail",
    "tournaments:export",
    "standings:table",
    "standings:player",
    "standings:strip",
    "games:list",
    "games:calendar",
    "games:player_calendar",
    "seating:index",
    "seating:print",
    "printables:blank_protocols",
    "printables:seating",
    "printables:judge_copies",
    "printables:standings_pdf",
    "printables:standings_xlsx",
    "console:spectator",
    "console:board",
    "console:service_worker",
    "notifications:badge",  # the header's count: nothing for a visitor
    "notifications:unsubscribe",  # its signed token is the proof, no sign-in
}


def _named_patterns(patterns=None, namespace="", keys=()):
    """(name, the URL's parameter names) of every named URL of the application."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        own = (*keys, *pattern.pattern.regex.groupindex)
        if isinstance(pattern, URLResolver):
            if pattern.namespace in ("admin", "api"):
                # Django's admin guards itself; the JSON API answers 401 in JSON, and
                # tests/web/test_api.py sweeps every write operation of its schema.
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _named_patterns(pattern.url_patterns, inner, own)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}", own


def _kwargs(keys, *, slug, pk):
    values = {"slug": slug, "pk": pk, "player": "Seated", "token": "no-such-link", "stage": "final"}
    return {key: values[key] for key in keys}


def _counts():
    return (AuditEntry.objects.count(), Registration.objects.count())


def test_an_anonymous_visitor_cannot_reach_any_write(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    penalty_give(
        tournament=tournament, player="Seated", kind="lobby_fine", reason="x", by=staff["chief"]
    )
    before = _counts()
    checked = []
    for name, pattern in _named_patterns():
        if name in PUBLIC:
            continue
        url = reverse(name, kwargs=_kwargs(pattern, slug=tournament.slug, pk=registration.pk))
        data = {"reason": "r", "nickname": "Intruder", "day": "1", "player": "Seated"}
        for method in (client.get, client.post):
            response = method(url, data)
            assert response.status_code in (302, 405), (name, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("accounts:login")), name
        checked.append(name)
    assert _counts() == before
    registration.refresh_from_db()
    assert registration.status == Status.PENDING
    assert {"registrations:approve", "penalties:give", "tournaments:new"} <= set(checked)
    assert len(checked) >= 15


def test_a_player_cannot_approve_an_application(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    client.force_login(staff["player"])
    url = reverse("registrations:approve", args=[tournament.slug, registration.pk])
    response = client.post(url)
    assert response.status_code == 403
    registration.refresh_from_db()
    assert registration.status == Status.PENDING


def test_a_table_judge_cannot_approve_but_can_check_in(client, tournament, staff, make_user):
    judge = staff["judge"]
    assert not user_can(judge, tournament, "approve_application")
    assert user_can(judge, tournament, "check_in_player")
    assert not user_can(judge, tournament, "give_penalty")


def test_roles_answer_as_the_permission_table_says(tournament, staff):
    expectations = {
        "organiser": {"edit_tournament", "approve_application", "add_participant", "view_history"},
        "chief": {"approve_application", "give_penalty", "replace_player", "view_history"},
        "judge": {"check_in_player", "view_registrations"},
        "player": {"check_in_self", "apply"},
        "outsider": {"apply"},
    }
    for who, allowed in expectations.items():
        user = staff[who]
        granted = {action for action in ACTIONS if user_can(user, tournament, action)}
        assert allowed <= granted, who
    assert {a for a in ACTIONS if user_can(staff["outsider"], tournament, a)} == {"apply"}
    assert not any(user_can(None, tournament, a) for a in ACTIONS)


def test_a_viewer_is_his_roles_and_the_nicknames_he_plays_under(tournament, staff, organiser):
    from mafiatab.registrations.services import registration_add

    assert viewer_in(staff["player"], tournament).nicknames == ("Seated",)
    assert viewer_in(staff["player"], tournament).roles == {"member", "player"}
    assert viewer_in(staff["chief"], tournament).nicknames == ()
    registration_add(tournament=tournament, nickname="", user=staff["chief"], by=organiser)
    chief = viewer_in(staff["chief"], tournament)
    assert chief.roles == {"member", "player", StaffRole.CHIEF_JUDGE.value}
    assert chief.nicknames == ("Chief",)
    Registration.objects.filter(user=staff["chief"]).update(status=Status.WITHDRAWN)
    assert viewer_in(staff["chief"], tournament).nicknames == ()
    assert viewer_in(None, tournament) == NOBODY
    staff["player"].is_active = False
    assert viewer_in(staff["player"], tournament) == NOBODY


def test_someone_elses_tournament_gives_no_rights(tournament, make_tournament, make_user):
    other_organiser = make_user("Other")
    from mafiatab.tournaments.services import TournamentInfo, tournament_create

    other = tournament_create(info=TournamentInfo(name="Other", ruleset="fiim"), by=other_organiser)
    assert user_can(other_organiser, other, "edit_tournament")
    assert not user_can(other_organiser, tournament, "edit_tournament")


def test_a_staff_page_refuses_an_outsider(client, tournament, staff):
    client.force_login(staff["outsider"])
    assert client.get(reverse("registrations:manage", args=[tournament.slug])).status_code == 403
    assert client.get(reverse("tournaments:edit", args=[tournament.slug])).status_code == 403


def test_the_organiser_role_is_a_staff_member_row(tournament, organiser):
    assert tournament.staff(StaffRole.ORGANISER) == [organiser]


def test_the_permission_check_knows_an_approved_registration_by_its_stored_status():
    assert Status.APPROVED.value == APPROVED
    assert tuple(s.value for s in SEATED_STATUSES) == SEATED
