"""What the console says, in the reader's language: events as sentences, phases,
and the engine's problems (codes with parameters) as messages."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mafiatab.messages import game_problem_text


def _seats(seats: Any) -> str:
    return ", ".join(str(s) for s in seats or [])


def _team(team: Any) -> str:
    return _("the red team") if team == "red" else _("the black team")


def _shots(event: dict[str, Any]) -> str:
    by = event.get("by")
    if by is None:
        return _("The black team shoots.")
    if not by:
        return _("Shots: nobody shoots.")
    parts = []
    for shooter, target in sorted(by.items(), key=lambda item: int(item[0])):
        if target is None:
            parts.append(_("%(by)s does not shoot") % {"by": shooter})
        else:
            parts.append(_("%(by)s shoots %(seat)s") % {"by": shooter, "seat": target})
    return _("Shots: %(shots)s.") % {"shots": "; ".join(parts)}


def _check(event: dict[str, Any], who: str) -> str:
    if "seat" not in event:
        return _("The don checks a seat.") if who == "don" else _("The sheriff checks a seat.")
    if who == "don":
        return _("The don checks seat %(seat)s.") % {"seat": event["seat"]}
    return _("The sheriff checks seat %(seat)s.") % {"seat": event["seat"]}


def _remove(event: dict[str, Any]) -> str:
    text = _("Seat %(seat)s is removed: %(reason)s.") % {
        "seat": event.get("seat"),
        "reason": event.get("reason") or "—",
    }
    if event.get("online"):
        text += " " + _("(online addendum)")
    if event.get("fined") is False:
        text += " " + _("(no fine)")
    return text


def _vote(event: dict[str, Any], seats: tuple[int, ...] = (), revote: bool = False) -> str:
    counts = event.get("counts") or []
    if seats and len(seats) == len(counts):
        text = "; ".join(
            _("%(seat)s — %(n)s") % {"seat": seat, "n": n}
            for seat, n in zip(seats, counts, strict=True)
        )
    else:
        text = ", ".join(str(c) for c in counts)
    if revote:
        return _("Revote: %(counts)s.") % {"counts": text}
    return _("Vote: %(counts)s.") % {"counts": text}


def result_text(result: Any, *, single: bool = False) -> str:
    """What a voting block came to (`BlockResult.to_json()`), as a sentence."""
    if not isinstance(result, dict):
        return ""
    seats = result.get("seats") or []
    listed = {"seats": _seats(seats), "seat": seats[0] if seats else ""}
    outcome, why = result.get("outcome"), result.get("why")
    if outcome == "leaves":
        if single:
            return _("Seat %(seat)s, the only nominee, leaves.") % listed
        if len(seats) == 1:
            return _("Seat %(seat)s leaves.") % listed
        return _("Seats %(seats)s leave.") % listed
    if outcome == "revote":
        return _("A tie: seats %(seats)s go to a revote.") % listed
    if outcome == "lift":
        return _("Tied again: the lift vote for seats %(seats)s.") % listed
    nobody = {
        "all_tied": _("Every living player is tied: nobody leaves."),
        "lift": _("Nobody leaves."),
        "three_at_nine": _("Three tied with nine alive: no lift vote, nobody leaves."),
        "day1_single": _("Seat %(seat)s is the only nominee: on day 1 nobody leaves.") % listed,
    }
    return str(nobody.get(str(why), _("Nobody leaves.")))


def _effect_text(kind: Any, effect: Any) -> str:
    """What an event did (`Effect.to_json()`): who left and how, the vote's result, the
    voting cancelled, the end of the game."""
    if not isinstance(effect, dict):
        return ""
    parts: list[str] = []
    block = effect.get("block")
    if isinstance(block, dict):
        parts.append(result_text(block.get("result"), single=not block.get("votes")))
    if kind == "day" and effect.get("night_kill") is not None:
        killed = [d.get("seat") for d in effect.get("left") or []]
        if effect.get("night_kill") and killed:
            parts.append(_("Seat %(seat)s was killed in the night.") % {"seat": killed[0]})
        else:
            parts.append(_("Nobody was killed in the night."))
    if kind == "foul" and effect.get("removed") is not None:
        parts.append(_("Seat %(seat)s is removed (4 fouls).") % {"seat": effect["removed"]})
    if effect.get("cancelled") is not None:
        parts.append(_("The voting of day %(day)s is cancelled.") % {"day": effect["cancelled"]})
    if effect.get("winner"):
        parts.append(winner_text(effect["winner"]))
    return " ".join(p for p in parts if p)


def _lift(event: dict[str, Any], seats: tuple[int, ...] = ()) -> str:
    if seats:
        return _("Lift vote for seats %(seats)s: %(n)s for all of them leaving.") % {
            "seats": _seats(seats),
            "n": event.get("for"),
        }
    return _("Lift vote: %(n)s for all the tied leaving.") % {"n": event.get("for")}


def event_text(event: dict[str, Any], seats: tuple[int, ...] = (), effect: Any = None) -> str:
    """One event of the log as a sentence; `seats`, for a vote or a lift, the seats it
    was about (the candidates in order); `effect`, what it did (`Effect.to_json()`),
    told after it: who left and how, the vote's result, the voting it cancelled."""
    text = _event_text(event, seats, effect)
    told = _effect_text(event.get("type"), effect)
    return f"{text} {told}" if told else text


