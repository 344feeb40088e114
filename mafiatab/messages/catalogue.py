"""The one catalogue of coded messages: every code the core and the shell produce, and
how it is said in the reader's language.

The core says what happened as a code with parameters: a protocol's or a tournament's
`Problem` (`mafiatab.core.problems`), a game log's `GameProblem`
(`mafiatab.core.game`), a seating's compromise flag and a reason no seating can be
made (`mafiatab.core.seating`), a remark of an advance list
(`mafiatab.core.advancing`). Each code's English sentence, with `%(name)s`
parameters, is written once, in the core's table of that kind; here it is the gettext
message id, so the Russian catalogs translate that very sentence. The shell adds the
codes of what only it sees (`SHELL_PROBLEMS`). A code whose parameters need more than
`%` (a plural, nicknames in the language's quotation marks) has a sayer of its own.

The codes of all kinds form one namespace: a test keeps the tables disjoint and checks
that every code has its Russian.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop

from mafiatab.core.advancing import REMARK_TEMPLATES
from mafiatab.core.game import MESSAGES as GAME_MESSAGES
from mafiatab.core.problems import PROBLEM_TEMPLATES
from mafiatab.core.seating import ERROR_TEMPLATES, FLAG_TEMPLATES
from mafiatab.messages import (
    game_problems,
    protocol_problems,
    seating_errors,
    seating_flags,
    stage_problems,
)

#: A difference of one part of the protocol from the console's log: the form's place
#: ("Seat 4, Fouls", "Best move") names the part, the sentence does not again.
_THE_LOG_HAS = gettext_noop("the console's log has %(log)s, the protocol %(protocol)s")

#: The problems only the web application sees (what the judge typed into the protocol
#: form, a seat held by a non-participant): codes of the shell, with their English
#: sentence as the message id. The API shows them without a code (`code: null`).
SHELL_PROBLEMS: Mapping[str, str] = {
    "form.seat_number": gettext_noop("a seat is a number 1..10, not %(text)s"),
    "form.numbers_too_many": gettext_noop("at most %(n)d numbers"),
    "form.not_a_number": gettext_noop("%(text)s is not a number"),
    "form.extra_out_of_range": gettext_noop(
        "%(text)s is out of range: a judge gives one player more than 0 and at most "
        "%(cap)s extra points (8.4)"
    ),
    "form.extra_incomplete": gettext_noop("give both the seat and the points"),
    "form.nominees_missing": gettext_noop("write the nominated seats"),
    "form.judge_missing": gettext_noop(
        "the judge of the table is not named: write the judge's name before signing"
    ),
    "player.not_participant": gettext_noop("%(nick)s is not a participant of this tournament"),
    # the protocol against the console's log of its game (mafiatab.games.log_check)
    "log.block_day": gettext_noop(
        "the console's log has this vote on day %(log)s, the protocol on day %(protocol)s"
    ),
    "log.block_nominees": gettext_noop(
        "day %(day)s: the console's log has the nominees %(log)s, the protocol %(protocol)s"
    ),
    "log.block_votes": gettext_noop(
        "day %(day)s: the console's log has the votes %(log)s, the protocol %(protocol)s"
    ),
    "log.votes_over_alive": gettext_noop(
        "day %(day)s: %(total)s votes, but the console's log knows only %(alive)s living "
        "players at this vote"
    ),
    "log.votes_under_alive": gettext_noop(
        "day %(day)s: %(total)s votes, but the console's log knows %(alive)s living "
        "players at this vote: every living player votes (one who did not counts for "
        "the last nominee)"
    ),
    "log.block_lift": gettext_noop(
        "day %(day)s: the console's log has %(log)s for the lift, the protocol %(protocol)s"
    ),
    "log.lift_over_alive": gettext_noop(
        "day %(day)s: %(total)s for the lift, but the console's log knows only %(alive)s "
        "living players at this vote"
    ),
    "log.block_missing": gettext_noop(
        "the console's log has a vote on day %(day)s (nominees %(nominees)s, votes "
        "%(votes)s) that the protocol lacks"
    ),
    "log.block_extra": gettext_noop("the console's log has no such vote (day %(day)s)"),
    "log.fouls": _THE_LOG_HAS,
    "log.block_revote": gettext_noop(
        "day %(day)s: the console's log has this vote as the day's vote, the protocol as a revote"
    ),
    "log.block_not_revote": gettext_noop(
        "day %(day)s: the console's log has this vote as a revote, the protocol as the day's vote"
    ),
    "log.removal_missing": gettext_noop(
        "the console's log has this seat removed (%(reason)s), the protocol has no such removal"
    ),
    "log.removal_extra": gettext_noop("the console's log has no removal of this seat"),
    "log.removal_reason": gettext_noop(
        "the console's log has the removal for “%(log)s”, the protocol for “%(protocol)s”"
    ),
    "log.removal_waived": gettext_noop(
        "the console's log has the removal with its fine, the protocol without the fine"
    ),
    "log.removal_fined": gettext_noop(
        "the console's log has the removal without a fine, the protocol with the fine"
    ),
    "log.removal_online": gettext_noop(
        "the console's log has the removal for no online addendum violation, the protocol for one"
    ),
    "log.removal_not_online": gettext_noop(
        "the console's log has the removal for an online addendum violation, the protocol for none"
    ),
    "log.first_killed": _THE_LOG_HAS,
    "log.best_move": _THE_LOG_HAS,
    "log.block_nominated_by": gettext_noop(
        "day %(day)s: the console's log has the nominations by %(log)s, the protocol %(protocol)s"
    ),
    "log.player": gettext_noop(
        "the console's log has %(log)s at this seat, the protocol %(protocol)s"
    ),
    "log.role": gettext_noop(
        "the console's log has the role %(log)s at this seat, the protocol %(protocol)s"
    ),
    "log.winner": gettext_noop(
        "the console's log ends in %(log)s, the protocol says %(protocol)s: a result the "
        "log decided cannot be signed otherwise"
    ),
}

#: Every table of codes, by the kind of message, each code with its English sentence.
TABLES: Mapping[str, Mapping[str, str]] = {
    "problem": PROBLEM_TEMPLATES,
    "game": GAME_MESSAGES,
    "seating_flag": FLAG_TEMPLATES,
    "seating_error": ERROR_TEMPLATES,
    "advance_remark": REMARK_TEMPLATES,
    "shell": SHELL_PROBLEMS,
}

#: Every code with its English sentence (the gettext message id).
CATALOGUE: Mapping[str, str] = {
    code: template for table in TABLES.values() for code, template in table.items()
}

#: The codes said by a function of their parameters (plurals, quoted nicknames).
SAYERS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    **seating_flags.SAY,
    **seating_errors.SAY,
    **protocol_problems.SAY,
    **stage_problems.SAY,
    **game_problems.SAY,
}


def has_code(code: str) -> bool:
    """Whether the catalogue knows `code`."""
    return code in CATALOGUE


def say(code: str, params: Mapping[str, Any] | None = None) -> str | None:
    """The code's sentence in the active language with its parameters; None for a code
    the catalogue does not know (or parameters its sentence cannot take)."""
    values = params or {}
    try:
        sayer = SAYERS.get(code)
        if sayer is not None:
            return sayer(values)
        template = CATALOGUE.get(code)
        if template is None:
            return None
        text = gettext(template)
        return text % values if values else text
    except (KeyError, TypeError, ValueError):
        return None
