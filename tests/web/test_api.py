"""The JSON API: reads, authentication, permissions as on the pages, errors as JSON."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from mafiatab.api.models import ApiToken
from mafiatab.api.services import token_create
from mafiatab.audit.models import AuditEntry
from mafiatab.penalties.models import Penalty
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import registration_apply

pytestmark = pytest.mark.django_db


def _post(client, url, data=None, **headers):
    body = json.dumps(data) if data is not None else ""
    return client.post(url, body, content_type="application/json", **headers)


def _bearer(user, name="script"):
    _token, key = token_create(user=user, name=name)
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def _stored():
    """What a refused write must leave untouched."""
    return (
        AuditEntry.objects.count(),
        Registration.objects.count(),
        list(Registration.objects.values_list("status", flat=True).order_by("id")),
        Penalty.objects.count(),
    )


def _error(response, status):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    return body


# --- reading -------------------------------------------------------------------------


def test_tournaments_are_listed_with_their_participant_count(client, demo_imported):
    body = client.get("/api/tournaments").json()
    assert body["count"] == 1
    (listed,) = body["items"]
    assert listed["slug"] == demo_imported.slug
    assert listed["name"] == "ONLINE WINTER CUP 2025"
    assert listed["ruleset"] == "fiim-online"
    assert listed["participant_count"] == demo_imported.registrations.count() > 10
    assert listed["url"] == demo_imported.get_absolute_url()


def test_the_list_of_tournaments_is_paginated(client, make_tournament):
    for n in range(3):
        make_tournament(name=f"Cup {n}")
    page = client.get("/api/tournaments?limit=2&offset=1").json()
    assert page["count"] == 3
    assert len(page["items"]) == 2
    assert _error(client.get("/api/tournaments?limit=0"), 422)["errors"]["limit"]


def test_one_tournament_shows_its_staff_and_limits(client, tournament, staff):
    body = client.get(f"/api/tournaments/{tournament.slug}").json()
    assert body["staff"] == {
        "organisers": ["Organiser"],
        "chief_judges": ["Chief"],
        "table_judges": ["TableJudge"],
    }
    assert body["participant_count"] == 1
    assert body["participant_limit"] is None
    assert body["game_count"] == 0


def test_an_unknown_tournament_is_a_json_404_naming_it(client, db):
    body = _error(client.get("/api/tournaments/no-such-cup"), 404)
    assert "no-such-cup" in body["detail"]
    _error(client.get("/api/tournaments/no-such-cup/standings"), 404)
    _error(client.get("/api/tournaments/bad%00slug/participants"), 404)


def test_participants_are_the_approved_players(client, tournament, staff, make_user):
    registration_apply(tournament=tournament, user=make_user("Pending"))
    body = client.get(f"/api/tournaments/{tournament.slug}/participants").json()
    assert [(p["nickname"], p["status"]) for p in body] == [("Seated", "approved")]


def test_the_public_sees_active_applications_and_the_staff_see_rejections_too(
    client, tournament, staff, make_user
):
    from mafiatab.registrations.services import registration_reject

    rejected = registration_apply(tournament=tournament, user=make_user("Refused"))
    registration_reject(registration=rejected, by=staff["organiser"], reason="no platform account")
    registration_apply(tournament=tournament, user=make_user("Hopeful"))
    url = f"/api/tournaments/{tournament.slug}/applications"

    public = {a["nickname"]: a["status"] for a in client.get(url).json()}
    assert public == {"Seated": "approved", "Hopeful": "pending"}

    client.force_login(staff["judge"])
    seen = {a["nickname"]: (a["status"], a["reason"]) for a in client.get(url).json()}
    assert seen["Refused"] == ("rejected", "no platform account")

    client.force_login(rejected.user)
    own = {a["nickname"]: a["reason"] for a in client.get(url).json()}
    assert own["Refused"] == "no platform account"
    assert [a["nickname"] for a in client.get(url + "?status=pending").json()] == ["Hopeful"]


# --- authentication ------------------------------------------------------------------


def test_anonymous_writes_are_refused_with_401_and_store_nothing(client, tournament, staff):
    registration = registration_apply(tournament=tournament, user=staff["outsider"])
    slug = tournament.slug
    before = _stored()
    writes = [
        (f"/api/tournaments/{slug}/applications", None),
        (f"/api/tournaments/{slug}/applications/{registration.pk}/approve", None),
        (f"/api/tournaments/{slug}/applications/{registration.pk}/reject", {"reason": "x"}),
        (f"/api/tournaments/{slug}/applications/{registration.pk}/withdraw", {"reason": "x"}),
        (f"/api/tournaments/{slug}/participants", {"nickname": "Intruder"}),
        (
            f"/api/tournaments/{slug}/penalties",
            {"player": "Seated", "kind": "lobby_fine", "reason": "x"},
        ),
        ("/api/me/tokens", {"name": "x"}),
    ]
    for url, data in writes:
        body = _error(_post(client, url, data), 401)
        assert "Bearer" in body["detail"], url
    assert _error(client.get(f"/api/tournaments/{slug}/penalties"), 401)
    assert _stored() == before


def test_no_write_of_the_api_document_is_open_to_an_anonymous_caller(client, tournament, staff):
    """Every operation that is not a read, whichever router it is in, refuses an
    anonymous caller before looking at anything else."""
    registration = registration_apply(tournament=tournament, user=staff["outsider"])
    before = _stored()
    schema = client.get("/api/openapi.json").json()
    writes = [
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method != "get"
    ]
    for method, path in writes:
        url = path.replace("{slug}", tournament.slug)
        url = re.sub(r"\{[a-z_]+\}", str(registration.pk), url)
        response = client.generic(
            method.upper(), url, json.dumps({"reason": "r"}), content_type="application/json"
        )
        assert response.status_code == 401, (method, path, response.content)
    assert len(writes) >= 8
    assert _stored() == before


def test_a_wrong_token_is_refused_with_401(client, tournament):
    headers = {"HTTP_AUTHORIZATION": "Bearer mft_not-a-real-token"}
    _error(_post(client, f"/api/tournaments/{tournament.slug}/applications", **headers), 401)
    _error(client.get(f"/api/tournaments/{tournament.slug}/applications", **headers), 401)
    assert not Registration.objects.filter(status=Status.PENDING).exists()


def test_a_personal_token_lets_a_script_apply(client, tournament, make_user):
    player = make_user("Scripted")
    response = _post(client, f"/api/tournaments/{tournament.slug}/applications", **_bearer(player))
    assert response.status_code == 201, response.content
    assert response.json()["nickname"] == "Scripted"
    assert response.json()["status"] == "pending"
    assert Registration.objects.get(user=player).status == Status.PENDING
    assert ApiToken.objects.get(user=player).last_used_at is not None


def test_a_token_of_a_deactivated_account_stops_working(client, make_user):
    player = make_user("Gone")
    headers = _bearer(player)
    assert client.get("/api/me", **headers).json()["nickname"] == "Gone"
    player.is_active = False
    player.save()
    _error(client.get("/api/me", **headers), 401)


def test_tokens_are_created_once_listed_without_secret_and_revoked(client, make_user):
    player = make_user("Owner")
    client.force_login(player)
    created = _post(client, "/api/me/tokens", {"name": "results script"})
    assert created.status_code == 201
    key = created.json()["token"]
    assert key.startswith("mft_")
    listed = client.get("/api/me/tokens").json()
    assert [t["name"] for t in listed] == ["results script"]
    assert "token" not in listed[0]
    assert key not in json.dumps(listed)
    assert not ApiToken.objects.filter(digest=key).exists()

    script = Client()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    assert script.get("/api/me", **headers).json()["username"] == "owner"
    assert client.delete(f"/api/me/tokens/{listed[0]['id']}").status_code == 204
    _error(script.get("/api/me", **headers), 401)
    _error(client.delete(f"/api/me/tokens/{listed[0]['id']}"), 404)
    assert AuditEntry.objects.filter(action="api.token.revoked").count() == 1


def test_nobody_revokes_someone_elses_token(client, make_user):
    token, _key = token_create(user=make_user("Owner"), name="mine")
    client.force_login(make_user("Thief"))
    _error(client.delete(f"/api/me/tokens/{token.pk}"), 404)
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_session_writes_need_the_csrf_token(tournament, make_user):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_user("Browser"))
    url = f"/api/tournaments/{tournament.slug}/applications"
    body = _error(_post(browser, url), 403)
    assert "CSRF" in body["detail"]
    assert not Registration.objects.filter(nickname="Browser").exists()

    browser.get("/api/me")  # any page sets the CSRF cookie for a signed-in session
    browser.get(tournament.get_absolute_url())
    token = browser.cookies["csrftoken"].value
    response = _post(browser, url, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201, response.content


def test_a_token_needs_no_csrf_token(tournament, make_user):
    script = Client(enforce_csrf_checks=True)
    player = make_user("Scripted")
    url = f"/api/tournaments/{tournament.slug}/applications"
    assert _post(script, url, **_bearer(player)).status_code == 201


# --- permissions, as on the pages ----------------------------------------------------


def test_a_player_cannot_approve_an_application(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    headers = _bearer(staff["player"])
    before = _stored()
    url = f"/api/tournaments/{tournament.slug}/applications/{registration.pk}/approve"
    body = _error(_post(client, url, **headers), 403)
    assert "approve_application" in body["detail"]
    assert _stored() == before


def test_the_organiser_approves_and_the_player_becomes_a_participant(
    client, tournament, staff, make_user
):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    url = f"/api/tournaments/{tournament.slug}/applications/{registration.pk}/approve"
    response = _post(client, url, **_bearer(staff["organiser"]))
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "approved"
    registration.refresh_from_db()
    assert registration.status == Status.APPROVED
    assert registration.decided_by == staff["organiser"]
    assert AuditEntry.objects.filter(action="registration.approved", target="Lis").exists()


def test_a_table_judge_cannot_give_a_tournament_penalty(client, tournament, staff):
    url = f"/api/tournaments/{tournament.slug}/penalties"
    data = {"player": "Seated", "kind": "lobby_fine", "reason": "camera off"}
    _error(_post(client, url, data, **_bearer(staff["judge"])), 403)
    assert not Penalty.objects.exists()


def test_the_chief_judge_gives_a_penalty_and_the_organiser_may_not(client, tournament, staff):
    url = f"/api/tournaments/{tournament.slug}/penalties"
    data = {"player": "Seated", "kind": "lateness", "reason": "late", "minutes_late": 7}
    _error(_post(client, url, data, **_bearer(staff["organiser"])), 403)
    assert not Penalty.objects.exists()

    response = _post(client, url, data, **_bearer(staff["chief"]))
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["player"], body["kind"], body["points"]) == ("Seated", "lateness", -0.5)
    assert body["minutes_late"] == 7 and not body["cancelled"]
    assert Penalty.objects.get().given_by == staff["chief"]

    listed = client.get(url, **_bearer(staff["judge"])).json()
    assert [(p["player"], p["points"]) for p in listed] == [("Seated", -0.5)]
    _error(client.get(url, **_bearer(staff["outsider"])), 403)


def test_a_penalty_counts_in_the_standings_of_the_api(client, demo_imported, make_user):
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    chief = make_user("Chief")
    staff_assign(tournament=demo_imported, user=chief, role=StaffRole.CHIEF_JUDGE, by=None)
    url = f"/api/tournaments/{demo_imported.slug}"
    player = client.get(f"{url}/standings").json()["standings"][0]["player"]
    before = _row(client.get(f"{url}/standings").json(), player)
    data = {"player": player, "kind": "lobby_fine", "reason": "talking in the lobby"}
    assert _post(client, f"{url}/penalties", data, **_bearer(chief)).status_code == 201
    after = _row(client.get(f"{url}/standings").json(), player)
    assert after["penalties"] == round(before["penalties"] - 0.5, 2)
    assert after["total"] == round(before["total"] - 0.5, 2)


def _row(standings, player):
    return next(row for row in standings["standings"] if row["player"] == player)


def test_the_chief_judge_rejects_with_a_reason(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Lis"))
    url = f"/api/tournaments/{tournament.slug}/applications/{registration.pk}/reject"
    headers = _bearer(staff["chief"])
    before = _stored()
    body = _error(_post(client, url, {"reason": "  "}, **headers), 422)
    assert body["errors"] == {"reason": ["Give the reason for the rejection."]}
    _error(_post(client, url, {}, **headers), 422)
    assert _stored() == before

    response = _post(client, url, {"reason": "no verified account"}, **headers)
    assert response.status_code == 200
    assert response.json()["status"] == "rejected"
    assert response.json()["reason"] == "no verified account"


def test_a_player_withdraws_their_own_application_but_not_another(
    client, tournament, staff, make_user
):
    mine = registration_apply(tournament=tournament, user=make_user("Lis"))
    other = registration_apply(tournament=tournament, user=make_user("Fox"))
    headers = _bearer(mine.user)
    base = f"/api/tournaments/{tournament.slug}/applications"
    _error(_post(client, f"{base}/{other.pk}/withdraw", **headers), 403)
    response = _post(client, f"{base}/{mine.pk}/withdraw", **headers)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "withdrawn"
    other.refresh_from_db()
    assert other.status == Status.PENDING
    body = _error(_post(client, f"{base}/{mine.pk}/withdraw", **headers), 422)
    assert body["errors"]["__all__"] == ["This application is no longer active."]


def test_the_organiser_withdraws_a_participant_and_the_waiting_list_moves_up(
    client, make_tournament, organiser, make_user
):
    from mafiatab.registrations.services import registration_add

    tournament = make_tournament(participant_limit=1)
    first = registration_add(tournament=tournament, nickname="First", by=organiser)
    second = registration_add(tournament=tournament, nickname="Second", by=organiser)
    assert second.status == Status.WAITING
    url = f"/api/tournaments/{tournament.slug}/applications/{first.pk}/withdraw"
    response = _post(client, url, {"reason": "ill"}, **_bearer(organiser))
    assert response.json()["reason"] == "ill"
    second.refresh_from_db()
    assert second.status == Status.APPROVED


def test_an_unknown_application_is_a_404(client, tournament, staff):
    url = f"/api/tournaments/{tournament.slug}/applications/999999/approve"
    body = _error(_post(client, url, **_bearer(staff["organiser"])), 404)
    assert "999999" in body["detail"]


# --- bad input: clear errors, nothing stored -----------------------------------------


def test_applying_twice_is_refused_and_stores_nothing(client, tournament, make_user):
    headers = _bearer(make_user("Lis"))
    url = f"/api/tournaments/{tournament.slug}/applications"
    assert _post(client, url, **headers).status_code == 201
    before = _stored()
    body = _error(_post(client, url, **headers), 422)
    assert body["detail"] == "You have already applied to this tournament."
    assert body["errors"] == {"__all__": ["You have already applied to this tournament."]}
    assert _stored() == before


def test_beyond_the_limit_an_approved_player_joins_the_waiting_list(
    client, make_tournament, organiser, make_user
):
    tournament = make_tournament(participant_limit=1, waiting_list_limit=1)
    base = f"/api/tournaments/{tournament.slug}/applications"
    ids = []
    for nick in ("One", "Two"):
        response = _post(client, base, **_bearer(make_user(nick)))
        ids.append(response.json()["id"])
    statuses = [
        _post(client, f"{base}/{pk}/approve", **_bearer(organiser)).json()["status"] for pk in ids
    ]
    assert statuses == ["approved", "waiting"]


def test_applying_to_a_full_tournament_is_refused_and_stores_nothing(
    client, make_tournament, organiser, make_user
):
    from mafiatab.registrations.services import registration_add

    tournament = make_tournament(participant_limit=1, waiting_list_limit=1)
    registration_add(tournament=tournament, nickname="One", by=organiser)
    registration_add(tournament=tournament, nickname="Two", by=organiser)
    headers = _bearer(make_user("Late"))
    before = _stored()
    url = f"/api/tournaments/{tournament.slug}/applications"
    body = _error(_post(client, url, **headers), 422)
    assert "full" in body["detail"]
    assert _stored() == before


def test_applying_to_a_closed_registration_is_refused(client, make_tournament, make_user):
    tournament = make_tournament(registration_open=False)
    url = f"/api/tournaments/{tournament.slug}/applications"
    body = _error(_post(client, url, **_bearer(make_user("Lis"))), 422)
    assert body["detail"] == "Registration for this tournament is closed."


def test_adding_a_duplicate_participant_is_refused_and_stores_nothing(
    client, tournament, organiser
):
    url = f"/api/tournaments/{tournament.slug}/participants"
    headers = _bearer(organiser)
    response = _post(client, url, {"nickname": "Guest"}, **headers)
    assert response.status_code == 201
    assert response.json()["status"] == "approved"
    before = _stored()
    body = _error(_post(client, url, {"nickname": "guest"}, **headers), 422)
    assert body["detail"] == "guest is already registered for this tournament."
    body = _error(_post(client, url, {"nickname": " "}, **headers), 422)
    assert body["errors"] == {"nickname": ["Give the player's nickname."]}
    assert _stored() == before


def test_the_organiser_adding_an_account_links_it(client, tournament, organiser, make_user):
    player = make_user("Linked")
    url = f"/api/tournaments/{tournament.slug}/participants"
    _post(client, url, {"nickname": "linked"}, **_bearer(organiser))
    assert Registration.objects.get(nickname="Linked").user == player


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {"player": "Seated", "kind": "lateness", "reason": "late", "minutes_late": 3},
            "minutes_late",
        ),
        ({"player": "Nobody", "kind": "lobby_fine", "reason": "x"}, "player"),
        ({"player": "Seated", "kind": "lobby_fine", "reason": " "}, "reason"),
        ({"player": "Seated", "kind": "other", "reason": "x"}, "kind"),
        ({"player": "Seated", "kind": "lobby_fine", "reason": "x", "round": 0}, "round"),
        ({"player": "Seated", "kind": "lobby_fine", "reason": "x", "round": 10**6}, "round"),
        ({"player": "Sea\x00ted", "kind": "lobby_fine", "reason": "x"}, "player"),
        ({"player": "Seated", "kind": "lobby_fine"}, "reason"),
    ],
)
def test_a_bad_penalty_is_refused_naming_the_field(client, tournament, staff, data, field):
    url = f"/api/tournaments/{tournament.slug}/penalties"
    body = _error(_post(client, url, data, **_bearer(staff["chief"])), 422)
    assert field in body["errors"], body
    assert field in body["detail"] or body["errors"][field][0] in body["detail"]
    assert not Penalty.objects.exists()


def test_a_body_that_is_not_json_is_a_clear_400(client, tournament, staff):
    url = f"/api/tournaments/{tournament.slug}/penalties"
    response = client.post(
        url, "{not json", content_type="application/json", **_bearer(staff["chief"])
    )
    body = _error(response, 400)
    assert "body" in body["detail"].lower()


def test_an_id_beyond_the_database_range_is_a_422_not_a_crash(client, tournament, staff):
    url = f"/api/tournaments/{tournament.slug}/applications/{2**70}/approve"
    body = _error(_post(client, url, **_bearer(staff["organiser"])), 422)
    assert "registration_id" in body["errors"]


def test_the_apis_own_errors_are_translated_too(client, db):
    body = _error(client.get("/api/tournaments/no-such-cup", HTTP_ACCEPT_LANGUAGE="ru"), 404)
    assert body["detail"] == "Турнира по адресу 'no-such-cup' нет."
    body = _error(_post(client, "/api/me/tokens", {"name": "x"}, HTTP_ACCEPT_LANGUAGE="ru"), 401)
    assert body["detail"].startswith("Сначала войдите")


def test_errors_are_in_the_callers_language(client, tournament, make_user):
    headers = _bearer(make_user("Lis"))
    url = f"/api/tournaments/{tournament.slug}/applications"
    _post(client, url, **headers)
    body = _error(_post(client, url, HTTP_ACCEPT_LANGUAGE="ru", **headers), 422)
    assert body["detail"] != "You have already applied to this tournament."
    assert any("а" <= ch <= "я" for ch in body["detail"].lower())


# --- the documentation ---------------------------------------------------------------


def test_the_openapi_document_and_the_interactive_docs_are_served(client, db):
    schema = client.get("/api/openapi.json").json()
    assert schema["info"]["title"] == "mafiatab"
    assert "/api/tournaments/{slug}/standings" in schema["paths"]
    assert {"TokenAuth", "SessionAuth"} <= set(schema["components"]["securitySchemes"])
    docs = client.get("/api/docs")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert '"url": "/api/openapi.json"' in page
    assert "cdn" not in page.lower()
    bundle = "/static/ninja/swagger-ui-bundle.js"
    assert bundle in page
    response = client.get(bundle)
    assert response.status_code == 200
    response.close()


def test_every_page_links_the_api_documentation_in_its_footer(client, db):
    """The open API is found from the site: the footer of every page links its docs."""
    said = {"en": "Open API: documentation", "ru": "Открытый API: документация"}
    for language, words in said.items():
        page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        footer = page.split('<footer class="footer">')[1]
        assert 'href="/api/docs" data-testid="api-docs-link">' + words in footer, language
    assert client.get("/api/docs").status_code == 200
