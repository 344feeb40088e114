"""Property-based test of the whole API against its own OpenAPI document (schemathesis).

Every operation is called with generated input, anonymously, as a player and as
the tournament's staff, on the demo tournament, so that reads answer with real
data and writes are really attempted. Whatever the input, the API never fails
with a server error, answers only with status codes its document declares, and
every answer (errors included) matches the declared schema and content type.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from mafiatab.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@pytest.fixture(autouse=True)
def _one_connection_for_the_test():
    """Calls go straight to the WSGI application, not through Django's test client:
    keep the database connection of the test's transaction open between requests,
    as the test client does (PostgreSQL would otherwise lose the test data)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(demo_imported, make_user):
    """The demo tournament with its staff, one application and a token for each person."""
    from mafiatab.api.services import token_create
    from mafiatab.registrations.services import registration_apply
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    boss = make_user("Boss")
    for role in StaffRole.values:
        staff_assign(tournament=demo_imported, user=boss, role=role, by=boss)
    demo_imported.registration_open = True
    demo_imported.save()
    player = make_user("Applicant")
    application = registration_apply(tournament=demo_imported, user=player)
    tokens = {
        "anonymous": None,
        "player": token_create(user=player, name="fuzz")[1],
        "staff": token_create(user=boss, name="fuzz")[1],
    }
    staff_token = boss.api_tokens.get()
    return {
        "slug": demo_imported.slug,
        "player": demo_imported.registrations.order_by("nickname").first().nickname,
        "registration_id": application.pk,
        "token_id": staff_token.pk,
        "tokens": tokens,
    }


@schema.parametrize()
@schema.given(who=st.sampled_from(["anonymous", "player", "staff"]), real=st.booleans())
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_keeps_to_its_document(case, world, who, real):
    if real:
        # Aim at the stored data instead of the random identifiers.
        for name in ("slug", "registration_id", "token_id"):
            if name in (case.path_parameters or {}):
                case.path_parameters[name] = world[name]
        if isinstance(case.body, dict) and "player" in case.body:
            case.body["player"] = world["player"]
    token = world["tokens"][who]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    case.call_and_validate(headers=headers, checks=CHECKS)
