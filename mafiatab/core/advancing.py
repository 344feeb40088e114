"""Advancing from one stage to the next, the qualification outlook, hidden extras.

Spec: stages.md. `advance` gives the advance list of a stage: every candidate with
his rank, total, whether he advances and why not (remarks as codes with parameters,
said in the reader's language by the shell). `outlook` gives each player of a
running stage where he stands against the cut, with "through" and "out" only where
they are certain by the spec's bound. `hidden_extras_games` and `public_tournament`
hide the judges' extras of a stage whose plan says so until the tournament is closed.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any, Final

from mafiatab.core.numbers import json_number
from mafiatab.core.protocol import Tournament
from mafiatab.core.regulations import Regulation, get_regulation
from mafiatab.core.roles import Stage
from mafiatab.core.stages import PointsMode, StagePlan
from mafiatab.core.standings import Standing, Standings

#: The English sentence of every remark of an advance list (the shell translates it).
REMARK_TEMPLATES: Final[Mapping[str, str]] = {
    "advance.withdrawn": "withdrew from the tournament",
    "advance.removed": "removed from the tournament by the chief judge",
    "advance.tie_chain": "a tie at the cut, settled by %(clause)s",
    "advance.tie_before": "a tie at the cut, settled by the points before this stage",
    "advance.tie_lot": "a tie at the cut, settled by the lot (8.8.5)",
}

#: The clauses of the 8.8 chain after the total, in the order of `Standing.sort_key`.
_CHAIN_CLAUSES: Final = ("8.8.1", "8.8.2", "8.8.3", "8.8.4")


@dataclass(frozen=True, slots=True)
class Remark:
    """Why a candidate advances or not, as a code with parameters."""

    code: str
    """A key of `REMARK_TEMPLATES`."""
    params: Mapping[str, str] = field(default_factory=dict)
    """The values the code's sentence names."""

    @property
    def message(self) -> str:
        """The remark in English."""
        template = REMARK_TEMPLATES[self.code]
        return template % self.params if self.params else template

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))


@dataclass(frozen=True, slots=True)
class AdvanceEntry:
    """One candidate of an advance list."""

    player: str
    """His nickname."""
    rank: int
    """His rank in the standings."""
    total: Fraction
    """His tournament total."""
    points: Fraction
    """The points he is ranked by for this cut: his total, or his points of the stage
    when the stage's plan resets them."""
    advances: bool
    """Whether he advances into the next stage."""
    remarks: tuple[Remark, ...] = ()
    """Why he is skipped (withdrawn, removed) or how a tie at the cut was settled."""

    def to_json(self) -> dict[str, Any]:
        """The entry as the API and `--json` give it."""
        return {
            "player": self.player,
            "rank": self.rank,
            "total": json_number(self.total, places=2),
            "points": json_number(self.points, places=2),
            "advances": self.advances,
            "remarks": [{"code": r.code, "params": dict(r.params)} for r in self.remarks],
        }


@dataclass(frozen=True, slots=True)
class AdvanceList:
    """Who advances from a stage into the next one (a draft until published)."""

    into: Stage
    """The stage players advance into."""
    source: Stage
    """The stage they advance from."""
    places: int
    """How many advance (the plan's `players` of `into`)."""
    entries: tuple[AdvanceEntry, ...]
    """Every candidate, in the order of the standings."""

    @property
    def advanced(self) -> tuple[str, ...]:
        """The players who advance, in rank order."""
        return tuple(e.player for e in self.entries if e.advances)

    def next_in_line(self) -> str | None:
        """The best candidate who does not advance and is not skipped by a remark of
        withdrawal or removal (the one a swap brings in)."""
        for entry in self.entries:
            if not entry.advances and not _is_skipped(entry):
                return entry.player
        return None

    def to_json(self) -> dict[str, Any]:
        """The list as the API gives it."""
        return {
            "into": self.into.value,
            "from": self.source.value,
            "places": self.places,
            "entries": [e.to_json() for e in self.entries],
        }


def _is_skipped(entry: AdvanceEntry) -> bool:
    return any(r.code in ("advance.withdrawn", "advance.removed") for r in entry.remarks)


def ranking_points(row: Standing, plan: StagePlan, stage: Stage) -> Fraction:
    """The points `row` is ranked by among the players of `stage`: his total, or his
    points of `stage` alone where the plan resets them."""
    return row.points_in(stage) if is_reset(plan, stage) else row.total


def is_reset(plan: StagePlan, stage: Stage) -> bool:
    """Whether the players of `stage` are ranked by its points alone."""
    spec = plan.spec(stage)
    return spec is not None and plan.depth(stage) > 0 and spec.points is PointsMode.RESET


