"""Hostile input against every form, every API operation and the import command:
whatever is sent (huge numbers, exponents, long texts, deep nesting, wrong types),
the answer is a 4xx (or the page again with the problem marked), never a 5xx.

The forms and operations are found by walking the URL configuration and the API's
OpenAPI document, so a new page or endpoint is covered without touching this file.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from mafiatab.games.models import Game, Protest, ProtestStatus
from mafiatab.tournaments.models import StaffRole

pytestmark = pytest.mark.django_db

DIGITS = "9" * 5000
#: What people type or send to break a number or a text field.
HOSTILE = {
    "digits": DIGITS,
    "negative digits": "-" + DIGITS,
    "exponent": "1e300000",
    "negative exponent": "-1e-300000",
    "too big": str(2**70),
    "minus one": "-1",
    "long text": "x" * 5000,
    "word": "abc",
    "control": "\x00\x1b",
}
#: Pages anyone reads without a form (and the admin, guarded by Django).
SKIPPED_NAMESPACES = ("admin", "api")
#: The kind of object the `pk` of each URL names, by namespace (or full name).
PK_KIND = {
    "registrations": "registration",
    "penalties": "penalty",
    "games": "game",
    "games:table_add": "round",
    "games:round_schedule": "round",
    "games:lateness": "round",
    "games:decide": "protest",
    "seating": "draft",
}
_FIELD = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"")


def _patterns(patterns=None, namespace=""):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace in SKIPPED_NAMESPACES:
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _patterns(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}"


def _url(name: str, world: dict[str, Any]) -> str:
    from django.urls import NoReverseMatch

    kind = PK_KIND.get(name) or PK_KIND.get(name.split(":")[0])
    candidates = [
        {},
        {"slug": world["slug"]},
        {"slug": world["slug"], "pk": world.get(kind, 1)},
        {"slug": world["slug"], "player": world["player"]},
        {"slug": world["slug"], "stage": "final"},  # an advance list
        {"uidb64": "MQ", "token": "set-password"},  # a password reset link
        {"pk": 1},  # a message of the inbox
        {"token": "not-a-token"},  # an unsubscribe link
        {"slug": world["slug"], "token": "no-such-link"},  # a director's link
        {"slug": world["slug"], "token": "no-such-link", "pk": world.get(kind, 1)},
        {"slug": world["slug"], "pk": 1, "token": "not-the-secret"},  # a calendar feed
    ]
    for kwargs in candidates:
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot build the address of {name}")


@pytest.fixture
def world(demo_imported, make_user):
    """The demo tournament, a person holding every staff role, a pending application,
    a draft round with its table, a penalty and a decided protest."""
    from mafiatab.games.services import TablePlan, round_create
    from mafiatab.penalties.services import penalty_give
    from mafiatab.registrations.services import registration_apply
    from mafiatab.tournaments.services import staff_assign

    tournament = demo_imported
    boss = make_user("Boss")
    for role in StaffRole.values:
        staff_assign(tournament=tournament, user=boss, role=role, by=None)
    tournament.registration_open = True
    tournament.save()
    application = registration_apply(tournament=tournament, user=make_user("Applicant"))
    players = list(
        tournament.registrations.filter(status="approved")
        .order_by("nickname")
        .values_list("nickname", flat=True)[:10]
    )
    round_ = round_create(
        tournament=tournament,
        stage="qualifying",
        number=90,
        tables=[TablePlan(number=1, judge=boss, players=tuple(players))],
        by=boss,
    )
    penalty = penalty_give(
        tournament=tournament, player=players[0], kind="lobby_fine", reason="r", by=boss
    )
    game = Game.objects.filter(tournament=tournament, status="confirmed").first()
    protest = Protest.objects.create(
        game=game,
        filed_by=boss,
        seat=1,
        text="t",
        filed_at=timezone.now(),
        status=ProtestStatus.REJECTED,
        decision="no",
        decided_by=boss,
        decided_at=timezone.now(),
    )
    return {
        "tournament": tournament,
        "boss": boss,
        "slug": tournament.slug,
        "player": players[0],
        "registration": application.pk,
        "penalty": penalty.pk,
        "game": round_.tables.get().game.pk,
        "confirmed_game": game.pk,
        "round": round_.pk,
        "protest": protest.pk,
        "draft": 1,
    }


def _form_fields(client, urls: list[str]) -> set[str]:
    """Every field name of every form the application shows on these pages."""
    names: set[str] = set()
    for url in urls:
        response = client.get(url)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            names.update(_FIELD.findall(response.content.decode()))
    names.discard("csrfmiddlewaretoken")
    return names


def test_every_form_answers_hostile_input_without_a_server_error(client, world):
    client.force_login(world["boss"])
    names = list(_patterns())
    urls = {name: _url(name, world) for name in names}
    urls["games:protocol (confirmed)"] = reverse(
        "games:protocol", args=[world["slug"], world["confirmed_game"]]
    )
    fields = _form_fields(client, list(urls.values()))
    assert {"base_version", "extra1_points", "v1_day", "minutes_late", "round"} <= fields
    failures = []
    for label, value in HOSTILE.items():
        for name, url in urls.items():
            data = dict.fromkeys(fields, value)
            data["action"] = "save"
            for method in ("get", "post"):
                response = getattr(client, method)(url, data)
                if response.status_code >= 500:
                    failures.append((label, name, method, response.status_code))
    assert not failures
    assert len(urls) >= 40


def test_a_decided_protest_answers_a_bad_base_version_with_the_page(client, world):
    client.force_login(world["boss"])
    url = reverse("games:decide", args=[world["slug"], world["protest"]])
    for value in ("abc", DIGITS, "-1"):
        response = client.post(url, {"base_version": value, "decision": "d", "upheld": "yes"})
        assert response.status_code < 500
        assert "final" in response.content.decode()


def test_the_protocol_form_marks_a_huge_number_as_unreadable(client, world):
    client.force_login(world["boss"])
    url = reverse("games:protocol", args=[world["slug"], world["game"]])
    for value in (DIGITS, "1e300000", "1e5000"):
        response = client.post(
            url,
            {
                "base_version": "1",
                "extra1_seat": "1",
                "extra1_points": value,
                "v1_nominees": DIGITS,
            },
        )
        assert response.status_code == 422
        assert "is not a number" in response.content.decode()
    assert Game.objects.get(pk=world["game"]).version == 1


def test_a_draft_with_texts_longer_than_their_columns_is_refused(client, world):
    """A draft is saved without the core's validation; its date and judge must still
    fit their columns (PostgreSQL would refuse them with a server error)."""
    from mafiatab.games.conversion import game_data

    client.force_login(world["boss"])
    game = Game.objects.get(pk=world["game"])
    url = reverse("games:protocol", args=[world["slug"], game.pk])
    players = {f"player_{n}": s["player"] for n, s in enumerate(game_data(game)["seats"], 1)}
    for field in ("date", "judge"):
        response = client.post(url, {"base_version": "1", field: "x" * 100, **players})
        assert response.status_code < 500
        assert "At most" in response.content.decode(), field
    assert Game.objects.get(pk=game.pk).version == 1


# --- the API ---------------------------------------------------------------------------


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _leaves(schema: dict[str, Any], components: dict[str, Any], value: Any, depth: int = 0):
    """A body for `schema` whose every leaf is `value`."""
    if "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    for key in ("anyOf", "allOf", "oneOf"):
        if key in schema:
            first = next((s for s in schema[key] if s.get("type") != "null"), schema[key][0])
            return _leaves(first, components, value, depth)
    if depth > 6:
        return value
    if schema.get("type") == "object" or "properties" in schema:
        return {
            name: _leaves(sub, components, value, depth + 1)
            for name, sub in schema.get("properties", {}).items()
        }
    if schema.get("type") == "array":
        item = _leaves(schema.get("items", {}), components, value, depth + 1)
        return [item] * max(schema.get("minItems", 1), 1)
    return value


#: Values sent in JSON bodies: numbers beyond every column, exponents, wrong types.
JSON_HOSTILE = {
    "digits": int(DIGITS[:4000]),
    "negative digits": -int(DIGITS[:4000]),
    "too big": 2**70,
    "minus one": -1,
    "exponent text": "1e300000",
    "digit text": DIGITS,
    "long text": "x" * 5000,
    "a list": [1, 2],
    "an object": {"a": 1},
    "null": None,
    "true": True,
    "float": 1.5,
}


def _operations(client):
    document = client.get("/api/openapi.json").json()
    components = document.get("components", {}).get("schemas", {})
    for path, item in document["paths"].items():
        for method, operation in item.items():
            body = (
                operation.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("schema")
            )
            yield path, method, operation, body, components


def _path(path: str, world: dict[str, Any], value: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda m: world["slug"] if m.group() == "{slug}" else value, path)


@pytest.fixture
def staff_token(world):
    from mafiatab.api.services import token_create

    return token_create(user=world["boss"], name="hostile")[1]


def _call(client, method, url, token, body=None, raw=None):
    content = raw if raw is not None else json.dumps(body) if body is not None else None
    if method in ("get", "head"):
        return client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
    return getattr(client, method)(
        url,
        data=content,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_every_api_operation_answers_hostile_input_with_json_4xx(client, world, staff_token):
    import sys

    failures = []
    count = 0
    old_limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(5000)  # the JSON bodies below hold 4,000-digit numbers
    try:
        for path, method, _operation, body, components in _operations(client):
            count += 1
            for label, value in HOSTILE.items():
                url = (
                    _path(path, world, value)
                    + "?"
                    + "&".join(f"{k}={value}" for k in ("limit", "offset", "provisional"))
                )
                response = _call(client, method, url, staff_token, {})
                if response.status_code >= 500 or "json" not in response["Content-Type"]:
                    failures.append((label, method, path, response.status_code))
            if body is None:
                continue
            sent = [(k, _leaves(body, components, v), None) for k, v in JSON_HOSTILE.items()]
            sent += [("nested", None, _nested(100_000)), ("nested value", None, None)]
            for label, content, raw in sent:
                if label == "nested value":
                    raw = '{"protocol": ' + _nested(5000) + ', "text": ' + _nested(5000) + "}"
                url = _path(path, world, str(world["game"]))
                response = _call(client, method, url, staff_token, content, raw)
                # "1e300000" is a fine text (a reason, a nickname); as a number it is not.
                low = 200 if label == "exponent text" else 400
                if not low <= response.status_code < 500 or "json" not in response["Content-Type"]:
                    failures.append((label, method, path, response.status_code))
    finally:
        sys.set_int_max_str_digits(old_limit)
    assert not failures
    assert count >= 15


def test_an_oversized_api_body_gets_413_in_json(client, world, staff_token, settings):
    url = f"/api/tournaments/{world['slug']}/penalties"
    body = json.dumps({"reason": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)})
    response = _call(client, "post", url, staff_token, raw=body)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert "too large" in response.json()["detail"]
    response = client.post(
        url,
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {staff_token}",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "слишком большой" in response.json()["detail"]


def test_a_server_error_in_the_api_is_json(client, world, monkeypatch):
    from mafiatab.standings import api as standings

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(standings, "tournament_or_404", broken)
    client.raise_request_exception = False
    response = client.get(f"/api/tournaments/{world['slug']}/standings")
    assert response.status_code == 500
    assert response.json()["detail"]
    assert "boom" not in response.content.decode()


def test_an_unknown_api_address_a_wrong_method_or_host_is_answered_in_json(client, world, settings):
    slug = world["slug"]
    unknown = client.get("/api/no-such-thing", HTTP_ACCEPT_LANGUAGE="ru")
    assert unknown.status_code == 404
    assert unknown["Content-Type"].startswith("application/json")
    assert unknown.json() == {"detail": "Не найдено.", "errors": {}}
    assert client.get(f"/api/tournaments/{slug}/games/1/no/such/thing").status_code == 404
    wrong = client.delete(f"/api/tournaments/{slug}")
    assert wrong.status_code == 405
    assert wrong["Content-Type"].startswith("application/json")
    assert "DELETE" in wrong.json()["detail"]
    assert wrong["Allow"] == "GET"
    wrong = client.delete(f"/api/tournaments/{slug}", HTTP_ACCEPT_LANGUAGE="ru")
    assert wrong.json()["detail"] == "Метод DELETE здесь не принимается (принимаются: GET)."
    settings.ALLOWED_HOSTS = ["mafia.example.org"]
    host = client.get("/api/tournaments", HTTP_HOST="evil.example")
    assert host.status_code == 400
    assert host.json()["detail"]
    page = client.get("/no-such-page/", HTTP_HOST="mafia.example.org")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


# --- the import command ------------------------------------------------------------------


def _hostile_files(text: str) -> dict[str, str]:
    document = json.loads(text)

    def changed(change) -> str:
        copy = json.loads(text)
        change(copy)
        return json.dumps(copy)

    def set_game(key, value):
        return lambda d: d["games"][0].__setitem__(key, value)

    return {
        "4000-digit lot_seed": text.replace(
            f'"lot_seed": {document["lot_seed"]}', '"lot_seed": ' + DIGITS[:4000], 1
        ),
        "negative round": changed(set_game("round", -1)),
        "round 2**70": changed(set_game("round", 2**70)),
        "table 2**70": changed(set_game("table", 2**70)),
        "participants 2**70": changed(lambda d: d.__setitem__("participants", 2**70)),
        "long name": changed(lambda d: d.__setitem__("name", "x" * 5000)),
        "long game id": changed(set_game("id", "x" * 5000)),
        "exponent points": changed(set_game("judge_extra", [{"seat": 1, "points": "1e300000"}])),
        "wrong type": changed(set_game("seats", "ten")),
        "deep nesting": text[:-2] + ', "x": ' + _nested(100_000) + "}\n",
    }


def test_import_refuses_hostile_files_in_one_line_each(tmp_path, capsys, demo_file_text):
    from mafiatab.cli import main
    from mafiatab.tournaments.models import Tournament

    assert '"lot_seed": ' in demo_file_text
    for label, text in _hostile_files(demo_file_text).items():
        path = tmp_path / "hostile.json"
        path.write_text(text)
        code = main(["import", str(path)])
        _out, err = capsys.readouterr()
        assert code == 2, label
        assert "Traceback" not in err, label
        assert err.strip() and all(len(line) < 300 for line in err.splitlines()), label
        assert not Tournament.objects.exists(), label


def test_extra_points_too_large_are_a_number_out_of_range_not_a_non_number(client, world):
    client.force_login(world["boss"])
    url = reverse("games:protocol", args=[world["slug"], world["game"]])
    data = {"base_version": "1", "extra1_seat": "1", "extra1_points": "99999"}
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "99999 is out of range: a judge gives one player more than 0 and at most 1" in page
    assert "99999 is not a number" not in page
    client.cookies["django_language"] = "ru"
    page = client.post(url, data).content.decode()
    assert "99999 — вне допустимого диапазона" in page
    assert "не число" not in page
