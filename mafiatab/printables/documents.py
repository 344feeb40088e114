"""Every printable document as bytes, for the pages and for the archive.

Who sees what is decided by the callers with the apps' own rules: `can_view_game`
for a protocol, `viewer_standings` for the standings (hidden and frozen exactly as
on the standings page).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import QuerySet
from django.utils import timezone

from mafiatab.core.scoring import ScoreLine
from mafiatab.games.models import Game
from mafiatab.printables.pdf import Renderer
from mafiatab.printables.sheets import (
    ProtocolSheet,
    chief_judge_names,
    judge_copies,
    protocol_sheet,
    seating_rounds,
    stage_label,
)
from mafiatab.printables.xlsx import standings_workbook
from mafiatab.standings.services import Shown, Snapshot, player_explanation
from mafiatab.tournaments.models import Tournament


def games_for_print(tournament: Tournament) -> QuerySet[Game]:
    """The tournament's games in order, with what their protocols are read from."""
    return (
        Game.objects.filter(tournament=tournament)
        .select_related("tournament")
        .prefetch_related("seats", "extras", "penalties", "removals", "protests")
        .order_by("position")
    )


def protocol_sheets(tournament: Tournament, games: Iterable[Game]) -> list[ProtocolSheet]:
    """The filled protocols of `games`."""
    chief = chief_judge_names(tournament)
    return [protocol_sheet(game, chief_judge=chief) for game in games]


def standings_pdf(
    renderer: Renderer, tournament: Tournament, shown: Shown, *, provisional: bool
) -> bytes:
    """The standings a viewer sees (`shown`, never hidden ones) as PDF."""
    snapshot = _visible(shown)
    standings = snapshot.standings
    context = {
        "title": tournament.name,
        "tournament": tournament,
        "shown": shown,
        "snapshot": snapshot,
        "rows": standings.rows,
        "lot": any(r.decided_by_lot for r in standings.rows),
        "provisional": provisional,
        "frozen_for_public": shown.frozen and not shown.staff,
        "as_of_stage": stage_label(snapshot.as_of.stage.value) if snapshot.as_of else "",
        "printed_at": timezone.localtime(),
    }
    return renderer.pdf("printables/standings.html", context)


def score_lines(snapshot: Snapshot) -> list[ScoreLine]:
    """Every score line of every player of the standings, player after player."""
    lines: list[ScoreLine] = []
    for row in snapshot.standings.rows:
        explanation = player_explanation(snapshot=snapshot, player=row.player)
        if explanation is not None:
            lines.extend(explanation.lines())
    return lines


def standings_xlsx(shown: Shown) -> bytes:
    """The standings a viewer sees as XLSX, with every score line."""
    snapshot = _visible(shown)
    return standings_workbook(snapshot.standings, score_lines(snapshot))


def seating_pdf(renderer: Renderer, tournament: Tournament, *, staff: bool) -> bytes:
    """Every round with its tables, a block per table."""
    context = {
        "title": tournament.name,
        "tournament": tournament,
        "rounds": seating_rounds(tournament, staff=staff),
    }
    return renderer.pdf("printables/seating.html", context)


def judge_copies_pdf(
    renderer: Renderer, tournament: Tournament, *, staff: bool, table: int | None = None
) -> bytes | None:
    """The judges' copies (every round of a table, a page per table); only `table`'s
    when given (None when no round has such a table)."""
    copies = judge_copies(seating_rounds(tournament, staff=staff))
    if table is not None:
        copies = [c for c in copies if c.table == table]
        if not copies:
            return None
    context = {"title": tournament.name, "tournament": tournament, "copies": copies}
    return renderer.pdf("printables/judges.html", context)


def protocols_pdf(renderer: Renderer, sheets: Sequence[ProtocolSheet]) -> bytes:
    """The sheets as one PDF."""
    return renderer.protocols(sheets)


def _visible(shown: Shown) -> Snapshot:
    if shown.snapshot is None:
        raise ValueError("the standings are hidden from this viewer")
    return shown.snapshot
