"""The seating generator: invariants over many sizes and seeds, constraints, re-seating."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from itertools import combinations

import pytest

from mafiatab.core.seating import (
    FORMAT,
    Round,
    Schedule,
    SeatingError,
    StandIn,
    Table,
    default_iterations,
    pair_counts,
    plan_seating,
    seat_counts,
)
from mafiatab.core.seating.assign import order_rounds, solve_assignment
from mafiatab.core.seating.search import (
    SearchProblem,
    _anneal,
    _State,
    affine_groups,
    greedy_groups,
    square_penalty,
)
from mafiatab.core.seating.seats import assign_seats

#: A small budget keeps the suite fast; determinism does not depend on it.
FAST = 4_000


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def plan(n: int, games: int, **kwargs: object) -> Schedule:
    """A seating bounded by its iterations alone (the clock of a busy machine must not cut
    the search a test measures), unless the test gives a time limit itself."""
    kwargs.setdefault("iterations", FAST)
    kwargs.setdefault("time_limit", 3600.0)
    return plan_seating(names(n), games, **kwargs)  # type: ignore[arg-type]


def assert_valid(schedule: Schedule, games: int) -> None:
    played: Counter[str] = Counter()
    for rnd in schedule.rounds:
        in_round = rnd.players()
        assert len(in_round) == len(set(in_round)), f"someone plays twice in round {rnd.round}"
        assert len(rnd.tables) <= schedule.tables
        assert len({t.table for t in rnd.tables}) == len(rnd.tables)
        for table in rnd.tables:
            assert len(table.seats) == 10
            assert 1 <= table.table <= schedule.tables
        played.update(in_round)
    assert played == dict.fromkeys(schedule.players, games)
    low, high = games // 10, -(-games // 10)
    for name, row in seat_counts(schedule.players, schedule.rounds).items():
        assert all(low <= c <= high for c in row), (name, row)
    assert schedule.metrics.seat_balance_exact


SIZES = [(10, 1), (10, 7), (20, 5), (30, 10), (25, 8), (35, 6), (47, 10), (60, 12), (100, 3)]


@pytest.mark.parametrize(("n", "games"), SIZES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_everyone_plays_exactly_g_games_once_a_round_with_exact_seat_balance(
    n: int, games: int, seed: int
) -> None:
    assert_valid(plan(n, games, seed=seed), games)


@pytest.mark.parametrize(("n", "games", "tables"), [(30, 10, 2), (45, 4, 3), (55, 2, 1)])
def test_fewer_tables_than_players_allow_makes_players_sit_out_in_turn(
    n: int, games: int, tables: int
) -> None:
    schedule = plan(n, games, tables=tables)
    assert_valid(schedule, games)
    assert all(len(r.tables) <= tables for r in schedule.rounds)
    assert any(schedule.sitting_out(i) for i in range(len(schedule.rounds)))


def test_the_last_round_uses_fewer_tables_when_games_do_not_fill_it() -> None:
    schedule = plan(30, 5, tables=2)  # 15 games on 2 tables: 8 rounds, the last with one
    assert [len(r.tables) for r in schedule.rounds] == [2] * 7 + [1]
    assert_valid(schedule, 5)


def test_sit_outs_rotate_so_nobody_sits_out_twice_before_everyone_sat_out_once() -> None:
    schedule = plan(25, 8, tables=2)
    first_two = [set(schedule.sitting_out(i)) for i in range(5)]
    assert len(set().union(*first_two)) == 25


def assert_sit_outs_in_turn(schedule: Schedule) -> None:
    """After every round, the games played so far differ by one at most between players."""
    played: Counter[str] = Counter(dict.fromkeys(schedule.players, 0))
    for rnd in schedule.rounds:
        played.update(rnd.players())
        assert max(played.values()) - min(played.values()) <= 1, rnd.round


# One table a round, players sitting out in turn. With 20 players and 2 games, each plays
# one of rounds 1-2 and one of rounds 3-4: n players play rounds 1 and 3, the same n rounds
# 2 and 4, 10 - n rounds 1 and 4 and 2 and 3; pairs meeting twice are 2·C(n, 2) +
# 2·C(10 - n, 2), at least 40 (n = 5), where repeating the groups gives 90. With 30 players
# in 6 rounds, the 3×3 matrix of (round in 1-3, round in 4-6) has rows and columns of 10:
# at best 4/3/3, so 3·(C(4, 2) + 2·C(3, 2)) = 36 pairs meet twice.
@pytest.mark.parametrize(("n", "least"), [(20, 40), (30, 36)])
@pytest.mark.parametrize("seed", [0, 1])
def test_one_table_a_round_trades_who_sits_out_for_the_fewest_repeated_pairs(
    n: int, least: int, seed: int
) -> None:
    schedule = plan(n, 2, tables=1, seed=seed)
    assert_valid(schedule, 2)
    assert_sit_outs_in_turn(schedule)
    assert schedule.metrics.iterations > 0
    assert schedule.metrics.repeated_pairs == least


@pytest.mark.parametrize(("n", "games"), [(20, 4), (20, 10), (15, 2), (12, 5), (25, 6)])
def test_one_table_a_round_never_repeats_the_same_groups(n: int, games: int) -> None:
    schedule = plan(n, games, tables=1, seed=3)
    assert_valid(schedule, games)
    assert_sit_outs_in_turn(schedule)
    groups = Counter(frozenset(rnd.players()) for rnd in schedule.rounds)
    assert max(groups.values()) == 1


def test_a_table_of_everybody_leaves_nothing_to_search() -> None:
    schedule = plan(10, 3)
    assert schedule.metrics.iterations == 0
    assert schedule.metrics.max_meetings == 3


def test_same_seed_gives_the_same_schedule() -> None:
    first = plan(40, 6, seed=7, iterations=20_000)
    second = plan(40, 6, seed=7, iterations=20_000)
    assert first.to_json() == second.to_json()


def test_different_seeds_give_different_schedules() -> None:
    assert plan(40, 6, seed=1).rounds != plan(40, 6, seed=2).rounds


def test_the_search_lowers_the_repeated_meetings_of_its_start() -> None:
    unsearched = plan(60, 10, seed=3, iterations=0).metrics
    searched = plan(60, 10, seed=3, iterations=150_000).metrics
    assert searched.variance < unsearched.variance
    assert searched.pairs_above_ceiling < unsearched.pairs_above_ceiling
    assert searched.max_meetings < unsearched.max_meetings


def test_metrics_agree_with_the_rounds() -> None:
    schedule = plan(30, 10, seed=5, iterations=30_000)
    counts = pair_counts(schedule.players, schedule.rounds)
    m = schedule.metrics
    assert len(counts) == 30 * 29 // 2
    assert m.max_meetings == max(counts.values())
    assert list(m.histogram) == [
        sum(1 for c in counts.values() if c == k) for k in range(m.max_meetings + 1)
    ]
    assert m.repeated_pairs == sum(1 for c in counts.values() if c >= 2)
    assert m.pairs_above_ceiling == sum(1 for c in counts.values() if c > 4)
    assert m.mean_meetings == pytest.approx(90 / 29)
    mean = sum(counts.values()) / len(counts)
    assert m.variance == pytest.approx(sum((c - mean) ** 2 for c in counts.values()) / len(counts))


def test_flags_explain_pairs_meeting_above_the_ceiling() -> None:
    schedule = plan(30, 10, seed=5, iterations=0)
    assert schedule.metrics.pairs_above_ceiling > 0
    assert any("share more than 4 games" in str(flag) for flag in schedule.flags)


def test_to_json_is_the_schedule_file_of_the_spec() -> None:
    schedule = plan(20, 5, seed=2)
    data = json.loads(json.dumps(schedule.to_json()))
    assert data["format"] == FORMAT == "mafiatab-seating/1"
    assert data["players"] == names(20)
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3, 4, 5]
    first = data["rounds"][0]["tables"][0]
    assert set(first) == {"table", "seats"}
    assert len(first["seats"]) == 10
    assert data["metrics"]["max_meetings"] == schedule.metrics.max_meetings
    assert data["flags"] == [str(flag) for flag in schedule.flags]


def repeats(before: Round, groups: list[tuple[str, ...]], tables: tuple[int, ...]) -> int:
    """Players of `groups` (sent to `tables`) who sat at that table in `before`."""
    last = {name: t.table for t in before.tables for name in t.seats}
    return sum(
        last.get(name) == table
        for table, group in zip(tables, groups, strict=True)
        for name in group
    )


def test_each_round_goes_to_the_tables_with_fewest_repeats_of_the_previous_round() -> None:
    schedule = plan(40, 8, seed=4, iterations=20_000)
    for before, after in itertools.pairwise(schedule.rounds):
        groups = [t.seats for t in after.tables]
        chosen = repeats(before, groups, tuple(t.table for t in after.tables))
        best = min(repeats(before, groups, p) for p in itertools.permutations(range(1, 5)))
        assert chosen == best


def test_the_default_budget_grows_with_the_stage_and_its_work_is_bounded() -> None:
    assert default_iterations(20, 5) < default_iterations(30, 10) < default_iterations(60, 10)
    assert default_iterations(10, 1) == 50_000
    # A move costs about (tables + 8) sums: larger stages get fewer, dearer moves.
    assert default_iterations(200, 12) < default_iterations(100, 12)
    work = [default_iterations(n, 12) * (n // 10 + 8) for n in (100, 200, 400)]
    assert max(work) <= 4_000_000
    assert default_iterations(1000, 12) == 50_000


def test_a_time_limit_that_cuts_the_search_short_is_reported() -> None:
    schedule = plan(60, 10, iterations=10**9, time_limit=0.05)
    assert schedule.metrics.stopped_by_time_limit
    assert schedule.metrics.iterations < 10**9
    assert any("time limit" in str(flag) for flag in schedule.flags)
    assert_valid(schedule, 10)


# Constraints


def test_pairs_to_keep_apart_never_meet_when_that_is_possible() -> None:
    avoid = [frozenset({"p1", "p2"}), frozenset({"p3", "p4", "p5", "p6"})]
    schedule = plan(60, 8, seed=1, avoid=avoid, iterations=60_000)
    counts = pair_counts(schedule.players, schedule.rounds)
    kept_apart = [("p1", "p2"), *combinations(["p3", "p4", "p5", "p6"], 2)]
    assert all(counts[pair] == 0 for pair in kept_apart)
    assert schedule.metrics.avoided_meetings == 0


def test_a_club_too_big_to_keep_apart_meets_as_little_as_possible_and_is_flagged() -> None:
    club = frozenset(f"p{i}" for i in range(1, 5))  # 4 of 30 on 3 tables must meet
    schedule = plan(30, 10, seed=1, avoid=[club], iterations=60_000)
    free = plan(30, 10, seed=1, iterations=60_000)

    def club_meetings(s: Schedule) -> int:
        counts = pair_counts(s.players, s.rounds)
        return sum(counts[pair] for pair in combinations(sorted(club), 2))

    assert club_meetings(schedule) == schedule.metrics.avoided_meetings > 0
    assert club_meetings(schedule) < club_meetings(free)
    assert any("keep apart" in str(flag) for flag in schedule.flags)


def test_a_player_fixed_to_a_table_sits_there_in_every_round() -> None:
    schedule = plan(50, 7, seed=3, fixed_tables={"p9": 2, "p10": 5})
    assert_valid(schedule, 7)
    for rnd in schedule.rounds:
        where = {name: t.table for t in rnd.tables for name in t.seats}
        assert where.get("p9", 2) == 2
        assert where.get("p10", 5) == 5


def test_players_fixed_to_the_same_table_are_flagged() -> None:
    schedule = plan(30, 10, fixed_tables={"p1": 1, "p2": 1})
    assert any("fixed to table 1" in str(flag) for flag in schedule.flags)


def test_reseating_keeps_the_rounds_already_played_unchanged() -> None:
    original = plan(40, 8, seed=11)
    played = original.rounds[:3]
    again = plan(40, 8, seed=12, fixed_rounds=played)
    assert again.rounds[:3] == played
    assert again.fixed_rounds == 3
    assert [r.round for r in again.rounds] == list(range(1, 9))
    assert Counter(n for r in again.rounds for n in r.players()) == dict.fromkeys(names(40), 8)
    flagged = any("seat balance is not exact" in str(flag) for flag in again.flags)
    assert flagged != again.metrics.seat_balance_exact


def test_a_replacement_plays_the_games_the_player_he_replaces_had_left() -> None:
    original = plan(40, 8, seed=11)
    played = original.rounds[:2]
    gone = sum(name == "p7" for r in played for name in r.players())
    players = [("new" if name == "p7" else name) for name in names(40)]
    schedule = plan_seating(
        players, 8, fixed_rounds=played, replacements={"new": "p7"}, iterations=FAST
    )
    assert schedule.rounds[:2] == played
    later = Counter(n for r in schedule.rounds[2:] for n in r.players())
    assert later["new"] == 8 - gone
    assert all(later[name] + sum(name in r.players() for r in played) == 8 for name in names(6))
    assert any("'new' replaces 'p7'" in str(flag) for flag in schedule.flags)


def _stood_in(rounds: list[Round], number: int, player: str, reserve: str) -> list[Round]:
    """`rounds` with `reserve` in `player`'s seat of round `number`."""
    return [
        r
        if r.round != number
        else Round(
            round=r.round,
            tables=tuple(
                Table(t.table, tuple(reserve if n == player else n for n in t.seats))
                for t in r.tables
            ),
        )
        for r in rounds
    ]


