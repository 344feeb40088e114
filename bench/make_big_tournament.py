"""Generate a large valid `mafiatab-tournament/1` file for the standings benchmark.

    .venv/bin/python bench/make_big_tournament.py --players 2000 --games 20000 --seed 1 -o FILE

A `fiim-online` tournament: qualifying rounds of players/10 tables (every player
plays every round, seats shuffled each round), then a final stage of the ten
players with the most qualifying wins. The protocols are random but valid, in the
style of the bundled demo: judge extra points with reasons, 8.5 penalties that fit
their rules, ordinary and online removals, a few replayed games followed by their
replay, lateness penalties. The same arguments always write the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

DECK = ("red",) * 6 + ("sheriff", "black", "black", "don")
RED_TEAM = frozenset({"red", "sheriff"})
FINAL_GAMES = 10
BASES = (
    "Кошмар", "Doc", "Лис", "Smile", "Ведьма", "Тень", "Shadow", "Маэстро", "Кэп",
    "Ласточка", "Joker", "Фантом", "Lucky", "Граф", "Пилот", "Misty", "Сова", "Ronin",
    "Кактус", "Nika", "Профессор", "Алхимик", "Zloy", "Гроза", "Бармалей", "Вишня",
)  # fmt: skip
JUDGES = tuple(f"Судья {n}" for n in range(1, 41))
REASONS = (
    "верная версия с первого дня",
    "точные проверки и уверенное ведение стола",
    "отличная игра в красную",
    "нашёл шерифа в первую ночь",
    "лучшая речь стола",
)
RULES = {  # rule: (roles allowed, required winner)
    "8.5.1": (("red", "sheriff"), "black"),
    "8.5.2": (("red",), None),
    "8.5.3": (("red", "sheriff"), "black"),
    "8.5.4": (("black", "don"), "red"),
}
REMOVALS = (
    ("четвёртый фол", False, True),
    ("переключение вкладок (ALT+TAB)", True, True),
    ("отсутствие в кадре после тайм-аута", True, False),
)


def nicknames(count: int, rng: random.Random) -> list[str]:
    names = [f"{BASES[i % len(BASES)]} {i // len(BASES) + 1}" for i in range(count)]
    rng.shuffle(names)
    return names


class GameMaker:
    """Random valid protocols; one instance per file, so the output is reproducible."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def game(self, gid: str, stage: str, round_: int, table: int, players: list[str]) -> dict:
        rng = self.rng
        roles = rng.sample(DECK, 10)
        winner = rng.choices(("red", "black", "draw"), weights=(55, 41, 4))[0]
        fouls = rng.choices((0, 1, 2, 3), weights=(55, 28, 12, 5), k=10)
        seats = [
            {"player": p, "role": r, "fouls": f}
            for p, r, f in zip(players, roles, fouls, strict=True)
        ]
        game: dict[str, Any] = {
            "id": gid,
            "stage": stage,
            "round": round_,
            "table": table,
            "date": f"2025-12-{(round_ - 1) // 10 % 28 + 1:02d}",
            "judge": JUDGES[table % len(JUDGES)],
            "seats": seats,
            "winner": winner,
        }
        busy: set[int] = set()
        self.first_night(game, roles, busy)
        self.judge_extra(game, roles, winner, busy)
        if rng.random() < 0.03:
            self.penalty(game, roles, winner, busy)
        if rng.random() < 0.03:
            self.removal(game, busy)
        return game

    def first_night(self, game: dict[str, Any], roles: list[str], busy: set[int]) -> None:
        rng = self.rng
        if rng.random() < 0.12:
            game["first_killed"] = None
            return
        killed = rng.randrange(1, 11)
        game["first_killed"] = killed
        busy.add(killed)
        if rng.random() < 0.9:
            others = [n for n in range(1, 11) if n != killed]
            game["best_move"] = rng.sample(others, 3)

    def judge_extra(
        self, game: dict[str, Any], roles: list[str], winner: str, busy: set[int]
    ) -> None:
        rng = self.rng
        if winner == "draw":
            return
        count = rng.choices((0, 1, 2, 3), weights=(10, 35, 35, 20))[0]
        extras = []
        left = 10
        for seat in sorted(rng.sample(range(1, 11), count)):
            won = ("red" if roles[seat - 1] in RED_TEAM else "black") == winner
            tenths = min(rng.randint(1, 5 if won else 4), left)
            if tenths == 0:
                break
            left -= tenths
            extra = {"seat": seat, "points": tenths / 10, "reason": rng.choice(REASONS)}
            extra["chief_approved"] = False
            extras.append(extra)
        if extras:
            game["judge_extra"] = extras

    def penalty(self, game: dict[str, Any], roles: list[str], winner: str, busy: set[int]) -> None:
        rng = self.rng
        fitting = [rule for rule, (_, result) in RULES.items() if result in (None, winner)]
        rule = rng.choice(fitting)
        seats = [n for n in range(1, 11) if roles[n - 1] in RULES[rule][0] and n not in busy]
        seat = rng.choice(seats)
        busy.add(seat)
        game["penalties"] = [{"seat": seat, "rule": rule, "reason": f"негативное действие, {rule}"}]

    def removal(self, game: dict[str, Any], busy: set[int]) -> None:
        rng = self.rng
        seat = rng.choice([n for n in range(1, 11) if n not in busy])
        busy.add(seat)
        reason, online, fined = rng.choices(REMOVALS, weights=(70, 25, 5))[0]
        if not online:
            game["seats"][seat - 1]["fouls"] = 4
        game["disqualified"] = [{"seat": seat, "reason": reason, "online": online, "fined": fined}]


