from __future__ import annotations

import pytest
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.games.models import Game, Round, Table
from mafiatab.games.services import TablePlan, round_create
from mafiatab.registrations.services import registration_add, registration_remove
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services import SeatingInputs, seating_generate
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_search(settings):
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000


@pytest.fixture
def thirty(tournament, organiser, make_user):
    users = [make_user(f"Ace{i:02d}") for i in range(1, 31)]
    for user in users:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    return users


@pytest.fixture
def judges(tournament, organiser, make_user):
    people = [make_user(f"Judge{i}") for i in (1, 2, 3)]
    for judge in people:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    return people


@pytest.fixture
def draft(tournament, thirty, organiser):
    inputs = SeatingInputs(stage="qualifying", games=10, tables=3, seed=5)
    return seating_generate(tournament=tournament, inputs=inputs, by=organiser)


def _publish(client, draft, **judges):
    url = reverse("seating:publish", args=[draft.tournament.slug, draft.pk])
    return client.post(url, {f"table_{n}": user.pk for n, user in judges.items()}, follow=True)


def _defaults(judges):
    return {"1": judges[0], "2": judges[1], "3": judges[2]}


def test_the_publish_form_offers_the_table_judges_in_order(client, draft, judges, organiser):
    client.force_login(organiser)
    form = client.get(draft.get_absolute_url()).context["publish_form"]
    assert [form.fields[f"table_{n}"].initial for n in (1, 2, 3)] == [j.pk for j in judges]


def test_publishing_creates_every_round_and_table_with_its_judge(
    client, draft, judges, organiser, tournament
):
    client.force_login(organiser)
    response = _publish(client, draft, **{f"{n}": j for n, j in _defaults(judges).items()})
    assert response.redirect_chain[-1][0] == reverse("seating:index", args=[tournament.slug])

    draft.refresh_from_db()
    assert draft.status == DraftStatus.PUBLISHED
    assert draft.published_by == organiser
    assert draft.judges == {"1": "Judge1", "2": "Judge2", "3": "Judge3"}
    rounds = Round.objects.filter(tournament=tournament, stage="qualifying").order_by("number")
    assert [r.number for r in rounds] == list(range(1, 11))
    for stored, planned in zip(rounds, draft.rounds, strict=True):
        tables = stored.tables.order_by("number").prefetch_related("seats")
        assert [t.number for t in tables] == [1, 2, 3]
        for table, plan in zip(tables, planned["tables"], strict=True):
            assert [s.player for s in table.seats.all()] == plan["seats"]
            assert table.judge == judges[table.number - 1]
    assert Game.objects.filter(tournament=tournament).count() == 30
    entry = AuditEntry.objects.get(action="seating.published")
    assert entry.actor == organiser and entry.after["seed"] == 5


def test_the_organiser_picks_the_judge_of_each_table(client, draft, judges, organiser):
    client.force_login(organiser)
    _publish(client, draft, **{"1": judges[2], "2": judges[0]})
    table = {t.number: t.judge for t in Table.objects.filter(round__number=1)}
    assert table == {1: judges[2], 2: judges[0], 3: None}


def test_one_judge_at_two_tables_is_refused(client, draft, judges, organiser):
    client.force_login(organiser)
    page = _publish(client, draft, **{"1": judges[0], "3": judges[0]}).content.decode()
    assert "Judge1 cannot judge tables 1 and 3 at the same time." in page
    assert not Round.objects.exists()
    draft.refresh_from_db()
    assert draft.status == DraftStatus.DRAFT


def test_publishing_twice_is_refused(client, draft, judges, organiser, tournament):
    client.force_login(organiser)
    _publish(client, draft, **_defaults(judges))
    again = _publish(client, draft, **_defaults(judges)).content.decode()
    refusal = "The qualifying seating is already published (seed 5); it cannot be published twice."
    assert refusal in again
    other = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="qualifying", games=10, tables=3, seed=6),
        by=organiser,
    )
    page = _publish(client, other, **_defaults(judges)).content.decode()
    assert "it cannot be published twice" in page
    assert Round.objects.count() == 10
    assert SeatingDraft.objects.filter(status=DraftStatus.PUBLISHED).get() == draft


def test_an_existing_round_stops_the_whole_publication(
    client, draft, judges, organiser, tournament, thirty
):
    round_create(
        tournament=tournament,
        stage="qualifying",
        number=4,
        tables=[TablePlan(number=1, judge=None, players=tuple(u.nickname for u in thirty[:10]))],
        by=organiser,
    )
    client.force_login(organiser)
    page = _publish(client, draft, **_defaults(judges)).content.decode()
    assert (
        "Rounds 4 of this stage already hold tables; the seating cannot be published into them."
        in page
    )
    assert list(Round.objects.values_list("number", flat=True)) == [4]
    draft.refresh_from_db()
    assert draft.status == DraftStatus.DRAFT