def _tie_key(row: Standing, plan: StagePlan, stage: Stage) -> tuple[Fraction | int, ...]:
    """What decides the order among the players of `stage`, most important first: the
    8.8 chain, or where the plan resets the stage's points, those points and the total
    before the stage first."""
    if not is_reset(plan, stage):
        return row.sort_key()
    points = row.points_in(stage)
    return (points, row.total - points, *row.sort_key())


def advance(
    standings: Standings,
    into: Stage,
    *,
    withdrawn: Set[str] = frozenset(),
    removed: Set[str] = frozenset(),
    plan: StagePlan | None = None,
) -> AdvanceList:
    """The advance list of `into`: the players of the stage before it, ranked as in the
    standings; the first `players` of them who are neither withdrawn nor removed advance.

    `plan` defaults to the standings' own. ValueError when the plan has no stage before
    `into`.
    """
    plan = plan or standings.plan
    if plan is None:
        raise ValueError("no stage plan")
    spec = plan.spec(into)
    source = plan.previous_stage(into)
    if spec is None or source is None or spec.players is None:
        raise ValueError(f"no stage to advance into {into.value}")
    depth = plan.depth(source)
    # Ranked as the standings rank the players of `source` while it is the furthest stage
    # (its own points where the plan resets them); equal keys keep the standings' order,
    # the lot's.
    candidates = sorted(
        (r for r in standings.rows if r.stage is not None and plan.depth(r.stage) >= depth),
        key=lambda r: tuple(-value for value in _tie_key(r, plan, source)),
    )
    places = spec.players
    taken: list[Standing] = []
    skipped: dict[str, Remark] = {}
    for row in candidates:
        if row.player in withdrawn:
            skipped[row.player] = Remark("advance.withdrawn")
        elif row.player in removed:
            skipped[row.player] = Remark("advance.removed")
        elif len(taken) < places:
            taken.append(row)
    chosen = {r.player for r in taken}
    eligible = [r for r in candidates if r.player not in skipped]
    ties = _cut_remarks(eligible, len(taken), plan, source)
    entries = []
    for row in candidates:
        remarks = []
        if row.player in skipped:
            remarks.append(skipped[row.player])
        elif row.player in ties:
            remarks.append(ties[row.player])
        entries.append(
            AdvanceEntry(
                player=row.player,
                rank=row.rank,
                total=row.total,
                points=ranking_points(row, plan, source),
                advances=row.player in chosen,
                remarks=tuple(remarks),
            )
        )
    return AdvanceList(into=into, source=source, places=places, entries=tuple(entries))


def _cut_remarks(
    eligible: list[Standing], taken: int, plan: StagePlan, stage: Stage
) -> dict[str, Remark]:
    """The remark of every player of a tie at the cut: each player with the points of
    the last one in says what set him apart from the player on the other side of the
    cut (a clause of the 8.8 chain), or that the lot did."""
    if taken == 0 or taken >= len(eligible):
        return {}
    last, first_out = eligible[taken - 1], eligible[taken]
    points = ranking_points(last, plan, stage)
    if ranking_points(first_out, plan, stage) != points:
        return {}
    key_in, key_out = _tie_key(last, plan, stage), _tie_key(first_out, plan, stage)
    clauses = (("before", "total") if is_reset(plan, stage) else ()) + _CHAIN_CLAUSES
    remarks = {}
    for index, row in enumerate(eligible):
        if ranking_points(row, plan, stage) != points:
            continue
        key = _tie_key(row, plan, stage)
        other = key_out if index < taken else key_in
        remarks[row.player] = _settled_by(key, other, clauses)
    return remarks


def _settled_by(
    key: tuple[Fraction | int, ...], other: tuple[Fraction | int, ...], clauses: tuple[str, ...]
) -> Remark:
    for index, clause in enumerate(clauses, start=1):
        if key[index] != other[index]:
            if clause in ("before", "total"):
                return Remark("advance.tie_before")
            return Remark("advance.tie_chain", {"clause": clause})
    return Remark("advance.tie_lot")


class Mark(Enum):
    """A qualification mark, shown only where it is certain."""

    THROUGH = "through"
    """He advances whatever happens in the games left."""
    OUT = "out"
    """He cannot advance whatever happens."""

    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Outlook:
    """Where a player of a running stage stands against the cut of the next one."""

    places: int
    """P: how many players advance."""
    rank: int
    """His rank in the standings."""
    margin: Fraction | None
    """Above the cut: his points minus those of the first player below it; below it:
    his points minus those of the last player above it (0 or negative). None when
    every player of the stage advances."""
    games_left: int
    """Games of the stage he has still to play."""
    mark: Mark | None
    """`through`, `out` or None (uncertain, or 8.7's K applies)."""
    gain: Fraction
    """The most he can still gain (no penalties from now on)."""

    def to_json(self) -> dict[str, Any]:
        """As a `--json` row's `outlook`."""
        return {
            "places": self.places,
            "margin": None if self.margin is None else json_number(self.margin, places=2),
            "games_left": self.games_left,
            "mark": self.mark.value if self.mark else None,
        }


