"""The stage plan of a tournament: qualifying rounds, an optional semifinal, the final.

Spec: stages.md. A plan lists the stages in order, each with the games one of its
players plays and, after the first, how many players advance into it. It is the
optional top-level `stages` of the tournament file (`StagePlan.parse` reads it,
`StagePlan.to_json` writes it back); a tournament without a plan is scored exactly
as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from mafiatab.core.problems import INT_MAX, Problem, TournamentFileError, problem, quoted
from mafiatab.core.roles import Stage

#: The stages in the only order a plan may list them.
STAGE_ORDER: Final = (Stage.QUALIFYING, Stage.SEMIFINAL, Stage.FINAL)

#: Players advance in whole tables.
TABLE: Final = 10

#: The final's players unless the organiser sets two final tables.
FINAL_PLAYERS: Final = 10

#: The most stages a plan lists (each stage at most once); a longer list is refused
#: before its entries are read.
MAX_STAGES: Final = len(STAGE_ORDER)


class PointsMode(Enum):
    """How the players of a stage after the first are ranked."""

    CARRY = "carry"
    """By their total over all stages (the default)."""
    RESET = "reset"
    """By the points of this stage alone; the total before breaks a tie first."""

    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class StageSpec:
    """One stage of the plan."""

    stage: Stage
    """Which stage."""
    games: int
    """Games each player of the stage plays (at least 1)."""
    players: int | None = None
    """How many players advance into the stage (a multiple of 10); None for the first."""
    points: PointsMode = PointsMode.CARRY
    """How the stage's players are ranked (meaningful after the first stage)."""
    hide_extras: bool = False
    """The judges' extra points of the stage's games are hidden from the public until
    the tournament is closed (semifinal and final only)."""

    def to_json(self) -> dict[str, Any]:
        """The stage as the tournament file writes it."""
        data: dict[str, Any] = {"stage": self.stage.value}
        if self.players is not None:
            data["players"] = self.players
        data["games"] = self.games
        if self.stage is not Stage.QUALIFYING:
            data["points"] = self.points.value
            data["hide_extras"] = self.hide_extras
        return data


@dataclass(frozen=True, slots=True)
class StagePlan:
    """The stages of a tournament in order, the qualifying stage first."""

    stages: tuple[StageSpec, ...]
    """The stages, in the order they are played."""

    def spec(self, stage: Stage) -> StageSpec | None:
        """The plan of `stage`; None when the plan has no such stage."""
        for spec in self.stages:
            if spec.stage is stage:
                return spec
        return None

    def has_stage(self, stage: Stage) -> bool:
        """Whether the plan has `stage`."""
        return self.spec(stage) is not None

    def next_stage(self, stage: Stage) -> Stage | None:
        """The stage that players of `stage` advance into; None after the last one (or
        for a stage the plan does not have)."""
        for index, spec in enumerate(self.stages):
            if spec.stage is stage:
                return self.stages[index + 1].stage if index + 1 < len(self.stages) else None
        return None

    def previous_stage(self, stage: Stage) -> Stage | None:
        """The stage whose players advance into `stage`; None for the first one."""
        for index, spec in enumerate(self.stages):
            if spec.stage is stage:
                return self.stages[index - 1].stage if index else None
        return None

    def depth(self, stage: Stage) -> int:
        """The position of `stage` in the plan, 0 for the first (-1 when absent)."""
        for index, spec in enumerate(self.stages):
            if spec.stage is stage:
                return index
        return -1

    def games_before_final(self) -> int:
        """8.6 B by default: the plan's qualifying games plus its semifinal games."""
        return sum(s.games for s in self.stages if s.stage.is_before_final())

    def hides_extras(self, stage: Stage) -> bool:
        """Whether the judges' extras of `stage`'s games are hidden until the end."""
        spec = self.spec(stage)
        return spec is not None and spec.hide_extras

    def to_json(self) -> list[dict[str, Any]]:
        """The plan as the tournament file's `stages`."""
        return [spec.to_json() for spec in self.stages]

    @classmethod
    def parse(cls, raw: object) -> StagePlan:
        """A plan from the file's `stages` (a decoded JSON list).

        Raises `TournamentFileError` listing every problem, one per fault.
        """
        problems = plan_problems(raw)
        if problems:
            raise TournamentFileError(problems)
        return _read(raw)


def plan_problems(raw: object) -> list[Problem]:
    """Every problem of a plan's decoded JSON (empty when it is a valid plan)."""
    if not isinstance(raw, list):
        return [problem(None, None, "stages", "type.list")]
    if not raw:
        return [problem(None, None, "stages", "stages.empty")]
    if len(raw) > MAX_STAGES:
        return [problem(None, None, "stages", "stages.too_many", limit=MAX_STAGES)]
    problems: list[Problem] = []
    seen: list[Stage] = []
    players_before: int | None = None
    for index, entry in enumerate(raw, start=1):
        where = f"stages[{index}]"
        if not isinstance(entry, dict):
            problems.append(problem(None, None, where, "type.object"))
            continue
        stage = _stage_of(entry, where, problems)
        players = _fields_of(entry, where, problems)
        if stage is None or not _in_order(stage, index, seen, where, problems):
            continue
        if stage is Stage.QUALIFYING:
            _first_stage(entry, where, problems)
            continue
        if "players" not in entry and stage is Stage.FINAL:
            players = FINAL_PLAYERS
        elif "players" not in entry:
            problems.append(problem(None, None, f"{where}.players", "field.missing"))
        if players is not None:
            _players(stage, players, players_before, where, problems)
            players_before = players
    return problems


