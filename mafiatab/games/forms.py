"""The protocol form: the official paper form (section 9) as flat POST fields.

`raw_from_data` turns a stored protocol into the strings the form shows,
`data_from_raw` turns what the judge typed back into the protocol's data (the
file form plus "voting"), and `cells_of` puts each problem the core finds next
to the cell it concerns. No rule is decided here: the core checks the data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mafiatab.core.problems import points_text
from mafiatab.core.protocol import SEATS
from mafiatab.core.regulations import REGULATIONS
from mafiatab.core.roles import Role
from mafiatab.core.validation import Problem
from mafiatab.core.voting import MAX_VOTING_ROUNDS
from mafiatab.games.conversion import protocol_data
from mafiatab.messages import (
    form_problem_text,
    problem_place,
    removal_reason_code,
    removal_reason_text,
)
from mafiatab.tournaments.bounds import (
    MAX_SMALL,
    parse_decimal,
    parse_int,
)

#: The voting rows the form shows at least: the paper form's seven (9.5).
BLOCKS = range(1, MAX_VOTING_ROUNDS + 1)
#: The most voting rows the form reads: far beyond any game, a bound for reading (the
#: paper form's seven are a layout, not a rule: a game logged in the console may have more).
MAX_FORM_BLOCKS = 40
_BLOCK_KEY = re.compile(r"v(\d+)_")
#: The form's limits, read from the regulations (every edition fits the same form).
MAX_EXTRA_PLAYERS = max(r.judge_max_players for r in REGULATIONS.values())
MAX_BEST_MOVE = max(r.best_move_seats for r in REGULATIONS.values())
MAX_FOULS = max(r.max_fouls for r in REGULATIONS.values())
EXTRA_ROWS = range(1, MAX_EXTRA_PLAYERS + 1)
BEST_MOVE_CELLS = range(1, MAX_BEST_MOVE + 1)
PENALTY_ROWS = range(1, 3)
REMOVAL_ROWS = range(1, 3)
PENALTY_RULES = tuple(
    dict.fromkeys(clause for r in REGULATIONS.values() for clause in r.negative_action_rules)
)
#: Far beyond any judge's extra points: a bound for reading, not a rule (the core checks).
MAX_POINTS = Decimal(100)
#: The most extra points a judge may give one player under any regulation (8.4.2).
MAX_EXTRA = max(r.judge_total_cap for r in REGULATIONS.values())
#: A plain decimal number short enough to say it is out of range (longer: not a number).
_PLAIN_NUMBER = re.compile(r"[+-]?\d{1,12}([.,]\d{1,3})?")
ROLE_LETTERS = [(r.value, r.letter) for r in (Role.RED, Role.BLACK, Role.SHERIFF, Role.DON)]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _seats_text(values: list[Any] | None) -> str:
    return " ".join("" if v is None else str(v) for v in values or [])


def raw_from_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The form's field values (strings, and lists for the foul cells) of a protocol."""
    raw: dict[str, Any] = {"date": _text(data.get("date")), "judge": _text(data.get("judge"))}
    for n, seat in enumerate(data.get("seats") or [], start=1):
        raw[f"player_{n}"] = _text(seat.get("player"))
        raw[f"role_{n}"] = _text(seat.get("role"))
        raw[f"fouls_{n}"] = [str(i) for i in range(1, (seat.get("fouls") or 0) + 1)]
    raw["winner"] = _text(data.get("winner"))
    raw["first_killed"] = _text(data.get("first_killed"))
    for i, seat in enumerate(data.get("best_move") or [], start=1):
        raw[f"bm_{i}"] = _text(seat)
    for i, extra in enumerate(data.get("judge_extra") or [], start=1):
        raw[f"extra{i}_seat"] = _text(extra.get("seat"))
        raw[f"extra{i}_points"] = _text(extra.get("points"))
        raw[f"extra{i}_reason"] = _text(extra.get("reason"))
        raw[f"extra{i}_approved"] = "on" if extra.get("chief_approved") else ""
    for i, penalty in enumerate(data.get("penalties") or [], start=1):
        raw[f"pen{i}_seat"] = _text(penalty.get("seat"))
        raw[f"pen{i}_rule"] = _text(penalty.get("rule"))
        raw[f"pen{i}_reason"] = _text(penalty.get("reason"))
    for i, removal in enumerate(data.get("disqualified") or [], start=1):
        raw[f"rem{i}_seat"] = _text(removal.get("seat"))
        raw[f"rem{i}_reason"] = removal_reason_text(_text(removal.get("reason")))
        raw[f"rem{i}_online"] = "on" if removal.get("online") else ""
        raw[f"rem{i}_waived"] = "" if removal.get("fined", True) else "on"
    for b, block in enumerate(data.get("voting") or [], start=1):
        raw[f"v{b}_day"] = _text(block.get("day"))
        raw[f"v{b}_nominees"] = _seats_text(block.get("nominees"))
        raw[f"v{b}_votes"] = _seats_text(block.get("votes"))
        raw[f"v{b}_by"] = _seats_text(block.get("nominated_by"))
        raw[f"v{b}_revote"] = "on" if block.get("revote") else ""
        raw[f"v{b}_lift"] = _text(block.get("lift"))
    return raw


