"""What the game log's reader refuses: texts that no page, archive or database can
hold (control characters, lone surrogates, text-direction characters), numbers that
are not finite anywhere in an event, and keys of the roles that are not roles."""

from __future__ import annotations

from typing import Any

import pytest

from mafiatab.core.game import GameLogError, parse_log
from mafiatab.core.game.events import parse_event

SEATS = [f"P{n}" for n in range(1, 11)]
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}

HOSTILE_TEXTS = {
    "a lone surrogate": "a\ud800b",
    "NUL": "a\x00b",
    "a bell": "a\x07b",
    "a right-to-left override": "a\u202eb",
    "an isolate": "a\u2066b",
}


def _codes(data: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(GameLogError) as caught:
        parse_event(data)
    return [(p.code, p.params.get("field")) for p in caught.value.problems]


@pytest.mark.parametrize("kind", ["remove", "pause", "defeat"])
@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_a_reason_with_a_character_no_page_can_hold_is_refused_naming_the_reason(kind, name):
    event = {"type": kind, "seat": 3, "minutes": 4, "team": "red", "reason": HOSTILE_TEXTS[name]}
    codes = _codes(event)
    assert codes and all(field == "reason" for _, field in codes)
    assert codes[0][0] in ("event.text_control_character", "event.text_bidi_character")


def test_a_reason_may_hold_line_breaks_and_any_script():
    event = parse_event({"type": "remove", "seat": 3, "reason": "Оскорбление\nигрока\t№4"})
    assert event.reason == "Оскорбление\nигрока\t№4"


def test_an_overlong_reason_is_refused():
    assert _codes({"type": "pause", "seat": 3, "minutes": 4, "reason": "x" * 2001}) == [
        ("event.text_too_long", "reason")
    ]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_number_that_is_not_finite_is_refused_wherever_it_is(value):
    assert _codes({"type": "foul", "seat": 3, "at": value}) == [("event.number_not_finite", "at")]
    assert _codes({"type": "foul", "seat": 3, "meta": {"t": [1, value]}}) == [
        ("event.number_not_finite", "meta.t.1")
    ]
    assert ("event.seat_range", "seat") in _codes({"type": "foul", "seat": value})


def test_a_key_or_a_text_the_rules_do_not_read_is_checked_too():
    assert _codes({"type": "foul", "seat": 3, "note\x00": 1}) == [
        ("event.text_control_character", "extra")
    ]
    # a field of another type of event is not read by this one, and still checked
    assert _codes({"type": "nominate", "by": 1, "seat": 2, "reason": "\ud800"}) == [
        ("event.text_control_character", "reason")
    ]
    assert _codes({"type": "foul", "seat": 3, "deep": [[[[[1]]]]]})[0][0] == "event.extra_value"


def test_extra_keys_of_plain_values_are_kept_as_given():
    event = parse_event({"type": "foul", "seat": 3, "id": "a-1", "at": 1700000000000, "ok": True})
    assert event.extra == {"id": "a-1", "at": 1700000000000, "ok": True}


def _log(roles: dict[str, Any]) -> dict[str, Any]:
    return {"format": "mafiatab-game-log/1", "table": "fiim", "seats": SEATS, "roles": roles}


def test_roles_with_a_key_that_is_not_a_role_are_refused():
    with pytest.raises(GameLogError) as caught:
        parse_log(_log(ROLES | {"maniac": 1}))
    assert [(p.code, p.field, p.params) for p in caught.value.problems] == [
        ("log.role_unknown", "roles", {"name": '"maniac"'})
    ]
    assert parse_log(_log(ROLES)).roles[2].value == "sheriff"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 3.0, True])
def test_a_role_seat_that_is_not_an_integer_is_refused(value):
    with pytest.raises(GameLogError) as caught:
        parse_log(_log(ROLES | {"sheriff": value}))
    assert caught.value.problems[0].code == "log.role_seat"
