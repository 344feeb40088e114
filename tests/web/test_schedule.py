"""The schedule: a round's time, place and link (rounds page, service), the tournament
page's days, lateness measured from the start, and the iCalendar feeds."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from mafiatab.games.services import RoundSchedule, lateness_give, round_schedule_set, schedule_of
from mafiatab.registrations.models import Registration

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def _schedule(people, **fields):
    values = {"starts_at": START, "place": "Hall A", "link": ""} | fields
    return round_schedule_set(
        round=people["round"], schedule=RoundSchedule(**values), by=people["organiser"]
    )


def test_the_organiser_schedules_a_round_and_it_is_on_the_record(two_tables):
    round_ = _schedule(two_tables, link="https://meet.example.org/q1")
    round_.refresh_from_db()
    assert (round_.starts_at, round_.place, round_.link) == (
        START,
        "Hall A",
        "https://meet.example.org/q1",
    )
    entry = round_.tournament.audit_entries.get(action="round.scheduled")
    assert entry.after["place"] == "Hall A"


def test_a_round_link_must_be_a_web_address(two_tables):
    with pytest.raises(ValidationError) as caught:
        _schedule(two_tables, link="javascript:alert(1)")
    assert "link" in caught.value.message_dict


def test_a_player_cannot_schedule_a_round(two_tables):
    with pytest.raises(PermissionDenied):
        round_schedule_set(
            round=two_tables["round"], schedule=RoundSchedule(), by=two_tables["player"]
        )


def test_the_rounds_page_form_sets_the_time_in_the_sites_zone(two_tables, settings):
    client = Client()
    client.force_login(two_tables["organiser"])
    round_ = two_tables["round"]
    url = reverse("games:round_schedule", args=[round_.tournament.slug, round_.pk])
    response = client.post(url, {"starts_at": "2026-12-05T13:00", "place": "Зал 2", "link": ""})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.starts_at == dt.datetime(2026, 12, 5, 13, 0, tzinfo=dt.UTC)
    page = client.get(reverse("games:rounds", args=[round_.tournament.slug])).content.decode()
    assert 'value="2026-12-05T13:00"' in page and "Зал 2" in page


def test_the_rounds_page_form_names_a_wrong_link_and_stores_nothing(two_tables):
    client = Client()
    client.force_login(two_tables["organiser"])
    round_ = two_tables["round"]
    url = reverse("games:round_schedule", args=[round_.tournament.slug, round_.pk])
    response = client.post(
        url, {"starts_at": "not a time" * 10, "place": "x" * 201, "link": "ftp://x"}, follow=True
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Link (online)" in text and "Starts at" in text and "Place" in text
    round_.refresh_from_db()
    assert (round_.starts_at, round_.place, round_.link) == (None, "", "")


def test_the_tournament_page_shows_the_days_schedule(two_tables):
    _schedule(two_tables)
    page = Client().get(two_tables["round"].tournament.get_absolute_url()).content.decode()
    assert 'data-testid="schedule-round"' in page
    assert "10:00" in page and "Hall A" in page


def test_lateness_is_measured_from_the_rounds_start(two_tables):
    _schedule(two_tables)
    penalty = lateness_give(
        round=two_tables["round"],
        player="Bravo3",
        arrived_at=START + dt.timedelta(minutes=7, seconds=10),
        reason="late",
        by=two_tables["chief"],
    )
    assert penalty.minutes_late == 8 and penalty.round == 1 and penalty.points < 0


def test_lateness_within_five_minutes_of_the_start_is_not_fined(two_tables):
    _schedule(two_tables)
    with pytest.raises(ValidationError) as caught:
        lateness_give(
            round=two_tables["round"],
            player="Bravo3",
            arrived_at=START + dt.timedelta(minutes=4),
            reason="late",
            by=two_tables["chief"],
        )
    assert "minutes_late" in caught.value.message_dict


def test_lateness_needs_the_rounds_start_time(two_tables):
    with pytest.raises(ValidationError) as caught:
        lateness_give(
            round=two_tables["round"],
            player="Bravo3",
            arrived_at=START,
            reason="late",
            by=two_tables["chief"],
        )
    assert "arrived_at" in caught.value.message_dict


def test_the_lateness_form_of_the_rounds_page_computes_the_minutes(two_tables):
    _schedule(two_tables)
    client = Client()
    client.force_login(two_tables["chief"])
    round_ = two_tables["round"]
    url = reverse("games:lateness", args=[round_.tournament.slug, round_.pk])
    response = client.post(
        url, {"player": "bravo4", "arrived_at": "2026-12-05T10:16", "reason": ""}, follow=True
    )
    assert "16 minutes late" in response.content.decode()
    assert round_.tournament.penalties.get().minutes_late == 16


def _events(body: bytes) -> list:
    return list(Calendar.from_ical(body).walk("VEVENT"))


def test_the_tournament_feed_holds_every_timed_round(two_tables):
    _schedule(two_tables, link="https://meet.example.org/q1")
    tournament = two_tables["round"].tournament
    response = Client().get(reverse("games:calendar", args=[tournament.slug]))
    assert response["Content-Type"].startswith("text/calendar")
    (event,) = _events(response.content)
    assert event.decoded("dtstart") == START
    assert event.decoded("dtend") == START + dt.timedelta(hours=1)
    assert "Qualifying 1" in str(event["summary"])
    assert str(event["location"]) == "Hall A"
    assert str(event["url"]) == "https://meet.example.org/q1"


def test_the_players_feed_holds_his_tables_with_their_times(two_tables):
    _schedule(two_tables)
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    url = reverse(
        "games:player_calendar",
        args=[alpha1.tournament.slug, alpha1.pk, alpha1.calendar_token],
    )
    response = Client().get(url)  # a calendar app: no session
    assert response.status_code == 200
    (event,) = _events(response.content)
    assert event.decoded("dtstart") == START
    assert "table 1, seat 1" in str(event["summary"])
    assert "Judge: TableJudge" in str(event["description"])


def test_the_players_feed_holds_only_his_own_tables(two_tables):
    _schedule(two_tables)
    bravo = Registration.objects.get(nickname="Bravo5")
    url = reverse(
        "games:player_calendar", args=[bravo.tournament.slug, bravo.pk, bravo.calendar_token]
    )
    (event,) = _events(Client().get(url).content)
    assert "table 2, seat 5" in str(event["summary"])


def test_the_players_feed_needs_his_secret(two_tables):
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    other = Registration.objects.get(nickname="Bravo5")
    url = reverse(
        "games:player_calendar", args=[alpha1.tournament.slug, alpha1.pk, other.calendar_token]
    )
    assert Client().get(url).status_code == 404


def test_the_player_renews_his_feeds_address_and_the_old_one_stops_working(two_tables):
    _schedule(two_tables)
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    slug = alpha1.tournament.slug
    old = reverse("games:player_calendar", args=[slug, alpha1.pk, alpha1.calendar_token])
    client = Client()
    client.force_login(two_tables["alpha1"])
    client.cookies["django_language"] = "ru"
    page = client.get(alpha1.tournament.get_absolute_url()).content.decode()
    assert 'data-testid="calendar-renew"' in page
    done = client.post(reverse("registrations:calendar_renew", args=[slug]), follow=True)
    assert "У вашего календаря новый адрес" in done.content.decode()
    alpha1.refresh_from_db()
    new = reverse("games:player_calendar", args=[slug, alpha1.pk, alpha1.calendar_token])
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200
    assert (
        alpha1.calendar_token in client.get(alpha1.tournament.get_absolute_url()).content.decode()
    )


def test_nobody_renews_another_players_feed(two_tables):
    from django.core.exceptions import PermissionDenied

    from mafiatab.registrations.services import calendar_address_renew

    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    token = alpha1.calendar_token
    with pytest.raises(PermissionDenied):
        calendar_address_renew(registration=alpha1, by=two_tables["organiser"])
    alpha1.refresh_from_db()
    assert alpha1.calendar_token == token
    # somebody without tables in the tournament is told so
    client = Client()
    client.force_login(two_tables["outsider"] if "outsider" in two_tables else two_tables["judge"])
    refused = client.post(
        reverse("registrations:calendar_renew", args=[alpha1.tournament.slug]), follow=True
    )
    assert refused.status_code == 200


def test_the_player_sees_his_tables_and_his_feed_on_the_tournament_page(two_tables):
    _schedule(two_tables)
    client = Client()
    client.force_login(two_tables["alpha1"])
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    page = client.get(alpha1.tournament.get_absolute_url()).content.decode()
    assert 'data-testid="my-tables"' in page and "table 1, seat 1" in page
    assert alpha1.calendar_token in page


def test_the_api_lists_and_sets_the_rounds_schedule(two_tables):
    import json

    from mafiatab.api.services import token_create

    round_ = two_tables["round"]
    slug = round_.tournament.slug
    _token, key = token_create(user=two_tables["organiser"], name="script")
    client = Client()
    url = f"/api/tournaments/{slug}/rounds/{round_.pk}/schedule"
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    bad = client.put(
        url, json.dumps({"link": "mailto:x@y"}), content_type="application/json", **headers
    )
    assert bad.status_code == 422 and "link" in bad.json()["errors"]
    body = {"starts_at": "2026-12-05T10:00:00Z", "place": "Hall A", "link": ""}
    response = client.put(url, json.dumps(body), content_type="application/json", **headers)
    assert response.status_code == 200, response.content
    (listed,) = client.get(f"/api/tournaments/{slug}/rounds").json()
    assert listed["place"] == "Hall A" and listed["starts_at"].startswith("2026-12-05T10:00")


def test_the_schedule_survives_import_and_export(tmp_path, capsys, demo_file_text):
    import json

    from mafiatab.cli import main
    from mafiatab.games.models import Round
    from mafiatab.tournaments.models import Tournament

    data = json.loads(demo_file_text)
    data["schedule"] = [
        {"stage": "qualifying", "round": 1, "starts_at": "2026-12-05T10:00:00+00:00"},
        {"stage": "qualifying", "round": 2, "place": "Зал 2", "link": "https://meet.example.org"},
    ]
    source = tmp_path / "scheduled.json"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    slug = capsys.readouterr().out.strip().splitlines()[-1]
    tournament = Tournament.objects.get(slug=slug)
    first = Round.objects.get(tournament=tournament, stage="qualifying", number=1)
    assert first.starts_at == START
    assert main(["export", slug]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["schedule"] == data["schedule"]


def test_a_player_more_than_fifteen_minutes_late_may_be_replaced(two_tables):
    _schedule(two_tables)
    client = Client()
    client.force_login(two_tables["chief"])
    round_ = two_tables["round"]
    url = reverse("games:lateness", args=[round_.tournament.slug, round_.pk])
    response = client.post(
        url, {"player": "Bravo4", "arrived_at": "2026-12-05T10:20", "reason": "late"}, follow=True
    )
    text = response.content.decode()
    assert "20 minutes late" in text and "a reserve may play instead" in text


def test_the_players_profile_links_his_calendar(two_tables):
    client = Client()
    client.force_login(two_tables["alpha1"])
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    page = client.get(reverse("accounts:profile")).content.decode()
    assert alpha1.calendar_token in page


def test_a_second_writer_of_a_rounds_time_is_told_and_nothing_is_lost(two_tables):
    client = Client()
    client.force_login(two_tables["organiser"])
    round_ = two_tables["round"]
    page = client.get(reverse("games:rounds", args=[round_.tournament.slug])).content.decode()
    import re

    stamp = re.search(rf'id="id_when{round_.pk}_stamp" value="([^"]+)"', page) or re.search(
        r'name="stamp" value="([^"]+)"', page
    )
    assert stamp is not None
    _schedule(two_tables, place="Hall B")  # someone saves meanwhile
    url = reverse("games:round_schedule", args=[round_.tournament.slug, round_.pk])
    response = client.post(
        url,
        {"starts_at": "2026-12-05T12:00", "place": "Hall C", "link": "", "stamp": stamp[1]},
        follow=True,
    )
    assert "changed this round" in response.content.decode()
    round_.refresh_from_db()
    assert round_.place == "Hall B"


def test_a_feed_fetched_without_a_language_speaks_the_tournaments_own(two_tables):
    from mafiatab.tournaments.models import Tournament

    _schedule(two_tables)
    tournament = two_tables["round"].tournament
    url = reverse("games:calendar", args=[tournament.slug])
    (event,) = _events(Client().get(url).content)
    assert "Qualifying 1" in str(event["summary"])  # no language of its own: the site's
    Tournament.objects.filter(pk=tournament.pk).update(language="ru")
    response = Client().get(url)  # a calendar app names no language
    assert response["Content-Language"] == "ru"
    (event,) = _events(response.content)
    assert "Qualifying 1" not in str(event["summary"]) and "1" in str(event["summary"])
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    mine = reverse(
        "games:player_calendar", args=[tournament.slug, alpha1.pk, alpha1.calendar_token]
    )
    (event,) = _events(Client().get(mine).content)
    assert "стол 1, место 1" in str(event["summary"])
    (event,) = _events(Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content)
    assert "Qualifying 1" in str(event["summary"])  # a language asked for is spoken
    client = Client()
    client.cookies["django_language"] = "en"
    (event,) = _events(client.get(mine).content)
    assert "table 1, seat 1" in str(event["summary"])


def test_an_api_refusal_without_a_language_speaks_the_tournaments_own(two_tables):
    from mafiatab.tournaments.models import Tournament

    tournament = two_tables["round"].tournament
    Tournament.objects.filter(pk=tournament.pk).update(language="ru")
    url = f"/api/tournaments/{tournament.slug}/games/999999/log"
    assert "В этом турнире нет игры стола 999999." in Client().get(url).json()["detail"]
    answer = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").json()["detail"]
    assert "There is no table game 999999 in this tournament." in answer


def test_a_round_cannot_start_outside_the_tournaments_days(two_tables):
    tournament = two_tables["round"].tournament
    tournament.starts_on, tournament.ends_on = dt.date(2026, 12, 12), dt.date(2026, 12, 13)
    tournament.save()
    with pytest.raises(ValidationError) as caught:
        _schedule(two_tables, starts_at=dt.datetime(2030, 1, 1, 10, tzinfo=dt.UTC))
    assert caught.value.message_dict["starts_at"] == [
        "The tournament ends on 13 Dec 2026: a round cannot start after it."
    ]
    with pytest.raises(ValidationError) as caught:
        _schedule(two_tables, starts_at=dt.datetime(2026, 12, 11, 10, tzinfo=dt.UTC))
    assert "starts_at" in caught.value.message_dict
    two_tables["round"].refresh_from_db()
    assert two_tables["round"].starts_at is None
    _schedule(two_tables, starts_at=dt.datetime(2026, 12, 13, 10, tzinfo=dt.UTC))


def test_without_days_a_round_still_starts_between_2000_and_2100(two_tables):
    with pytest.raises(ValidationError) as caught:
        _schedule(two_tables, starts_at=dt.datetime(2130, 1, 1, 10, tzinfo=dt.UTC))
    assert caught.value.message_dict["starts_at"] == [
        "Give a date between the years 2000 and 2100."
    ]


def test_a_round_cannot_start_before_the_round_played_before_it(two_tables):
    from mafiatab.games.models import Round

    first = two_tables["round"]
    second = Round.objects.create(tournament=first.tournament, stage="qualifying", number=2)
    _schedule(two_tables, starts_at=dt.datetime(2026, 12, 12, 11, tzinfo=dt.UTC))
    organiser = two_tables["organiser"]
    with pytest.raises(ValidationError) as caught:
        round_schedule_set(
            round=second,
            schedule=RoundSchedule(starts_at=dt.datetime(2026, 12, 12, 10, tzinfo=dt.UTC)),
            by=organiser,
        )
    assert caught.value.message_dict["starts_at"] == [
        "Round qualifying 1 starts at 12 Dec 2026, 11:00: this round is played after it, "
        "so it must start later."
    ]
    later = dt.datetime(2026, 12, 12, 12, tzinfo=dt.UTC)
    round_schedule_set(round=second, schedule=RoundSchedule(starts_at=later), by=organiser)
    with pytest.raises(ValidationError) as caught:
        _schedule(two_tables, starts_at=dt.datetime(2026, 12, 12, 13, tzinfo=dt.UTC))
    assert "must start earlier" in caught.value.message_dict["starts_at"][0]


def test_the_rounds_page_says_in_russian_why_a_time_is_refused(two_tables):
    from mafiatab.games.models import Round

    first = two_tables["round"]
    second = Round.objects.create(tournament=first.tournament, stage="qualifying", number=2)
    _schedule(two_tables, starts_at=dt.datetime(2026, 12, 12, 11, tzinfo=dt.UTC))
    client = Client()
    client.force_login(two_tables["organiser"])
    client.cookies["django_language"] = "ru"
    url = reverse("games:round_schedule", args=[first.tournament.slug, second.pk])
    data = {"starts_at": "2026-12-12T10:00", "place": "", "link": ""}
    response = client.post(url, data, follow=True)
    assert "этот тур играется после него, поэтому должен начаться позже" in (
        response.content.decode()
    )
    second.refresh_from_db()
    assert second.starts_at is None


def _refused_form(response, round_):
    return next(form for row, _t, form, _l in response.context["rounds"] if row.pk == round_.pk)


def test_a_refused_time_is_said_beside_the_field_and_what_was_typed_is_kept(two_tables):
    tournament = two_tables["round"].tournament
    tournament.starts_on, tournament.ends_on = dt.date(2026, 12, 10), dt.date(2026, 12, 12)
    tournament.save()
    round_ = two_tables["round"]
    client = Client()
    client.force_login(two_tables["organiser"])
    client.cookies["django_language"] = "ru"
    url = reverse("games:round_schedule", args=[tournament.slug, round_.pk])
    data = {"starts_at": "2026-12-13T01:30", "place": "Зал 3", "link": ""}
    response = client.post(url, data)
    assert response.status_code == 200
    form = _refused_form(response, round_)
    assert form.errors == {
        "starts_at": ["Турнир заканчивается 12.12.2026: тур не может начаться позже."]
    }
    text = response.content.decode()
    assert f'id="id_when{round_.pk}_starts_at"' in text
    assert 'value="2026-12-13T01:30"' in text and 'value="Зал 3"' in text
    assert not [m for m in response.context["messages"] if m.level_tag == "error"]
    round_.refresh_from_db()
    assert (round_.starts_at, round_.place) == (None, "")


def test_a_time_that_is_not_a_time_is_said_beside_the_field(two_tables):
    round_ = two_tables["round"]
    client = Client()
    client.force_login(two_tables["organiser"])
    url = reverse("games:round_schedule", args=[round_.tournament.slug, round_.pk])
    response = client.post(url, {"starts_at": "soon", "place": "Hall Z", "link": ""})
    assert response.status_code == 200
    assert list(_refused_form(response, round_).errors) == ["starts_at"]
    assert 'value="soon"' in response.content.decode()


def test_after_a_change_made_meanwhile_saving_again_keeps_what_was_typed(two_tables):
    client = Client()
    client.force_login(two_tables["organiser"])
    round_ = two_tables["round"]
    stamp = schedule_of(round_).stamp()
    _schedule(two_tables, place="Hall B")  # someone saves meanwhile
    url = reverse("games:round_schedule", args=[round_.tournament.slug, round_.pk])
    data = {"starts_at": "2026-12-05T12:00", "place": "Hall C", "link": "", "stamp": stamp}
    response = client.post(url, data)
    form = _refused_form(response, round_)
    assert "changed this round" in " ".join(form.non_field_errors())
    assert form.data["place"] == "Hall C" and form.data["stamp"] != stamp
    again = client.post(url, dict(form.data.items()))
    assert again.status_code == 302
    round_.refresh_from_db()
    assert round_.place == "Hall C"
