"""Why a seating cannot be made, said in the reader's language: every code the core's
planner raises is said from its code, its numbers and nicknames kept."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from mafiatab.core.seating import (
    ERROR_TEMPLATES,
    Round,
    SeatingError,
    StandIn,
    Table,
    plan_seating,
    planner,
)
from mafiatab.messages import seating_error_text
from mafiatab.messages.seating_errors import SAY

NAMES = [f"P{n}" for n in range(1, 21)]
ODD = "Mr. O'Neil"


def _reason(*args, **kwargs) -> SeatingError:
    with pytest.raises(SeatingError) as raised:
        plan_seating(*args, **kwargs)
    return raised.value


def _round(number: int, *tables: list[str]) -> Round:
    return Round(number, tuple(Table(t, tuple(seats)) for t, seats in enumerate(tables, 1)))


def core_reasons() -> list[SeatingError]:
    """One reason of every kind the planner raises, as it raises them."""
    first, second = NAMES[:10], NAMES[10:]
    odd_names = [*NAMES[:19], ODD]
    twice_in_round = [_round(1, first, [*second[:9], "P1"])]
    same_table_twice = Round(1, (Table(1, tuple(first)), Table(1, tuple(second))))
    played_twice = [_round(1, first), _round(2, first)]
    reasons = [
        _reason(NAMES, 1, time_limit=0),
        _reason(NAMES, 1, iterations=-1),
        _reason(" ".join(NAMES), 1),
        _reason([*NAMES, ""], 1),
        _reason([*NAMES, ODD, ODD], 1),
        _reason(NAMES[:7], 1),
        _reason(NAMES, 0),
        _reason([f"P{n}" for n in range(1, 1002)], 1),
        _reason(NAMES, 61),
        _reason(NAMES, 1, tables=0),
        _reason(NAMES[:15], 2, tables=2),
        _reason(NAMES, 1, fixed_tables={"Ghost": 1}),
        _reason(odd_names, 1, fixed_tables={ODD: 3}),
        _reason(NAMES, 1, fixed_tables={name: 1 for name in NAMES[:11]}),
        _reason(NAMES, 1, avoid=[frozenset({"Ghost", "P1"})]),
        _reason(odd_names, 1, avoid=[frozenset({ODD})]),
        _reason(NAMES, 2, fixed_rounds=[same_table_twice]),
        _reason(NAMES, 2, fixed_rounds=[_round(1, first[:9])]),
        _reason(NAMES, 2, fixed_rounds=twice_in_round),
        _reason(NAMES, 2, replacements={"Ghost": "P1"}),
        _reason(NAMES, 2, fixed_rounds=[_round(1, first)], replacements={"P11": "P1"}),
        _reason(NAMES, 2, replacements={"P11": "Old"}),
        _reason(NAMES, 1, fixed_rounds=played_twice),
        _reason(NAMES[:15], 1),
        _reason(NAMES, 2, fixed_rounds=[_round(1, [*first[:9], "Gone"])]),
        _reason(NAMES, 2, tables=2, fixed_rounds=played_twice),
        _reason(NAMES, 2, fixed_rounds=[_round(1, first)], stand_ins=[StandIn(1, "Gone", "P1")]),
    ]
    with pytest.raises(SeatingError) as raised:
        planner._participation([1] * 5, [1], random.Random(0))
    reasons.append(raised.value)
    return reasons


def _latin_words(text: str) -> list[str]:
    """The Latin words of `text` that are not nicknames."""
    for name in (ODD, "Ghost", "Gone", "Old", *NAMES):
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]+", text)


def test_every_kind_of_reason_the_core_raises_is_translated_into_russian():
    reasons = core_reasons()
    with translation.override("ru"):
        said = [seating_error_text(reason) for reason in reasons]
    for english, russian in zip(map(str, reasons), said, strict=True):
        assert _latin_words(english), english
        assert _latin_words(russian) == [], russian


def test_every_error_code_is_said_and_raised_by_the_planner():
    assert set(SAY) == set(ERROR_TEMPLATES)
    assert {reason.code for reason in core_reasons()} == set(ERROR_TEMPLATES)
    with translation.override("ru"):
        for reason in core_reasons():
            assert seating_error_text(reason) == SAY[reason.code](reason.params) != str(reason)


def test_the_numbers_and_nicknames_are_kept():
    with translation.override("ru"):
        text = "\n".join(seating_error_text(reason) for reason in core_reasons())
    assert "игрок «Mr. O'Neil» указан больше одного раза" in text
    assert "7 игроков не заполнят стол на 10 мест" in text
    assert "для 2 столов нужно одновременно игроков: 20, а есть только 15" in text
    assert "игрок «Mr. O'Neil» закреплён за столом 3, а столы есть только с 1 по 2" in text
    assert "за столом 1 закреплено игроков: 11, а мест за ним 10" in text
    assert "тур 1, стол 2: «P1» играет в туре дважды" in text
    assert "«P11» вместо игрока «Old», но «Old» не играл" in text
    assert "заменяет" not in text and "заменён на" not in text
    assert "«P1» уже сыграл 2 игры, а нужно всего 1" in text
    assert "игроков 15, игр у каждого 1, всего мест: 15, это число не кратно 10" in text
    assert "в оставшихся играх мест: 31" in text
    assert "игроков 1001, а рассадка составляется не больше чем для 1000" in text
    assert "игр у каждого 61, а рассадка составляется не больше чем на 60" in text
    assert "«P11» должен сыграть ещё игр: 2" in text


def test_english_keeps_the_cores_wording_with_quotes_and_singulars():
    too_few = SeatingError("players.too_few", count=1, size=10)
    twice = SeatingError("players.twice", name="Ann")
    assert str(too_few) == "1 players cannot fill a table of 10"
    assert str(twice) == "player 'Ann' is listed more than once"
    with translation.override("en"):
        assert seating_error_text(too_few) == "1 player cannot fill a table of 10"
        assert seating_error_text(twice) == "player “Ann” is listed more than once"
        for reason in core_reasons():
            text = str(reason)
            if "'" not in text and '"' not in text:
                assert seating_error_text(reason) == text


@pytest.mark.parametrize("reason", ["", "something the core may say one day", "7 players"])
def test_a_sentence_is_never_a_seating_code(reason):
    with pytest.raises(KeyError):
        SeatingError(reason)


@pytest.mark.django_db
def test_the_seating_form_gives_the_reason_in_russian(client, tournament, organiser):
    from django.urls import reverse

    from mafiatab.registrations.services import registration_add
    from mafiatab.seating.models import SeatingDraft

    for i in range(9):
        registration_add(tournament=tournament, nickname=f"Solo{i}", by=organiser)
    client.force_login(organiser)
    client.cookies["django_language"] = "ru"
    data = {"stage": "qualifying", "games": "10", "tables": "", "seed": "7"}
    url = reverse("seating:generate", args=[tournament.slug])
    page = client.post(url, data, follow=True).content.decode()
    assert "Такую рассадку составить нельзя: 9 игроков не заполнят стол на 10 мест." in page
    assert "cannot fill" not in page
    assert not SeatingDraft.objects.exists()


def test_a_wrong_name_is_said_as_the_planner_quoted_it_without_reading_it_back():
    reason = _reason([*NAMES, "  "], 1)
    assert reason.params == {"value": "'  '"}
    with translation.override("ru"):
        said = seating_error_text(reason)
    assert said.endswith("'  '") and "«" not in said
