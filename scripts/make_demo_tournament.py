"""Generate the bundled demo tournament, "ONLINE WINTER CUP 2025".

    .venv/bin/python scripts/make_demo_tournament.py [--seed N] [-o FILE]

The output is a `mafiatab-tournament/1` file (spec/tournament-file.md): 30 players,
10 qualifying rounds of 3 tables (every player plays every round, in each seat
1..10 exactly once), then a final of the 10 best after qualifying. The same seed
always writes the same file. Every rule of the spec's "What is rejected" list is
checked here before anything is written, so the file does not depend on the
scoring core to be valid.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "mafiatab" / "core" / "data" / "online_winter_cup_2025.json"
DEFAULT_SEED = 2025

FORMAT = "mafiatab-tournament/1"
NAME = "ONLINE WINTER CUP 2025"
RULESET = "fiim-online"
ROUNDS = 10
TABLES = 3
LOT_SEED = 20251228

NICKNAMES = (
    "Кошмар", "Doc", "Лис", "Mr. Smile", "Ведьма", "Баскервиль", "Тень", "Shadow",
    "Маэстро", "Кэп", "Ласточка", "Joker", "Фантом", "Северянка", "Lucky", "Граф",
    "Пилот", "Misty", "Шахматист", "Бармалей", "Вишня", "Ronin", "Сова", "Dimon",
    "Кактус", "Nika", "Профессор", "Алхимик", "Zloy", "Гроза",
)  # fmt: skip
TABLE_JUDGES = (
    "Анна Волкова", "Сергей Лебедев", "Мария Орлова",
    "Дмитрий Ковалёв", "Ольга Никитина", "Павел Громов",
)  # fmt: skip
CHIEF_JUDGE = "Алексей Смирнов"
ROUND_DATES = {
    1: "2025-12-20", 2: "2025-12-20", 3: "2025-12-20", 4: "2025-12-20",
    5: "2025-12-21", 6: "2025-12-21", 7: "2025-12-21",
    8: "2025-12-27", 9: "2025-12-27", 10: "2025-12-27",
}  # fmt: skip
FINAL_DATE = "2025-12-28"

# Results of the 31 counted games (30 qualifying + the final), shuffled over them.
RESULTS = ["red"] * 17 + ["black"] * 12 + ["draw"] * 2

RED_TEAM = ("red", "sheriff")
BLACK_TEAM = ("black", "don")
ROLE_DECK = ["red"] * 6 + ["sheriff"] + ["black"] * 2 + ["don"]

# Reasons for judge extra points (8.4), by (role, won the game).
REASONS: dict[tuple[str, bool], tuple[str, ...]] = {
    ("red", True): (
        "верная версия с первого дня, довёл стол до победы",
        "вывел чёрного на голосовании в ключевой момент",
        "точный подсчёт чёрных на последнем круге",
        "поддержал шерифа и удержал стол в правильной версии",
    ),
    ("sheriff", True): (
        "грамотно вскрылся с двумя чёрными проверками",
        "точные проверки и уверенное ведение стола",
        "сильная шерифская речь, стол пошёл за ним",
    ),
    ("black", True): (
        "отличная игра в красную, не попал ни в одну версию",
        "спас дона на голосовании, увёл стол в красного",
        "убедительная игра в красную до конца игры",
    ),
    ("don", True): (
        "нашёл шерифа в первую ночь и выстроил версию",
        "грамотная договорка и уверенная игра до конца",
        "сильная альтернативная версия, стол поверил",
    ),
    ("red", False): (
        "верно назвал обоих чёрных, но не был услышан",
        "лучшая речь стола, правильная версия",
        "правильный расклад на финальном круге",
    ),
    ("sheriff", False): (
        "правильные проверки, убедительно вскрылся",
        "боролся до конца, верно отыграл проверки",
    ),
    ("black", False): (
        "сильная игра в красную, ушёл последним",
        "закрыл партнёра от голосования",
    ),
    ("don", False): (
        "сильная альтернативная версия",
        "держал стол до последнего круга",
    ),
}
PENALTY_REASONS = {
    "8.5.1": "намеренно сломал в красного игрока на 10 игроков, красные проиграли",
    "8.5.3": "вскрылся с заведомо ложной проверкой и не снял её, красные проиграли",
    "8.5.4": "вскрылся шерифом с красной проверкой настоящего шерифа, версия чёрных "
    "оказалась нежизнеспособной, чёрные проиграли",
}


# --- the schedule -----------------------------------------------------------------


def latin_square(rng: random.Random) -> list[list[int]]:
    """A random 10x10 Latin square: row = player, column = round, value = seat index."""
    rows = rng.sample(range(10), 10)
    cols = rng.sample(range(10), 10)
    return [[(rows[i] + cols[r]) % 10 for r in range(ROUNDS)] for i in range(10)]


def candidate_schedule(rng: random.Random) -> list[list[list[str]]]:
    """rounds -> tables -> the 10 nicknames of a table, seat 1 first.

    The players are split in three groups of ten; within a group a Latin square
    gives each player each seat once over the ten rounds and each seat to one player
    a round. The three players holding seat s in a round go to three different tables.
    """
    players = rng.sample(NICKNAMES, len(NICKNAMES))
    groups = [players[g * 10 : g * 10 + 10] for g in range(TABLES)]
    squares = [latin_square(rng) for _ in range(TABLES)]
    shifts = [[rng.randrange(TABLES) for _ in range(10)] for _ in range(ROUNDS)]
    schedule = []
    for r in range(ROUNDS):
        tables: list[list[str]] = [[""] * 10 for _ in range(TABLES)]
        for g, (group, square) in enumerate(zip(groups, squares, strict=True)):
            for i, nick in enumerate(group):
                seat = square[i][r]
                table = (g + shifts[r][seat]) % TABLES
                tables[table][seat] = nick
        schedule.append(tables)
    return schedule


def meeting_spread(schedule: list[list[list[str]]]) -> float:
    """The variance of how often two players meet (lower: more varied meetings)."""
    meetings: Counter[tuple[str, str]] = Counter()
    for tables in schedule:
        for table in tables:
            meetings.update(itertools.combinations(sorted(table), 2))
    pairs = list(itertools.combinations(sorted(NICKNAMES), 2))
    mean = sum(meetings[p] for p in pairs) / len(pairs)
    return sum((meetings[p] - mean) ** 2 for p in pairs) / len(pairs)


def make_schedule(rng: random.Random, attempts: int = 300) -> list[list[list[str]]]:
    """The candidate schedule with the most evenly spread meetings."""
    best: tuple[float, list[list[list[str]]]] | None = None
    for _ in range(attempts):
        schedule = candidate_schedule(rng)
        spread = meeting_spread(schedule)
        if best is None or spread < best[0]:
            best = (spread, schedule)
    assert best is not None
    return best[1]


# --- one game ---------------------------------------------------------------------


def points(value: Fraction) -> float:
    """A JSON number for exact points (all points here are multiples of 0.05)."""
    return round(float(value), 2)


def deal_first_kill(rng: random.Random, roles: list[str]) -> int | None:
    """First-night kill: mostly a red or the sheriff, sometimes a black, sometimes a miss."""
    draw = rng.random()
    if draw < 0.12:
        return None
    team = RED_TEAM if draw < 0.97 else BLACK_TEAM
    return rng.choice([n for n in range(1, 11) if roles[n - 1] in team])


def deal_best_move(rng: random.Random, roles: list[str], first_killed: int | None) -> list[int]:
    """The three seats the first-killed player names, with 0-3 blacks among them."""
    if first_killed is None or rng.random() < 0.1:
        return []
    blacks = [n for n in range(1, 11) if roles[n - 1] in BLACK_TEAM and n != first_killed]
    reds = [n for n in range(1, 11) if roles[n - 1] in RED_TEAM and n != first_killed]
    hits = rng.choices([0, 1, 2, 3], weights=[25, 40, 25, 10])[0]
    hits = min(hits, len(blacks))
    named = rng.sample(blacks, hits) + rng.sample(reds, 3 - hits)
    rng.shuffle(named)
    return named


def winner_points(rng: random.Random) -> Fraction:
    return Fraction(rng.choices([1, 2, 3, 4, 5], weights=[20, 30, 25, 15, 10])[0], 10)


def loser_points(rng: random.Random) -> Fraction:
    return Fraction(rng.choices([1, 2, 3, 4], weights=[35, 35, 20, 10])[0], 10)


def deal_judge_extra(
    rng: random.Random, roles: list[str], winner: str, exclude: Iterable[int]
) -> list[dict[str, Any]]:
    """0-3 players with judge extra points (8.4), mostly winners, never in a draw."""
    if winner == "draw":
        return []
    count = rng.choices([0, 1, 2, 3], weights=[10, 35, 35, 20])[0]
    excluded = set(exclude)
    winners = [n for n in range(1, 11) if team(roles[n - 1]) == winner and n not in excluded]
    losers = [n for n in range(1, 11) if team(roles[n - 1]) != winner and n not in excluded]
    extras: list[dict[str, Any]] = []
    total = Fraction(0)
    for _ in range(count):
        won = rng.random() < 0.8 and bool(winners)
        pool = winners if won else losers
        if not pool:
            break
        seat = pool.pop(rng.randrange(len(pool)))
        value = min(winner_points(rng) if won else loser_points(rng), 1 - total)
        if value <= 0:
            break
        total += value
        role = roles[seat - 1]
        reason = rng.choice(REASONS[(role, won)])
        extras.append({"seat": seat, "points": value, "reason": reason, "chief_approved": False})
    return sorted(extras, key=lambda e: e["seat"])


def team(role: str) -> str:
    return "red" if role in RED_TEAM else "black"


def make_game(
    rng: random.Random, gid: str, stage: str, meta: dict[str, Any], players: list[str], winner: str
) -> dict[str, Any]:
    """A random realistic protocol (extras kept as Fractions until the file is written)."""
    roles = rng.sample(ROLE_DECK, 10)
    fouls = rng.choices([0, 1, 2, 3], weights=[55, 28, 12, 5], k=10)
    first_killed = deal_first_kill(rng, roles)
    game: dict[str, Any] = {"id": gid, "stage": stage, **meta}
    game["seats"] = [
        {"player": p, "role": r, "fouls": f} for p, r, f in zip(players, roles, fouls, strict=True)
    ]
    game["winner"] = winner
    game["first_killed"] = first_killed
    game["best_move"] = deal_best_move(rng, roles, first_killed)
    game["judge_extra"] = deal_judge_extra(rng, roles, winner, exclude=())
    game["penalties"] = []
    game["disqualified"] = []
    return game


def roles_of(game: dict[str, Any]) -> list[str]:
    return [s["role"] for s in game["seats"]]


def busy_seats(game: dict[str, Any]) -> set[int]:
    """Seats already carrying a first kill, a penalty or a removal."""
    busy = {p["seat"] for p in game["penalties"]} | {d["seat"] for d in game["disqualified"]}
    if game["first_killed"] is not None:
        busy.add(game["first_killed"])
    return busy


def pick_seat(rng: random.Random, game: dict[str, Any], allowed_roles: Iterable[str]) -> int:
    allowed = set(allowed_roles)
    busy = busy_seats(game)
    seats = [n for n, r in enumerate(roles_of(game), 1) if r in allowed and n not in busy]
    return rng.choice(seats)


def drop_extra(game: dict[str, Any], seat: int) -> None:
    game["judge_extra"] = [e for e in game["judge_extra"] if e["seat"] != seat]


def add_penalty(rng: random.Random, game: dict[str, Any], rule: str) -> None:
    """An 8.5 penalty on a seat whose role fits the rule (the game's result is chosen to fit)."""
    allowed = BLACK_TEAM if rule == "8.5.4" else ("red",) if rule == "8.5.2" else RED_TEAM
    seat = pick_seat(rng, game, allowed)
    drop_extra(game, seat)
    game["penalties"].append({"seat": seat, "rule": rule, "reason": PENALTY_REASONS[rule]})


def add_removal(
    rng: random.Random, game: dict[str, Any], reason: str, *, online: bool, fined: bool = True
) -> int:
    """A removal of a seat that was not killed the first night and has no penalty."""
    seat = pick_seat(rng, game, ROLE_DECK)
    drop_extra(game, seat)
    if "четвёртый фол" in reason:
        game["seats"][seat - 1]["fouls"] = 4
    removal = {"seat": seat, "reason": reason, "online": online, "fined": fined}
    game["disqualified"].append(removal)
    return seat


def add_chief_approved_extra(rng: random.Random, game: dict[str, Any]) -> None:
    """0.6 to a winner with the chief judge's approval, the other extras fitting under 1.0."""
    roles = roles_of(game)
    seat = pick_seat(rng, game, RED_TEAM if game["winner"] == "red" else BLACK_TEAM)
    others = [e for e in game["judge_extra"] if e["seat"] != seat][:2]
    room = Fraction(2, 5)
    for extra in others:
        extra["points"] = min(extra["points"], room)
        room -= extra["points"]
    others = [e for e in others if e["points"] > 0]
    reason = "блестящая игра: " + REASONS[(roles[seat - 1], True)][0]
    mine = {"seat": seat, "points": Fraction(3, 5), "reason": reason, "chief_approved": True}
    game["judge_extra"] = sorted([*others, mine], key=lambda e: e["seat"])


# --- the tournament ---------------------------------------------------------------


def qualifying_games(rng: random.Random) -> tuple[list[dict[str, Any]], list[str]]:
    """The 30 qualifying protocols and the results left for the final."""
    schedule = make_schedule(rng)
    results = rng.sample(RESULTS, len(RESULTS))
    judges = list(TABLE_JUDGES)
    games = []
    for r, tables in enumerate(schedule, 1):
        rng.shuffle(judges)
        for t, players in enumerate(tables, 1):
            meta = {"round": r, "table": t, "date": ROUND_DATES[r], "judge": judges[t - 1]}
            games.append(make_game(rng, f"Q{r}-T{t}", "qualifying", meta, players, results.pop()))
    return games, results


def add_features(rng: random.Random, games: list[dict[str, Any]]) -> None:
    """The cases the demo shows: 8.5 penalties, removals of every kind, a 0.6 extra."""
    black_wins = [g for g in games if g["winner"] == "black"]
    red_wins = [g for g in games if g["winner"] == "red"]
    g851, g853 = rng.sample(black_wins, 2)
    g854, g_chief = rng.sample(red_wins, 2)
    add_penalty(rng, g851, "8.5.1")
    add_penalty(rng, g853, "8.5.3")
    add_penalty(rng, g854, "8.5.4")
    add_chief_approved_extra(rng, g_chief)
    decided = [g for g in games if g["winner"] != "draw" and g not in (g851, g853, g854, g_chief)]
    ordinary, alt_tab, timeout = rng.sample(decided, 3)
    add_removal(
        rng, ordinary, "четвёртый фол (выдан судьёй за разговор во время чужой речи)", online=False
    )
    add_removal(rng, alt_tab, "переключение вкладок (ALT+TAB), п. 4.1 дополнения", online=True)
    add_removal(
        rng,
        timeout,
        "отсутствие в кадре по окончании тайм-аута (отключение электричества во время "
        "воздушной тревоги); штраф не применён, раздел «Тайм-аут», п. 7",
        online=True,
        fined=False,
    )


def add_replay(rng: random.Random, games: list[dict[str, Any]], round_: int, table: int) -> None:
    """Turn game (round_, table) into a replayed one and insert its replay after it."""
    index = next(i for i, g in enumerate(games) if g["round"] == round_ and g["table"] == table)
    original = games[index]
    players = [s["player"] for s in original["seats"]]
    meta = {k: original[k] for k in ("round", "table", "date", "judge")}
    annulled = make_game(rng, original["id"], "qualifying", meta, players, "black")
    annulled["replayed"] = True
    add_removal(rng, annulled, "четвёртый фол (выдан судьёй за реплику вне очереди)", online=False)
    original["id"] = f"{original['id']}-replay"
    games.insert(index, annulled)


def qualifying_totals(
    games: list[dict[str, Any]], penalties: list[dict[str, Any]]
) -> dict[str, tuple[Fraction, ...]]:
    """(total, extra, wins) per player over the qualifying games, scoring.md's way."""
    regular = [g for g in games if not g.get("replayed")]
    b = round_half_up(Fraction(2, 5) * 10)
    kills = Counter(
        g["seats"][g["first_killed"] - 1]["player"]
        for g in regular
        if g["first_killed"] and g["seats"][g["first_killed"] - 1]["role"] in RED_TEAM
    )
    main: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for game in games:
        score_game(game, main, extra, wins, kills, b)
    for penalty in penalties:
        main[penalty["player"]] += penalty["points"]
    return {n: (main[n] + extra[n], extra[n], Fraction(wins[n])) for n in NICKNAMES}


def round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def score_game(
    game: dict[str, Any],
    main: Counter[str],
    extra: Counter[str],
    wins: Counter[str],
    kills: Counter[str],
    b: int,
) -> None:
    seats = game["seats"]
    for removal in game["disqualified"]:
        if removal["fined"]:
            cost = Fraction(-4, 5) if removal["online"] else Fraction(-1, 2)
            extra[seats[removal["seat"] - 1]["player"]] += cost
    if game.get("replayed"):
        return
    for seat in seats:
        if team(seat["role"]) == game["winner"]:
            main[seat["player"]] += 1
            wins[seat["player"]] += 1
    for bonus in game["judge_extra"]:
        extra[seats[bonus["seat"] - 1]["player"]] += bonus["points"]
    for penalty in game["penalties"]:
        extra[seats[penalty["seat"] - 1]["player"]] -= Fraction(2, 5)
    fk = game["first_killed"]
    if fk and seats[fk - 1]["role"] in RED_TEAM:
        victim = seats[fk - 1]["player"]
        hits = sum(seats[n - 1]["role"] in BLACK_TEAM for n in game["best_move"])
        extra[victim] += {3: Fraction(2, 5), 2: Fraction(1, 4)}.get(hits, Fraction(0))
        if game["winner"] == "black":
            i = kills[victim]
            main[victim] += Fraction(2, 5) if i > b or b == 0 else Fraction(2, 5) * i / b


def tournament_penalties(rng: random.Random) -> list[dict[str, Any]]:
    late = rng.sample(NICKNAMES, 3)
    lobby = rng.choice([n for n in NICKNAMES if n not in late])
    warned = rng.choice([n for n in NICKNAMES if n not in late and n != lobby])
    return [
        {"player": late[0], "points": Fraction(-1, 2), "reason": "опоздание на 7 минут к туру 3"},
        {"player": late[1], "points": Fraction(-1, 2), "reason": "опоздание на 12 минут к туру 6"},
        {
            "player": late[2],
            "points": Fraction(-1, 2),
            "reason": "не подтвердил готовность к игре без уважительной причины, тур 9",
        },
        {
            "player": lobby,
            "points": Fraction(-1, 2),
            "reason": "нарушение правил предыгрового лобби: оскорбления (тур 5)",
        },
        {
            "player": warned,
            "points": Fraction(0),
            "reason": "предупреждение: нецензурная лексика в предыгровом лобби (тур 8)",
        },
    ]


def make_final(
    rng: random.Random,
    qualifying: list[dict[str, Any]],
    penalties: list[dict[str, Any]],
    winner: str,
) -> dict[str, Any]:
    """The final: the ten best after qualifying, seated at random."""
    totals = qualifying_totals(qualifying, penalties)
    ranked = sorted(NICKNAMES, key=lambda n: (*(-v for v in totals[n]), n))
    finalists = rng.sample(ranked[:10], 10)
    meta = {"round": 1, "table": 1, "date": FINAL_DATE, "judge": CHIEF_JUDGE}
    return make_game(rng, "F1", "final", meta, finalists, winner)


def build(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    qualifying, final_results = qualifying_games(rng)
    add_features(rng, qualifying)
    add_replay(rng, qualifying, round_=6, table=2)
    penalties = tournament_penalties(rng)
    final = make_final(rng, qualifying, penalties, final_results.pop())
    return {
        "format": FORMAT,
        "name": NAME,
        "ruleset": RULESET,
        "participants": len(NICKNAMES),
        "games_before_final": ROUNDS,
        "lot_seed": LOT_SEED,
        "penalties": penalties,
        "games": [*qualifying, final],
    }


# --- writing ----------------------------------------------------------------------


def to_json_data(value: Any) -> Any:
    """Fractions become 2-decimal numbers; empty optional lists are left out."""
    if isinstance(value, Fraction):
        return points(value)
    if isinstance(value, list):
        return [to_json_data(v) for v in value]
    if isinstance(value, dict):
        optional = ("best_move", "judge_extra", "penalties", "disqualified")
        return {k: to_json_data(v) for k, v in value.items() if not (k in optional and v == [])}
    return value


def dump(value: Any, level: int = 0) -> str:
    """JSON, indented, with short objects and lists of numbers on one line."""
    inline = json.dumps(value, ensure_ascii=False)
    flat = isinstance(value, dict | list) and not any(
        isinstance(v, dict | list) for v in (value.values() if isinstance(value, dict) else value)
    )
    if not isinstance(value, dict | list) or (flat and len(inline) + 2 * level < 120):
        return inline
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {dump(v, level + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + dump(v, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


# --- checking ---------------------------------------------------------------------


class Checker:
    """Asserts every rule of spec/tournament-file.md "What is rejected" on decoded JSON."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def fail(self, where: str, message: str) -> None:
        raise AssertionError(f"{where}: {message}")

    def check(self) -> None:
        data = self.data
        assert data.get("format") == FORMAT, "wrong format"
        assert data.get("ruleset") in ("fiim", "fiim-online"), "unknown ruleset"
        assert isinstance(data.get("name"), str) and data["name"], "name"
        for key in ("participants", "games_before_final", "lot_seed"):
            assert key not in data or type(data[key]) is int, key
        games = data["games"]
        assert isinstance(games, list)
        ids = [g.get("id", f"game {i}") for i, g in enumerate(games, 1)]
        assert len(ids) == len(set(ids)), "two games with the same id"
        for game in games:
            self.check_game(game)
        self.check_tournament_penalties(data.get("penalties", []), games)

    def check_game(self, game: dict[str, Any]) -> None:
        where = f"game {game.get('id')}"
        assert game["stage"] in ("qualifying", "semifinal", "final"), where
        assert game["winner"] in ("red", "black", "draw"), where
        assert type(game.get("replayed", False)) is bool, where
        for key in ("round", "table"):
            assert key not in game or type(game[key]) is int, where
        for key in ("date", "judge", "id"):
            assert key not in game or isinstance(game[key], str), where
        seats = game["seats"]
        assert isinstance(seats, list) and len(seats) == 10, f"{where}: 10 seats"
        players = [s["player"] for s in seats]
        assert all(isinstance(p, str) and p.strip() for p in players), f"{where}: nickname"
        assert len(set(players)) == 10, f"{where}: a player seated twice"
        roles = [s["role"] for s in seats]
        assert Counter(roles) == Counter(ROLE_DECK), f"{where}: roles {Counter(roles)}"
        assert all(type(s.get("fouls", 0)) is int for s in seats), f"{where}: fouls type"
        assert all(0 <= s.get("fouls", 0) <= 4 for s in seats), f"{where}: fouls"
        self.check_best_move(game, where)
        self.check_judge_extra(game, roles, where)
        self.check_penalties(game, roles, where)
        self.check_removals(game, where)

    @staticmethod
    def is_seat(value: Any) -> bool:
        return type(value) is int and 1 <= value <= 10

    def check_best_move(self, game: dict[str, Any], where: str) -> None:
        fk = game.get("first_killed")
        best = game.get("best_move", [])
        assert fk is None or self.is_seat(fk), f"{where}: first_killed"
        assert all(self.is_seat(n) for n in best), f"{where}: best_move seat"
        if best:
            assert fk is not None, f"{where}: best_move without first_killed"
        assert len(best) <= 3 and len(set(best)) == len(best), f"{where}: best_move"
        assert fk not in best, f"{where}: best_move names the first-killed seat"

    def check_judge_extra(self, game: dict[str, Any], roles: list[str], where: str) -> None:
        extras = game.get("judge_extra", [])
        if game["winner"] == "draw":
            assert not extras, f"{where}: judge extra in a draw"
        seats = [e["seat"] for e in extras]
        assert all(self.is_seat(n) for n in seats), f"{where}: judge_extra seat"
        assert len(set(seats)) == len(seats) <= 3, f"{where}: judge_extra players"
        values = [Fraction(str(e["points"])) for e in extras]
        assert sum(values) <= 1, f"{where}: judge extra total above 1.0"
        for extra, value in zip(extras, values, strict=True):
            assert type(extra.get("chief_approved", False)) is bool, where
            assert isinstance(extra.get("reason", ""), str), where
            won = team(roles[extra["seat"] - 1]) == game["winner"]
            cap = Fraction(7, 10) if won else Fraction(2, 5)
            assert 0 < value <= cap, f"{where}: judge extra {value} (won: {won})"
            if value > Fraction(1, 2):
                assert extra.get("chief_approved") is True, f"{where}: needs the chief"

    def check_penalties(self, game: dict[str, Any], roles: list[str], where: str) -> None:
        rules = {
            "8.5.1": (RED_TEAM, "black"),
            "8.5.2": (("red",), None),
            "8.5.3": (RED_TEAM, "black"),
            "8.5.4": (BLACK_TEAM, "red"),
        }
        for penalty in game.get("penalties", []):
            assert self.is_seat(penalty["seat"]), f"{where}: penalty seat"
            assert penalty["rule"] in rules, f"{where}: penalty rule"
            allowed, result = rules[penalty["rule"]]
            assert roles[penalty["seat"] - 1] in allowed, f"{where}: penalty role"
            assert result is None or game["winner"] == result, f"{where}: penalty result"

    def check_removals(self, game: dict[str, Any], where: str) -> None:
        removals = game.get("disqualified", [])
        seats = [d["seat"] for d in removals]
        assert all(self.is_seat(n) for n in seats), f"{where}: disqualified seat"
        assert len(set(seats)) == len(seats), f"{where}: a seat removed twice"
        for removal in removals:
            assert type(removal.get("online", False)) is bool, where
            assert type(removal.get("fined", True)) is bool, where
            if removal.get("online"):
                assert self.data["ruleset"] == "fiim-online", f"{where}: online removal"

    def check_tournament_penalties(
        self, penalties: list[dict[str, Any]], games: list[dict[str, Any]]
    ) -> None:
        seated = {s["player"] for g in games for s in g["seats"]}
        for penalty in penalties:
            assert penalty["points"] <= 0, f"penalty of {penalty['player']} above 0"
            assert penalty["player"] in seated, f"penalty of {penalty['player']}: plays no game"


def check_demo(data: dict[str, Any]) -> None:
    """The demo's own promises: schedule, stages, the features it must show."""
    qualifying = [g for g in data["games"] if g["stage"] == "qualifying" and not g.get("replayed")]
    assert len(qualifying) == ROUNDS * TABLES
    for nick in NICKNAMES:
        seats = [n for g in qualifying for n, s in enumerate(g["seats"], 1) if s["player"] == nick]
        assert sorted(seats) == list(range(1, 11)), f"{nick} does not hold each seat once"
    replayed = [g for g in data["games"] if g.get("replayed")]
    assert len(replayed) == 1 and replayed[0]["disqualified"]
    replay = next(g for g in data["games"] if g["id"] == replayed[0]["id"] + "-replay")
    assert [s["player"] for s in replay["seats"]] == [s["player"] for s in replayed[0]["seats"]]
    removals = [d for g in data["games"] for d in g.get("disqualified", [])]
    assert {(d["online"], d["fined"]) for d in removals} == {
        (False, True),
        (True, True),
        (True, False),
    }
    assert len([g for g in data["games"] if g["stage"] == "final"]) == 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    data = to_json_data(build(args.seed))
    Checker(data).check()
    check_demo(data)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(dump(data) + "\n", encoding="utf-8")
    print(f"wrote {args.output} ({len(data['games'])} games)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
