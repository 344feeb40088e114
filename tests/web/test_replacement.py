"""A replacement is applied: the reserve takes the late participant's seat in that
round's table and protocol. Made for that round only (the default), the participant
keeps his later rounds; made for the rest of the tournament, the rounds not yet played
are seated again with the played ones fixed (a draft to publish) and the reserve plays
the games left. The seating pages and the lists of participants show the reserve."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from mafiatab.audit.models import AuditEntry
from mafiatab.games.models import Round
from mafiatab.games.services import protocol_save, replacement_record
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import (
    checkin_record,
    registration_add,
)
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services import (
    SeatingInputs,
    seating_generate,
    seating_publish,
    seating_reseat,
)

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{n:02d}" for n in range(1, 21)]


@pytest.fixture(autouse=True)
def quick_search(settings: Any) -> None:
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000


@pytest.fixture
def published(tournament: Any, organiser: Any) -> dict[str, Any]:
    """20 participants, a published qualifying seating of 4 games on 2 tables."""
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    return {"tournament": tournament, "organiser": organiser, "draft": draft}


def _seat_of(tournament: Any, round_number: int, name: str) -> tuple[Any, int] | None:
    round_ = Round.objects.get(tournament=tournament, stage="qualifying", number=round_number)
    for table in round_.tables.all():
        for seat in table.seats.all():
            if seat.player == name:
                return table, seat.number
    return None


def _replace(
    published: dict[str, Any],
    absent: str,
    reserve: str,
    round_number: int,
    scope: str = "round",
    new_player: bool = True,
) -> Any:
    tournament = published["tournament"]
    return replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname=absent),
        reserve_nickname=reserve,
        round=round_number,
        minutes_late=20,
        by=published["organiser"],
        scope=scope,
        new_player=new_player,
    )


def test_the_reserve_takes_the_seat_in_the_rounds_table_and_its_protocol(published):
    tournament = published["tournament"]
    table, seat = _seat_of(tournament, 1, "P03")
    replacement = _replace(published, "P03", "Граф", 1)
    reserve = Registration.objects.get(tournament=tournament, nickname="Граф")
    assert reserve.status == Status.RESERVE and replacement.reserve == reserve
    assert _seat_of(tournament, 1, "P03") is None
    assert _seat_of(tournament, 1, "Граф") == (table, seat)
    game = table.game
    game.refresh_from_db()
    latest = game.versions.get(number=game.version)
    assert latest.action == "replaced"
    assert latest.data["seats"][seat - 1]["player"] == "Граф"
    assert game.seats.get(number=seat).registration == reserve
    assert _seat_of(tournament, 2, "P03") is not None  # later rounds wait for the new draft
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"registration.reserve", "registration.replaced", "game.seat.replaced"} <= actions


def test_a_replacement_in_a_round_whose_protocol_is_confirmed_is_refused(published, make_user):
    from mafiatab.games.services import protocol_confirm

    # the organiser created the tournament: he is its chief judge
    tournament, organiser = published["tournament"], published["organiser"]
    table, seat = _seat_of(tournament, 1, "P03")
    game = table.game
    from .test_games_fixtures import complete_data

    protocol_save(game=game, data=complete_data(game), by=organiser, base_version=1, submit=True)
    protocol_confirm(game=game, by=organiser)
    game.refresh_from_db()
    version = game.version
    with pytest.raises(ValidationError) as refused:
        _replace(published, "P03", "Граф", 1)
    assert "is confirmed" in str(refused.value.message_dict["round"])
    game.refresh_from_db()
    assert game.version == version
    assert game.versions.get(number=version).data["seats"][seat - 1]["player"] == "P03"
    # the seat still says who played, and nothing of the replacement is kept
    assert _seat_of(tournament, 1, "P03") == (table, seat)
    assert not tournament.replacements.exists()
    assert not Registration.objects.filter(tournament=tournament, nickname="Граф").exists()


def test_the_rounds_not_played_are_seated_again_with_the_reserve_replacing_for_the_rest(
    published,
):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1, scope="rest")
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    assert draft is not None and draft.status == DraftStatus.DRAFT
    assert draft.options["fixed_rounds"] == 1
    assert draft.options["replacements"] == {"Граф": "P03"}
    rounds = draft.rounds
    first = [name for t in rounds[0]["tables"] for name in t["seats"]]
    assert "Граф" in first and "P03" not in first
    later = [name for r in rounds[1:] for t in r["tables"] for name in t["seats"]]
    assert later.count("Граф") == 3 and "P03" not in later
    seating_publish(draft=draft, judges={}, by=organiser)
    draft.refresh_from_db()
    published["draft"].refresh_from_db()
    assert draft.status == DraftStatus.PUBLISHED
    assert published["draft"].status == DraftStatus.DRAFT
    for number in (2, 3, 4):
        assert _seat_of(tournament, number, "P03") is None
        table, seat = _seat_of(tournament, number, "Граф")
        latest = table.game.versions.get(number=table.game.version)
        assert latest.action == "reseated"
        assert latest.data["seats"][seat - 1]["player"] == "Граф"
    assert AuditEntry.objects.filter(action="seating.reseated").exists()


def test_a_round_with_a_protocol_written_is_not_seated_again(published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1, scope="rest")
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    table = Round.objects.get(tournament=tournament, number=2).tables.first()
    data = table.game.versions.get().data | {"date": "2026-03-02"}
    # the organiser created the tournament: he is its chief judge
    protocol_save(game=table.game, data=data, by=organiser, base_version=1)
    with pytest.raises(ValidationError, match="Round 2 has begun"):
        seating_publish(draft=draft, judges={}, by=organiser)
    assert draft.__class__.objects.get(pk=draft.pk).status == DraftStatus.DRAFT


def test_the_seating_pages_and_the_printable_sheet_show_the_reserve(client, published):
    tournament = published["tournament"]
    _replace(published, "P03", "Граф", 1)
    index = client.get(reverse("seating:index", args=[tournament.slug])).content.decode()
    sheet = client.get(
        reverse("seating:print", args=[tournament.slug, published["draft"].pk])
    ).content.decode()
    assert "Граф" in index and "Граф" in sheet
    found = client.get(reverse("seating:index", args=[tournament.slug]), {"q": "граф"})
    assert "Граф" in found.content.decode()


def test_the_replacement_page_offers_the_new_draft(client, published):
    tournament, organiser = published["tournament"], published["organiser"]
    client.force_login(organiser)
    absent = tournament.registrations.get(nickname="P05")
    response = client.post(
        reverse("seating:replace", args=[tournament.slug]),
        {
            "absent": absent.pk,
            "reserve_nickname": "Граф",
            "new_player": "on",
            "round": "1",
            "minutes_late": "16",
            "scope": "rest",
        },
        follow=True,
    )
    page = response.content.decode()
    assert "Граф replaces P05 from round 1 for the rest of the tournament." in page
    draft = SeatingDraft.objects.filter(tournament=tournament).order_by("-id").first()
    assert draft.options.get("reseat_of") == published["draft"].pk
    assert draft.get_absolute_url() in page
    detail = client.get(draft.get_absolute_url()).content.decode()
    assert 'data-testid="reseat-note"' in detail


def test_publishing_round_one_warns_about_participants_not_checked_in(
    client, tournament, organiser
):
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    for registration in tournament.registrations.exclude(nickname__in=["P07", "P11"]):
        checkin_record(registration=registration, day=1, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=2, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    client.force_login(organiser)
    detail = client.get(draft.get_absolute_url()).content.decode()
    assert "Not checked in for day 1 (2): P07, P11." in detail
    response = client.post(
        reverse("seating:publish", args=[tournament.slug, draft.pk]), {}, follow=True
    )
    assert "Not checked in for day 1: P07, P11." in response.content.decode()


def test_a_reserve_replacing_in_round_two_plays_the_games_the_participant_had_left(published):
    tournament, organiser = published["tournament"], published["organiser"]
    assert _seat_of(tournament, 2, "P03") is not None
    _replace(published, "P03", "Граф", 2, scope="rest")
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=2)
    names = [[n for t in r["tables"] for n in t["seats"]] for r in draft.rounds]
    assert "P03" in names[0] and "Граф" in names[1]
    assert sum(row.count("Граф") for row in names[2:]) == 2  # 4 games, P03 played 1
    assert all("P03" not in row for row in names[1:])


def test_the_history_says_the_replacement_in_russian_without_raw_keys(client, published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    client.force_login(organiser)
    url = reverse("tournaments:history", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Заменён игрок" in page or "Замена" in page or "замен" in page.lower()
    assert "опоздавший участник" in page and "Место отдано запасному" in page
    assert "minutes late" not in page, page[
        page.find("minutes late") - 300 : page.find("minutes late") + 100
    ]


# The scope of a replacement: this round only (the default) or the rest of the tournament


def _post_replacement(client, published, absent, reserve, round_number, **extra):
    tournament = published["tournament"]
    client.force_login(published["organiser"])
    return client.post(
        reverse("seating:replace", args=[tournament.slug]),
        {
            "absent": tournament.registrations.get(nickname=absent).pk,
            "reserve_nickname": reserve,
            "round": str(round_number),
            "minutes_late": "20",
            "new_player": "on",
            **extra,
        },
        follow=True,
    )


def _later_names(draft: Any, after: int) -> list[str]:
    return [
        name
        for r in draft.rounds
        if int(r["round"]) > after
        for t in r["tables"]
        for name in t["seats"]
    ]


def test_a_replacement_for_one_round_keeps_the_late_player_in_his_later_rounds(client, published):
    tournament = published["tournament"]
    drafts = SeatingDraft.objects.count()
    page = _post_replacement(client, published, "P03", "Граф", 1).content.decode()
    assert "Граф replaces P03 in round 1." in page
    replacement = tournament.replacements.get()
    assert replacement.scope == "round"
    assert _seat_of(tournament, 1, "Граф") is not None and _seat_of(tournament, 1, "P03") is None
    for number in (2, 3, 4):
        assert _seat_of(tournament, number, "P03") is not None
        assert _seat_of(tournament, number, "Граф") is None
    assert SeatingDraft.objects.count() == drafts  # the published seating stays as it is
    entry = AuditEntry.objects.get(action="registration.replaced")
    assert entry.after["scope"] == "round"


def test_a_replacement_for_the_rest_of_the_tournament_gives_the_reserve_the_later_games(
    client, published
):
    tournament, organiser = published["tournament"], published["organiser"]
    page = _post_replacement(client, published, "P03", "Граф", 1, scope="rest").content.decode()
    assert "Граф replaces P03 from round 1 for the rest of the tournament." in page
    assert tournament.replacements.get().scope == "rest"
    assert AuditEntry.objects.get(action="registration.replaced").after["scope"] == "rest"
    draft = SeatingDraft.objects.filter(tournament=tournament).order_by("-id").first()
    assert draft.options.get("reseat_of") == published["draft"].pk
    later = _later_names(draft, 1)
    assert later.count("Граф") == 3 and "P03" not in later
    seating_publish(draft=draft, judges={}, by=organiser)
    for number in (2, 3, 4):
        assert _seat_of(tournament, number, "P03") is None
        assert _seat_of(tournament, number, "Граф") is not None


def test_the_re_seat_after_a_one_round_replacement_keeps_the_late_player_in_his_rounds(
    published,
):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=1)
    assert draft is not None
    first = [name for t in draft.rounds[0]["tables"] for name in t["seats"]]
    assert "Граф" in first and "P03" not in first  # round 1 as it was played
    later = _later_names(draft, 1)
    assert later.count("P03") == 3 and "Граф" not in later  # 4 games, one played for him
    assert draft.options["replacements"] == {}
    assert draft.options["stand_ins"] == [{"round": 1, "reserve": "Граф", "player": "P03"}]
    seating_publish(draft=draft, judges={}, by=organiser)
    for number in (2, 3, 4):
        assert _seat_of(tournament, number, "P03") is not None
        assert _seat_of(tournament, number, "Граф") is None


def test_a_re_seat_honours_each_replacement_in_its_own_scope(published):
    tournament, organiser = published["tournament"], published["organiser"]
    _replace(published, "P03", "Граф", 1)
    assert _seat_of(tournament, 2, "P05") is not None
    replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P05"),
        reserve_nickname="Бор",
        round=2,
        minutes_late=20,
        by=organiser,
        scope="rest",
        new_player=True,
    )
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=2)
    assert draft.options["replacements"] == {"Бор": "P05"}
    later = _later_names(draft, 2)
    played_by_p05 = 1 if _seat_of(tournament, 1, "P05") else 0
    assert later.count("P03") == 2  # round 2 played, round 1 played for him by Граф
    assert later.count("Бор") == 4 - 1 - played_by_p05
    assert "P05" not in later and "Граф" not in later


def test_an_unknown_scope_is_refused_and_nothing_is_recorded(client, published):
    tournament = published["tournament"]
    page = _post_replacement(client, published, "P03", "Граф", 1, scope="forever")
    assert "Choose whether the reserve plays this round only or the rest of the tournament." in (
        page.content.decode()
    )
    assert not tournament.replacements.exists()
    with pytest.raises(ValidationError) as refused:
        replacement_record(
            tournament=tournament,
            absent=tournament.registrations.get(nickname="P03"),
            reserve_nickname="Граф",
            round=1,
            minutes_late=20,
            by=published["organiser"],
            scope="forever",
        )
    assert "scope" in refused.value.message_dict
    assert not tournament.registrations.filter(nickname="Граф").exists()


def test_the_replacement_form_offers_both_scopes_this_round_first(client, published):
    tournament = published["tournament"]
    client.force_login(published["organiser"])
    page = client.get(
        reverse("registrations:manage", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    form = page[page.index('id="replace"') :]
    form = form[: form.index("</section>")]
    assert 'name="scope" value="round" checked' in form
    assert 'name="scope" value="rest"' in form
    assert "Только этот тур" in form and "До конца турнира" in form


def _section(page: str, marker: str) -> str:
    part = page[page.index(marker) :]
    return part[: part.index("</section>")]


def test_the_reserve_who_played_is_listed_among_the_participants(client, published):
    tournament = published["tournament"]
    _replace(published, "P03", "Граф", 1)
    client.force_login(published["organiser"])
    manage = client.get(reverse("registrations:manage", args=[tournament.slug])).content.decode()
    assert "Граф" in _section(manage, 'id="participants"')
    assert "Граф" not in _section(manage, 'id="closed"')
    assert "P03" in _section(manage, 'id="participants"')
    detail = client.get(tournament.get_absolute_url()).content.decode()
    assert "Граф" in _section(detail, 'id="participants"')
    listed = client.get(f"/api/tournaments/{tournament.slug}/participants").json()
    by_name = {row["nickname"]: row["status"] for row in listed}
    assert by_name["Граф"] == "reserve" and by_name["P03"] == "approved"
    assert len(listed) == 21


def test_the_reserve_who_played_is_in_the_standings_and_n_stays_the_participants(client, published):
    from mafiatab.games.services import protocol_confirm
    from mafiatab.standings.inputs import scoring_settings

    from .test_games_fixtures import complete_data

    tournament, organiser = published["tournament"], published["organiser"]  # its chief judge
    _replace(published, "P03", "Граф", 1)
    for number in (1, 2):
        for table in Round.objects.get(tournament=tournament, number=number).tables.all():
            game = table.game
            game.refresh_from_db()
            protocol_save(
                game=game,
                data=complete_data(game),
                by=organiser,
                base_version=game.version,
                submit=True,
            )
            protocol_confirm(game=game, by=organiser)
    assert scoring_settings(tournament).participants == 20  # N of 8.7: not the reserve
    page = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert "Граф" in page and "P03" in page


def test_the_seating_says_who_replaced_the_late_player_instead_of_sitting_him_out(
    client, published
):
    tournament = published["tournament"]
    _replace(published, "P03", "Граф", 1)
    url = reverse("seating:index", args=[tournament.slug])
    page = client.get(url, {"q": "P03"}).content.decode()
    first = _section(page, 'data-testid="round-1"')
    assert "Replaced: Граф instead of P03" in first
    assert "Sitting out" not in first or "P03" not in first.split("Sitting out")[1]
    mine = page[page.index('data-testid="my-round-1"') :]
    assert "replaced by Граф" in mine[: mine.index("</tr>")]
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Замены: Граф вместо P03" in _section(russian, 'data-testid="round-1"')
    sheet = client.get(reverse("seating:print", args=[tournament.slug, published["draft"].pk]))
    assert "Граф instead of P03" in sheet.content.decode()
    from .test_printables import pdf_text

    pdf = client.get(reverse("printables:seating", args=[tournament.slug]), {"lang": "en"})
    text = " ".join(pdf_text(pdf.content).split())
    assert "Replaced: Граф instead of P03" in text


def test_the_reserve_who_played_has_a_players_rights_over_his_game(published, make_user):
    from mafiatab.tournaments.permissions import PLAYER, user_can, viewer_in

    tournament = published["tournament"]
    account = make_user("Сова")
    table, _seat = _seat_of(tournament, 1, "P03")
    _replace(published, "P03", "Сова", 1)
    viewer = viewer_in(account, tournament)
    assert PLAYER in viewer.roles and viewer.nicknames == ("Сова",)
    game = table.game
    game.refresh_from_db()
    assert user_can(account, tournament, "file_protest", game=game)


def test_the_minutes_late_are_measured_from_the_rounds_start_when_not_given(published):
    import datetime as dt

    from django.utils import timezone

    from mafiatab.games.models import Round

    tournament = published["tournament"]
    absent = tournament.registrations.get(nickname="P03")

    def record(reserve: str) -> Any:
        return replacement_record(
            tournament=tournament,
            absent=absent,
            reserve_nickname=reserve,
            round=1,
            minutes_late=None,
            by=published["organiser"],
            new_player=True,
        )

    with pytest.raises(ValidationError) as refused:
        record("Граф")  # the round has no start time: the minutes are asked for
    assert "minutes_late" in refused.value.message_dict
    first = Round.objects.get(tournament=tournament, stage="qualifying", number=1)
    first.starts_at = timezone.now() - dt.timedelta(minutes=10)
    first.save()
    with pytest.raises(ValidationError) as early:
        record("Граф")  # 10 minutes: not yet replaceable (more than 15)
    assert "minutes_late" in early.value.message_dict
    first.starts_at = timezone.now() - dt.timedelta(minutes=20)
    first.save()
    replacement = record("Граф")
    assert replacement.minutes_late >= 20


def test_the_reserve_who_played_sees_his_status_not_an_offer_to_apply(client, published, make_user):
    """A person on the tournament's lists in any status but a closed application
    (withdrawn, rejected) is not offered to apply again, nor may he; and the count of
    the participants says what their list shows: 20 participants and a reserve."""
    from mafiatab.registrations.services import registration_apply

    tournament = published["tournament"]
    account = make_user("Сова")
    _replace(published, "P03", "Сова", 1)
    client.force_login(account)
    url = tournament.get_absolute_url()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    mine = _section(page, 'id="my-registration"')
    assert reverse("registrations:apply", args=[tournament.slug]) not in mine
    assert 'data-testid="my-status"' in mine and "reserve" in mine
    listed = _section(page, 'id="participants"')
    assert 'data-testid="listed-count">20 + 1 reserve<' in listed
    assert listed.count("<li>") == 21
    assert "20 + 1 reserve" in page.split('data-testid="participant-count">')[1][:40]
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "20 + 1 запасной<" in _section(russian, 'id="participants"')
    client.force_login(published["organiser"])
    manage = client.get(reverse("registrations:manage", args=[tournament.slug])).content.decode()
    assert 'data-testid="listed-count">20 + 1 reserve<' in _section(manage, 'id="participants"')
    client.force_login(account)
    with translation.override("en"), pytest.raises(ValidationError, match="lists \\(reserve\\)"):
        registration_apply(tournament=tournament, user=account)
    assert tournament.registrations.filter(user=account).count() == 1


def test_the_replacement_is_said_in_russian_without_declining_a_nickname(client, published):
    """Nicknames do not decline: the message and the late player's own seats name the
    reserve where no case is asked, in no tense (before the round or after it)."""
    tournament = published["tournament"]
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    said = _post_replacement(client, published, "P03", "Граф", 1).content.decode()
    assert "Замена в туре 1: Граф вместо P03." in said and "заменяет" not in said
    page = client.get(reverse("seating:index", args=[tournament.slug]), {"q": "P03"})
    mine = page.content.decode().split('data-testid="my-round-1"')[1].split("</tr>")[0]
    assert "замена: Граф" in mine and "играл" not in mine
    other = _post_replacement(client, published, "P04", "Сова", 2, scope="rest").content.decode()
    assert "Замена с тура 2 до конца турнира: Сова вместо P04." in other


def test_a_re_seat_draft_says_what_it_gives_the_reserve_and_which_rounds_it_keeps(
    client, published
):
    """P03 plays round 1 (its protocol written); Граф replaces him from round 2 for the
    rest: round 2 is kept as seated, with Граф in it, though not played yet."""
    tournament, organiser = published["tournament"], published["organiser"]
    table = Round.objects.get(tournament=tournament, number=1).tables.first()
    data = table.game.versions.get().data | {"date": "2026-03-02"}
    protocol_save(game=table.game, data=data, by=organiser, base_version=1)
    _replace(published, "P03", "Граф", 2, scope="rest")
    draft = seating_reseat(tournament=tournament, by=organiser, at_least=2)
    games = sum(t["seats"].count("Граф") for r in draft.rounds for t in r["tables"])
    assert games == 3  # P03 played 1 of his 4 games
    client.force_login(organiser)
    page = client.get(draft.get_absolute_url()).content.decode()
    flags = page[page.index('id="flags"') :]
    assert "plays the 3 games “P03” had left" in flags[: flags.index("</section>")]
    note = page[page.index('data-testid="reseat-note"') :]
    note = note[: note.index("</p>")]
    assert "Played, kept as they are: round 1." in note
    assert "Not played yet, kept as seated with the reserve: round 2." in note
    assert "Граф" not in _section(page, 'data-testid="round-1"').split("</table>")[1]
    russian = client.get(draft.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    note = russian[russian.index('data-testid="reseat-note"') :]
    note = note[: note.index("</p>")]
    assert "Сыгранные туры остаются как есть: тур 1." in note
    assert "Ещё не сыгранные, но сохранённые с запасным: тур 2." in note
    assert "«Граф» вместо игрока «P03»: играет 3 оставшиеся игры" in russian
    history = client.get(
        reverse("tournaments:history", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    entry = history[history.index("Рассадка пересчитана после замены") :]
    entry = " ".join(re.sub(r"<[^>]+>", " ", entry[: entry.index("</tr>")]).split())
    assert "последний сохранённый тур 2" in entry and "последний сыгранный тур 1" in entry


# A replacement needs a seat to take: a round that exists, where the late player plays


@pytest.fixture
def resting(tournament: Any, organiser: Any) -> dict[str, Any]:
    """20 participants on one table: 8 rounds, each player sits out 4 of them; and
    Бармалей, first on the waiting list."""
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    tournament.participant_limit = len(PLAYERS)
    tournament.save()
    registration_add(tournament=tournament, nickname="Бармалей", by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=1, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    return {"tournament": tournament, "organiser": organiser, "draft": draft}


def _resting_in(tournament: Any, name: str) -> int:
    rounds = Round.objects.filter(tournament=tournament, stage="qualifying").order_by("number")
    return next(r.number for r in rounds if _seat_of(tournament, r.number, name) is None)


def _nothing_stored(tournament: Any) -> None:
    assert not tournament.replacements.exists()
    assert tournament.registrations.get(nickname="Бармалей").status == Status.WAITING
    assert not AuditEntry.objects.filter(action="registration.replaced").exists()


def test_a_replacement_in_a_round_that_does_not_exist_is_refused_and_nothing_stored(resting):
    tournament = resting["tournament"]
    with pytest.raises(ValidationError) as refused:
        _replace(resting, "P03", "Бармалей", 99)
    assert refused.value.message_dict["round"] == [
        "There is no round 99: the rounds of this stage are 1, 2, 3, 4, 5, 6, 7, 8."
    ]
    _nothing_stored(tournament)


def test_a_replacement_in_a_round_the_late_player_sits_out_is_refused_and_nothing_stored(
    resting,
):
    tournament = resting["tournament"]
    sits_out = _resting_in(tournament, "P03")
    with pytest.raises(ValidationError) as refused:
        _replace(resting, "P03", "Бармалей", sits_out)
    assert refused.value.message_dict["round"] == [
        f"P03 does not play in round {sits_out}: there is no seat to take."
    ]
    _nothing_stored(tournament)


def test_a_replacement_before_any_round_is_made_is_refused(tournament, organiser):
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    with pytest.raises(ValidationError) as refused:
        replacement_record(
            tournament=tournament,
            absent=tournament.registrations.get(nickname="P03"),
            reserve_nickname="Бармалей",
            round=1,
            minutes_late=None,
            by=organiser,
        )
    assert "No round of this stage is made yet" in refused.value.message_dict["round"][0]
    assert not tournament.replacements.exists()


def test_the_form_says_in_russian_why_a_round_is_refused(client, resting):
    tournament = resting["tournament"]
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = _post_replacement(client, resting, "P03", "Бармалей", 99).content.decode()
    panel = page[page.index('id="replace"') :]
    assert "Тура 99 нет: туры этой стадии — 1, 2, 3, 4, 5, 6, 7, 8." in panel
    sits_out = _resting_in(tournament, "P03")
    page = _post_replacement(client, resting, "P03", "Бармалей", sits_out).content.decode()
    panel = page[page.index('id="replace"') :]
    assert f"P03 не играет в туре {sits_out}: места для запасного нет." in panel
    _nothing_stored(tournament)


# The reserve is one the tournament knows; a new player only when said so


def test_a_mistyped_reserve_is_refused_naming_the_reserves_and_nothing_stored(resting):
    tournament = resting["tournament"]
    seated = next(r.number for r in Round.objects.filter(tournament=tournament))
    absent = next(name for name in PLAYERS if _seat_of(tournament, seated, name) is not None)
    with pytest.raises(ValidationError) as refused:
        _replace(resting, absent, "Нетакого", seated, new_player=False)
    assert refused.value.message_dict["reserve_nickname"] == [
        "Нетакого is not a reserve of this tournament. Choose one of the waiting list or "
        "the reserves (Бармалей), or tick “A new player” to add him as a reserve."
    ]
    _nothing_stored(tournament)
    assert not tournament.registrations.filter(nickname="Нетакого").exists()
    # the real reserve is not refused as "already replaced"
    replacement = _replace(resting, absent, "бармалей", seated, new_player=False)
    assert replacement.reserve.nickname == "Бармалей"
    assert replacement.reserve.status == Status.RESERVE
    assert _seat_of(tournament, seated, "Бармалей") is not None


def test_a_new_player_is_a_reserve_only_when_ticked(published):
    tournament = published["tournament"]
    with pytest.raises(ValidationError) as refused:
        _replace(published, "P03", "Граф", 1, new_player=False)
    assert "the waiting list is empty" in refused.value.message_dict["reserve_nickname"][0]
    assert not tournament.registrations.filter(nickname="Граф").exists()
    _replace(published, "P03", "Граф", 1, new_player=True)
    assert tournament.registrations.get(nickname="Граф").status == Status.RESERVE
    # a reserve who played already is one the tournament knows
    _replace(published, "P04", "граф", 2, new_player=False)
    assert _seat_of(tournament, 2, "Граф") is not None


def test_the_form_refuses_an_unknown_reserve_in_russian_and_keeps_what_was_typed(client, resting):
    tournament = resting["tournament"]
    seated = next(r.number for r in Round.objects.filter(tournament=tournament))
    absent = next(name for name in PLAYERS if _seat_of(tournament, seated, name) is not None)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    client.force_login(resting["organiser"])
    manage = client.get(reverse("registrations:manage", args=[tournament.slug]))
    form = manage.content.decode()[manage.content.decode().index('id="replace"') :]
    assert '<option value="Бармалей">' in form and 'name="new_player"' in form
    assert "Новый игрок" in form
    response = client.post(
        reverse("seating:replace", args=[tournament.slug]),
        {
            "absent": tournament.registrations.get(nickname=absent).pk,
            "reserve_nickname": "Нетакого",
            "round": str(seated),
            "minutes_late": "20",
        },
        follow=True,
    )
    panel = response.content.decode()[response.content.decode().index('id="replace"') :]
    assert (
        "Нетакого — не запасной этого турнира. Выберите игрока из листа ожидания или "
        "запасных (Бармалей) либо отметьте «Новый игрок», чтобы добавить его запасным."
    ) in panel
    assert 'value="Нетакого"' in panel
    _nothing_stored(tournament)
    assert not tournament.registrations.filter(nickname="Нетакого").exists()


# A participant seated in rounds not yet played is not withdrawn: he is replaced


def _first_round_of(tournament: Any, name: str) -> int:
    rounds = Round.objects.filter(tournament=tournament, stage="qualifying").order_by("number")
    return next(r.number for r in rounds if _seat_of(tournament, r.number, name) is not None)


def test_withdrawing_a_participant_seated_in_rounds_to_play_is_refused_naming_the_way_out(
    resting,
):
    from mafiatab.registrations.services import registration_remove, registration_withdraw

    tournament, organiser = resting["tournament"], resting["organiser"]
    p03 = tournament.registrations.get(nickname="P03")
    with pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=p03, by=organiser)
    message = refused.value.messages[0]
    assert message.startswith("P03 is seated in rounds not yet played (")
    assert "Replace him for the rest of the tournament instead" in message
    with pytest.raises(ValidationError):
        registration_remove(registration=p03, by=organiser, reason="conduct")
    p03.refresh_from_db()
    assert p03.status == Status.APPROVED
    assert tournament.registrations.get(nickname="Бармалей").status == Status.WAITING
    assert not AuditEntry.objects.filter(action="registration.withdrawn").exists()


def test_after_a_replacement_for_the_rest_is_published_the_participant_may_be_withdrawn(
    resting,
):
    from mafiatab.registrations.services import registration_withdraw

    tournament, organiser = resting["tournament"], resting["organiser"]
    first = _first_round_of(tournament, "P03")
    _replace(resting, "P03", "Бармалей", first, scope="rest", new_player=False)
    reseat = seating_reseat(tournament=tournament, by=organiser, at_least=first)
    seating_publish(draft=reseat, judges={}, by=organiser)
    later = Round.objects.filter(tournament=tournament, number__gt=first)
    assert all(_seat_of(tournament, r.number, "P03") is None for r in later)
    p03 = registration_withdraw(
        registration=tournament.registrations.get(nickname="P03"), by=organiser
    )
    assert p03.status == Status.WITHDRAWN


def test_the_registrations_page_says_what_a_withdrawal_does_before_it_is_confirmed(client, resting):
    from mafiatab.registrations.services import registration_add as add

    tournament, organiser = resting["tournament"], resting["organiser"]
    tournament.participant_limit = None
    tournament.save()
    late = add(tournament=tournament, nickname="Поздний", by=organiser)  # not seated
    tournament.participant_limit = 21
    tournament.save()
    client.force_login(organiser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    url = reverse("registrations:manage", args=[tournament.slug])
    page = client.get(url).content.decode()
    seated = page.split('data-testid="participant-P03"')[1].split("</tr>")[0]
    assert 'data-testid="withdraw-seated"' in seated and "замените его до конца турнира" in seated
    p03 = tournament.registrations.get(nickname="P03")
    assert reverse("registrations:withdraw", args=[tournament.slug, p03.pk]) not in seated
    free = page.split('data-testid="participant-Поздний"')[1].split("</tr>")[0]
    assert (
        'data-confirm="Снять Поздний с регистрации? Его место займёт Бармалей, первый в '
        'листе ожидания."'
    ) in free
    # the refusal, posted anyway, is said in Russian and nothing changes
    response = client.post(
        reverse("registrations:withdraw", args=[tournament.slug, p03.pk]), follow=True
    )
    said = response.content.decode()
    assert "P03 посажен в ещё не сыгранных турах (" in said
    assert "замените его до конца турнира («Заменить опоздавшего игрока»)" in said
    p03.refresh_from_db()
    assert p03.status == Status.APPROVED
    client.post(reverse("registrations:withdraw", args=[tournament.slug, late.pk]))
    late.refresh_from_db()
    assert late.status == Status.WITHDRAWN
    assert tournament.registrations.get(nickname="Бармалей").status == Status.APPROVED


def test_a_seated_player_withdrawing_himself_is_told_to_ask_for_a_replacement(
    tournament, organiser, make_user
):
    from mafiatab.registrations.services import registration_withdraw

    account = make_user("Сова")
    mine = registration_add(tournament=tournament, nickname="", user=account, by=organiser)
    for name in PLAYERS[1:]:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    inputs = SeatingInputs(stage="qualifying", games=4, tables=2, seed=3)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={}, by=organiser)
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        registration_withdraw(registration=mine, by=account)
    assert refused.value.messages == [
        "Вы посажены в ещё не сыгранных турах (1–4): попросите организатора "
        "заменить вас до конца турнира."
    ]
    mine.refresh_from_db()
    assert mine.status == Status.APPROVED


def test_the_form_says_every_refusal_at_once_the_missing_lateness_and_the_unknown_reserve(
    client, resting
):
    tournament = resting["tournament"]
    seated = next(r.number for r in Round.objects.filter(tournament=tournament))
    absent = next(name for name in PLAYERS if _seat_of(tournament, seated, name) is not None)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    client.force_login(resting["organiser"])
    response = client.post(
        reverse("seating:replace", args=[tournament.slug]),
        {
            "absent": tournament.registrations.get(nickname=absent).pk,
            "reserve_nickname": "Нетакого",
            "round": str(seated),
            "minutes_late": "",  # the round has no start time either
        },
        follow=True,
    )
    panel = response.content.decode()[response.content.decode().index('id="replace"') :]
    assert "Нетакого — не запасной этого турнира." in panel
    assert f"У тура {seated} нет времени начала" in panel
    _nothing_stored(tournament)
