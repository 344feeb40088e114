"""`mafiatab demo`: the first start loads the demo and prints its logins; every later
start prints the logins again while the demo accounts exist."""

from __future__ import annotations

import pytest

from mafiatab.accounts.models import User
from mafiatab.cli import main
from mafiatab.commands import demo as demo_command
from mafiatab.commands.demo_tournament import DEMO_PASSWORD, demo_logins
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_server(monkeypatch, fast_passwords):
    """The command runs up to the point where it would serve, then returns."""
    served = []
    monkeypatch.delenv("MAFIATAB_DATA_DIR", raising=False)  # restored after the test
    monkeypatch.setattr(demo_command, "serve", lambda *, port: served.append(port) or 0)
    return served


def _start(capsys, tmp_path):
    code = main(["demo", "--port", "8123", "--data-dir", str(tmp_path)])
    return code, capsys.readouterr().out


def test_the_first_start_loads_the_demo_and_prints_the_logins(capsys, tmp_path, no_server):
    code, out = _start(capsys, tmp_path)
    assert code == 0 and no_server == [8123]
    assert "Loaded the demo tournament" in out
    assert f"Demo accounts (password for all: {DEMO_PASSWORD}):" in out
    assert "organiser" in out and "judge1" in out and "player01" in out
    assert Tournament.objects.count() == 1


def test_a_second_start_prints_the_same_logins_again(capsys, tmp_path, no_server):
    _code, first = _start(capsys, tmp_path)
    code, second = _start(capsys, tmp_path)
    assert code == 0 and no_server == [8123, 8123]
    assert "Using the existing data" in second
    assert Tournament.objects.count() == 1
    logins = first[first.index("Demo accounts") :]
    assert second[second.index("Demo accounts") :] == logins
    assert logins.index("organiser") < logins.index("judge1") < logins.index("player01")


def test_a_changed_password_drops_the_account_from_the_logins(capsys, tmp_path, no_server):
    _start(capsys, tmp_path)
    player = User.objects.get(username="player02")
    player.set_password("my-own-secret-9")
    player.save()
    names = [login.username for login in demo_logins()]
    assert "player02" not in names and "player01" in names
    _code, out = _start(capsys, tmp_path)
    assert "player02" not in out and "player01" in out


def test_a_site_without_demo_accounts_prints_no_logins(capsys, tmp_path, no_server, make_user):
    from mafiatab.tournaments.services import TournamentInfo, tournament_create

    tournament_create(info=TournamentInfo(name="Own Cup", ruleset="fiim"), by=make_user("Host"))
    code, out = _start(capsys, tmp_path)
    assert code == 0 and "Using the existing data" in out
    assert "Demo accounts" not in out


def test_each_demo_player_signs_in_to_his_own_registration(capsys, tmp_path, no_server):
    from mafiatab.tournaments.permissions import user_can

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    player = User.objects.get(username="player01")
    registration = tournament.registrations.get(user=player)
    assert registration.nickname == player.nickname
    assert tournament.registrations.filter(user=None).count() == 0
    assert user_can(player, tournament, "check_in_self")


