"""Protocol problems whose parameters are words of the game (a team, how a seat left):
said here in the reader's language, never as the core's codes ("black", "vote")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mafiatab.messages.score_lines import removal_reason_text

Params = Mapping[str, Any]

_TEAMS = {"red": gettext_lazy("the red team"), "black": gettext_lazy("the black team")}

_HOW = {
    "vote": gettext_lazy("%(seat)s voted out"),
    "lift": gettext_lazy("%(seat)s lifted out"),
    "shot": gettext_lazy("%(seat)s shot in the first night"),
    "removal": gettext_lazy("%(seat)s removed"),
}


def say_left(left: object) -> str:
    """`"2:vote,5:removal"` as "2 voted out, 5 removed" in the active language."""
    said = []
    for pair in str(left or "").split(","):
        seat, _sep, how = pair.partition(":")
        template = _HOW.get(how)
        if seat and template is not None:
            said.append(str(template) % {"seat": seat})
    return ", ".join(said)


def _winner_contradicted(params: Params) -> str:
    winner = str(params.get("winner"))
    team = _TEAMS.get(winner, winner)
    left = say_left(params.get("left"))
    if not left:  # a problem stored before it named its seats
        return _("%(team)s cannot win: every seat of that team left the game") % {"team": team}
    return _("%(team)s cannot win: every seat of that team left the game (%(left)s)") % {
        "team": team,
        "left": left,
    }


#: A game's result, as a sentence names it.
_RESULTS = {
    "red": gettext_lazy("a win of the red team"),
    "black": gettext_lazy("a win of the black team"),
    "draw": gettext_lazy("a draw"),
}


def _log_winner(params: Params) -> str:
    """The protocol's winner against the console's log's result, both in words."""
    said = {
        key: str(_RESULTS.get(str(params.get(key)), params.get(key))) for key in ("log", "protocol")
    }
    return (
        _(
            "the console's log ends in %(log)s, the protocol says %(protocol)s: a result the "
            "log decided cannot be signed otherwise"
        )
        % said
    )


def _reason(value: object) -> str:
    return removal_reason_text(str(value or "")) or "—"


def _log_removal_missing(params: Params) -> str:
    """A removal the log has and the protocol lacks, its reason in the reader's words."""
    return _(
        "the console's log has this seat removed (%(reason)s), the protocol has no such removal"
    ) % {"reason": _reason(params.get("reason"))}


def _log_removal_reason(params: Params) -> str:
    """A removal's reason against the log's, each in the reader's words (the fourth
    foul's code said in the active language)."""
    return _("the console's log has the removal for “%(log)s”, the protocol for “%(protocol)s”") % {
        "log": _reason(params.get("log")),
        "protocol": _reason(params.get("protocol")),
    }


SAY: dict[str, Callable[[Params], str]] = {
    "winner.contradicted": _winner_contradicted,
    "log.winner": _log_winner,
    "log.removal_missing": _log_removal_missing,
    "log.removal_reason": _log_removal_reason,
}
