"""The consistency rules of tournament-file.md ("What is rejected"), each named by its code.

Every broken file below is refused through both doors of the one reading (a file's
text and a decoded document) with the same coded problem, and each game-level case
through `protocol_from_dict` too; the valid neighbours of the rules are accepted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import (
    TournamentFileError,
    loads_tournament,
    parse_tournament,
    protocol_from_dict,
)

from .factories import TEN, fine, game, removal, tournament

ANY = object()


def vote(day: int, nominees: list[int], votes: list[int] | None = None, **more: Any) -> dict:
    block: dict[str, Any] = {"day": day, "nominees": nominees}
    if votes is not None:
        block["votes"] = votes
    block.update(more)
    return block


def players(*changes: tuple[int, str]) -> list[str]:
    names = list(TEN)
    for seat, nick in changes:
        names[seat - 1] = nick
    return names


# (case, file, code, game, seat, field)
CASES: list[tuple[str, dict[str, Any], str, object, object, str]] = [
    (
        "four fouls without a removal",
        tournament(game(fouls=[4, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
        "fouls.four_without_removal",
        "G1",
        1,
        "fouls",
    ),
    (
        "black wins although every black left",
        tournament(game(winner="black", first_killed=8, disqualified=[removal(9), removal(10)])),
        "winner.contradicted",
        "G1",
        None,
        "winner",
    ),
    (
        "black wins although the blacks were voted out",
        tournament(
            game(
                winner="black",
                first_killed=8,
                voting=[vote(1, [9, 2], [7, 3]), vote(2, [10, 3], [6, 1])],
            )
        ),
        "winner.contradicted",
        "G1",
        None,
        "winner",
    ),
    (
        "red wins although every red left",
        tournament(game(winner="red", disqualified=[removal(s) for s in range(1, 8)])),
        "winner.contradicted",
        "G1",
        None,
        "winner",
    ),
    (
        "more votes than living players",
        tournament(game(voting=[vote(1, [4, 5], [7, 4])])),
        "voting.too_many_votes",
        "G1",
        None,
        "voting[1].votes",
    ),
    (
        "a nominee who had left",
        tournament(game(voting=[vote(1, [4, 5], [6, 4]), vote(2, [4, 6], [5, 4])])),
        "voting.nominee_left",
        "G1",
        4,
        "voting[2].nominees",
    ),
    (
        "a nominator who had left",
        tournament(game(first_killed=3, voting=[vote(2, [5], [8], nominated_by=[3])])),
        "voting.nominator_left",
        "G1",
        3,
        "voting[1].nominated_by",
    ),
    (
        "two nominations by one seat in a day",
        tournament(game(voting=[vote(1, [4, 5], [6, 4], nominated_by=[1, 1])])),
        "voting.nominates_twice",
        "G1",
        1,
        "voting[1].nominated_by",
    ),
    (
        "a lift vote without a tie",
        tournament(game(voting=[vote(1, [4, 5], [6, 4], lift=6)])),
        "voting.lift_without_tie",
        "G1",
        None,
        "voting[1].lift",
    ),
    (
        "a lift that is not a number",
        tournament(game(voting=[vote(1, [4, 5], [5, 5]), vote(1, [4, 5], [5, 5], lift="6")])),
        "type.integer",
        "G1",
        None,
        "voting[2].lift",
    ),
    (
        "a nominee removed by the lift vote",
        tournament(
            game(
                voting=[
                    vote(1, [4, 5], [5, 5]),
                    vote(1, [4, 5], [5, 5], revote=True, lift=6),
                    vote(2, [4, 6], [4, 4]),
                ]
            )
        ),
        "voting.nominee_left",
        "G1",
        4,
        "voting[3].nominees",
    ),
    (
        "voting that is not a list",
        tournament(game(voting={"day": 1})),
        "type.list",
        "G1",
        None,
        "voting",
    ),
    (
        "one player twice in different case (Cyrillic)",
        tournament(game(players=players((1, "Кэп"), (2, "кэп")))),
        "player.twice",
        "G1",
        2,
        "player",
    ),
    (
        "one player twice in different case (Latin)",
        tournament(game(players=players((1, "Шахматист"), (2, "ШАХМАТИСТ")))),
        "player.twice",
        "G1",
        2,
        "player",
    ),
    (
        "an empty nickname",
        tournament(game(players=players((3, "  ")))),
        "nickname.empty",
        "G1",
        3,
        "player",
    ),
    (
        "a 65-character nickname",
        tournament(game(players=players((3, "x" * 65)))),
        "nickname.too_long",
        "G1",
        3,
        "player",
    ),
    (
        "a 5,000-character nickname",
        tournament(game(players=players((3, "x" * 5000)))),
        "nickname.too_long",
        "G1",
        3,
        "player",
    ),
    (
        "a nickname with a control character",
        tournament(game(players=players((4, "Ka\u0007p")))),
        "nickname.control_character",
        "G1",
        4,
        "player",
    ),
    (
        "a nickname with a right-to-left override",
        tournament(game(players=players((4, "Anna\u202e")))),
        "nickname.bidi_character",
        "G1",
        4,
        "player",
    ),
    (
        "a nickname that is not text",
        tournament(game(players=players((4, 7)))),  # type: ignore[arg-type]
        "type.nickname",
        "G1",
        4,
        "player",
    ),
    (
        "a 201-character tournament name",
        tournament(game(), name="x" * 201),
        "name.too_long",
        None,
        None,
        "name",
    ),
    (
        "a tournament name with a control character",
        tournament(game(), name="Cup\n2025"),
        "name.control_character",
        None,
        None,
        "name",
    ),
    (
        "a date that is not a date",
        tournament(game(date="not-a-date")),
        "date.not_iso",
        "G1",
        None,
        "date",
    ),
    ("February 30", tournament(game(date="2025-02-30")), "date.not_iso", "G1", None, "date"),
    (
        "a date not written ISO",
        tournament(game(date="18.01.2025")),
        "date.not_iso",
        "G1",
        None,
        "date",
    ),
    ("round 0", tournament(game(round=0)), "number.below_one", "G1", None, "round"),
    ("table -1", tournament(game(table=-1)), "number.below_one", "G1", None, "table"),
    ("round 2^31", tournament(game(round=2**31)), "number.too_large", "G1", None, "round"),
    (
        "a 30-digit table",
        tournament(game(table=10**30)),
        "number.too_large",
        "G1",
        None,
        "table",
    ),
    (
        "lot_seed 2^63",
        tournament(game(), lot_seed=2**63),
        "number.too_large",
        None,
        None,
        "lot_seed",
    ),
    (
        "participants 2^31",
        tournament(game(), participants=2**31),
        "number.too_large",
        None,
        None,
        "participants",
    ),
    (
        "fouls of 2^40",
        tournament(game(fouls=[2**40, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
        "fouls.range",
        "G1",
        1,
        "fouls",
    ),
]


def _refused(read: Callable[[Any], Any], data: Any) -> list[Problem]:
    with pytest.raises(TournamentFileError) as info:
        read(data)
    return info.value.problems


def _matches(p: Problem, code: str, gid: object, seat: object, field: str) -> bool:
    return (
        p.code == code
        and p.field == field
        and (gid is ANY or p.game == gid)
        and (seat is ANY or p.seat == seat)
    )


@pytest.mark.parametrize(
    ("data", "code", "gid", "seat", "field"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_broken_file_is_refused_with_its_code_through_every_door(data, code, gid, seat, field):
    assert code in PROBLEM_TEMPLATES
    by_text = _refused(loads_tournament, json.dumps(data))
    by_document = _refused(parse_tournament, data)
    assert [str(p) for p in by_text] == [str(p) for p in by_document]
    assert any(_matches(p, code, gid, seat, field) for p in by_text), [
        (p.code, p.game, p.seat, p.field) for p in by_text
    ]
    if gid is not None:
        by_protocol = _refused(protocol_from_dict, data["games"][0])
        assert any(_matches(p, code, gid, seat, field) for p in by_protocol)


ACCEPTED = [
    ("four fouls with their removal", game(fouls=[4] + [0] * 9, disqualified=[removal(1)])),
    (
        "black wins with one black left",
        game(winner="black", first_killed=8, disqualified=[removal(9)]),
    ),
    (
        "red wins after every black left",
        game(winner="red", first_killed=8, disqualified=[removal(9), removal(10)]),
    ),
    (
        "a revote that ties again and the lift",
        game(
            winner="red",
            voting=[
                vote(1, [4, 5], [5, 5], nominated_by=[1, 2]),
                vote(1, [4, 5], [5, 5], revote=True, lift=6),
                vote(2, [6, 8], [6, 2], nominated_by=[1, 2]),
            ],
        ),
    ),
    ("a lift of null", game(voting=[vote(1, [4, 5], [6, 4], lift=None)])),
    ("an ISO date, round and table 1", game(date="2024-02-29", round=1, table=1)),
    ("a 64-character nickname", game(players=players((1, "я" * 64)))),
]


@pytest.mark.parametrize("protocol", [c[1] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_the_valid_neighbours_of_the_rules_are_accepted(protocol):
    data = tournament(protocol, lot_seed=2**63 - 1, participants=2**31 - 1, name="x" * 200)
    assert loads_tournament(json.dumps(data)) == parse_tournament(data)
    assert protocol_from_dict(protocol).voting == parse_tournament(data).games[0].voting


def test_voting_blocks_are_written_back_as_read():
    protocol = ACCEPTED[3][1]
    read = protocol_from_dict(protocol)
    assert [block.to_dict() for block in read.voting] == [
        {"day": 1, "nominees": [4, 5], "votes": [5, 5], "nominated_by": [1, 2]},
        {"day": 1, "nominees": [4, 5], "votes": [5, 5], "revote": True, "lift": 6},
        {"day": 2, "nominees": [6, 8], "votes": [6, 2], "nominated_by": [1, 2]},
    ]


# Numbers and nesting that must be refused without costing time or a traceback


def test_an_integer_of_5000_digits_is_refused_with_a_problem():
    text = json.dumps(tournament(game(round=1))).replace('"round": 1', '"round": ' + "9" * 5000)
    problems = _refused(loads_tournament, text)
    assert problems and all(p.code in PROBLEM_TEMPLATES for p in problems)
    assert "9999999999" not in " ".join(str(p) for p in problems)


def test_an_integer_of_5000_digits_in_a_document_is_refused_without_printing_it():
    problems = _refused(parse_tournament, tournament(game(round=10**5000)))
    (found,) = problems
    assert (found.code, found.field) == ("number.too_large", "round")
    assert "huge" in str(found)


def test_an_exponent_of_300000_is_refused_as_not_finite():
    data = tournament(game(judge_extra=[{"seat": 1, "points": 0.5}]))
    text = json.dumps(data).replace('"points": 0.5', '"points": 1e300000')
    problems = _refused(loads_tournament, text)
    assert [(p.code, p.field, p.seat) for p in problems] == [("type.number", "judge_extra", 1)]


def test_deeply_nested_json_is_refused_with_a_problem():
    problems = _refused(loads_tournament, "[" * 100_000 + "]" * 100_000)
    assert [p.code for p in problems] in (["file.too_deep"], ["file.not_json"])
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    problems = _refused(parse_tournament, tournament(game(judge=deep)))
    assert [p.code for p in problems] == ["file.too_deep"]


# One player across games: nicknames compared case-insensitively


def test_case_variants_across_games_are_one_player_under_the_first_spelling():
    data = tournament(
        game("G1", players=players((1, "Кэп"))),
        game("G2", players=players((1, "кэп"))),
        game("G3", players=players((1, "КЭП"))),
        penalties=[fine("кЭп", -0.5)],
    )
    read = parse_tournament(data)
    assert [g.players[0] for g in read.games] == ["Кэп", "Кэп", "Кэп"]
    assert read.penalties[0].player == "Кэп"
    rows = {r.player: r for r in compute_standings(read).rows}
    assert "кэп" not in rows and "КЭП" not in rows
    assert rows["Кэп"].games == 3


def test_a_penalty_for_a_case_variant_of_a_player_is_not_refused():
    data = tournament(game(), penalties=[fine("ANNA", -0.5)])
    assert parse_tournament(data).penalties[0].player == "Anna"