def test_a_reserve_standing_in_for_one_round_leaves_the_player_his_other_games() -> None:
    original = plan(40, 8, seed=11)
    played = _stood_in(list(original.rounds[:2]), 1, "p7", "sub")
    schedule = plan_seating(
        names(40),
        8,
        fixed_rounds=played,
        stand_ins=[StandIn(round=1, reserve="sub", player="p7")],
        iterations=FAST,
    )
    assert list(schedule.rounds[:2]) == played
    later = Counter(n for r in schedule.rounds[2:] for n in r.players())
    assert later["p7"] == 6  # 8 games: round 2 played, round 1 played for him
    assert "sub" not in later
    assert all(later[name] == 6 for name in names(40))
    assert any("'sub' stood in for 'p7' in round 1" in str(flag) for flag in schedule.flags)


def test_a_stand_in_then_a_replacement_give_the_newcomer_the_games_left() -> None:
    original = plan(40, 8, seed=11)
    played = _stood_in(list(original.rounds[:2]), 1, "p7", "sub")
    played = _stood_in(played, 2, "p7", "new")
    players = [("new" if name == "p7" else name) for name in names(40)]
    schedule = plan_seating(
        players,
        8,
        fixed_rounds=played,
        stand_ins=[StandIn(round=1, reserve="sub", player="p7")],
        replacements={"new": "p7"},
        iterations=FAST,
    )
    later = Counter(n for r in schedule.rounds[2:] for n in r.players())
    assert later["new"] == 6 and "sub" not in later and "p7" not in later


