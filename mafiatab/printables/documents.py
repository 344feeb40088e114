"""Every printable document as bytes, for the pages and for the archive.

Who sees what is decided by the callers with the apps' own rules: `can_view_game`
for a protocol, `viewer_standings` for the standings (hidden and frozen exactly as
on the standings page).

A confirmed protocol's PDF is an official document: rendered the first time it is
needed (its page's download or the archive) and kept with its version, per language
(`protocol_pdfs`); from then on it is read, never rendered again. A provisional
protocol is rendered every time and never kept. The seating sheets, which take
seconds to lay out, are kept as last rendered while they print the same (`kept_pdf`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation

from mafiatab.core.scoring import ScoreLine
from mafiatab.games.conversion import games_data
from mafiatab.games.models import Game
from mafiatab.games.selectors import confirmed_versions, kept_protocol_pdfs
from mafiatab.games.services import protocol_pdf_keep
from mafiatab.printables.models import KeptPdf
from mafiatab.printables.pdf import PROTOCOLS_PER_DOCUMENT, Renderer
from mafiatab.printables.seating_sheets import SeatingRound, judge_copies, seating_rounds
from mafiatab.printables.services import kept_pdf_replace
from mafiatab.printables.sheets import (
    ProtocolSheet,
    chief_judge_names,
    protocol_sheet,
    stage_label,
)
from mafiatab.printables.xlsx import standings_workbook
from mafiatab.standings.services import Shown, Snapshot, player_explanation
from mafiatab.standings.staged import stage_columns, staged_rows
from mafiatab.tournaments.models import Tournament


def games_for_print(tournament: Tournament) -> QuerySet[Game]:
    """The tournament's games in order, with their protests (the rest of what their
    protocols print is read from their versions: `protocol_sheets`)."""
    return (
        Game.objects.filter(tournament=tournament)
        .select_related("tournament")
        .prefetch_related("protests")
        .order_by("position")
    )


def protocol_sheets(
    tournament: Tournament, games: Iterable[Game], *, chief_judge: str | None = None
) -> list[ProtocolSheet]:
    """The filled protocols of `games` (signed by `chief_judge`: the tournament's chief
    judges unless given)."""
    games = list(games)
    chief = chief_judge_names(tournament) if chief_judge is None else chief_judge
    data = games_data(games)
    return [protocol_sheet(game, chief_judge=chief, data=data[game.pk]) for game in games]


def sheet_digest(sheet: ProtocolSheet) -> str:
    """The SHA-256 of everything `sheet` prints: two sheets with the same digest print
    the same document."""
    fields = _plain(sheet)
    fields.pop("key")  # the anchor within one document, never printed
    text = json.dumps(fields, default=str, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value: Any) -> Any:
    """`value` with every dataclass in it as a dict of its fields: what
    `dataclasses.asdict` gives for JSON, without its deep copy of every value."""
    if isinstance(value, str | int | float | None):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def protocol_pdfs(
    tournament: Tournament, games: Iterable[Game], *, renderer: Renderer | None = None
) -> Iterator[tuple[str, bytes]]:
    """Every game's protocol as its own PDF, (file name, bytes) in the games' order, in
    the active language.

    A confirmed game's PDF is the one kept with its current version (for what its sheet
    prints); when there is none yet it is rendered and kept. The others are rendered.
    Games are read `PROTOCOLS_PER_DOCUMENT` at a time, so that only those kept PDFs are
    in memory at once; the ones to render are laid out together (`each_protocol`)."""
    language = translation.get_language() or "en"
    games = list(games)
    versions = confirmed_versions(games)
    chief = chief_judge_names(tournament)
    for start in range(0, len(games), PROTOCOLS_PER_DOCUMENT):
        chunk = games[start : start + PROTOCOLS_PER_DOCUMENT]
        sheets = protocol_sheets(tournament, chunk, chief_judge=chief)
        keys = {
            sheet.key: (versions[game.pk], sheet_digest(sheet))
            for game, sheet in zip(chunk, sheets, strict=True)
            if game.pk in versions and not sheet.provisional
        }
        kept = kept_protocol_pdfs(keys.values(), language=language)
        missing = [sheet for sheet in sheets if keys.get(sheet.key) not in kept]
        rendered: dict[str, bytes] = {}
        if missing:
            renderer = renderer or Renderer()
            for sheet, (_name, pdf) in zip(missing, renderer.each_protocol(missing), strict=True):
                rendered[sheet.key] = pdf
        for sheet in sheets:
            key = keys.get(sheet.key)
            if key is not None and key in kept:
                yield sheet.filename, kept[key]
            elif key is not None:
                version, digest = key
                pdf = protocol_pdf_keep(
                    version_id=version, language=language, digest=digest, pdf=rendered[sheet.key]
                )
                yield sheet.filename, pdf
            else:
                yield sheet.filename, rendered[sheet.key]


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
        "rows": staged_rows(standings),
        "stage_columns": stage_columns(standings),
        "width": 11 + len(stage_columns(standings)),
        "lot": any(r.decided_by_lot for r in standings.rows),
        "provisional": provisional,
        "frozen_for_public": shown.frozen and not shown.staff,
        "as_of_stage": stage_label(snapshot.as_of.stage.value) if snapshot.as_of else "",
        "printed_at": timezone.localtime(timezone.now(), tournament.zone()),
    }
    # every time it says (printed, frozen) in the tournament's zone, as its pages say
    # them, whatever zone is active (none for the archive made outside a request)
    with timezone.override(tournament.zone()):
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


def kept_pdf(
    renderer: Renderer, tournament: Tournament, name: str, template: str, context: dict[str, Any]
) -> bytes:
    """`template` as PDF: the one kept for the tournament's document `name` in the
    active language when it prints the same (its HTML and the stylesheet), else
    rendered and kept in its place. Its times are said in the tournament's zone."""
    with timezone.override(tournament.zone()):
        html = render_to_string(template, context)
    language = translation.get_language() or "en"
    digest = renderer.digest(html)
    kept = (
        KeptPdf.objects.filter(tournament=tournament, name=name, language=language, digest=digest)
        .values_list("pdf", flat=True)
        .first()
    )
    if kept is not None:
        return bytes(kept)
    pdf = bytes(renderer.laid_out(html).write_pdf())
    return kept_pdf_replace(
        tournament=tournament, name=name, language=language, digest=digest, pdf=pdf
    )


