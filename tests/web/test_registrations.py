from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.registrations.models import CheckIn, Registration, Replacement, Status
from mafiatab.registrations.services import (
    checkin_open,
    checkin_record,
    registration_add,
    registration_apply,
    registration_approve,
)

pytestmark = pytest.mark.django_db


def _url(name, tournament, *args):
    return reverse(name, args=[tournament.slug, *args])


def _apply(client, user, tournament):
    client.force_login(user)
    return client.post(_url("registrations:apply", tournament), follow=True)


def test_applying_puts_the_player_among_applications_awaiting_confirmation(
    client, tournament, make_user
):
    player = make_user("Lis")
    page = _apply(client, player, tournament).content.decode()
    registration = Registration.objects.get(user=player)
    assert registration.status == Status.PENDING
    pending = page[page.index('id="pending"') :]
    assert "Lis" in pending[: pending.index("</section>")]


def test_organiser_approves_and_the_player_becomes_a_participant(
    client, tournament, organiser, make_user
):
    player = make_user("Lis")
    registration = registration_apply(tournament=tournament, user=player)
    client.force_login(organiser)
    client.post(_url("registrations:approve", tournament, registration.pk))
    registration.refresh_from_db()
    assert registration.status == Status.APPROVED
    assert registration.decided_by == organiser
    page = client.get(tournament.get_absolute_url()).content.decode()
    participants = page[page.index('id="participants"') :]
    assert "Lis" in participants[: participants.index("</section>")]


def test_chief_judge_may_approve_too(client, tournament, staff, make_user):
    registration = registration_apply(tournament=tournament, user=make_user("Fox"))
    client.force_login(staff["chief"])
    client.post(_url("registrations:approve", tournament, registration.pk))
    registration.refresh_from_db()
    assert registration.status == Status.APPROVED


def test_rejection_needs_a_reason_and_the_player_sees_it(client, tournament, organiser, make_user):
    player = make_user("Lis")
    registration = registration_apply(tournament=tournament, user=player)
    client.force_login(organiser)
    response = client.post(
        _url("registrations:reject", tournament, registration.pk), {"reason": ""}, follow=True
    )
    assert "Give the reason for the rejection." in response.content.decode()
    registration.refresh_from_db()
    assert registration.status == Status.PENDING

    client.post(
        _url("registrations:reject", tournament, registration.pk),
        {"reason": "no verified platform account"},
    )
    registration.refresh_from_db()
    assert registration.status == Status.REJECTED
    client.force_login(player)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "no verified platform account" in page


def test_applying_twice_is_refused_and_stores_nothing(client, tournament, make_user):
    player = make_user("Lis")
    _apply(client, player, tournament)
    response = _apply(client, player, tournament)
    assert "You have already applied to this tournament." in response.content.decode()
    assert Registration.objects.filter(user=player).count() == 1


def test_applying_to_a_full_tournament_is_refused_and_stores_nothing(
    client, make_tournament, organiser, make_user
):
    tournament = make_tournament(participant_limit=1, waiting_list_limit=0)
    registration_add(tournament=tournament, nickname="", user=make_user("First"), by=organiser)
    late = make_user("Late")
    response = _apply(client, late, tournament)
    assert "The tournament is full" in response.content.decode()
    assert not Registration.objects.filter(user=late).exists()


def test_applying_to_a_closed_registration_is_refused(client, make_tournament, make_user):
    tournament = make_tournament(registration_open=False)
    player = make_user("Lis")
    response = _apply(client, player, tournament)
    assert "Registration for this tournament is closed." in response.content.decode()
    assert not Registration.objects.filter(user=player).exists()


def test_approved_beyond_the_limit_go_to_the_waiting_list_which_moves_up_on_withdrawal(
    client, make_tournament, organiser, make_user
):
    tournament = make_tournament(participant_limit=2)
    first, second, third, fourth = (
        registration_apply(tournament=tournament, user=make_user(n))
        for n in ("A1", "B2", "C3", "D4")
    )
    for registration in (first, second, third, fourth):
        registration_approve(registration=registration, by=organiser)
    statuses = {r.nickname: r.status for r in Registration.objects.all()}
    assert statuses == {
        "A1": Status.APPROVED,
        "B2": Status.APPROVED,
        "C3": Status.WAITING,
        "D4": Status.WAITING,
    }
    client.force_login(first.user)
    client.post(_url("registrations:withdraw_own", tournament))
    statuses = {r.nickname: r.status for r in Registration.objects.all()}
    assert statuses["A1"] == Status.WITHDRAWN
    assert statuses["C3"] == Status.APPROVED  # first in line moves up
    assert statuses["D4"] == Status.WAITING


def test_a_withdrawn_application_stays_visible_to_the_organiser(
    client, tournament, organiser, make_user
):
    player = make_user("Lis")
    registration_apply(tournament=tournament, user=player)
    client.force_login(player)
    client.post(_url("registrations:withdraw_own", tournament))
    client.force_login(organiser)
    page = client.get(_url("registrations:manage", tournament)).content.decode()
    closed = page[page.index('id="closed"') :]
    assert "Lis" in closed and "withdrawn" in closed


