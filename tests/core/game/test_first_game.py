"""A whole game replayed: state, protocol and the protocol's scoring."""

from __future__ import annotations

from mafiatab.core.game import EventType, parse_log, replay, replay_json
from mafiatab.core.tournament_file import protocol_from_dict

SEATS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]


def a_log(events: list[dict[str, object]], **extra: object) -> dict[str, object]:
    return {
        "format": "mafiatab-game-log/1",
        "table": "fiim",
        "seats": SEATS,
        "roles": {"sheriff": 3, "don": 5, "black": [7, 9]},
        "events": events,
        **extra,
    }


RED_WIN = [
    {"type": "nominate", "by": 1, "seat": 7},
    {"type": "nominate", "by": 2, "seat": 4},
    {"type": "vote", "counts": [6, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"5": 2, "9": 2}},
    {"type": "day"},
    {"type": "best_move", "seats": [5, 9, 1]},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 4, "seat": 5},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"5": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 1, "seat": 5},
    {"type": "night"},
]


def test_a_game_voting_out_every_black_is_won_by_red_with_its_protocol():
    state = replay(parse_log(a_log(RED_WIN, id="Q1-T1")))
    document = replay_json(state)
    assert document["finished"] is True
    assert document["winner"] == "red"
    assert document["alive"] == [1, 4, 6, 8, 10]
    protocol = protocol_from_dict(document["protocol"])
    assert protocol.first_killed == 2
    assert protocol.best_move == (5, 9, 1)


def test_a_fresh_game_expects_nominations_on_day_one():
    state = replay(parse_log(a_log([])))
    assert EventType.NOMINATE in state.expects()
    assert replay_json(state)["phase"] == {"day": 1}
