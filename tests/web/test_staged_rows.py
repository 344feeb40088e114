"""The standings' outlook as the public sees it: no certain mark while the running
stage hides its judges' extras (they could turn it either way)."""

from __future__ import annotations

from fractions import Fraction

from mafiatab.core.advancing import Mark, Outlook
from mafiatab.core.roles import Stage
from mafiatab.core.stages import StagePlan
from mafiatab.core.standings import Standings
from mafiatab.standings import staged

THROUGH = Outlook(
    places=10, rank=1, margin=Fraction(1), games_left=1, mark=Mark.THROUGH, gain=Fraction(0)
)


def _standings(hide: bool) -> Standings:
    plan = StagePlan.parse(
        [
            {"stage": "qualifying", "games": 2},
            {"stage": "semifinal", "players": 20, "games": 2, "hide_extras": hide},
            {"stage": "final", "players": 10, "games": 2},
        ]
    )
    return Standings(
        tournament="T",
        coefficient_k=Fraction(1),
        heavy_side=None,
        compensation_b=4,
        rows=(),
        lot=(),
        plan=plan,
    )


def test_a_running_stage_that_hides_its_extras_shows_no_mark(monkeypatch):
    monkeypatch.setattr(staged, "outlook", lambda standings: {"A": THROUGH})
    monkeypatch.setattr(staged, "running_stage", lambda standings: Stage.SEMIFINAL)
    assert staged.public_outlook(_standings(hide=True))["A"].mark is None
    assert staged.public_outlook(_standings(hide=True))["A"].margin == 1
    assert staged.public_outlook(_standings(hide=False))["A"].mark is Mark.THROUGH
