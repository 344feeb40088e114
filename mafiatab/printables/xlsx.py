"""The standings as a spreadsheet (openpyxl).

The first sheet holds the rows of the standings JSON (`Standings.to_json`), field for
field and in its order, numbers as numbers; the second every score line of every
player (player, game, clause, points, then its kind and what it is for). Text is
always stored as text: a nickname like `=SUM(A1)` is not a formula, and characters a
spreadsheet cannot hold are left out.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from mafiatab.core.scoring import ScoreLine, scaled_half_up
from mafiatab.core.standings import Standings
from mafiatab.messages import clause_text, line_text
from mafiatab.printables.sheets import stage_label
from mafiatab.standings.conversion import STANDING_FIELDS


def _headings() -> list[str]:
    return [
        "#",
        _("Player"),
        _("Total"),
        _("Main"),
        _("Extra"),
        _("Penalties"),
        _("Compensation"),
        _("Wins"),
        _("Wins as don or sheriff"),
        _("First-night deaths"),
        _("Games"),
        _("Decided by lot"),
    ]


def clean_text(value: str) -> str:
    """`value` without the control characters a spreadsheet cannot hold."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return str(ILLEGAL_CHARACTERS_RE.sub("", value))


def _cell(sheet: Any, value: Any, *, bold: bool = False) -> Any:
    """A cell of `value`: a text is always stored as text. A plain value is passed as
    it is (openpyxl stores it in the same cell), which saves a cell object per value
    on sheets of thousands of lines."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    if isinstance(value, str):
        value = clean_text(value)
        if not bold and not _read_as_other(value):
            return value
        cell = WriteOnlyCell(sheet, value=value)
        # a text that starts like a formula stays text
        cell.data_type = "s"
    elif not bold:
        return value
    else:
        cell = WriteOnlyCell(sheet, value=value)
    if bold:
        cell.font = Font(bold=True)
    return cell


def _read_as_other(text: str) -> bool:
    """True when openpyxl would store `text` as no text: a formula or an error code."""
    from openpyxl.cell.cell import ERROR_CODES

    return text.startswith("=") or text in ERROR_CODES


def _points(line: ScoreLine) -> float:
    """Points as the standings JSON gives them: two decimals, halves up."""
    return scaled_half_up(line.points, 100) / 100


def standings_workbook(standings: Standings, lines: Iterable[ScoreLine]) -> bytes:
    """The XLSX file of the standings and their score lines."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    table = book.create_sheet(clean_text(_("Standings"))[:31])
    stages = [spec.stage.value for spec in standings.plan.stages] if standings.plan else []
    staged = [_("Stage")] + [stage_label(code) for code in stages] if stages else []
    table.append([_cell(table, h, bold=True) for h in _headings() + staged])
    for row in standings.to_json()["standings"]:
        cells = [row[name] for name in STANDING_FIELDS]
        if stages:
            cells.append(stage_label(row["stage"]) if row.get("stage") else "")
            cells.extend(row["by_stage"].get(code, "") for code in stages)
        table.append([_cell(table, value) for value in cells])
    detail = book.create_sheet(clean_text(_("Score lines"))[:31])
    detail.append(
        [
            _cell(detail, h, bold=True)
            for h in (_("Player"), _("Game"), _("Clause"), _("Points"), _("Kind"), _("For"))
        ]
    )
    kinds = {"main": _("main"), "extra": _("extra"), "penalty": _("penalty")}
    for line in lines:
        detail.append(
            [
                _cell(detail, line.player),
                _cell(detail, line.game or ""),
                _cell(detail, clause_text(line.clause)),
                _cell(detail, _points(line)),
                _cell(detail, kinds.get(line.kind, line.kind)),
                _cell(detail, line_text(line)),
            ]
        )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
