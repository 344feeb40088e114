"""What the console says, in the reader's language: events as sentences, phases,
and the engine's problems (codes with parameters) as messages."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


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
    """An engine problem in the reader's language, naming the event."""
    code = getattr(problem, "code", "")
    params = dict(getattr(problem, "params", {}) or {})
    text = PROBLEMS.get(code)
    if params.get("value") in UNCHOSEN and code in ("log.role_seat", "log.black"):
        # a role the judge has not dealt yet: say which to choose, not the reader's words
        role = str(params.get("role", "")) if code == "log.role_seat" else "black"
        text = UNCHOSEN_ROLES.get(role, text)
    message = str(text) % params if text is not None else str(problem)
    event = getattr(problem, "event", None)
    if event is None:
        return str(message)
    return _("Event %(n)s (%(type)s): %(message)s") % {
        "n": event,
        "type": getattr(problem, "event_type", "") or "",
        "message": message,
    }


#: The engine's problem codes (`mafiatab.core.game.problems.MESSAGES`) in the reader's language.
PROBLEMS: dict[str, Any] = {
    "log.not_json": gettext_lazy("not valid JSON: %(error)s"),
    "log.unreadable": gettext_lazy("cannot read %(path)s: %(error)s"),
    "log.not_object": gettext_lazy("a game log must be a JSON object"),
    "log.format": gettext_lazy('format must be "mafiatab-game-log/1", not %(value)s'),
    "log.table": gettext_lazy("table must be one of %(known)s, not %(value)s"),
    "log.settings": gettext_lazy("settings must be an object"),
    "log.setting_unknown": gettext_lazy("unknown setting %(name)s (known: %(known)s)"),
    "log.field_type": gettext_lazy("expected %(expected)s, not %(value)s"),
    "log.seats": gettext_lazy("seats must be a list of 10 nicknames"),
    "log.nickname": gettext_lazy("seat %(seat)s: a nickname must be a text, not %(value)s"),
    "log.nickname_empty": gettext_lazy("seat %(seat)s: the nickname is empty"),
    "log.nickname_too_long": gettext_lazy(
        "seat %(seat)s: the nickname %(value)s is longer than 64 characters"
    ),
    "log.nickname_control_character": gettext_lazy(
        "seat %(seat)s: the nickname %(value)s holds a control character"
    ),
    "log.nickname_bidi_character": gettext_lazy(
        "seat %(seat)s: the nickname %(value)s holds a text-direction character"
    ),
    "log.nickname_twice": gettext_lazy("seat %(seat)s: %(nickname)s is seated twice"),
    "log.roles": gettext_lazy("roles must be an object with sheriff, don and black"),
    "log.role_seat": gettext_lazy("%(role)s must be a seat 1..10, not %(value)s"),
    "log.black": gettext_lazy("black must be a list of 2 seats, not %(value)s"),
    "log.role_twice": gettext_lazy("seat %(seat)s is given two roles"),
    "log.role_unknown": gettext_lazy("roles: unknown key %(name)s (known: sheriff, don, black)"),
    "log.stage": gettext_lazy("stage must be one of %(known)s, not %(value)s"),
    "log.too_many_events": gettext_lazy("a game log holds at most %(max)s events, not %(count)s"),
    "log.events": gettext_lazy("events must be a list of events"),
    "event.not_object": gettext_lazy("an event must be an object, not %(value)s"),
    "event.type": gettext_lazy("unknown event type %(value)s (known: %(known)s)"),
    "event.missing": gettext_lazy("%(field)s is missing"),
    "event.field_type": gettext_lazy("%(field)s must be %(expected)s, not %(value)s"),
    "event.seat_range": gettext_lazy("%(field)s must be a seat 1..10, not %(value)s"),
    "event.text_too_long": gettext_lazy("%(field)s is longer than %(max)s characters"),
    "event.text_control_character": gettext_lazy("%(field)s holds a control character"),
    "event.text_bidi_character": gettext_lazy("%(field)s holds a text-direction character"),
    "event.number_not_finite": gettext_lazy("%(field)s must be a finite number, not %(value)s"),
    "event.extra_value": gettext_lazy(
        "%(field)s must be a text, a number, true or false, not %(value)s"
    ),
    "game.finished": gettext_lazy(
        "the game is over: nothing but the best move of a first-night kill that ended it "
        "comes after the end"
    ),
    "game.day_only": gettext_lazy("this event comes only during a day, not at night %(night)s"),
    "game.night_only": gettext_lazy("this event comes only at night, not on day %(day)s"),
    "seat.not_alive": gettext_lazy("seat %(seat)s is not in the game"),
    "seat.last_word_over": gettext_lazy(
        "seat %(seat)s has left the game and his last word is over"
    ),
    "voting.day1_off": gettext_lazy("day 1 has no voting at this table (day1_voting off)"),
    "voting.cancelled": gettext_lazy("the voting of day %(day)s was cancelled by a removal"),
    "voting.over": gettext_lazy("the voting of day %(day)s is over"),
    "nominate.closed": gettext_lazy("the voting of day %(day)s has begun: nominations are closed"),
    "nominate.by_twice": gettext_lazy("seat %(by)s already nominated seat %(seat)s today"),
    "nominate.seat_twice": gettext_lazy(
        "seat %(seat)s is already nominated today (by seat %(by)s)"
    ),
    "vote.too_few": gettext_lazy("a vote needs at least two nominees, not %(count)s"),
    "vote.lift_due": gettext_lazy("a lift vote for seats %(seats)s is due, not a vote"),
    "vote.counts_length": gettext_lazy(
        "%(expected)s candidates need %(expected)s counts, not %(given)s"
    ),
    "vote.negative": gettext_lazy("counts must be 0 or more, not %(value)s"),
    "vote.sum": gettext_lazy("counts sum to %(total)s, but %(alive)s players are alive"),
    "lift.not_due": gettext_lazy("no lift vote is due"),
    "lift.three_at_nine": gettext_lazy(
        "no lift vote when three are tied with nine alive at this table (lift_three_at_nine off)"
    ),
    "lift.range": gettext_lazy("for must be 0..%(alive)s, not %(value)s"),
    "night.revote_due": gettext_lazy("a revote among seats %(seats)s is due"),
    "night.lift_due": gettext_lazy("a lift vote for seats %(seats)s is due"),
    "night.vote_due": gettext_lazy("%(count)s seats are nominated and no vote was logged"),
    "shots.twice": gettext_lazy("the shots of night %(night)s are already logged"),
    "shots.seats": gettext_lazy(
        "shots must name every living black-team seat (%(expected)s), not %(given)s"
    ),
    "check.before_shots": gettext_lazy("checks come after the shots"),
    "check.twice": gettext_lazy("the %(role)s already checked this night"),
    "check.absent": gettext_lazy("the %(role)s (seat %(seat)s) is not in the game this night"),
    "check.own": gettext_lazy("the %(role)s cannot check his own seat"),
    "day.no_shots": gettext_lazy("the shots of night %(night)s are not logged"),
    "best_move.closed": gettext_lazy(
        "the best move comes in the last word of a first-night kill, before the first "
        "nomination of day 2"
    ),
    "best_move.twice": gettext_lazy("the best move is already logged"),
    "best_move.seats": gettext_lazy("the best move names exactly 3 distinct seats, not %(seats)s"),
    "best_move.own": gettext_lazy("the killed player cannot name his own seat %(seat)s"),
    "remove.online": gettext_lazy("an online removal is only for a fiim-online table"),
    "pause.minutes": gettext_lazy("minutes must be 1..%(max)s, not %(value)s"),
    "defeat.team": gettext_lazy("team must be red or black, not %(value)s"),
}
