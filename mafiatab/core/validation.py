"""Validation of protocols and tournaments against the regulation.

Validation never stops at the first problem: it returns every problem it finds,
each naming the game, the seat and the field with a code and its parameters
(`mafiatab.core.problems`), so that a judge sees all of them at once next to their
fields, and a refused file lists everything to fix.

This is the one validator: the tournament file, a single protocol from the web
form or the API, and the tables of the web app all pass `validate_protocol`.
A `Checker` carries what one run has already found right (nicknames, deals,
amounts of points) so that a file of tens of thousands of games is checked fast.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import chain
from operator import attrgetter

from mafiatab.core.names import (
    MAX_NAME,
    MAX_NICKNAME,
    name_problems,
    nickname_key,
    nickname_problems,
)
from mafiatab.core.problems import (
    INT_MAX,
    SEED_MAX,
    Problem,
    cut,
    game_label,
    problem,
    shown,
)
from mafiatab.core.protocol import SEATS, JudgeExtra, Protocol, Tournament, deal_of
from mafiatab.core.regulations import REGULATIONS, Regulation
from mafiatab.core.roles import ROLE_COUNTS, Role, Winner
from mafiatab.core.voting import seats_left, validate_voting

__all__ = [
    "Checker",
    "Problem",
    "game_label",
    "validate_protocol",
    "validate_tournament",
    "validate_tournament_settings",
]

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ID = attrgetter("id")
_PLAYERS = attrgetter("players")


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
    valid nicknames (with their identity keys), valid deals, ISO dates, and how
    each amount of judge extra points compares with the caps."""

    def __init__(self, regulation: Regulation) -> None:
        self.regulation = regulation
        self.nicknames: dict[str, str] = {}
        """Valid nicknames seen, with their `nickname_key`."""
        self._spellings: dict[str, str] = {}
        self.has_case_variants = False
        """Two different valid nicknames seen share a key (so exact comparison of
        nicknames no longer tells players apart)."""
        self.deals: set[tuple[Role, ...]] = set()
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


def validate_protocol(
    protocol: Protocol, regulation: Regulation, checker: Checker | None = None
) -> list[Problem]:
    """Every problem of one protocol against the regulation's rules (pass a `Checker`
    made for `regulation` when validating many protocols)."""
    if checker is None or checker.regulation is not regulation:
        checker = Checker(regulation)
    problems: list[Problem] = []
    (
        gid,
        _,
        players,
        roles,
        _,
        fouls,
        r,
        t,
        day,
        _,
        killed,
        named,
        extras,
        penalties,
        removals,
        _,
        voting,
    ) = protocol
    if not (len(players) == len(roles) == len(fouls) == 10):
        problems.append(problem(gid, None, "seats", "seats.count", count=len(players)))
        return problems
    if (
        (r is not None and not 1 <= r <= INT_MAX)
        or (t is not None and not 1 <= t <= INT_MAX)
        or (day is not None and day not in checker.dates)
        or not gid.strip()
    ):
        _check_header(protocol, checker, problems)
    distinct = set(players)
    if len(distinct) != 10 or checker.has_case_variants or not checker.nicknames.keys() >= distinct:
        _check_players(protocol, checker, problems)
    roles_ok = roles in checker.deals or _check_roles(protocol, checker, problems)
    if min(fouls) < 0 or max(fouls) >= regulation.max_fouls:
        _check_fouls(protocol, regulation, problems)
    if (killed is not None or named) and not (
        type(killed) is int
        and 1 <= killed <= 10
        and (
            not named
            or (
                len(named) <= regulation.best_move_seats
                and killed not in named
                and len(set(named)) == len(named)
                and min(named) >= 1
                and max(named) <= 10
            )
        )
    ):
        _check_best_move(protocol, regulation, problems)
    if extras and not _are_plain_extras(protocol, checker):
        _check_judge_extra(protocol, checker, problems)
    if penalties:
        _check_penalties(protocol, regulation, problems)
    if removals:
        _check_removals(protocol, regulation, problems)
    if voting:
        problems.extend(validate_voting(protocol, voting))
    if roles_ok and (removals or voting):
        _check_winner(protocol, problems)
    return problems