def block_rows(raw: Mapping[str, Any]) -> range:
    """The voting rows of the form: the paper form's seven, or as many as `raw` fills."""
    numbers = (int(m.group(1)) for key in raw if (m := _BLOCK_KEY.match(key)))
    filled = max((n for n in numbers if n <= MAX_FORM_BLOCKS), default=0)
    return range(1, max(MAX_VOTING_ROUNDS, filled) + 1)


def raw_from_post(post: Any) -> dict[str, Any]:
    """The form's field values from a submitted form (a QueryDict)."""
    raw: dict[str, Any] = {key: post.get(key, "") for key in post}
    for n in SEATS:
        raw[f"fouls_{n}"] = post.getlist(f"fouls_{n}")
    return raw


@dataclass
class Parsed:
    """The protocol data read from the form, and what could not be read at all."""

    data: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    """The form's row of each voting block of `data` (empty rows are left out)."""


class _Reader:
    def __init__(self, raw: Mapping[str, Any], gid: str) -> None:
        self.raw = raw
        self.gid = gid
        self.problems: list[Problem] = []

    def get(self, key: str) -> str:
        value = self.raw.get(key, "")
        return value.strip() if isinstance(value, str) else ""

    def seat(self, key: str, field: str, seat: int | None = None) -> int | None:
        text = self.get(key)
        if not text or text in ("-", "—"):
            return None
        number = parse_int(text, low=SEATS[0], high=SEATS[-1])
        if number is not None:
            return number
        self.problems.append(Problem(self.gid, seat, field, "form.seat_number", {"text": text}))
        return None

    def seats_list(self, key: str, field: str, *, none_allowed: bool = False) -> list[Any]:
        text = self.get(key)
        values: list[Any] = []
        parts = re.split(r"[\s,;]+", text) if text else []
        if len(parts) > len(SEATS):
            self.problems.append(
                Problem(self.gid, None, field, "form.numbers_too_many", {"n": len(SEATS)})
            )
            parts = parts[: len(SEATS)]
        for part in parts:
            if (number := parse_int(part, low=0, high=MAX_SMALL)) is not None:
                values.append(number)
            elif none_allowed and part in ("-", "—"):
                values.append(None)
            else:
                self.problems.append(
                    Problem(self.gid, None, field, "form.not_a_number", {"text": part})
                )
        return values

    def count(self, key: str, field: str) -> int | None:
        """A number of votes (0 or more), None when the cell is empty."""
        text = self.get(key)
        if not text:
            return None
        number = parse_int(text, low=0, high=MAX_SMALL)
        if number is None:
            self.problems.append(
                Problem(self.gid, None, field, "form.not_a_number", {"text": text})
            )
        return number

    def points(self, key: str, field: str) -> int | float | None:
        text = self.get(key)
        if not text:
            return None
        value = parse_decimal(text, low=-MAX_POINTS, high=MAX_POINTS)
        if value is None:
            if _PLAIN_NUMBER.fullmatch(text):  # a number, far beyond any extra points
                problem = Problem(
                    self.gid,
                    None,
                    field,
                    "form.extra_out_of_range",
                    {"text": text, "cap": points_text(MAX_EXTRA)},
                )
            else:
                problem = Problem(self.gid, None, field, "form.not_a_number", {"text": text})
            self.problems.append(problem)
            return None
        return int(value) if value == value.to_integral_value() else float(value)