def test_organiser_adds_a_player_directly_with_or_without_an_account(
    client, tournament, organiser, make_user
):
    member = make_user("Member")
    client.force_login(organiser)
    client.post(_url("registrations:add", tournament), {"nickname": "member"})
    client.post(_url("registrations:add", tournament), {"nickname": "Guest Star"})
    rows = {r.nickname: r for r in Registration.objects.filter(status=Status.APPROVED)}
    assert rows["Member"].user == member
    assert rows["Guest Star"].user is None


def test_adding_a_nickname_already_registered_is_refused(client, tournament, organiser):
    client.force_login(organiser)
    client.post(_url("registrations:add", tournament), {"nickname": "Guest"})
    url = _url("registrations:add", tournament)
    response = client.post(url, {"nickname": "GUEST"}, follow=True)
    assert "is already registered for this tournament" in response.content.decode()
    assert Registration.objects.filter(tournament=tournament).count() == 1


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("Sha\u202edow", "the nickname holds a bidirectional-formatting character"),
        ("Sha\ndow", "the nickname holds a control character"),
    ],
)
def test_a_nickname_no_protocol_could_hold_is_refused_when_a_player_is_added(
    client, tournament, organiser, nickname, message
):
    client.force_login(organiser)
    url = _url("registrations:add", tournament)
    response = client.post(url, {"nickname": nickname}, follow=True)
    assert message in response.content.decode()
    from mafiatab.api.services import token_create

    _token, token = token_create(user=organiser, name="script")
    response = client.post(
        f"/api/tournaments/{tournament.slug}/participants",
        {"nickname": nickname},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_participants_check_in_before_each_day(client, make_tournament, organiser, make_user):
    import datetime as dt

    tournament = make_tournament(starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2))
    player = make_user("Lis")
    registration = registration_add(tournament=tournament, nickname="", user=player, by=organiser)
    checkin_open(tournament=tournament, day=1, by=organiser)
    client.force_login(player)
    client.post(_url("registrations:checkin_self", tournament), {"day": "1"})
    client.force_login(organiser)
    client.post(
        _url("registrations:checkin", tournament), {"registration": registration.pk, "day": "2"}
    )
    assert sorted(CheckIn.objects.values_list("day", flat=True)) == [1, 2]
    again = client.post(
        _url("registrations:checkin", tournament),
        {"registration": registration.pk, "day": "2"},
        follow=True,
    )
    assert "has already checked in for day 2" in again.content.decode()
    beyond = client.post(
        _url("registrations:checkin", tournament),
        {"registration": registration.pk, "day": "3"},
        follow=True,
    )
    assert "The tournament has no day 3." in beyond.content.decode()
    assert CheckIn.objects.count() == 2


def test_a_player_sees_the_days_he_is_checked_in_for_and_is_offered_the_next(
    client, make_tournament, organiser, make_user
):
    import datetime as dt

    tournament = make_tournament(starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2))
    player = make_user("Lis")
    registration = registration_add(tournament=tournament, nickname="", user=player, by=organiser)
    client.force_login(organiser)
    client.post(
        _url("registrations:checkin", tournament), {"registration": registration.pk, "day": "1"}
    )
    client.force_login(player)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Вы отмечены на день 1." in page
    # day 2's check-in is not open yet: he is told it opens at the venue, and refused
    assert 'data-testid="checkin-closed"' in page and 'name="day"' not in page
    refused = client.post(_url("registrations:checkin_self", tournament), {"day": "2"}, follow=True)
    assert "Check-in for day 2 is not open" in refused.content.decode()
    assert CheckIn.objects.filter(day=2).count() == 0
    checkin_open(tournament=tournament, day=2, by=organiser)
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Отметиться на день 2" in page and 'name="day" value="2"' in page
    client.post(_url("registrations:checkin_self", tournament), {"day": "2"})
    page = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Вы отмечены на день 1, 2." in page
    assert 'name="day"' not in page


def test_a_player_not_yet_approved_cannot_check_in(client, tournament, make_user):
    player = make_user("Lis")
    registration_apply(tournament=tournament, user=player)
    client.force_login(player)
    response = client.post(_url("registrations:checkin_self", tournament), {"day": "1"})
    assert response.status_code == 403
    assert not CheckIn.objects.exists()


def _round_three_with_seated(tournament, organiser):
    """Round 3 made, Seated at its table: a seat for a reserve to take."""
    from mafiatab.games.services import TablePlan, round_create

    others = [f"Other{n}" for n in range(1, 10)]
    for name in others:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    plan = TablePlan(number=1, judge=None, players=("Seated", *others))
    round_create(tournament=tournament, stage="qualifying", number=3, tables=[plan], by=organiser)


