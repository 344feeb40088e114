from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from mafiatab.core.demo import demo_tournament
from mafiatab.core.scoring import explain, format_points
from mafiatab.core.standings import compute_standings
from mafiatab.games.models import Game, GameStatus
from mafiatab.messages import clause_text
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.standings import services
from mafiatab.standings.inputs import core_tournament
from mafiatab.standings.models import StandingsSnapshot
from mafiatab.standings.services import (
    player_explanation,
    standings_freeze,
    standings_from_data,
    standings_set_hidden,
    standings_snapshot,
    standings_to_data,
    standings_unfreeze,
    tournament_standings,
)
from mafiatab.tournaments.models import StaffMember, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(organiser):
    """The demo tournament, imported by `organiser` (who organises it)."""
    from mafiatab.standings.services.tournament_file import tournament_import

    return tournament_import(core=demo_tournament(), by=organiser)


@pytest.fixture
def chief(demo, make_user):
    user = make_user("Chief")
    StaffMember.objects.create(tournament=demo, user=user, role=StaffRole.CHIEF_JUDGE)
    return user


def _table(client, tournament, **query):
    return client.get(reverse("standings:table", args=[tournament.slug]), query)


def _lateness(tournament, chief, player="Doc"):
    return penalty_give(
        tournament=tournament,
        player=player,
        kind="lateness",
        minutes_late=9,
        reason="late for round 4",  # no round: the demo's round 4 is played already
        by=chief,
    )


def _expected(tournament, *, provisional=False):
    return compute_standings(core_tournament(tournament, provisional=provisional)).to_json()


# --- the cache ---------------------------------------------------------------------------


def test_cached_standings_are_the_cores_before_and_after_a_penalty(demo, chief):
    before = tournament_standings(tournament=demo).to_json()
    assert before == _expected(demo)

    penalty = _lateness(demo, chief)
    after = tournament_standings(tournament=demo).to_json()
    assert after == _expected(demo)
    assert after != before
    assert tournament_standings(demo).row("Doc").penalties == -1 / 2

    penalty_cancel(penalty=penalty, by=chief, reason="the clock was wrong")
    assert tournament_standings(tournament=demo).to_json() == before


def test_kept_pages_are_keyed_on_the_release_so_an_upgrade_never_serves_an_older_page(
    tmp_path,
):
    """The cache lives in the database and outlives the servers: a new release (a
    template, a translation, the code) takes new keys."""
    from mafiatab.standings import cache as kept

    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "table.html"
    page.write_text("<td>{{ r.total }}</td>")
    (tmp_path / "views.py").write_text("x = 1\n")
    first = kept.fingerprint(tmp_path)
    assert kept.fingerprint(tmp_path) == first
    page.write_text("<td>{{ r.total|points }}</td>")
    second = kept.fingerprint(tmp_path)
    assert second != first
    (tmp_path / "notes.txt").write_text("not rendered")
    assert kept.fingerprint(tmp_path) == second
    assert kept.key("rows", 1).split(":")[1] == kept.release()


def test_a_penalty_raises_the_standings_version_and_so_does_its_cancellation(demo, chief):
    start = demo.standings_version
    penalty = _lateness(demo, chief)
    demo.refresh_from_db()
    assert demo.standings_version == start + 1
    penalty_cancel(penalty=penalty, by=chief, reason="mistake")
    demo.refresh_from_db()
    assert demo.standings_version == start + 2


def test_the_exact_form_of_the_standings_reads_back_to_the_same_standings(demo):
    standings = compute_standings(core_tournament(demo))
    assert standings_from_data(standings_to_data(standings)) == standings


def test_the_core_computes_once_per_change_whatever_the_number_of_requests(client, demo, chief):
    with mock.patch.object(
        services, "compute_standings", wraps=services.compute_standings
    ) as core_compute:
        for _ in range(3):
            assert _table(client, demo).status_code == 200
        client.get(reverse("standings:player", args=[demo.slug, "Doc"]))
        assert core_compute.call_count == 1

        _lateness(demo, chief)
        for _ in range(3):
            _table(client, demo)
        assert core_compute.call_count == 2