def data_from_raw(raw: Mapping[str, Any], *, base: Mapping[str, Any], online: bool) -> Parsed:
    """The protocol data of what the judge typed (header keys taken from `base`)."""
    gid = str(base.get("id") or "game 1")
    r = _Reader(raw, gid)
    data: dict[str, Any] = {k: base[k] for k in ("id", "stage", "round", "table") if k in base}
    data["date"] = r.get("date") or None
    data["judge"] = r.get("judge") or None
    data["seats"] = [
        {
            "player": r.get(f"player_{n}"),
            "role": r.get(f"role_{n}") or None,
            "fouls": len(raw.get(f"fouls_{n}") or []),
        }
        for n in SEATS
    ]
    data["winner"] = r.get("winner") or None
    data["first_killed"] = r.seat("first_killed", "first_killed")
    best = [r.seat(f"bm_{i}", "best_move") for i in BEST_MOVE_CELLS]
    data["best_move"] = [s for s in best if s is not None]
    data["judge_extra"] = _extras(r)
    data["penalties"] = [
        {"seat": seat, "rule": r.get(f"pen{i}_rule"), "reason": r.get(f"pen{i}_reason")}
        for i in PENALTY_ROWS
        if (seat := r.seat(f"pen{i}_seat", f"pen{i}")) is not None
    ]
    data["disqualified"] = [
        {
            "seat": seat,
            "reason": removal_reason_code(r.get(f"rem{i}_reason")),
            "online": online and bool(r.get(f"rem{i}_online")),
            "fined": not (online and bool(r.get(f"rem{i}_waived"))),
        }
        for i in REMOVAL_ROWS
        if (seat := r.seat(f"rem{i}_seat", f"rem{i}")) is not None
    ]
    data["voting"], rows = _blocks(r)
    return Parsed(protocol_data(data), r.problems, rows)


def _extras(r: _Reader) -> list[dict[str, Any]]:
    extras = []
    for i in EXTRA_ROWS:
        seat = r.seat(f"extra{i}_seat", f"extra{i}")
        points = r.points(f"extra{i}_points", f"extra{i}")
        if seat is None and points is None:
            continue
        if seat is None or points is None:
            r.problems.append(Problem(r.gid, None, f"extra{i}", "form.extra_incomplete"))
            continue
        extras.append(
            {
                "seat": seat,
                "points": points,
                "reason": r.get(f"extra{i}_reason"),
                "chief_approved": bool(r.get(f"extra{i}_approved")),
            }
        )
    return extras


def _blocks(r: _Reader) -> tuple[list[dict[str, Any]], list[int]]:
    blocks, rows = [], []
    for b in block_rows(r.raw):
        nominees = r.seats_list(f"v{b}_nominees", f"voting[{b}].nominees")
        if not nominees:
            if any(r.get(f"v{b}_{cell}") for cell in ("day", "votes", "by", "revote", "lift")):
                r.problems.append(
                    Problem(r.gid, None, f"voting[{b}].nominees", "form.nominees_missing")
                )
            continue
        day_text = r.get(f"v{b}_day")
        block: dict[str, Any] = {
            "day": parse_int(day_text, low=1, high=MAX_SMALL) or 0,
            "nominees": nominees,
        }
        votes = r.seats_list(f"v{b}_votes", f"voting[{b}].votes")
        nominated_by = r.seats_list(f"v{b}_by", f"voting[{b}].nominated_by", none_allowed=True)
        if votes:
            block["votes"] = votes
        if nominated_by:
            block["nominated_by"] = nominated_by
        if r.get(f"v{b}_revote"):
            block["revote"] = True
        lift = r.count(f"v{b}_lift", f"voting[{b}].lift")
        if lift is not None:
            block["lift"] = lift
        blocks.append(block)
        rows.append(b)
    return blocks, rows


# --- problems next to their cells ------------------------------------------------------


def cell_keys(blocks: range = BLOCKS) -> list[str]:
    """Every place of the form where problems are shown (with `blocks` voting rows)."""
    keys = ["general", "header", "roles", "winner", "best_move", "extras", "penalties"]
    keys += ["removals", "voting"]
    keys += [f"{kind}_{n}" for n in SEATS for kind in ("player", "role", "fouls")]
    keys += [f"extra{i}" for i in EXTRA_ROWS]
    keys += [f"pen{i}" for i in PENALTY_ROWS]
    keys += [f"rem{i}" for i in REMOVAL_ROWS]
    keys += [f"v{b}" for b in blocks]
    return keys


def _row_of(data: Mapping[str, Any], key: str, seat: int | None) -> int | None:
    if seat is None:
        return None
    for i, entry in enumerate(data.get(key) or [], start=1):
        if entry.get("seat") == seat:
            return i
    return None


_VOTING = re.compile(r"voting\[(\d+)\]")
_ROWS = {
    "judge_extra": ("judge_extra", "extra", "extras"),
    "penalties": ("penalties", "pen", "penalties"),
    "disqualified": ("disqualified", "rem", "removals"),
}


