"""The golden logs: each valid one reaches its state, each invalid one is refused
at the event its problem names; finished games give protocols that the file's
reader accepts and that are scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mafiatab.core.game import GameLogError, judge_json, parse_log, replay, replay_json
from mafiatab.core.game import protocol as protocol_of
from mafiatab.core.regulations import get_regulation
from mafiatab.core.scoring import score_game
from mafiatab.core.tournament_file import protocol_from_dict
from mafiatab.core.voting import validate_voting

GOLDEN = Path(__file__).parent / "golden"
VALID = sorted(p.name.removesuffix(".log.json") for p in (GOLDEN / "valid").glob("*.log.json"))
INVALID = sorted(p.name.removesuffix(".log.json") for p in (GOLDEN / "invalid").glob("*.log.json"))


def _block(block: object) -> tuple[object, ...]:
    fields = ("day", "nominees", "votes", "nominated_by", "revote", "lift")
    return tuple(
        tuple(v) if isinstance(v, tuple) else v for v in map(block.__getattribute__, fields)
    )


def _read(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_at_least_as_many_refused_logs_as_golden_games():
    assert len(VALID) >= 30
    assert len(INVALID) >= len(VALID)


@pytest.mark.parametrize("name", VALID)
def test_a_golden_log_reaches_its_state(name):
    state = replay(parse_log(_read(GOLDEN / "valid" / f"{name}.log.json")))
    assert replay_json(state) == _read(GOLDEN / "valid" / f"{name}.state.json")


NIGHTS = sorted(
    p.name.removesuffix(".nights.json") for p in (GOLDEN / "valid").glob("*.nights.json")
)


@pytest.mark.parametrize("name", NIGHTS)
def test_a_golden_log_gives_its_shots_checks_and_answers(name):
    state = replay(parse_log(_read(GOLDEN / "valid" / f"{name}.log.json")))
    assert judge_json(state)["nights"] == _read(GOLDEN / "valid" / f"{name}.nights.json")


@pytest.mark.parametrize("name", VALID)
def test_a_finished_golden_game_gives_a_protocol_that_is_read_and_scored(name):
    state = replay(parse_log(_read(GOLDEN / "valid" / f"{name}.log.json")))
    if not state.is_finished():
        assert "protocol" not in replay_json(state)
        return
    protocol = protocol_from_dict(protocol_of(state), ruleset=state.ruleset)
    assert protocol.winner is state.winner
    assert protocol.first_killed == state.first_killed
    assert [_block(b) for b in protocol.voting] == [_block(b) for b in state.voting_blocks()]
    lines = score_game(protocol, get_regulation(state.ruleset))
    assert lines or state.winner.value == "draw"


@pytest.mark.parametrize("name", INVALID)
def test_a_refused_golden_log_names_the_event_and_the_rule(name):
    expected = (GOLDEN / "invalid" / f"{name}.problems.txt").read_text(encoding="utf-8")
    with pytest.raises(GameLogError) as refused:
        replay(parse_log(_read(GOLDEN / "invalid" / f"{name}.log.json")))
    assert [str(p) for p in refused.value.problems] == expected.splitlines()


@pytest.mark.parametrize("name", VALID)
def test_a_golden_games_blocks_are_the_protocols_own_rounds_and_pass_its_validator(name):
    state = replay(parse_log(_read(GOLDEN / "valid" / f"{name}.log.json")))
    if not state.is_finished():
        return
    protocol = protocol_from_dict(protocol_of(state), ruleset=state.ruleset)
    rounds = [b.round for b in state.voting_blocks()]
    assert tuple(rounds) == protocol.voting
    assert validate_voting(protocol, rounds) == []
