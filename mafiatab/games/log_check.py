"""The protocol held against the console's log of its game.

A protocol alone cannot know every night kill (it records only the first), so the
core's checks count the living players from what it records. When the game was played
on the judge console, the log knew them all: the protocol the log made when the game
was closed (the version saved with `LOG_REASON`) is the reference. Each difference of
the protocol from it is named in words, as a warning the judge reads before signing,
beside the part of the form it concerns. What the log decided beyond a doubt is
refused, by every door: a vote whose votes do not add up to the log's living players at
that vote (every living player votes, game-rules.md: the protocol alone cannot count
them, the log can), a lift vote with more votes than them, and a winner other than the
log's result.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mafiatab.core.names import nickname_key
from mafiatab.core.problems import Problem
from mafiatab.core.protocol import FOUL_REMOVAL_REASON, is_foul_removal
from mafiatab.core.roles import Role
from mafiatab.games.models import Game, ProtocolVersion

#: The reason code of the version the console's log made when the game was closed.
LOG_REASON = "console.log"

#: The codes of the differences that refuse a signature (the rest warn).
REFUSING = frozenset(
    {
        "log.votes_over_alive",
        "log.votes_under_alive",
        "log.lift_over_alive",
        "log.winner",
    }
)


def _log_version(game: Game) -> ProtocolVersion | None:
    return game.versions.filter(reason_code=LOG_REASON).order_by("-number").first()


def log_protocol(game: Game) -> dict[str, Any] | None:
    """The protocol the console's log made for `game`; None for a game not played on
    the console (or played before the log's protocol was marked)."""
    version = _log_version(game)
    return version.data if version is not None else None


def first_night_seats(game: Game) -> list[int] | None:
    """The seats the log knew to be in the game when the first night fell (the best
    move names only them); None when the game has no log that says."""
    version = _log_version(game)
    seats = (version.reason_params or {}).get("first_night") if version is not None else None
    if not isinstance(seats, list):
        return None
    return [s for s in seats if isinstance(s, int) and not isinstance(s, bool)]


def _seats(value: Any) -> str:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return " ".join(str(v) for v in value) or "—"
    return "—" if value in (None, "") else str(value)


def _ints(value: Any) -> list[int]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]


def _note(code: str, field: str, seat: int | None = None, **params: Any) -> Problem:
    return Problem(None, seat, field, code, params)


def _block_notes(
    index: int, mine: Mapping[str, Any], logged: Mapping[str, Any]
) -> Iterator[Problem]:
    field = f"voting[{index}]"
    day = logged.get("day")

    def note(code: str, **params: Any) -> Problem:
        return _note(code, field, day=_seats(day), **params)

    if mine.get("day") != day:
        yield note("log.block_day", protocol=_seats(mine.get("day")), log=_seats(day))
    if _ints(mine.get("nominees")) != _ints(logged.get("nominees")):
        yield note(
            "log.block_nominees",
            protocol=_seats(mine.get("nominees")),
            log=_seats(logged.get("nominees")),
        )
    votes, logged_votes = _ints(mine.get("votes")), _ints(logged.get("votes"))
    alive = sum(logged_votes)  # the engine takes a vote only with every living player's vote
    if votes != logged_votes:
        yield note("log.block_votes", protocol=_seats(votes), log=_seats(logged_votes))
    if logged_votes and sum(votes) > alive:
        yield note("log.votes_over_alive", total=sum(votes), alive=alive)
    elif logged_votes and votes and sum(votes) < alive:
        # every living player votes; one who did not counts for the last nominee
        yield note("log.votes_under_alive", total=sum(votes), alive=alive)
    if bool(mine.get("revote")) != bool(logged.get("revote")):
        yield _note(
            "log.block_revote" if mine.get("revote") else "log.block_not_revote",
            f"{field}.revote",
            day=_seats(day),
        )
    logged_by = _ints(logged.get("nominated_by"))
    if logged_by and _ints(mine.get("nominated_by")) != logged_by:
        yield _note(
            "log.block_nominated_by",
            f"{field}.nominated_by",
            day=_seats(day),
            protocol=_seats(_ints(mine.get("nominated_by"))),
            log=_seats(logged_by),
        )
    lift, logged_lift = mine.get("lift"), logged.get("lift")
    if lift != logged_lift:
        yield note("log.block_lift", protocol=_seats(lift), log=_seats(logged_lift))
    if isinstance(lift, int) and logged_votes and lift > alive:
        yield note("log.lift_over_alive", total=lift, alive=alive)


def _voting_notes(data: Mapping[str, Any], played: Mapping[str, Any]) -> Iterator[Problem]:
    mine = [b for b in data.get("voting") or [] if isinstance(b, Mapping)]
    logged = [b for b in played.get("voting") or [] if isinstance(b, Mapping)]
    for index, block in enumerate(logged, start=1):
        if index > len(mine):
            yield _note(
                "log.block_missing",
                "voting",
                day=_seats(block.get("day")),
                nominees=_seats(block.get("nominees")),
                votes=_seats(block.get("votes")),
            )
        else:
            yield from _block_notes(index, mine[index - 1], block)
    for index in range(len(logged) + 1, len(mine) + 1):
        yield _note("log.block_extra", f"voting[{index}]", day=_seats(mine[index - 1].get("day")))