def _check_header(protocol: Protocol, checker: Checker, problems: list[Problem]) -> None:
    gid = protocol.id
    if not gid.strip():
        problems.append(problem(gid, None, "id", "id.empty", value=shown(gid)))
    for name in ("round", "table"):
        value = getattr(protocol, name)
        if value is None or 1 <= value <= INT_MAX:
            continue
        if value < 1:
            problems.append(problem(gid, None, name, "number.below_one", value=value))
        else:
            problems.append(
                problem(gid, None, name, "number.too_large", value=value, limit=INT_MAX)
            )
    day = protocol.date
    if day is not None and day not in checker.dates:
        if is_iso_date(day):
            checker.dates.add(day)
        else:
            problems.append(problem(gid, None, "date", "date.not_iso", value=shown(day)))


def _check_players(protocol: Protocol, checker: Checker, problems: list[Problem]) -> None:
    known = checker.nicknames
    players = protocol.players
    gid = protocol.id
    seen: dict[str, int] = {}
    for number, nick in zip(SEATS, players, strict=True):
        key = known.get(nick)
        if key is None:
            codes = nickname_problems(nick)
            if codes:
                problems.extend(
                    problem(gid, number, "player", code, limit=MAX_NICKNAME) for code in codes
                )
                continue
            key = checker.learn(nick)
        if key in seen:
            problems.append(
                problem(gid, number, "player", "player.twice", player=cut(nick), other=seen[key])
            )
        else:
            seen[key] = number


def _check_roles(protocol: Protocol, checker: Checker, problems: list[Problem]) -> bool:
    counts = Counter(protocol.roles)
    if all(counts[role] == n for role, n in ROLE_COUNTS.items()) and len(protocol.roles) == 10:
        checker.deals.add(protocol.roles)
        return True
    problems.append(
        problem(
            protocol.id,
            None,
            "role",
            "roles.count",
            **{role.value: counts[role] for role in ROLE_COUNTS},
        )
    )
    return False


