"""The tournament's history in the reader's language: every change the services record
has a name in Russian, and a Russian history page shows no stored code, no English
field name and no raw value (ruleset, role, status, stage, yes/no, ISO date)."""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.announcements.services import TABLE, Audience, broadcast_send
from mafiatab.audit.models import AuditEntry
from mafiatab.console.services import log_start
from mafiatab.front.audit_display import _vocabularies
from mafiatab.games.models import Round
from mafiatab.games.services import (
    TablePlan,
    game_mark_replayed,
    protest_decide,
    protest_file,
    protocol_confirm,
    protocol_return,
    protocol_save,
    replacement_record,
    table_add,
)
from mafiatab.messages import AUDIT_ACTIONS, AUDIT_FIELDS, ROLE_NAMES, TEAM_NAMES
from mafiatab.penalties.services import penalty_cancel, penalty_give
from mafiatab.registrations.services import (
    checkin_open,
    checkin_record,
    registration_add,
    registration_apply,
    registration_approve,
    registration_reject,
    registration_withdraw,
)
from mafiatab.seating.services import (
    SeatingInputs,
    seating_generate,
    seating_publish,
    seating_reseat,
)
from mafiatab.standings.services import (
    standings_freeze,
    standings_set_hidden,
    standings_unfreeze,
)
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import (
    ScoringInputs,
    TournamentInfo,
    info_of,
    staff_assign,
    tournament_scoring_update,
    tournament_update,
)

from . import test_games_fixtures as fx
from .test_games_fixtures import complete_data

pytestmark = pytest.mark.django_db

PACKAGE = Path(__file__).resolve().parents[2] / "mafiatab"
PLAYERS = [f"P{n:02d}" for n in range(1, 21)]
two_tables = fx.two_tables


def written_action_codes() -> set[str]:
    """Every audit code the code base can write: `log_action("...")` literals, the codes
    the registrations and protocol services choose from, the seating drafts' codes."""
    codes: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'log_action\(\s*"([a-z_.]+)"', text))
        codes |= set(re.findall(r'"((?:registration|game\.protocol)\.[a-z_]+)"', text))
        for chosen in re.findall(r'log_action\(\s*"([a-z_.]+)" if [^\n]* else "([a-z_.]+)"', text):
            codes |= set(chosen)
        codes |= set(re.findall(r'action="((?:seating)\.[a-z_]+)"', text))
    protocols = (PACKAGE / "games/services/protocols.py").read_text(encoding="utf-8")
    if 'f"game.protocol.{action}"' in protocols:
        codes |= {f"game.protocol.{a}" for a in re.findall(r'action = "([a-z]+)"', protocols)}
        codes |= {
            f"game.protocol.{a}" for a in re.findall(r'action, status = "([a-z]+)"', protocols)
        }
    return codes


def _russian(text: Any) -> str:
    with translation.override("ru"):
        return str(text)


def _english(text: Any) -> str:
    with translation.override("en"):
        return str(text)


def test_every_audit_code_the_services_write_has_a_russian_name():
    codes = written_action_codes()
    assert {"tournament.updated", "standings.frozen", "game.protocol.saved"} <= codes
    missing = sorted(codes - set(AUDIT_ACTIONS))
    assert not missing, missing
    untranslated = sorted(
        code for code in codes if _russian(AUDIT_ACTIONS[code]) == _english(AUDIT_ACTIONS[code])
    )
    assert not untranslated, untranslated


def test_every_recorded_field_and_coded_value_has_a_russian_name():
    names = {**AUDIT_FIELDS, **{f"role {k}": v for k, v in ROLE_NAMES.items()}}
    names |= {f"team {k}": v for k, v in TEAM_NAMES.items()}
    for key, vocabulary in _vocabularies().items():
        names |= {f"{key} {code}": name for code, name in vocabulary.items()}
    untranslated = sorted(key for key, name in names.items() if _russian(name) == _english(name))
    assert not untranslated, untranslated


