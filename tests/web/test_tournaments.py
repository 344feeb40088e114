from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.tournaments.models import StaffMember, Tournament

pytestmark = pytest.mark.django_db


def _form(**fields):
    return {
        "name": "Autumn Online",
        "ruleset": "fiim-online",
        "platform": "SWIPEAL",
        "starts_on": "2026-10-03",
        "ends_on": "2026-10-04",
        "stars": "2",
        "registration_open": "on",
    } | fields


def test_healthz_answers_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


def test_creating_a_tournament_makes_its_author_the_organiser(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new"), _form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == tournament.get_absolute_url()
    assert StaffMember.objects.filter(tournament=tournament, user=organiser, role="organiser")


def test_an_online_tournament_cannot_have_more_than_two_stars(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new"), _form(stars="3"))
    assert response.status_code == 200
    assert "cannot have more than 2 stars" in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_offline_tournament_may_have_three_stars(client, organiser):
    client.force_login(organiser)
    client.post(reverse("tournaments:new"), _form(ruleset="fiim", stars="3", place="Moscow"))
    assert Tournament.objects.get().stars == 3


def test_editing_an_online_tournament_to_three_stars_is_refused(client, organiser, tournament):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:edit", args=[tournament.slug]), _form(stars="3"))
    assert "cannot have more than 2 stars" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.stars is None


def test_front_page_lists_the_tournaments(client, make_tournament):
    make_tournament(name="Winter Cup")
    make_tournament(name="Summer Open", ruleset="fiim", platform="")
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Winter Cup" in page
    assert "Summer Open" in page


def test_public_page_shows_information_rules_participants_and_no_pending(client, staff, tournament):
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Spring Cup" in page
    assert "SWIPEAL" in page
    assert "Organiser" in page and "Chief" in page
    assert "Addendum to the FIIM rules for online tournaments" in page
    assert "No lift of three at nine." in page
    assert "Seated" in page  # the participant
    pending = page[page.index('id="pending"') :]
    assert "No application is waiting for a decision." in pending[: pending.index("</section>")]


def test_public_page_of_an_offline_tournament_has_no_online_addendum(client, make_tournament):
    tournament = make_tournament(ruleset="fiim", platform="", place="Moscow, Arbat 1")
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Moscow, Arbat 1" in page
    assert "Addendum to the FIIM rules" not in page


def test_public_page_shows_the_core_standings(client, demo_imported):
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.scoring import format_points
    from mafiatab.core.standings import compute_standings

    leader = compute_standings(demo_tournament()).rows[0]
    page = client.get(demo_imported.get_absolute_url()).content.decode()
    standings = page[page.index('data-testid="standings"') :]
    assert leader.player in standings
    assert format_points(leader.total) in standings


def test_player_page_lists_every_line_of_points(client, demo_imported):
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.scoring import explain

    core = demo_tournament()
    lines = explain(core, "Пилот")
    page = client.get(reverse("standings:player", args=[demo_imported.slug, "Пилот"]))
    text = page.content.decode()
    assert text.count("<tr>") == len(lines) + 1
    assert "опоздание на 7 минут к туру 3" in text


def test_organiser_gives_a_table_judge_role(client, organiser, tournament, make_user):
    judge = make_user("Arbiter")
    client.force_login(organiser)
    client.post(
        reverse("tournaments:staff", args=[tournament.slug]),
        {"nickname": "arbiter", "role": "table_judge"},
    )
    assert tournament.staff("table_judge") == [judge]


def test_a_cyrillic_name_gets_a_readable_address(make_tournament):
    assert make_tournament(name="Кубок Зимы — 2026").slug == "kubok-zimy-2026"
    assert make_tournament(name="Кубок Зимы — 2026").slug == "kubok-zimy-2026-2"


def test_a_tournament_named_new_gets_an_address_its_page_can_be_reached_at(client, make_tournament):
    from django.core.exceptions import ValidationError

    from mafiatab.tournaments.services import chosen_slug

    tournament = make_tournament(name="New")
    assert tournament.slug == "new-2"
    page = client.get(reverse("tournaments:detail", args=[tournament.slug]))
    assert page.status_code == 200 and "New" in page.content.decode()
    with pytest.raises(ValidationError):
        chosen_slug("new")


def test_a_nickname_with_a_slash_has_its_own_points_page(client, demo_file_text):
    from mafiatab.core.tournament_file import loads_tournament
    from mafiatab.standings.services.tournament_file import tournament_import

    text = demo_file_text.replace('"Doc"', '"Doc/Who"')
    tournament = tournament_import(core=loads_tournament(text), by=None)
    table = client.get(reverse("standings:table", args=[tournament.slug]))
    assert table.status_code == 200
    url = reverse("standings:player", args=[tournament.slug, "Doc/Who"])
    assert url in table.content.decode()
    assert "Doc/Who" in client.get(url).content.decode()
    missing = reverse("standings:player", args=[tournament.slug, "Nobody"])
    assert client.get(missing).status_code == 404


def test_the_participant_limit_cannot_go_below_the_approved_participants(
    client, organiser, tournament
):
    from mafiatab.registrations.services import registration_add

    for n in range(1, 25):
        registration_add(tournament=tournament, nickname=f"P{n:02}", by=organiser)
    client.force_login(organiser)
    edit = reverse("tournaments:edit", args=[tournament.slug])
    response = client.post(edit, _form(participant_limit="10"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["participant_limit"] == [
        "The limit cannot be below the participants already approved: 24. "
        "Withdraw participants first, or set a limit of 24 or more."
    ]
    tournament.refresh_from_db()
    assert tournament.participant_limit is None
    assert client.post(edit, _form(participant_limit="24")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.participant_limit == 24


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "field"),
    [("0001-01-01", "2026-10-04", "starts_on"), ("2026-10-03", "9999-12-31", "ends_on")],
)
def test_a_tournament_day_outside_2000_2100_is_refused(
    client, organiser, starts_on, ends_on, field
):
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:new"),
        _form(starts_on=starts_on, ends_on=ends_on),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.context["form"].errors[field] == [
        "Give a date between the years 2000 and 2100."
    ]
    assert not Tournament.objects.exists()