def _fouls(data: Mapping[str, Any]) -> list[Any]:
    return [s.get("fouls") if isinstance(s, Mapping) else None for s in data.get("seats") or []]


def _removals(data: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    """The removals of a protocol by their seat (a seat named twice: its first)."""
    removals: dict[int, Mapping[str, Any]] = {}
    for removal in data.get("disqualified") or []:
        seat = removal.get("seat") if isinstance(removal, Mapping) else None
        if isinstance(seat, int) and not isinstance(seat, bool):
            removals.setdefault(seat, removal)
    return removals


def _reason_key(reason: Any) -> str:
    """A removal's reason as compared: the fourth foul's code whatever its spelling, a
    judge's words whatever their spaces and case."""
    text = " ".join(str(reason or "").split())
    return FOUL_REMOVAL_REASON if is_foul_removal(text) else text.casefold()


def _removal_notes(data: Mapping[str, Any], played: Mapping[str, Any]) -> Iterator[Problem]:
    """Each removal against the log's, seat by seat: the seat, its reason, whether it is
    fined and whether it is an online addendum violation."""
    mine, logged = _removals(data), _removals(played)
    for seat in sorted(mine.keys() | logged.keys()):
        if seat not in mine:
            yield _note(
                "log.removal_missing",
                "disqualified",
                seat,
                reason=str(logged[seat].get("reason") or ""),
            )
            continue
        if seat not in logged:
            yield _note("log.removal_extra", "disqualified", seat)
            continue
        ours, theirs = mine[seat], logged[seat]
        if _reason_key(ours.get("reason")) != _reason_key(theirs.get("reason")):
            yield _note(
                "log.removal_reason",
                "disqualified.reason",
                seat,
                protocol=str(ours.get("reason") or ""),
                log=str(theirs.get("reason") or ""),
            )
        fined = bool(ours.get("fined", True))
        if fined != bool(theirs.get("fined", True)):
            yield _note(
                "log.removal_fined" if fined else "log.removal_waived",
                "disqualified.fined",
                seat,
            )
        online = bool(ours.get("online", False))
        if online != bool(theirs.get("online", False)):
            yield _note(
                "log.removal_online" if online else "log.removal_not_online",
                "disqualified.online",
                seat,
            )


def _seat_values(data: Mapping[str, Any], key: str) -> list[str]:
    return [
        str(s.get(key) or "") if isinstance(s, Mapping) else "" for s in data.get("seats") or []
    ]


def _role(text: str) -> Role | None:
    try:
        return Role.parse(text)
    except ValueError:
        return None


def _role_letter(text: str) -> str:
    role = _role(text)
    return role.letter if role is not None else (text or "—")


def _seat_notes(data: Mapping[str, Any], played: Mapping[str, Any]) -> Iterator[Problem]:
    """Who sits where and with which role, seat by seat, as the log dealt them."""
    pairs = zip(_seat_values(data, "player"), _seat_values(played, "player"), strict=False)
    for seat, (mine, logged) in enumerate(pairs, 1):
        if logged and nickname_key(mine) != nickname_key(logged):
            yield _note("log.player", "player", seat, protocol=mine or "—", log=logged)
    pairs = zip(_seat_values(data, "role"), _seat_values(played, "role"), strict=False)
    for seat, (mine, logged) in enumerate(pairs, 1):
        if _role(logged) is not None and _role(mine) != _role(logged):
            yield _note(
                "log.role", "role", seat, protocol=_role_letter(mine), log=_role_letter(logged)
            )


def _other_notes(data: Mapping[str, Any], played: Mapping[str, Any]) -> Iterator[Problem]:
    for seat, (mine, logged) in enumerate(zip(_fouls(data), _fouls(played), strict=False), 1):
        if (mine or 0) != (logged or 0):
            yield _note("log.fouls", "fouls", seat, protocol=mine or 0, log=logged or 0)
    yield from _removal_notes(data, played)
    if data.get("first_killed") != played.get("first_killed"):
        yield _note(
            "log.first_killed",
            "first_killed",
            protocol=_seats(data.get("first_killed")),
            log=_seats(played.get("first_killed")),
        )
    if played.get("best_move") and data.get("best_move") != played.get("best_move"):
        yield _note(
            "log.best_move",
            "best_move",
            protocol=_seats(data.get("best_move")),
            log=_seats(played.get("best_move")),
        )
    winner, logged_winner = data.get("winner"), played.get("winner")
    if logged_winner and winner and winner != logged_winner:
        yield _note("log.winner", "winner", protocol=str(winner), log=str(logged_winner))


def differences(data: Mapping[str, Any], played: Mapping[str, Any] | None) -> list[Problem]:
    """Every difference of the protocol `data` from the log's protocol `played` (none
    without a log): the players and roles seat by seat, the voting blocks, block by
    block (day, nominees, votes, revote, nominators, lift), the fouls, the removals seat
    by seat (reason, fine, online violation), the first-killed seat, the best move and
    the winner."""
    if not played:
        return []
    return [
        *_seat_notes(data, played),
        *_voting_notes(data, played),
        *_other_notes(data, played),
    ]


def refusals(game: Game, data: Mapping[str, Any]) -> list[Problem]:
    """The differences from the game's log that no signature may pass: votes that do
    not add up to the living players the log knew at that vote (a lift vote with more
    than them), a winner other than the log's result."""
    return [p for p in differences(data, log_protocol(game)) if p.code in REFUSING]