def _event_text(event: dict[str, Any], seats: tuple[int, ...], effect: Any) -> str:
    kind = event.get("type")
    if kind == "vote":
        block = effect.get("block") if isinstance(effect, dict) else None
        return _vote(event, seats, revote=bool(isinstance(block, dict) and block.get("revote")))
    if kind == "lift":
        return _lift(event, seats)
    simple = {
        "night": lambda e: _("The night falls."),
        "day": lambda e: _("The day begins."),
        "nominate": lambda e: (
            _("Seat %(by)s nominates seat %(seat)s.") % {"by": e.get("by"), "seat": e.get("seat")}
        ),
        "foul": lambda e: _("A foul to seat %(seat)s.") % {"seat": e.get("seat")},
        "remove": _remove,
        "pause": lambda e: (
            _("Time-out for seat %(seat)s: %(minutes)s minutes (%(reason)s).")
            % {"seat": e.get("seat"), "minutes": e.get("minutes"), "reason": e.get("reason") or "—"}
        ),
        "shots": _shots,
        "don_check": lambda e: _check(e, "don"),
        "sheriff_check": lambda e: _check(e, "sheriff"),
        "best_move": lambda e: _("Best move: %(seats)s.") % {"seats": _seats(e.get("seats"))},
        "defeat": lambda e: (
            _("Procedural defeat of %(team)s: %(reason)s.")
            % {"team": _team(e.get("team")), "reason": e.get("reason") or "—"}
        ),
    }
    render = simple.get(str(kind))
    if render is None:
        return _("Unknown event %(type)s.") % {"type": kind}
    return str(render(event))


def phase_text(phase: Any) -> str:
    """`{"day": 2}` -> "Day 2"; `{"night": 1}` -> "Night 1"."""
    if isinstance(phase, dict):
        if "day" in phase:
            return _("Day %(n)s") % {"n": phase["day"]}
        if "night" in phase:
            return _("Night %(n)s") % {"n": phase["night"]}
    return str(phase or "")


def winner_text(winner: Any) -> str:
    return {
        "red": _("The red team wins."),
        "black": _("The black team wins."),
        "draw": _("A draw."),
    }.get(str(winner), "")


#: How the engine shows a role the judge left unchosen.
UNCHOSEN = frozenset({"null", "None", "[]", "", None})
#: What the judge is asked to choose for each role left unchosen.
UNCHOSEN_ROLES: dict[str, Any] = {
    "sheriff": gettext_lazy("Choose the sheriff's seat."),
    "don": gettext_lazy("Choose the don's seat."),
    "black": gettext_lazy("Choose the seats of the two black players."),
}


def problem_text(problem: Any) -> str:
    """An engine problem in the reader's language, naming the event: the one translator's
    (`mafiatab.messages.game_problem_text`), with the console's prompt for a role the
    judge has not dealt yet."""
    code = getattr(problem, "code", "")
    params = dict(getattr(problem, "params", {}) or {})
    if params.get("value") in UNCHOSEN and code in ("log.role_seat", "log.black"):
        # a role the judge has not dealt yet: say which to choose, not the reader's words
        role = str(params.get("role", "")) if code == "log.role_seat" else "black"
        prompt = UNCHOSEN_ROLES.get(role)
        if prompt is not None:
            return game_problem_text(problem, str(prompt))
    return game_problem_text(problem)
