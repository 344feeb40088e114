"""The quick yes of validation never accepts a protocol the full check refuses.

`validate_protocol` first asks `_is_plainly_valid`, a fast check for the common,
valid protocol; only a protocol it does not vouch for gets the full, explaining
check. These properties hold the quick path to the full rules on random valid
protocols, each broken now and then in one of the ways the rules forbid.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.core import validation
from mafiatab.core.protocol import GamePenalty, JudgeExtra, Protocol, Removal
from mafiatab.core.regulations import FIIM, FIIM_ONLINE, Regulation
from mafiatab.core.roles import Role, Stage, Winner

CARDS = [Role.RED] * 6 + [Role.SHERIFF, Role.BLACK, Role.BLACK, Role.DON]
F = Fraction


@st.composite
def valid_protocols(draw: st.DrawFn) -> Protocol:
    roles = tuple(draw(st.permutations(CARDS)))
    winner = draw(st.sampled_from(list(Winner)))
    killed = draw(st.none() | st.integers(1, 10))
    others = [seat for seat in range(1, 11) if seat != killed]
    best_move = tuple(draw(st.permutations(others))[: draw(st.integers(0, 3))]) if killed else ()
    extras: tuple[JudgeExtra, ...] = ()
    if winner is not Winner.DRAW:
        seats = draw(st.permutations(range(1, 11)))[: draw(st.integers(0, 3))]
        extras = tuple(JudgeExtra(seat, F(draw(st.integers(1, 6)), 20)) for seat in seats)
    return Protocol(
        id="Q1-T1",
        stage=draw(st.sampled_from(list(Stage))),
        players=tuple(f"P{i}" for i in draw(st.permutations(range(12)))[:10]),
        roles=roles,
        winner=winner,
        fouls=tuple(draw(st.integers(0, 4)) for _ in range(10)),
        first_killed=killed,
        best_move=best_move,
        judge_extra=extras,
    )


@dataclass(frozen=True)
class Breach:
    """One way to break a valid protocol."""

    name: str

    def apply(self, p: Protocol, n: int) -> Protocol:  # noqa: C901 - one case per breach
        seat = n % 10 + 1
        other = (n + 3) % 10 + 1
        if self.name == "role":
            return p._replace(roles=(*p.roles[:-1], Role.RED))
        if self.name == "duplicate player":
            return p._replace(players=(p.players[1], *p.players[1:]))
        if self.name == "empty player":
            return p._replace(players=(" ", *p.players[1:]))
        if self.name == "foul":
            return p._replace(fouls=(5, *p.fouls[1:]))
        if self.name == "best move names the killed":
            return p._replace(first_killed=seat, best_move=(seat,))
        if self.name == "best move after a miss":
            return p._replace(first_killed=None, best_move=(seat,))
        if self.name == "four seats named":
            return p._replace(first_killed=1, best_move=(2, 3, 4, 5))
        if self.name == "seat named twice":
            return p._replace(first_killed=1, best_move=(2, 2))
        if self.name == "seat off the table":
            return p._replace(first_killed=1, best_move=(11,))
        if self.name == "first killed off the table":
            return p._replace(first_killed=0, best_move=())
        if self.name == "extra in a draw":
            return p._replace(winner=Winner.DRAW, judge_extra=(JudgeExtra(seat, F(1, 10)),))
        if self.name == "extra above the cap":
            return p._replace(judge_extra=(JudgeExtra(seat, F(3, 4), "", True),))
        if self.name == "unapproved 0.6":
            return p._replace(judge_extra=(JudgeExtra(seat, F(3, 5)),))
        if self.name == "loser above 0.4":
            return p._replace(judge_extra=(JudgeExtra(seat, F(1, 2)),))
        if self.name == "extra not positive":
            return p._replace(judge_extra=(JudgeExtra(seat, F(0)),))
        if self.name == "extra seat twice":
            return p._replace(judge_extra=(JudgeExtra(seat, F(1, 10)), JudgeExtra(seat, F(1, 10))))
        if self.name == "four players":
            extras = tuple(JudgeExtra(s, F(1, 10)) for s in (1, 2, 3, 4))
            return p._replace(judge_extra=extras)
        if self.name == "total above 1":
            extras = tuple(JudgeExtra(s, F(2, 5)) for s in (seat, other, (n + 6) % 10 + 1))
            return p._replace(judge_extra=extras)
        if self.name == "extra seat off the table":
            return p._replace(judge_extra=(JudgeExtra(12, F(1, 10)),))
        if self.name == "penalty":
            return p._replace(penalties=(GamePenalty(seat, "8.5.1"),))
        if self.name == "removal":
            return p._replace(disqualified=(Removal(seat, "", True),))
        raise AssertionError(self.name)


BREACHES = [
    Breach(name)
    for name in (
        "role",
        "duplicate player",
        "empty player",
        "foul",
        "best move names the killed",
        "best move after a miss",
        "four seats named",
        "seat named twice",
        "seat off the table",
        "first killed off the table",
        "extra in a draw",
        "extra above the cap",
        "unapproved 0.6",
        "loser above 0.4",
        "extra not positive",
        "extra seat twice",
        "four players",
        "total above 1",
        "extra seat off the table",
        "penalty",
        "removal",
    )
]


@st.composite
def protocols(draw: st.DrawFn) -> Protocol:
    protocol = draw(valid_protocols())
    for breach in draw(st.lists(st.sampled_from(BREACHES), max_size=2)):
        protocol = breach.apply(protocol, draw(st.integers(0, 9)))
    return protocol


def _full_check(protocol: Protocol, regulation: Regulation) -> list[validation.Problem]:
    """The full check alone, without the quick yes."""
    original = validation._is_plainly_valid
    validation._is_plainly_valid = lambda *_: False  # type: ignore[assignment]
    try:
        return validation.validate_protocol(protocol, regulation)
    finally:
        validation._is_plainly_valid = original


RUNS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RUNS
@given(protocols(), st.sampled_from([FIIM, FIIM_ONLINE]))
def test_the_quick_path_accepts_only_what_the_full_check_accepts(protocol, regulation):
    _full_check(protocol, regulation)  # primes the cache of known-good deals
    if validation._is_plainly_valid(protocol, regulation):
        assert _full_check(protocol, regulation) == []


@RUNS
@given(valid_protocols(), st.sampled_from([FIIM, FIIM_ONLINE]))
def test_the_quick_path_vouches_for_valid_protocols(protocol, regulation):
    assert _full_check(protocol, regulation) == []
    assert validation._is_plainly_valid(protocol, regulation)


@RUNS
@given(protocols(), st.sampled_from([FIIM, FIIM_ONLINE]))
def test_validation_gives_the_same_problems_with_or_without_the_quick_path(protocol, regulation):
    assert validation.validate_protocol(protocol, regulation) == _full_check(protocol, regulation)
