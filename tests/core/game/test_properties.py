"""Invariants of the engine on random legal games (hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.core.game import (
    EventType,
    GameLogError,
    SpeechKind,
    parse_event,
    parse_log,
    replay,
    replay_json,
    step,
)
from mafiatab.core.game import protocol as protocol_of
from mafiatab.core.game.engine import Refused
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Team
from mafiatab.core.scoring import score_game
from mafiatab.core.tournament_file import protocol_from_dict

from .strategies import Played, event_for, played_games

RUNS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _refused(state, data):
    with pytest.raises(Refused):
        step(state, parse_event(data))


@RUNS
@given(played_games())
def test_a_random_legal_game_ends_finished_or_expects_a_next_event(played: Played):
    for state, _ in played.steps:
        assert not state.is_finished() or state.expects() == (EventType.BEST_MOVE,)
    final = played.game.state
    assert final.is_finished() or final.expects()
    if final.is_finished():
        assert set(final.expects()) <= {EventType.BEST_MOVE}
        assert replay_json(final)["winner"] in ("red", "black", "draw")


@RUNS
@given(played_games())
def test_a_player_who_left_never_speaks_nominates_votes_or_shoots(played: Played):
    for state, event in played.steps:
        alive = set(state.alive)
        kind = event["type"]
        if kind == "nominate":
            assert {event["by"], event["seat"]} <= alive
        if kind == "shots":
            assert {int(s) for s in event["by"]} <= alive
        regular = [s.seat for s in state.speech_order() if s.kind is not SpeechKind.LAST_WORD]
        assert set(regular) <= alive
        gone = sorted(set(range(1, 11)) - alive)
        if not gone or state.is_finished():
            continue
        ghost = gone[0]
        _refused(state, {"type": "nominate", "by": ghost, "seat": state.alive[0]})
        _refused(state, {"type": "nominate", "by": state.alive[0], "seat": ghost})
        # A foul is given to a seat that has left only in his last word.
        silent = [s for s in gone if s not in state.last_word]
        if silent:
            _refused(state, {"type": "foul", "seat": silent[0]})
        for seat in state.last_word:
            assert seat in gone
            assert seat in step(state, parse_event({"type": "foul", "seat": seat})).last_word or (
                step(state, parse_event({"type": "foul", "seat": seat})).fouls[seat - 1] == 4
            )
        if state.night is not None and not state.night.has_shots():
            shooters = {str(s): state.alive[0] for s in state.team_alive(Team.BLACK)}
            shooters[str(ghost)] = state.alive[0]
            _refused(state, {"type": "shots", "by": shooters})


@RUNS
@given(played_games())
def test_vote_counts_always_equal_the_living(played: Played):
    for state, event in played.steps:
        if event["type"] == "vote":
            assert sum(event["counts"]) == len(state.alive)
            more = [event["counts"][0] + 1, *event["counts"][1:]]
            _refused(state, {"type": "vote", "counts": more})
    final = played.game.state
    blocks = [b for b in final.voting_blocks() if b.votes]
    votes = [e for _, e in played.steps if e["type"] == "vote"]
    assert len(blocks) <= len(votes)


@RUNS
@given(played_games())
def test_replaying_a_log_twice_gives_the_same_state(played: Played):
    log = parse_log(json.loads(json.dumps(played.log)))
    first, second = replay(log), replay(log)
    assert first == second == played.game.state
    assert replay_json(first) == replay_json(second)
    assert parse_log(log.to_json()) == log


@RUNS
@given(played_games())
def test_the_protocol_of_a_finished_game_passes_the_files_validation_and_is_scored(played: Played):
    state = played.game.state
    if not state.is_finished():
        with pytest.raises(ValueError):
            protocol_of(state)
        return
    protocol = protocol_from_dict(protocol_of(state), ruleset=state.ruleset)
    assert protocol.winner is state.winner
    assert protocol.fouls == state.fouls
    assert {r.seat for r in protocol.disqualified} == {r.seat for r in state.removals}
    assert len(protocol.voting) == len(state.voting_blocks())
    assert [b.lift for b in protocol.voting] == [b.lift for b in state.voting_blocks()]
    score_game(protocol, get_regulation(state.ruleset))


@RUNS
@given(played_games())
def test_an_event_type_not_expected_is_refused(played: Played):
    for state, _ in played.steps:
        expected = state.expects()
        for kind in (EventType.NIGHT, EventType.DAY, EventType.LIFT):
            if kind not in expected:
                data = {"type": kind.value}
                if kind is EventType.LIFT:
                    data["for"] = 0
                _refused(state, data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games(), st.data())
def test_every_expected_event_type_has_a_legal_event(played: Played, data):
    for state, _ in played.steps:
        for kind in state.expects():
            event = event_for(data.draw, state, kind)
            after = step(state, parse_event(event))
            assert after.events == state.events + 1


def test_a_refused_event_of_a_replayed_log_is_named_by_position():
    with pytest.raises(GameLogError) as refused:
        replay(
            parse_log(
                {
                    "format": "mafiatab-game-log/1",
                    "table": "fiim",
                    "seats": list("ABCDEFGHIJ"),
                    "roles": {"sheriff": 1, "don": 2, "black": [3, 4]},
                    "events": [{"type": "night"}, {"type": "night"}],
                }
            )
        )
    assert (
        str(refused.value) == "event 2 (night): this event comes only during a day, not at night 1"
    )
