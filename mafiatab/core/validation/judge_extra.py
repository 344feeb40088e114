"""The judge's extra points of a protocol against the caps of 8.4: a fast yes for
the common case (`_are_plain_extras`) and, otherwise, a problem for every broken
cap (`_check_judge_extra`)."""

from __future__ import annotations

from fractions import Fraction

from mafiatab.core.problems import Problem, problem
from mafiatab.core.protocol import JudgeExtra, Protocol, deal_of
from mafiatab.core.regulations import Regulation
from mafiatab.core.roles import Winner
from mafiatab.core.validation.checker import Checker, _seat_ok


def _are_plain_extras(protocol: Protocol, checker: Checker) -> bool:
    """True when the judge extra points break no rule of 8.4 (the common case, decided
    without naming anything); `_check_judge_extra` names what is wrong otherwise."""
    extras = protocol.judge_extra
    winner = protocol.winner
    if winner is Winner.DRAW or len(extras) > checker.regulation.judge_max_players:
        return False
    team = winner.team
    roles = protocol.roles
    verdict = checker.verdict
    for seat, points, _reason, approved in extras:
        if type(seat) is not int or not 1 <= seat <= 10:
            return False
        found = verdict(points)
        if not found.positive:
            return False
        if roles[seat - 1].team is team:
            if found.above_winner or (found.above_unapproved and not approved):
                return False
        elif found.above_loser:
            return False
    if len(extras) == 1:
        return not found.above_total
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
