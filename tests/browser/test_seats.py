"""Seats hold participants, in a browser: a seat cannot be filled with somebody who is
no participant; a replacement shows in the seating, the printable sheet and the
protocols; a Russian judge reads every problem of his protocol in Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from web import test_games_fixtures as fx

from mafiatab.games.models import Game, Round
from mafiatab.registrations.services import registration_add
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import staff_assign

from .conftest import WAIT_MS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
two_tables = fx.two_tables

ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


@pytest.fixture
def ru_page(browser: Any, live_server: Any, fast_passwords: None) -> Iterator[Any]:
    """A browser tab of a Russian reader."""
    context = browser.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.live_url = live_server.url
    yield tab
    context.close()


def _open_protocol(page: Any, game: Game) -> None:
    page.goto(page.live_url + reverse("games:protocol", args=[game.tournament.slug, game.pk]))
    page.wait_for_selector("#protocol-form")


def test_a_seat_cannot_be_filled_with_a_non_participant(page, two_tables):
    game = two_tables["game1"]
    log_in(page, two_tables["judge"].username)
    _open_protocol(page, game)
    options = page.locator("datalist#seat-choices option")
    assert options.count() == 21  # the participants: Alpha1..10, Bravo1..10, Seated
    assert page.get_attribute("input[name=player_4]", "list") == "seat-choices"
    page.fill("input[name=player_4]", "Nobody Here")
    page.locator("#pb-player_4").get_by_text(
        "Nobody Here is not a participant of this tournament"
    ).wait_for()
    page.click("button[name=action][value=save]")
    page.locator("#pb-player_4").get_by_text("is not a participant").wait_for()
    assert Game.objects.get(pk=game.pk).version == 1
    page.fill("input[name=player_4]", "alpha4")  # the seat's own player: nothing changes
    page.click("button[name=action][value=save]")
    page.wait_for_selector("[data-testid=game-status]")
    game.refresh_from_db()
    assert game.version == 1
    _open_protocol(page, game)
    page.fill("input[name=player_4]", "bravo4")
    page.click("button[name=action][value=save]")
    page.wait_for_selector("[data-testid=game-status]")
    game.refresh_from_db()
    assert game.version == 2
    assert game.versions.get(number=2).data["seats"][3]["player"] == "Bravo4"


def test_a_russian_judge_sees_every_problem_in_russian(ru_page, two_tables):
    page, game = ru_page, two_tables["game1"]
    log_in(page, two_tables["judge"].username)
    _open_protocol(page, game)
    page.select_option("select[name=role_1]", "don")
    for seat, role in enumerate(ROLES[1:], start=2):
        page.select_option(f"select[name=role_{seat}]", role)
    for foul in ("1", "2", "3", "4"):
        page.check(f"input[name=fouls_2][value='{foul}']")
    page.fill("input[name=player_4]", "Nobody Here")
    page.check("input[name=winner][value=red]")
    page.select_option("select[name=extra1_seat]", "5")
    page.fill("input[name=extra1_points]", "0.45")
    page.select_option("select[name=pen1_seat]", "3")
    page.select_option("select[name=pen1_rule]", "8.5.2")
    page.fill("input[name=extra1_reason]", "хорошая игра")
    page.locator("#pb-extra1 p").first.wait_for()
    page.locator("#pb-player_4 p").first.wait_for()
    page.click("button[name=action][value=submit]")
    page.locator("#pb-roles p").first.wait_for()
    texts = [t.strip() for t in page.locator(".pb p.error").all_inner_texts() if t.strip()]
    assert len(texts) >= 5, texts
    for text in texts:
        assert CYRILLIC.search(text), text
        assert not re.search(r"\b(the|must|seat|needs|above|not)\b", text), text


@pytest.fixture
def seated(tournament, organiser, make_user, settings) -> dict[str, Any]:
    """20 participants with accounts, a table judge, a published seating of 4 rounds."""
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000
    players = [make_user(f"Ace{i:02d}") for i in range(1, 21)]
    for user in players:
        registration_add(tournament=tournament, nickname="", user=user, by=organiser)
    judge = make_user("Judge1")
    staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    # the organiser created the tournament: he is its chief judge
    inputs = SeatingInputs(stage="qualifying", games=4, tables=2, seed=7)
    draft = seating_generate(tournament=tournament, inputs=inputs, by=organiser)
    seating_publish(draft=draft, judges={1: judge, 2: None}, by=organiser)
    return {"players": players, "judge": judge, "draft": draft}


def _table_of(tournament: Any, round_number: int, name: str) -> Any:
    round_ = Round.objects.get(tournament=tournament, stage="qualifying", number=round_number)
    for table in round_.tables.all():
        if name in [s.player for s in table.seats.all()]:
            return table
    return None


def test_a_replacement_for_one_round_leaves_the_late_player_his_later_tables(
    page, tournament, organiser, seated
):
    slug = tournament.slug
    late = seated["players"][4].nickname
    later = [_table_of(tournament, n, late) for n in (2, 3, 4)]
    log_in(page, organiser.username)
    page.goto(page.live_url + reverse("registrations:manage", args=[slug]))
    assert page.is_checked("input[name=scope][value=round]")
    page.select_option("#id_absent", label=late)
    page.fill("#id_reserve", "Граф")
    page.check("#id_new_player")  # not on the lists: added as a reserve
    page.fill("#id_round", "1")
    page.fill("#id_minutes_late", "20")
    page.click("#replace button[type=submit]")
    page.get_by_text(f"Граф replaces {late} in round 1.").wait_for()
    assert "Граф" in page.locator("#participants").inner_text()
    assert "Граф" not in page.locator("#closed").inner_text()
    assert _table_of(tournament, 1, "Граф") is not None
    assert [_table_of(tournament, n, late) for n in (2, 3, 4)] == later
    assert all(_table_of(tournament, n, "Граф") is None for n in (2, 3, 4))


def test_a_replacement_shows_in_the_seating_the_sheet_and_the_protocols(
    page, tournament, organiser, seated
):
    slug = tournament.slug
    late = seated["players"][4].nickname
    log_in(page, organiser.username)
    page.goto(page.live_url + reverse("registrations:manage", args=[slug]))
    page.select_option("#id_absent", label=late)
    page.fill("#id_reserve", "Граф")
    page.check("#id_new_player")  # not on the lists: added as a reserve
    page.fill("#id_round", "1")
    page.fill("#id_minutes_late", "20")
    page.check("input[name=scope][value=rest]")
    page.click("#replace button[type=submit]")
    page.get_by_text(
        f"Граф replaces {late} from round 1 for the rest of the tournament."
    ).wait_for()

    page.goto(page.live_url + reverse("seating:index", args=[slug]))
    assert "Граф" in page.locator("main").inner_text()
    page.goto(page.live_url + reverse("seating:print", args=[slug, seated["draft"].pk]))
    sheet = page.locator("body").inner_text()
    assert "Граф" in sheet

    table = _table_of(tournament, 1, "Граф")
    _open_protocol(page, table.game)
    seat = [s.player for s in table.seats.all()].index("Граф") + 1
    assert page.input_value(f"input[name=player_{seat}]") == "Граф"

    page.goto(page.live_url + reverse("registrations:manage", args=[slug]))
    page.goto(page.live_url + reverse("seating:drafts", args=[slug]))
    newest = tournament.seating_drafts.order_by("-id").first()
    assert newest.options["reseat_of"] == seated["draft"].pk
    page.goto(page.live_url + newest.get_absolute_url())
    page.wait_for_selector("[data-testid=reseat-note]")
    page.click("text=Publish the seating")
    page.wait_for_selector("text=Seating published: the rounds and tables are created.")
    next_table = _table_of(tournament, 2, "Граф")
    assert next_table is not None and _table_of(tournament, 2, late) is None
    _open_protocol(page, next_table.game)
    values = [page.input_value(f"input[name=player_{n}]") for n in range(1, 11)]
    assert "Граф" in values and late not in values
