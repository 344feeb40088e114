"""Validation of protocols and tournaments against the regulation.

Validation never stops at the first problem: it returns every problem it finds,
each naming the game, the seat and the field, so that a judge sees all of them
at once next to their fields, and a refused file lists everything to fix.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from mafiatab.core.protocol import SEATS, JudgeExtra, Protocol, Tournament, deal_of
from mafiatab.core.regulations import REGULATIONS, Regulation
from mafiatab.core.roles import ROLE_COUNTS, Role, Winner


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a protocol or a tournament."""

    game: str | None
    """The game's id (or its default label "game N"); None for the tournament itself."""
    seat: int | None
    """The seat concerned, 1..10; None where no single seat is."""
    field: str
    """The field concerned, named as in the tournament file (e.g. "judge_extra")."""
    message: str
    """What is wrong, in plain words."""

    def __str__(self) -> str:
        parts = []
        if self.game is not None:
            parts.append(game_label(self.game))
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        parts.append(f"field {self.field}")
        return f"{', '.join(parts)}: {self.message}"


def game_label(game_id: str) -> str:
    """How a game is named in messages: "game 3" for a default id, else "game Q3-T2"."""
    return game_id if game_id.startswith("game ") else f"game {game_id}"


def _points(value: Fraction) -> str:
    return f"{float(value):.2f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


#: Role assignments already found to hold 6 red, 1 sheriff, 2 black and 1 don.
_VALID_DEALS: set[tuple[Role, ...]] = set()


def _is_plainly_valid(protocol: Protocol, regulation: Regulation) -> bool:
    """A quick yes for the common, valid protocol; False means "look closer"
    (`validate_protocol` then names every problem)."""
    players, roles, fouls = protocol.players, protocol.roles, protocol.fouls
    if not (
        len(players) == 10
        and len(fouls) == 10
        and roles in _VALID_DEALS
        and len(set(players)) == 10
        and all(map(str.strip, players))
        and min(fouls) >= 0
        and max(fouls) <= 4
        and not protocol.penalties
        and not protocol.disqualified
    ):
        return False
    killed, named = protocol.first_killed, protocol.best_move
    if killed is None:
        if named:
            return False
    elif not (
        type(killed) is int
        and 1 <= killed <= 10
        and len(named) <= 3
        and killed not in named
        and len(set(named)) == len(named)
        and (not named or (min(named) >= 1 and max(named) <= 10))
    ):
        return False
    return not protocol.judge_extra or _are_plainly_valid_extras(protocol, regulation)


def _are_plainly_valid_extras(protocol: Protocol, regulation: Regulation) -> bool:
    """The quick yes of `_is_plainly_valid` for judge extra points (8.4)."""
    extras = protocol.judge_extra
    if protocol.winner is Winner.DRAW or len(extras) > regulation.judge_max_players:
        return False
    winners = deal_of(protocol.roles).winners(protocol.winner)
    seats = set()
    for seat, points, _, approved in extras:
        if type(seat) is not int or not 1 <= seat <= 10 or seat in seats:
            return False
        seats.add(seat)
        verdict = _verdict(regulation, points)
        if not verdict.positive:
            return False
        if seat in winners:
            if verdict.above_winner or (verdict.above_unapproved and not approved):
                return False
        elif verdict.above_loser:
            return False
    return len(extras) == 1 or _total_verdict(regulation, extras)


_TOTALS: dict[tuple[int, ...], tuple[tuple[Fraction, ...], bool]] = {}


def _total_verdict(regulation: Regulation, extras: tuple[JudgeExtra, ...]) -> bool:
    """True when the judge extra points of a game stay within the 8.4.2 total; cached
    per combination of amount objects (kept alive by the entry)."""
    key = (id(regulation), *(id(e.points) for e in extras))
    entry = _TOTALS.get(key)
    if entry is None:
        amounts = tuple(e.points for e in extras)
        entry = (amounts, sum(amounts[1:], amounts[0]) <= regulation.judge_total_cap)
        if len(_TOTALS) < 4096:
            _TOTALS[key] = entry
    return entry[1]


def validate_protocol(protocol: Protocol, regulation: Regulation) -> list[Problem]:
    """Every problem of one protocol against the regulation's rules."""
    if _is_plainly_valid(protocol, regulation):
        return []
    problems: list[Problem] = []
    gid = protocol.id
    if not (len(protocol.players) == len(protocol.roles) == len(protocol.fouls) == 10):
        problems.append(
            Problem(gid, None, "seats", f"a game has 10 seats, not {len(protocol.players)}")
        )
        return problems
    _check_players(protocol, problems)
    _check_roles(protocol, problems)
    if not (min(protocol.fouls) >= 0 and max(protocol.fouls) <= 4):
        for number, fouls in zip(SEATS, protocol.fouls, strict=True):
            if not 0 <= fouls <= 4:
                problems.append(Problem(gid, number, "fouls", f"fouls must be 0..4, not {fouls}"))
    _check_best_move(protocol, problems)
    _check_judge_extra(protocol, regulation, problems)
    _check_penalties(protocol, regulation, problems)
    _check_removals(protocol, regulation, problems)
    return problems


