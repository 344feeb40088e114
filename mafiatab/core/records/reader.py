"""Records to core objects: one reading (`_Reader`) turns the typed records of a
file or of one protocol into `Protocol`s and a `Tournament`, collecting every
problem, and has each protocol checked by the one validator
(`mafiatab.core.validation`); nicknames are brought to one spelling per player."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from datetime import datetime
from fractions import Fraction
from functools import partial
from operator import attrgetter
from typing import Any

from mafiatab.core.names import nickname_key
from mafiatab.core.problems import Problem, problem, quoted
from mafiatab.core.protocol import (
    GamePenalty,
    JudgeExtra,
    Protocol,
    Removal,
    Tournament,
    TournamentPenalty,
    VotingRound,
)
from mafiatab.core.records.schema import (
    FORMAT,
    ROLES,
    STAGES,
    WINNERS,
    TournamentFileError,
    _Extra,
    _File,
    _Game,
    _ScheduledRound,
    _TournamentPenalty,
    _Vote,
    to_fraction,
)
from mafiatab.core.regulations import REGULATIONS, Regulation
from mafiatab.core.roles import Role
from mafiatab.core.schedule import ScheduledRound, is_web_address, out_of_order, parse_starts_at
from mafiatab.core.stages import StagePlan, plan_problems
from mafiatab.core.validation import Checker, validate_protocol, validate_tournament_settings

#: A `Protocol` from all its fields in this order, without the keyword handling of
#: its constructor (a file holds tens of thousands of them).
_new_protocol: Callable[[tuple[Any, ...]], Protocol] = partial(tuple.__new__, Protocol)
_PROTOCOL_FIELDS = (
    "id",
    "stage",
    "players",
    "roles",
    "winner",
    "fouls",
    "round",
    "table",
    "date",
    "judge",
    "first_killed",
    "best_move",
    "judge_extra",
    "penalties",
    "disqualified",
    "replayed",
    "voting",
)
_new_extra: Callable[[tuple[Any, ...]], JudgeExtra] = partial(tuple.__new__, JudgeExtra)
if JudgeExtra._fields != ("seat", "points", "reason", "chief_approved"):
    raise RuntimeError("JudgeExtra's fields changed: update records.reader._Reader.extras")
if Protocol._fields != _PROTOCOL_FIELDS:  # the reading builds protocols field by field
    raise RuntimeError("Protocol's fields changed: update records.reader._Reader.protocol")
_PLAYER = attrgetter("player")
_ROLE = attrgetter("role")
_FOULS = attrgetter("fouls")


class _Reader:
    """One reading: turns records into core objects, collecting every problem.

    Values seen once (role columns, amounts of points) are converted once per reading."""

    def __init__(self, regulation: Regulation | None) -> None:
        self.regulation = regulation
        self.checker = Checker(regulation) if regulation is not None else None
        self.problems: list[Problem] = []
        self._roles: dict[tuple[str, ...], tuple[Role, ...]] = {}
        self._points: dict[int | float, Fraction] = {}

    def points(
        self, value: int | float, game: str | None, seat: int | None, field: str = "judge_extra"
    ) -> Fraction | None:
        found = self._points.get(value)
        if found is None:
            if type(value) is float and not math.isfinite(value):
                self.problems.append(problem(game, seat, field, "type.number", value=quoted(value)))
                return None
            found = self._points[value] = to_fraction(value)
        return found

    def roles(self, raw: tuple[str, ...], gid: str) -> tuple[Role, ...] | None:
        roles = self._roles.get(raw)
        if roles is None:
            unknown = [(n, text) for n, text in enumerate(raw, start=1) if text not in ROLES]
            if unknown:
                for number, text in unknown:
                    self.problems.append(
                        problem(gid, number, "role", "role.unknown", value=quoted(text))
                    )
                return None
            roles = self._roles[raw] = tuple([ROLES[text] for text in raw])
        return roles

    def protocol(self, game: _Game, position: int) -> Protocol | None:
        """The protocol of a well-typed record, validated when the regulation is known."""
        gid = game.id
        if gid is None or not gid.strip():
            gid = self.default_id(gid, position)
        seats = game.seats
        if len(seats) != 10:
            self.problems.append(problem(gid, None, "seats", "seats.count", count=len(seats)))
            return None
        raw = tuple(map(_ROLE, seats))
        roles = self._roles.get(raw) or self.roles(raw, gid)
        extras = self.extras(game.judge_extra, gid) if game.judge_extra else ()
        if roles is None or extras is None:
            return None
        protocol = _new_protocol(
            (
                gid,
                STAGES[game.stage],
                tuple(map(_PLAYER, seats)),
                roles,
                WINNERS[game.winner],
                tuple(map(_FOULS, seats)),
                game.round,
                game.table,
                game.date,
                game.judge,
                game.first_killed,
                game.best_move or (),
                extras,
                tuple([GamePenalty(p.seat, p.rule, p.reason) for p in game.penalties])
                if game.penalties
                else (),
                tuple([Removal(r.seat, r.reason, r.online, r.fined) for r in game.disqualified])
                if game.disqualified
                else (),
                game.replayed,
                tuple([_vote(v) for v in game.voting]) if game.voting else (),
            )
        )
        checker = self.checker
        if checker is not None:
            found = validate_protocol(protocol, checker.regulation, checker)
            if found:
                self.problems.extend(found)
        return protocol

    def default_id(self, gid: str | None, position: int) -> str:
        """The label of a game without an id ("game N"); a blank id is a problem."""
        label = f"game {position}"
        if gid is not None:
            self.problems.append(problem(label, None, "id", "id.empty", value=quoted(gid)))
        return label

    def extras(self, entries: tuple[_Extra, ...], gid: str) -> tuple[JudgeExtra, ...] | None:
        """Judge extra points with exact amounts; None if an amount is not finite."""
        known = self._points
        result = []
        for e in entries:
            points = known.get(e.points)
            if points is None:
                points = self.points(e.points, gid, e.seat)
                if points is None:
                    return None
            result.append(_new_extra((e.seat, points, e.reason, e.chief_approved)))
        return tuple(result)

    def tournament_penalties(
        self, penalties: Iterable[_TournamentPenalty]
    ) -> tuple[TournamentPenalty, ...]:
        result = []
        for index, p in enumerate(penalties, start=1):
            field = f"penalties[{index}]"
            points = self.points(p.points, None, None, field)
            if points is not None:
                result.append(TournamentPenalty(p.player, points, p.reason))
        return tuple(result)

    def schedule(self, entries: Iterable[_ScheduledRound]) -> tuple[ScheduledRound, ...]:
        """The rounds' times and places; a time without its offset, a link that is no
        web address, a round below 1 or named twice is a problem."""
        result = []
        seen: set[tuple[str, int]] = set()
        for index, entry in enumerate(entries, start=1):
            where = f"schedule[{index}]"
            starts_at = None
            if entry.starts_at is not None:
                starts_at = parse_starts_at(entry.starts_at)
                if starts_at is None:
                    self.problems.append(
                        problem(
                            None,
                            None,
                            f"{where}.starts_at",
                            "datetime.not_iso",
                            value=quoted(entry.starts_at),
                        )
                    )
            if entry.link and not is_web_address(entry.link):
                self.problems.append(
                    problem(None, None, f"{where}.link", "link.not_web", value=quoted(entry.link))
                )
            if entry.round < 1:
                self.problems.append(
                    problem(None, None, f"{where}.round", "number.below_one", value=entry.round)
                )
            key = (entry.stage, entry.round)
            if key in seen:
                self.problems.append(
                    problem(None, None, f"{where}.round", "schedule.round_twice", value=entry.round)
                )
            seen.add(key)
            if len(entry.place) > 200:
                self.problems.append(
                    problem(None, None, f"{where}.place", "name.too_long", limit=200)
                )
            result.append(
                ScheduledRound(entry.stage, entry.round, starts_at, entry.place, entry.link)
            )
        index_of = {id(scheduled): index for index, scheduled in enumerate(result, start=1)}
        for earlier, later in out_of_order(result):
            self.problems.append(
                problem(
                    None,
                    None,
                    f"schedule[{index_of[id(later)]}].starts_at",
                    "schedule.out_of_order",
                    value=_iso(later.starts_at),
                    before=index_of[id(earlier)],
                    before_value=_iso(earlier.starts_at),
                )
            )
        return tuple(result)

    def header(self, record: _File | dict[str, Any]) -> bool:
        """Check the format and the ruleset; False when the format is wrong (nothing
        else is read then)."""
        get = record.get if isinstance(record, dict) else lambda key: getattr(record, key)
        found = get("format")
        if found != FORMAT:
            self.problems.append(
                problem(
                    None, None, "format", "format.wrong", expected=repr(FORMAT), value=quoted(found)
                )
            )
            return False
        ruleset = get("ruleset")
        regulation = REGULATIONS.get(ruleset) if isinstance(ruleset, str) else None
        if regulation is None:
            known = ", ".join(sorted(REGULATIONS))
            self.problems.append(
                problem(
                    None, None, "ruleset", "ruleset.unknown", known=known, value=quoted(ruleset)
                )
            )
        else:
            self.regulation = regulation
            self.checker = Checker(regulation)
        return True

    def plan(self, raw: object) -> StagePlan | None:
        """The stage plan of the file's `stages` (None when absent or refused)."""
        if raw is None:
            return None
        problems = plan_problems(raw)
        if problems:
            self.problems.extend(problems)
            return None
        return StagePlan.parse(raw)

    def finish(
        self, record: _File, games: list[Protocol], penalties: tuple[TournamentPenalty, ...]
    ) -> Tournament:
        """The tournament of a file whose parts have been read; raises TournamentFileError
        when any problem was found."""
        tournament = _with_canonical_nicknames(
            Tournament(
                name=record.name,
                ruleset=record.ruleset,
                games=tuple(games),
                participants=record.participants,
                games_before_final=record.games_before_final,
                lot_seed=record.lot_seed or 0,
                penalties=penalties,
                stages=self.plan(record.stages),
                schedule=self.schedule(record.schedule or ()),
            ),
            self.checker,
        )
        self.problems.extend(validate_tournament_settings(tournament, self.checker))
        if self.problems:
            raise TournamentFileError(self.problems)
        return tournament


