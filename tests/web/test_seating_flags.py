"""The seating's compromise flags in the reader's language: every flag code the core's
planner uses is said from its code, its numbers and nicknames kept."""

from __future__ import annotations

import json
import re
from collections import Counter
from types import SimpleNamespace

import pytest
from django.utils import translation

from mafiatab.core.seating import FLAG_TEMPLATES, Round, SeatingFlag, StandIn, Table, planner
from mafiatab.messages import flag_text
from mafiatab.messages.seating_flags import SAY

NAMES = ["Anna", "Mr. O'Neil"]


def _metrics(**changes):
    fields = {
        "stopped_by_time_limit": False,
        "iterations": 0,
        "mean_meetings": 2.0,
        "pairs_above_ceiling": 0,
        "max_meetings": 2,
        "seat_balance_exact": True,
        "seat_spread": 0,
        "consecutive_same_table": 0,
        "avoided_meetings": 0,
    }
    return SimpleNamespace(**(fields | changes))


def _history(**changes):
    fields = {"played": [0, 0], "seats": [], "meetings": [], "visits": [], "last_table": []}
    return planner._History(**(fields | changes))


def _explain(metrics, *, history=None, fixed_rounds=(), avoided=()):
    groups = [[0, 1]] if avoided else []
    return planner._explain(
        metrics, history or _history(), 5000, fixed_rounds, groups, list(avoided), NAMES, []
    )


def core_sentences():
    """One sentence of every kind the planner writes, as it writes them."""
    sentences = _explain(
        _metrics(
            stopped_by_time_limit=True,
            iterations=1234,
            mean_meetings=2.345,
            pairs_above_ceiling=7,
            max_meetings=5,
            seat_balance_exact=False,
            seat_spread=2,
            consecutive_same_table=3,
            avoided_meetings=2,
        ),
        history=_history(strangers=["Ghost"]),
        avoided=[2],
    )
    sentences += _explain(_metrics(seat_balance_exact=False, seat_spread=1), fixed_rounds=[1])
    sentences += planner._pinned_meetings({0: 2, 1: 2}, NAMES)
    flags: list[SeatingFlag] = []
    planner._round_pins([(0, 1)], [1], {1: 3}, NAMES, flags)
    sentences += flags
    history = _history(strangers=["Old"], stranger_games=Counter({"Old": 4}))
    sentences += planner._inherit(history, {"Anna": "Old"}, {"Anna": 0, NAMES[1]: 1}, 10)
    played = Round(1, (Table(1, ("Anna", *(f"x{n}" for n in range(9)))),))
    _, stood_in = planner._check_stand_ins([StandIn(1, "Anna", "Old")], [played])
    sentences += stood_in
    return sentences


def _latin_words(text):
    """The Latin words of `text` that are not nicknames."""
    for name in (*NAMES, "Ghost", "Old"):
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]+", text)


def test_every_kind_of_core_sentence_is_translated_into_russian():
    sentences = core_sentences()
    assert len(sentences) == 11
    with translation.override("ru"):
        translated = [flag_text(f) for f in sentences]
    for english, russian in zip(sentences, translated, strict=True):
        assert _latin_words(str(english)), english
        assert _latin_words(russian) == [], russian


def test_the_numbers_and_nicknames_are_kept():
    with translation.override("ru"):
        said = [flag_text(f) for f in core_sentences()]
    text = "\n".join(said)
    assert "после 1234 из 5000 итераций" in text
    assert (
        "у 7 пар общих игр больше 3 (в среднем 2,35); наибольшее число общих игр у пары — 5" in text
    )
    assert "«Anna», «Mr. O'Neil» закреплены за столом 3" in text
    assert "«Mr. O'Neil» (закреплён за столом 4)" in text
    assert "«Anna» вместо игрока «Old»: играет 6 оставшихся игр" in text
    assert "заменяет" not in text and "заменён на" not in text
    assert "(Anna, Mr. O'Neil), всё же встречаются попарно в 2 играх" in text
    assert "разброс 1): места в уже сыгранных турах" in text
    assert "«Ghost» играл в уже сыгранных турах" in text
    assert "«Anna» играл вместо «Old» в туре 1; остальные игры «Old» остаются за ним" in text
    assert "3 раза игрок сидит" in text


def test_english_keeps_the_cores_wording_with_quotes_and_singulars():
    pairs = SeatingFlag("pairs.above", count=1, ceiling=3, mean="2.50", max=4)
    assert (
        str(pairs)
        == "1 pairs share more than 3 games (the mean is 2.50); the most any pair shares is 4"
    )
    replacement = SeatingFlag("replacement", new="Anna", old="Old", left=4)
    assert str(replacement) == "'Anna' replaces 'Old' and plays the 4 games 'Old' had left"
    with translation.override("en"):
        assert flag_text(pairs) == (
            "1 pair shares more than 3 games (the mean is 2.50); the most any pair shares is 4"
        )
        assert flag_text(replacement) == (
            "“Anna” replaces “Old” and plays the 4 games “Old” had left"
        )


def test_every_flag_code_is_said_and_every_kind_is_made_by_the_planner():
    assert set(SAY) == set(FLAG_TEMPLATES)
    made = {flag.code for flag in core_sentences()}
    assert made | {"kept_apart.one", "seat_balance.colouring"} == set(FLAG_TEMPLATES)


def test_a_stored_flag_reads_as_the_flag_itself():
    with translation.override("ru"):
        for flag in core_sentences():
            stored = json.loads(json.dumps(flag.to_json()))
            assert flag_text(stored) == flag_text(flag)


@pytest.mark.parametrize("flag", ["", "something the core may say one day", "7 pairs share"])
def test_a_sentence_stored_before_flags_had_codes_is_shown_as_written(flag):
    with translation.override("ru"):
        assert flag_text(flag) == flag