@pytest.fixture
def busy(tournament: Any, staff: dict[str, Any], make_user: Any, settings: Any) -> Any:
    """A tournament whose history holds nearly every kind of change."""
    settings.MAFIATAB_SEATING_ITERATIONS = 3_000
    organiser, chief = staff["organiser"], staff["chief"]
    staff_assign(tournament=tournament, user=organiser, role=StaffRole.CHIEF_JUDGE, by=organiser)
    info = info_of(tournament)
    changed = TournamentInfo(
        **(
            info.__dict__
            | {
                "ruleset": "fiim",
                "starts_on": dt.date(2026, 12, 5),
                "ends_on": dt.date(2026, 12, 6),
                "registration_open": True,
            }
        )
    )
    tournament = tournament_update(tournament=tournament, info=changed, by=organiser)
    online = TournamentInfo(**(changed.__dict__ | {"ruleset": "fiim-online"}))
    tournament = tournament_update(tournament=tournament, info=online, by=organiser)
    tournament_scoring_update(
        tournament=tournament,
        scoring=ScoringInputs(participants=20, games_before_final=4, lot_seed=7),
        by=organiser,
    )
    applicant = registration_apply(tournament=tournament, user=make_user("Applicant"))
    registration_approve(registration=applicant, by=organiser)
    rejected = registration_apply(tournament=tournament, user=make_user("Rejected"))
    registration_reject(registration=rejected, by=organiser, reason="дубль")
    registration_withdraw(registration=applicant, by=organiser, reason="болен")
    for name in PLAYERS[1:]:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    checkin_record(registration=tournament.registrations.get(nickname="P02"), day=1, by=organiser)
    checkin_open(tournament=tournament, day=1, by=organiser)
    checkin_open(tournament=tournament, day=None, by=organiser)
    draft = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="qualifying", games=4, tables=2, seed=3),
        by=organiser,
    )
    seating_publish(draft=draft, judges={}, by=organiser)
    replacement_record(
        tournament=tournament,
        absent=tournament.registrations.get(nickname="P03"),
        reserve_nickname="Граф",
        new_player=True,
        round=1,
        minutes_late=20,
        by=organiser,
    )
    seating_reseat(tournament=tournament, by=organiser, at_least=1)
    extra = [f"X{n:02d}" for n in range(1, 11)]
    for name in extra:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    last = Round.objects.get(tournament=tournament, number=4)
    table_add(round=last, plan=TablePlan(number=3, judge=None, players=tuple(extra)), by=organiser)
    games = [t.game for t in Round.objects.get(tournament=tournament, number=1).tables.all()]
    first, second = sorted(games, key=lambda g: "Seated" not in [s.player for s in g.seats.all()])
    protocol_save(
        game=first, data=complete_data(first), by=organiser, base_version=first.version, submit=True
    )
    protocol_return(game=first, by=organiser, reason="исправьте фолы")
    first.refresh_from_db()
    protocol_save(
        game=first, data=complete_data(first), by=organiser, base_version=first.version, submit=1
    )
    protocol_confirm(game=first, by=organiser)
    protest = protest_file(game=first, by=staff["player"], text="неверный победитель")
    protest_decide(protest=protest, by=organiser, upheld=False, decision="победитель верен")
    game_mark_replayed(game=first, by=organiser, replay=None, reason="сбой платформы")
    log_start(game=second, roles={"sheriff": 3, "don": 7, "black": [5, 9]}, by=organiser)
    penalty = penalty_give(
        tournament=tournament, player="P05", kind="lobby_fine", reason="оскорбления", by=chief
    )
    penalty_cancel(penalty=penalty, by=chief, reason="ошибка")
    standings_set_hidden(tournament=tournament, hidden=True, by=organiser)
    standings_set_hidden(tournament=tournament, hidden=False, by=organiser)
    standings_freeze(tournament=tournament, by=organiser)
    standings_unfreeze(tournament=tournament, by=organiser)
    broadcast_send(
        tournament=tournament,
        audience=Audience(TABLE, table_id=first.table_slot.pk),
        text="Обед в 14:00",
        by=organiser,
    )
    limited = TournamentInfo(**(online.__dict__ | {"participant_limit": 32, "language": "ru"}))
    tournament = tournament_update(tournament=tournament, info=limited, by=organiser)
    wider = TournamentInfo(**(limited.__dict__ | {"participant_limit": 40}))
    tournament = tournament_update(tournament=tournament, info=wider, by=organiser)
    return tournament


def _visible_text(page: str) -> str:
    main = page.split("<main", 1)[-1].split(">", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", main))


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z_.\-]*", text))


