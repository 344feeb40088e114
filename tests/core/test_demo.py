"""The bundled demo tournament: valid, complete, and showing every case it promises."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from mafiatab.core.demo import DEMO_FILE, TABLE_IN_PLAY, demo_tournament, demo_tournament_dict
from mafiatab.core.protocol import Protocol, Tournament
from mafiatab.core.roles import Role, Stage, Winner

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo() -> Tournament:
    return demo_tournament()


def counted(tournament: Tournament) -> list[Protocol]:
    return [g for g in tournament.games if not g.replayed]


def test_demo_is_an_online_tournament_of_thirty_players(demo: Tournament) -> None:
    assert demo.name == "ONLINE WINTER CUP 2025"
    assert demo.ruleset == "fiim-online"
    assert len(demo.player_names()) == 30
    assert demo.participants == 30
    assert demo.games_before_final == 10


def test_demo_has_31_counted_games_and_one_replayed(demo: Tournament) -> None:
    stages = Counter(g.stage for g in counted(demo))
    assert stages == {Stage.QUALIFYING: 30, Stage.FINAL: 1}
    assert len([g for g in demo.games if g.replayed]) == 1


def test_every_player_plays_each_seat_once_in_qualifying(demo: Tournament) -> None:
    seats: dict[str, list[int]] = {}
    for game in counted(demo):
        if game.stage is Stage.QUALIFYING:
            for number, nick in enumerate(game.players, 1):
                seats.setdefault(nick, []).append(number)
    assert {nick: sorted(s) for nick, s in seats.items()} == {
        nick: list(range(1, 11)) for nick in demo.player_names()
    }


def test_red_wins_slightly_more_often_than_black(demo: Tournament) -> None:
    results = Counter(g.winner for g in counted(demo))
    assert results[Winner.RED] > results[Winner.BLACK] > 0
    assert 1 <= results[Winner.DRAW] <= 2


def test_replayed_game_carries_a_removal_and_is_replayed_by_the_same_players(
    demo: Tournament,
) -> None:
    (replayed,) = [g for g in demo.games if g.replayed]
    assert replayed.disqualified
    replays = [
        g
        for g in counted(demo)
        if (g.round, g.table, g.stage) == (replayed.round, replayed.table, replayed.stage)
    ]
    assert len(replays) == 1
    assert replays[0].players == replayed.players


def test_demo_has_an_ordinary_an_online_and_a_waived_removal(demo: Tournament) -> None:
    removals = [r for g in counted(demo) for r in g.disqualified]
    kinds = {(r.online, r.fined) for r in removals}
    assert kinds == {(False, True), (True, True), (True, False)}
    assert any("ALT+TAB" in r.reason for r in removals if r.online)


def test_fourth_foul_removal_shows_four_fouls(demo: Tournament) -> None:
    removals = [(g, r) for g in demo.games for r in g.disqualified if "четвёртый фол" in r.reason]
    assert removals
    assert all(g.fouls[r.seat - 1] == 4 for g, r in removals)


def test_demo_has_penalties_of_section_8_5_that_fit_their_rules(demo: Tournament) -> None:
    penalties = [(g, p) for g in counted(demo) for p in g.penalties]
    assert {p.rule for _, p in penalties} >= {"8.5.1", "8.5.4"}
    for game, penalty in penalties:
        if penalty.rule == "8.5.1":
            assert game.winner is Winner.BLACK
            assert game.roles[penalty.seat - 1] in (Role.RED, Role.SHERIFF)


def test_judge_extras_all_have_reasons_and_one_needs_the_chief(demo: Tournament) -> None:
    extras = [e for g in counted(demo) for e in g.judge_extra]
    assert len(extras) > 30
    assert all(e.reason.strip() for e in extras)
    assert [e.points for e in extras if e.chief_approved] == [Fraction(3, 5)]


def test_first_night_has_misses_and_best_moves(demo: Tournament) -> None:
    games = counted(demo)
    assert any(g.first_killed is None for g in games)
    assert any(len(g.best_move) == 3 for g in games)
    assert all(g.first_killed not in g.best_move for g in games)


def test_demo_has_lateness_and_lobby_penalties(demo: Tournament) -> None:
    reasons = [p.reason for p in demo.penalties if p.points == Fraction(-1, 2)]
    assert sum("опоздание" in r for r in reasons) >= 2
    assert any("лобби" in r for r in reasons)


def test_demo_dict_is_a_fresh_copy_each_call() -> None:
    first = demo_tournament_dict()
    first["games"].clear()
    assert len(demo_tournament_dict()["games"]) == 32


def test_demo_standings_rank_every_player(demo: Tournament) -> None:
    from mafiatab.core.standings import compute_standings

    standings = compute_standings(demo)
    assert [row.rank for row in standings.rows] == list(range(1, 31))
    assert Counter(row.games for row in standings.rows) == {11: 10, 10: 20}
    assert standings.compensation_b == 4
    assert standings.coefficient_k == 1


def test_finalists_are_the_ten_best_after_qualifying(demo: Tournament) -> None:
    from mafiatab.core.standings import compute_standings

    qualifying = dataclasses.replace(
        demo, games=tuple(g for g in demo.games if g.stage is Stage.QUALIFYING)
    )
    rows = compute_standings(qualifying).rows
    (final,) = [g for g in demo.games if g.stage is Stage.FINAL]
    assert {row.player for row in rows[:10]} == set(final.players)


def test_removal_of_the_replayed_game_still_costs_the_player(demo: Tournament) -> None:
    from mafiatab.core.scoring import explain

    (replayed,) = [g for g in demo.games if g.replayed]
    (removal,) = replayed.disqualified
    player = replayed.players[removal.seat - 1]
    lines = [line for line in explain(demo, player) if line.game == replayed.id]
    assert [line.points for line in lines] == [Fraction(-1, 2)]


def test_bundled_file_is_what_the_generator_writes(tmp_path: Path) -> None:
    output = tmp_path / DEMO_FILE
    script = ROOT / "scripts" / "make_demo_tournament.py"
    subprocess.run([sys.executable, str(script), "-o", str(output)], check=True)
    bundled = ROOT / "mafiatab" / "core" / "data" / DEMO_FILE
    assert output.read_bytes() == bundled.read_bytes()


def test_the_demo_final_in_play_follows_a_williams_square_from_its_first_game():
    core = demo_tournament()
    first = next(g for g in core.games if g.stage is TABLE_IN_PLAY.stage).players
    second = TABLE_IN_PLAY.seats(core)
    assert sorted(second) == sorted(first)
    assert all(a != b for a, b in zip(first, second, strict=True))  # everyone moved seat

    def after(order):  # who sits right after whom (seat 1 not after seat 10)
        return {(order[i], order[i + 1]) for i in range(len(order) - 1)}

    assert not after(first) & after(second)
