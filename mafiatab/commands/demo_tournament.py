"""The demo: the core's demo tournament with accounts for everyone who runs or plays it,
and one table being played on the judge console.

It writes through every app's services (the import, the advance list, the final's
round, the console), so it stands on the top floor, beside the `demo` command that
loads it once Django is set up."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction

from mafiatab.accounts.models import User
from mafiatab.console.services import event_append, log_start
from mafiatab.core.demo import TABLE_IN_PLAY, demo_tournament
from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.games.models import Table
from mafiatab.games.services import TablePlan, round_create
from mafiatab.standings.advancing import advance_publish
from mafiatab.standings.services.tournament_file import dates_of, tournament_import
from mafiatab.tournaments.models import StaffMember, StaffRole, Tournament
from mafiatab.tournaments.services import TournamentInfo, tournament_stages_update
from mafiatab.tournaments.stages import plan_of

#: The password of every demo account.
DEMO_PASSWORD = "mafiatab-demo"
ORGANISER_NICKNAME = "Игорь Белов"
#: The demo's stage plan: its ten qualifying rounds, then a final of ten games at one
#: table, the points carried over (the final is under way).
DEMO_STAGES = [
    {"stage": "qualifying", "games": 10},
    {"stage": "final", "players": 10, "games": 10, "points": "carry"},
]


#: The roles shown next to each kind of demo account.
ORGANISER_ROLE = "organiser, chief judge"
JUDGE_ROLE = "table judge"
PLAYER_ROLE = "player"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    nickname: str
    role: str


def _demo_role(username: str) -> str | None:
    """The role of a demo account by its login (None for any other account)."""
    if username == "organiser":
        return ORGANISER_ROLE
    for prefix, role in (("judge", JUDGE_ROLE), ("player", PLAYER_ROLE)):
        number = username.removeprefix(prefix)
        if number != username and number.isdigit():
            return role
    return None


def demo_logins() -> list[DemoLogin]:
    """The demo accounts that still exist and still open with the demo password.

    The demo gives every account one shared password hash, so each distinct hash
    is checked once and a changed password drops its account from the list.
    """
    order = {ORGANISER_ROLE: 0, JUDGE_ROLE: 1, PLAYER_ROLE: 2}
    found: list[tuple[int, int, str, DemoLogin]] = []
    opens: dict[str, bool] = {}
    users = User.objects.filter(is_active=True).filter(
        username__regex=r"^(organiser|judge[0-9]+|player[0-9]+)$"
    )
    for user in users.only("username", "nickname", "password"):
        role = _demo_role(user.username)
        if role is None:
            continue
        if user.password not in opens:
            opens[user.password] = check_password(DEMO_PASSWORD, user.password)
        if opens[user.password]:
            login = DemoLogin(user.username, user.nickname, role)
            found.append((order[role], len(user.username), user.username, login))
    return [item[-1] for item in sorted(found, key=lambda item: item[:3])]


def _account(username: str, nickname: str, password_hash: str, *, city: str = "") -> User:
    return User.objects.create(
        username=username, nickname=nickname, city=city, password=password_hash
    )


@transaction.atomic
def demo_load() -> tuple[Tournament, list[DemoLogin]]:
    """Create the demo accounts and the demo tournament (on an empty database)."""
    core = demo_tournament()
    password_hash = make_password(DEMO_PASSWORD)  # hashed once: the accounts share it
    logins: list[DemoLogin] = []
    organiser = _account("organiser", ORGANISER_NICKNAME, password_hash, city="Москва")
    logins.append(DemoLogin("organiser", ORGANISER_NICKNAME, ORGANISER_ROLE))
    judges: list[User] = []
    # every judge the protocols name is a table judge of the tournament, with an account
    judge_names = list(dict.fromkeys(g.judge for g in core.games if g.judge))
    for number, name in enumerate(judge_names, start=1):
        judges.append(_account(f"judge{number}", name, password_hash))
        logins.append(DemoLogin(f"judge{number}", name, JUDGE_ROLE))
    players: dict[str, User] = {}
    for number, name in enumerate(core.player_names(), start=1):
        username = f"player{number:02d}"
        players[name] = _account(username, name, password_hash)
        logins.append(DemoLogin(username, name, PLAYER_ROLE))
    starts_on, ends_on = dates_of(core)
    info = TournamentInfo(
        name=core.name,
        ruleset=core.ruleset,
        starts_on=starts_on,
        ends_on=ends_on,
        platform="SWIPEAL",
        stars=2,
        participant_limit=len(core.player_names()),
        registration_open=True,
    )
    tournament = tournament_import(core=core, by=organiser, info=info)
    for registration in tournament.registrations.filter(nickname__in=players, user=None):
        # each player signs in to his own registration: his seats, his games, his protests
        registration.user = players[registration.nickname]
        registration.save(update_fields=["user"])
    StaffMember.objects.create(tournament=tournament, user=organiser, role=StaffRole.CHIEF_JUDGE)
    for judge in judges:
        StaffMember.objects.create(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE)
        # the tables whose protocols he signed are his: his "My tables" lists them
        Table.objects.filter(
            round__tournament=tournament, game__judge=judge.nickname, judge=None
        ).update(judge=judge)
    tournament.log_action(
        "staff.assigned",
        by=organiser,
        target=tournament.name,
        after={"chief_judge": organiser.nickname, "table_judges": [j.nickname for j in judges]},
    )
    if core.stages is None:
        tournament = tournament_stages_update(
            tournament=tournament, stages=DEMO_STAGES, by=organiser
        )
    # the qualifying stage is over: its advance list is published, the final under way
    advance_publish(tournament=tournament, into="final", by=organiser)
    _table_in_play(tournament=tournament, core=core, organiser=organiser, judge=judges[0])
    return tournament, logins


def _table_in_play(
    *, tournament: Tournament, core: CoreTournament, organiser: User, judge: User
) -> None:
    """The round of `TABLE_IN_PLAY` with its one table, judged by `judge`, whose game he
    started on the console and has logged so far, and the stage's rounds after it,
    seated by the same Williams square: made as the organiser and the judge make them
    on their pages."""
    live = TABLE_IN_PLAY
    plan = TablePlan(number=1, judge=judge, players=live.seats(core))
    round_ = round_create(
        tournament=tournament,
        stage=live.stage.value,
        number=live.round,
        tables=[plan],
        by=organiser,
    )
    log = log_start(game=round_.tables.get().game, roles=live.roles, by=judge)
    for event in live.events:
        event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    # the final's games still to play, seated by the same Williams square
    plan = plan_of(tournament)
    spec = plan.spec(live.stage) if plan is not None else None
    for number in range(live.round + 1, (spec.games if spec is not None else live.round) + 1):
        round_create(
            tournament=tournament,
            stage=live.stage.value,
            number=number,
            tables=[TablePlan(number=1, judge=judge, players=live.seats(core, number))],
            by=organiser,
        )
