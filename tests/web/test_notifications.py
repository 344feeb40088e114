"""Notifications: each event reaches exactly the people it concerns, in their language;
the inbox, the badge and the e-mail choices."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.announcements.services import ALL, STAGE, TABLE, Audience, broadcast_send
from mafiatab.games.services import (
    protest_decide,
    protest_file,
    protocol_confirm,
    protocol_return,
    protocol_save,
)
from mafiatab.notifications.kinds import KINDS, render
from mafiatab.notifications.models import Delivery, Notification, Preferences
from mafiatab.notifications.services import inbox_mark_read, notify
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.registrations.models import Registration
from mafiatab.registrations.services import (
    registration_apply,
    registration_approve,
    registration_reject,
    registration_withdraw,
)
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish
from mafiatab.standings.services import standings_freeze, standings_set_hidden
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db
two_tables = fx.two_tables

SUBMITTED = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def _got(kind: str) -> dict[int, Notification]:
    """Who got a message of `kind` (account id → the message)."""
    return {n.recipient_id: n for n in Notification.objects.filter(kind=kind)}


def _said(notification: Notification, language: str) -> str:
    with translation.override(language):
        said = render(notification.kind, notification.params)
    return f"{said.title}\n{said.text}"


@pytest.fixture
def table_people(two_tables, make_user):
    """The two tables with an account at each: Alpha1 at table 1, Bravo1 at table 2."""
    bravo = make_user("Bravo1", username="bravo1")
    Registration.objects.filter(nickname="Bravo1").update(user=bravo)
    Notification.objects.all().delete()
    return two_tables | {"bravo1": bravo}


def test_every_kind_is_said_in_russian():
    for kind in KINDS.values():
        for words in (kind.label, kind.title, kind.text, kind.line):
            if words is None:
                continue
            with translation.override("en"):
                english = str(words)
            with translation.override("ru"):
                russian = str(words)
            assert russian != english or english == "%(text)s", kind.code


def test_applying_and_its_decisions_tell_the_player_alone(tournament, organiser, make_user):
    tournament.participant_limit = 1
    tournament.save()
    first, second, third = make_user("First"), make_user("Second"), make_user("Third")
    registrations = [
        registration_apply(tournament=tournament, user=u) for u in (first, second, third)
    ]
    assert set(_got("application.received")) == {first.pk, second.pk, third.pk}
    registration_approve(registration=registrations[0], by=organiser)
    registration_approve(registration=registrations[1], by=organiser)
    registration_reject(registration=registrations[2], by=organiser, reason="Not a FIIM member")
    assert set(_got("application.approved")) == {first.pk}
    assert set(_got("application.waitlisted")) == {second.pk}
    rejected = _got("application.rejected")
    assert set(rejected) == {third.pk}
    assert "Not a FIIM member" in _said(rejected[third.pk], "en")
    assert "отклонена" in _said(rejected[third.pk], "ru")
    # a place frees: the first of the waiting list moves up and is told
    registration_withdraw(registration=registrations[0], by=first)
    assert set(_got("application.approved")) == {first.pk, second.pk}
    assert organiser.pk not in {n.recipient_id for n in Notification.objects.all()}


def test_a_staff_role_is_told_to_its_holder(tournament, organiser, make_user):
    judge = make_user("Judy")
    staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    got = _got("staff.assigned")
    assert set(got) == {judge.pk}
    assert "судья стола" in _said(got[judge.pk], "ru")


def test_seating_tells_each_player_his_own_tables_and_each_judge_his(
    tournament, organiser, make_user, settings
):
    settings.MAFIATAB_SEATING_ITERATIONS = 300
    players = [make_user(f"Seat{i:02d}") for i in range(1, 21)]
    from mafiatab.registrations.services import registration_add

    for user in players:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    judges = [make_user("JudgeOne"), make_user("JudgeTwo")]
    for judge in judges:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    Notification.objects.all().delete()
    inputs = SeatingInputs(stage="qualifying", games=2, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={1: judges[0], 2: judges[1]}, by=organiser)

    got = _got("seating.published")
    assert set(got) == {u.pk for u in players}
    for user in players:
        rows = got[user.pk].params["rows"]
        expected = [
            {
                "round": r["round"],
                "table": int(t["table"]),
                "seat": t["seats"].index(user.nickname) + 1,
                "judge": judges[int(t["table"]) - 1].nickname,
            }
            for r in draft.rounds
            for t in r["tables"]
            if user.nickname in t["seats"]
        ]
        assert rows == expected and len(rows) == 2
    first = got[players[0].pk]
    row = first.params["rows"][0]
    russian = _said(first, "ru")
    assert f"Тур {row['round']}: стол {row['table']}, место {row['seat']}" in russian
    assert first.link == reverse("seating:mine", args=[tournament.slug])
    judged = _got("seating.judging")
    assert set(judged) == {j.pk for j in judges}
    assert {r["table"] for r in judged[judges[0].pk].params["rows"]} == {1}


def test_a_protocol_and_a_protest_reach_only_their_own_table(table_people):
    t = table_people
    game1, game2 = t["game1"], t["game2"]
    judge, judge2, chief = t["judge"], t["judge2"], t["chief"]
    alpha1, bravo1 = t["alpha1"], t["bravo1"]
    for game, who in ((game1, judge), (game2, judge2)):
        protocol_save(
            game=game, data=complete_data(game), by=who, base_version=1, submit=True, now=SUBMITTED
        )
    assert set(_got("protocol.submitted")) == {chief.pk}
    assert Notification.objects.filter(kind="protocol.submitted").count() == 2

    game2.refresh_from_db()
    protocol_return(game=game2, by=chief, reason="Check the votes of day 1")
    returned = _got("protocol.returned")
    assert set(returned) == {judge2.pk}
    assert "Check the votes of day 1" in _said(returned[judge2.pk], "en")

    game1.refresh_from_db()
    protocol_confirm(game=game1, by=chief)
    assert set(_got("protocol.confirmed")) == {judge.pk, alpha1.pk}  # not Bravo1 of table 2

    game1.refresh_from_db()
    protest = protest_file(
        game=game1,
        by=alpha1,
        text="Seat 3 got extra points",
        now=SUBMITTED + dt.timedelta(minutes=5),
    )
    filed = _got("protest.filed")
    assert set(filed) == {chief.pk}
    assert "Alpha1" in _said(filed[chief.pk], "en")
    protest_decide(protest=protest, by=chief, upheld=False, decision="The points were earned.")
    decided = _got("protest.decided")
    assert set(decided) == {alpha1.pk, judge.pk}
    assert bravo1.pk not in decided
    assert "решение: отклонён." in _said(decided[alpha1.pk], "ru")  # a protest: masculine


def test_a_penalty_is_told_to_the_penalised_player(table_people):
    t = table_people
    penalty_give(
        tournament=t["game1"].tournament,
        player="Alpha1",
        kind="lateness",
        minutes_late=7,
        reason="Late to round 1",
        by=t["chief"],
    )
    got = _got("penalty.given")
    assert set(got) == {t["alpha1"].pk}
    assert "Late to round 1" in _said(got[t["alpha1"].pk], "en")


def test_a_cancelled_penalty_is_told_to_the_penalised_player(table_people, client):
    t = table_people
    penalty = penalty_give(
        tournament=t["game1"].tournament,
        player="Alpha1",
        kind="lateness",
        minutes_late=7,
        reason="Late to round 1",
        by=t["chief"],
    )
    penalty_cancel(penalty=penalty, by=t["chief"], reason="He was on time")
    got = _got("penalty.cancelled")
    assert set(got) == {t["alpha1"].pk}
    english = _said(got[t["alpha1"].pk], "en")
    assert "cancelled the penalty of Alpha1 (-0.50): He was on time" in english
    russian = _said(got[t["alpha1"].pk], "ru")
    assert "Главный судья отменил наказание игрока Alpha1 (-0.50): He was on time" in russian
    assert "наказание отменено" in russian
    client.force_login(t["alpha1"])
    form = client.get(reverse("notifications:preferences")).context["form"]
    assert "penalty.cancelled" in KINDS and any(
        "penalty" in f and "cancel" in f for f in form.fields
    )


def test_showing_hidden_standings_and_fixing_them_tells_the_participants(table_people):
    t = table_people
    tournament = t["game1"].tournament
    standings_set_hidden(tournament=tournament, hidden=True, by=t["organiser"])
    assert not _got("standings.shown")
    standings_set_hidden(tournament=tournament, hidden=False, by=t["organiser"])
    assert set(_got("standings.shown")) == {t["alpha1"].pk, t["bravo1"].pk, t["player"].pk}
    standings_freeze(tournament=tournament, by=t["organiser"])
    assert set(_got("standings.frozen")) == {t["alpha1"].pk, t["bravo1"].pk, t["player"].pk}


def test_the_organiser_writes_to_all_a_stage_or_one_table(table_people):
    t = table_people
    tournament, organiser = t["game1"].tournament, t["organiser"]
    everyone = {t["alpha1"].pk, t["bravo1"].pk, t["player"].pk}
    broadcast_send(
        tournament=tournament, audience=Audience(ALL), text="Lunch at 14:00", by=organiser
    )
    assert set(_got("broadcast")) == everyone
    Notification.objects.all().delete()
    broadcast_send(
        tournament=tournament, audience=Audience(STAGE, stage="qualifying"), text="x", by=organiser
    )
    assert set(_got("broadcast")) == {t["alpha1"].pk, t["bravo1"].pk}  # the seated ones
    Notification.objects.all().delete()
    table = t["game2"].table_slot
    broadcast_send(
        tournament=tournament,
        audience=Audience(TABLE, table_id=table.pk),
        text="Room 2",
        by=organiser,
    )
    assert set(_got("broadcast")) == {t["bravo1"].pk, t["judge2"].pk}


def test_a_broadcast_is_bounded_and_the_organisers_alone(table_people, client):
    t = table_people
    tournament = t["game1"].tournament
    url = reverse("announcements:messages", args=[tournament.slug])
    client.force_login(t["chief"])
    assert client.get(url).status_code == 403
    client.force_login(t["organiser"])
    response = client.post(url, {"scope": ALL, "text": "x" * 2001})
    assert response.status_code == 200 and response.context["form"].errors["text"]
    response = client.post(url, {"scope": TABLE, "table": "99999", "text": "hi"})
    assert response.status_code == 200 and response.context["form"].errors["table"]
    response = client.post(url, {"scope": ALL, "text": "See you at 10"}, follow=True)
    assert response.status_code == 200
    assert Notification.objects.filter(kind="broadcast").count() == 3


def test_the_inbox_says_each_message_in_the_readers_language_and_marks_it_read(
    client, tournament, make_user
):
    reader, other = make_user("Reader"), make_user("Other")
    notify([reader, other], "broadcast", {"tournament": "Spring Cup", "text": "Hello"}, link="/")
    notify([reader], "staff.assigned", {"tournament": "Spring Cup", "role": "chief_judge"})
    client.force_login(reader)
    badge = client.get(reverse("notifications:badge"))
    assert (
        'data-testid="unread-badge"' in badge.content.decode() and ">2<" in badge.content.decode()
    )
    page = client.get(reverse("notifications:inbox"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "сообщение организатора" in page and "главный судья" in page
    page = client.get(reverse("notifications:inbox"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "a message from the organiser" in page
    mine = Notification.objects.get(recipient=reader, kind="broadcast")
    theirs = Notification.objects.get(recipient=other)
    assert client.get(reverse("notifications:open", args=[theirs.pk])).status_code == 404
    response = client.get(reverse("notifications:open", args=[mine.pk]))
    assert response.status_code == 302 and response["Location"] == "/"
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.is_read and not theirs.is_read
    client.post(reverse("notifications:mark_all_read"))
    assert not Notification.objects.filter(recipient=reader, read_at__isnull=True).exists()
    assert inbox_mark_read(user=other) == 1


def test_the_reader_language_is_kept_for_his_e_mails(client, make_user):
    reader = make_user("Polyglot")
    client.force_login(reader)
    client.get(reverse("notifications:inbox"), HTTP_ACCEPT_LANGUAGE="ru")
    assert Preferences.objects.get(user=reader).language == "ru"


def test_the_e_mail_choices_turn_kinds_off(client, make_user, smtp_server):
    reader = make_user("Chooser", email="chooser@example.org")
    client.force_login(reader)
    url = reverse("notifications:preferences")
    form = client.get(url).context["form"]
    data = {name: "on" for name in form.fields if name != "email_broadcast"}
    client.post(url, data)
    assert Preferences.objects.get(user=reader).email_off == ["broadcast"]
    notify([reader], "broadcast", {"tournament": "T", "text": "quiet"})
    notify([reader], "staff.assigned", {"tournament": "T", "role": "table_judge"})
    assert list(Delivery.objects.values_list("notification__kind", flat=True)) == ["staff.assigned"]


def test_a_table_added_by_hand_tells_its_players_their_seats_and_its_judge(table_people, make_user):
    from mafiatab.games.services import TablePlan, table_add
    from mafiatab.registrations.services import registration_add

    t = table_people
    tournament, organiser = t["game1"].tournament, t["organiser"]
    charlie = make_user("Charlie1")
    registration_add(tournament=tournament, nickname="", user=charlie, by=organiser)
    others = [f"Charlie{n}" for n in range(2, 11)]
    for nickname in others:
        registration_add(tournament=tournament, nickname=nickname, by=organiser)
    Notification.objects.all().delete()
    table_add(
        round=t["round"],
        plan=TablePlan(number=3, judge=t["judge2"], players=("Charlie1", *others)),
        by=t["chief"],
    )
    got = _got("seating.published")
    assert set(got) == {charlie.pk}  # not the players of tables 1 and 2
    assert got[charlie.pk].params["rows"] == [
        {"round": 1, "table": 3, "seat": 1, "judge": t["judge2"].nickname}
    ]
    assert set(_got("seating.judging")) == {t["judge2"].pk}


def _reseated(tournament, organiser, me, settings, *, games: int, before_reseat=None) -> dict:
    """20 participants (`me` first) seated for `games` rounds and published; P03 late for
    round 1 and replaced for the rest; the re-seating published with the inbox emptied
    first. `before_reseat` runs before the replacement."""
    from mafiatab.games.services import replacement_record
    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.services import seating_reseat

    settings.MAFIATAB_SEATING_ITERATIONS = 300
    registration_add(tournament=tournament, nickname="", user=me, by=organiser)
    for n in range(2, 21):
        registration_add(tournament=tournament, nickname=f"P{n:02d}", by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=games, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    if before_reseat is not None:
        before_reseat()
    replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P03"),
        reserve_nickname="Граф",
        new_player=True,
        round=1,
        minutes_late=20,
        by=organiser,
        scope="rest",
    )
    Notification.objects.all().delete()
    reseat = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    seating_publish(draft=reseat, judges={}, by=organiser)
    return _got("seating.published")


def test_a_re_seating_tells_the_players_their_new_seats_of_the_rounds_to_come(
    tournament, organiser, make_user, settings
):
    me = make_user("P01")
    got = _reseated(tournament, organiser, me, settings, games=4)
    assert set(got) == {me.pk}
    assert [row["round"] for row in got[me.pk].params["rows"]] == [2, 3, 4]


def test_a_seating_message_gives_the_time_and_place_of_a_round_that_has_them(
    tournament, organiser, make_user, settings
):
    from django.utils import timezone

    from mafiatab.games.models import Round

    def schedule_round_3() -> None:
        Round.objects.filter(tournament=tournament, number=3).update(
            starts_at=timezone.make_aware(dt.datetime(2026, 12, 5, 10, 30)), place="Зал 2"
        )

    me = make_user("P01")
    got = _reseated(tournament, organiser, me, settings, games=3, before_reseat=schedule_round_3)
    lines = _said(got[me.pk], "ru").splitlines()
    third = next(line for line in lines if line.startswith("Тур 3"))
    assert third.endswith(", 05.12.2026 10:30, Зал 2")
    second = next(line for line in lines if line.startswith("Тур 2"))
    assert "Зал" not in second


def test_the_inbox_says_each_message_time_in_its_tournament_time_zone(
    client, make_tournament, organiser, make_user
):
    from dataclasses import replace

    from mafiatab.tournaments.services import info_of, tournament_update

    moscow = make_tournament(name="Moscow Cup", time_zone="Europe/Moscow")
    reader = make_user("Zoned")
    staff_assign(tournament=moscow, user=reader, role=StaffRole.TABLE_JUDGE, by=organiser)
    notify([reader], "broadcast", {"tournament": "Nowhere", "text": "site"})  # no tournament
    sent = dt.datetime(2026, 12, 3, 14, 21, tzinfo=dt.UTC)
    Notification.objects.filter(recipient=reader).update(created_at=sent)
    client.force_login(reader)
    page = client.get(reverse("notifications:inbox"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert page.count("17:21") == 1  # Moscow, UTC+3, as the tournament's history says it
    assert page.count("14:21") == 1  # the message about no tournament: the site's zone (UTC)
    tournament_update(
        tournament=moscow,
        info=replace(info_of(moscow), time_zone="Asia/Yekaterinburg"),
        by=organiser,
    )
    page = client.get(reverse("notifications:inbox"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert page.count("19:21") == 1 and "17:21" not in page


def test_each_new_signature_of_a_waiting_protocol_reaches_the_chief_judge(client, table_people):
    """A submitted protocol changed and signed again before its confirmation: the chief
    judge hears of every new version, and the queue shows its latest signature."""
    t = table_people
    game, judge, chief = t["game1"], t["judge"], t["chief"]
    protocol_save(
        game=game, data=complete_data(game), by=judge, base_version=1, submit=True, now=SUBMITTED
    )
    for number, points in ((3, 0.2), (4, 0.1)):
        game.refresh_from_db()
        extra = [{"seat": 3, "points": points, "reason": "fine play", "chief_approved": False}]
        protocol_save(
            game=game,
            data=complete_data(game, judge_extra=extra),
            by=judge,
            base_version=game.version,
            submit=True,
            now=SUBMITTED + dt.timedelta(minutes=number * 10),
        )
        game.refresh_from_db()
        assert game.version == number
    assert Notification.objects.filter(kind="protocol.submitted").count() == 1
    again = Notification.objects.filter(kind="protocol.resubmitted").order_by("pk")
    assert [(n.recipient_id, n.params["version"]) for n in again] == [(chief.pk, 3), (chief.pk, 4)]
    said = _said(again.last(), "ru")
    assert "протокол игры Q1-T1 подписан повторно" in said
    assert "подписал его снова (версия 4)" in said
    assert "signed it again (version 4)" in _said(again.last(), "en")
    client.force_login(chief)
    page = client.get(
        reverse("games:queue", args=[game.tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert 'data-testid="signed-again-Q1-T1"' in page
    assert "подписан повторно в 18:40 (версия 4; впервые — в 18:00)" in page
