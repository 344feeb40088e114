"""What the printed seating shows: every round with its tables, and each table
judge's copy.

Seating comes from the published seating drafts (`grid`, as the seating page shows
it) and, for a stage without one, from the games' own rounds and tables, read
through the games app's own reader (`game_data`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mafiatab.games.conversion import game_data
from mafiatab.games.models import STAGE_CHOICES
from mafiatab.games.selectors import games_by_round
from mafiatab.printables.sheets import stage_label, text_of
from mafiatab.seating.conversion import grid
from mafiatab.seating.models import DraftStatus
from mafiatab.tournaments.models import Tournament


@dataclass(frozen=True, slots=True)
class SeatingTable:
    """One table of a round."""

    table: int
    judge: str
    seats: tuple[tuple[int, str], ...]

    @property
    def seat_lines(self) -> str:
        """The seats as printed: a line per seat, its number right-aligned in two
        characters, two spaces, the nickname."""
        return "".join(f"{seat:2d}  {name}\n" for seat, name in self.seats)


@dataclass(frozen=True, slots=True)
class SeatingRound:
    """One round of a stage with its tables."""

    stage: str
    """The stage's name in the active language."""
    round: int
    tables: tuple[SeatingTable, ...]
    sitting_out: tuple[str, ...] = ()
    replaced: tuple[tuple[str, str], ...] = ()
    """(reserve, late participant) of each replacement in this round."""


@dataclass(frozen=True, slots=True)
class JudgeCopy:
    """A table judge's copy: every round played at one table."""

    table: int
    judges: str
    rounds: tuple[tuple[SeatingRound, SeatingTable], ...]


def _stage_order(stage: str) -> int:
    codes = [code for code, _label in STAGE_CHOICES]
    return codes.index(stage) if stage in codes else len(codes)


def seating_rounds(tournament: Tournament, *, staff: bool) -> list[SeatingRound]:
    """Every round of the tournament with its tables.

    A stage with a published seating is read from it (as the seating page shows it);
    another stage from its games' tables: every game for the staff, the confirmed ones
    for the public (as the games list shows them).
    """

    found: list[tuple[int, int, SeatingRound]] = []
    drafts = tournament.seating_drafts.filter(status=DraftStatus.PUBLISHED)
    published = set()
    for draft in drafts:
        published.add(draft.stage)
        label = stage_label(draft.stage)
        for r in grid(draft):
            tables = tuple(
                SeatingTable(int(t["table"]), t["judge"], tuple(t["seats"])) for t in r["tables"]
            )
            item = SeatingRound(
                label, r["round"], tables, tuple(r["sitting_out"]), tuple(r["replaced"])
            )
            found.append((_stage_order(draft.stage), r["round"], item))
    for group in games_by_round(tournament, with_unconfirmed=staff, besides=published):
        if group.round is None:
            continue
        tables = []
        for index, game in enumerate(group.games, start=1):
            data = game_data(game)
            names = [s.get("player") or "" for s in data.get("seats") or []]
            tables.append(
                SeatingTable(
                    game.table or index,
                    text_of(data.get("judge")),
                    tuple(enumerate(names, start=1)),
                )
            )
        item = SeatingRound(group.stage_label, group.round, tuple(tables))
        found.append((_stage_order(group.stage), group.round, item))
    found.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _order, _number, item in found]


def judge_copies(rounds: Iterable[SeatingRound]) -> list[JudgeCopy]:
    """For each table number, every round played there, in order."""
    by_table: dict[int, list[tuple[SeatingRound, SeatingTable]]] = {}
    for r in rounds:
        for t in r.tables:
            by_table.setdefault(t.table, []).append((r, t))
    copies = []
    for number in sorted(by_table):
        entries = by_table[number]
        judges = list(dict.fromkeys(t.judge for _r, t in entries if t.judge))
        copies.append(JudgeCopy(number, ", ".join(judges), tuple(entries)))
    return copies
