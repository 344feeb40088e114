"""The core's coded messages in the reader's language: the shell's one translator.

Every code the core produces (a protocol's `Problem`, a game log's `GameProblem`, a
seating's flag and error, an advance list's remark) and every code of the shell's own
is said by `say(code, params)` from one catalogue (`mafiatab.messages.catalogue`),
through gettext; the functions here give each door (the protocol form, the console,
the API's errors, the seating pages, the standings) the message it shows, located the
way it shows it. A score line's topic and facts are said by `line_text`
(`score_lines`). The Russian is in the catalogs under mafiatab/locale and the apps'
locale folders. (`makemessages` does not see the core's sentences in the code: keep
their entries when a catalog is regenerated.)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy

from mafiatab.core.advancing import Mark, Remark
from mafiatab.core.game import GameProblem
from mafiatab.core.problems import PROBLEM_TEMPLATES, Problem
from mafiatab.core.protocol import FOUL_REMOVAL_REASON, is_foul_removal
from mafiatab.core.roles import Role
from mafiatab.core.scoring import TOURNAMENT_PENALTY, ScoreLine
from mafiatab.core.seating import SeatingError, SeatingFlag
from mafiatab.messages import score_lines
from mafiatab.messages.catalogue import SHELL_PROBLEMS as SHELL_PROBLEMS
from mafiatab.messages.catalogue import say as say
from mafiatab.messages.score_lines import removal_reason_text as removal_reason_text


def render_template(template: str, params: Mapping[str, object]) -> str:
    """`template` in the active language with its parameters."""
    text = gettext(template)
    return text % params if params else text


def date_text(value: object) -> str:
    """A date stored as ISO text (a protocol's, a recorded value) in the active
    language's format; anything that is not such a date as it is ('' for None)."""
    if value is None:
        return ""
    try:
        return date_format(dt.date.fromisoformat(str(value)), "DATE_FORMAT")
    except ValueError:
        return str(value)


#: The reasons the server writes itself (never a person's words). They are stored as a
#: code with parameters and said in the reader's language when read.
STORED_REASONS: dict[str, str] = {
    "seat.replaced": gettext_noop("%(reserve)s replaces %(absent)s"),
    "console.log": gettext_noop("made by the judge console from the game's log"),
}


def reason_text(code: str, params: Mapping[str, object] | None, text: str = "") -> str:
    """A stored reason in the active language: the coded one rendered with its
    parameters, a person's words (or a reason stored before it had a code) as written."""
    template = STORED_REASONS.get(code)
    if template is None:
        return text
    return render_template(template, params or {})


def is_core_problem(problem: Problem) -> bool:
    """Whether the problem's code is one of the core's (the API shows only those)."""
    return problem.code in PROBLEM_TEMPLATES


def problem_text(problem: Problem) -> str:
    """What is wrong, in the active language (without the game, seat and field)."""
    said = say(problem.code, problem.params)
    return problem.message if said is None else said


#: A game log's event types (game-log.md) as the reader calls them: a problem of the log
#: names its event by number and by this name, never by the type's code.
EVENT_TYPE_NAMES: dict[str, Any] = {
    "nominate": pgettext_lazy("event type", "nomination"),
    "vote": pgettext_lazy("event type", "vote"),
    "lift": pgettext_lazy("event type", "lift vote"),
    "foul": pgettext_lazy("event type", "foul"),
    "remove": pgettext_lazy("event type", "removal"),
    "pause": pgettext_lazy("event type", "time-out"),
    "night": pgettext_lazy("event type", "night falls"),
    "shots": pgettext_lazy("event type", "shots"),
    "don_check": pgettext_lazy("event type", "don's check"),
    "sheriff_check": pgettext_lazy("event type", "sheriff's check"),
    "day": pgettext_lazy("event type", "day begins"),
    "best_move": pgettext_lazy("event type", "best move"),
    "defeat": pgettext_lazy("event type", "procedural defeat"),
}


def event_type_name(event_type: str | None) -> str:
    """An event's type in the active language ('' for none; an unknown type, which
    only a malformed log holds, as it was written)."""
    if not event_type:
        return ""
    name = EVENT_TYPE_NAMES.get(event_type)
    return str(name) if name is not None else event_type


def game_problem_text(problem: GameProblem, message: str | None = None) -> str:
    """A problem of a game log in the active language, naming its event ("Event 3
    (vote): ...", or "Vote: ..." for an event without a number: one refused before it
    was logged); `message` says it in other words than its code's (the console's prompt
    for a role not dealt yet). The engine's English (`MESSAGES`) is the message id."""
    if message is None:
        message = say(problem.code, problem.params) or problem.code
    if problem.event is None:
        if problem.event_type:  # an event refused before it had a number
            return gettext("%(type)s: %(message)s") % {
                "type": capfirst(event_type_name(problem.event_type)),
                "message": message,
            }
        return message
    if not problem.event_type:
        return gettext("Event %(n)s: %(message)s") % {"n": problem.event, "message": message}
    return gettext("Event %(n)s (%(type)s): %(message)s") % {
        "n": problem.event,
        "type": event_type_name(problem.event_type),
        "message": message,
    }


def problem_line(problem: Problem) -> str:
    """A problem as one line, its place as the command line names it and what is wrong
    in the active language: "game Q3-T2, seat 4, field judge_extra: ..."."""
    return f"{problem.location()}: {problem_text(problem)}"


def remark_text(remark: Remark | Mapping[str, Any]) -> str:
    """A remark of an advance list (as made, or as stored: {"code", "params"}) in the
    active language."""
    if isinstance(remark, Remark):
        code, params = remark.code, remark.params
    else:
        code, params = str(remark.get("code")), remark.get("params") or {}
    said = say(code, params)
    return code if said is None else said


#: The qualification marks of the outlook, as the reader reads them.
MARK_TEXTS: dict[Mark, str] = {
    Mark.THROUGH: gettext_noop("through"),
    Mark.OUT: gettext_noop("out of reach"),
}


def mark_text(mark: Mark | str | None) -> str:
    """An outlook's mark in the active language ("" for none)."""
    if mark is None:
        return ""
    found = MARK_TEXTS.get(Mark(mark) if isinstance(mark, str) else mark)
    return gettext(found) if found else ""


#: The core's sentences that name a key of the tournament file, as the protocol form says
#: them: its reader sees the form's cells, not the file's keys.
_FORM_TEMPLATES = {
    "judge_extra.needs_approval": gettext_noop(
        "%(points)s needs the chief judge's approval (8.4.3)"
    ),
    "fouls.four_without_removal": gettext_noop(
        "a fourth foul removes the player: record the removal under Removals (8.2.4)"
    ),
    "removal.online_offline": gettext_noop(
        "an online removal (4.1 of the online addendum) is only for an online tournament"
    ),
}


def form_problem_text(problem: Problem) -> str:
    """What is wrong, in the active language, as the protocol form says it: never a
    key of the tournament file (`chief_approved`, `disqualified`)."""
    template = _FORM_TEMPLATES.get(problem.code)
    if template is None:
        return problem_text(problem)
    return render_template(template, problem.params)


#: The parts of the protocol form by the field a problem names (the tournament file's
#: key, or the form's own row: `extra1`, `pen2`, `rem1`); the form's own labels.
_FORM_PARTS = {
    "date": gettext_noop("Date"),
    "judge": gettext_noop("Judge"),
    "player": gettext_noop("Nickname"),
    "role": gettext_noop("Role"),
    "fouls": gettext_noop("Fouls"),
    "seats": gettext_noop("Players"),
    "roles": gettext_noop("Players"),
    "winner": gettext_noop("Winning team"),
    "first_killed": gettext_noop("Killed the first night"),
    "best_move": gettext_noop("Best move"),
    "judge_extra": gettext_noop("Judge extra points (8.4)"),
    "extra": gettext_noop("Judge extra points (8.4)"),
    "penalties": gettext_noop("Penalties (8.5)"),
    "pen": gettext_noop("Penalties (8.5)"),
    "disqualified": gettext_noop("Removals (8.2.4)"),
    "rem": gettext_noop("Removals (8.2.4)"),
    "voting": gettext_noop("Nominations and votes"),
}
#: The cells of a voting block, as the form labels them.
_BLOCK_PARTS = {
    "day": gettext_noop("Day"),
    "nominees": gettext_noop("Nominated"),
    "votes": gettext_noop("Votes"),
    "nominated_by": gettext_noop("Nominated by"),
    "revote": gettext_noop("revote"),
    "lift": gettext_noop("Lift: for all the tied leaving"),
}
_BLOCK_FIELD = re.compile(r"voting\[(\d+)\](?:\.(\w+))?")
_ROW_FIELD = re.compile(r"([a-z_]+?)\d*(?:\.\w+)?")


def form_part(field: str) -> str:
    """The part of the protocol form that a problem's field is, in the active language
    ("" for the protocol as a whole)."""
    block = _BLOCK_FIELD.fullmatch(field)
    if block:
        part = gettext("Vote %(i)s") % {"i": block.group(1)}
        cell = _BLOCK_PARTS.get(block.group(2) or "")
        return f"{part}, {gettext(cell)}" if cell else part
    row = _ROW_FIELD.fullmatch(field)
    label = _FORM_PARTS.get(row.group(1) if row else field)
    return gettext(label) if label else ""


def problem_place(problem: Problem) -> str:
    """Where on the protocol form a problem is, in words: its seat and its part."""
    part = form_part(problem.field)
    if problem.seat is None:
        return gettext("Players") if problem.field in ("player", "role", "fouls") else part
    seat = gettext("Seat %(n)d") % {"n": problem.seat}
    return f"{seat}, {part}" if part else seat


def flag_text(flag: SeatingFlag | Mapping[str, Any] | str) -> str:
    """A seating's compromise flag (as made, or as a draft stored it: a code with its
    parameters, or the English sentence of a draft made before flags had codes, shown as
    written) in the active language."""
    if isinstance(flag, SeatingFlag):
        code, params = flag.code, flag.params
    elif isinstance(flag, Mapping):
        code, params = str(flag.get("code")), flag.get("params") or {}
    else:
        return str(flag)
    return say(code, params) or code


def seating_error_text(error: SeatingError) -> str:
    """Why no seating can be made, in the active language (a reason raised with a
    code the catalogue does not know as the core wrote it)."""
    return say(error.code, error.params) or str(error)


def line_text(line: ScoreLine) -> str:
    """What a score line's points are for, in the active language, with the judge's note
    (`mafiatab.messages.score_lines`)."""
    return score_lines.line_text(line)


def clause_text(clause: str) -> str:
    """A score line's clause as the reader reads it: a regulation's number as it is, the
    core's code for a tournament-level penalty in words."""
    if clause == TOURNAMENT_PENALTY:
        return gettext("tournament discipline")
    return clause


def removal_reason_code(text: str | None) -> str | None:
    """What a judge gives back in a protocol form's removal reason: the fourth foul's
    words in the active language (as `removal_reason_text` showed them) are the code."""
    if text is not None and (
        is_foul_removal(text) or " ".join(text.split()) == removal_reason_text(FOUL_REMOVAL_REASON)
    ):
        return FOUL_REMOVAL_REASON
    return text


# The tournament's history (the audit log). Every service records a change as a
# stable code (`tournament.log_action("standings.frozen", ...)`) with the values
# before and after under stable keys; the history page says both in the reader's
# language through these tables (a test walks every code the services write).

#: What each recorded change is called.
AUDIT_ACTIONS: dict[str, Any] = {
    "tournament.created": gettext_lazy("Tournament created"),
    "tournament.imported": gettext_lazy("Tournament loaded from a file"),
    "tournament.updated": gettext_lazy("Tournament information changed"),
    "tournament.scoring_changed": gettext_lazy("Scoring settings changed"),
    "tournament.stages_changed": gettext_lazy("Stage plan changed"),
    "tournament.closed": gettext_lazy("Tournament closed"),
    "tournament.reopened": gettext_lazy("Tournament opened again"),
    "stages.advance.published": gettext_lazy("Advance list published"),
    "stages.advance.swapped": gettext_lazy("Advanced player replaced by the next in line"),
    "stages.advance.withdrawn": gettext_lazy("Advance list taken back"),
    "staff.assigned": gettext_lazy("Staff assigned"),
    "tournament.broadcast": gettext_lazy("Message sent to the tournament's people"),
    "staff.removed": gettext_lazy("Staff role taken away"),
    "registration.applied": gettext_lazy("Application filed"),
    "registration.added": gettext_lazy("Participant added"),
    "registration.approved": gettext_lazy("Application approved"),
    "registration.rejected": gettext_lazy("Application rejected"),
    "registration.waitlisted": gettext_lazy("Put on the waiting list"),
    "registration.promoted": gettext_lazy("Moved up from the waiting list"),
    "registration.withdrawn": gettext_lazy("Registration withdrawn"),
    "registration.removed": gettext_lazy("Participant removed"),
    "registration.checked_in": gettext_lazy("Checked in"),
    "checkin.opened": gettext_lazy("Check-in opened"),
    "checkin.closed": gettext_lazy("Check-in closed"),
    "registration.replaced": gettext_lazy("Player replaced"),
    "registration.reserve": gettext_lazy("Reserve registered"),
    "seating.reseated": gettext_lazy("Seating redrawn after a replacement"),
    "game.seat.replaced": gettext_lazy("Seat given to the reserve"),
    "penalty.given": gettext_lazy("Penalty given"),
    "penalty.cancelled": gettext_lazy("Penalty cancelled"),
    "round.created": gettext_lazy("Round created"),
    "table.created": gettext_lazy("Table added"),
    "table.judge_changed": gettext_lazy("Table given to another judge"),
    "game.protocol.saved": gettext_lazy("Protocol saved as a draft"),
    "game.protocol.submitted": gettext_lazy("Protocol signed and submitted"),
    "game.protocol.changed": gettext_lazy("Confirmed protocol changed"),
    "game.protocol.confirmed": gettext_lazy("Protocol confirmed"),
    "game.protocol.returned": gettext_lazy("Protocol returned to the judge"),
    "game.replayed": gettext_lazy("Game marked replayed"),
    "game.console.started": gettext_lazy("Game started in the judge console"),
    "game.console.finished": gettext_lazy("Game finished in the judge console"),
    "game.console.place": gettext_lazy("Speaker and timer kept in the judge console"),
    "game.console.ready": gettext_lazy("Ready check of the online table"),
    "game.console.violation_reported": gettext_lazy("Violation reported by the side judge"),
    "game.console.violation_accepted": gettext_lazy("Side judge's report accepted"),
    "game.console.violation_dismissed": gettext_lazy("Side judge's report dismissed"),
    "table.side_judge": gettext_lazy("Side judge of the table"),
    "round.scheduled": gettext_lazy("Round's time and place set"),
    "registration.online_links": gettext_lazy("Online game details given"),
    "broadcast.director_link.created": gettext_lazy("Director's link made"),
    "broadcast.director_link.revoked": gettext_lazy("Director's link revoked"),
    "game.protest.filed": gettext_lazy("Protest filed"),
    "game.protest.decided": gettext_lazy("Protest decided"),
    "seating.generated": gettext_lazy("Seating draft generated"),
    "seating.published": gettext_lazy("Seating published"),
    "standings.hidden": gettext_lazy("Standings hidden"),
    "standings.shown": gettext_lazy("Standings shown"),
    "standings.frozen": gettext_lazy("Standings frozen"),
    "standings.unfrozen": gettext_lazy("Standings unfrozen"),
}

#: What the recorded values are called (the model fields' verbose names where a
#: value is a field).
AUDIT_FIELDS: dict[str, Any] = {
    # a tournament's information and scoring settings
    "name": gettext_lazy("name"),
    "ruleset": gettext_lazy("ruleset"),
    "starts_on": gettext_lazy("first day"),
    "ends_on": gettext_lazy("last day"),
    "place": gettext_lazy("place"),
    # a round's schedule: its start time and its online link
    "starts_at": gettext_lazy("starts at"),
    "link": gettext_lazy("link"),
    "platform": gettext_lazy("online platform"),
    "stars": gettext_lazy("stars"),
    "description": gettext_lazy("about the tournament"),
    "participant_limit": gettext_lazy("participant limit"),
    "waiting_list_limit": gettext_lazy("waiting list limit"),
    "registration_open": gettext_lazy("registration open"),
    "stream_url": gettext_lazy("stream address"),
    "language": gettext_lazy("language of the broadcast"),
    "time_zone": gettext_lazy("time zone"),
    "participants": gettext_lazy("participants N (8.7)"),
    "games_before_final": gettext_lazy("games before the final (8.6)"),
    "lot_seed": gettext_lazy("lot seed (8.8.5)"),
    "stages": gettext_lazy("stage plan"),
    "closed": gettext_lazy("closed"),
    "advanced": gettext_lazy("advanced"),
    "out": gettext_lazy("leaves the stage"),
    "in": gettext_lazy("enters the stage"),
    "hidden": gettext_lazy("standings hidden"),
    # stored as the version of the standings frozen (None: not frozen); a reader is told
    # whether they are frozen, the version is an inner counter
    "frozen_version": gettext_lazy("standings frozen"),
    # a loaded file
    "games": gettext_lazy("games"),
    "players": gettext_lazy("players"),
    "penalties": gettext_lazy("penalties"),
    # staff
    "user": gettext_lazy("user"),
    "role": gettext_lazy("role"),
    "chief_judge": gettext_lazy("chief judge"),
    "table_judges": gettext_lazy("table judges"),
    # registrations and replacements
    "nickname": gettext_lazy("nickname"),
    "status": gettext_lazy("status"),
    "reason": gettext_lazy("reason"),
    "day": gettext_lazy("day"),
    "absent": gettext_lazy("late participant"),
    "reserve": gettext_lazy("reserve"),
    "round": gettext_lazy("round"),
    "minutes_late": gettext_lazy("minutes late"),
    "scope": gettext_lazy("replaced for"),
    # penalties
    "player": gettext_lazy("player"),
    "kind": gettext_lazy("kind"),
    "points": gettext_lazy("points"),
    "hide_extras": gettext_lazy("judge extras hidden until the end"),
    "cancelled": gettext_lazy("cancelled"),
    "cancel_reason": gettext_lazy("reason for the cancellation"),
    # rounds, tables, games
    "stage": gettext_lazy("stage"),
    "number": gettext_lazy("number"),
    "tables": gettext_lazy("tables"),
    "judge": gettext_lazy("judge"),
    "version": gettext_lazy("version"),
    "seat": gettext_lazy("seat"),
    "protocol_changed": gettext_lazy("protocol changed"),
    "replay": gettext_lazy("replayed as"),
    "table": gettext_lazy("table settings"),
    "roles": gettext_lazy("roles"),
    "winner": gettext_lazy("winner"),
    "events": gettext_lazy("events"),
    "text": gettext_lazy("text"),
    "recipients": gettext_lazy("people it reached"),
    "upheld": gettext_lazy("upheld"),
    "decision": gettext_lazy("decision"),
    # seating drafts
    "draft": gettext_lazy("draft"),
    "seed": gettext_lazy("seed"),
    "rounds": gettext_lazy("rounds"),
    "max_meetings": gettext_lazy("most meetings of two players"),
    "variance": gettext_lazy("variance of meetings"),
    "seat_balance_exact": gettext_lazy("seats balanced exactly"),
    "judges": gettext_lazy("judges"),
    # a re-seating keeps rounds 1 to `fixed_rounds`, played or (the replacement's
    # first round) seated with the reserve; 1 to `played_rounds` are played
    "fixed_rounds": gettext_lazy("last round kept"),
    "played_rounds": gettext_lazy("last round played"),
    "replacements": gettext_lazy("replacements"),
    # the judge's place at the console (day or night, speech, timer)
    "speech": gettext_lazy("speech number"),
    "timer": gettext_lazy("timer"),
    "total": gettext_lazy("seconds in all"),
    "left": gettext_lazy("seconds left"),
    "running": gettext_lazy("running"),
    "label": gettext_lazy("label on the timer"),
}

#: A game role and a team by their names (the history's roles and winners).
ROLE_NAMES: dict[str, Any] = {
    "red": pgettext_lazy("role", "red"),
    "sheriff": pgettext_lazy("role", "sheriff"),
    "black": pgettext_lazy("role", "black"),
    "don": pgettext_lazy("role", "don"),
}
TEAM_NAMES: dict[str, Any] = {
    "red": pgettext_lazy("team", "red"),
    "black": pgettext_lazy("team", "black"),
    "draw": gettext_lazy("draw"),
}


def role_legend_items() -> list[tuple[str, str]]:
    """The protocol's role letters (9.4.1) with the roles' names in the active language,
    in the order of the protocol form: К red, Ч black, Ш sheriff, Д don."""
    order = (Role.RED, Role.BLACK, Role.SHERIFF, Role.DON)
    return [(role.letter, str(ROLE_NAMES[role.value])) for role in order]


def audit_action_text(code: str) -> str:
    """A recorded change by its name in the active language (an unknown code as it is)."""
    name = AUDIT_ACTIONS.get(code)
    return code if name is None else str(name)


def audit_field_text(key: str) -> str:
    """A recorded value's name in the active language (an unknown key in words)."""
    name = AUDIT_FIELDS.get(key)
    return key.replace("_", " ") if name is None else str(name)
