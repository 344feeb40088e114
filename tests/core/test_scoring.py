"""Points of one game (8.2-8.5), compensation (8.6) and replays, computed by hand.

Default table (see factories): seats 1-6 red Anna, Boris, Clara, Denis, Eva, Fedor;
seat 7 sheriff Gleb; seats 8-9 black Hanna, Igor; seat 10 don Julia.
Unless a test is about 8.7, `participants=100` switches the coefficient K off.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mafiatab.core.regulations import FIIM
from mafiatab.core.scoring import explain, score_game
from mafiatab.core.tournament_file import parse_tournament

from .factories import TEN, extra, fine, game, penalty, removal, row, standings_of, tournament

F = Fraction
NO_K = 100


def one_game(ruleset: str = "fiim", **kwargs: object) -> dict[str, object]:
    return tournament(game("G1", **kwargs), ruleset=ruleset, participants=NO_K)  # type: ignore[arg-type]


# 8.2.1-8.2.3: win points


def test_red_win_gives_every_red_and_the_sheriff_one_point():
    s = standings_of(one_game(winner="red"))
    for nick in ("Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb"):
        r = row(s, nick)
        assert (r.main, r.extra, r.total, r.wins) == (1, 0, 1, 1), nick
    for nick in ("Hanna", "Igor", "Julia"):
        r = row(s, nick)
        assert (r.main, r.extra, r.total, r.wins) == (0, 0, 0, 0), nick


def test_black_win_gives_both_blacks_and_the_don_one_point():
    s = standings_of(one_game(winner="black"))
    for nick in ("Hanna", "Igor", "Julia"):
        assert (row(s, nick).main, row(s, nick).wins) == (1, 1), nick
    for nick in ("Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb"):
        assert (row(s, nick).main, row(s, nick).wins) == (0, 0), nick


def test_draw_gives_nobody_points():
    s = standings_of(one_game(winner="draw"))
    assert all((r.total, r.main, r.extra, r.wins) == (0, 0, 0, 0) for r in s.rows)
    assert len(s.rows) == 10


def test_wins_as_don_or_sheriff_count_only_won_games_in_those_roles():
    red = standings_of(one_game(winner="red"))
    black = standings_of(one_game(winner="black"))
    assert row(red, "Gleb").wins_as_don_or_sheriff == 1
    assert row(red, "Julia").wins_as_don_or_sheriff == 0
    assert row(red, "Anna").wins_as_don_or_sheriff == 0
    assert row(black, "Julia").wins_as_don_or_sheriff == 1
    assert row(black, "Gleb").wins_as_don_or_sheriff == 0
    assert row(black, "Hanna").wins_as_don_or_sheriff == 0


def test_protocol_letters_are_read_as_roles():
    # Д К К К К К Ш К Ч Ч: Anna don, Gleb sheriff, Hanna red, Igor and Julia black.
    data = tournament(
        game("G1", winner="black"),
        participants=NO_K,
    )
    data["games"][0]["seats"] = [
        {"player": nick, "role": letter} for nick, letter in zip(TEN, "ДКККККШКЧЧ", strict=True)
    ]
    s = standings_of(data)
    assert (row(s, "Anna").main, row(s, "Anna").wins_as_don_or_sheriff) == (1, 1)
    assert (row(s, "Julia").main, row(s, "Julia").wins_as_don_or_sheriff) == (1, 0)
    assert (row(s, "Hanna").main, row(s, "Gleb").main) == (0, 0)


# 8.2.4: removal


def test_removed_player_loses_half_a_point_as_extra():
    # Anna (red) removed, red wins: main 1 (the team result applies), extra -0.5, total 0.5.
    s = standings_of(one_game(winner="red", disqualified=[removal(1)]))
    r = row(s, "Anna")
    assert (r.main, r.extra, r.total, r.wins) == (1, F(-1, 2), F(1, 2), 1)


def test_removed_player_of_losing_team_gets_minus_half():
    s = standings_of(one_game(winner="red", disqualified=[removal(9)]))
    assert (row(s, "Igor").main, row(s, "Igor").extra, row(s, "Igor").total) == (
        0,
        F(-1, 2),
        F(-1, 2),
    )


def test_online_removal_costs_point_eight_against_ordinary_half():
    # fiim-online, black wins. Anna (red) online removal: 0 - 0.8 = -0.8.
    # Boris (red) ordinary removal: 0 - 0.5 = -0.5. Hanna (black) online: 1 - 0.8 = 0.2.
    data = one_game(
        "fiim-online",
        winner="black",
        disqualified=[removal(1, online=True), removal(2), removal(8, online=True)],
    )
    s = standings_of(data)
    assert (row(s, "Anna").extra, row(s, "Anna").total) == (F(-4, 5), F(-4, 5))
    assert (row(s, "Boris").extra, row(s, "Boris").total) == (F(-1, 2), F(-1, 2))
    assert (row(s, "Hanna").main, row(s, "Hanna").extra, row(s, "Hanna").total) == (
        1,
        F(-4, 5),
        F(1, 5),
    )


def test_offline_removal_in_online_tournament_is_half_a_point():
    s = standings_of(one_game("fiim-online", winner="draw", disqualified=[removal(3)]))
    assert row(s, "Clara").extra == F(-1, 2)


def test_waived_removal_fine_costs_nothing():
    # fined false: the removal is recorded, its fine waived (online addendum, time-out item 7).
    data = one_game(
        "fiim-online",
        winner="red",
        disqualified=[removal(1, online=True, fined=False), removal(2, fined=False)],
    )
    s = standings_of(data)
    assert (row(s, "Anna").extra, row(s, "Anna").total) == (0, 1)
    assert (row(s, "Boris").extra, row(s, "Boris").total) == (0, 1)


def test_fouls_without_a_removal_cost_nothing():
    s = standings_of(one_game(winner="red", fouls=[3, 3, 0, 0, 0, 0, 0, 3, 0, 0]))
    assert (row(s, "Anna").extra, row(s, "Anna").total) == (0, 1)
    assert (row(s, "Hanna").extra, row(s, "Hanna").total) == (0, 0)


# 8.3: best move


@pytest.mark.parametrize(
    ("best_move", "expected"),
    [
        ([8, 9, 10], F(2, 5)),  # black, black, don: three blacks -> +0.4
        ([10, 9, 2], F(1, 4)),  # don, black, red: two blacks -> +0.25
        ([8, 9, 2], F(1, 4)),  # two blacks -> +0.25
        ([8, 10], F(1, 4)),  # two seats, both black -> +0.25
        ([8, 2, 3], F(0)),  # one black -> 0
        ([2, 3, 4], F(0)),  # no black -> 0
        ([], F(0)),  # nothing named -> 0
    ],
    ids=["three", "two-with-don", "two", "two-of-two", "one", "none", "empty"],
)
def test_best_move_points_by_blacks_named(best_move, expected):
    # Anna (seat 1, red) killed in the first night; a draw, so no win points and no 8.6.
    s = standings_of(one_game(winner="draw", first_killed=1, best_move=best_move))
    assert row(s, "Anna").extra == expected
    assert row(s, "Anna").total == expected
    assert row(s, "Anna").main == 0


def test_best_move_of_three_blacks_with_red_win_adds_to_win_point():
    # 1 (win) + 0.4 (best move) = 1.4
    s = standings_of(one_game(winner="red", first_killed=1, best_move=[8, 9, 10]))
    r = row(s, "Anna")
    assert (r.main, r.extra, r.total) == (1, F(2, 5), F(7, 5))


def test_best_move_of_the_sheriff_counts():
    s = standings_of(one_game(winner="draw", first_killed=7, best_move=[8, 9, 3]))
    assert row(s, "Gleb").extra == F(1, 4)


def test_best_move_is_given_in_a_black_win_too():
    # Anna killed first, black wins: +0.4 extra; her compensation is main, not extra.
    s = standings_of(one_game(winner="black", first_killed=1, best_move=[8, 9, 10]))
    assert row(s, "Anna").extra == F(2, 5)


@pytest.mark.parametrize("killed", [8, 10], ids=["black", "don"])
def test_black_killed_first_gets_nothing_for_best_move(killed):
    # Hanna (black) names Igor, Julia and Anna: two blacks, but a black gets nothing.
    others = [s for s in (8, 9, 10, 1) if s != killed][:3]
    s = standings_of(one_game(winner="draw", first_killed=killed, best_move=others))
    nick = {8: "Hanna", 10: "Julia"}[killed]
    assert row(s, nick).extra == 0
    assert row(s, nick).total == 0


def test_best_move_points_go_only_to_the_first_killed_player():
    s = standings_of(one_game(winner="draw", first_killed=1, best_move=[8, 9, 10]))
    assert sum(r.extra for r in s.rows) == F(2, 5)


# 8.4: judge extra points


def test_judge_extra_points_are_added_as_extra():
    # red wins: Anna 0.6 (approved) + Hanna (loser) 0.4 = 1.0 in total, the cap.
    # Anna: 1 + 0.6 = 1.6; Hanna: 0 + 0.4 = 0.4.
    data = one_game(winner="red", judge_extra=[extra(1, 0.6, chief_approved=True), extra(8, 0.4)])
    s = standings_of(data)
    assert (row(s, "Anna").main, row(s, "Anna").extra, row(s, "Anna").total) == (
        1,
        F(3, 5),
        F(8, 5),
    )
    assert (row(s, "Hanna").extra, row(s, "Hanna").total) == (F(2, 5), F(2, 5))


def test_judge_extra_points_are_exact_decimals():
    # 0.56 + 0.34 + 0.1 is 1.0000000000000002 in binary floats, exactly 1.0 in decimals.
    data = one_game(
        winner="red",
        judge_extra=[extra(1, 0.56, chief_approved=True), extra(2, 0.34), extra(8, 0.1)],
    )
    s = standings_of(data)
    assert row(s, "Anna").extra == F(56, 100)
    assert row(s, "Boris").extra == F(34, 100)
    assert row(s, "Hanna").extra == F(1, 10)


def test_judge_extra_of_half_point_needs_no_approval():
    s = standings_of(one_game(winner="black", judge_extra=[extra(10, 0.5)]))
    assert row(s, "Julia").total == F(3, 2)


def test_winner_may_get_point_seven_with_the_chief_judges_approval():
    s = standings_of(one_game(winner="black", judge_extra=[extra(8, 0.7, chief_approved=True)]))
    assert row(s, "Hanna").extra == F(7, 10)


# 8.5: penalties for negative actions


@pytest.mark.parametrize(
    ("seat", "rule", "winner", "nick", "main"),
    [
        (1, "8.5.1", "black", "Anna", 0),  # red broke at ten, red lost: 0 - 0.4
        (7, "8.5.1", "black", "Gleb", 0),  # sheriff, same clause
        (2, "8.5.2", "red", "Boris", 1),  # red broke at four; red still won: 1 - 0.4
        (2, "8.5.2", "black", "Boris", 0),  # 8.5.2 needs no result: 0 - 0.4
        (2, "8.5.2", "draw", "Boris", 0),
        (3, "8.5.3", "black", "Clara", 0),  # red false check, red lost
        (7, "8.5.3", "black", "Gleb", 0),  # sheriff false check, red lost
        (10, "8.5.4", "red", "Julia", 0),  # don claimed sheriff, black lost
        (9, "8.5.4", "red", "Igor", 0),  # black claimed sheriff, black lost
    ],
)
def test_negative_action_costs_point_four_as_extra(seat, rule, winner, nick, main):
    s = standings_of(one_game(winner=winner, penalties=[penalty(seat, rule)]))
    r = row(s, nick)
    assert r.extra == F(-2, 5)
    assert r.main == main
    assert r.total == main - F(2, 5)


def test_two_negative_actions_of_one_player_cost_point_eight():
    # 8.5.1 and 8.5.3 for Boris in a black win: -0.4 - 0.4 = -0.8
    data = one_game(winner="black", penalties=[penalty(2, "8.5.1"), penalty(2, "8.5.3")])
    assert row(standings_of(data), "Boris").extra == F(-4, 5)


def test_all_kinds_of_extra_points_add_up():
    # Red wins. Anna first killed with three blacks (+0.4), judge 0.5 (+0.5) = +0.9;
    # Boris 8.5.2 (-0.4) and removed (-0.5) = -0.9; totals 1.9 and 0.1.
    data = one_game(
        winner="red",
        first_killed=1,
        best_move=[8, 9, 10],
        judge_extra=[extra(1, 0.5)],
        penalties=[penalty(2, "8.5.2")],
        disqualified=[removal(2)],
    )
    s = standings_of(data)
    assert (row(s, "Anna").extra, row(s, "Anna").total) == (F(9, 10), F(19, 10))
    assert (row(s, "Boris").extra, row(s, "Boris").total) == (F(-9, 10), F(1, 10))


# 8.6: compensation for first-night kills

ANNA_KILLED_TWICE_IN_BLACK_WINS = (
    game("Q1", winner="black", first_killed=1),
    game("Q2", winner="black", first_killed=1),
    game("Q3", winner="red", first_killed=1),  # counts in i, not compensated
)


def test_compensation_with_i_not_above_b():
    # games_before_final 10 -> B = round(4.0) = 4. Anna: i = 3 <= 4, Ci = 0.4*3/4 = 0.3,
    # given in Q1 and Q2 (black wins): 0.6. Main = 0.6 + 1 (Q3 win) = 1.6.
    data = tournament(*ANNA_KILLED_TWICE_IN_BLACK_WINS, participants=NO_K, games_before_final=10)
    s = standings_of(data)
    r = row(s, "Anna")
    assert s.compensation_b == 4
    assert r.compensation == F(3, 5)
    assert r.main == F(8, 5)
    assert r.extra == 0
    assert r.first_night_deaths == 3


def test_compensation_with_i_above_b_is_point_four_a_game():
    # games_before_final 5 -> B = round(2.0) = 2. Anna: i = 3 > 2, Ci = 0.4, twice: 0.8.
    # Main = 0.8 + 1 = 1.8.
    data = tournament(*ANNA_KILLED_TWICE_IN_BLACK_WINS, participants=NO_K, games_before_final=5)
    s = standings_of(data)
    assert s.compensation_b == 2
    assert row(s, "Anna").compensation == F(4, 5)
    assert row(s, "Anna").main == F(9, 5)


def test_compensation_with_i_equal_to_b_is_point_four():
    # games_before_final 7 -> 0.4*7 = 2.8 -> B = 3. i = 3 = B: Ci = 0.4*3/3 = 0.4; twice: 0.8.
    data = tournament(*ANNA_KILLED_TWICE_IN_BLACK_WINS, participants=NO_K, games_before_final=7)
    s = standings_of(data)
    assert s.compensation_b == 3
    assert row(s, "Anna").compensation == F(4, 5)


@pytest.mark.parametrize(
    ("games_before_final", "b", "ci"),
    [
        (4, 2, F(1, 5)),  # 0.4*4 = 1.6 rounds up to 2: Ci = 0.4*1/2 = 0.2
        (6, 2, F(1, 5)),  # 0.4*6 = 2.4 rounds down to 2: Ci = 0.2
        (9, 4, F(1, 10)),  # 0.4*9 = 3.6 -> 4: Ci = 0.4*1/4 = 0.1
        (1, 0, F(2, 5)),  # 0.4*1 = 0.4 -> B = 0: i = 1 > 0, Ci = 0.4
    ],
)
def test_b_is_forty_percent_rounded_to_nearest(games_before_final, b, ci):
    # One black win, Anna (red) killed in the first night: i = 1.
    data = tournament(
        game("Q1", winner="black", first_killed=1),
        participants=NO_K,
        games_before_final=games_before_final,
    )
    s = standings_of(data)
    assert s.compensation_b == b
    assert row(s, "Anna").compensation == ci
    assert row(s, "Anna").main == ci


def test_compensation_with_b_zero_by_default_on_a_single_game():
    # Default games_before_final: 1 counted qualifying game each -> B = round(0.4) = 0.
    # Anna i = 1 > B: Ci = 0.4.
    s = standings_of(one_game(winner="black", first_killed=1))
    assert s.compensation_b == 0
    assert row(s, "Anna").compensation == F(2, 5)
    assert row(s, "Anna").total == F(2, 5)


def test_default_games_before_final_is_the_most_counted_qualifying_games_of_a_player():
    # Three qualifying games, one semifinal, one final, one replayed qualifying:
    # every player has 4 counted games before the final -> 0.4*4 = 1.6 -> B = 2.
    data = tournament(
        game("Q1", winner="black", first_killed=1),
        game("Q2", winner="red"),
        game("Q3", winner="red"),
        game("S1", stage="semifinal", winner="red"),
        game("F1", stage="final", winner="red"),
        game("Q4", winner="red", replayed=True),
        participants=NO_K,
    )
    s = standings_of(data)
    assert s.compensation_b == 2
    # Anna i = 1 <= 2: Ci = 0.4*1/2 = 0.2
    assert row(s, "Anna").compensation == F(1, 5)


def test_red_win_is_not_compensated():
    # Anna killed first, red wins: i = 1 but no compensated game; main = 1 (win).
    s = standings_of(one_game(winner="red", first_killed=1))
    assert row(s, "Anna").compensation == 0
    assert row(s, "Anna").main == 1


def test_draw_is_not_compensated_but_counts_in_i():
    # gbf 5 -> B = 2. Anna killed first in a draw (Q1) and a black win (Q2): i = 2 <= 2,
    # Ci = 0.4*2/2 = 0.4, given only in Q2. Were the draw left out of i: Ci = 0.2.
    data = tournament(
        game("Q1", winner="draw", first_killed=1),
        game("Q2", winner="black", first_killed=1),
        participants=NO_K,
        games_before_final=5,
    )
    assert row(standings_of(data), "Anna").compensation == F(2, 5)


def test_sheriff_killed_first_is_compensated():
    s = standings_of(one_game(winner="black", first_killed=7))
    assert row(s, "Gleb").compensation == F(2, 5)


@pytest.mark.parametrize("killed", [8, 9, 10])
def test_black_killed_first_is_never_compensated(killed):
    # A black player killed first whose team lost (red win): no 8.6 points at all.
    s = standings_of(one_game(winner="red", first_killed=killed))
    assert all(r.compensation == 0 for r in s.rows)


def test_final_stage_is_neither_compensated_nor_counted_in_i():
    # gbf 10 -> B = 4. Anna killed first in Q1 (black win) and F1 (black win):
    # i counts only Q1 -> 1, Ci = 0.4*1/4 = 0.1, given only in Q1.
    # (Were F1 counted in i: Ci = 0.2; were it compensated: 0.2 in total.)
    data = tournament(
        game("Q1", winner="black", first_killed=1),
        game("F1", stage="final", winner="black", first_killed=1),
        participants=NO_K,
        games_before_final=10,
    )
    s = standings_of(data)
    assert row(s, "Anna").compensation == F(1, 10)
    assert row(s, "Anna").main == F(1, 10)


def test_semifinal_is_compensated_and_counted():
    # gbf 5 -> B = 2. Anna killed first in Q1 and S1, both black wins: i = 2, Ci = 0.4;
    # compensation 0.8.
    data = tournament(
        game("Q1", winner="black", first_killed=1),
        game("S1", stage="semifinal", winner="black", first_killed=1),
        participants=NO_K,
        games_before_final=5,
    )
    assert row(standings_of(data), "Anna").compensation == F(4, 5)


def test_compensation_is_main_points_not_extra():
    s = standings_of(one_game(winner="black", first_killed=1))
    r = row(s, "Anna")
    assert (r.main, r.extra, r.compensation) == (F(2, 5), 0, F(2, 5))


# Replayed games (online addendum)


def test_replayed_game_counts_for_nothing_but_its_removal_fines():
    # fiim-online. R1 replayed (black win): Boris online removal -0.8 and Clara removal -0.5
    # carry over; Hanna's judge 0.4, Denis's 8.5.1, Anna's best move and first-night kill
    # are annulled. G2 (red win) counts.
    data = tournament(
        game(
            "R1",
            winner="black",
            first_killed=1,
            best_move=[8, 9, 10],
            judge_extra=[extra(8, 0.4)],
            penalties=[penalty(4, "8.5.1")],
            disqualified=[removal(2, online=True), removal(3)],
            replayed=True,
        ),
        game("G2", winner="red"),
        ruleset="fiim-online",
        participants=NO_K,
    )
    s = standings_of(data)
    anna, boris, clara, denis, hanna = (
        row(s, n) for n in ("Anna", "Boris", "Clara", "Denis", "Hanna")
    )
    assert (anna.total, anna.extra, anna.compensation, anna.first_night_deaths) == (1, 0, 0, 0)
    assert (boris.main, boris.extra, boris.total) == (1, F(-4, 5), F(1, 5))
    assert (clara.extra, clara.total) == (F(-1, 2), F(1, 2))
    assert (denis.extra, denis.total) == (0, 1)
    assert (hanna.main, hanna.extra, hanna.total, hanna.wins) == (0, 0, 0, 0)
    assert all(r.games == 1 for r in s.rows)


def test_waived_removal_in_replayed_game_carries_nothing():
    data = tournament(
        game("R1", winner="red", disqualified=[removal(2, fined=False)], replayed=True),
        participants=NO_K,
    )
    assert row(standings_of(data), "Boris").total == 0


def test_player_seated_only_in_a_replayed_game_is_listed_with_no_games():
    others = ("Anna", "Boris", "Clara", "Denis", "Zed", "Fedor", "Gleb", "Hanna", "Igor", "Julia")
    data = tournament(
        game("R1", winner="red", players=others, disqualified=[removal(5)], replayed=True),
        game("G2", winner="red"),
        participants=NO_K,
    )
    s = standings_of(data)
    zed = row(s, "Zed")
    assert (zed.games, zed.wins, zed.main, zed.extra, zed.total) == (0, 0, 0, F(-1, 2), F(-1, 2))
    assert row(s, "Eva").games == 1
    assert len(s.rows) == 11


def test_replayed_game_applies_to_fiim_tournaments_too():
    data = tournament(
        game("R1", winner="black", disqualified=[removal(8)], replayed=True),
        participants=NO_K,
    )
    s = standings_of(data)
    assert (row(s, "Hanna").main, row(s, "Hanna").extra) == (0, F(-1, 2))


# Tournament-level penalties


def test_tournament_penalty_is_neither_main_nor_extra():
    # Red win, Anna fined -0.5 for lateness: total 1 - 0.5 = 0.5, extra 0.
    data = tournament(game("G1"), participants=NO_K, penalties=[fine("Anna", -0.5)])
    r = row(standings_of(data), "Anna")
    assert (r.main, r.extra, r.penalties, r.total) == (1, 0, F(-1, 2), F(1, 2))


def test_tournament_penalties_of_one_player_add_up():
    data = tournament(
        game("G1"),
        participants=NO_K,
        penalties=[fine("Hanna", -0.5), fine("Hanna", -0.25), fine("Hanna", 0)],
    )
    r = row(standings_of(data), "Hanna")
    assert (r.penalties, r.total) == (F(-3, 4), F(-3, 4))


# score_game and explain


def test_score_game_lists_extra_points_with_their_clauses():
    t = parse_tournament(
        one_game(
            winner="red",
            first_killed=1,
            best_move=[8, 9, 10],
            judge_extra=[extra(2, 0.3)],
            penalties=[penalty(4, "8.5.2")],
            disqualified=[removal(5)],
        )
    )
    lines = score_game(t.games[0], FIIM)
    extras = {(ln.player, ln.clause[:3]): ln.points for ln in lines if ln.kind == "extra"}
    assert extras == {
        ("Anna", "8.3"): F(2, 5),
        ("Boris", "8.4"): F(3, 10),
        ("Denis", "8.5"): F(-2, 5),
        ("Eva", "8.2"): F(-1, 2),
    }
    assert all(ln.game == "G1" for ln in lines)
    wins = {ln.player: ln.points for ln in lines if ln.kind == "main"}
    assert wins == dict.fromkeys(("Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb"), 1)


def test_explain_names_clause_and_game_of_every_line():
    data = tournament(
        game("Q2-T1", winner="draw", first_killed=1, best_move=[8, 9, 10]),
        game("Q3-T1", winner="black", penalties=[penalty(1, "8.5.1")]),
        participants=NO_K,
        penalties=[fine("Anna", -0.25, "late 7 minutes")],
    )
    lines = explain(parse_tournament(data), "Anna")
    by_game = {(ln.game, ln.kind): ln for ln in lines if ln.points != 0}
    best = by_game[("Q2-T1", "extra")]
    assert best.clause.startswith("8.3")
    assert best.points == F(2, 5)
    assert "8.3" in str(best)
    assert "Q2-T1" in str(best)
    assert "0.40" in str(best)
    assert by_game[("Q3-T1", "extra")].clause == "8.5.1"
    assert by_game[("Q3-T1", "extra")].points == F(-2, 5)
    assert by_game[(None, "penalty")].points == F(-1, 4)
    assert sum(ln.points for ln in lines) == F(2, 5) - F(2, 5) - F(1, 4)
    assert all(ln.player == "Anna" for ln in lines)


def test_a_game_scored_on_its_own_shows_no_compensation_the_standings_give():
    t = parse_tournament(one_game(winner="black", first_killed=1))
    alone = {ln.clause for ln in score_game(t.games[0], FIIM) if ln.player == "Anna"}
    assert "8.6" not in alone
    assert any(ln.clause == "8.6" for ln in explain(t, "Anna"))