def _audience(staff: bool) -> str:
    return "staff" if staff else "public"


def seating_pdf(
    renderer: Renderer,
    tournament: Tournament,
    *,
    staff: bool,
    rounds: Sequence[SeatingRound] | None = None,
) -> bytes:
    """Every round with its tables, a block per table (kept while it prints the same);
    `rounds`: the tournament's `seating_rounds` for the same viewer, when read already."""
    if rounds is None:
        rounds = seating_rounds(tournament, staff=staff)
    context = {"title": tournament.name, "tournament": tournament, "rounds": rounds}
    name = f"seating-{_audience(staff)}"
    return kept_pdf(renderer, tournament, name, "printables/seating.html", context)


def judge_copies_pdf(
    renderer: Renderer,
    tournament: Tournament,
    *,
    staff: bool,
    table: int | None = None,
    rounds: Sequence[SeatingRound] | None = None,
) -> bytes | None:
    """The judges' copies (every round of a table, a page per table); only `table`'s
    when given (None when no round has such a table). Kept while they print the same.
    `rounds`: as for `seating_pdf`."""
    if rounds is None:
        rounds = seating_rounds(tournament, staff=staff)
    copies = judge_copies(rounds)
    if table is not None:
        copies = [c for c in copies if c.table == table]
        if not copies:
            return None
    context = {"title": tournament.name, "tournament": tournament, "copies": copies}
    name = f"judges-{_audience(staff)}" + (f"-table-{table}" if table is not None else "")
    return kept_pdf(renderer, tournament, name, "printables/judges.html", context)


def protocols_pdf(renderer: Renderer, sheets: Sequence[ProtocolSheet]) -> bytes:
    """The sheets as one PDF."""
    return renderer.protocols(sheets)


def _visible(shown: Shown) -> Snapshot:
    if shown.snapshot is None:
        raise ValueError("the standings are hidden from this viewer")
    return shown.snapshot
