"""What one validation run carries (`Checker`: the nicknames, dates and
amounts of points already found right, so that each is checked once), and the
small checks every part of the validation shares: a seat number, an ISO date."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from mafiatab.core.names import nickname_key
from mafiatab.core.problems import Problem, problem, quoted
from mafiatab.core.protocol import JudgeExtra, Protocol
from mafiatab.core.regulations import Regulation

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def is_iso_date(text: str) -> bool:
    """A calendar date written YYYY-MM-DD."""
    if not _ISO_DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class _Verdict:
    """How an amount of judge extra points compares with the 8.4 caps."""

    positive: bool
    above_winner: bool
    above_unapproved: bool
    above_loser: bool
    above_total: bool


class Checker:
    """What one validation run has found right so far, so that it is checked once:
    valid nicknames (with their identity keys), ISO dates, and how
    each amount of judge extra points compares with the caps."""

    def __init__(self, regulation: Regulation) -> None:
        self.regulation = regulation
        self.nicknames: dict[str, str] = {}
        """Valid nicknames seen, with their `nickname_key`."""
        self._spellings: dict[str, str] = {}
        self.has_case_variants = False
        """Two different valid nicknames seen share a key (so exact comparison of
        nicknames no longer tells players apart)."""
        self.dates: set[str] = set()
        self._verdicts: dict[tuple[int, int], _Verdict] = {}
        self._totals: dict[tuple[tuple[int, int], ...], tuple[Fraction, bool]] = {}

    def learn(self, nick: str) -> str:
        """Remember a valid nickname; its key."""
        key = self.nicknames[nick] = nickname_key(nick)
        if self._spellings.setdefault(key, nick) != nick:
            self.has_case_variants = True
        return key

    def total(self, extras: tuple[JudgeExtra, ...]) -> tuple[Fraction, bool]:
        """The total of judge extra points and whether it is above the 8.4.2 cap."""
        key = tuple([(e.points.numerator, e.points.denominator) for e in extras])
        found = self._totals.get(key)
        if found is None:
            total = sum((e.points for e in extras[1:]), extras[0].points)
            found = self._totals[key] = (total, total > self.regulation.judge_total_cap)
        return found

    def verdict(self, points: Fraction) -> _Verdict:
        """The 8.4 caps `points` breaks."""
        value = (points.numerator, points.denominator)
        found = self._verdicts.get(value)
        if found is None:
            regulation = self.regulation
            found = _Verdict(
                positive=points > 0,
                above_winner=points > regulation.judge_winner_cap,
                above_unapproved=points > regulation.judge_unapproved_cap,
                above_loser=points > regulation.judge_loser_cap,
                above_total=points > regulation.judge_total_cap,
            )
            self._verdicts[value] = found
        return found


def _seat_ok(protocol: Protocol, seat: object, field: str, problems: list[Problem]) -> bool:
    if type(seat) is int and 1 <= seat <= 10:
        return True
    problems.append(problem(protocol.id, None, field, "seat.range", value=quoted(seat)))
    return False