def _check_players(protocol: Protocol, problems: list[Problem]) -> None:
    players = protocol.players
    if len(set(players)) == len(players) and all(map(str.strip, players)):
        return
    gid = protocol.id
    seen: dict[str, int] = {}
    for number, nick in zip(SEATS, protocol.players, strict=True):
        if not nick.strip():
            problems.append(Problem(gid, number, "player", "the nickname is empty"))
        elif nick in seen:
            problems.append(
                Problem(gid, number, "player", f"{nick!r} is already seated at seat {seen[nick]}")
            )
        else:
            seen[nick] = number


def _check_roles(protocol: Protocol, problems: list[Problem]) -> None:
    roles = protocol.roles
    if (
        roles.count(Role.RED) == 6
        and roles.count(Role.BLACK) == 2
        and roles.count(Role.SHERIFF) == 1
        and roles.count(Role.DON) == 1
    ):
        if len(_VALID_DEALS) < 4096:
            _VALID_DEALS.add(roles)
        return
    counts = Counter(roles)
    if all(counts[role] == n for role, n in ROLE_COUNTS.items()):
        if len(_VALID_DEALS) < 4096:
            _VALID_DEALS.add(roles)
        return
    found = ", ".join(f"{counts[r]} {r.value}" for r in ROLE_COUNTS)
    problems.append(
        Problem(
            protocol.id,
            None,
            "role",
            f"roles must be 6 red, 1 sheriff, 2 black and 1 don; found {found}",
        )
    )


def _seat_ok(protocol: Protocol, seat: object, field: str, problems: list[Problem]) -> bool:
    if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= 10:
        return True
    problems.append(Problem(protocol.id, None, field, f"seat must be 1..10, not {seat!r}"))
    return False


def _check_best_move(protocol: Protocol, problems: list[Problem]) -> None:
    gid = protocol.id
    killed = protocol.first_killed
    if killed is not None and not _seat_ok(protocol, killed, "first_killed", problems):
        killed = None
    named = protocol.best_move
    if not named:
        return
    if protocol.first_killed is None:
        problems.append(
            Problem(gid, None, "best_move", "a best move needs the first-killed seat (miss)")
        )
    if len(named) > 3:
        problems.append(
            Problem(gid, killed, "best_move", f"at most 3 seats are named, not {len(named)}")
        )
    if len(set(named)) != len(named):
        problems.append(Problem(gid, killed, "best_move", "a seat is named twice"))
    for seat in named:
        if not _seat_ok(protocol, seat, "best_move", problems):
            continue
        if seat == killed:
            problems.append(
                Problem(gid, seat, "best_move", "the first-killed player cannot name himself")
            )


