"""Coefficient K (8.7), total and ranking (8.8), computed by hand.

Default table (see factories): seats 1-6 red Anna, Boris, Clara, Denis, Eva, Fedor;
seat 7 sheriff Gleb; seats 8-9 black Hanna, Igor; seat 10 don Julia.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import pytest

from mafiatab.core.protocol import TournamentPenalty
from mafiatab.core.roles import Team
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import parse_tournament

from .factories import (
    TEN,
    extra,
    fine,
    game,
    row,
    rows_by_player,
    standings_of,
    tournament,
)

F = Fraction
NO_K = 100
OTHER_TEN = tuple(f"K{i:02d}" for i in range(1, 11))


def results(*winners: str, **kwargs: object) -> dict[str, object]:
    """One qualifying game on the default table per winner."""
    games = [game(f"Q{i}", winner=w) for i, w in enumerate(winners, 1)]
    return tournament(*games, **kwargs)  # type: ignore[arg-type]


# 8.7: coefficient K


def test_k_with_odd_number_of_games():
    # N = 5: red 3, black 2 -> heavy side black, n = 2.
    # K = 1 + (5/2 - 2) / (5/2) = 1 + 0.5/2.5 = 1.2 (N/2 not rounded).
    # Hanna won Q4 and Q5: 2 * 1.2 = 2.4. Anna (red) won 3 ordinary games: 3.
    s = standings_of(results("red", "red", "red", "black", "black"))
    assert s.coefficient_k == F(6, 5)
    assert s.heavy_side is Team.BLACK
    assert row(s, "Hanna").main == F(12, 5)
    assert row(s, "Julia").main == F(12, 5)
    assert row(s, "Anna").main == 3
    assert row(s, "Hanna").wins == 2


def test_k_for_heavy_red_side():
    # N = 3: black 2, red 1 -> heavy red, n = 1: K = 1 + (1.5 - 1)/1.5 = 4/3.
    s = standings_of(results("black", "red", "black"))
    assert s.coefficient_k == F(4, 3)
    assert s.heavy_side is Team.RED
    assert row(s, "Gleb").main == F(4, 3)
    assert row(s, "Hanna").main == 2


def test_k_counts_draws_in_n():
    # N = 4 (one draw): red 2, black 1 -> heavy black, n = 1: K = 1 + (2 - 1)/2 = 1.5.
    s = standings_of(results("red", "draw", "black", "red"))
    assert s.coefficient_k == F(3, 2)
    assert row(s, "Igor").main == F(3, 2)
    assert row(s, "Anna").main == 2


def test_equal_wins_give_no_heavy_side():
    # red 2, black 2 (and a draw): K = 1.
    s = standings_of(results("red", "black", "draw", "black", "red"))
    assert s.coefficient_k == 1
    assert s.heavy_side is None
    assert row(s, "Hanna").main == 2
    assert row(s, "Anna").main == 2


def test_side_without_a_win_is_heavy_with_k_two():
    # N = 1, red 1, black 0: heavy black, n = 0, K = 1 + 0.5/0.5 = 2; nobody to multiply.
    s = standings_of(results("red"))
    assert s.coefficient_k == 2
    assert s.heavy_side is Team.BLACK
    assert row(s, "Anna").main == 1


def test_no_counted_games_give_k_one():
    s = standings_of(tournament(game("R1", winner="red", replayed=True)))
    assert s.coefficient_k == 1
    assert s.heavy_side is None
    assert all(r.total == 0 and r.games == 0 for r in s.rows)


def test_empty_tournament_has_no_standings():
    s = standings_of(tournament())
    assert s.rows == ()
    assert s.coefficient_k == 1
    assert s.heavy_side is None


@pytest.mark.parametrize(
    ("participants", "k", "heavy", "hanna"),
    [
        (20, F(4, 3), Team.BLACK, F(4, 3)),  # 20 or fewer: K = 1 + (1.5 - 1)/1.5
        (21, F(1), None, F(1)),  # more than 20: no K
    ],
)
def test_k_applies_up_to_twenty_participants(participants, k, heavy, hanna):
    s = standings_of(results("black", "red", "red", participants=participants))
    assert s.coefficient_k == k
    assert s.heavy_side is heavy
    assert row(s, "Hanna").main == hanna


def test_default_participants_count_players_of_replayed_games():
    # Q1 (black win) and Q2 (red win) on the default table, Q3 (red win) on ten others:
    # 20 distinct players, N = 3, red 2 black 1: K = 4/3, Hanna 4/3.
    # A replayed game seating one more player (Zed) makes 21: no K, Hanna 1.
    twenty = [game("Q1", winner="black"), game("Q2"), game("Q3", players=OTHER_TEN)]
    s20 = standings_of(tournament(*twenty))
    assert s20.coefficient_k == F(4, 3)
    assert row(s20, "Hanna").main == F(4, 3)
    with_zed = (*OTHER_TEN[:9], "Zed")
    s21 = standings_of(tournament(*twenty, game("R1", players=with_zed, replayed=True)))
    assert s21.coefficient_k == 1
    assert s21.heavy_side is None
    assert row(s21, "Hanna").main == 1


def test_replayed_games_are_not_in_n():
    # Counted: red, black, red -> K = 4/3. Two replayed black wins would make it equal.
    s = standings_of(
        tournament(
            game("Q1"),
            game("Q2", winner="black"),
            game("Q3"),
            game("R1", winner="black", replayed=True),
            game("R2", winner="black", replayed=True),
        )
    )
    assert s.coefficient_k == F(4, 3)
    assert row(s, "Hanna").main == F(4, 3)


def test_k_multiplies_neither_compensation_nor_extra_points():
    # Q1, Q2 black wins with Anna (red) killed first; Q3 red win with Boris killed first
    # naming three blacks. N = 3, heavy red (1 win), K = 1 + (1.5 - 1)/1.5 = 4/3.
    # Default gbf 3 -> 0.4*3 = 1.2 -> B = 1. Anna i = 2 > 1: Ci = 0.4, compensated twice.
    # Anna main = 0.8 + 4/3 = 32/15. Boris main 4/3, extra 0.4 (not 0.4*4/3).
    data = tournament(
        game("Q1", winner="black", first_killed=1),
        game("Q2", winner="black", first_killed=1),
        game("Q3", winner="red", first_killed=2, best_move=[8, 9, 10]),
    )
    s = standings_of(data)
    assert s.coefficient_k == F(4, 3)
    assert s.compensation_b == 1
    anna, boris = row(s, "Anna"), row(s, "Boris")
    assert anna.compensation == F(4, 5)
    assert anna.main == F(32, 15)
    assert (boris.main, boris.extra, boris.total) == (F(4, 3), F(2, 5), F(26, 15))


def test_k_covers_final_stage_games():
    # N counts all stages: Q1 red, F1 red, S1 black -> heavy black, K = 4/3.
    data = tournament(
        game("Q1"),
        game("S1", stage="semifinal", winner="black"),
        game("F1", stage="final"),
    )
    s = standings_of(data)
    assert s.coefficient_k == F(4, 3)
    assert row(s, "Hanna").main == F(4, 3)


# 8.8: total and ranking


def test_total_is_main_plus_extra_plus_penalties():
    data = tournament(
        game("Q1", judge_extra=[extra(1, 0.3)]), participants=NO_K, penalties=[fine("Anna", -1)]
    )
    r = row(standings_of(data), "Anna")
    assert (r.main, r.extra, r.penalties, r.total) == (1, F(3, 10), -1, F(3, 10))


def test_a_participant_fined_before_his_first_game_is_listed_with_his_penalty():
    # The web's scoring input: a registered participant fined twice for lateness
    # before any of his games is confirmed (a file refuses such a penalty).
    core = parse_tournament(tournament(game("Q1"), participants=NO_K))
    core = replace(
        core,
        penalties=(
            TournamentPenalty("Late", F(-1, 2), "round 1"),
            TournamentPenalty("Late", F(-1, 2), "round 2"),
        ),
    )
    s = compute_standings(core)
    late = row(s, "Late")
    assert (late.total, late.main, late.extra, late.penalties) == (-1, 0, 0, -1)
    assert (late.games, late.wins, late.first_night_deaths) == (0, 0, 0)
    # Below every player of the game: they have 0 or more, he has -1.
    assert late.rank == len(s.rows) == 11
    assert s.to_json()["standings"][-1]["player"] == "Late"


def test_a_fined_participant_without_games_is_ranked_below_the_stages_of_a_plan():
    plan = [
        {"stage": "qualifying", "games": 1, "advance": 10},
        {"stage": "final", "games": 1},
    ]
    core = parse_tournament(tournament(game("Q1"), participants=NO_K, stages=plan))
    core = replace(core, penalties=(TournamentPenalty("Late", F(-1), "late"),))
    s = compute_standings(core)
    late = row(s, "Late")
    assert (late.rank, late.total, late.stage, late.by_stage) == (11, -1, None, ())


def test_higher_total_ranks_first():
    data = tournament(game("Q1", judge_extra=[extra(8, 0.2)]), participants=NO_K)
    s = standings_of(data)
    # Red winners at 1 first; Hanna 0.2 next; Igor and Julia at 0 last.
    ranks = {r.player: r.rank for r in s.rows}
    assert max(ranks[n] for n in TEN[:7]) < ranks["Hanna"] < min(ranks["Igor"], ranks["Julia"])
    assert [r.rank for r in s.rows] == list(range(1, 11))


def test_tie_on_total_decided_by_extra_points_8_8_1():
    # Red win. Anna: 1 + judge 0.5 - tournament penalty 0.5 = 1.0, extra 0.5.
    # Gleb: 1.0, extra 0, but a sheriff win. 8.8.1 puts Anna first; were the tournament
    # penalty counted as extra (it is not), Gleb would win the tie by 8.8.3.
    data = tournament(
        game("Q1", judge_extra=[extra(1, 0.5)]),
        participants=NO_K,
        penalties=[fine("Anna", -0.5)],
    )
    s = standings_of(data)
    anna, gleb = row(s, "Anna"), row(s, "Gleb")
    assert anna.total == gleb.total == 1
    assert (anna.rank, gleb.rank) == (1, 2)
    assert not anna.decided_by_lot
    assert not gleb.decided_by_lot


def test_tie_on_extra_points_decided_by_wins_8_8_2():
    # Q1 red win on the default table; Q2 red win where Boris sits black.
    # Anna: 2 wins, main 2, tournament penalty -1 -> total 1, extra 0.
    # Boris: 1 win (Q1), main 1 -> total 1, extra 0. Anna has more wins.
    data = tournament(
        game("Q1"),
        game("Q2", roles="КЧККККШКЧД"),
        participants=NO_K,
        penalties=[fine("Anna", -1)],
    )
    s = standings_of(data)
    anna, boris = row(s, "Anna"), row(s, "Boris")
    assert (anna.total, anna.extra, anna.wins) == (1, 0, 2)
    assert (boris.total, boris.extra, boris.wins) == (1, 0, 1)
    assert anna.rank < boris.rank
    assert not anna.decided_by_lot


def test_tie_on_wins_decided_by_wins_as_don_or_sheriff_8_8_3():
    # Red win: Gleb (sheriff) and the six reds all have 1 point, 0 extra, 1 win.
    s = standings_of(tournament(game("Q1"), participants=NO_K))
    assert row(s, "Gleb").rank == 1
    assert not row(s, "Gleb").decided_by_lot
    assert all(row(s, n).rank > 1 for n in TEN[:6])


def test_don_win_decides_the_tie_8_8_3():
    s = standings_of(tournament(game("Q1", winner="black"), participants=NO_K))
    assert row(s, "Julia").rank == 1
    assert {row(s, "Hanna").rank, row(s, "Igor").rank} == {2, 3}


def test_tie_on_don_or_sheriff_wins_decided_by_first_night_deaths_8_8_4():
    # Red win, Anna killed first (no best move): Anna 1 point, 1 first-night death;
    # Boris..Fedor 1 point, none. Anna ranks right after Gleb.
    s = standings_of(tournament(game("Q1", first_killed=1), participants=NO_K))
    anna = row(s, "Anna")
    assert anna.first_night_deaths == 1
    assert anna.rank == 2
    assert not anna.decided_by_lot
    assert all(row(s, n).rank > 2 for n in TEN[1:6])


def test_first_night_deaths_in_any_role_count_8_8_4():
    # Black win, Hanna (black) killed first: Hanna ahead of Igor.
    s = standings_of(tournament(game("Q1", winner="black", first_killed=8), participants=NO_K))
    assert row(s, "Hanna").first_night_deaths == 1
    assert (row(s, "Julia").rank, row(s, "Hanna").rank, row(s, "Igor").rank) == (1, 2, 3)
    assert not row(s, "Igor").decided_by_lot


def test_first_night_deaths_of_replayed_games_do_not_count():
    data = tournament(
        game("R1", first_killed=2, replayed=True), game("Q1", first_killed=1), participants=NO_K
    )
    s = standings_of(data)
    assert row(s, "Boris").first_night_deaths == 0
    assert row(s, "Anna").first_night_deaths == 1


def test_full_tie_is_decided_by_lot_8_8_5():
    # Red win: Boris, Clara, Denis, Eva, Fedor share 1 point, 0 extra, 1 win, 0 don/sheriff
    # wins, 0 first-night deaths (Anna killed first is ahead of them). Hanna and Igor
    # share 0 of everything; Julia (don) ties with them too.
    t = parse_tournament(tournament(game("Q1", first_killed=1), participants=NO_K, lot_seed=7))
    s = compute_standings(t)
    by = rows_by_player(s)
    tied = {"Boris", "Clara", "Denis", "Eva", "Fedor"}
    assert {n for n, r in by.items() if r.decided_by_lot} == tied | {"Hanna", "Igor", "Julia"}
    assert sorted(by[n].rank for n in tied) == [3, 4, 5, 6, 7]
    assert sorted(by[n].rank for n in ("Hanna", "Igor", "Julia")) == [8, 9, 10]
    groups = {frozenset(g) for g in s.lot}
    assert groups == {frozenset(tied), frozenset({"Hanna", "Igor", "Julia"})}
    for group in s.lot:
        assert [by[n].rank for n in group] == sorted(by[n].rank for n in group)


def test_lot_is_reproducible_from_the_seed():
    data = tournament(game("Q1"), participants=NO_K, lot_seed=12345)
    first = [r.player for r in standings_of(data).rows]
    again = [r.player for r in standings_of(data).rows]
    assert first == again


def test_lot_depends_on_the_seed():
    # Five reds tied: 120 possible orders; twenty seeds should not all draw the same one.
    orders = {
        tuple(r.player for r in standings_of(tournament(game("Q1"), lot_seed=seed)).rows)
        for seed in range(20)
    }
    assert len(orders) > 1


def test_ranks_are_distinct_and_consecutive():
    s = standings_of(results("red", "black", "draw"))
    assert [r.rank for r in s.rows] == list(range(1, 11))


def test_every_player_is_listed_once():
    s = standings_of(tournament(game("Q1"), game("Q2", players=OTHER_TEN)))
    assert sorted(r.player for r in s.rows) == sorted(TEN + OTHER_TEN)


def test_games_count_only_counted_games():
    data = tournament(game("Q1"), game("Q2"), game("R1", replayed=True), game("F1", stage="final"))
    assert all(r.games == 3 for r in standings_of(data).rows)


def test_standings_name_the_tournament():
    assert standings_of(tournament(game("Q1"), name="Spring Cup")).tournament == "Spring Cup"


def test_json_output_rounds_to_two_decimals_halves_up():
    # Red win: Anna judge 0.125 -> extra 0.125 shown 0.13, total 1.125 shown 1.13.
    # Hanna judge 0.115 (loser) -> 0.12 (half up, not to even: 0.115 -> 0.12 either way);
    # Gleb judge 0.005 -> 0.01, total 1.005 -> 1.01 (binary floats would give 1.0).
    data = tournament(
        game("Q1", judge_extra=[extra(1, 0.125), extra(8, 0.115), extra(7, 0.005)]),
        participants=NO_K,
    )
    s = standings_of(data)
    assert row(s, "Anna").total == F(9, 8)
    out = {r["player"]: r for r in s.to_json()["standings"]}
    assert (out["Anna"]["total"], out["Anna"]["extra"]) == (1.13, 0.13)
    assert (out["Hanna"]["total"], out["Hanna"]["extra"]) == (0.12, 0.12)
    assert (out["Gleb"]["total"], out["Gleb"]["extra"]) == (1.01, 0.01)
    assert out["Boris"]["total"] == 1.0


def test_json_output_names_the_heavy_side_and_shows_k():
    out = standings_of(results("red", "red", "red", "black", "black")).to_json()
    assert (out["coefficient_k"], out["heavy_side"], out["compensation_b"]) == (1.2, "black", 2)
    out = standings_of(results("red", "black", participants=NO_K)).to_json()
    assert (out["coefficient_k"], out["heavy_side"]) == (1.0, None)


LOT_ORDER = """
import json, sys
from mafiatab.core.standings import compute_standings
from mafiatab.core.tournament_file import parse_tournament
standings = compute_standings(parse_tournament(json.load(sys.stdin)))
print(json.dumps([r.player for r in standings.rows]))
"""


def test_lot_is_the_same_in_every_process():
    # String hashing differs between processes (PYTHONHASHSEED); the lot must not.
    data = json.dumps(tournament(game("Q1"), game("Q2", players=OTHER_TEN), lot_seed=99))
    orders = set()
    for hash_seed in ("1", "2", "3"):
        result = subprocess.run(
            [sys.executable, "-c", LOT_ORDER],
            input=data,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        orders.add(result.stdout)
    assert len(orders) == 1
    assert json.loads(orders.pop()) == [r.player for r in standings_of(json.loads(data)).rows]
