"""Stored seating drafts to core schedule objects and to rows the pages show."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mafiatab.core.schedule import STAGE_ORDER
from mafiatab.core.seating import Round, Table
from mafiatab.games.models import Round as RoundRow
from mafiatab.games.models import Table as TableRow
from mafiatab.games.models import TableSeat
from mafiatab.registrations.models import Replacement, ReplacementScope
from mafiatab.seating.models import DraftStatus, SeatingDraft


def core_rounds(draft: SeatingDraft) -> tuple[Round, ...]:
    """The draft's rounds as core `Round`s (tables by number, seat 1 first).

    A published seating is read from its tables, where a seat holds a participant:
    a reserve who replaced a late player shows in his seat."""
    if draft.is_published:
        return _table_rounds(draft)
    return tuple(
        Round(
            round=int(r["round"]),
            tables=tuple(
                Table(table=int(t["table"]), seats=tuple(str(s) for s in t["seats"]))
                for t in r["tables"]
            ),
        )
        for r in draft.rounds
    )


def _table_rounds(draft: SeatingDraft) -> tuple[Round, ...]:
    """Every round of the draft's stage as its tables hold it: those the draft made and
    any added to the stage since on the rounds page."""
    rounds = RoundRow.objects.filter(tournament_id=draft.tournament_id, stage=draft.stage)
    numbers = list(rounds.order_by("number").values_list("id", "number"))
    # read as plain values: a stage of hundreds of rounds seats tens of thousands
    tables: dict[int, list[tuple[int, int]]] = {round_id: [] for round_id, _number in numbers}
    for round_id, table_id, number in (
        TableRow.objects.filter(round__in=rounds)
        .order_by("round_id", "number", "id")
        .values_list("round_id", "id", "number")
    ):
        if round_id in tables:  # not a round added since `numbers` was read
            tables[round_id].append((table_id, number))
    seats: dict[int, list[str]] = {}
    for table_id, nickname in (
        TableSeat.objects.filter(table__round__in=rounds)
        .order_by("table_id", "number")
        .values_list("table_id", "registration__nickname")
    ):
        seats.setdefault(table_id, []).append(nickname)
    return tuple(
        Round(
            round=number,
            tables=tuple(
                Table(table=table_number, seats=tuple(seats.get(table_id, ())))
                for table_id, table_number in tables[round_id]
            ),
        )
        for round_id, number in numbers
    )


def seatings_of_tables(tournament_id: int, published: list[SeatingDraft]) -> list[SeatingDraft]:
    """The seating of each stage as its rounds' tables hold it: the `published` seatings,
    and, for a stage whose tables were entered by hand on the rounds page (no seating
    published), one read from those tables (not stored), so that the seating pages show
    the same rounds and tables as the tournament page, whatever way they were made.
    In the order the stages are played."""
    done = {draft.stage for draft in published}
    seated: dict[str, list[str]] = {}
    for stage, nickname in (
        TableSeat.objects.filter(table__round__tournament_id=tournament_id)
        .exclude(table__round__stage__in=done)
        .order_by("table__round__number", "table__number", "number")
        .values_list("table__round__stage", "registration__nickname")
    ):
        names = seated.setdefault(stage, [])
        if nickname not in names:
            names.append(nickname)
    found = list(published) + [
        SeatingDraft(
            tournament_id=tournament_id,
            stage=stage,
            games_per_player=0,
            tables=0,
            seed=0,
            options={},
            schedule={"players": players, "rounds": []},
            metrics={},
            judges={},
            status=DraftStatus.PUBLISHED,
        )
        for stage, players in seated.items()
    ]

    def order(draft: SeatingDraft) -> int:
        return STAGE_ORDER.index(draft.stage) if draft.stage in STAGE_ORDER else len(STAGE_ORDER)

    return sorted(found, key=order)


def _table_judges(draft: SeatingDraft) -> dict[tuple[int, int], str]:
    """(round, table) -> the judge of that table of a published seating: his account's
    nickname, else the one its protocol names (a tournament file's tables)."""
    if not draft.is_published:
        return {}
    rows = TableRow.objects.filter(
        round__tournament_id=draft.tournament_id, round__stage=draft.stage
    ).select_related("round", "judge", "game")
    judges: dict[tuple[int, int], str] = {}
    for row in rows:
        game = getattr(row, "game", None)
        name = row.judge.nickname if row.judge else (game.judge if game is not None else "")
        judges[(row.round.number, row.number)] = name or ""
    return judges


def _judge_at(draft: SeatingDraft, judges: dict[tuple[int, int], str], rnd: int, table: int) -> str:
    """The judge the seating names for a physical table, else that table's own in `rnd`."""
    return draft.judge_of(table) or judges.get((rnd, table), "")


def replaced_in(draft: SeatingDraft, rounds: tuple[Round, ...]) -> dict[int, list[tuple[str, str]]]:
    """(reserve, late participant) of each round: the replacements whose reserve sits in
    that round of the draft while the participant does not."""
    found: dict[int, list[tuple[str, str]]] = {}
    playing = {rnd.round: set(rnd.players()) for rnd in rounds}
    made = Replacement.objects.filter(tournament_id=draft.tournament_id).values_list(
        "round", "reserve_nickname", "absent__nickname"
    )
    for number, reserve, absent in made:
        here = playing.get(number, set())
        if reserve in here and absent not in here:
            found.setdefault(number, []).append((reserve, absent))
    return found


def newcomers_joined(draft: SeatingDraft) -> dict[str, int]:
    """The first round of each reserve the draft seats for the rest of the tournament
    in the place of a participant (a re-seating's `replacements`)."""
    newcomers = draft.options.get("replacements") or {}
    if not newcomers:
        return {}
    made = Replacement.objects.filter(
        tournament_id=draft.tournament_id,
        scope=ReplacementScope.REST,
        reserve_nickname__in=list(newcomers),
    ).values_list("reserve_nickname", "round")
    joined: dict[str, int] = {}
    for name, number in made:
        joined[name] = min(number, joined.get(name, number))
    return joined


@dataclass(frozen=True)
class PlayerSeat:
    """Where one player sits in one round (table and seat None: he sits out, or a
    reserve played for him)."""

    round: int
    table: int | None
    seat: int | None
    judge: str
    replaced_by: str = ""
    """The reserve who played this round for him (empty: nobody)."""


def seats_of(draft: SeatingDraft, nickname: str) -> list[PlayerSeat]:
    """A player's table and seat in every round of the draft (case-insensitive nickname)."""
    wanted = nickname.strip().casefold()
    result: list[PlayerSeat] = []
    judges = _table_judges(draft)
    rounds = core_rounds(draft)
    replaced = replaced_in(draft, rounds)
    for rnd in rounds:
        reserve = next(
            (new for new, old in replaced.get(rnd.round, []) if old.casefold() == wanted), ""
        )
        found = PlayerSeat(round=rnd.round, table=None, seat=None, judge="", replaced_by=reserve)
        for table in rnd.tables:
            for seat, name in enumerate(table.seats, start=1):
                if name.casefold() == wanted:
                    judge = _judge_at(draft, judges, rnd.round, table.table)
                    found = PlayerSeat(rnd.round, table.table, seat, judge)
        result.append(found)
    return result


def find_player(draft: SeatingDraft, query: str) -> list[str]:
    """The players of the draft whose nickname contains `query` (case-insensitive)."""
    wanted = query.strip().casefold()
    if not wanted:
        return []
    return [name for name in _everyone(draft) if wanted in name.casefold()]


def _everyone(draft: SeatingDraft) -> list[str]:
    """The draft's players, then anybody else seated in it (a reserve)."""
    names = list(draft.players)
    known = set(names)
    for rnd in core_rounds(draft):
        for name in rnd.players():
            if name not in known:
                known.add(name)
                names.append(name)
    return names


def grid(draft: SeatingDraft) -> list[dict[str, Any]]:
    """Rounds for the templates: each table with its judge and its seats numbered."""
    players = draft.players
    rows: list[dict[str, Any]] = []
    judges = _table_judges(draft)
    rounds = core_rounds(draft)
    replaced = replaced_in(draft, rounds)
    joined = newcomers_joined(draft)
    for rnd in rounds:
        playing = set(rnd.players())
        instead = replaced.get(rnd.round, [])
        # a reserve who came in for the rest of the tournament was not there before
        gone = {old for _, old in instead} | {
            name for name, first in joined.items() if rnd.round < first
        }
        rows.append(
            {
                "round": rnd.round,
                "tables": [
                    {
                        "table": t.table,
                        "judge": _judge_at(draft, judges, rnd.round, t.table),
                        "seats": list(enumerate(t.seats, start=1)),
                    }
                    for t in rnd.tables
                ],
                "sitting_out": [p for p in players if p not in playing and p not in gone],
                "replaced": instead,
            }
        )
    return rows


def games_each(rounds: list[dict[str, Any]]) -> int:
    """The most games any player plays in `grid` rows (the seating's games each)."""
    played: dict[str, int] = {}
    for rnd in rounds:
        for table in rnd["tables"]:
            for _seat, name in table["seats"]:
                played[name] = played.get(name, 0) + 1
    return max(played.values(), default=0)


@dataclass(frozen=True)
class Bar:
    """One bar of the pair-meeting histogram: `pairs` pairs met `meetings` times."""

    meetings: int
    pairs: int
    percent: int
    """Bar length relative to the tallest bar, 0..100."""
    above_ceiling: bool
    """The pairs of this bar meet more often than ceil(λ)."""


def histogram_bars(metrics: dict[str, Any]) -> list[Bar]:
    """The pair-meeting histogram of stored metrics, as bars to draw."""
    counts = [int(k) for k in metrics.get("histogram", [])]
    tallest = max(counts, default=0) or 1
    mean = float(metrics.get("mean_meetings", 0))
    ceiling = math.ceil(mean - 1e-9)
    return [
        Bar(
            meetings=k,
            pairs=count,
            percent=round(100 * count / tallest),
            above_ceiling=k > ceiling,
        )
        for k, count in enumerate(counts)
    ]
