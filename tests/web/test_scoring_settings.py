"""The tournament's scoring settings: N of 8.7 counts the approved participants (not a
reserve who played), B of 8.6 comes from the schedule (not from the games played so
far), the lot seed is drawn at creation; all three are settable on the edit page,
audited, shown on the standings, and the standings on the web equal those of
`mafiatab standings --json` for the exported file."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.cli import main
from mafiatab.core.standings import compute_standings
from mafiatab.games.services import TablePlan, protocol_confirm, protocol_save, round_create
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import registration_add
from mafiatab.standings.inputs import core_tournament, scoring_settings

from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{n:02d}" for n in range(1, 21)]


@pytest.fixture
def played(tournament: Any, staff: dict[str, Any]) -> dict[str, Any]:
    """20 participants (and `Seated` withdrawn), a reserve; rounds 1 and 2 scheduled, the
    reserve plays seat 10 of table 1 in round 1 and both games of round 1 are confirmed."""
    organiser, chief = staff["organiser"], staff["chief"]
    tournament.registrations.update(status=Status.WITHDRAWN)
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    Registration.objects.create(tournament=tournament, nickname="Reserve", status=Status.RESERVE)
    first = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[
            TablePlan(number=1, judge=None, players=tuple(PLAYERS[:10])),
            TablePlan(number=2, judge=None, players=tuple(PLAYERS[10:])),
        ],
        by=chief,
    )
    round_create(
        tournament=tournament,
        stage="qualifying",
        number=2,
        tables=[
            TablePlan(number=1, judge=None, players=tuple(PLAYERS[::2])),
            TablePlan(number=2, judge=None, players=tuple(PLAYERS[1::2])),
        ],
        by=chief,
    )
    for n, table in enumerate(first.tables.order_by("number")):
        game = table.game
        data = complete_data(game)
        if n == 0:
            data["seats"][9]["player"] = "reserve"
        protocol_save(game=game, data=data, by=chief, base_version=1, submit=True)
        protocol_confirm(game=game, by=chief)
    return staff | {"tournament": tournament}


def _play_round_two(played: dict[str, Any]) -> None:
    tournament, chief = played["tournament"], played["chief"]
    for table in tournament.rounds.get(number=2).tables.order_by("number"):
        protocol_save(
            game=table.game, data=complete_data(table.game), by=chief, base_version=1, submit=True
        )
        protocol_confirm(game=table.game, by=chief)


def test_n_counts_the_approved_participants_and_not_a_reserve_who_played(played):
    _play_round_two(played)
    tournament = played["tournament"]
    core = core_tournament(tournament)
    assert len(core.player_names()) == 21  # the 20 participants and the reserve played
    assert scoring_settings(tournament).participants == 20
    seated_count = compute_standings(replace(core, participants=None))
    assert core.participants == 20 and seated_count.coefficient_k == 1
    assert compute_standings(core).coefficient_k != 1  # 8.7 applies to 20 participants


def test_a_reserve_who_played_does_not_lift_n_above_twenty(played):
    tournament = played["tournament"]
    Registration.objects.create(tournament=tournament, nickname="Reserve2", status=Status.RESERVE)
    assert scoring_settings(tournament).participants == 20


def test_the_reserve_who_played_is_ranked_and_the_header_says_so_beside_n(client, played):
    tournament = played["tournament"]
    standings = compute_standings(core_tournament(tournament))
    assert "reserve" in {r.player.lower() for r in standings.rows}
    url = reverse("standings:table", args=[tournament.slug])
    for language in ("en", "ru"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        said = page.split('data-testid="participants-n">', 1)[1].split("</span>", 1)[0]
        assert "N = 20" in said
        # Nothing beside N may say the table has no reserve: it has one.
        assert "reserves not counted" not in said and "без запасных" not in said
        assert ("in the table" if language == "en" else "в таблице") in said


def test_b_comes_from_the_schedule_not_from_the_games_played(played):
    tournament = played["tournament"]
    settings = scoring_settings(tournament)
    assert settings.games_before_final == 2 and not settings.games_before_final_set
    core = core_tournament(tournament)
    assert compute_standings(core).compensation_b == 1  # 40% of 2 games, rounded
    assert compute_standings(replace(core, games_before_final=None)).compensation_b == 0


def test_a_new_tournament_draws_its_lot_seed_and_records_it(make_tournament):
    one, two = make_tournament(name="Cup One"), make_tournament(name="Cup Two")
    assert one.lot_seed > 0 and one.lot_seed != two.lot_seed
    created = AuditEntry.objects.get(tournament=one, action="tournament.created")
    assert created.after["lot_seed"] == one.lot_seed


def test_the_organiser_sets_the_scoring_settings_and_the_change_is_audited(client, played):
    tournament = played["tournament"]
    client.force_login(played["organiser"])
    url = reverse("tournaments:edit", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert "now 20" in page and "now 2" in page and str(tournament.lot_seed) in page
    old_seed = tournament.lot_seed
    response = client.post(
        url,
        {
            "form": "scoring",
            "scoring-participants": "25",
            "scoring-games_before_final": "10",
            "scoring-lot_seed": "7",
        },
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.participants, tournament.games_before_final, tournament.lot_seed) == (
        25,
        10,
        7,
    )
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament.scoring_changed")
    assert entry.before == {
        "participants": None,
        "games_before_final": None,
        "lot_seed": old_seed,
    }
    assert entry.after == {"participants": 25, "games_before_final": 10, "lot_seed": 7}
    assert entry.actor == played["organiser"]
    history = client.get(reverse("tournaments:history", args=[tournament.slug]))
    assert "Scoring settings changed" in history.content.decode()
    body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    assert body["coefficient_k"] == 1.0 and body["compensation_b"] == 4
    standings = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert "N = 25" in standings and "set by the organiser" in standings
    assert "lot seed 7" in standings


def test_the_scoring_settings_refuse_nonsense_and_a_table_judge(client, played):
    tournament = played["tournament"]
    url = reverse("tournaments:edit", args=[tournament.slug])
    client.force_login(played["organiser"])
    bad = {"form": "scoring", "scoring-participants": "0", "scoring-lot_seed": "-1"}
    assert client.post(url, bad).status_code == 422
    client.force_login(played["judge"])
    good = {"form": "scoring", "scoring-participants": "5", "scoring-lot_seed": "1"}
    assert client.post(url, good).status_code == 403
    tournament.refresh_from_db()
    assert tournament.participants is None
    assert not AuditEntry.objects.filter(action="tournament.scoring_changed").exists()


def test_the_standings_show_the_settings_with_their_clauses(client, played):
    tournament = played["tournament"]
    page = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert "N = 20 (approved participants; reserves who played are in the table, not in N)" in page
    assert "games before the final = 2 (from the schedule)" in page
    assert f"lot seed {tournament.lot_seed}" in page
    for clause in ("(8.7)", "(8.6)", "(8.8.5)"):
        assert clause in page


def test_the_web_standings_equal_the_command_line_standings_of_the_export(
    client, played, tmp_path, capsys
):
    tournament = played["tournament"]
    exported = client.get(reverse("tournaments:export", args=[tournament.slug]))
    assert exported.status_code == 200
    path = tmp_path / "export.json"
    path.write_bytes(exported.content)
    assert json.loads(exported.content)["participants"] == 20
    capsys.readouterr()
    assert main(["standings", str(path), "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    on_the_web = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    assert on_the_web == from_file


def test_the_settings_on_the_standings_read_in_russian(client, played):
    tournament = played["tournament"]
    url = reverse("standings:table", args=[tournament.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "N = 20 (одобренные участники; сыгравшие запасные — в таблице, но не в N)" in page
    assert "игр до финала = 2 (по рассадке)" in page
    assert f"зерно жребия {tournament.lot_seed}" in page


def test_the_api_gives_the_scoring_settings_and_where_they_come_from(client, played):
    tournament = played["tournament"]
    body = client.get(f"/api/tournaments/{tournament.slug}").json()
    assert body["scoring"] == {
        "participants": 20,
        "participants_set": False,
        "games_before_final": 2,
        "games_before_final_set": False,
        "games_before_final_from_plan": False,
        "lot_seed": tournament.lot_seed,
    }


def _settings_said(page: str) -> str:
    return page.split('data-testid="scoring-settings">', 1)[1].split("</p>", 1)[0]


def test_frozen_standings_and_a_players_page_show_the_settings_frozen_with_them(client, played):
    from mafiatab.standings.services import standings_freeze
    from mafiatab.tournaments.services import tournament_stages_update

    tournament, organiser = played["tournament"], played["organiser"]
    standings_freeze(tournament=tournament, by=organiser)
    table = reverse("standings:table", args=[tournament.slug])
    frozen = _settings_said(client.get(table, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "игр до финала = 2 (по рассадке)" in frozen

    plan = [
        {"stage": "qualifying", "games": 3, "advance": 10},
        {"stage": "final", "games": 10},
    ]
    tournament_stages_update(tournament=tournament, stages=plan, by=organiser)
    tournament.refresh_from_db()
    player = reverse("standings:player", args=[tournament.slug, PLAYERS[0]])
    for url in (table, player):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert 'data-testid="frozen-mark"' in page
        assert _settings_said(page) == frozen, url

    # The staff see the live standings with the live settings.
    client.force_login(organiser)
    live = _settings_said(client.get(player, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "игр до финала = 3 (по плану этапов)" in live