def test_the_replacement_flag_counts_every_game_the_newcomer_plays_in_the_draft() -> None:
    """The newcomer already sits in a kept round (his first): the flag names all his
    games of the draft, that one included, which are the games the player had left."""
    original = plan(40, 8, seed=11)
    played = _stood_in(list(original.rounds[:3]), 3, "p7", "new")
    players = [("new" if name == "p7" else name) for name in names(40)]
    schedule = plan_seating(
        players, 8, fixed_rounds=played, replacements={"new": "p7"}, iterations=FAST
    )
    games = sum(r.players().count("new") for r in schedule.rounds)
    assert games == 6  # p7 played rounds 1 and 2
    (flag,) = [f for f in schedule.flags if f.code == "replacement"]
    assert str(flag) == "'new' replaces 'p7' and plays the 6 games 'p7' had left"


def test_a_stand_in_not_seated_in_its_round_is_refused() -> None:
    played = plan(40, 8, seed=11).rounds[:2]
    with pytest.raises(SeatingError, match="'sub' stood in for 'p7' in round 1 but has no seat"):
        plan_seating(
            names(40),
            8,
            fixed_rounds=played,
            stand_ins=[StandIn(round=1, reserve="sub", player="p7")],
            iterations=FAST,
        )


def test_reseating_after_a_no_show_refuses_seats_that_do_not_fill_tables() -> None:
    original = plan(40, 8, seed=11)
    with pytest.raises(SeatingError, match=r"the remaining games make .* not a multiple of 10"):
        plan_seating(names(39), 8, fixed_rounds=original.rounds[:2], iterations=FAST)


