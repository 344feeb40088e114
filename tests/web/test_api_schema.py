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


def _body_models():
    """(operation, the schema class its body is read with) for every operation with a body."""
    import types
    import typing

    from mafiatab.api import api

    for _prefix, router in api._routers:
        for path, path_view in router.path_operations.items():
            for operation in path_view.operations:
                for model in operation.models:
                    if model.__ninja_param_source__ != "body":
                        continue
                    for field in model.model_fields.values():
                        annotation = field.annotation
                        if (
                            isinstance(annotation, types.UnionType)
                            or typing.get_origin(annotation) is typing.Union
                        ):
                            annotation = next(
                                a for a in typing.get_args(annotation) if a is not type(None)
                            )
                        yield f"{operation.methods[0]} {path}", annotation


def _shape(node):
    """A schema without its words and defaults: what it accepts."""
    if isinstance(node, dict):
        return {
            key: _shape(value)
            for key, value in node.items()
            if key not in ("title", "description", "default")
        }
    if isinstance(node, list):
        return [_shape(value) for value in node]
    return node


def test_every_documented_body_is_the_one_the_operation_reads():
    """The OpenAPI document shows, for every body and every schema it refers to,
    exactly the schema of the class the operation validates with (two classes of
    the same name would show one of them for both)."""
    from mafiatab.api import api

    components = api.get_openapi_schema()["components"]["schemas"]
    checked = 0
    for operation, model in _body_models():
        own = model.model_json_schema(ref_template="#/components/schemas/{model}")
        nested = own.pop("$defs", {})
        for name, expected in {model.__name__: own, **nested}.items():
            assert _shape(components[name]) == _shape(expected), (operation, name)
            checked += 1
    assert checked >= 10


def test_schema_names_are_unique():
    import mafiatab.api

    mafiatab.api.build_api()
    seen: dict[str, str] = {}

    def walk(cls):
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("mafiatab."):
                where = f"{sub.__module__}.{sub.__qualname__}"
                assert seen.setdefault(sub.__name__, where) == where, (sub.__name__, where)
            walk(sub)

    from ninja import Schema

    walk(Schema)
    assert {"PenaltyIn", "GamePenaltyIn", "ExtraIn"} <= set(seen)


def _number_or_string(node) -> bool:
    if isinstance(node, dict):
        types_ = {choice.get("type") for choice in node.get("anyOf", []) if "type" in choice}
        if {"number", "string"} <= types_ or {"integer", "string"} <= types_:
            return True
        return any(_number_or_string(value) for value in node.values())
    if isinstance(node, list):
        return any(_number_or_string(value) for value in node)
    return False


def test_numbers_are_documented_as_numbers():
    from mafiatab.api import api

    document = api.get_openapi_schema()
    assert not _number_or_string(document)
    extra = document["components"]["schemas"]["ExtraIn"]["properties"]["points"]
    assert extra["type"] == "number"


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
    """The demo tournament with its staff, one application, a participant with an
    account (he sat in the demo's games) and a token for each person."""
    from mafiatab.api.services import token_create
    from mafiatab.registrations.services import registration_apply
    from mafiatab.tournaments.models import StaffRole
    from mafiatab.tournaments.services import staff_assign

    boss = make_user("Boss")
    for role in StaffRole.values:
        staff_assign(tournament=demo_imported, user=boss, role=role, by=None)
    demo_imported.registration_open = True
    demo_imported.save()
    applicant = make_user("Applicant")
    application = registration_apply(tournament=demo_imported, user=applicant)
    seated = demo_imported.registrations.filter(status="approved").order_by("nickname").first()
    seated.user = make_user(f"{seated.nickname}-account")
    seated.save()
    tokens = {
        "anonymous": None,
        "applicant": token_create(user=applicant, name="fuzz")[1],
        "player": token_create(user=seated.user, name="fuzz")[1],
        "staff": token_create(user=boss, name="fuzz")[1],
    }
    staff_token = boss.api_tokens.get()
    return {
        "slug": demo_imported.slug,
        "player": seated.nickname,
        "registration_id": application.pk,
        "token_id": staff_token.pk,
        "tokens": tokens,
    }


@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
@schema.parametrize()
@schema.given(real=st.booleans())
@settings(
    max_examples=8,
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
