"""A protocol as a table's judge enters it (the web form's, the API's or the console's
dictionary), read once as the game's next version (`read_entry`).

The entry is read by the one reader and validator of every protocol (`read_protocol`,
as a tournament file's game is read), and beside that the reading says what its door
must refuse even in a draft, which is saved without the regulation's rules: texts that
no page, file or database can hold, seats held by nobody of the tournament, texts too
long for where they are kept, and approvals of extra points (8.4.3) that only the chief
judge may add.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mafiatab.core.names import TEXT_BIDI, TEXT_CONTROL, nickname_key, text_problems
from mafiatab.core.problems import Problem
from mafiatab.core.protocol import Protocol
from mafiatab.core.records.doors import read_protocol
from mafiatab.core.records.schema import TournamentFileError
from mafiatab.core.regulations import Regulation


@dataclass(frozen=True, slots=True)
class Entry:
    """One protocol as entered, read: what it is stored as and all that is found in it."""

    data: dict[str, Any]
    """The dictionary to store: the game's own header keys, each seat's player in the
    spelling of the participant he is."""
    protocol: Protocol | None
    """The protocol read, when it reads without problems."""
    problems: tuple[Problem, ...]
    """Every problem of `data` against the regulation's rules (a draft may have them)."""
    texts: tuple[tuple[str, str], ...]
    """(where, code) of each text of the entry that holds a control character or a
    lone surrogate (`TEXT_CONTROL`) or a text-direction character (`TEXT_BIDI`);
    where is a path into the dictionary (`disqualified.0.reason`)."""
    strangers: tuple[tuple[int, str], ...]
    """(seat, nickname) of each seat held by somebody who is no participant."""
    too_long: tuple[tuple[str, int], ...]
    """(key, limit) of each header text longer than the place that keeps it."""
    approvals_added: bool
    """Approvals of extra points (8.4.3) that the stored protocol does not have were
    added by somebody who may not approve."""
    unchanged: bool
    """The entry says what the stored protocol says (keys left empty aside)."""

    @property
    def is_valid(self) -> bool:
        """Read, and without a problem against the regulation's rules."""
        return self.protocol is not None and not self.problems


@dataclass(frozen=True, slots=True)
class EntryFacts:
    """What the game knows that an entry is read against."""

    regulation: Regulation
    header: Mapping[str, object]
    """The keys that belong to the game, not to the entry (None: the key is left out)."""
    stored: Mapping[str, Any]
    """The game's stored protocol, whose players keep their seats (a participant removed
    later, a confirmed protocol changed after) and whose approvals stay."""
    participants: Mapping[str, str]
    """Who may hold a seat, by `nickname_key`, with his spelling."""
    limits: Mapping[str, int]
    """The longest text each header key may hold."""
    may_approve: bool
    """The writer may approve extra points (8.4.3)."""


def read_entry(data: Mapping[str, Any], facts: EntryFacts) -> Entry:
    """`data` read as the next version of the game that `facts` describe."""
    fixed = _with_header(data, facts.header)
    seated, strangers = spell_seats(fixed, facts.participants, facts.stored)
    too_long = tuple(
        (key, limit)
        for key, limit in facts.limits.items()
        if isinstance(value := seated.get(key), str) and len(value) > limit
    )
    added = not facts.may_approve and _approvals_added(seated, facts.stored)
    unchanged = _said(facts.stored) == _said(seated)
    texts = tuple(
        (where, code)
        for where, text in _texts(data)
        for code in text_problems(text, limit=len(text))
        if code in (TEXT_CONTROL, TEXT_BIDI)
    )
    try:
        protocol: Protocol | None = read_protocol(seated, 1, facts.regulation)
        problems: tuple[Problem, ...] = ()
    except TournamentFileError as exc:
        protocol, problems = None, tuple(exc.problems)
    return Entry(
        data=seated,
        protocol=protocol,
        problems=problems,
        texts=texts,
        strangers=strangers,
        too_long=too_long,
        approvals_added=added,
        unchanged=unchanged,
    )


def _texts(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a protocol's dictionary with where it is (`disqualified.0.reason`)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _texts(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts(item, f"{path}.{index}")


def _with_header(data: Mapping[str, Any], header: Mapping[str, object]) -> dict[str, Any]:
    fixed = dict(data)
    for key, value in header.items():
        if value is None:
            fixed.pop(key, None)
        else:
            fixed[key] = value
    return fixed


def spell_seats(
    data: dict[str, Any], participants: Mapping[str, str], stored: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[tuple[int, str], ...]]:
    """`data` with every seat's nickname in its participant's spelling (found by the
    nickname's key), and the seats held by somebody who is no participant. The players
    of the stored protocol keep their seats (a participant removed later, a confirmed
    protocol changed after); empty seats are left to the validation."""
    holders = {
        nickname_key(name): name
        for seat in stored.get("seats") or []
        if isinstance(seat, Mapping) and isinstance(name := seat.get("player"), str) and name
    }
    holders.update(participants)
    strangers: list[tuple[int, str]] = []
    seats: list[Any] = []
    for number, seat in enumerate(data.get("seats") or [], start=1):
        name = seat.get("player") if isinstance(seat, Mapping) else None
        if isinstance(name, str) and name.strip():
            spelling = holders.get(nickname_key(name))
            if spelling is None:
                strangers.append((number, name.strip()))
            else:
                seat = {**seat, "player": spelling}
        seats.append(seat)
    return ({**data, "seats": seats} if "seats" in data else data), tuple(strangers)


def _approvals(data: Mapping[str, Any]) -> set[tuple[object, Fraction]]:
    return {
        (extra.get("seat"), Fraction(str(extra.get("points"))))
        for extra in data.get("judge_extra") or []
        if isinstance(extra, Mapping) and extra.get("chief_approved")
    }


def _approvals_added(data: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    try:
        return bool(_approvals(data) - _approvals(stored))
    except (ValueError, ZeroDivisionError):
        return False  # unreadable points: the validation names them


def _said(protocol: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in protocol.items() if value not in (None, "", [])}
