"""The voting blocks of a protocol: nominations, votes, revotes."""

from __future__ import annotations

from mafiatab.core.protocol import Protocol
from mafiatab.core.records import voting_from_data
from mafiatab.core.roles import Role, Stage, Winner
from mafiatab.core.voting import (
    MAX_VOTING_ROUNDS,
    VotingRound,
    validate_voting,
    voting_to_list,
)

ROLES = (Role.RED,) * 6 + (Role.SHERIFF, Role.BLACK, Role.BLACK, Role.DON)


def protocol(first_killed: int | None = 3) -> Protocol:
    return Protocol(
        id="Q1-T1",
        stage=Stage.QUALIFYING,
        players=tuple(f"P{n}" for n in range(1, 11)),
        roles=ROLES,
        winner=Winner.RED,
        first_killed=first_killed,
    )


def fields(problems: list) -> list[tuple[int | None, str]]:
    return [(p.seat, p.field) for p in problems]


def test_a_normal_game_of_votes_and_a_revote_has_no_problem() -> None:
    rounds = [
        VotingRound(1, (4,), (), (1,)),
        VotingRound(2, (5, 8), (4, 4), (2, 6)),
        VotingRound(2, (5, 8), (3, 6), revote=True),
        VotingRound(3, (9, 10), (5, 2)),
    ]
    assert validate_voting(protocol(), rounds) == []


def test_the_player_who_left_by_vote_cannot_be_nominated_on_a_later_day() -> None:
    rounds = [VotingRound(1, (4, 5), (7, 3)), VotingRound(2, (4,), (8,))]
    problems = validate_voting(protocol(first_killed=None), rounds)
    assert fields(problems) == [(4, "voting[2].nominees")]
    assert "left the game before day 2" in problems[0].message


def test_the_first_night_victim_cannot_be_nominated_from_day_two() -> None:
    rounds = [VotingRound(1, (3,)), VotingRound(2, (3, 6), (4, 4))]
    assert fields(validate_voting(protocol(first_killed=3), rounds)) == [(3, "voting[2].nominees")]


def test_votes_above_the_players_alive_are_refused() -> None:
    rounds = [VotingRound(1, (4, 5), (6, 4)), VotingRound(2, (6, 7), (5, 4))]
    problems = validate_voting(protocol(first_killed=3), rounds)
    assert fields(problems) == [(None, "voting[2].votes")]
    assert "at most 8 players are alive" in problems[0].message


def test_a_player_nominates_at_most_one_player_a_day() -> None:
    rounds = [VotingRound(2, (5, 6), (5, 3), (2, 2))]
    problems = validate_voting(protocol(first_killed=None), rounds)
    assert fields(problems) == [(2, "voting[1].nominated_by")]


def test_nominee_seats_must_exist_and_not_repeat() -> None:
    rounds = [VotingRound(1, (11, 4, 4))]
    assert fields(validate_voting(protocol(), rounds)) == [
        (None, "voting[1].nominees"),
        (4, "voting[1].nominees"),
    ]


def test_a_revote_is_among_the_tied_players_of_the_same_day() -> None:
    rounds = [
        VotingRound(1, (4, 5), (5, 5)),
        VotingRound(1, (4, 6), (5, 5), revote=True),
        VotingRound(2, (7,), (8,), revote=True),
    ]
    assert fields(validate_voting(protocol(first_killed=None), rounds)) == [
        (None, "voting[2].nominees"),
        (None, "voting[3].revote"),
    ]


def test_each_nominee_needs_a_vote_count_and_days_go_in_order() -> None:
    rounds = [VotingRound(2, (4, 5), (5,)), VotingRound(1, (6,))]
    assert fields(validate_voting(protocol(first_killed=None), rounds)) == [
        (None, "voting[1].votes"),
        (None, "voting[2].day"),
    ]


def test_more_blocks_than_the_paper_form_has_are_accepted() -> None:
    # The file takes "any number of blocks" (tournament-file.md); the paper form has 7.
    rounds = [VotingRound(day, (1,)) for day in range(1, MAX_VOTING_ROUNDS + 2)]
    assert validate_voting(protocol(first_killed=None), rounds) == []


def test_the_json_form_reads_back_and_names_wrong_types() -> None:
    rounds = (VotingRound(2, (5, 8), (4, 4), (2, None)), VotingRound(2, (5, 8), revote=True))
    again, problems = voting_from_data(voting_to_list(rounds), "Q1-T1")
    assert again == rounds and problems == []
    _, problems = voting_from_data([{"day": "2", "nominees": [1]}, 5], "Q1-T1")
    assert [p.field for p in problems] == ["voting[1].day", "voting[2]"]


def test_the_leaver_is_the_single_nominee_with_most_votes() -> None:
    assert VotingRound(1, (4, 5), (6, 4)).leaver() == 4
    assert VotingRound(1, (4, 5), (5, 5)).leaver() is None
    assert VotingRound(1, (4,)).leaver() is None
