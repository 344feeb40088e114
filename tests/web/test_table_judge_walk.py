"""What a table judge and a player read on their pages: "My tables" opens the console
of a game not yet played with its big button (the protocol is the second link) and
says "game in progress" while the console runs it; the protocol form's examples read
as examples; a refused signature says the status shown is the stored one; the table's
judge is told why a confirmed protocol is no longer his to change; and a player's
calendar says it is empty until the rounds' times are announced."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from mafiatab.console import services as console
from mafiatab.games.forms import raw_from_data
from mafiatab.games.selectors import games_of_judge
from mafiatab.games.services import protocol_confirm, protocol_save
from mafiatab.registrations.models import Registration

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data
from .test_schedule import _schedule

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}


def _ru(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    return client


def _line(page: str, label: str) -> str:
    return re.search(rf'<p class="table-line">(?:(?!</p>).)*{label}(?:(?!</p>).)*</p>', page, re.S)[
        0
    ]


def test_my_tables_opens_the_console_with_the_big_button_and_says_when_a_game_runs(two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    url = reverse("games:my_tables", args=[game.tournament.slug])
    client = _ru(judge)
    line = _line(client.get(url).content.decode(), game.label)
    console_url = reverse("console:console", args=[game.tournament.slug, game.pk])
    protocol_url = reverse("games:protocol", args=[game.tournament.slug, game.pk])
    big = re.search(r'<a class="btn big" href="([^"]+)"[^>]*>([^<]+)</a>', line)
    assert big[1] == console_url and "Пульт судьи" in big[2]
    assert f'href="{protocol_url}" data-testid="my-table-{game.label}">протокол</a>' in line
    assert "черновик" in line
    console.log_start(game=game, roles=ROLES, by=judge)
    line = _line(client.get(url).content.decode(), game.label)
    assert "идёт игра" in line and "черновик" not in line


def test_the_protocol_forms_examples_cannot_be_taken_for_values(client, two_tables):
    game = two_tables["game1"]
    client.force_login(two_tables["judge"])
    page = client.get(reverse("games:protocol", args=[game.tournament.slug, game.pk])).content
    placeholders = re.findall(r'placeholder="([^"]*)"', page.decode())
    assert placeholders and not [p for p in placeholders if re.fullmatch(r"[\d .,]+", p)]
    assert "e.g. 0.3" in placeholders and "e.g. 6" in placeholders


def test_a_refused_signature_says_the_status_shown_is_the_stored_one(two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    game.refresh_from_db()
    seats = complete_data(game)["seats"]
    seats[0] = seats[0] | {"role": "don"}  # two dons
    raw = raw_from_data(complete_data(game, seats=seats))
    post = {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": str(game.version),
        "action": "submit",
    }
    answer = _ru(judge).post(reverse("games:protocol", args=[game.tournament.slug, game.pk]), post)
    assert answer.status_code == 422
    page = answer.content.decode()
    assert f"так сохранено в версии {game.version}: данные на этой странице не сохранены" in page


def test_the_tables_judge_is_told_the_confirmed_protocol_is_the_chiefs_now(two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    protocol_save(game=game, data=complete_data(game), by=judge, base_version=1, submit=True)
    protocol_confirm(game=game, by=two_tables["chief"])
    client = _ru(judge)
    detail = reverse("games:detail", args=[game.tournament.slug, game.pk])
    for name in ("games:protocol", "console:console"):
        answer = client.get(reverse(name, args=[game.tournament.slug, game.pk]), follow=True)
        assert answer.redirect_chain[-1][0] == detail
        page = answer.content.decode()
        assert "Протокол утверждён главным судьёй; изменить его теперь может только он." in page
        assert "Нет доступа" not in page
    # another table's judge is still refused
    other = _ru(two_tables["judge2"])
    assert (
        other.get(reverse("games:protocol", args=[game.tournament.slug, game.pk])).status_code
        == 403
    )


def test_a_players_calendar_says_it_fills_in_when_the_times_are_announced(two_tables):
    alpha1 = Registration.objects.get(user=two_tables["alpha1"])
    client = _ru(two_tables["alpha1"])
    page = client.get(alpha1.tournament.get_absolute_url()).content.decode()
    assert "Календарь пока пуст: он заполнится, когда объявят время ваших туров." in page
    _schedule(two_tables)
    page = client.get(alpha1.tournament.get_absolute_url()).content.decode()
    assert 'data-testid="calendar-empty"' not in page


def test_the_console_log_keeps_its_game_in_progress_until_it_is_closed(two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    console.event_append(
        log=log, event={"type": "foul", "seat": 2}, client_id=uuid.uuid4(), after=None, by=judge
    )
    (mine,) = [g for g in games_of_judge(game.tournament, judge) if g.pk == game.pk]
    assert mine.playing is True
