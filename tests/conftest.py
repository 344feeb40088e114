"""Shared fixtures. Database fixtures are only set up by the tests that ask for them,
so the core tests run without a database."""

from __future__ import annotations

import email
import email.policy
import itertools
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Any:
    """A request in Russian leaves Russian active in the test's thread: every test starts
    in the site's default language, whatever ran before it."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _each_test_has_the_heavy_exports_slots() -> Any:
    """Django's test client closes a streamed answer (the archive) only when a test reads
    it to its end; the server always does. Each test starts with every slot free."""
    from django.apps import apps
    from django.conf import settings

    from mafiatab.security.heavy import HeavyExports

    config: Any = apps.get_app_config("security")
    config.heavy_exports = HeavyExports(settings.MAFIATAB_HEAVY_EXPORTS)
    yield


@pytest.fixture
def fast_passwords(settings: Any) -> None:
    """A fast password hasher: accounts are created by the dozen in these tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db: None, fast_passwords: None) -> Any:
    """Create an account: `make_user("Nick")` (login `nick`, password `secret-pass-1`)."""
    from mafiatab.accounts.models import User

    def make(nickname: str | None = None, **fields: Any) -> User:
        nickname = nickname or f"Player{next(_numbers)}"
        username = fields.pop("username", None) or nickname.lower().replace(" ", "_")
        return User.objects.create_user(
            username=username, password="secret-pass-1", nickname=nickname, **fields
        )

    return make


@pytest.fixture
def organiser(make_user: Any) -> Any:
    return make_user("Organiser")


@pytest.fixture
def make_tournament(organiser: Any) -> Any:
    """Create a tournament organised by `organiser`; keyword arguments go to TournamentInfo."""
    from mafiatab.tournaments.services import TournamentInfo, tournament_create

    def make(**fields: Any) -> Any:
        info = TournamentInfo(
            **({"name": "Spring Cup", "ruleset": "fiim-online", "platform": "SWIPEAL"} | fields)
        )
        return tournament_create(info=info, by=organiser)

    return make


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament()


@pytest.fixture
def staff(tournament: Any, organiser: Any, make_user: Any) -> dict[str, Any]:
    """The tournament's people: organiser, chief judge, table judge, a player, an outsider."""
    from mafiatab.registrations.services import registration_add
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign, staff_remove

    chief = make_user("Chief")
    judge = make_user("TableJudge")
    player = make_user("Seated")
    outsider = make_user("Outsider")
    staff_assign(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE, by=organiser)
    # the organiser created the tournament as its chief judge: he hands the role over
    staff_remove(
        member=tournament.staff_members.get(user=organiser, role=StaffRole.CHIEF_JUDGE),
        by=organiser,
    )
    staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    registration_add(tournament=tournament, nickname="", user=player, by=organiser)
    return {
        "organiser": organiser,
        "chief": chief,
        "judge": judge,
        "player": player,
        "outsider": outsider,
    }


@pytest.fixture
def demo_file_text() -> str:
    """The demo tournament as its canonical file text."""
    from mafiatab.core.demo import demo_tournament
    from mafiatab.core.tournament_file import dumps_tournament

    return dumps_tournament(demo_tournament())


@pytest.fixture
def demo_imported(db: None, demo_file_text: str) -> Any:
    """The demo tournament stored in the database (imported from the command line)."""
    from mafiatab.core.tournament_file import loads_tournament
    from mafiatab.standings.services.tournament_file import tournament_import

    return tournament_import(core=loads_tournament(demo_file_text), by=None)


class SmtpInbox:
    """An SMTP handler keeping every message it is given."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(message)
        return "250 Message accepted"

    @staticmethod
    def text(message: Any) -> str:
        """The plain-text body of a received message."""
        part = message.get_body(preferencelist=("plain",))
        assert part is not None
        return str(part.get_content())


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[SmtpInbox]:
    """A real SMTP server (aiosmtpd) on a free loopback port; the site's mail settings
    point at it as MAFIATAB_EMAIL_URL=smtp://127.0.0.1:PORT would."""
    from aiosmtpd.controller import Controller

    from mafiatab.settings import email_settings

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    inbox = SmtpInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    for name, value in email_settings(f"smtp://127.0.0.1:{port}").items():
        setattr(settings, name, value)
    settings.EMAIL_CONFIGURED = True
    try:
        yield inbox
    finally:
        controller.stop()
