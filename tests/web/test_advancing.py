"""Advancing into the final: the draft advance list from the standings, blocked by a
game not confirmed or under protest (named), published (audited, the only players
the final's seating draws), a finalist swapped for the next in line (audited)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from mafiatab.audit.models import AuditEntry
from mafiatab.games.models import Game
from mafiatab.games.services import TablePlan, protocol_confirm, protocol_save, round_create
from mafiatab.registrations.models import Advancement, Status
from mafiatab.registrations.services import registration_add
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish
from mafiatab.standings.advancing import advance_draft, advance_publish, advance_swap
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.services import tournament_close, tournament_stages_update

from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db

PLAYERS = [f"P{n:02d}" for n in range(1, 21)]
PLAN = [
    {"stage": "qualifying", "games": 1},
    {"stage": "final", "players": 10, "games": 2},
]


@pytest.fixture
def qualified(tournament: Any, staff: dict[str, Any]) -> dict[str, Any]:
    """20 participants, a plan (1 qualifying game, a final of 10), the qualifying
    round at two tables; table 1 confirmed, table 2 only submitted."""
    organiser, chief = staff["organiser"], staff["chief"]
    tournament.registrations.update(status=Status.WITHDRAWN)
    for name in PLAYERS:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    tournament = tournament_stages_update(tournament=tournament, stages=PLAN, by=organiser)
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
    games = [t.game for t in first.tables.order_by("number")]
    for game in games:
        protocol_save(game=game, data=complete_data(game), by=chief, base_version=1, submit=True)
    protocol_confirm(game=games[0], by=chief)
    return staff | {"tournament": tournament, "games": games}


def _confirm_all(qualified: dict[str, Any]) -> None:
    protocol_confirm(game=qualified["games"][1], by=qualified["chief"])


def test_a_game_not_confirmed_blocks_the_list_and_is_named(qualified):
    tournament = qualified["tournament"]
    draft = advance_draft(tournament, "final")
    assert [b.label for b in draft.blockers] == [qualified["games"][1].label]
    with pytest.raises(ValidationError) as refused:
        advance_publish(tournament=tournament, into="final", by=qualified["organiser"])
    assert qualified["games"][1].label in " ".join(refused.value.messages)
    assert not Advancement.objects.exists()


def test_the_first_ten_of_the_standings_advance_a_withdrawn_player_skipped(qualified):
    tournament = qualified["tournament"]
    _confirm_all(qualified)
    order = [s.player for s in tournament_standings(tournament).rows]
    tournament.registrations.filter(nickname=order[0]).update(status=Status.WITHDRAWN)
    draft = advance_draft(tournament, "final")
    assert not draft.blockers
    assert [r.player for r in draft.rows] == order
    assert draft.advancing == order[1:11]
    assert [r.code for r in draft.rows[0].remarks] == ["advance.withdrawn"]


def test_the_advance_page_says_the_remarks_in_russian(client, qualified):
    tournament = qualified["tournament"]
    _confirm_all(qualified)
    first = tournament_standings(tournament).rows[0].player
    tournament.registrations.filter(nickname=first).update(status=Status.WITHDRAWN)
    client.force_login(qualified["organiser"])
    url = reverse("standings:advance", args=[tournament.slug, "final"])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "снялся с турнира" in page and "Опубликовать список прошедших" in page


def test_publishing_records_the_finalists_and_the_final_seating_draws_only_them(qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    with pytest.raises(ValidationError):
        seating_generate(
            tournament=tournament, inputs=SeatingInputs(stage="final", games=2), by=organiser
        )
    draft = advance_draft(tournament, "final")
    rows = advance_publish(tournament=tournament, into="final", by=organiser)
    assert [r.registration.nickname for r in rows] == draft.advancing
    entry = AuditEntry.objects.get(tournament=tournament, action="stages.advance.published")
    assert entry.after == {"stage": "final", "advanced": draft.advancing}
    with pytest.raises(ValidationError, match="already published"):
        advance_publish(tournament=tournament, into="final", by=organiser)
    seating = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="final", games=2, tables=1),
        by=organiser,
    )
    assert sorted(seating.players) == sorted(draft.advancing)


def test_a_finalist_who_withdraws_is_swapped_for_the_next_in_line(qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    draft = advance_draft(tournament, "final")
    advance_publish(tournament=tournament, into="final", by=organiser)
    out = draft.advancing[3]
    following = next(r.player for r in draft.rows if not r.advances)
    row = advance_swap(tournament=tournament, into="final", player=out, by=organiser)
    assert row.registration.nickname == following and row.replaces.registration.nickname == out
    active = Advancement.objects.filter(tournament=tournament, active=True)
    assert sorted(a.registration.nickname for a in active) == sorted(
        [p for p in draft.advancing if p != out] + [following]
    )
    entry = AuditEntry.objects.get(tournament=tournament, action="stages.advance.swapped")
    assert entry.before == {"out": out} and entry.after == {"in": following, "stage": "final"}
    with pytest.raises(ValidationError, match="not among"):
        advance_swap(tournament=tournament, into="final", player=out, by=organiser)


def test_the_advance_page_is_the_organisers_and_publishes(client, qualified):
    tournament = qualified["tournament"]
    url = reverse("standings:advance", args=[tournament.slug, "final"])
    client.force_login(qualified["chief"])
    assert client.get(url).status_code == 403
    client.force_login(qualified["organiser"])
    page = client.get(url).content.decode()
    assert qualified["games"][1].label in page and 'data-testid="advance-publish"' not in page
    _confirm_all(qualified)
    page = client.get(url).content.decode()
    assert 'data-testid="advance-publish"' in page
    assert client.post(url, {"action": "publish"}).status_code == 302
    assert Advancement.objects.filter(tournament=tournament).count() == 10
    assert (
        client.get(reverse("standings:advance", args=[tournament.slug, "semifinal"])).status_code
        == 404
    )
    standings = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert url in standings


def test_only_the_organiser_publishes_or_swaps(qualified):
    tournament = qualified["tournament"]
    _confirm_all(qualified)
    for who in ("chief", "judge", "player", "outsider"):
        with pytest.raises(PermissionDenied):
            advance_publish(tournament=tournament, into="final", by=qualified[who])
        with pytest.raises(PermissionDenied):
            advance_swap(tournament=tournament, into="final", player="P01", by=qualified[who])
    assert not Advancement.objects.exists()


def test_the_standings_draw_the_cut_then_put_the_finalists_first(client, qualified):
    tournament, organiser, chief = (
        qualified["tournament"],
        qualified["organiser"],
        qualified["chief"],
    )
    _confirm_all(qualified)
    url = reverse("standings:table", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert page.count('data-testid="cut-line"') == 1
    draft = advance_draft(tournament, "final")
    advance_publish(tournament=tournament, into="final", by=organiser)
    seating = seating_generate(
        tournament=tournament, inputs=SeatingInputs(stage="final", games=2, tables=1), by=organiser
    )
    seating_publish(draft=seating, judges={1: None}, by=organiser)
    game = Game.objects.get(tournament=tournament, stage="final", round=1)
    protocol_save(game=game, data=complete_data(game), by=chief, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    standings = tournament_standings(tournament)
    assert sorted(r.player for r in standings.rows[:10]) == sorted(draft.advancing)
    assert {r.stage.value for r in standings.rows[:10]} == {"final"}
    page = client.get(url).content.decode()
    assert 'data-testid="cut-line"' not in page
    assert page.count('data-testid="stage-group"') == 2
    assert page.index(standings.rows[0].player) < page.index(standings.rows[10].player)
    projector = client.get(url + "?view=projector").content.decode()
    assert projector.count('data-testid="stage-group"') == 2


def test_the_api_standings_give_each_row_its_stage_and_points_per_stage(client, qualified):
    tournament = qualified["tournament"]
    _confirm_all(qualified)
    body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    assert body["stages"] == tournament.stage_plan
    row = body["standings"][0]
    assert row["stage"] == "qualifying"
    assert row["by_stage"] == {"qualifying": row["total"] - row["penalties"]}


def test_a_player_follows_his_outlook_while_the_qualifying_runs(client, qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    tournament = tournament_stages_update(
        tournament=tournament,
        stages=[{"stage": "qualifying", "games": 2}, {"stage": "final", "players": 10, "games": 2}],
        by=organiser,
    )
    _confirm_all(qualified)
    body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    first, last = body["standings"][0], body["standings"][-1]
    assert first["outlook"]["places"] == 10 and first["outlook"]["games_left"] == 1
    assert first["outlook"]["margin"] >= 0 >= last["outlook"]["margin"]
    assert first["outlook"]["mark"] is None  # 20 participants: K of 8.7 applies
    url = reverse("standings:player", args=[tournament.slug, first["player"]])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="outlook"' in page and "Путь в финал" in page
    assert "Осталась 1 игра." in page
    table = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert table.count('data-testid="cut-line"') == 1


def test_the_final_of_ten_games_is_seated_by_a_williams_square(client, qualified, settings):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="final", by=organiser)
    draft = seating_generate(
        tournament=tournament, inputs=SeatingInputs(stage="final", games=10, seed=3), by=organiser
    )
    assert draft.metrics["after"] == {"max": 1, "min": 1, "histogram": [0, 90]}
    assert draft.metrics["seat_balance_exact"]
    client.force_login(organiser)
    page = client.get(draft.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "квадрат Уильямса" in page


def test_hidden_final_extras_stay_hidden_from_the_public_until_the_tournament_closes(
    client, qualified
):
    tournament, organiser, chief = (
        qualified["tournament"],
        qualified["organiser"],
        qualified["chief"],
    )
    tournament = tournament_stages_update(
        tournament=tournament,
        stages=[
            {"stage": "qualifying", "games": 1},
            {"stage": "final", "players": 10, "games": 2, "hide_extras": True},
        ],
        by=organiser,
    )
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="final", by=organiser)
    seating = seating_generate(
        tournament=tournament, inputs=SeatingInputs(stage="final", games=2), by=organiser
    )
    seating_publish(draft=seating, judges={1: None}, by=organiser)
    game = Game.objects.get(tournament=tournament, stage="final", round=1)
    protocol_save(game=game, data=complete_data(game), by=chief, base_version=1, submit=True)
    protocol_confirm(game=game, by=chief)
    extra_seat = game.seats.get(number=3).player  # complete_data gives seat 3 +0.3
    export = reverse("tournaments:export", args=[tournament.slug])

    def public() -> tuple[float, list[Any]]:
        body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
        row = next(r for r in body["standings"] if r["player"] == extra_seat)
        games = client.get(export).json()["games"]
        final = next(g for g in games if g["stage"] == "final")
        return row["by_stage"]["final"], final.get("judge_extra", [])

    api_game = f"/api/tournaments/{tournament.slug}/games/{game.pk}"
    hidden_points, hidden_extras = public()
    assert hidden_extras == []
    assert "judge_extra" not in client.get(api_game).json()["protocol"]
    assert client.get(api_game + "/versions").status_code == 403
    page = client.get(reverse("games:detail", args=[tournament.slug, game.pk]))
    assert page.status_code == 200 and "fine play" not in page.content.decode()
    client.force_login(chief)
    assert client.get(api_game).json()["protocol"]["judge_extra"]
    # the staff's standings count every point, and say that the public's do not
    body = client.get(f"/api/tournaments/{tournament.slug}/standings").json()
    row = next(r for r in body["standings"] if r["player"] == extra_seat)
    assert row["by_stage"]["final"] == pytest.approx(hidden_points + 0.3)
    page = client.get(
        reverse("standings:table", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert 'data-testid="full-mark"' in page
    assert "скрытые от зрителей" in page
    client.logout()
    page = client.get(reverse("standings:table", args=[tournament.slug])).content.decode()
    assert 'data-testid="full-mark"' not in page
    tournament_close(tournament=tournament, by=organiser)
    shown_points, shown_extras = public()
    assert shown_extras and shown_points == pytest.approx(hidden_points + 0.3)
    assert client.get(api_game).json()["protocol"]["judge_extra"]
    assert client.get(api_game + "/versions").status_code == 200


def test_the_final_draft_does_not_warn_of_the_first_days_check_in(client, qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="final", by=organiser)
    draft = seating_generate(
        tournament=tournament, inputs=SeatingInputs(stage="final", games=2), by=organiser
    )
    client.force_login(organiser)
    page = client.get(draft.get_absolute_url()).content.decode()
    assert 'data-testid="not-checked-in"' not in page


def test_the_pdf_and_xlsx_standings_know_the_stages(client, qualified):
    import io

    from openpyxl import load_workbook

    tournament = qualified["tournament"]
    _confirm_all(qualified)
    xlsx = client.get(reverse("printables:standings_xlsx", args=[tournament.slug]))
    sheet = load_workbook(io.BytesIO(xlsx.content)).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][-3:] == ("Stage", "qualifying", "final")
    assert rows[1][-3] == "qualifying" and rows[1][-1] in ("", None)
    pdf = client.get(reverse("printables:standings_pdf", args=[tournament.slug]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_the_finals_blank_protocol_prints_the_order_of_choosing_seats(client, qualified):
    from mafiatab.printables.sheets import round_blank_sheets

    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    draft = advance_draft(tournament, "final")
    advance_publish(tournament=tournament, into="final", by=organiser)
    seating = seating_generate(
        tournament=tournament, inputs=SeatingInputs(stage="final", games=2), by=organiser
    )
    seating_publish(draft=seating, judges={1: None}, by=organiser)
    final_round = tournament.rounds.get(stage="final", number=1)
    (sheet,) = round_blank_sheets(final_round, chief_judge="")
    assert sheet.choosing == tuple(draft.advancing)
    qualifying = tournament.rounds.get(stage="qualifying", number=1)
    assert all(s.choosing == () for s in round_blank_sheets(qualifying, chief_judge=""))
    url = reverse("printables:blank_protocols", args=[tournament.slug])
    client.force_login(organiser)
    pdf = client.get(url, {"round": 1, "stage": "final"})
    assert pdf.status_code == 200


def test_the_plan_keeps_a_stage_whose_advance_list_is_published(qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="final", by=organiser)
    for stages in (
        [{"stage": "qualifying", "games": 1}],
        [{"stage": "qualifying", "games": 1}, {"stage": "final", "players": 20, "games": 2}],
    ):
        with pytest.raises(ValidationError, match="is published"):
            tournament_stages_update(tournament=tournament, stages=stages, by=organiser)
    more_games = [
        {"stage": "qualifying", "games": 1},
        {"stage": "final", "players": 10, "games": 5},
    ]
    tournament = tournament_stages_update(tournament=tournament, stages=more_games, by=organiser)
    assert tournament.stage_plan[1]["games"] == 5


def test_the_api_gives_and_publishes_the_advance_list(client, qualified):
    from mafiatab.api.services import token_create

    tournament, organiser = qualified["tournament"], qualified["organiser"]
    url = f"/api/tournaments/{tournament.slug}/advance/final"
    assert client.get(url).status_code == 401
    key = token_create(user=organiser, name="script")[1]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    body = client.get(url, **auth).json()
    assert body["from"] == "qualifying" and body["places"] == 10
    assert body["blockers"] == [f"{qualified['games'][1].label}: its protocol is submitted"]
    assert body["advanced"] is None
    refused = client.post(url, **auth)
    assert refused.status_code == 422 and qualified["games"][1].label in str(refused.json())
    _confirm_all(qualified)
    body = client.post(url, **auth).json()
    assert body["advanced"] == [e["player"] for e in body["entries"] if e["advances"]]
    assert len(body["advanced"]) == 10
    chief_key = token_create(user=qualified["chief"], name="script")[1]
    assert client.get(url, HTTP_AUTHORIZATION=f"Bearer {chief_key}").status_code == 403


def test_a_final_entered_by_hand_seats_only_the_finalists(qualified):
    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    draft = advance_draft(tournament, "final")
    advance_publish(tournament=tournament, into="final", by=organiser)
    outsider = next(r.player for r in draft.rows if not r.advances)
    wrong = (*draft.advancing[:9], outsider)
    with pytest.raises(ValidationError, match=outsider):
        round_create(
            tournament=tournament,
            stage="final",
            number=1,
            tables=[TablePlan(number=1, judge=None, players=wrong)],
            by=organiser,
        )
    made = round_create(
        tournament=tournament,
        stage="final",
        number=1,
        tables=[TablePlan(number=1, judge=None, players=tuple(reversed(draft.advancing)))],
        by=organiser,
    )
    assert [s.player for s in made.tables.get().game.seats.order_by("number")] == list(
        reversed(draft.advancing)
    )


def test_the_cut_counts_the_extras_a_semifinal_hides_from_the_public(qualified):
    tournament, organiser, chief = (
        qualified["tournament"],
        qualified["organiser"],
        qualified["chief"],
    )
    tournament = tournament_stages_update(
        tournament=tournament,
        stages=[
            {"stage": "qualifying", "games": 1},
            {"stage": "semifinal", "players": 20, "games": 1, "hide_extras": True},
            {"stage": "final", "players": 10, "games": 1},
        ],
        by=organiser,
    )
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="semifinal", by=organiser)
    made = round_create(
        tournament=tournament,
        stage="semifinal",
        number=1,
        tables=[
            TablePlan(number=1, judge=None, players=tuple(PLAYERS[::2])),
            TablePlan(number=2, judge=None, players=tuple(PLAYERS[1::2])),
        ],
        by=chief,
    )
    extra = []
    for table in made.tables.order_by("number"):
        game = table.game
        protocol_save(game=game, data=complete_data(game), by=chief, base_version=1, submit=True)
        protocol_confirm(game=game, by=chief)
        extra.append(game.seats.get(number=3).player)
    public = {r.player: r.total for r in tournament_standings(tournament).rows}
    draft = advance_draft(tournament, "final")
    totals = {e.player: e.total for e in draft.rows}
    for player in extra:
        assert totals[player] == public[player] + Fraction(3, 10)


def test_a_list_published_by_mistake_is_taken_back_until_the_stage_is_seated(client, qualified):
    from django.utils.translation import override

    from mafiatab.standings.advancing import advance_withdraw

    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    draft = advance_draft(tournament, "final")
    advance_publish(tournament=tournament, into="final", by=organiser)
    advance_swap(tournament=tournament, into="final", player=draft.advancing[3], by=organiser)
    for who in ("chief", "player"):
        with pytest.raises(PermissionDenied):
            advance_withdraw(tournament=tournament, into="final", by=qualified[who])
    url = reverse("standings:advance", args=[tournament.slug, "final"])
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    assert 'data-testid="advance-withdraw"' in client.get(url).content.decode()
    done = client.post(url, {"action": "withdraw"}, follow=True).content.decode()
    assert "отозван: это снова черновик" in done and 'data-testid="advance-publish"' in done
    assert not Advancement.objects.filter(tournament=tournament).exists()
    entry = AuditEntry.objects.get(tournament=tournament, action="stages.advance.withdrawn")
    assert len(entry.before["advanced"]) == 10
    with override("en"), pytest.raises(ValidationError, match="not published"):
        advance_withdraw(tournament=tournament, into="final", by=organiser)
    # published again and seated: the list stays
    advance_publish(tournament=tournament, into="final", by=organiser)
    finalists = [a.registration.nickname for a in Advancement.objects.filter(tournament=tournament)]
    round_create(
        tournament=tournament,
        stage="final",
        number=1,
        tables=[TablePlan(number=1, judge=None, players=tuple(finalists))],
        by=qualified["chief"],
    )
    assert 'data-testid="advance-withdraw"' not in client.get(url).content.decode()
    with override("en"), pytest.raises(ValidationError, match="seated already"):
        advance_withdraw(tournament=tournament, into="final", by=organiser)


def test_the_api_takes_the_list_back(qualified):
    import json

    from django.test import Client

    from mafiatab.api.services import token_create

    tournament, organiser = qualified["tournament"], qualified["organiser"]
    _confirm_all(qualified)
    advance_publish(tournament=tournament, into="final", by=organiser)
    _token, key = token_create(user=organiser, name="script")
    url = f"/api/tournaments/{tournament.slug}/advance/final"
    response = Client().delete(url, HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code == 200, response.content
    assert json.loads(response.content)["advanced"] is None
    again = Client().delete(url, HTTP_AUTHORIZATION=f"Bearer {key}")
    assert again.status_code == 422


def _games_left_said(client, tournament, player):
    url = reverse("standings:player", args=[tournament.slug, player])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    outlook = page.split('data-testid="outlook"', 1)[1].split("</section>", 1)[0]
    said = re.search(r"Остал\w+ \d+ игр\w*\.", outlook)
    return said.group(0) if said else None


def test_games_left_count_his_seats_so_a_player_replaced_in_the_last_round_has_none(
    client, qualified
):
    from mafiatab.games.services import replacement_record

    tournament, organiser, chief = (qualified[k] for k in ("tournament", "organiser", "chief"))
    tournament = tournament_stages_update(
        tournament=tournament,
        stages=[{"stage": "qualifying", "games": 2}, {"stage": "final", "players": 10, "games": 2}],
        by=organiser,
    )
    _confirm_all(qualified)
    # Round 2 is not made yet: the plan's second game is still to come for everyone.
    assert _games_left_said(client, tournament, "P01") == "Осталась 1 игра."
    second = round_create(
        tournament=tournament,
        stage="qualifying",
        number=2,
        tables=[
            TablePlan(number=1, judge=None, players=tuple(PLAYERS[::2])),
            TablePlan(number=2, judge=None, players=tuple(PLAYERS[1::2])),
        ],
        by=chief,
    )
    replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P01"),
        reserve_nickname="Baskerville",
        round=2,
        minutes_late=20,
        by=organiser,
        new_player=True,
    )
    for table in second.tables.order_by("number"):
        game = Game.objects.get(pk=table.game.pk)
        protocol_save(
            game=game, data=complete_data(game), by=chief, base_version=game.version, submit=True
        )
        protocol_confirm(game=game, by=chief)
    # The last round is played: P01 lost his seat in it to the reserve, so the stage
    # still "runs" by the plan, but no game is left for him, nor for anyone.
    assert _games_left_said(client, tournament, "P01") == "Осталось 0 игр."
    assert _games_left_said(client, tournament, "P02") == "Осталось 0 игр."


def test_the_staged_standings_pdf_gives_every_nickname_its_own_cell(client, qualified, monkeypatch):
    """With a column for each stage the standings print on a landscape page, and no
    text of a cell (a nickname above all) reaches into the next column."""
    from mafiatab.printables.pdf import Renderer
    from tests.web.test_pdf_headings import _descendants

    tournament = qualified["tournament"]
    _confirm_all(qualified)
    documents: list[Any] = []
    document = Renderer.document

    def keep(self: Renderer, template: str, context: dict[str, Any]) -> Any:
        documents.append(result := document(self, template, context))
        return result

    monkeypatch.setattr(Renderer, "document", keep)
    pdf = client.get(reverse("printables:standings_pdf", args=[tournament.slug]), {"lang": "ru"})
    assert pdf.status_code == 200
    (laid_out,) = documents
    cells = 0
    for page in laid_out.pages:
        assert page.width > page.height
        for box in _descendants(page._page_box):
            if getattr(box, "element_tag", None) != "td":
                continue
            if type(box).__name__ != "TableCellBox":
                continue
            left = box.content_box_x()
            for text in _descendants(box):
                if type(text).__name__ == "TextBox":
                    assert text.position_x >= left - 0.5, text.text
                    assert text.position_x + text.width <= left + box.width + 0.5, text.text
                    cells += 1
    assert cells
