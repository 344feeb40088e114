"""Stored seating drafts to core schedule objects and to rows the pages show."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mafiatab.core.seating import Round, Table
from mafiatab.seating.models import SeatingDraft


def core_rounds(draft: SeatingDraft) -> tuple[Round, ...]:
    """The draft's rounds as core `Round`s (tables by number, seat 1 first)."""
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


@dataclass(frozen=True)
class PlayerSeat:
    """Where one player sits in one round (table and seat None: he sits out)."""

    round: int
    table: int | None
    seat: int | None
    judge: str


def seats_of(draft: SeatingDraft, nickname: str) -> list[PlayerSeat]:
    """A player's table and seat in every round of the draft (case-insensitive nickname)."""
    wanted = nickname.strip().casefold()
    result: list[PlayerSeat] = []
    for rnd in core_rounds(draft):
        found = PlayerSeat(round=rnd.round, table=None, seat=None, judge="")
        for table in rnd.tables:
            for seat, name in enumerate(table.seats, start=1):
                if name.casefold() == wanted:
                    found = PlayerSeat(rnd.round, table.table, seat, draft.judge_of(table.table))
        result.append(found)
    return result


def find_player(draft: SeatingDraft, query: str) -> list[str]:
    """The players of the draft whose nickname contains `query` (case-insensitive)."""
    wanted = query.strip().casefold()
    if not wanted:
        return []
    return [name for name in draft.players if wanted in name.casefold()]


def grid(draft: SeatingDraft) -> list[dict[str, Any]]:
    """Rounds for the templates: each table with its judge and its seats numbered."""
    players = draft.players
    rows: list[dict[str, Any]] = []
    for rnd in core_rounds(draft):
        playing = set(rnd.players())
        rows.append(
            {
                "round": rnd.round,
                "tables": [
                    {
                        "table": t.table,
                        "judge": draft.judge_of(t.table),
                        "seats": list(enumerate(t.seats, start=1)),
                    }
                    for t in rnd.tables
                ],
                "sitting_out": [p for p in players if p not in playing],
            }
        )
    return rows


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
