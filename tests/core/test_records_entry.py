"""A protocol entered at a table is read once (`read_entry`): the game's header keys,
each seat in its participant's spelling, and what even a draft may not hold, beside
the problems of the one reader and validator that reads a tournament file's game."""

from __future__ import annotations

from typing import Any

import pytest

from mafiatab.core.names import TEXT_BIDI, TEXT_CONTROL, nickname_key
from mafiatab.core.records import EntryFacts, read_entry
from mafiatab.core.regulations import get_regulation
from mafiatab.core.tournament_file import TournamentFileError, protocol_from_dict

from .factories import TEN, extra, game, penalty


def _facts(**changes: Any) -> EntryFacts:
    values: dict[str, Any] = {
        "regulation": get_regulation("fiim"),
        "header": {"id": "Q1-T1", "stage": "qualifying", "round": 1, "table": 1},
        "stored": game("Q1-T1"),
        "participants": {nickname_key(name): name for name in TEN},
        "limits": {"date": 32, "judge": 64},
        "may_approve": False,
    }
    return EntryFacts(**(values | changes))


def test_an_entry_takes_the_games_header_keys_and_its_participants_spelling():
    data = game("typed", players=("ANNA", *TEN[1:]), replayed=True)
    entry = read_entry(
        data, _facts(header={"id": "Q1-T1", "stage": "qualifying", "replayed": None})
    )
    assert entry.data["id"] == "Q1-T1" and "replayed" not in entry.data
    assert entry.data["seats"][0]["player"] == "Anna"
    assert entry.is_valid and not (entry.texts or entry.strangers or entry.too_long)


def test_an_entry_has_the_problems_of_the_file_reading():
    data = game("Q1-T1", roles="ДДКККККШЧЧ")
    entry = read_entry(data, _facts())
    with pytest.raises(TournamentFileError) as refused:
        protocol_from_dict(entry.data)
    assert list(entry.problems) == refused.value.problems
    assert entry.problems and entry.protocol is None


def test_a_seat_held_by_no_participant_is_named_and_a_stored_player_keeps_his():
    stored = game("Q1-T1", players=("Zed", *TEN[1:]))
    data = game("Q1-T1", players=("zed", "Nobody", *TEN[2:]))
    entry = read_entry(data, _facts(stored=stored))
    assert entry.strangers == ((2, "Nobody"),)
    assert entry.data["seats"][0]["player"] == "Zed"


def test_hostile_texts_and_long_header_texts_are_named_where_they_are():
    data = game("Q1-T1", judge="j" * 65, penalties=[penalty(2, "8.5.2", "a\x00b\u202e")])
    entry = read_entry(data, _facts())
    assert set(entry.texts) == {
        ("penalties.0.reason", TEXT_CONTROL),
        ("penalties.0.reason", TEXT_BIDI),
    }
    assert entry.too_long == (("judge", 64),)


def test_only_who_may_approve_adds_an_approval():
    stored = game("Q1-T1", judge_extra=[extra(3, 0.6, chief_approved=True)])
    added = game(
        "Q1-T1",
        judge_extra=[extra(3, 0.6, chief_approved=True), extra(4, 0.2, chief_approved=True)],
    )
    assert not read_entry(stored, _facts(stored=stored)).approvals_added
    assert read_entry(added, _facts(stored=stored)).approvals_added
    assert not read_entry(added, _facts(stored=stored, may_approve=True)).approvals_added


def test_an_entry_that_says_what_is_stored_is_unchanged():
    stored = game("Q1-T1", round=1, table=1, best_move=[])
    assert read_entry(game("Q1-T1", round=1, table=1), _facts(stored=stored)).unchanged
    assert not read_entry(game("Q1-T1", winner="black"), _facts(stored=stored)).unchanged
