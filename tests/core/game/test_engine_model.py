"""The engine's model: a stack of states (one step per append, check and undo), the
events as typed records, the end of a game as an enum, the table settings derived
from the regulation whose numbers the rules read."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from mafiatab.core.game import (
    TABLE_SETTINGS,
    BestMove,
    End,
    EventType,
    Foul,
    Game,
    GameOutcome,
    Nominate,
    Shots,
    engine,
    judge_json,
    parse_event,
    parse_log,
    replay,
    table_of,
)
from mafiatab.core.game import events as event_records
from mafiatab.core.regulations import FIIM, REGULATIONS
from mafiatab.core.roles import Team, Winner

from .test_engine import DAY, NIGHT, a_log, foul, kill, nominate, remove, state_of


@pytest.fixture
def steps(monkeypatch):
    """Counts the steps of the rules the engine takes."""
    count = {"n": 0}
    real = engine.step

    def counted(state, event):
        count["n"] += 1
        return real(state, event)

    monkeypatch.setattr(engine, "step", counted)
    return count


def _long_game() -> Game:
    events = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [6, 4]}, NIGHT]
    events += [kill(2), DAY] + [{"type": "pause", "seat": 1, "minutes": 1}] * 140
    return Game(parse_log(a_log(events)))


def test_appending_checking_and_undoing_take_one_step_each_however_long_the_log(steps):
    game = _long_game()
    steps["n"] = 0
    game.append(foul(3))
    assert steps["n"] == 1
    assert game.check(parse_event(nominate(3, 5))) is None
    assert steps["n"] == 2
    before = game.state_at(len(game) - 1)
    assert game.undo() is before
    assert steps["n"] == 2


def test_undo_gives_back_the_very_state_before_the_last_event():
    game = Game(parse_log(a_log([nominate(1, 4)])))
    first = game.state
    game.append(nominate(2, 6))
    assert game.undo() is first and game.state is first and len(game) == 1
    assert game.undo() is game.state_at(0) and game.undo() is game.state_at(0)
    assert game.log.events == ()


def test_the_states_and_effects_of_each_event_are_kept():
    game = Game(parse_log(a_log([nominate(1, 4), nominate(2, 6)])))
    game.append({"type": "vote", "counts": [6, 4]})
    assert game.state_at(2).voting.candidates == (4, 6)
    assert [d.seat for d in game.effect(3).left] == [4]
    assert game.effect(1).left == ()
    with pytest.raises(IndexError):
        game.effect(4)
    with pytest.raises(IndexError):
        game.state_at(-1)


def test_a_refused_append_leaves_the_stack_as_it_was():
    game = Game(parse_log(a_log([nominate(1, 4)])))
    state = game.state
    with pytest.raises(Exception, match="already nominated"):
        game.append(nominate(2, 4))
    assert game.state is state and len(game) == 1


def test_each_event_type_is_one_record_whose_log_form_is_the_one_read():
    records = {
        getattr(event_records, name).type: getattr(event_records, name)
        for name in event_records.__all__
        if isinstance(getattr(event_records, name), type)
        and hasattr(getattr(event_records, name), "_fields_json")
    }
    assert set(records) == set(EventType)
    samples = [
        nominate(1, 4),
        {"type": "vote", "counts": [6, 4]},
        {"type": "lift", "for": 5},
        foul(3),
        {"type": "remove", "seat": 2, "reason": "insult", "online": False, "fined": True},
        {"type": "pause", "seat": 1, "minutes": 2, "reason": ""},
        NIGHT,
        {"type": "shots", "by": {"5": 2, "7": None}},
        {"type": "don_check", "seat": 3},
        {"type": "sheriff_check", "seat": 5},
        DAY,
        {"type": "best_move", "seats": [5, 7, 9]},
        {"type": "defeat", "team": "red", "reason": "peeking"},
    ]
    for sample in samples:
        event = parse_event({"id": "x-1", **sample})
        assert isinstance(event, records[EventType(sample["type"])])
        assert json.dumps(event.to_json()) == json.dumps({"id": "x-1", **sample})
    assert parse_event(nominate(1, 4)) == Nominate(by=1, seat=4)
    assert parse_event(kill(2, (5, 7))) == Shots(shots=((5, 2), (7, 2)))
    assert parse_event(foul(3)) == Foul(seat=3, extra={"any": "thing"})


def test_the_end_of_a_game_is_an_enum_with_the_outcome():
    assert state_of([NIGHT, kill(3), DAY]).outcome is None
    no_black = state_of([remove(5), remove(7), remove(9)])
    assert no_black.outcome == GameOutcome(Winner.RED, End.NO_BLACK)
    defeat = state_of([{"type": "defeat", "team": "black", "reason": "peeking"}])
    assert defeat.outcome == GameOutcome(Winner.RED, End.DEFEAT, Team.BLACK, "peeking")
    assert (defeat.winner, defeat.end) == (Winner.RED, End.DEFEAT)
    assert judge_json(defeat)["end"] == "defeat"


def test_the_table_settings_are_those_of_each_regulation():
    assert set(TABLE_SETTINGS) == set(REGULATIONS)
    for code, table in TABLE_SETTINGS.items():
        assert table.regulation is REGULATIONS[code] and table.code == code
        assert table.online == REGULATIONS[code].online
    state = state_of([], table="fiim-online")
    assert state.ruleset == "fiim-online" == state.settings.regulation.code


def _state_by(regulation, events):
    log = parse_log(a_log([]))
    log = replace(log, table=table_of(regulation))
    return replay(log.with_events(tuple(parse_event(e, n) for n, e in enumerate(events, 1))))


def test_the_fouls_that_remove_a_player_are_the_regulations():
    three = replace(FIIM, code="three-fouls", max_fouls=3)
    state = _state_by(three, [foul(4), foul(4)])
    assert state.is_alive(4) and (4, 1) in state.lost_speech
    state = _state_by(three, [foul(4), foul(4), foul(4)])
    assert not state.is_alive(4) and state.removals[0].seat == 4
    assert _state_by(FIIM, [foul(4)] * 3).is_alive(4)


def test_the_seats_a_best_move_names_are_the_regulations():
    two = replace(FIIM, code="two-seats", best_move_seats=2)
    events = [NIGHT, kill(3), DAY]
    state = _state_by(two, [*events, {"type": "best_move", "seats": [7, 9]}])
    assert state.best_move == (7, 9)
    with pytest.raises(Exception, match="best move"):
        _state_by(FIIM, [*events, {"type": "best_move", "seats": [7, 9]}])
    assert BestMove(seats=(7, 9)).to_json() == {"type": "best_move", "seats": [7, 9]}