def _check_fouls(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    """Fouls within 0..max_fouls; the last foul (the fourth) removes the player, so it
    needs its entry in `disqualified`."""
    gid = protocol.id
    most = regulation.max_fouls
    removed = {removal.seat for removal in protocol.disqualified}
    for number, fouls in zip(SEATS, protocol.fouls, strict=True):
        if not 0 <= fouls <= most:
            problems.append(problem(gid, number, "fouls", "fouls.range", value=fouls, limit=most))
        elif fouls == most and number not in removed:
            problems.append(problem(gid, number, "fouls", "fouls.four_without_removal"))


def _seat_ok(protocol: Protocol, seat: object, field: str, problems: list[Problem]) -> bool:
    if type(seat) is int and 1 <= seat <= 10:
        return True
    problems.append(problem(protocol.id, None, field, "seat.range", value=shown(seat)))
    return False


def _check_best_move(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    killed = protocol.first_killed
    named = protocol.best_move
    if killed is None and not named:
        return
    if killed is not None and not _seat_ok(protocol, killed, "first_killed", problems):
        killed = None
    if not named:
        return
    gid = protocol.id
    if protocol.first_killed is None:
        problems.append(problem(gid, None, "best_move", "best_move.without_first_killed"))
    if len(named) > regulation.best_move_seats:
        problems.append(
            problem(
                gid,
                killed,
                "best_move",
                "best_move.too_many",
                count=len(named),
                limit=regulation.best_move_seats,
            )
        )
    if len(set(named)) != len(named):
        problems.append(problem(gid, killed, "best_move", "best_move.repeated"))
    for seat in named:
        if _seat_ok(protocol, seat, "best_move", problems) and seat == killed:
            problems.append(problem(gid, seat, "best_move", "best_move.names_killed"))


def _are_plain_extras(protocol: Protocol, checker: Checker) -> bool:
    """True when the judge extra points break no rule of 8.4 (the common case, decided
    without naming anything); `_check_judge_extra` names what is wrong otherwise."""
    extras = protocol.judge_extra
    winner = protocol.winner
    if winner is Winner.DRAW or len(extras) > checker.regulation.judge_max_players:
        return False
    winners = deal_of(protocol.roles).winners(winner)
    verdict = checker.verdict
    for seat, points, _reason, approved in extras:
        if type(seat) is not int or not 1 <= seat <= 10:
            return False
        found = verdict(points)
        if not found.positive:
            return False
        if seat in winners:
            if found.above_winner or (found.above_unapproved and not approved):
                return False
        elif found.above_loser:
            return False
    if len(extras) == 1:
        return not verdict(extras[0].points).above_total
    return len({e.seat for e in extras}) == len(extras) and not checker.total(extras)[1]


def _check_judge_extra(protocol: Protocol, checker: Checker, problems: list[Problem]) -> None:
    extras = protocol.judge_extra
    regulation = checker.regulation
    gid = protocol.id
    if protocol.winner is Winner.DRAW:
        problems.append(problem(gid, None, "judge_extra", "judge_extra.in_draw"))
    winners = deal_of(protocol.roles).winners(protocol.winner)
    seats: set[int] = set()
    for extra in extras:
        seat = extra.seat
        if not _seat_ok(protocol, seat, "judge_extra", problems):
            continue
        if seat in seats:
            problems.append(problem(gid, seat, "judge_extra", "judge_extra.seat_twice"))
        seats.add(seat)
        code = _judge_extra_cap(protocol, checker, extra, seat in winners)
        if code is not None:
            problems.append(_extra_problem(gid, extra, code, regulation))
    if len(seats) > regulation.judge_max_players:
        problems.append(
            problem(
                gid,
                None,
                "judge_extra",
                "judge_extra.too_many_players",
                limit=regulation.judge_max_players,
                count=len(seats),
            )
        )
    if len(extras) == 1:
        total = extras[0].points
        above = checker.verdict(total).above_total
    else:
        total, above = checker.total(extras)
    if above:
        problems.append(
            problem(
                gid,
                None,
                "judge_extra",
                "judge_extra.total",
                total=Fraction(total),
                cap=regulation.judge_total_cap,
            )
        )


def _judge_extra_cap(
    protocol: Protocol, checker: Checker, extra: JudgeExtra, is_winner: bool
) -> str | None:
    """The code of what is wrong with one player's judge extra points against 8.4."""
    verdict = checker.verdict(extra.points)
    if not verdict.positive:
        return "judge_extra.not_positive"
    if protocol.winner is Winner.DRAW:
        return None
    if is_winner:
        if verdict.above_winner:
            return "judge_extra.above_winner_cap"
        if verdict.above_unapproved and not extra.chief_approved:
            return "judge_extra.needs_approval"
        return None
    return "judge_extra.above_loser_cap" if verdict.above_loser else None


def _extra_problem(gid: str, extra: JudgeExtra, code: str, regulation: Regulation) -> Problem:
    caps = {
        "judge_extra.above_winner_cap": regulation.judge_winner_cap,
        "judge_extra.above_loser_cap": regulation.judge_loser_cap,
    }
    cap = caps.get(code)
    params: dict[str, object] = {"points": extra.points}
    if cap is not None:
        params["cap"] = cap
    return problem(gid, extra.seat, "judge_extra", code, **params)


def _check_penalties(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    gid = protocol.id
    for penalty in protocol.penalties:
        if not _seat_ok(protocol, penalty.seat, "penalties", problems):
            continue
        seat = penalty.seat
        rule = regulation.negative_action_rules.get(penalty.rule)
        if rule is None:
            known = ", ".join(regulation.negative_action_rules)
            problems.append(
                problem(
                    gid,
                    seat,
                    "penalties",
                    "penalty.unknown_rule",
                    rule=shown(penalty.rule),
                    known=known,
                )
            )
            continue
        role = protocol.roles[seat - 1]
        if role not in rule.roles:
            allowed = " or ".join(r.value for r in Role if r in rule.roles)
            problems.append(
                problem(
                    gid,
                    seat,
                    "penalties",
                    "penalty.role",
                    clause=rule.clause,
                    allowed=allowed,
                    role=role.value,
                )
            )
        if rule.winner is not None and protocol.winner is not rule.winner:
            loser = "red" if rule.winner is Winner.BLACK else "black"
            problems.append(
                problem(
                    gid,
                    seat,
                    "penalties",
                    "penalty.result",
                    clause=rule.clause,
                    loser=loser,
                    needed=rule.winner.value,
                    winner=protocol.winner.value,
                )
            )


def _check_removals(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    gid = protocol.id
    seen: set[int] = set()
    for removal in protocol.disqualified:
        if not _seat_ok(protocol, removal.seat, "disqualified", problems):
            continue
        if removal.seat in seen:
            problems.append(problem(gid, removal.seat, "disqualified", "removal.seat_twice"))
        seen.add(removal.seat)
        if removal.online and not regulation.online:
            problems.append(
                problem(
                    gid,
                    removal.seat,
                    "disqualified",
                    "removal.online_offline",
                    ruleset=regulation.code,
                )
            )


def _check_winner(protocol: Protocol, problems: list[Problem]) -> None:
    """A winner the protocol itself contradicts: every seat of the winning team left
    by the first-night kill, a vote or a removal recorded in it."""
    winner = protocol.winner
    if winner is Winner.DRAW:
        return
    team = deal_of(protocol.roles).winners(winner)
    left = seats_left(protocol)
    if team and all(seat in left for seat in team):
        problems.append(
            problem(
                protocol.id,
                None,
                "winner",
                "winner.contradicted",
                winner=winner.value,
                team=winner.value,
            )
        )


def validate_tournament(tournament: Tournament) -> list[Problem]:
    """Every problem of a whole tournament: its settings, its penalties, each protocol."""
    regulation = REGULATIONS.get(tournament.ruleset)
    if regulation is None:
        known = ", ".join(sorted(REGULATIONS))
        return [
            problem(
                None,
                None,
                "ruleset",
                "ruleset.unknown",
                known=known,
                value=shown(tournament.ruleset),
            )
        ]
    checker = Checker(regulation)
    problems: list[Problem] = []
    for protocol in tournament.games:
        problems.extend(validate_protocol(protocol, regulation, checker))
    problems.extend(validate_tournament_settings(tournament, checker))
    return problems


def _ids_twice(tournament: Tournament) -> list[Problem]:
    ids = list(map(_ID, tournament.games))
    if len(set(ids)) == len(ids):
        return []
    problems = []
    seen: set[str] = set()
    for gid in ids:
        if gid in seen:
            problems.append(problem(gid, None, "id", "game.id_twice"))
        seen.add(gid)
    return problems


def validate_tournament_settings(
    tournament: Tournament, checker: Checker | None = None
) -> list[Problem]:
    """The problems of a tournament beyond its single protocols: its name and numbers,
    game ids seen twice, tournament-level penalties (players are matched by
    `nickname_key`; `checker`, the one that validated every game, knows their keys)."""
    problems = [
        problem(None, None, "name", code, limit=MAX_NAME) for code in name_problems(tournament.name)
    ]
    for name in ("participants", "games_before_final"):
        value = getattr(tournament, name)
        if value is None:
            continue
        if value < 0:
            problems.append(problem(None, None, name, "number.negative", value=value))
        elif value > INT_MAX:
            problems.append(
                problem(None, None, name, "number.too_large", value=value, limit=INT_MAX)
            )
    if not -SEED_MAX - 1 <= tournament.lot_seed <= SEED_MAX:
        problems.append(
            problem(
                None,
                None,
                "lot_seed",
                "number.too_large",
                value=tournament.lot_seed,
                limit=SEED_MAX,
            )
        )
    problems.extend(_ids_twice(tournament))
    keys: set[str] = set()
    if tournament.penalties and checker is not None:
        keys = set(checker.nicknames.values())
    elif tournament.penalties:
        players = set(chain.from_iterable(map(_PLAYERS, tournament.games)))
        keys = {nickname_key(nick) for nick in players}
    for index, penalty in enumerate(tournament.penalties, start=1):
        field = f"penalties[{index}]"
        if penalty.points > 0:
            problems.append(
                problem(None, None, field, "tournament_penalty.positive", points=penalty.points)
            )
        if nickname_key(penalty.player) not in keys:
            problems.append(
                problem(
                    None,
                    None,
                    field,
                    "tournament_penalty.unknown_player",
                    player=cut(penalty.player),
                )
            )
    return problems
