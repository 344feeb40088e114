"""The problems of a game log, as codes with parameters.

A problem leaves the core as a code and its parameters; `MESSAGES` holds the
English text of every code, written with gettext's `%(name)s` parameters: the CLI
prints it, and the shell's one translator (`mafiatab.messages`) takes it as the
message id of the code's Russian.
A problem of an event names the event by its 1-based position and its type.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from mafiatab.core.names import (
    NICKNAME_BIDI,
    NICKNAME_CONTROL,
    NICKNAME_EMPTY,
    NICKNAME_TOO_LONG,
    TEXT_BIDI,
    TEXT_CONTROL,
    TEXT_TOO_LONG,
)

#: Every problem code with its English text; `%(name)s` are the parameters (gettext's
#: form: the text is the message id the shell translates, `mafiatab.messages`).
MESSAGES: dict[str, str] = {
    # The document.
    "log.not_json": "not valid JSON: %(error)s",
    "log.unreadable": "cannot read %(path)s: %(error)s",
    "log.not_object": "a game log must be a JSON object",
    "log.format": 'format must be "mafiatab-game-log/1", not %(value)s',
    "log.table": "table must be one of %(known)s, not %(value)s",
    "log.settings": "settings must be an object",
    "log.setting_unknown": "unknown setting %(name)s (known: %(known)s)",
    "log.field_type": "expected %(expected)s, not %(value)s",
    "log.seats": "seats must be a list of 10 nicknames",
    "log.nickname": "seat %(seat)s: a nickname must be a text, not %(value)s",
    "log.nickname_empty": "seat %(seat)s: the nickname is empty",
    "log.nickname_too_long": "seat %(seat)s: the nickname %(value)s is longer than 64 characters",
    "log.nickname_control_character": "seat %(seat)s: the nickname %(value)s holds a "
    "control character",
    "log.nickname_bidi_character": "seat %(seat)s: the nickname %(value)s holds a "
    "text-direction character",
    "log.nickname_twice": "seat %(seat)s: %(nickname)s is seated twice",
    "log.roles": "roles must be an object with sheriff, don and black",
    "log.role_seat": "%(role)s must be a seat 1..10, not %(value)s",
    "log.black": "black must be a list of 2 seats, not %(value)s",
    "log.role_twice": "seat %(seat)s is given two roles",
    "log.role_unknown": "roles: unknown key %(name)s (known: sheriff, don, black)",
    "log.stage": "stage must be one of %(known)s, not %(value)s",
    "log.events": "events must be a list of events",
    "log.too_many_events": "a game log holds at most %(max)s events, not %(count)s",
    # The shape of an event.
    "event.not_object": "an event must be an object, not %(value)s",
    "event.type": "unknown event type %(value)s (known: %(known)s)",
    "event.missing": "%(field)s is missing",
    "event.field_type": "%(field)s must be %(expected)s, not %(value)s",
    "event.seat_range": "%(field)s must be a seat 1..10, not %(value)s",
    "event.text_too_long": "%(field)s is longer than %(max)s characters",
    "event.text_control_character": "%(field)s holds a control character",
    "event.text_bidi_character": "%(field)s holds a text-direction character",
    "event.number_not_finite": "%(field)s must be a finite number, not %(value)s",
    "event.extra_value": "%(field)s must be a text, a number, true or false, not %(value)s",
    # The rules.
    "game.finished": "the game is over: nothing but the best move of a first-night kill "
    "that ended it comes after the end",
    "game.day_only": "this event comes only during a day, not at night %(night)s",
    "game.night_only": "this event comes only at night, not on day %(day)s",
    "seat.not_alive": "seat %(seat)s is not in the game",
    "seat.last_word_over": "seat %(seat)s has left the game and his last word is over",
    "voting.day1_off": "day 1 has no voting at this table (day1_voting off)",
    "voting.cancelled": "the voting of day %(day)s was cancelled by a removal",
    "voting.over": "the voting of day %(day)s is over",
    "nominate.closed": "the voting of day %(day)s has begun: nominations are closed",
    "nominate.by_twice": "seat %(by)s already nominated seat %(seat)s today",
    "nominate.seat_twice": "seat %(seat)s is already nominated today (by seat %(by)s)",
    "vote.too_few": "a vote needs at least two nominees, not %(count)s",
    "vote.lift_due": "a lift vote for seats %(seats)s is due, not a vote",
    "vote.counts_length": "%(expected)s candidates need %(expected)s counts, not %(given)s",
    "vote.negative": "counts must be 0 or more, not %(value)s",
    "vote.sum": "counts sum to %(total)s, but %(alive)s players are alive",
    "lift.not_due": "no lift vote is due",
    "lift.three_at_nine": "no lift vote when three are tied with nine alive at this table "
    "(lift_three_at_nine off)",
    "lift.range": "for must be 0..%(alive)s, not %(value)s",
    "night.revote_due": "a revote among seats %(seats)s is due",
    "night.lift_due": "a lift vote for seats %(seats)s is due",
    "night.vote_due": "%(count)s seats are nominated and no vote was logged",
    "shots.twice": "the shots of night %(night)s are already logged",
    "shots.seats": "shots must name every living black-team seat (%(expected)s), not %(given)s",
    "check.before_shots": "checks come after the shots",
    "check.twice": "the %(role)s already checked this night",
    "check.absent": "the %(role)s (seat %(seat)s) is not in the game this night",
    "check.own": "the %(role)s cannot check his own seat",
    "day.no_shots": "the shots of night %(night)s are not logged",
    "best_move.closed": "the best move comes in the last word of a first-night kill, "
    "before the first nomination of day 2",
    "best_move.twice": "the best move is already logged",
    "best_move.seats": "the best move names exactly 3 distinct seats, not %(seats)s",
    "best_move.own": "the killed player cannot name his own seat %(seat)s",
    "remove.online": "an online removal is only for a fiim-online table",
    "pause.minutes": "minutes must be 1..%(max)s, not %(value)s",
    "defeat.team": "team must be red or black, not %(value)s",
}


#: The game log's code for each thing wrong with a seat's nickname
#: (`mafiatab.core.names.nickname_problems`).
NICKNAME_CODES: dict[str, str] = {
    NICKNAME_EMPTY: "log.nickname_empty",
    NICKNAME_TOO_LONG: "log.nickname_too_long",
    NICKNAME_CONTROL: "log.nickname_control_character",
    NICKNAME_BIDI: "log.nickname_bidi_character",
}
#: The event's code for each thing wrong with a free text (`mafiatab.core.names.text_problems`).
TEXT_CODES: dict[str, str] = {
    TEXT_TOO_LONG: "event.text_too_long",
    TEXT_CONTROL: "event.text_control_character",
    TEXT_BIDI: "event.text_bidi_character",
}


@dataclass(frozen=True, slots=True)
class GameProblem:
    """One thing wrong with a game log: a code, its parameters and where it is."""

    code: str
    """A key of `MESSAGES`."""
    params: dict[str, Any] = field(default_factory=dict)
    """The values the message names."""
    event: int | None = None
    """The event concerned, 1-based position in `events`; None for the document."""
    event_type: str | None = None
    """The `type` of that event, when it has a readable one."""
    field: str | None = None
    """The document field concerned (e.g. "roles"), for a problem of the document."""

    def message(self) -> str:
        """The English text of the problem, without its location."""
        template = MESSAGES[self.code]
        return template % self.params if self.params else template

    def location(self) -> str:
        """Where the problem is: "event 14 (vote)", "event 3", "field roles" or ""."""
        if self.event is not None:
            kind = f" ({self.event_type})" if self.event_type else ""
            return f"event {self.event}{kind}"
        return f"field {self.field}" if self.field else ""

    def at(self, event: int, event_type: str | None) -> GameProblem:
        """The same problem located at an event."""
        return GameProblem(self.code, self.params, event, event_type, self.field)

    def to_json(self) -> dict[str, Any]:
        """The problem as JSON: code, params, event, type, field and the English message."""
        return {
            "code": self.code,
            "params": self.params,
            "event": self.event,
            "type": self.event_type,
            "field": self.field,
            "message": self.message(),
        }

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message()}" if where else self.message()


class GameLogError(ValueError):
    """A refused game log or event, with its problems."""

    def __init__(self, problems: list[GameProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def json_quoted(value: object) -> str:
    """A value from the log as a message parameter: its JSON text (control characters
    escaped), cut short. An event is a small object that the console sent, so what
    it held is written out as sent; a tournament file's problems name a value by its
    kind instead (`mafiatab.core.problems.quoted`)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char)[0] == "C" else char for char in text
    )
    return text if len(text) <= 60 else text[:57] + "..."


def seat_list(seats: object) -> str:
    """Seats as a message parameter: "3, 5"."""
    if isinstance(seats, list | tuple):
        return ", ".join(str(s) for s in seats) or "none"
    return repr(seats)