def test_a_player_more_than_15_minutes_late_is_replaced_for_the_round(
    client, tournament, staff, make_user
):
    _round_three_with_seated(tournament, staff["organiser"])
    absent = Registration.objects.get(nickname="Seated")
    client.force_login(staff["chief"])
    response = client.post(
        _url("seating:replace", tournament),
        {
            "absent": absent.pk,
            "reserve_nickname": "Reserve",
            "new_player": "on",
            "round": "3",
            "minutes_late": "15",
        },
        follow=True,
    )
    assert "Only a player more than 15 minutes late can be replaced." in response.content.decode()
    assert not Replacement.objects.exists()
    client.post(
        _url("seating:replace", tournament),
        {
            "absent": absent.pk,
            "reserve_nickname": "Reserve",
            "new_player": "on",
            "round": "3",
            "minutes_late": "16",
        },
    )
    replacement = Replacement.objects.get()
    assert (replacement.round, replacement.reserve_nickname) == (3, "Reserve")
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Round 3: Reserve instead of Seated" in page
    absent.refresh_from_db()
    assert absent.status == Status.APPROVED  # replaced for one round only


def test_the_organiser_opens_the_check_in_and_the_participants_not_yet_in_are_told(
    client, make_tournament, organiser, make_user
):
    import datetime as dt

    from mafiatab.notifications.models import Notification

    tournament = make_tournament(starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2))
    here, coming = make_user("Lis"), make_user("Volk")
    first = registration_add(tournament=tournament, nickname="", user=here, by=organiser)
    registration_add(tournament=tournament, nickname="", user=coming, by=organiser)
    checkin_record(registration=first, day=1, by=organiser)
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    page = client.get(_url("registrations:manage", tournament)).content.decode()
    assert 'data-testid="checkin-open"' in page and "Открыть отметку" in page
    done = client.post(_url("registrations:checkin_open", tournament), {"day": "1"}, follow=True)
    assert "Отметка на день 1 открыта" in done.content.decode()
    tournament.refresh_from_db()
    assert tournament.checkin_day == 1
    told = Notification.objects.filter(kind="checkin.opened")
    assert list(told.values_list("recipient", flat=True)) == [coming.pk]
    assert tournament.audit_entries.filter(action="checkin.opened").count() == 1
    # opened again by a second organiser: nothing new
    client.post(_url("registrations:checkin_open", tournament), {"day": "1"})
    assert told.count() == 1
    assert (
        "Игроки сами отмечаются на день 1."
        in client.get(_url("registrations:manage", tournament)).content.decode()
    )
    client.post(_url("registrations:checkin_open", tournament), {"day": ""})
    tournament.refresh_from_db()
    assert tournament.checkin_day is None
    bad = client.post(_url("registrations:checkin_open", tournament), {"day": "9"}, follow=True)
    assert "В турнире нет дня 9." in bad.content.decode() or "no day 9" in bad.content.decode()
    assert (
        client.post(_url("registrations:checkin_open", tournament), {"day": "x" * 50}).status_code
        == 302
    )
    # a player cannot open it
    client.force_login(coming)
    assert (
        client.post(_url("registrations:checkin_open", tournament), {"day": "1"}).status_code == 403
    )


def test_a_refused_replacement_comes_back_with_what_was_typed_beside_its_form(
    client, tournament, staff
):
    absent = Registration.objects.get(nickname="Seated")
    client.force_login(staff["chief"])
    client.cookies["django_language"] = "ru"
    response = client.post(
        _url("seating:replace", tournament),
        {
            "absent": absent.pk,
            "reserve_nickname": "Запасной Игрок",
            "round": "3",
            "minutes_late": "2",
            "scope": "rest",
        },
    )
    assert response.status_code == 302 and response["Location"].endswith("#replace")
    page = client.get(response["Location"]).content.decode()
    panel = page[page.index('id="replace"') :]
    assert 'data-testid="replace-refused"' in panel
    assert "опоздавшего более чем на 15 минут" in panel
    assert 'value="Запасной Игрок"' in panel and 'value="3"' in panel and 'value="2"' in panel
    assert f'value="{absent.pk}" selected' in panel and 'value="rest" checked' in panel
    # read once: the page afterwards is the empty form again
    again = client.get(_url("registrations:manage", tournament)).content.decode()
    assert 'data-testid="replace-refused"' not in again
    assert not Replacement.objects.exists()


def test_a_nickname_too_long_to_add_is_refused_saying_the_maximum(client, tournament, organiser):
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    url = _url("registrations:add", tournament)
    response = client.post(url, {"nickname": "x" * 100}, follow=True)
    page = response.content.decode()
    assert "Никнейм может быть не длиннее 64 символов, а в этом 100." in page
    assert "Укажите никнейм игрока." not in page
    assert not Registration.objects.filter(tournament=tournament).exists()
    response = client.post(url, {"nickname": ""}, follow=True)
    assert "Укажите никнейм игрока." in response.content.decode()