def test_a_russian_history_shows_no_code_english_field_name_or_raw_value(client, busy, staff):
    recorded = set(AuditEntry.objects.filter(tournament=busy).values_list("action", flat=True))
    assert len(recorded) >= 30, sorted(recorded)
    client.force_login(staff["organiser"])
    url = reverse("tournaments:history", args=[busy.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    text = _visible_text(page)
    for code in recorded:
        assert code not in text, code
        assert _russian(AUDIT_ACTIONS[code]) in text, code
    words = _words(text)
    names = {"P", "Applicant", "Rejected", "Chief", "TableJudge", "Seated", "Organiser"}
    names |= {"Spring", "Cup", "SWIPEAL", "Q1-T1", "Q1-T2", "Q2-T1", "Q2-T2", "mafiatab", "API"}
    english = {w for w in words if not re.fullmatch(r"[PX]\d\d|Q\d-T\d|[A-Z]", w)} - names
    assert not english, sorted(english)
    assert "2026-12-05" not in text and "05.12.2026" in text


def test_the_history_names_a_kept_console_place_without_its_inner_keys():
    from types import SimpleNamespace

    from mafiatab.front.audit_display import history_rows

    entry = SimpleNamespace(
        action="game.console.place",
        target="Q1-T1",
        before={},
        after={"day": 1, "speech": 2, "timer": {"running": True, "total": 60}},
    )
    (row,) = history_rows([entry])
    assert row.before == [] and row.after == []


def test_the_history_names_the_time_zone_as_the_edit_page_does(client, make_tournament, staff):
    """The tournament's creation (and any change of its zone) names the zone in the
    reader's language with its offset, as the edit page offers it, not its IANA code."""
    from mafiatab.tournaments.zones import utc_offset

    tournament = make_tournament(name="Кубок", time_zone="Europe/Moscow")
    client.force_login(staff["organiser"])
    url = reverse("tournaments:history", args=[tournament.slug])
    offset = utc_offset("Europe/Moscow")
    for language, label in (("ru", "Москва, Санкт-Петербург"), ("en", "Moscow, Saint Petersburg")):
        text = _visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert f"{label} ({offset})" in text, language
        assert "Europe/Moscow" not in text, language


def _history_rows(page: str, label: str) -> list[str]:
    """The visible text of each history row whose change is called `label`."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = [html.unescape(re.sub(r"<[^>]+>", " ", row)) for row in body.split("<tr>")[1:]]
    return [" ".join(row.split()) for row in rows if label in row]


def test_a_russian_history_says_each_value_in_words_and_an_edit_by_its_changes(client, busy, staff):
    client.force_login(staff["organiser"])
    url = reverse("tournaments:history", args=[busy.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    game = busy.games.get(protests__isnull=False)
    table = game.table_slot

    (sent,) = _history_rows(page, _russian(AUDIT_ACTIONS["tournament.broadcast"]))
    assert f"отборочный тур, тур {table.round.number}, стол {table.number}" in sent, sent
    assert "получателей" in sent and "Обед в 14:00" in sent, sent
    assert "настройки стола" not in sent and "срок замены" not in sent, sent
    assert _words(sent) <= {"Organiser"}, sent  # the one who sent it

    edits = _history_rows(page, _russian(AUDIT_ACTIONS["tournament.updated"]))
    widened = edits[0]  # the latest first
    assert "лимит участников 32" in widened and "лимит участников 40" in widened, widened
    assert "название" not in widened and "язык трансляции" not in widened, widened
    assert any("язык трансляции русский" in edit for edit in edits), edits
    assert all("язык трансляции ru" not in edit for edit in edits), edits

    (seat,) = _history_rows(page, _russian(AUDIT_ACTIONS["game.seat.replaced"]))
    assert "отборочный тур, тур 1, стол" in seat, seat

    penalties = _history_rows(page, _russian(AUDIT_ACTIONS["penalty.cancelled"]))
    penalties += _history_rows(page, _russian(AUDIT_ACTIONS["penalty.given"]))
    assert len(penalties) == 2 and all("баллы -0.50 " in row + " " for row in penalties)
    assert not any(re.search(r"-0\.5(?!0 )", row + " ") for row in penalties), penalties


def test_a_russian_protocol_history_says_a_status_once_and_a_date_as_the_pages_do(
    client, busy, staff
):
    client.force_login(staff["organiser"])
    game = busy.games.get(protests__isnull=False)
    url = reverse("games:history", args=[busy.slug, game.pk])
    text = " ".join(
        _visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()).split()
    )
    assert "утверждён · утверждён" not in text
    assert re.search(r"Версия \d+ · утверждён", text), text
    assert "2026-03-01" not in text and "01.03.2026" in text


def test_the_history_names_each_audience_of_a_broadcast_in_words():
    from types import SimpleNamespace

    from mafiatab.front.audit_display import history_rows

    def sent(**audience: Any) -> Any:
        after = {"stage": "", "table": None} | audience | {"text": "x", "recipients": 3}
        return SimpleNamespace(
            action="tournament.broadcast", target=audience["scope"], before={}, after=after
        )

    entries = [sent(scope="all"), sent(scope="stage", stage="final"), sent(scope="table", table=7)]
    with translation.override("ru"):
        rows = history_rows(entries)
        assert [row.target for row in rows] == [
            "все игроки турнира",
            "игроки этапа: финал",
            "стол, которого больше нет в турнире",
        ]
        assert all(row.after == [("текст", "x"), ("получателей", "3")] for row in rows)


@pytest.fixture
def moscow_round(two_tables: dict[str, Any]) -> dict[str, Any]:
    """Round 1 of a tournament held in Moscow, scheduled at 14:00 there with a link, a
    lateness fine and a lobby fine given, and the standings frozen."""
    from mafiatab.games.services import RoundSchedule, lateness_give, round_schedule_set

    tournament = two_tables["round"].tournament
    tournament.time_zone = "Europe/Moscow"
    tournament.ruleset = "fiim-online"
    tournament.save(update_fields=["time_zone", "ruleset"])
    start = dt.datetime(2026, 12, 10, 11, 0, tzinfo=dt.UTC)
    round_schedule_set(
        round=two_tables["round"],
        schedule=RoundSchedule(starts_at=start, link="https://meet.example.org/q1"),
        by=two_tables["organiser"],
    )
    lateness_give(
        round=two_tables["round"],
        player="Bravo3",
        arrived_at=start + dt.timedelta(minutes=20),
        reason="опоздал",
        by=two_tables["chief"],
    )
    penalty_give(
        tournament=tournament,
        player="Bravo4",
        kind="lobby_fine",
        reason="лобби",
        by=two_tables["chief"],
    )
    standings_freeze(tournament=tournament, by=two_tables["organiser"])
    return two_tables | {"tournament": tournament}


def _russian_history(client: Any, people: dict[str, Any]) -> str:
    client.force_login(people["organiser"])
    url = reverse("tournaments:history", args=[people["tournament"].slug])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_a_rounds_schedule_is_said_in_words_and_in_the_tournaments_zone(client, moscow_round):
    page = _russian_history(client, moscow_round)
    (scheduled,) = _history_rows(page, _russian(AUDIT_ACTIONS["round.scheduled"]))
    assert "отборочный тур, тур 1" in scheduled, scheduled
    assert "начало 10.12.2026 14:00" in scheduled, scheduled
    assert "ссылка https://meet.example.org/q1" in scheduled, scheduled
    assert "starts at" not in scheduled and "link" not in scheduled, scheduled
    assert "T11:00" not in scheduled and "+00:00" not in scheduled, scheduled
    assert "qualifying" not in scheduled, scheduled


def test_a_freeze_says_the_standings_are_frozen_not_an_inner_version(client, moscow_round):
    page = _russian_history(client, moscow_round)
    (frozen,) = _history_rows(page, _russian(AUDIT_ACTIONS["standings.frozen"]))
    assert "таблица заморожена нет" in frozen and "таблица заморожена да" in frozen, frozen
    assert "версия" not in frozen, frozen
    version = moscow_round["tournament"].standings_frozen_version
    assert not re.search(rf"\b{version}\b", frozen.split("Турнирная таблица заморожена")[1])


def test_a_lateness_entry_carries_its_minutes_and_round_and_a_lobby_fine_none(client, moscow_round):
    page = _russian_history(client, moscow_round)
    given = _history_rows(page, _russian(AUDIT_ACTIONS["penalty.given"]))
    (late,) = [row for row in given if "Bravo3" in row]
    assert "опоздание, минут 20" in late and "тур 1" in late, late
    (lobby,) = [row for row in given if "Bravo4" in row]
    assert "опоздание, минут" not in lobby and "тур —" not in lobby, lobby