def qualifying(
    maker: GameMaker, players: list[str], count: int, replay_rate: float
) -> list[dict[str, Any]]:
    """`count` qualifying games, round after round; a replayed game is followed by its replay."""
    rng = maker.rng
    games: list[dict[str, Any]] = []
    tables = len(players) // 10
    round_ = 0
    while len(games) < count:
        round_ += 1
        order = rng.sample(players, len(players))
        for table in range(1, tables + 1):
            if len(games) >= count:
                break
            seated = order[table * 10 - 10 : table * 10]
            gid = f"Q{round_}-T{table}"
            if count - len(games) >= 2 and rng.random() < replay_rate:
                annulled = maker.game(gid, "qualifying", round_, table, seated)
                annulled["replayed"] = True
                games.append(annulled)
                gid += "-replay"
            games.append(maker.game(gid, "qualifying", round_, table, seated))
    return games


def build(players: int, games: int, seed: int) -> dict[str, Any]:
    if players < 10 or games < 1:
        raise SystemExit("need at least 10 players and 1 game")
    rng = random.Random(seed)
    maker = GameMaker(rng)
    names = nicknames(players, rng)
    finals = min(FINAL_GAMES, games // 10)
    protocols = qualifying(maker, names, games - finals, replay_rate=0.002)
    wins: Counter[str] = Counter()
    for game in protocols:
        if not game.get("replayed"):
            wins.update(s["player"] for s in game["seats"] if _won(game, s["role"]))
    finalists = sorted(names, key=lambda n: (-wins[n], n))[:10]
    for number in range(1, finals + 1):
        seated = rng.sample(finalists, 10)
        protocols.append(maker.game(f"F{number}", "final", number, 1, seated))
    late = rng.sample(names, max(1, players // 100))
    return {
        "format": "mafiatab-tournament/1",
        "name": f"Benchmark tournament ({players} players, {games} games)",
        "ruleset": "fiim-online",
        "participants": players,
        "lot_seed": seed,
        "penalties": [
            {"player": n, "points": -0.5, "reason": f"опоздание на {rng.randint(6, 14)} минут"}
            for n in late
        ],
        "games": protocols,
    }


def _won(game: dict[str, Any], role: str) -> bool:
    return ("red" if role in RED_TEAM else "black") == game["winner"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    data = build(args.players, args.games, args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