def _iso(moment: datetime | None) -> str:
    return moment.isoformat() if moment is not None else ""


def _vote(v: _Vote) -> VotingRound:
    return VotingRound(
        v.day,
        v.nominees or (),
        v.votes or (),
        v.nominated_by or (),
        v.revote,
        v.lift,
    )


def _read_file(record: _File) -> Tournament:
    reader = _Reader(None)
    if not reader.header(record):
        raise TournamentFileError(reader.problems)
    games = [
        p
        for position, game in enumerate(record.games, start=1)
        if (p := reader.protocol(game, position)) is not None
    ]
    penalties = reader.tournament_penalties(record.penalties or ())
    return reader.finish(record, games, penalties)


def _with_canonical_nicknames(tournament: Tournament, checker: Checker | None) -> Tournament:
    """The tournament with every player under one spelling: nicknames are compared by
    `nickname_key` ("Кэп" and "кэп" are one player), and the first spelling seen in
    the games (in file order, seat 1 first) is the canonical one; a tournament
    penalty takes its player's spelling too. `checker` is the one that validated the
    games (it knows every nickname's key and whether case variants were seen)."""
    if checker is None:
        return tournament
    variants: dict[str, str] = {}
    if checker.has_case_variants:
        canonical: dict[str, str] = {}
        for game in tournament.games:
            for nick in game.players:
                first = canonical.setdefault(nickname_key(nick), nick)
                if first != nick:
                    variants[nick] = first
    else:
        canonical = {key: nick for nick, key in checker.nicknames.items()}
    for penalty in tournament.penalties:
        spelling = canonical.get(nickname_key(penalty.player))
        if spelling is not None and spelling != penalty.player:
            variants[penalty.player] = spelling
    if not variants:
        return tournament
    games = tuple(
        game._replace(players=tuple([variants.get(n, n) for n in game.players]))
        if any(n in variants for n in game.players)
        else game
        for game in tournament.games
    )
    penalties = tuple(
        TournamentPenalty(variants.get(p.player, p.player), p.points, p.reason)
        for p in tournament.penalties
    )
    return Tournament(
        name=tournament.name,
        ruleset=tournament.ruleset,
        games=games,
        participants=tournament.participants,
        games_before_final=tournament.games_before_final,
        lot_seed=tournament.lot_seed,
        penalties=penalties,
        stages=tournament.stages,
        schedule=tournament.schedule,
    )