def test_the_demo_shows_a_table_being_played_on_the_console(client, capsys, tmp_path, no_server):
    from django.urls import reverse

    from mafiatab.console.models import GameLog
    from mafiatab.console.services import live_events
    from mafiatab.core.demo import TABLE_IN_PLAY

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    log = GameLog.objects.select_related("game__table_slot__judge").get()
    game = log.game
    assert not log.is_closed and game.status == "draft"
    assert game.table_slot.judge.username == "judge1"
    assert live_events(log) == list(TABLE_IN_PLAY.events)
    slug = tournament.slug

    live = client.get(reverse("console:spectator", args=[slug, game.pk])).content.decode()
    assert 'data-testid="board-seat-10"' in live and "has not started" not in live
    assert 'data-testid="board-nominations"' in live

    client.force_login(User.objects.get(username="judge1"))
    console = client.get(reverse("console:console", args=[slug, game.pk]))
    assert console.status_code == 200
    assert "console/console" in [t.name.split(".")[0] for t in console.templates]

    rounds = client.get(reverse("games:rounds", args=[slug])).content.decode()
    assert game.label in rounds
    seating = client.get(reverse("seating:index", args=[slug])).content.decode()
    final = seating[seating.index('id="seating-final"') :]
    assert "10 players, 10 games each, 10 rounds." in final  # as its tables hold it
    row = final[final.index(f'data-testid="round-{game.round}-table-1"') :]
    row = row[: row.index("</tr>")]
    for seat in game.seats.all():
        assert seat.player in row
    # the whole final is seated by the Williams square: each finalist once in every seat
    # and once right after every other finalist
    rows = [
        [s.player for s in g.seats.order_by("number")]
        for g in tournament.games.filter(stage="final").order_by("round")
    ]
    assert len(rows) == 10
    for player in rows[0]:
        assert sorted(r.index(player) for r in rows) == list(range(10))
    follows = [(r[i - 1], r[i]) for r in rows for i in range(1, 10)]
    assert len(set(follows)) == len(follows) == 90


def test_the_demo_has_its_stage_plan_and_the_final_advance_list_published(
    client, capsys, tmp_path, no_server
):
    from django.urls import reverse

    from mafiatab.audit.models import AuditEntry
    from mafiatab.commands.demo_tournament import DEMO_STAGES
    from mafiatab.registrations.models import Advancement

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    assert [(s["stage"], s["games"]) for s in tournament.stage_plan] == [
        (s["stage"], s["games"]) for s in DEMO_STAGES
    ]
    final = tournament.games.get(label="F1")
    advanced = {a.registration.nickname for a in Advancement.objects.filter(stage="final")}
    assert advanced == {s.player for s in final.seats.all()}
    assert AuditEntry.objects.filter(action="stages.advance.published").count() == 1
    page = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert page.count('data-testid="stage-group"') == 2


def test_every_judge_the_demos_seating_names_is_on_its_list_of_table_judges(
    capsys, tmp_path, no_server, client
):
    import re

    from django.urls import reverse

    from mafiatab.games.models import Game

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    page = client.get(tournament.get_absolute_url()).content.decode()
    listed = re.search(r"<dt>Table judges</dt>\s*<dd>(.*?)</dd>", page, re.S)[1]
    named = {g.judge for g in Game.objects.filter(tournament=tournament) if g.judge}
    assert named and all(name in listed for name in named), (named, listed)
    seating = client.get(reverse("seating:index", args=[tournament.slug])).content.decode()
    for name in ("Сергей Лебедев", "Ольга Никитина", "Павел Громов"):
        assert name in seating and name in listed


def test_a_player_who_did_not_reach_the_final_is_told_so_once_not_per_round(
    capsys, tmp_path, no_server, client
):
    from django.urls import reverse

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    client.force_login(User.objects.get(username="player01"))
    client.cookies["django_language"] = "ru"
    for name in ("seating:index", "seating:mine"):
        page = client.get(reverse(name, args=[tournament.slug])).content.decode()
        assert 'data-testid="not-in-stage-final"' in page
        assert "Вы не играете на этом этапе." in page
        assert page.count("отдыхает") == 0


def test_each_demo_judge_finds_the_tables_whose_protocols_he_signed_on_his_tables_page(
    capsys, tmp_path, no_server, client
):
    from django.urls import reverse

    from mafiatab.games.models import Game

    _start(capsys, tmp_path)
    tournament = Tournament.objects.get()
    judge2 = User.objects.get(username="judge2")
    signed = Game.objects.filter(tournament=tournament, judge=judge2.nickname)
    assert signed.exists()
    client.force_login(judge2)
    url = reverse("games:my_tables", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Вы не судите ни одного стола" not in page
    assert all(game.label in page for game in signed), [g.label for g in signed]
