"""Writes to rounds, tables, protocols and protests. Each leaves an audit entry.

A protocol is never overwritten: every save adds a `ProtocolVersion` and the
game's rows follow the newest one. Saving names the version the writer started
from (`base_version`); when someone saved in between, the save is refused with
`ProtocolChanged` so nothing is lost.

The package holds `versions` (the one writer of versions, locking, the refusals),
`checks` (what a protocol passes before it is saved), `rounds` (rounds and tables),
`protocols` (save, confirm, return, replay), `protests` (8.9), `replacements`
(a reserve for a late player, his seat, a table seated again) and `pdfs` (the
kept PDF of a confirmed version). Every name is imported from here.
"""

from mafiatab.games.services.pdfs import protocol_pdf_keep
from mafiatab.games.services.protests import protest_decide, protest_file
from mafiatab.games.services.protocols import (
    game_mark_replayed,
    protocol_confirm,
    protocol_return,
    protocol_save,
)
from mafiatab.games.services.replacements import replacement_record, reseat_table, seat_replace
from mafiatab.games.services.rounds import (
    STAGE_LETTERS,
    STAGES,
    TablePlan,
    is_judge_of,
    round_create,
    round_seat,
    rounds_from_games,
    table_add,
    table_judge_set,
)
from mafiatab.games.services.schedule import (
    RoundSchedule,
    lateness_give,
    round_minutes_late,
    round_schedule_set,
    schedule_of,
)
from mafiatab.games.services.versions import ProtocolChanged, ProtocolConfirmed, ProtocolInvalid

__all__ = [
    "STAGES",
    "STAGE_LETTERS",
    "ProtocolChanged",
    "ProtocolConfirmed",
    "ProtocolInvalid",
    "RoundSchedule",
    "TablePlan",
    "game_mark_replayed",
    "is_judge_of",
    "lateness_give",
    "protest_decide",
    "protest_file",
    "protocol_confirm",
    "protocol_pdf_keep",
    "protocol_return",
    "protocol_save",
    "replacement_record",
    "reseat_table",
    "round_create",
    "round_minutes_late",
    "round_schedule_set",
    "round_seat",
    "rounds_from_games",
    "schedule_of",
    "seat_replace",
    "table_add",
    "table_judge_set",
]