def test_publishing_seats_the_rounds_made_to_set_their_times_keeping_them(
    client, draft, judges, organiser, tournament
):
    import datetime as dt

    from mafiatab.games.services import RoundSchedule, round_schedule_set

    client.force_login(organiser)
    made = {}
    for number in (1, 2, 3):  # the rounds page's form: a round without tables, then its time
        client.post(
            reverse("games:rounds", args=[tournament.slug]),
            {"stage": "qualifying", "number": number},
        )
        made[number] = Round.objects.get(tournament=tournament, number=number)
        round_schedule_set(
            round=made[number],
            schedule=RoundSchedule(
                starts_at=dt.datetime(2026, 12, 10, 9 + number, tzinfo=dt.UTC),
                place="Hall B",
                link="https://meet.example.org/q",
            ),
            by=organiser,
        )
    response = _publish(client, draft, **_defaults(judges))
    assert response.redirect_chain[-1][0] == reverse("seating:index", args=[tournament.slug])
    draft.refresh_from_db()
    assert draft.status == DraftStatus.PUBLISHED
    rounds = Round.objects.filter(tournament=tournament, stage="qualifying").order_by("number")
    assert [r.number for r in rounds] == list(range(1, 11))
    for number, before in made.items():
        after = rounds.get(number=number)
        assert after.pk == before.pk
        assert (after.starts_at, after.place, after.link) == (
            dt.datetime(2026, 12, 10, 9 + number, tzinfo=dt.UTC),
            "Hall B",
            "https://meet.example.org/q",
        )
        assert [t.number for t in after.tables.order_by("number")] == [1, 2, 3]
    assert Game.objects.filter(tournament=tournament).count() == 30
    client.cookies["django_language"] = "ru"
    for name in ("seating:index", "seating:mine"):
        page = client.get(reverse(name, args=[tournament.slug])).content.decode()
        assert "Рассадка ещё не опубликована." not in page


def test_a_draft_of_other_participants_is_not_published(client, draft, judges, organiser, thirty):
    registration = thirty[0].registrations.get()
    registration_remove(registration=registration, by=organiser, reason="left")
    client.force_login(organiser)
    page = _publish(client, draft, **_defaults(judges)).content.decode()
    assert "The participants changed since this draft was generated" in page
    assert "no longer participants: Ace01" in page
    assert not Round.objects.exists()


def test_a_player_sees_his_table_and_seat_in_each_round(client, draft, judges, organiser, thirty):
    client.force_login(organiser)
    _publish(client, draft, **_defaults(judges))
    player = thirty[6]
    client.force_login(player)
    response = client.get(reverse("seating:mine", args=[draft.tournament.slug]))
    page = response.content.decode()
    for rnd in draft.rounds:
        for table in rnd["tables"]:
            if player.nickname in table["seats"]:
                seat = table["seats"].index(player.nickname) + 1
                expected = (
                    f'<tr data-testid="my-round-{rnd["round"]}">\n      <td>{rnd["round"]}</td>\n'
                    f'      <td class="strong">{table["table"]}</td>'
                    f'<td class="strong">{seat}</td><td>Judge{table["table"]}</td>'
                )
                assert expected in page


def test_the_public_seating_is_searchable_by_nickname(client, draft, judges, organiser):
    client.force_login(organiser)
    _publish(client, draft, **_defaults(judges))
    client.logout()
    url = reverse("seating:index", args=[draft.tournament.slug])
    page = client.get(url).content.decode()
    assert 'data-testid="round-10-table-3"' in page
    found = client.get(url, {"q": "ace07"}).content.decode()
    assert 'data-testid="found-Ace07"' in found
    assert 'data-testid="found-Ace08"' not in found
    partial = client.get(
        url, {"q": "Ace0"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="search-results"
    ).content.decode()
    assert partial.lstrip().startswith('<div id="search-results"')
    assert partial.count('data-testid="found-') == 9
    nothing = client.get(url, {"q": "Zed"}).content.decode()
    assert "No player’s nickname contains “Zed”." in nothing


def test_the_published_print_sheet_is_public_with_the_judges(client, draft, judges, organiser):
    client.force_login(organiser)
    _publish(client, draft, **_defaults(judges))
    client.logout()
    page = client.get(reverse("seating:print", args=[draft.tournament.slug, draft.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="sheet-round"') == 10
    assert text.count("Judge: Judge2") == 10


def test_a_seating_whose_games_differ_from_the_stage_plan_is_not_published(
    client, draft, judges, organiser, tournament
):
    from mafiatab.tournaments.services import tournament_stages_update

    plan = [{"stage": "qualifying", "games": 8}, {"stage": "final", "players": 10, "games": 10}]
    tournament_stages_update(tournament=tournament, stages=plan, by=organiser)
    client.force_login(organiser)
    page = _publish(client, draft, **_defaults(judges)).content.decode()
    assert (
        "The stage plan gives each player 8 games of this stage, this seating 10: "
        "change the plan or generate a seating of 8 games."
    ) in page
    assert not Round.objects.exists()
    draft.refresh_from_db()
    assert draft.status == DraftStatus.DRAFT