def cell_of(problem: Problem, data: Mapping[str, Any]) -> str:
    """The form cell a problem belongs next to."""
    name = problem.field
    if name.split(".")[0] in _ROWS:  # e.g. "judge_extra.reason"
        name = name.split(".")[0]
    if name in ("player", "role", "fouls"):
        return f"{name}_{problem.seat}" if problem.seat else "roles"
    if name in ("winner", "best_move", "first_killed"):
        return "best_move" if name != "winner" else "winner"
    if name in _ROWS:
        key, prefix, general = _ROWS[name]
        row = _row_of(data, key, problem.seat)
        return f"{prefix}{row}" if row else general
    match = _VOTING.match(name)
    if match:
        return f"v{match.group(1)}" if int(match.group(1)) <= MAX_FORM_BLOCKS else "voting"
    if name in ("voting", "seats"):
        return "voting" if name == "voting" else "roles"
    if name in ("date", "judge"):
        return "header"
    if name in cell_keys():
        return name
    return "general"


_EMPTY = {
    "role": gettext_lazy("choose the role"),
    "winner": gettext_lazy("choose the winning team"),
    "player": gettext_lazy("write the nickname"),
}


#: Codes that, with nothing written (`null`), mean an empty cell of the form.
_EMPTY_CODES = {"field.missing", "value.choice", "role.unknown", "type.nickname", "type.string"}


def _is_empty(problem: Problem) -> bool:
    return problem.code in _EMPTY_CODES and problem.params.get("value", "None") == "None"


def _what(problem: Problem) -> str:
    """What is wrong, in the active language and the form's words."""
    if problem.field in _EMPTY and _is_empty(problem):
        return str(_EMPTY[problem.field])
    return form_problem_text(problem)


def as_sentence(text: str) -> str:
    """A message as a sentence of its own (beside a cell, not after a place in a list):
    a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


def problems_by_cell(problems: list[Problem], data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each cell's problem messages in the active language, each a sentence (every cell
    present, most empty)."""
    cells: dict[str, list[str]] = {key: [] for key in cell_keys()}
    for problem in problems:
        message = _what(problem)
        if problem.seat is not None and not problem.field.startswith(("player", "role", "fouls")):
            message = _("seat %(seat)d: %(message)s") % {"seat": problem.seat, "message": message}
        cells.setdefault(cell_of(problem, data), []).append(as_sentence(message))
    return cells


def page_order(blocks: range = BLOCKS) -> list[str]:
    """The cells of the form from the top of the page down."""
    keys = ["header", "general"]
    keys += [f"{kind}_{n}" for n in SEATS for kind in ("player", "role", "fouls")]
    keys += ["roles", *(f"v{b}" for b in blocks), "voting", "best_move", "winner"]
    keys += [*(f"extra{i}" for i in EXTRA_ROWS), "extras"]
    keys += [*(f"pen{i}" for i in PENALTY_ROWS), "penalties"]
    keys += [*(f"rem{i}" for i in REMOVAL_ROWS), "removals"]
    return keys


@dataclass(frozen=True)
class Listed:
    """One problem of the form's summary: where it is, in words, and what is wrong."""

    cell: str
    """The cell it is shown beside (the summary links to it)."""
    place: str
    """The seat and the part of the form ("Seat 4, Judge extra points (8.4)")."""
    text: str


def problem_list(
    problems: list[Problem], data: Mapping[str, Any], blocks: range = BLOCKS
) -> list[Listed]:
    """Every problem once, in the order of the page (the first one first), each with its
    place in words and the cell it is shown beside."""
    order = {key: i for i, key in enumerate(page_order(blocks))}
    listed = {
        Listed(cell_of(p, data), problem_place(p) or _("Protocol"), _what(p)): None
        for p in problems
    }
    return sorted(listed, key=lambda item: order.get(item.cell, len(order)))


def in_form_rows(problems: list[Problem], rows: list[int]) -> list[Problem]:
    """The core's problems of voting blocks named by the form's row of their block (the
    core counts only the blocks written; the judge may have left a row empty between)."""

    def moved(problem: Problem) -> Problem:
        match = _VOTING.match(problem.field)
        if not match or not 1 <= int(match.group(1)) <= len(rows):
            return problem
        row = rows[int(match.group(1)) - 1]
        return replace(problem, field=f"voting[{row}]" + problem.field[match.end() :])

    return [moved(p) for p in problems]