def running_stage(standings: Standings) -> Stage | None:
    """The stage that players advance from and that is not finished (a player of it has
    played fewer of its games than the plan says); None when there is none."""
    plan = standings.plan
    if plan is None or not standings.rows:
        return None
    top = standings.rows[0].stage
    if top is None or plan.next_stage(top) is None:
        return None
    spec = plan.spec(top)
    if spec is None:
        return None
    if all(r.games_in(top) >= spec.games for r in standings.group(top)):
        return None
    return top


def max_gain(row: Standing, games_left: int, regulation: Regulation) -> Fraction:
    """The bound of what `row` can still gain (no penalty from now on): 2.1 a game
    left, plus the growth of his compensation (each compensated game can rise to 0.4)."""
    growth = regulation.compensation_cap * row.compensated_games - row.compensation
    return regulation.game_bound() * games_left + max(growth, Fraction(0))


def outlook(standings: Standings) -> dict[str, Outlook]:
    """The outlook of every player of the running stage, by player (empty when no
    stage that players advance from runs)."""
    stage = running_stage(standings)
    plan = standings.plan
    if stage is None or plan is None:
        return {}
    spec = plan.spec(stage)
    nxt = plan.next_stage(stage)
    target = plan.spec(nxt) if nxt else None
    if spec is None or target is None or target.players is None:
        return {}
    regulation = get_regulation(standings.ruleset or "fiim")
    group = standings.group(stage)
    places = target.players
    points = [ranking_points(r, plan, stage) for r in group]
    left = [max(spec.games - r.games_in(stage), 0) for r in group]
    gains = [max_gain(r, g, regulation) for r, g in zip(group, left, strict=True)]
    result = {}
    for index, row in enumerate(group):
        margin: Fraction | None = None
        if len(group) > places:
            if index < places:
                margin = points[index] - points[places]
            else:
                margin = points[index] - points[places - 1]
        mark = None
        if not standings.applies_k:
            mark = certain_mark(index, points, gains, places)
        result[row.player] = Outlook(
            places=places,
            rank=row.rank,
            margin=margin,
            games_left=left[index],
            mark=mark,
            gain=gains[index],
        )
    return result


def certain_mark(
    index: int, points: list[Fraction], gains: list[Fraction], places: int
) -> Mark | None:
    """The spec's bound for player `index`: through when fewer than `places` others can
    still reach or pass his present points; out when at least `places` others already
    have more than all he can reach. A tie counts against him for "through" and for
    him for "out"."""
    mine = points[index]
    others = [j for j in range(len(points)) if j != index]
    if sum(1 for j in others if points[j] + gains[j] >= mine) < places:
        return Mark.THROUGH
    if sum(1 for j in others if points[j] > mine + gains[index]) >= places:
        return Mark.OUT
    return None


def choosing_order(standings: Standings, stage: Stage) -> tuple[str, ...]:
    """The order in which the players of `stage` choose their seats game by game when
    the organiser lets them (the final's sheet prints it): their rank order."""
    return tuple(row.player for row in standings.group(stage))


def standings_json(standings: Standings) -> dict[str, Any]:
    """The JSON document of `mafiatab standings FILE --json`: the standings' own, and
    with a running stage each row of its players has its `outlook`."""
    data = standings.to_json()
    view = outlook(standings)
    if view:
        for row in data["standings"]:
            found = view.get(row["player"])
            if found is not None:
                row["outlook"] = found.to_json()
    return data


def hidden_extras_games(tournament: Tournament, *, closed: bool) -> frozenset[str]:
    """The ids of the games whose judge extras the public must not see: the games of a
    stage whose plan hides them, while the tournament is not closed."""
    plan = tournament.stages
    if closed or plan is None:
        return frozenset()
    hidden = {s.stage for s in plan.stages if s.hide_extras}
    return frozenset(g.id for g in tournament.games if g.stage in hidden and g.judge_extra)


def public_tournament(tournament: Tournament, *, closed: bool) -> Tournament:
    """The tournament as the public sees it: the hidden judge extras left out (its
    standings then count them nowhere)."""
    hidden = hidden_extras_games(tournament, closed=closed)
    if not hidden:
        return tournament
    games = tuple(g._replace(judge_extra=()) if g.id in hidden else g for g in tournament.games)
    return replace(tournament, games=games)
