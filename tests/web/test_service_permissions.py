"""Every service checks its own permission: the view's check is not enough.

The services modules are introspected, so a new service is swept without touching
this file: every public function taking `by` is called directly by a signed-in
person holding no role in the tournament, and must refuse (PermissionDenied) with
nothing written. A new function without `by` must be classified below.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

import mafiatab
from mafiatab.announcements.services import ALL, Audience
from mafiatab.games.models import Game, GameStatus, Protest
from mafiatab.tournaments.models import StaffRole

pytestmark = pytest.mark.django_db

#: Services without `by`: what a person does for himself (checked against that person),
#: and readers or helpers that write nothing a person decides.
SELF_SERVICE = {
    "account_create",
    "profile_update",
    "token_create",
    "registration_apply",
    "inbox_mark_read",
    "preferences_update",
    "email_kind_off",  # the signed link of his own e-mail is the proof
}
NOT_WRITES = {
    "check_nickname",
    "nickname_refusal",
    "is_judge_of",
    "judge_seat_refusal",
    "judges_seated",
    "is_last_of_role",
    "chosen_slug",
    "protocol_pdf_keep",  # keeps the rendering of an official document, decides nothing
    "kept_pdf_replace",  # the same for a seating sheet
    "header_for",
    "live_events",
    "table_settings_of",
    "live_state",
    "viewer_token",
    "is_reseat",
    "not_checked_in",
    "played_rounds",
    "token_digest",
    "token_user",
    "points_of",
    "givable_kinds",
    "has_free_place",
    "is_full",
    "club_groups",
    "default_tables",
    "next_seed",
    "participants",
    "is_advanced_into",
    "planned_stage_without_list",
    "published_draft",
    "frozen_snapshot",
    "inputs_key",
    "player_explanation",
    "public_state",
    "shown_token",
    "stamp",
    "standings_snapshot",
    "tournament_standings",
    "viewer_standings",
    "check_info",
    "check_scoring",
    "draw_lot_seed",
    "info_of",
    "scoring_of",
    "storable_problems",
    "dates_of",
    "unique_slug",
    # messages written by the services above after their own check, and their outbox
    "notify",
    "notify_each",
    "messages_rezone",  # their time zone, kept in step with their tournament's
    "outbox_drain",
    "outbox_drain_all",
    "language_remember",
    "unread_count",
    "preferences_of",
    "unsubscribe_token",
    "unsubscribe_read",
    "backoff",
    "site_url",
    "recipients_of",
    "seating_announce",
    "protocol_submitted",
    "protocol_resubmitted",
    "protocol_returned",
    "protocol_confirmed",
    "protest_filed",
    "protest_decided",
    "table_added",
    "table_judge_changed",
    # the online table's readers
    "is_ready",
    "is_side_judge",
    "online_seats",
    "ready_rows",
    "removal_fine",
    "reports_of",
    "reseat_announce",
    "check_schedule",
    "round_minutes_late",
    "schedule_of",
}
#: The audit log's own writer: every service calls it after its check.
RECORDER = {"audit_record"}
#: Any signed-in person may do these (they are refused to an anonymous caller).
ANY_PERSON = {"tournament_create", "tournament_import", "ensure_person"}


def _modules_of(module: Any) -> list[Any]:
    """A services module, or every module of a services package."""
    if not hasattr(module, "__path__"):
        return [module]
    prefix = f"{module.__name__}."
    return [module] + [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(module.__path__, prefix)
    ]


def services() -> list[tuple[str, Any]]:
    found = []
    for module_info in pkgutil.iter_modules(mafiatab.__path__):
        if not module_info.ispkg:
            continue
        try:
            package = importlib.import_module(f"mafiatab.{module_info.name}.services")
        except ModuleNotFoundError:
            continue
        for module in _modules_of(package):
            for name, function in inspect.getmembers(module, inspect.isfunction):
                if function.__module__ == module.__name__ and not name.startswith("_"):
                    found.append((name, function))
    return found


def _rows() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in apps.get_models()}


@pytest.fixture
def world(tournament, staff, make_user):
    """A tournament with a draft game, a protest, a penalty, a seating draft and a token."""
    from mafiatab.api.services import token_create
    from mafiatab.console.models import GameLog, ViolationReport
    from mafiatab.core.demo import demo_tournament
    from mafiatab.games.services import RoundSchedule, TablePlan, round_create
    from mafiatab.penalties.services import penalty_give
    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.models import SeatingDraft
    from mafiatab.seating.services import SeatingInputs
    from mafiatab.tournaments.services import ScoringInputs, TournamentInfo

    organiser, chief = staff["organiser"], staff["chief"]
    nicks = ["Seated", *(f"P{n}" for n in range(2, 11))]
    for nick in nicks[1:]:
        registration_add(tournament=tournament, nickname=nick, by=organiser)
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=1,
        tables=[TablePlan(number=1, judge=staff["judge"], players=tuple(nicks))],
        by=chief,
    )
    game = round_.tables.get().game
    penalty = penalty_give(
        tournament=tournament, player="P2", kind="lobby_fine", reason="r", by=chief
    )
    protest = Protest.objects.create(
        game=game, filed_by=staff["player"], seat=1, text="t", filed_at=timezone.now()
    )
    draft = SeatingDraft.objects.create(
        tournament=tournament,
        stage="qualifying",
        games_per_player=1,
        tables=1,
        seed=1,
        options={},
        schedule={"rounds": []},
        metrics={},
    )
    token = token_create(user=organiser, name="mine")[0]
    registration = tournament.registrations.get(nickname="P2")
    log = GameLog.objects.create(game=game, header={}, started_by=staff["judge"])
    report = ViolationReport.objects.create(
        log=log, seat=3, reason="a second screen", reported_by=staff["judge"]
    )
    return {
        "log": log,
        "event": {},
        "client_id": uuid.uuid4(),
        "after": None,
        "roles": {},
        "place": {},
        "tournament": tournament,
        "game": game,
        "protest": protest,
        "penalty": penalty,
        "draft": draft,
        "token": token,
        "registration": registration,
        "registration_ids": [registration.pk],
        "member": tournament.staff_members.get(user=staff["judge"]),
        "absent": registration,
        "round": round_,
        "table": round_.tables.get(),
        "players": tuple(nicks),
        "round_number": 1,
        "reserve": registration,
        "user": staff["outsider"],
        "info": TournamentInfo(name="Intruder Cup", ruleset="fiim"),
        "scoring": ScoringInputs(participants=None, games_before_final=None, lot_seed=7),
        "stages": [{"stage": "qualifying", "games": 1}],
        "inputs": SeatingInputs(stage="qualifying", games=1),
        "plan": TablePlan(number=2, judge=None, players=tuple(nicks)),
        "core": demo_tournament(),
        "tables": [],
        "judges": {},
        "stage": "qualifying",
        "number": 5,
        "data": {},
        "reason": "because",
        "text": "a protest",
        "decision": "decided",
        "upheld": True,
        "player": "P2",
        "kind": "lobby_fine",
        "nickname": "Newcomer",
        "reserve_nickname": "Reserve",
        "day": 1,
        "minutes_late": 10,
        "arrived_at": timezone.now(),
        "schedule": RoundSchedule(place="Hall B"),
        "hidden": True,
        "role": StaffRole.CHIEF_JUDGE,
        "replay": None,
        "base_version": None,
        "audience": Audience(ALL),
        "judge": staff["judge"],
        "seat": 3,
        "checks": {},
        "report": report,
        "accept": True,
    }


def _arguments(function, world, by) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name == "by":
            arguments[name] = by
        elif name == "round" and "Round" not in str(parameter.annotation):
            arguments[name] = 1
        elif name in world:
            arguments[name] = world[name]
        elif parameter.default is inspect.Parameter.empty:
            raise AssertionError(f"give the sweep a value for {name!r} of {function.__name__}")
    return arguments


def test_every_service_function_is_classified():
    unclassified = [
        name
        for name, function in services()
        if "by" not in inspect.signature(function).parameters
        and name not in SELF_SERVICE | NOT_WRITES
    ]
    assert not unclassified, "a new service without `by`: classify it in this test"


def test_every_service_refuses_a_person_without_the_right(world, staff):
    swept = []
    for name, function in services():
        if "by" not in inspect.signature(function).parameters or name in RECORDER:
            continue
        by = AnonymousUser() if name in ANY_PERSON else staff["outsider"]
        before = _rows()
        with pytest.raises(PermissionDenied):
            function(**_arguments(function, world, by))
        assert _rows() == before, name
        swept.append(name)
    assert len(swept) >= 25
    assert {"penalty_give", "registration_approve", "seating_publish", "round_create"} <= set(swept)


def test_a_service_refuses_the_console_unless_it_says_so(world):
    """`by=None` (a command) is allowed by the import and by staff assignment only."""
    from mafiatab.penalties.services import penalty_give
    from mafiatab.registrations.services import registration_approve

    with pytest.raises(PermissionDenied):
        penalty_give(
            tournament=world["tournament"], player="P2", kind="lobby_fine", reason="r", by=None
        )
    with pytest.raises(PermissionDenied):
        registration_approve(registration=world["registration"], by=None)


def test_self_services_refuse_an_anonymous_caller(tournament):
    from mafiatab.registrations.services import registration_apply

    tournament.registration_open = True
    tournament.save()
    with pytest.raises(PermissionDenied):
        registration_apply(tournament=tournament, user=AnonymousUser())


def test_only_its_owner_revokes_a_token(world, staff):
    from mafiatab.api.services import token_revoke

    with pytest.raises(PermissionDenied):
        token_revoke(token=world["token"], by=staff["chief"])
    token_revoke(token=world["token"], by=staff["organiser"])


# --- the chief judge's approval (8.4.3) --------------------------------------------------


def _protocol_with_extra(game, *, approved: bool) -> dict[str, Any]:
    from mafiatab.games.conversion import game_data

    data = game_data(game)
    data["judge_extra"] = [
        {"seat": 2, "points": 0.6, "reason": "r", "chief_approved": approved},
    ]
    return data


def test_a_table_judge_cannot_approve_extra_points_through_the_service(world, staff):
    from mafiatab.games.services import protocol_save

    game = world["game"]
    with pytest.raises(ValidationError) as refused:
        protocol_save(
            game=game,
            data=_protocol_with_extra(game, approved=True),
            by=staff["judge"],
            base_version=game.version,
        )
    assert "judge_extra" in refused.value.message_dict
    game.refresh_from_db()
    assert not game.extras.filter(chief_approved=True).exists()
    protocol_save(
        game=game,
        data=_protocol_with_extra(game, approved=True),
        by=staff["chief"],
        base_version=game.version,
    )
    game.refresh_from_db()
    assert game.extras.filter(chief_approved=True, points=Decimal("0.6")).exists()
    # The table judge may save again, keeping the chief's approval.
    protocol_save(
        game=game,
        data=_protocol_with_extra(game, approved=True),
        by=staff["judge"],
        base_version=game.version,
    )


def test_a_table_judge_cannot_approve_extra_points_through_the_api(client, world, staff):
    from mafiatab.api.services import token_create

    game = world["game"]
    token = token_create(user=staff["judge"], name="judge")[1]
    protocol = {
        "seats": [
            {"player": s["player"]} for s in _protocol_with_extra(game, approved=True)["seats"]
        ],
        "judge_extra": [{"seat": 2, "points": 0.6, "chief_approved": True}],
    }
    response = client.put(
        f"/api/tournaments/{world['tournament'].slug}/games/{game.pk}/protocol",
        {"protocol": protocol, "base_version": game.version},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 422
    assert "judge_extra" in response.json()["errors"]
    assert Game.objects.get(pk=game.pk).status == GameStatus.DRAFT
    assert not Game.objects.get(pk=game.pk).extras.exists()


# --- Django's admin ------------------------------------------------------------------------


def test_an_admin_cannot_edit_a_penalty(client, world, make_user):
    admin = make_user("Root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    penalty = world["penalty"]
    url = f"/admin/penalties/penalty/{penalty.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200  # it can be seen
    client.post(
        url,
        {"player": penalty.player, "kind": "other", "points": "5", "reason": "edited"},
    )
    penalty.refresh_from_db()
    assert penalty.points == Decimal("-0.5")
    assert penalty.reason == "r"
    for model in ("tournaments/tournament", "registrations/registration", "penalties/penalty"):
        assert client.get(f"/admin/{model}/add/").status_code == 403


def test_import_names_the_organiser_of_the_imported_tournament(tmp_path, capsys, make_user):
    from mafiatab.cli import main
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.tournament_file import dumps_tournament
    from mafiatab.tournaments.models import Tournament
    from mafiatab.tournaments.permissions import user_can

    path = tmp_path / "cup.json"
    path.write_text(dumps_tournament(demo_tournament()))
    assert main(["import", str(path), "--organiser", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err
    assert not Tournament.objects.exists()
    boss = make_user("Boss")
    assert main(["import", str(path), "--organiser", "boss"]) == 0
    assert user_can(boss, Tournament.objects.get(), "manage_staff")


def test_the_approval_refusal_is_said_in_russian(world, staff):
    from django.utils import translation

    from mafiatab.games.services import protocol_save

    game = world["game"]
    with translation.override("ru"), pytest.raises(ValidationError) as refused:
        protocol_save(
            game=game,
            data=_protocol_with_extra(game, approved=True),
            by=staff["judge"],
            base_version=game.version,
        )
    assert "главный судья" in refused.value.message_dict["judge_extra"][0]
