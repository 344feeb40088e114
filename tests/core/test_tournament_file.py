"""The tournament file: what it accepts, what it rejects (spec "What is rejected"), round trips."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from mafiatab.core.protocol import Protocol, Tournament
from mafiatab.core.regulations import FIIM
from mafiatab.core.roles import Role, Stage, Winner
from mafiatab.core.tournament_file import (
    FORMAT,
    TournamentFileError,
    dumps_tournament,
    load_tournament,
    loads_tournament,
    parse_tournament,
    protocol_from_dict,
    protocol_to_dict,
    tournament_to_dict,
)
from mafiatab.core.validation import Problem, validate_protocol, validate_tournament

from .factories import TEN, extra, fine, game, penalty, removal, tournament

F = Fraction
ANY = object()


def problems_of(data: object) -> list[Problem]:
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(data)
    problems = info.value.problems
    assert problems, "a rejected file names at least one problem"
    return problems


def has_problem(
    problems: list[Problem], *, game: object = ANY, seat: object = ANY, field: str
) -> bool:
    for p in problems:
        if field not in p.field:
            continue
        if game is not ANY and p.game != game:
            continue
        if seat is not ANY and p.seat != seat:
            continue
        text = str(p)
        assert field in text
        if isinstance(game, str):
            assert game in text
        if isinstance(seat, int):
            assert f"seat {seat}" in text
        return True
    return False


def assert_rejected(
    data: object, *, game: object = ANY, seat: object = ANY, field: str
) -> list[Problem]:
    problems = problems_of(data)
    assert has_problem(problems, game=game, seat=seat, field=field), [str(p) for p in problems]
    return problems


def valid() -> dict[str, Any]:
    """A valid file: a red win Q1 and a black win Q2 on the default table."""
    return tournament(game("Q1", winner="red"), game("Q2", winner="black"), participants=100)


def with_game(**kwargs: Any) -> dict[str, Any]:
    """A valid preceding game Q0, then Q1 built from `kwargs`."""
    return tournament(game("Q0"), game("Q1", **kwargs))


# Accepted files


def test_valid_file_is_read_into_a_tournament():
    data = tournament(
        game(
            "Q3-T2",
            stage="semifinal",
            winner="black",
            fouls=[0, 1, 2, 3, 4, 0, 0, 0, 0, 0],
            first_killed=1,
            best_move=[8, 9, 10],
            judge_extra=[extra(10, 0.7, chief_approved=True), extra(1, 0.3)],
            penalties=[penalty(3, "8.5.1")],
            disqualified=[removal(5, online=True, fined=False)],
            round=3,
            table=2,
            date="2025-01-18",
            judge="Ivanov",
        ),
        name="Winter Cup",
        ruleset="fiim-online",
        participants=30,
        games_before_final=10,
        lot_seed=42,
        penalties=[fine("Anna", -0.5, "late")],
    )
    t = parse_tournament(data)
    assert isinstance(t, Tournament)
    assert (t.name, t.ruleset, t.participants, t.games_before_final, t.lot_seed) == (
        "Winter Cup",
        "fiim-online",
        30,
        10,
        42,
    )
    assert t.penalties[0].player == "Anna"
    assert t.penalties[0].points == F(-1, 2)
    g = t.games[0]
    assert isinstance(g, Protocol)
    assert (g.id, g.stage, g.winner, g.round, g.table, g.date, g.judge) == (
        "Q3-T2",
        Stage.SEMIFINAL,
        Winner.BLACK,
        3,
        2,
        "2025-01-18",
        "Ivanov",
    )
    assert g.players == TEN
    assert g.roles == (Role.RED,) * 6 + (Role.SHERIFF, Role.BLACK, Role.BLACK, Role.DON)
    assert g.fouls == (0, 1, 2, 3, 4, 0, 0, 0, 0, 0)
    assert (g.first_killed, g.best_move) == (1, (8, 9, 10))
    assert [(e.seat, e.points, e.chief_approved) for e in g.judge_extra] == [
        (10, F(7, 10), True),
        (1, F(3, 10), False),
    ]
    assert [(p.seat, p.rule) for p in g.penalties] == [(3, "8.5.1")]
    assert [(r.seat, r.online, r.fined) for r in g.disqualified] == [(5, True, False)]
    assert g.replayed is False


def test_optional_keys_take_their_defaults():
    t = parse_tournament(
        {"format": FORMAT, "name": "Bare", "ruleset": "fiim", "games": [game(None), game(None)]}
    )
    assert (t.participants, t.games_before_final, t.lot_seed, t.penalties) == (None, None, 0, ())
    assert [g.id for g in t.games] == ["game 1", "game 2"]
    g = t.games[0]
    assert (g.fouls, g.first_killed, g.best_move, g.judge_extra) == ((0,) * 10, None, (), ())
    assert (g.penalties, g.disqualified, g.replayed) == ((), (), False)


def test_empty_games_list_is_accepted():
    assert parse_tournament(tournament()).games == ()


def test_protocol_letters_are_accepted_as_roles():
    data = tournament(game("Q1", roles=["К", "К", "К", "Ш", "К", "К", "Ч", "К", "Д", "Ч"]))
    roles = parse_tournament(data).games[0].roles
    assert roles[3] is Role.SHERIFF
    assert roles[8] is Role.DON
    assert roles.count(Role.BLACK) == 2


def test_null_first_killed_is_a_miss():
    data = tournament(game("Q1", first_killed=None))
    data["games"][0]["first_killed"] = None
    assert parse_tournament(data).games[0].first_killed is None


def test_fewer_than_three_best_move_seats_are_accepted():
    t = parse_tournament(tournament(game("Q1", first_killed=2, best_move=[8])))
    assert t.games[0].best_move == (8,)


@pytest.mark.parametrize(
    "entries",
    [
        [extra(1, 0.7, chief_approved=True), extra(2, 0.3)],  # winner at the cap, total 1.0
        [extra(1, 0.5)],  # 0.5 needs no approval
        [extra(8, 0.4), extra(1, 0.3), extra(2, 0.3)],  # loser at the cap, total 1.0
        [extra(1, 0.56, chief_approved=True), extra(2, 0.34), extra(8, 0.1)],  # 1.0 exactly
    ],
    ids=["winner-0.7", "winner-0.5", "loser-0.4", "decimal-sum"],
)
def test_judge_extra_within_the_caps_is_accepted(entries):
    t = parse_tournament(tournament(game("Q1", winner="red", judge_extra=entries)))
    assert sum(e.points for e in t.games[0].judge_extra) <= 1


def test_points_are_read_as_exact_decimals():
    t = parse_tournament(
        tournament(
            game("Q1", judge_extra=[extra(1, 0.1), extra(2, 0.2)]), penalties=[fine("Anna", -0.3)]
        )
    )
    assert [e.points for e in t.games[0].judge_extra] == [F(1, 10), F(1, 5)]
    assert t.penalties[0].points == F(-3, 10)


def test_online_removal_is_accepted_in_an_online_tournament():
    data = tournament(game("Q1", disqualified=[removal(3, online=True)]), ruleset="fiim-online")
    assert parse_tournament(data).games[0].disqualified[0].online is True


def test_zero_tournament_penalty_is_accepted():
    assert parse_tournament(tournament(game("Q1"), penalties=[fine("Anna", 0)])).penalties


def test_penalty_8_5_2_is_accepted_whatever_the_result():
    for winner in ("red", "black", "draw"):
        parse_tournament(tournament(game("Q1", winner=winner, penalties=[penalty(2, "8.5.2")])))


def test_json_text_and_path_are_read(tmp_path):
    text = json.dumps(valid(), ensure_ascii=False)
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    expected = parse_tournament(valid())
    assert loads_tournament(text) == expected
    assert loads_tournament(text.encode()) == expected
    assert load_tournament(path) == expected
    assert load_tournament(str(path)) == expected


# Round trips


def test_write_then_read_is_the_identity():
    data = tournament(
        game(
            "Q1",
            winner="black",
            fouls=[0, 1, 2, 3, 4, 0, 0, 0, 0, 0],
            first_killed=7,
            best_move=[8, 10],
            judge_extra=[extra(8, 0.56, chief_approved=True), extra(1, 0.1)],
            penalties=[penalty(7, "8.5.3"), penalty(2, "8.5.2")],
            disqualified=[removal(4, online=True), removal(5, fined=False)],
            round=1,
            table=3,
            date="2025-01-18",
            judge="Petrova",
        ),
        game(None, stage="final", winner="draw", replayed=True),
        ruleset="fiim-online",
        games_before_final=7,
        lot_seed=3,
        penalties=[fine("Igor", -0.25, "lobby")],
    )
    t = parse_tournament(data)
    assert parse_tournament(tournament_to_dict(t)) == t
    assert loads_tournament(dumps_tournament(t)) == t
    assert tournament_to_dict(t)["format"] == FORMAT
    assert json.loads(dumps_tournament(t)) == json.loads(json.dumps(tournament_to_dict(t)))
    assert protocol_from_dict(protocol_to_dict(t.games[0]), ruleset="fiim-online") == t.games[0]


def test_written_file_keeps_exact_points():
    t = parse_tournament(tournament(game("Q1", judge_extra=[extra(1, 0.7, chief_approved=True)])))
    written = json.loads(dumps_tournament(t))
    assert written["games"][0]["judge_extra"][0]["points"] == 0.7


# protocol_from_dict and the validators


def test_protocol_from_dict_reads_one_game():
    p = protocol_from_dict(game("Q1", winner="black"))
    assert (p.id, p.winner, p.players) == ("Q1", Winner.BLACK, TEN)


def test_protocol_from_dict_uses_position_for_the_default_id():
    assert protocol_from_dict(game(None), position=3).id == "game 3"


def test_protocol_from_dict_rejects_an_invalid_game():
    with pytest.raises(TournamentFileError) as info:
        protocol_from_dict(game("Q1", fouls=[5, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
    assert has_problem(info.value.problems, game="Q1", seat=1, field="fouls")


def test_protocol_from_dict_checks_online_removals_against_the_ruleset():
    data = game("Q1", disqualified=[removal(2, online=True)])
    assert protocol_from_dict(data, ruleset="fiim-online").disqualified[0].online
    with pytest.raises(TournamentFileError) as info:
        protocol_from_dict(data, ruleset="fiim")
    assert has_problem(info.value.problems, game="Q1", seat=2, field="disqualified")


def test_validate_protocol_accepts_a_valid_protocol():
    assert validate_protocol(protocol_from_dict(game("Q1")), FIIM) == []
    assert validate_tournament(parse_tournament(valid())) == []


def test_validate_protocol_collects_every_problem():
    p = protocol_from_dict(game("Q1"))
    broken = Protocol(
        id="Q1",
        stage=p.stage,
        players=p.players,
        roles=(Role.RED,) * 7 + (Role.BLACK, Role.BLACK, Role.DON),
        winner=Winner.DRAW,
        fouls=(0, 0, 7, 0, 0, 0, 0, 0, 0, 0),
        judge_extra=p.judge_extra,
        best_move=(8, 9),
    )
    problems = validate_protocol(broken, FIIM)
    assert has_problem(problems, game="Q1", field="role")
    assert has_problem(problems, game="Q1", seat=3, field="fouls")
    assert has_problem(problems, game="Q1", field="best_move")


def test_problem_reads_with_game_seat_and_field():
    text = str(Problem("Q3-T2", 4, "role", "unknown role 'mafia'"))
    assert "Q3-T2" in text
    assert "seat 4" in text
    assert "role" in text
    assert "unknown role 'mafia'" in text


# What is rejected: the file as a whole


def test_not_json_is_rejected():
    with pytest.raises(TournamentFileError) as info:
        loads_tournament('{"format": "mafiatab-tournament/1", ')
    assert "json" in " ".join(str(p) for p in info.value.problems).lower()


def test_missing_file_is_rejected(tmp_path):
    with pytest.raises(TournamentFileError) as info:
        load_tournament(tmp_path / "nowhere.json")
    assert "nowhere.json" in " ".join(str(p) for p in info.value.problems)


def test_top_level_must_be_an_object():
    problems_of([valid()])


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        data[key] = value

    return apply


def drop_key(key: str) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        del data[key]

    return apply


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (set_key("format", "mafiatab-tournament/2"), "format"),
        (drop_key("format"), "format"),
        (set_key("ruleset", "mafia-club"), "ruleset"),
        (drop_key("ruleset"), "ruleset"),
        (drop_key("name"), "name"),
        (drop_key("games"), "games"),
        (set_key("name", 5), "name"),
        (set_key("participants", "twenty"), "participants"),
        (set_key("games_before_final", 2.5), "games_before_final"),
        (set_key("lot_seed", "x"), "lot_seed"),
        (set_key("games", {"Q1": {}}), "games"),
        (set_key("penalties", "none"), "penalties"),
    ],
    ids=[
        "format-version",
        "format-missing",
        "ruleset-unknown",
        "ruleset-missing",
        "name-missing",
        "games-missing",
        "name-type",
        "participants-type",
        "games-before-final-type",
        "lot-seed-type",
        "games-type",
        "penalties-type",
    ],
)
def test_bad_top_level_key_is_rejected(change, field):
    data = valid()
    change(data)
    assert_rejected(data, game=None, field=field)


def test_tournament_penalty_above_zero_is_rejected():
    assert_rejected(
        tournament(game("Q1"), penalties=[fine("Anna", 0.5)]), game=None, field="penalties"
    )


def test_tournament_penalty_of_a_player_without_games_is_rejected():
    problems = assert_rejected(
        tournament(game("Q1"), penalties=[fine("Nobody", -0.5)]), game=None, field="penalties"
    )
    assert "Nobody" in " ".join(str(p) for p in problems)


def test_two_games_with_the_same_id_are_rejected():
    assert_rejected(tournament(game("Q1"), game("Q1")), game="Q1", field="id")


# What is rejected: one game


def seat_change(seat: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(g: dict[str, Any]) -> None:
        if value is ...:
            del g["seats"][seat - 1][key]
        else:
            g["seats"][seat - 1][key] = value

    return apply


def game_change(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(g: dict[str, Any]) -> None:
        if value is ...:
            del g[key]
        else:
            g[key] = value

    return apply


GAME_CASES: list[tuple[str, Callable[[dict[str, Any]], None], object, str]] = [
    ("stage-missing", game_change("stage", ...), ANY, "stage"),
    ("stage-unknown", game_change("stage", "playoff"), ANY, "stage"),
    ("winner-missing", game_change("winner", ...), ANY, "winner"),
    ("winner-unknown", game_change("winner", "mafia"), ANY, "winner"),
    ("seats-missing", game_change("seats", ...), ANY, "seats"),
    ("seats-type", game_change("seats", "ten"), ANY, "seats"),
    ("round-type", game_change("round", "three"), ANY, "round"),
    ("table-type", game_change("table", "2"), ANY, "table"),
    ("replayed-type", game_change("replayed", "yes"), ANY, "replayed"),
    ("first-killed-type", game_change("first_killed", "3"), ANY, "first_killed"),
    ("first-killed-above-10", game_change("first_killed", 11), ANY, "first_killed"),
    ("first-killed-zero", game_change("first_killed", 0), ANY, "first_killed"),
    ("nick-empty", seat_change(3, "player", ""), 3, "player"),
    ("nick-missing", seat_change(3, "player", ...), 3, "player"),
    ("nick-twice", seat_change(5, "player", "Anna"), ANY, "player"),
    ("role-unknown", seat_change(4, "role", "mafia"), 4, "role"),
    ("role-missing", seat_change(4, "role", ...), 4, "role"),
    ("roles-seven-red", seat_change(10, "role", "red"), ANY, "role"),
    ("roles-two-sheriffs", seat_change(1, "role", "sheriff"), ANY, "role"),
    ("roles-three-blacks", seat_change(10, "role", "Ч"), ANY, "role"),
    ("fouls-five", seat_change(2, "fouls", 5), 2, "fouls"),
    ("fouls-negative", seat_change(2, "fouls", -1), 2, "fouls"),
    ("fouls-type", seat_change(2, "fouls", "1"), 2, "fouls"),
]


@pytest.mark.parametrize(
    ("change", "seat", "field"),
    [c[1:] for c in GAME_CASES],
    ids=[c[0] for c in GAME_CASES],
)
def test_bad_game_is_rejected_naming_game_seat_and_field(change, seat, field):
    data = with_game()
    change(data["games"][1])
    assert_rejected(data, game="Q1", seat=seat, field=field)


def test_player_seated_twice_names_one_of_the_two_seats():
    data = with_game()
    data["games"][1]["seats"][4]["player"] = "Anna"
    problems = problems_of(data)
    assert any(p.game == "Q1" and p.seat in (1, 5) and "player" in p.field for p in problems)


@pytest.mark.parametrize("count", [9, 11])
def test_game_without_ten_seats_is_rejected(count):
    data = with_game()
    seats = data["games"][1]["seats"]
    if count == 9:
        seats[:] = [s for s in seats if s["role"] != "red" or s["player"] != "Fedor"]
    else:
        seats.append({"player": "Zed", "role": "red"})
    assert_rejected(data, game="Q1", field="seats")


def test_problem_of_a_game_without_id_names_its_position():
    data = tournament(game("Q1"), game(None, winner="purple"))
    problems = problems_of(data)
    assert any(p.game is not None and "2" in p.game and "winner" in p.field for p in problems)
    assert any("2" in str(p) for p in problems)


# best_move


@pytest.mark.parametrize(
    ("kwargs", "seat"),
    [
        ({"best_move": [8, 9, 10]}, ANY),  # without first_killed
        ({"first_killed": 1, "best_move": [8, 9, 10, 2]}, ANY),  # more than 3
        ({"first_killed": 1, "best_move": [8, 8, 9]}, ANY),  # repeated
        ({"first_killed": 1, "best_move": [1, 8, 9]}, ANY),  # names the first-killed seat
        ({"first_killed": 1, "best_move": [8, 11, 9]}, ANY),  # seat outside 1..10
        ({"first_killed": 1, "best_move": [0, 8, 9]}, ANY),
    ],
    ids=["no-first-killed", "four-seats", "repeated", "names-himself", "seat-11", "seat-0"],
)
def test_bad_best_move_is_rejected(kwargs, seat):
    assert_rejected(with_game(**kwargs), game="Q1", seat=seat, field="best_move")


def test_a_best_move_naming_a_seat_twice_names_that_seat_not_the_first_killed():
    problems = problems_of(with_game(first_killed=1, best_move=[2, 2, 9]))
    repeated = [p for p in problems if p.code == "best_move.repeated"]
    assert [(p.seat, p.params) for p in repeated] == [(None, {"seat": 2})]
    assert repeated[0].message == "seat 2 is named twice"


# judge_extra against 8.4


@pytest.mark.parametrize(
    ("winner", "entries", "seat"),
    [
        ("red", [extra(2, 0.2), extra(2, 0.2)], 2),  # a seat named twice
        ("red", [extra(1, 0.2), extra(2, 0.2), extra(3, 0.2), extra(4, 0.2)], ANY),  # 4 players
        ("red", [extra(1, 0.5), extra(2, 0.5), extra(3, 0.1)], ANY),  # total 1.1
        ("red", [extra(1, 0.4), extra(8, 0.4), extra(9, 0.3)], ANY),  # total 1.1, loser caps
        ("red", [extra(1, 0)], 1),  # not above 0
        ("red", [extra(1, -0.1)], 1),  # negative
        ("red", [extra(1, 0.8, chief_approved=True)], 1),  # winner above 0.7
        ("red", [extra(1, 0.6)], 1),  # winner above 0.5 without approval
        ("black", [extra(10, 0.7)], 10),  # don, winner, 0.7 without approval
        ("red", [extra(8, 0.5, chief_approved=True)], 8),  # loser above 0.4
        ("black", [extra(7, 0.45)], 7),  # losing sheriff above 0.4
        ("draw", [extra(1, 0.1)], ANY),  # any in a draw
        ("red", [extra(0, 0.1)], ANY),  # seat outside 1..10
        ("red", [extra(11, 0.1)], ANY),
    ],
    ids=[
        "seat-twice",
        "four-players",
        "total-above-one",
        "total-above-one-with-losers",
        "zero",
        "negative",
        "winner-above-0.7",
        "winner-0.6-unapproved",
        "don-0.7-unapproved",
        "loser-above-0.4",
        "losing-sheriff-above-0.4",
        "draw",
        "seat-0",
        "seat-11",
    ],
)
def test_judge_extra_against_8_4_is_refused(winner, entries, seat):
    assert_rejected(
        with_game(winner=winner, judge_extra=entries), game="Q1", seat=seat, field="judge_extra"
    )


# penalties against 8.5


@pytest.mark.parametrize(
    ("winner", "seat", "rule"),
    [
        ("black", 1, "8.5.5"),  # not a rule of 8.5
        ("black", 1, "8.5"),
        ("black", 8, "8.5.1"),  # 8.5.1 needs a red or sheriff player
        ("red", 1, "8.5.1"),  # ... and a red loss
        ("draw", 1, "8.5.1"),  # a draw is no loss
        ("black", 7, "8.5.2"),  # 8.5.2 needs a red player, not the sheriff
        ("red", 8, "8.5.2"),
        ("red", 10, "8.5.2"),
        ("black", 10, "8.5.3"),  # 8.5.3 needs a red or sheriff player
        ("red", 7, "8.5.3"),  # ... and a red loss
        ("draw", 3, "8.5.3"),
        ("red", 1, "8.5.4"),  # 8.5.4 needs a black or don player
        ("red", 7, "8.5.4"),
        ("black", 8, "8.5.4"),  # ... and a black loss
        ("draw", 10, "8.5.4"),
    ],
)
def test_penalty_against_8_5_is_refused(winner, seat, rule):
    data = with_game(winner=winner, penalties=[penalty(seat, rule)])
    assert_rejected(data, game="Q1", seat=seat, field="penalties")


@pytest.mark.parametrize("seat", [0, 11])
def test_penalty_seat_outside_the_table_is_refused(seat):
    assert_rejected(
        with_game(winner="black", penalties=[penalty(seat, "8.5.1")]), game="Q1", field="penalties"
    )


# disqualified


def test_online_removal_in_an_offline_tournament_is_refused():
    data = with_game(disqualified=[removal(3, online=True)])
    assert_rejected(data, game="Q1", seat=3, field="disqualified")


def test_seat_removed_twice_is_refused():
    data = with_game(disqualified=[removal(3), removal(3)])
    assert_rejected(data, game="Q1", seat=3, field="disqualified")


@pytest.mark.parametrize("seat", [0, 11])
def test_removal_seat_outside_the_table_is_refused(seat):
    assert_rejected(with_game(disqualified=[removal(seat)]), game="Q1", field="disqualified")


# Every problem is collected


def test_every_problem_is_collected():
    data = tournament(
        game("Q1", fouls=[0, 5, 0, 0, 0, 0, 0, 0, 0, 0]),
        game("Q2", winner="blue"),
        game("Q3", judge_extra=[extra(8, 0.5, chief_approved=True)]),
        penalties=[fine("Nobody", -1)],
    )
    problems = problems_of(data)
    assert has_problem(problems, game="Q1", seat=2, field="fouls")
    assert has_problem(problems, game="Q2", field="winner")
    assert has_problem(problems, game="Q3", seat=8, field="judge_extra")
    assert has_problem(problems, game=None, field="penalties")


def test_every_problem_of_one_game_is_collected():
    g = game(
        "Q1",
        winner="draw",
        best_move=[8, 9],
        judge_extra=[extra(1, 0.1)],
        penalties=[penalty(1, "8.5.1")],
    )
    g["seats"][3]["player"] = ""
    problems = problems_of(tournament(g))
    for field in ("best_move", "judge_extra", "penalties", "player"):
        assert has_problem(problems, game="Q1", field=field), field


def test_rejected_file_error_message_lists_every_problem():
    data = tournament(game("Q1", winner="blue"), game("Q2", stage="playoff"))
    with pytest.raises(TournamentFileError) as info:
        parse_tournament(data)
    text = str(info.value)
    assert "Q1" in text
    assert "Q2" in text


def test_parse_does_not_change_its_input():
    data = tournament(game("Q1", judge_extra=[extra(1, 0.3)]))
    before = copy.deepcopy(data)
    parse_tournament(data)
    assert data == before


def test_online_removal_in_an_offline_tournament_is_refused_even_if_waived():
    data = with_game(disqualified=[removal(3, online=True, fined=False)])
    assert_rejected(data, game="Q1", seat=3, field="disqualified")


def test_judge_extra_just_above_half_needs_approval():
    assert_rejected(with_game(judge_extra=[extra(2, 0.55)]), game="Q1", seat=2, field="judge_extra")
    parse_tournament(with_game(judge_extra=[extra(2, 0.55, chief_approved=True)]))


NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]


@pytest.mark.parametrize("number", NON_FINITE)
def test_non_finite_judge_points_are_refused_not_raised(number):
    # Python's json reads NaN and Infinity (not JSON) and turns 1e400 into inf.
    text = json.dumps(tournament(game("Q1", judge_extra=[extra(1, 0.3)]))).replace("0.3", number)
    with pytest.raises(TournamentFileError) as info:
        loads_tournament(text)
    assert has_problem(info.value.problems, game="Q1", field="judge_extra") or has_problem(
        info.value.problems, field="file"
    )


@pytest.mark.parametrize("number", NON_FINITE)
def test_non_finite_tournament_penalty_is_refused_not_raised(number):
    data = tournament(game("Q1"), penalties=[fine("Anna", -0.3)])
    with pytest.raises(TournamentFileError) as info:
        loads_tournament(json.dumps(data).replace("-0.3", number))
    assert has_problem(info.value.problems, field="penalties") or has_problem(
        info.value.problems, field="file"
    )
