"""The validation of one protocol against the regulation's rules
(`validate_protocol`): its header, players, roles, fouls, best move, penalties,
removals, voting and winner. The judge's extra points (8.4) are checked in
`mafiatab.core.validation.judge_extra`."""

from __future__ import annotations

from collections import Counter

from mafiatab.core.names import MAX_NAME, MAX_NICKNAME, MAX_TEXT, nickname_problems, text_problems
from mafiatab.core.problems import INT_MAX, Problem, cut, problem, quoted
from mafiatab.core.protocol import (
    SEATS,
    GamePenalty,
    JudgeExtra,
    Protocol,
    Removal,
    deal_of,
)
from mafiatab.core.regulations import Regulation
from mafiatab.core.roles import ROLE_COUNTS, Role, Winner
from mafiatab.core.validation.checker import Checker, _seat_ok, is_iso_date
from mafiatab.core.validation.judge_extra import _are_plain_extras, _check_judge_extra
from mafiatab.core.voting import seats_left, validate_voting


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
    roles_ok = (
        roles.count(Role.SHERIFF) == 1
        and roles.count(Role.DON) == 1
        and roles.count(Role.BLACK) == 2
        and roles.count(Role.RED) == 6
    ) or _check_roles(protocol, problems)
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
    _check_texts(protocol, problems)
    if roles_ok and (removals or voting):
        _check_winner(protocol, problems)
    return problems


def _check_texts(protocol: Protocol, problems: list[Problem]) -> None:
    """The protocol's free texts (its id, judge and every reason): no control or
    text-direction character, no lone surrogate, within their limits."""
    gid = protocol.id
    judge = protocol.judge
    if (
        gid.isprintable()
        and (not judge or (judge.isprintable() and len(judge) <= MAX_NAME))
        and _are_plain_reasons(protocol.judge_extra)
        and _are_plain_reasons(protocol.penalties)
        and _are_plain_reasons(protocol.disqualified)
    ):
        return
    texts: list[tuple[str | None, int | None, str, int]] = [
        (gid, None, "id", len(gid)),  # its length is the columns' to bound
        (protocol.judge, None, "judge", MAX_NAME),
    ]
    for name, entries in (
        ("judge_extra", protocol.judge_extra),
        ("penalties", protocol.penalties),
        ("disqualified", protocol.disqualified),
    ):
        texts.extend((entry.reason, entry.seat, f"{name}.reason", MAX_TEXT) for entry in entries)
    for text, seat, field, limit in texts:
        if not text or (text.isprintable() and len(text) <= limit):
            continue
        for code in text_problems(text, limit):
            problems.append(problem(gid, seat, field, code, limit=limit))


def _are_plain_reasons(entries: tuple[JudgeExtra | GamePenalty | Removal, ...]) -> bool:
    """True when every reason of `entries` is empty or printable within its limit (the
    common case, decided without naming anything)."""
    for entry in entries:
        reason = entry.reason
        if reason and not (reason.isprintable() and len(reason) <= MAX_TEXT):
            return False
    return True


def _check_header(protocol: Protocol, checker: Checker, problems: list[Problem]) -> None:
    gid = protocol.id
    if not gid.strip():
        problems.append(problem(gid, None, "id", "id.empty", value=quoted(gid)))
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
            problems.append(problem(gid, None, "date", "date.not_iso", value=quoted(day)))


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


def _check_roles(protocol: Protocol, problems: list[Problem]) -> bool:
    counts = Counter(protocol.roles)
    if all(counts[role] == n for role, n in ROLE_COUNTS.items()) and len(protocol.roles) == 10:
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
    # the problem names the seat named twice: the first-killed seat is not what is wrong
    for seat in sorted({s for s in named if named.count(s) > 1}):
        problems.append(problem(gid, None, "best_move", "best_move.repeated", seat=seat))
    for seat in named:
        if _seat_ok(protocol, seat, "best_move", problems) and seat == killed:
            problems.append(problem(gid, seat, "best_move", "best_move.names_killed"))


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
                    rule=quoted(penalty.rule),
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
                left=",".join(f"{seat}:{_how_left(protocol, seat)}" for seat in sorted(team)),
            )
        )


def _how_left(protocol: Protocol, seat: int) -> str:
    """How the protocol says `seat` left: `removal`, `shot` (the first night), `vote`
    or `lift` (`left` of the problem `winner.contradicted`, seat:how pairs)."""
    if any(removal.seat == seat for removal in protocol.disqualified):
        return "removal"
    if protocol.first_killed == seat:
        return "shot"
    if any(block.leaver() == seat for block in protocol.voting):
        return "vote"
    return "lift"