def test_only_frozen_standings_are_stored_and_only_the_latest_freeze(demo, chief, organiser):
    standings_snapshot(tournament=demo)
    assert not StandingsSnapshot.objects.filter(tournament=demo).exists()
    standings_freeze(tournament=demo, by=organiser)
    first = demo.standings_frozen_version
    _lateness(demo, chief)
    standings_snapshot(tournament=demo)
    standings_freeze(tournament=demo, by=organiser)
    demo.refresh_from_db()
    stored = StandingsSnapshot.objects.filter(tournament=demo)
    kept = set(stored.values_list("version", "provisional"))
    assert kept == {(demo.standings_version, False), (demo.standings_version, True)}
    assert demo.standings_frozen_version == demo.standings_version != first
    standings_unfreeze(tournament=demo, by=organiser)
    assert not StandingsSnapshot.objects.filter(tournament=demo).exists()


def test_a_change_of_the_lot_seed_outside_the_services_is_noticed(demo):
    before = tournament_standings(tournament=demo)
    demo.lot_seed = 12345
    demo.save()
    after = tournament_standings(tournament=demo)
    assert after.lot_seed == 12345
    assert after.to_json() == _expected(demo)
    assert before.lot_seed != after.lot_seed


# --- official and provisional --------------------------------------------------------------


def _submit_last_game(tournament):
    game = Game.objects.filter(tournament=tournament).order_by("-position").first()
    Game.objects.filter(pk=game.pk).update(status=GameStatus.SUBMITTED)
    tournament.standings_changed()
    return game


def test_provisional_standings_count_submitted_protocols_and_official_ones_do_not(demo):
    _submit_last_game(demo)
    official = tournament_standings(tournament=demo).to_json()
    provisional = tournament_standings(tournament=demo, provisional=True).to_json()
    assert official == _expected(demo)
    assert provisional == _expected(demo, provisional=True)
    assert official != provisional


def test_provisional_standings_are_clearly_marked(client, demo):
    official = _table(client, demo).content.decode()
    provisional = _table(client, demo, provisional="1").content.decode()
    assert 'data-testid="official-mark"' in official
    assert 'data-testid="provisional-mark"' not in official
    assert 'data-testid="provisional-mark"' in provisional
    assert "Provisional standings" in provisional


# --- the pages ---------------------------------------------------------------------------


def test_the_table_shows_k_heavy_side_and_b_with_their_clauses(client, demo):
    standings = compute_standings(core_tournament(demo))
    page = _table(client, demo).content.decode()
    assert f"K = {format_points(standings.coefficient_k)}" in page
    assert f"B = {standings.compensation_b}" in page
    assert "(8.7)" in page and "(8.6)" in page
    assert ('data-testid="heavy-side"' in page) == (standings.heavy_side is not None)
    for row in standings.rows:
        assert reverse("standings:player", args=[demo.slug, row.player]) in page
        assert format_points(row.total) in page


