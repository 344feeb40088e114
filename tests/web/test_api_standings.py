"""The standings of the API are the `mafiatab standings --json` document of the same file."""

from __future__ import annotations

import json

import pytest

from mafiatab.cli import main
from mafiatab.core.demo import demo_tournament_dict
from mafiatab.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _imported(tmp_path, capsys, data):
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    slug = _cli(capsys, "import", str(path)).strip().splitlines()[-1]
    assert Tournament.objects.filter(slug=slug).exists()
    reference = json.loads(_cli(capsys, "standings", str(path), "--json"))
    return slug, reference


def test_the_demo_standings_equal_the_command_line_output(client, tmp_path, capsys):
    slug, reference = _imported(tmp_path, capsys, demo_tournament_dict())
    response = client.get(f"/api/tournaments/{slug}/standings")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == reference
    assert len(reference["standings"]) > 10
    assert any(row["penalties"] < 0 for row in reference["standings"])


def test_with_twenty_participants_or_fewer_the_coefficient_k_is_the_same_too(
    client, tmp_path, capsys
):
    data = demo_tournament_dict() | {"participants": 16}
    slug, reference = _imported(tmp_path, capsys, data)
    assert reference["heavy_side"] in ("red", "black")
    assert reference["coefficient_k"] != 1.0
    assert client.get(f"/api/tournaments/{slug}/standings").json() == reference


def test_tournament_penalties_and_an_offline_ruleset_give_the_same_document(
    client, tmp_path, capsys
):
    data = demo_tournament_dict()
    data["ruleset"] = "fiim"
    data["lot_seed"] = 7
    for game in data["games"]:
        game.pop("replayed", None)
        for removal in game.get("disqualified", []):
            removal["online"] = False
    player = data["games"][0]["seats"][0]["player"]
    data["penalties"] = [{"player": player, "points": -0.75, "reason": "late, twice"}]
    slug, reference = _imported(tmp_path, capsys, data)
    assert reference["coefficient_k"] == 1.0 and reference["heavy_side"] is None
    assert client.get(f"/api/tournaments/{slug}/standings").json() == reference
    row = next(r for r in reference["standings"] if r["player"] == player)
    assert row["penalties"] <= -0.75


def test_a_tournament_without_games_has_empty_standings(client, tournament):
    body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    assert body == {
        "tournament": "Spring Cup",
        "coefficient_k": 1.0,
        "heavy_side": None,
        "compensation_b": 0,
        "standings": [],
    }


# --- official and provisional, hidden and frozen ----------------------------------------


def _url(tournament, query=""):
    return f"/api/tournaments/{tournament.slug}/standings{query}"


def _core(tournament, *, provisional=False):
    from mafiatab.core.standings import compute_standings
    from mafiatab.standings.inputs import core_tournament

    return compute_standings(core_tournament(tournament, provisional=provisional)).to_json()


def test_provisional_standings_count_submitted_protocols(client, demo_imported):
    from mafiatab.games.models import Game, GameStatus

    last = Game.objects.filter(tournament=demo_imported).order_by("-position").first()
    Game.objects.filter(pk=last.pk).update(status=GameStatus.SUBMITTED)
    demo_imported.standings_changed()

    official = client.get(_url(demo_imported)).json()
    provisional = client.get(_url(demo_imported, "?provisional=true")).json()
    assert official == _core(demo_imported)
    assert provisional == _core(demo_imported, provisional=True)
    assert official != provisional
    assert client.get(_url(demo_imported, "?provisional=false")).json() == official
    assert client.get(_url(demo_imported, "?provisional=maybe")).status_code == 422


def test_hidden_standings_are_refused_to_the_public_and_shown_to_the_staff(
    client, demo_imported, make_user
):
    from mafiatab.api.services import token_create
    from mafiatab.standings.services import standings_set_hidden
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    organiser = make_user("Boss")
    staff_assign(tournament=demo_imported, user=organiser, role=StaffRole.ORGANISER, by=None)
    judge = make_user("Judge")
    staff_assign(tournament=demo_imported, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    standings_set_hidden(tournament=demo_imported, hidden=True, by=organiser)

    response = client.get(_url(demo_imported))
    assert response.status_code == 403
    assert "hidden" in response.json()["detail"]
    key = token_create(user=judge, name="screen")[1]
    staff = client.get(_url(demo_imported), HTTP_AUTHORIZATION=f"Bearer {key}")
    assert staff.status_code == 200
    assert staff.json() == _core(demo_imported)


def test_frozen_standings_show_the_public_the_frozen_state(client, demo_imported, make_user):
    from mafiatab.penalties.services import penalty_give
    from mafiatab.standings.services import standings_freeze
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    chief = make_user("Boss")
    for role in (StaffRole.ORGANISER, StaffRole.CHIEF_JUDGE):
        staff_assign(tournament=demo_imported, user=chief, role=role, by=None)
    frozen = _core(demo_imported)
    standings_freeze(tournament=demo_imported, by=chief)
    leader = frozen["standings"][0]["player"]
    penalty_give(
        tournament=demo_imported, player=leader, kind="lobby_fine", reason="lobby", by=chief
    )
    assert client.get(_url(demo_imported)).json() == frozen
    client.force_login(chief)
    live = client.get(_url(demo_imported)).json()
    assert live == _core(demo_imported) != frozen