def _fields_of(entry: dict[str, Any], where: str, problems: list[Problem]) -> int | None:
    """Check the games, points and hide_extras of one stage; its players if an integer."""
    games = _integer(entry, "games", where, problems, required=True)
    if games is not None and games < 1:
        problems.append(problem(None, None, f"{where}.games", "number.below_one", value=games))
    players = _integer(entry, "players", where, problems, required=False)
    points = entry.get("points", PointsMode.CARRY.value)
    if points not in {m.value for m in PointsMode}:
        choices = ", ".join(m.value for m in PointsMode)
        problems.append(
            problem(
                None, None, f"{where}.points", "value.choice", choices=choices, value=quoted(points)
            )
        )
    if not isinstance(entry.get("hide_extras", False), bool):
        problems.append(problem(None, None, f"{where}.hide_extras", "type.boolean"))
    return players


def _in_order(
    stage: Stage, index: int, seen: list[Stage], where: str, problems: list[Problem]
) -> bool:
    """Whether `stage` may come at `index` after the stages `seen` (then it is seen)."""
    if stage in seen:
        problems.append(problem(None, None, f"{where}.stage", "stages.twice", stage=stage.value))
        return False
    before = seen[-1] if seen else None
    seen.append(stage)
    if index == 1 and stage is not Stage.QUALIFYING:
        problems.append(problem(None, None, f"{where}.stage", "stages.first_not_qualifying"))
        return False
    if before is not None and STAGE_ORDER.index(stage) < STAGE_ORDER.index(before):
        problems.append(
            problem(
                None, None, f"{where}.stage", "stages.order", stage=stage.value, before=before.value
            )
        )
        return False
    return True


def _first_stage(entry: dict[str, Any], where: str, problems: list[Problem]) -> None:
    if "players" in entry:
        problems.append(problem(None, None, f"{where}.players", "stages.first_players"))
    if entry.get("hide_extras") is True:
        problems.append(problem(None, None, f"{where}.hide_extras", "stages.qualifying_hidden"))
    if entry.get("points") == PointsMode.RESET.value:
        problems.append(problem(None, None, f"{where}.points", "stages.qualifying_reset"))


def _players(
    stage: Stage, players: int, before: int | None, where: str, problems: list[Problem]
) -> None:
    field = f"{where}.players"
    if players < TABLE or players % TABLE:
        problems.append(problem(None, None, field, "stages.players_tables", value=players))
    elif stage is Stage.FINAL and players not in (FINAL_PLAYERS, 2 * FINAL_PLAYERS):
        problems.append(problem(None, None, field, "stages.final_players", value=players))
    elif before is not None and players > before:
        problems.append(
            problem(None, None, field, "stages.players_above_before", value=players, before=before)
        )


def _stage_of(entry: dict[str, Any], where: str, problems: list[Problem]) -> Stage | None:
    if "stage" not in entry:
        problems.append(problem(None, None, f"{where}.stage", "field.missing"))
        return None
    value = entry["stage"]
    for stage in STAGE_ORDER:
        if value == stage.value:
            return stage
    choices = ", ".join(s.value for s in STAGE_ORDER)
    problems.append(
        problem(None, None, f"{where}.stage", "value.choice", choices=choices, value=quoted(value))
    )
    return None


def _integer(
    entry: dict[str, Any], key: str, where: str, problems: list[Problem], *, required: bool
) -> int | None:
    if key not in entry:
        if required:
            problems.append(problem(None, None, f"{where}.{key}", "field.missing"))
        return None
    value = entry[key]
    if type(value) is not int:
        problems.append(problem(None, None, f"{where}.{key}", "type.integer"))
        return None
    if value > INT_MAX:
        problems.append(
            problem(None, None, f"{where}.{key}", "number.too_large", value=value, limit=INT_MAX)
        )
        return None
    return value


def _read(raw: Any) -> StagePlan:
    specs = []
    for entry in raw:
        stage = Stage(entry["stage"])
        players = entry.get("players")
        if stage is Stage.FINAL and players is None:
            players = FINAL_PLAYERS
        specs.append(
            StageSpec(
                stage=stage,
                games=entry["games"],
                players=players,
                points=PointsMode(entry.get("points", PointsMode.CARRY.value)),
                hide_extras=bool(entry.get("hide_extras", False)),
            )
        )
    return StagePlan(tuple(specs))


def plan_participant_problems(plan: StagePlan, participants: int | None) -> list[Problem]:
    """The plan's second stage cannot take more players than the tournament has
    participants (when their number is known)."""
    if participants is None or len(plan.stages) < 2:
        return []
    players = plan.stages[1].players
    if players is None or players <= participants:
        return []
    return [
        problem(
            None,
            None,
            "stages[2].players",
            "stages.players_above_before",
            value=players,
            before=participants,
        )
    ]


def plan_seating_problems(plan: StagePlan, published: Mapping[Stage, int]) -> list[Problem]:
    """A stage before the final whose seating is published: its players play the games
    that seating gives each of them (`published`: games per player by stage), and the plan
    must say so, since 8.6 B counts the plan's games."""
    problems = []
    for index, spec in enumerate(plan.stages, start=1):
        games = published.get(spec.stage) if spec.stage.is_before_final() else None
        if games is not None and games != spec.games:
            problems.append(
                problem(
                    None,
                    None,
                    f"stages[{index}].games",
                    "stages.games_not_published",
                    value=spec.games,
                    published=games,
                )
            )
    return problems


def unknown_stage_problem(game: str, stage: Stage) -> Problem:
    """A game whose stage the plan does not have."""
    return problem(game, None, "stage", "stages.game_not_in_plan", stage=stage.value)