def _check_judge_extra(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    extras = protocol.judge_extra
    if not extras:
        return
    gid = protocol.id
    if protocol.winner is Winner.DRAW:
        problems.append(
            Problem(gid, None, "judge_extra", "no judge extra points in a draw (8.4.6)")
        )
    seats: set[int] = set()
    for extra in extras:
        seat = extra.seat
        if not (type(seat) is int and 1 <= seat <= 10) and not _seat_ok(
            protocol, seat, "judge_extra", problems
        ):
            continue
        if seat in seats:
            problems.append(Problem(gid, seat, "judge_extra", "the seat is named twice"))
        seats.add(seat)
        message = _judge_extra_cap(protocol, regulation, extra)
        if message:
            problems.append(Problem(gid, seat, "judge_extra", message))
    if len(seats) > regulation.judge_max_players:
        problems.append(
            Problem(
                gid,
                None,
                "judge_extra",
                f"at most {regulation.judge_max_players} players get judge extra points (8.4.1), "
                f"not {len(seats)}",
            )
        )
    if len(extras) == 1:
        total = extras[0].points
        above = _verdict(regulation, total).above_total
    else:
        total = sum((e.points for e in extras[1:]), extras[0].points)
        above = total > regulation.judge_total_cap
    if above:
        problems.append(
            Problem(
                gid,
                None,
                "judge_extra",
                f"judge extra points total {_points(Fraction(total))}, above "
                f"{_points(regulation.judge_total_cap)} (8.4.2)",
            )
        )


@dataclass(frozen=True, slots=True)
class _Verdict:
    """How an amount of judge extra points compares with the 8.4 caps."""

    positive: bool
    above_winner: bool
    above_unapproved: bool
    above_loser: bool
    above_total: bool


_VERDICTS: dict[tuple[int, int], tuple[Regulation, Fraction, _Verdict]] = {}


def _verdict(regulation: Regulation, points: Fraction) -> _Verdict:
    """The caps `points` break, computed once per amount object: a file's amounts are
    shared objects (see `tournament_file.to_fraction`), and hashing a Fraction is slow.
    The entry keeps its objects alive, so their ids cannot be reused meanwhile."""
    key = (id(regulation), id(points))
    entry = _VERDICTS.get(key)
    if entry is None:
        verdict = _Verdict(
            positive=points > 0,
            above_winner=points > regulation.judge_winner_cap,
            above_unapproved=points > regulation.judge_unapproved_cap,
            above_loser=points > regulation.judge_loser_cap,
            above_total=points > regulation.judge_total_cap,
        )
        if len(_VERDICTS) < 4096:
            _VERDICTS[key] = (regulation, points, verdict)
        return verdict
    return entry[2]


def _judge_extra_cap(protocol: Protocol, regulation: Regulation, extra: JudgeExtra) -> str | None:
    """What is wrong with one player's judge extra points against 8.4, if anything."""
    verdict = _verdict(regulation, extra.points)
    if not verdict.positive:
        return f"points must be above 0, not {_points(extra.points)}"
    if protocol.winner is Winner.DRAW:
        return None
    if protocol.is_winner(extra.seat):
        if verdict.above_winner:
            cap = _points(regulation.judge_winner_cap)
            return f"{_points(extra.points)} is above {cap} for a winner (8.4.3)"
        if verdict.above_unapproved and not extra.chief_approved:
            return (
                f"{_points(extra.points)} needs the chief judge's approval (chief_approved, 8.4.3)"
            )
        return None
    if verdict.above_loser:
        cap = _points(regulation.judge_loser_cap)
        return f"{_points(extra.points)} is above {cap} for a loser (8.4.4)"
    return None


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
                Problem(gid, seat, "penalties", f"rule {penalty.rule!r} is not one of {known}")
            )
            continue
        role = protocol.roles[seat - 1]
        if role not in rule.roles:
            allowed = " or ".join(r.value for r in Role if r in rule.roles)
            problems.append(
                Problem(
                    gid,
                    seat,
                    "penalties",
                    f"{rule.clause} applies to a {allowed} player, not a {role.value}",
                )
            )
        if rule.winner is not None and protocol.winner is not rule.winner:
            loser = "red" if rule.winner is Winner.BLACK else "black"
            problems.append(
                Problem(
                    gid,
                    seat,
                    "penalties",
                    f"{rule.clause} needs a {loser} loss (winner {rule.winner.value}), "
                    f"but the winner is {protocol.winner.value}",
                )
            )


def _check_removals(protocol: Protocol, regulation: Regulation, problems: list[Problem]) -> None:
    gid = protocol.id
    seen: set[int] = set()
    for removal in protocol.disqualified:
        if not _seat_ok(protocol, removal.seat, "disqualified", problems):
            continue
        if removal.seat in seen:
            problems.append(Problem(gid, removal.seat, "disqualified", "the seat is named twice"))
        seen.add(removal.seat)
        if removal.online and not regulation.online:
            problems.append(
                Problem(
                    gid,
                    removal.seat,
                    "disqualified",
                    f"an online removal (4.1 of the online addendum) needs the fiim-online "
                    f"ruleset, not {regulation.code}",
                )
            )


def validate_tournament(tournament: Tournament) -> list[Problem]:
    """Every problem of a whole tournament: its settings, its penalties, each protocol."""
    regulation = REGULATIONS.get(tournament.ruleset)
    if regulation is None:
        known = ", ".join(sorted(REGULATIONS))
        return [Problem(None, None, "ruleset", f"unknown ruleset {tournament.ruleset!r} ({known})")]
    problems: list[Problem] = []
    for protocol in tournament.games:
        problems.extend(validate_protocol(protocol, regulation))
    problems.extend(validate_tournament_settings(tournament))
    return problems


def validate_tournament_settings(tournament: Tournament) -> list[Problem]:
    """The problems of a tournament beyond its single protocols: settings, game ids
    seen twice, tournament-level penalties."""
    problems: list[Problem] = []
    for name in ("participants", "games_before_final"):
        value = getattr(tournament, name)
        if value is not None and value < 0:
            problems.append(Problem(None, None, name, f"must not be negative, not {value}"))
    seen: set[str] = set()
    players: set[str] = set()
    for protocol in tournament.games:
        if protocol.id in seen:
            problems.append(Problem(protocol.id, None, "id", "two games have this id"))
        seen.add(protocol.id)
        players.update(protocol.players)
    for index, penalty in enumerate(tournament.penalties, start=1):
        field = f"penalties[{index}]"
        if penalty.points > 0:
            problems.append(
                Problem(
                    None,
                    None,
                    field,
                    f"points must be 0 or negative, not {_points(penalty.points)}",
                )
            )
        if penalty.player not in players:
            problems.append(
                Problem(None, None, field, f"{penalty.player!r} plays no game of the tournament")
            )
    return problems