def test_reseating_reports_seat_balance_it_cannot_complete_exactly() -> None:
    original = plan(50, 10, seed=2)
    again = plan(50, 10, seed=3, fixed_rounds=original.rounds[:4])
    assert again.rounds[:4] == original.rounds[:4]
    assert again.metrics.seat_spread <= 2
    flagged = any("seat balance is not exact" in str(flag) for flag in again.flags)
    assert flagged != again.metrics.seat_balance_exact


# Impossible inputs


@pytest.mark.parametrize(
    ("n", "games", "kwargs", "message"),
    [
        (9, 10, {}, "9 players cannot fill a table"),
        (25, 7, {}, "not a multiple of 10"),
        (30, 10, {"tables": 4}, "4 tables need 40 players"),
        (30, 10, {"tables": 0}, "at least one table"),
        (30, 0, {}, "at least one game"),
        (30, 10, {"fixed_tables": {"nobody": 1}}, "'nobody' is fixed to a table"),
        (30, 10, {"fixed_tables": {"p1": 4}}, "not one of 1..3"),
        (30, 10, {"avoid": [frozenset({"p1", "ghost"})]}, "'ghost'"),
        (30, 10, {"avoid": [frozenset({"p1"})]}, "two players or more"),
        (30, 10, {"time_limit": 0}, "time limit must be positive"),
        (30, 10, {"iterations": -1}, "must not be negative"),
    ],
)
def test_impossible_inputs_are_refused_with_a_clear_error(
    n: int, games: int, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(SeatingError, match=message):
        plan(n, games, **kwargs)


def test_duplicate_player_names_are_refused() -> None:
    with pytest.raises(SeatingError, match="'a' is listed more than once"):
        plan_seating(["a", *names(9), "a"], 10)


def test_rounds_already_played_with_a_player_twice_are_refused() -> None:
    seats = tuple(names(10))
    bad = Round(round=1, tables=(Table(1, seats), Table(2, seats)))
    with pytest.raises(SeatingError, match="plays twice in the round"):
        plan_seating(names(20), 5, fixed_rounds=[bad])


def test_rounds_already_played_with_a_short_table_are_refused() -> None:
    bad = Round(round=1, tables=(Table(1, tuple(names(9))),))
    with pytest.raises(SeatingError, match="9 players, a table seats 10"):
        plan_seating(names(20), 5, fixed_rounds=[bad])


def test_a_player_who_already_played_too_much_is_refused() -> None:
    played = plan(20, 2, seed=0).rounds[:2]
    with pytest.raises(SeatingError, match="already played 2 games, more than 1"):
        plan_seating(names(20), 1, fixed_rounds=played, iterations=FAST)


def test_a_player_needing_more_games_than_rounds_left_is_refused() -> None:
    first = Round(round=1, tables=(Table(1, tuple(names(10))),))
    second = Round(round=2, tables=(Table(1, tuple(names(10))),))
    with pytest.raises(SeatingError, match=r"'p11' needs 3 games .* use fewer tables"):
        plan_seating(names(20), 3, tables=2, fixed_rounds=[first, second], iterations=FAST)


# The building blocks


def test_assignment_finds_the_cheapest_permutation() -> None:
    cost = [[4, 1, 3], [2, 0, 5], [3, 2, 2]]
    columns = solve_assignment(cost)
    assert sorted(columns) == [0, 1, 2]
    assert sum(cost[r][c] for r, c in enumerate(columns)) == 5


def forced_repeats(first: list[list[int]], second: list[list[int]]) -> int:
    """Fewest players at the same table in both rounds, over all table mappings."""
    return min(
        sum(len(set(a) & set(second[k])) for a, k in zip(first, perm, strict=True))
        for perm in itertools.permutations(range(len(second)))
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rounds_are_ordered_for_the_fewest_forced_same_table_sittings(seed: int) -> None:
    rng = random.Random(seed)
    rounds = []
    for _ in range(6):
        order = list(range(30))
        rng.shuffle(order)
        rounds.append([order[k : k + 10] for k in range(0, 30, 10)])

    def length(path: tuple[int, ...] | list[int]) -> int:
        return sum(forced_repeats(rounds[a], rounds[b]) for a, b in itertools.pairwise(path))

    path = order_rounds(rounds, 30)
    assert sorted(path) == list(range(6))
    assert length(path) == min(length(p) for p in itertools.permutations(range(6)))


def test_edge_colouring_balances_seats_for_any_grouping() -> None:
    games = [list(range(k, k + 10)) for k in range(0, 20, 10)] * 12  # the same tables, 12 times
    seated, proper = assign_seats(games, n_players=20)
    assert proper
    for row in seated:
        assert sorted(row) == sorted(set(row)) and len(row) == 10
    for p in range(20):
        seats = Counter(row.index(p) for row in seated if p in row)
        assert set(seats.values()) <= {1, 2} and len(seats) == 10


def problem_for(n: int, games: int) -> SearchProblem:
    """Everybody plays every round on n // 10 tables, nothing played before."""
    return SearchProblem(
        n_players=n,
        rounds=tuple(tuple(range(n)) for _ in range(games)),
        groups_per_round=(n // 10,) * games,
        pinned=tuple({} for _ in range(games)),
        base_counts=tuple((0,) * n for _ in range(n)),
        mean=9 * games / (n - 1),
        ceiling=1,
        cap=2,
    )


def recount(problem: SearchProblem, groups: list[list[list[int]]]) -> list[list[int]]:
    counts = [list(row) for row in problem.base_counts]
    for round_groups in groups:
        for group in round_groups:
            for p, q in combinations(group, 2):
                counts[p][q] += 1
                counts[q][p] += 1
    return counts


def test_the_search_keeps_pair_counts_and_pairs_in_conflict_up_to_date() -> None:
    problem = problem_for(40, 6)
    state = _State(problem, greedy_groups(problem, random.Random(1), square_penalty(9)), 1)
    rng = random.Random(2)
    for _ in range(500):
        r = rng.randrange(6)
        a, b = rng.sample(range(40), 2)
        if state.where[r][a] != state.where[r][b]:
            state.swap(r, a, b)
    counts = recount(problem, state.groups)
    assert state.counts == counts
    expected = sorted(a * 40 + b for a, b in combinations(range(40), 2) if counts[a][b] > 1)
    assert sorted(state.conflicts) == expected
    assert all(state.conflicts[i] == key for key, i in state.position.items())


def test_trading_rounds_keeps_pair_counts_conflicts_and_sit_outs_up_to_date() -> None:
    n, rounds = 20, 8
    playing = tuple(tuple(range(10)) if r % 2 == 0 else tuple(range(10, 20)) for r in range(rounds))
    problem = SearchProblem(
        n_players=n,
        rounds=playing,
        groups_per_round=(1,) * rounds,
        pinned=tuple({} for _ in range(rounds)),
        base_counts=tuple((0,) * n for _ in range(n)),
        mean=9 * 4 / (n - 1),
        ceiling=2,
        cap=3,
    )
    state = _State(problem, [[list(players)] for players in playing], 2)
    assert not state.active
    rng = random.Random(4)
    traded = 0
    for _ in range(300):
        r = rng.randrange(rounds)
        a = rng.choice(state.movable[r])
        b = rng.choice([p for p in range(n) if state.where[r][p] < 0])
        for s in state.partners(r, a, b):
            state.exchange(r, a, s, b)
            traded += 1
            break
    assert traded > 50
    counts = recount(problem, state.groups)
    assert state.counts == counts
    expected = sorted(a * n + b for a, b in combinations(range(n), 2) if counts[a][b] > 2)
    assert sorted(state.conflicts) == expected
    played = [0] * n
    for r, round_groups in enumerate(state.groups):
        assert sorted(state.movable[r]) == sorted(round_groups[0])
        for p in round_groups[0]:
            played[p] += 1
        assert max(played) - min(played) <= 1
    assert played == [4] * n


@pytest.mark.parametrize(("n", "games"), [(110, 11), (130, 13), (170, 12)])
def test_a_prime_number_of_tables_gives_a_schedule_where_no_pair_meets_twice(
    n: int, games: int
) -> None:
    schedule = plan(n, games, seed=4)
    assert_valid(schedule, games)
    assert schedule.metrics.max_meetings == 1


def test_affine_start_groups_never_repeat_a_meeting_before_the_repair() -> None:
    problem = problem_for(110, 11)
    groups = affine_groups(problem, random.Random(3), square_penalty(14), 11)
    assert all(sorted(len(g) for g in rg) == [10] * 11 for rg in groups)
    counts = recount(problem, groups)
    assert max(max(row) for row in counts) == 1


def test_the_annealing_never_ends_worse_than_its_start() -> None:
    problem = problem_for(110, 11)
    penalty = square_penalty(14)
    state = _State(problem, affine_groups(problem, random.Random(3), penalty, 11), 1)
    start = state.cost(penalty)
    made, _ = _anneal(state, random.Random(5), penalty, 3_000, float("inf"), 50.0, False)
    assert made == 3_000
    assert _State(problem, state.groups, 1).cost(penalty) == start