def test_the_table_says_that_ci_is_counted_in_main_as_the_pdf_does(client, demo):
    """Ci has a column of its own and is counted in Main too: the table says so (the
    PDF's footnote), in both languages; the tournament page's short table has no Ci."""
    english = _table(client, demo, lang="en").content.decode()
    assert "<th" in english and ">Ci</th>" in english
    note = english.split('data-testid="ci-note">')[1].split("</p>")[0]
    assert "already counted in Main" in note and "8.6" in note
    russian = client.get(
        reverse("standings:table", args=[demo.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "уже входит в «Основные»" in russian.split('data-testid="ci-note">')[1]
    detail = client.get(demo.get_absolute_url()).content.decode()
    assert 'data-testid="ci-note"' not in detail


def test_the_table_says_which_round_the_standings_are_as_of(client, demo):
    core = core_tournament(demo)
    last = max(
        (g for g in core.games if g.is_counted() and g.round is not None),
        key=lambda g: (list(type(g.stage)).index(g.stage), g.round),
    )
    page = _table(client, demo).content.decode()
    assert f"As of round {last.round}" in page


def test_a_players_page_shows_every_line_with_its_clause_and_game(client, demo):
    lines = explain(core_tournament(demo), "Пилот")
    page = client.get(reverse("standings:player", args=[demo.slug, "Пилот"])).content.decode()
    rows = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    assert len(rows) == len(lines)
    for line, row in zip(lines, rows, strict=True):
        assert f'<td class="clause">{clause_text(line.clause)}</td>' in row
        assert format_points(line.points, signed=True) in row
        if line.game is not None:
            assert f'href="{_game_href(demo, line.game)}">{line.game}</a>' in row
            assert f'id="game-{line.game.lower()}"' in page
    assert 'data-testid="game-link"' in page


def _game_href(tournament, label):
    """The game's own page when the application has one, else its block on the page."""
    pk = Game.objects.get(tournament=tournament, label=label).pk
    try:
        return reverse("games:detail", kwargs={"slug": tournament.slug, "pk": pk})
    except NoReverseMatch:
        return f"#game-{label.lower()}"


def test_the_stored_explanation_is_the_cores_for_every_player(demo):
    core = core_tournament(demo)
    snapshot = standings_snapshot(tournament=demo)
    for name in core.player_names():
        assert player_explanation(snapshot=snapshot, player=name).lines() == explain(core, name)


def test_a_player_who_played_no_game_has_no_points_page(client, demo):
    url = reverse("standings:player", args=[demo.slug, "Nobody"])
    assert client.get(url).status_code == 404


def test_the_projector_view_renders_every_player_in_large_type(client, demo):
    page = _table(client, demo, view="projector")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="projector"' in text
    assert "projector.css" in text
    assert 'hx-trigger="every 15s"' in text
    for row in compute_standings(core_tournament(demo)).rows:
        assert f'<td class="name">{row.player}</td>' in text


def test_the_table_refreshes_itself_and_a_refresh_without_change_sends_nothing(client, demo, chief):
    page = _table(client, demo).content.decode()
    assert 'hx-trigger="every 15s"' in page
    url = reverse("standings:table", args=[demo.slug])
    htmx = {"HX-Request": "true"}
    first = client.get(url, headers=htmx)
    assert first.status_code == 200
    assert "<html" not in first.content.decode()
    token = _since(first.content.decode())
    assert client.get(url, {"since": token}, headers=htmx).status_code == 204
    _lateness(demo, chief)
    changed = client.get(url, {"since": token}, headers=htmx)
    assert changed.status_code == 200
    assert _since(changed.content.decode()) != token


def _since(fragment: str) -> str:
    """The state of the standings a refreshable fragment asks about in its next refresh."""
    return fragment.split("since=", 1)[1].split('"', 1)[0]


def test_the_standings_export_as_csv(client, demo):
    response = _table(client, demo, format="csv")
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    rows = compute_standings(core_tournament(demo)).rows
    assert lines[0].startswith("rank,player,total")
    assert len(lines) == len(rows) + 1
    assert lines[1].startswith(f"1,{rows[0].player},{format_points(rows[0].total)},")


# --- hidden and frozen ---------------------------------------------------------------------


def test_hidden_standings_are_not_shown_to_the_public_but_are_to_staff(
    client, demo, organiser, chief
):
    standings_set_hidden(tournament=demo, hidden=True, by=organiser)
    leader = compute_standings(core_tournament(demo)).rows[0]
    public = _table(client, demo).content.decode()
    assert 'data-testid="standings-hidden"' in public
    assert leader.player not in public
    detail = client.get(reverse("tournaments:detail", args=[demo.slug])).content.decode()
    assert 'data-testid="standings-hidden"' in detail
    player_page = client.get(reverse("standings:player", args=[demo.slug, leader.player]))
    assert format_points(leader.total) not in player_page.content.decode().split("<main")[1]
    assert _table(client, demo, format="csv").status_code == 403

    client.force_login(chief)
    staff = _table(client, demo).content.decode()
    assert leader.player in staff
    assert 'data-testid="hidden-mark"' in staff

    standings_set_hidden(tournament=demo, hidden=False, by=organiser)
    client.logout()
    assert leader.player in _table(client, demo).content.decode()


def test_frozen_standings_show_the_public_the_frozen_state_and_staff_the_live_one(
    client, demo, organiser, chief
):
    standings_freeze(tournament=demo, by=organiser)
    frozen_doc = tournament_standings(tournament=demo).row("Doc")
    _lateness(demo, chief)
    live_doc = tournament_standings(tournament=demo).row("Doc")
    assert live_doc.total != frozen_doc.total

    doc_url = reverse("standings:player", args=[demo.slug, "Doc"])
    public = _table(client, demo).content.decode()
    assert 'data-testid="frozen-mark"' in public
    assert _doc_total(public) == format_points(frozen_doc.total)
    assert "late for round 4" not in client.get(doc_url).content.decode()

    client.force_login(chief)
    staff = _table(client, demo).content.decode()
    assert _doc_total(staff) == format_points(live_doc.total)
    assert "late for round 4" in client.get(doc_url).content.decode()

    standings_unfreeze(tournament=demo, by=organiser)
    client.logout()
    assert _doc_total(_table(client, demo).content.decode()) == format_points(live_doc.total)


def _doc_total(page: str) -> str:
    """The total in Doc's row of a rendered table."""
    row = page.split(">Doc</a></td>", 1)[1]
    return row.split("<td>", 1)[1].split("<", 1)[0]


def test_the_organiser_freezes_and_hides_from_the_page_and_it_is_audited(
    client, demo, organiser, chief
):
    url = reverse("standings:manage", args=[demo.slug])
    client.force_login(chief)
    assert client.post(url, {"action": "hide"}).status_code == 403
    client.force_login(organiser)
    page = _table(client, demo).content.decode()
    assert 'data-testid="standings-settings"' in page
    client.post(url, {"action": "freeze"})
    client.post(url, {"action": "hide"})
    demo.refresh_from_db()
    assert demo.standings_hidden
    assert demo.standings_frozen_version == demo.standings_version
    actions = set(demo.audit_entries.values_list("action", flat=True))
    assert {"standings.frozen", "standings.hidden"} <= actions
    response = client.post(url, {"action": "nonsense"}, follow=True)
    assert "Unknown standings setting" in response.content.decode()


def _told(client, url, action):
    page = client.post(url, {"action": action}, follow=True).content.decode()
    return page


def test_the_settings_messages_say_what_the_public_sees_with_both_settings(client, demo, organiser):
    url = reverse("standings:manage", args=[demo.slug])
    client.force_login(organiser)
    told = _told(client, url, "hide")
    assert "The standings are hidden from the public." in told and "They stay frozen" not in told
    told = _told(client, url, "freeze")  # while hidden: the public still sees nothing
    assert "the public sees them as they are now" not in told
    assert "but they are hidden" in told and "then sees them as frozen" in told
    anonymous = _table(Client(), demo).content.decode()
    assert "The organiser has hidden the standings from the public." in anonymous
    told = _told(client, url, "show")
    assert "shown to the public as they were when frozen" in told
    told = _told(client, url, "hide")
    assert "They stay frozen" in told
    told = _told(client, url, "unfreeze")
    assert "no longer frozen, but they are still hidden" in told
    told = _told(client, url, "show")
    assert "The standings are shown to the public." in told
    assert "as they were when frozen;" not in told
    told = _told(client, url, "freeze")
    assert "The standings are frozen: the public sees them as they are now." in told
    told = _told(client, url, "unfreeze")
    assert "The standings are live again for the public." in told


def test_freezing_hidden_standings_is_told_truly_in_russian(client, demo, organiser):
    url = reverse("standings:manage", args=[demo.slug])
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    client.post(url, {"action": "hide"})
    told = _told(client, url, "freeze")
    assert "Таблица заморожена: зрители видят её в нынешнем виде." not in told
    assert "Таблица заморожена в нынешнем виде, но она скрыта" in told


# --- the page kept for anonymous visitors ----------------------------------------------


def _csrf_token_of(page: str) -> str:
    return page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]


def test_every_anonymous_visitor_gets_a_csrf_token_that_works_for_him(demo):
    from django.test import Client

    url = reverse("standings:table", args=[demo.slug])
    tokens = []
    for _ in range(2):
        visitor = Client(enforce_csrf_checks=True)
        page = visitor.get(url).content.decode()
        token = _csrf_token_of(page)
        tokens.append(token)
        switched = visitor.post(
            reverse("set_language"),
            {"language": "ru", "next": url, "csrfmiddlewaretoken": token},
        )
        assert switched.status_code == 302
    assert tokens[0] != tokens[1]


def test_the_page_kept_for_anonymous_visitors_follows_every_change(client, demo, chief):
    first = _table(client, demo).content.decode()
    assert _doc_total(_table(client, demo).content.decode()) == _doc_total(first)
    _lateness(demo, chief)
    after_penalty = _table(client, demo).content.decode()
    assert _doc_total(after_penalty) == format_points(tournament_standings(demo).row("Doc").total)
    assert _doc_total(after_penalty) != _doc_total(first)
    demo.name = "Renamed Cup"
    demo.save()
    assert "Renamed Cup" in _table(client, demo).content.decode()


def test_a_refresh_by_an_anonymous_visitor_without_change_sends_nothing(client, demo):
    url = reverse("standings:table", args=[demo.slug])
    token = client.get(url, headers={"HX-Request": "true"}).content.decode()
    token = token.split("since=", 1)[1].split('"', 1)[0]
    assert client.get(url, {"since": token}, headers={"HX-Request": "true"}).status_code == 204
    assert client.get(url, {"since": "stale"}, headers={"HX-Request": "true"}).status_code == 200


def test_the_standings_pages_speak_russian(client, demo):
    client.cookies["django_language"] = "ru"
    page = _table(client, demo, provisional="1").content.decode()
    assert "Предварительная таблица" in page
    assert "учтены и сданные, но ещё не утверждённые протоколы" in page
    assert "B: 40% игр одного игрока до финала" in page
    assert "игр учтено" in page or "игры учтены" in page or "игра учтена" in page


def test_an_anonymous_visitor_cannot_change_the_standings_settings(client, demo):
    url = reverse("standings:manage", args=[demo.slug])
    assert client.get(url).status_code == 405
    response = client.post(url, {"action": "hide"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    demo.refresh_from_db()
    assert not demo.standings_hidden


# --- the page of a signed-in viewer ---------------------------------------------------------


def _player_of(tournament, make_user, nickname):
    """An account holding the approved registration of the participant `nickname`."""
    user = make_user(f"{nickname} account", username=f"acct-{len(nickname)}-{nickname[:3]}")
    tournament.registrations.filter(nickname=nickname).update(user=user)
    return user


def test_a_signed_in_player_gets_the_shared_table_with_his_own_name_and_rows(
    client, demo, make_user
):
    for nickname in ("Doc", "Лис"):
        user = _player_of(demo, make_user, nickname)
        client.force_login(user)
        page = _table(client, demo).content.decode()
        assert f'data-testid="current-user">{user.nickname}</a>' in page
        assert f'data-mine="[&quot;{nickname}&quot;]"' in page
        assert "standings/mine.js" in page
        assert _doc_total(page) == format_points(_standings_row(demo, "Doc").total)
        assert "placeholder" not in page
        client.logout()
    anonymous = _table(client, demo).content.decode()
    assert "data-mine" not in anonymous and "Log in" in anonymous


def test_a_signed_in_players_page_costs_seven_small_queries_once_it_is_kept(
    client, demo, make_user, django_assert_max_num_queries
):
    """The tournament's time zone, the tournament, the session, the account, his staff
    roles and his registrations in the tournament, and the table kept in the cache
    (bench/bench_web.py measures the speed)."""
    client.force_login(_player_of(demo, make_user, "Doc"))
    _table(client, demo)
    with django_assert_max_num_queries(7):
        page = _table(client, demo).content.decode()
    assert 'data-mine="[&quot;Doc&quot;]"' in page


def test_the_page_of_a_signed_in_player_follows_every_change(client, demo, chief, make_user):
    client.force_login(_player_of(demo, make_user, "Лис"))
    before = _doc_total(_table(client, demo).content.decode())
    _lateness(demo, chief)
    after = _doc_total(_table(client, demo).content.decode())
    assert after != before
    assert after == format_points(_standings_row(demo, "Doc").total)


def test_the_staff_and_the_public_never_get_each_others_page(client, demo, organiser, make_user):
    standings_freeze(tournament=demo, by=organiser)
    client.force_login(organiser)
    staff = _table(client, demo).content.decode()
    client.force_login(_player_of(demo, make_user, "Doc"))
    player = _table(client, demo).content.decode()
    assert 'data-testid="standings-settings"' in staff
    assert 'data-testid="standings-settings"' not in player
    assert "as staff you see the live standings" in staff
    assert "as staff you see the live standings" not in player


def test_a_message_for_the_viewer_is_shown_on_his_page_only(client, demo, organiser, make_user):
    client.force_login(organiser)
    url = reverse("standings:manage", args=[demo.slug])
    shown = client.post(url, {"action": "hide"}, follow=True).content.decode()
    assert "The standings are hidden from the public." in shown
    again = _table(client, demo).content.decode()
    assert "The standings are hidden from the public." not in again
    client.force_login(_player_of(demo, make_user, "Doc"))
    assert "The standings are hidden from the public." not in _table(client, demo).content.decode()


def _standings_row(tournament, player):
    return compute_standings(core_tournament(tournament)).row(player)


def test_a_stored_protocol_the_rules_now_refuse_is_left_out_not_a_server_error(
    client, demo, caplog
):
    from mafiatab.games.models import ProtocolVersion

    game = Game.objects.filter(tournament=demo, status=GameStatus.CONFIRMED).first()
    version = ProtocolVersion.objects.get(game=game, number=game.version)
    data = dict(version.data)
    data["seats"] = [dict(seat) for seat in data["seats"]]
    data["seats"][0]["fouls"] = 4  # stored before four fouls needed their removal
    data["disqualified"] = []
    ProtocolVersion.objects.filter(pk=version.pk).update(data=data)
    others = Game.objects.filter(tournament=demo, status=GameStatus.CONFIRMED).count() - 1

    assert len(core_tournament(demo).games) == others
    assert "no longer pass the rules" in caplog.text
    assert _table(client, demo).status_code == 200


def test_the_standings_page_explains_its_columns_as_the_pdf_does(client, demo):
    page = _table(client, demo).content.decode()
    assert 'data-testid="standings-legend"' in page
    assert "Extra: 8.2.4, 8.3, 8.4, 8.5, the first tie-break (8.8.1)." in page
    assert "the penalties of a game (8.5.2 fouls, 8.2.4 removals) are counted in Extra" in page
    client.cookies["django_language"] = "ru"
    page = _table(client, demo).content.decode()
    assert "Доп.: 8.2.4, 8.3, 8.4, 8.5, первый дополнительный показатель (8.8.1)." in page
    assert "Штрафы: только штрафы самого турнира" in page
    assert "учтены в доп. баллах" in page


# --- a participant fined before his first game ------------------------------------------


def _newcomer_fined_twice(tournament, chief):
    from mafiatab.registrations.models import Registration, Status

    Registration.objects.create(tournament=tournament, nickname="Newcomer", status=Status.APPROVED)
    _lateness(tournament, chief, player="Newcomer")
    _lateness(tournament, chief, player="Newcomer")


def test_a_participant_fined_before_any_game_is_in_the_table_csv_and_pdf_at_once(
    client, demo, chief
):
    from tests.web.test_printables import pdf_text

    _newcomer_fined_twice(demo, chief)
    live = tournament_standings(tournament=demo)
    newcomer = live.row("Newcomer")
    assert (newcomer.total, newcomer.penalties, newcomer.games) == (-1, -1, 0)
    assert newcomer.rank == len(live.rows)

    page = _table(client, demo).content.decode()
    assert "Newcomer" in page
    csv_lines = _table(client, demo, format="csv").content.decode().splitlines()
    assert csv_lines[-1].startswith(f"{len(live.rows)},Newcomer,-1.00,")
    pdf = pdf_text(
        client.get(reverse("printables:standings_pdf", args=[demo.slug]), {"lang": "en"}).content
    )
    assert any("Newcomer" in line and "-1.00" in line for line in pdf.splitlines())
    player_page = client.get(reverse("standings:player", args=[demo.slug, "Newcomer"]))
    assert player_page.status_code == 200
    assert "late for round 4" in player_page.content.decode()


def test_frozen_standings_list_a_participant_fined_before_any_game(client, demo, chief, organiser):
    _newcomer_fined_twice(demo, chief)
    standings_freeze(tournament=demo, by=organiser)
    frozen = tournament_standings(tournament=demo)
    assert frozen.row("Newcomer").total == -1
    page = _table(client, demo).content.decode()
    assert 'data-testid="frozen-mark"' in page
    assert "Newcomer" in page
