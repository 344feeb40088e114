"""The online table (addendum 2.6 and the lobby rules): the side judge of a table sees
the players' links and the phase and reports a violation of 4.1; the table judge
accepts it (the removal with the addendum's fine goes into the log) or dismisses it.
Before the first speech the judge ticks the ready check seat by seat, and a seat not
ready may be given the lateness fine."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from mafiatab.audit.models import AuditEntry
from mafiatab.console import selectors, services
from mafiatab.console.models import GameLog, ReportStatus, ViolationReport
from mafiatab.games.models import Table
from mafiatab.penalties.models import Penalty

from . import test_console as tc
from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def online(two_tables: dict[str, Any], make_user: Any) -> dict[str, Any]:
    """Table 1 of an online tournament with its side judge, the game started."""
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    tournament = two_tables["game1"].tournament
    side = make_user("SideJudge")
    staff_assign(
        tournament=tournament, user=side, role=StaffRole.TABLE_JUDGE, by=two_tables["organiser"]
    )
    table = Table.objects.get(pk=two_tables["game1"].table_slot_id)
    services.side_judge_set(table=table, judge=side, by=two_tables["chief"])
    log = services.log_start(game=two_tables["game1"], roles=tc.ROLES, by=two_tables["judge"])
    return two_tables | {"side": side, "log": log}


def _report(client: Any, game: Any, body: Any) -> Any:
    return tc._post(client, game, "/reports", body)


def test_the_side_judge_is_a_judge_of_the_tournament_and_not_the_tables_own(two_tables):
    table = Table.objects.get(pk=two_tables["game1"].table_slot_id)
    with pytest.raises(ValidationError) as caught:
        services.side_judge_set(table=table, judge=two_tables["judge"], by=two_tables["chief"])
    assert "judge" in caught.value.message_dict
    with pytest.raises(ValidationError):
        services.side_judge_set(table=table, judge=two_tables["alpha1"], by=two_tables["chief"])
    with pytest.raises(PermissionDenied):
        services.side_judge_set(table=table, judge=two_tables["judge2"], by=two_tables["judge"])
    services.side_judge_set(table=table, judge=two_tables["judge2"], by=two_tables["chief"])
    assert AuditEntry.objects.filter(action="table.side_judge").count() == 1


def test_the_side_judges_page_shows_links_and_phase_but_no_role(client, online):
    from mafiatab.registrations.models import Registration

    Registration.objects.filter(nickname="Alpha2").update(
        screen_link="https://vdo.ninja/?view=alpha2", platform_account="alpha2@swipeal"
    )
    client.force_login(online["side"])
    page = client.get(
        reverse("console:side", args=[online["game1"].tournament.slug, online["game1"].pk])
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert "https://vdo.ninja/?view=alpha2" in text and "alpha2@swipeal" in text
    assert "Day 1" in text
    assert "sheriff" not in text.lower() and "don" not in [w.lower() for w in text.split()]


def test_only_the_side_judge_of_that_table_reports(client, online):
    game = online["game1"]
    url = reverse("console:side", args=[game.tournament.slug, game.pk])
    for person in ("judge", "judge2", "alpha1", "organiser"):
        client.force_login(online[person])
        assert client.get(url).status_code == 403, person
        answer = _report(client, game, {"seat": 4, "reason": "phone"})
        assert answer.status_code == 403, person
    # the side judge of table 1 is nobody's side judge at table 2
    client.force_login(online["side"])
    assert _report(client, online["game2"], {"seat": 4, "reason": "x"}).status_code in (403, 404)
    assert not ViolationReport.objects.exists()


def test_a_report_reaches_the_table_judge_who_accepts_it_through_the_log(client, online):
    game, log = online["game1"], online["log"]
    client.force_login(online["side"])
    answer = _report(client, game, {"seat": 4, "reason": "used a phone (4.1.1)"})
    assert answer.status_code == 201, answer.content
    report = answer.json()
    assert report["status"] == "pending" and report["fine"] == -0.8
    # a second report on the same seat while the first is pending is told, not stored
    assert _report(client, game, {"seat": 4, "reason": "again"}).status_code == 409

    client.force_login(online["judge"])
    console = client.get(reverse("console:console", args=[game.tournament.slug, game.pk]))
    assert "used a phone (4.1.1)" in console.content.decode()
    assert "-0.8" in console.content.decode()
    decided = tc._post(
        client,
        game,
        f"/reports/{report['id']}/decision",
        {"decision": "accept", "id": str(uuid.uuid4()), "after": 0},
    )
    assert decided.status_code == 200, decided.content
    assert decided.json()["status"] == "accepted" and decided.json()["entry"] == 1
    event = services.live_events(GameLog.objects.get(pk=log.pk))[-1]
    assert event == {
        "type": "remove",
        "seat": 4,
        "reason": "Online addendum 4.1: used a phone (4.1.1)",
        "online": True,
        "fined": True,
    }
    view = selectors.log_view(game, full=True, disclose=True)
    assert 4 not in view["state"]["alive"]
    assert AuditEntry.objects.filter(action="game.console.violation_accepted").count() == 1
    # decided once: a second decision is told
    again = tc._post(
        client,
        game,
        f"/reports/{report['id']}/decision",
        {"decision": "dismiss", "id": str(uuid.uuid4())},
    )
    assert again.status_code == 409
    # the side judge sees the outcome
    client.force_login(online["side"])
    listed = client.get(tc._url(game, "/reports")).json()
    assert listed[0]["status"] == "accepted" and listed[0]["decided_by"] == "TableJudge"


def test_a_dismissed_report_changes_nothing_in_the_log_and_is_recorded(client, online):
    game = online["game1"]
    report = services.violation_report(
        log=online["log"], seat=2, reason="alt-tab", by=online["side"]
    )
    client.force_login(online["judge"])
    url = reverse("console:report_decide", args=[game.tournament.slug, game.pk])
    assert client.post(url, {"decision": "dismiss", "report": report.pk}).status_code == 302
    report.refresh_from_db()
    assert report.status == ReportStatus.DISMISSED and report.decided_by == online["judge"]
    assert GameLog.objects.get(pk=online["log"].pk).last_number == 0
    assert AuditEntry.objects.filter(action="game.console.violation_dismissed").count() == 1
    # another table's judge may not decide it
    report2 = services.violation_report(log=online["log"], seat=3, reason="x", by=online["side"])
    client.force_login(online["judge2"])
    assert (
        client.post(
            reverse("console:report_decide", args=[game.tournament.slug, game.pk]),
            {"decision": "accept", "report": report2.pk},
        ).status_code
        == 403
    )
    answer = tc._post(
        client,
        game,
        f"/reports/{report2.pk}/decision",
        {"decision": "accept", "id": str(uuid.uuid4())},
    )
    assert answer.status_code == 403


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seat": 11, "reason": "x"}, "seat"),
        ({"seat": 0, "reason": "x"}, "seat"),
        ({"seat": 3, "reason": ""}, "reason"),
        ({"seat": 3, "reason": "x" * 301}, "reason"),
        ({"seat": 3}, "reason"),
    ],
)
def test_a_bad_report_is_told_by_its_field(client, online, body, field):
    client.force_login(online["side"])
    answer = _report(client, online["game1"], body)
    assert answer.status_code == 422
    assert field in json.dumps(answer.json()["errors"])


def test_a_report_on_a_seat_that_left_is_refused_naming_the_seat(online):
    services.event_append(
        log=online["log"],
        event={"type": "remove", "seat": 5, "reason": "x", "online": True},
        client_id=uuid.uuid4(),
        after=None,
        by=online["judge"],
    )
    with pytest.raises(ValidationError) as caught:
        services.violation_report(log=online["log"], seat=5, reason="x", by=online["side"])
    assert "seat" in caught.value.message_dict


def test_the_ready_check_is_ticked_seat_by_seat_and_kept_beside_the_log(client, online):
    game = online["game1"]
    client.force_login(online["judge"])
    for seat in range(1, 11):
        body = {"seat": seat, "microphone": True, "connection": True, "camera": True}
        answer = client.put(
            tc._url(game, "/ready"), data=json.dumps(body), content_type="application/json"
        )
        assert answer.status_code == 200, answer.content
    assert answer.json()["ready"] is False  # nobody confirmed yet
    url = reverse("console:ready", args=[game.tournament.slug, game.pk])
    for seat in range(1, 11):
        client.post(
            url,
            {
                "seat": seat,
                "microphone": "on",
                "connection": "on",
                "camera": "on",
                "confirmed": "on",
            },
        )
    ready = client.get(tc._url(game, "/ready")).json()
    assert ready["ready"] is True and ready["revision"] == 20 and ready["open"] is True
    log = GameLog.objects.get(pk=online["log"].pk)
    assert log.last_number == 0  # no event of the rules
    assert AuditEntry.objects.filter(action="game.console.ready").count() == 20
    # once the game has begun the check is closed
    services.event_append(
        log=log,
        event={"type": "foul", "seat": 1},
        client_id=uuid.uuid4(),
        after=None,
        by=online["judge"],
    )
    closed = client.put(
        tc._url(game, "/ready"),
        data=json.dumps({"seat": 1, "camera": False}),
        content_type="application/json",
    )
    assert closed.status_code == 409


def test_only_the_tables_judges_tick_the_ready_check(client, online):
    game = online["game1"]
    for person in ("side", "judge2", "alpha1"):
        client.force_login(online[person])
        answer = client.put(
            tc._url(game, "/ready"),
            data=json.dumps({"seat": 1, "camera": True}),
            content_type="application/json",
        )
        assert answer.status_code == 403, person
    client.force_login(online["judge"])
    bad = client.put(
        tc._url(game, "/ready"), data=json.dumps({"seat": 12}), content_type="application/json"
    )
    assert bad.status_code == 422 and "seat" in json.dumps(bad.json()["errors"])


def test_a_seat_not_ready_gets_the_lateness_fine_from_the_check(client, online):
    round_ = online["round"]
    round_.starts_at = timezone.now() - dt.timedelta(minutes=9)
    round_.save(update_fields=["starts_at"])
    game = online["game1"]
    client.force_login(online["judge"])  # a table judge gives no penalty
    body = {"seat": 2, "reason": "not ready, no reason"}
    assert tc._post(client, game, "/ready/fine", body).status_code == 403
    client.force_login(online["chief"])
    answer = tc._post(client, game, "/ready/fine", body)
    assert answer.status_code == 200, answer.content
    assert answer.json()["seats"][1]["fined"] is True
    penalty = Penalty.objects.get()
    assert penalty.player == "Alpha2" and penalty.kind == "lateness" and penalty.minutes_late >= 9
    assert tc._post(client, game, "/ready/fine", body).status_code == 409


def test_the_chief_judge_names_the_side_judge_on_the_console_and_through_the_api(
    client, two_tables
):
    game = two_tables["game1"]
    slug = game.tournament.slug
    client.force_login(two_tables["chief"])
    page = client.get(reverse("console:console", args=[slug, game.pk]))
    assert 'data-testid="side-judge-select"' in page.content.decode()
    url = reverse("console:side_judge", args=[slug, game.pk])
    assert client.post(url, {"judge": two_tables["judge2"].pk}).status_code == 302
    assert Table.objects.get(pk=game.table_slot_id).side_judge == two_tables["judge2"]
    # the side judge following the table's console link lands on his own view
    client.force_login(two_tables["judge2"])
    answer = client.get(reverse("console:console", args=[slug, game.pk]))
    assert answer.status_code == 302 and answer.url.endswith("/console/side/")
    # the API: a table judge may not name one; an unknown nickname is told by its field
    client.force_login(two_tables["judge"])
    url = f"/api/tournaments/{slug}/games/{game.pk}/side-judge"
    body = json.dumps({"judge": ""})
    assert client.put(url, data=body, content_type="application/json").status_code == 403
    client.force_login(two_tables["chief"])
    unknown = json.dumps({"judge": "Nobody"})
    answer = client.put(url, data=unknown, content_type="application/json")
    assert answer.status_code == 422 and "judge" in answer.json()["errors"]
    answer = client.put(url, data=body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["judge"] is None


def test_the_chief_judge_fines_a_seat_not_ready_from_the_console_page(client, online):
    round_ = online["round"]
    round_.starts_at = timezone.now() - dt.timedelta(minutes=7)
    round_.save(update_fields=["starts_at"])
    game = online["game1"]
    client.force_login(online["chief"])
    page = client.get(reverse("console:console", args=[game.tournament.slug, game.pk]))
    assert 'data-testid="ready-fine-3"' in page.content.decode()
    url = reverse("console:ready_fine", args=[game.tournament.slug, game.pk])
    answer = client.post(url, {"seat": 3, "reason": "no camera, no reason"}, follow=True)
    assert "The lateness fine is given." in answer.content.decode()
    assert Penalty.objects.get().player == "Alpha3"
    # the table judge sees no fine button: penalties are the chief judge's
    client.force_login(online["judge"])
    page = client.get(reverse("console:console", args=[game.tournament.slug, game.pk]))
    assert 'data-testid="ready-fine-' not in page.content.decode()


def test_an_offline_table_has_neither_reports_nor_a_ready_check(online):
    from mafiatab.tournaments.models import Tournament

    Tournament.objects.filter(pk=online["game1"].tournament_id).update(ruleset="fiim")
    log = GameLog.objects.select_related("game__tournament").get(pk=online["log"].pk)
    with pytest.raises(ValidationError):
        services.violation_report(log=log, seat=2, reason="x", by=online["side"])
    with pytest.raises(ValidationError):
        services.ready_save(log=log, seat=2, checks={"camera": True}, by=online["judge"])
    assert services.removal_fine(log.game) is None


def test_accepting_a_report_on_a_seat_gone_meanwhile_is_refused_and_it_stays_open(client, online):
    game = online["game1"]
    report = services.violation_report(
        log=online["log"], seat=6, reason="alt-tab", by=online["side"]
    )
    services.event_append(
        log=online["log"],
        event={"type": "remove", "seat": 6, "reason": "4.1.4", "online": True},
        client_id=uuid.uuid4(),
        after=None,
        by=online["judge"],
    )
    client.force_login(online["judge"])
    body = {"decision": "accept", "id": str(uuid.uuid4())}
    answer = tc._post(client, game, f"/reports/{report.pk}/decision", body)
    assert answer.status_code == 422 and "event.seat" in answer.json()["errors"]
    report.refresh_from_db()
    assert report.is_pending and GameLog.objects.get(pk=online["log"].pk).last_number == 1
    body = {"decision": "dismiss", "id": str(uuid.uuid4())}
    assert tc._post(client, game, f"/reports/{report.pk}/decision", body).status_code == 200
