"""Tournament standings: totals and the tie-break chain of 8.8.

Ranking is computed here, in Python, over core data, so it is the same whatever
database the web app runs on. Ties left after 8.8.4 are broken by a lot (8.8.5)
that is reproducible from the tournament's `lot_seed` and reported.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from mafiatab.core.numbers import json_number
from mafiatab.core.protocol import Tournament
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Stage, Team
from mafiatab.core.scoring import (
    COMPENSATION,
    MAIN_CLAUSES,
    PlayerTally,
    ScoringContext,
    context_of,
    game_awards,
    tally,
)
from mafiatab.core.stages import PointsMode, StagePlan


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    """1-based position (the lot gives tied players distinct ranks)."""
    player: str
    """The player's nickname."""
    total: Fraction
    """main + extra + penalties."""
    main: Fraction
    """Win points (times K where applied) and compensation."""
    extra: Fraction
    """8.2.4, 8.3, 8.4 and 8.5 points: the 8.8.1 tie-break value."""
    penalties: Fraction
    """Tournament-level penalties (lateness, lobby)."""
    compensation: Fraction
    """The 8.6 points (Ci times the compensated games); part of `main`."""
    wins: int
    """Games won (8.8.2)."""
    wins_as_don_or_sheriff: int
    """Games won as don or sheriff (8.8.3)."""
    first_night_deaths: int
    """First-night deaths in any role (8.8.4)."""
    games: int
    """Games played that were not replayed."""
    decided_by_lot: bool
    """True when the lot (8.8.5) set this player's order against a tied neighbour."""
    stage: Stage | None = None
    """With a stage plan: the furthest stage he was seated in (None without a plan)."""
    by_stage: tuple[tuple[Stage, Fraction], ...] = ()
    """With a stage plan: his game points in each stage he was seated in, in plan order
    (tournament-level penalties belong to no stage)."""
    games_by_stage: tuple[tuple[Stage, int], ...] = ()
    """With a stage plan: his games in each stage he was seated in (replayed ones not
    counted), in plan order."""
    compensated_games: int = 0
    """With a stage plan: games that gave him 8.6 compensation (each can rise to the
    regulation's cap; the outlook's bound). 0 without a plan."""

    def games_in(self, stage: Stage) -> int:
        """His counted games in `stage`."""
        for played, games in self.games_by_stage:
            if played is stage:
                return games
        return 0

    def points_in(self, stage: Stage) -> Fraction:
        """His game points in `stage` (0 where he played none of its games)."""
        for played, points in self.by_stage:
            if played is stage:
                return points
        return Fraction(0)

    def sort_key(self) -> tuple[Fraction, Fraction, int, int, int]:
        """The 8.8 chain, higher first: total, extra, wins, don/sheriff wins, deaths."""
        return (
            self.total,
            self.extra,
            self.wins,
            self.wins_as_don_or_sheriff,
            self.first_night_deaths,
        )


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with what they were computed from."""

    tournament: str
    """The tournament's name."""
    coefficient_k: Fraction
    """K of 8.7 (1 where it does not apply)."""
    heavy_side: Team | None
    """The side whose wins were multiplied by K."""
    compensation_b: int
    """B of 8.6."""
    rows: tuple[Standing, ...]
    """Every player seated in any game and every player given a tournament-level
    penalty (one with no game yet has `games` 0), best first."""
    lot: tuple[tuple[str, ...], ...]
    """The tied groups that the lot ordered, each in its drawn order."""
    lot_seed: int = 0
    """The seed the lot was drawn with."""
    plan: StagePlan | None = None
    """The stage plan the rows are grouped by (None: one group, the 8.8 chain alone)."""
    ruleset: str | None = None
    """With a stage plan: the regulation's code (its caps bound the outlook)."""
    applies_k: bool = False
    """With a stage plan: whether 8.7's K applies (it can move points both ways: no
    outlook marks then). False without a plan."""

    def group(self, stage: Stage) -> tuple[Standing, ...]:
        """The rows whose furthest stage is `stage`, in their order."""
        return tuple(r for r in self.rows if r.stage is stage)

    def row(self, player: str) -> Standing:
        """The line of `player`; KeyError if he is not in the standings."""
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        """The JSON document of `mafiatab standings FILE --json` (numbers to 2 decimals).

        With a stage plan the document also has `stages` (the plan) and each row its
        `stage` and `by_stage`."""
        data: dict[str, Any] = {
            "tournament": self.tournament,
            "coefficient_k": json_number(self.coefficient_k, places=2),
            "heavy_side": self.heavy_side.value if self.heavy_side else None,
            "compensation_b": self.compensation_b,
            "standings": [
                {
                    "rank": r.rank,
                    "player": r.player,
                    "total": json_number(r.total, places=2),
                    "main": json_number(r.main, places=2),
                    "extra": json_number(r.extra, places=2),
                    "penalties": json_number(r.penalties, places=2),
                    "compensation": json_number(r.compensation, places=2),
                    "wins": r.wins,
                    "wins_as_don_or_sheriff": r.wins_as_don_or_sheriff,
                    "first_night_deaths": r.first_night_deaths,
                    "games": r.games,
                    "decided_by_lot": r.decided_by_lot,
                }
                for r in self.rows
            ],
        }
        if self.plan is not None:
            data["stages"] = self.plan.to_json()
            for row, standing in zip(data["standings"], self.rows, strict=True):
                row["stage"] = standing.stage.value if standing.stage else None
                row["by_stage"] = {
                    st.value: json_number(pts, places=2) for st, pts in standing.by_stage
                }
        return data


def lot_order(seed: int, player: str) -> bytes:
    """The lot's draw for a player: a digest of the seed and the nickname, so the
    order never depends on the order of games in the file."""
    return hashlib.sha256(f"{seed}\x00{player}".encode()).digest()


def _compensated(entry: PlayerTally) -> int:
    return sum(count for (clause, _), count in entry.awards if clause == COMPENSATION)


def _points(player: str, entry: PlayerTally, context: ScoringContext) -> tuple[Fraction, ...]:
    """(main, extra, compensation) of one player, exactly, from his award counts.

    Amounts with the same denominator are added as integers; one fraction per
    denominator is built at the end.
    """
    main: dict[int, int] = {}
    extra: dict[int, int] = {}
    compensation = Fraction(0)
    for (clause, amount), count in entry.awards:
        points = context.amount(player, clause, amount)
        if clause == COMPENSATION:
            compensation += points * count
        sums = main if clause in MAIN_CLAUSES else extra
        denominator = points.denominator
        sums[denominator] = sums.get(denominator, 0) + points.numerator * count
    return _sum(main), _sum(extra), compensation


def _sum(by_denominator: dict[int, int]) -> Fraction:
    parts = [Fraction(n, d) for d, n in by_denominator.items()]
    return sum(parts[1:], parts[0]) if parts else Fraction(0)


def compute_standings(tournament: Tournament) -> Standings:
    """The standings of a valid tournament (see `validation.validate_tournament`)."""
    regulation = get_regulation(tournament.ruleset)
    counted = tally(tournament, regulation)
    context = context_of(tournament, counted)
    penalties: dict[str, Fraction] = {}
    for penalty in tournament.penalties:
        penalties[penalty.player] = penalties.get(penalty.player, Fraction(0)) + penalty.points
    # A penalised participant is listed from the moment he is fined, before any game.
    entries = dict(counted.players)
    for player in penalties:
        if player not in entries:
            entries[player] = PlayerTally()
    unranked = []
    for player, entry in entries.items():
        main, extra, compensation = _points(player, entry, context)
        fined = penalties.get(player, Fraction(0))
        unranked.append(
            Standing(
                rank=0,
                player=player,
                total=main + extra + fined if fined else main + extra,
                main=main,
                extra=extra,
                penalties=fined,
                compensation=compensation,
                wins=entry.wins,
                wins_as_don_or_sheriff=entry.wins_as_don_or_sheriff,
                first_night_deaths=entry.first_night_deaths,
                games=entry.games,
                decided_by_lot=False,
                compensated_games=_compensated(entry) if tournament.stages else 0,
            )
        )
    plan = tournament.stages
    if plan is None:
        rows, lot = _rank(unranked, tournament.lot_seed)
    else:
        points, games = _stage_points(tournament, context)
        staged = _with_stages(unranked, points, games, plan)
        rows, lot = _rank_by_stages(staged, plan, tournament.lot_seed)
    return Standings(
        tournament=tournament.name,
        coefficient_k=context.coefficient_k,
        heavy_side=context.heavy_side,
        compensation_b=context.compensation_b,
        rows=rows,
        lot=lot,
        lot_seed=tournament.lot_seed,
        plan=plan,
        ruleset=tournament.ruleset if plan is not None else None,
        applies_k=plan is not None and regulation.applies_k(tournament.participant_count()),
    )


def _stage_points(
    tournament: Tournament, context: ScoringContext
) -> tuple[dict[str, dict[Stage, Fraction]], dict[str, dict[Stage, int]]]:
    """Every player's game points and counted games per stage he was seated in (a
    replayed game seats him)."""
    result: dict[str, dict[Stage, Fraction]] = {}
    games: dict[str, dict[Stage, int]] = {}
    zero = Fraction(0)
    for protocol in tournament.games:
        stage = protocol.stage
        players = protocol.players
        for nick in players:
            result.setdefault(nick, {}).setdefault(stage, zero)
            played = games.setdefault(nick, {})
            played[stage] = played.get(stage, 0) + (0 if protocol.replayed else 1)
        for seats, clause, amount, _ in game_awards(protocol, context.regulation):
            for seat in seats:
                nick = players[seat - 1]
                result[nick][stage] += context.amount(nick, clause, amount)
    return result, games


def _with_stages(
    unranked: list[Standing],
    points: dict[str, dict[Stage, Fraction]],
    games: dict[str, dict[Stage, int]],
    plan: StagePlan,
) -> list[Standing]:
    result = []
    for standing in unranked:
        played = points.get(standing.player, {})
        ordered = sorted(played.items(), key=lambda item: plan.depth(item[0]))
        furthest = ordered[-1][0] if ordered else None
        counted = games.get(standing.player, {})
        result.append(
            replace(
                standing,
                stage=furthest,
                by_stage=tuple(ordered),
                games_by_stage=tuple((stage, counted.get(stage, 0)) for stage, _ in ordered),
            )
        )
    return result


def _rank_by_stages(
    unranked: list[Standing], plan: StagePlan, seed: int
) -> tuple[tuple[Standing, ...], tuple[tuple[str, ...], ...]]:
    """The players of the furthest stage first, in the order its `points` says (carry:
    the 8.8 chain; reset: the stage's points, then the total before it, then the 8.8
    chain); below them the players of each stage before who did not advance, by the
    8.8 chain (stages.md)."""
    rows: list[Standing] = []
    lot: list[tuple[str, ...]] = []
    depths = sorted({plan.depth(s.stage) if s.stage else -1 for s in unranked}, reverse=True)
    for depth in depths:
        members = [s for s in unranked if (plan.depth(s.stage) if s.stage else -1) == depth]
        spec = plan.stages[depth] if depth >= 0 else None
        furthest = depth == depths[0]
        reset = furthest and spec is not None and depth > 0 and spec.points is PointsMode.RESET
        keyed = []
        for s in members:
            key: tuple[Fraction | int, ...] = _chain(s)
            if reset and spec is not None:
                here = s.points_in(spec.stage)
                key = (-here, -(s.total - here), *key)
            keyed.append((key, s))
        group_rows, group_lot = _ranked(keyed, seed, len(rows))
        rows.extend(group_rows)
        lot.extend(group_lot)
    return tuple(rows), tuple(lot)


def _chain(s: Standing) -> tuple[Fraction | int, ...]:
    """The 8.8 chain as an ascending key (best first)."""
    return (-s.total, -s.extra, -s.wins, -s.wins_as_don_or_sheriff, -s.first_night_deaths)


def _ranked(
    keyed: list[tuple[tuple[Fraction | int, ...], Standing]], seed: int, offset: int
) -> tuple[list[Standing], list[tuple[str, ...]]]:
    """Rows ranked from `offset` + 1 by their keys, ties drawn by the lot."""
    ordered = sorted(keyed, key=lambda item: (item[0], lot_order(seed, item[1].player)))
    rows: list[Standing] = []
    lot: list[tuple[str, ...]] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and ordered[end][0] == ordered[start][0]:
            end += 1
        group = [s for _, s in ordered[start:end]]
        tied = len(group) > 1
        if tied:
            lot.append(tuple(s.player for s in group))
        for index, standing in enumerate(group):
            rows.append(_with_rank(standing, offset + start + index + 1, tied))
        start = end
    return rows, lot


def _rank(
    unranked: list[Standing], seed: int
) -> tuple[tuple[Standing, ...], tuple[tuple[str, ...], ...]]:
    # Exact integer keys: total and extra over their common denominator.
    scale = math.lcm(
        *(s.total.denominator for s in unranked), *(s.extra.denominator for s in unranked)
    )

    def chain_key(s: Standing) -> tuple[int, ...]:
        total, extra = s.total, s.extra
        return (
            -total.numerator * (scale // total.denominator),
            -extra.numerator * (scale // extra.denominator),
            -s.wins,
            -s.wins_as_don_or_sheriff,
            -s.first_night_deaths,
        )

    keyed = sorted((chain_key(s), lot_order(seed, s.player), s) for s in unranked)
    ordered = [s for _, _, s in keyed]
    keys = [k for k, _, _ in keyed]
    rows: list[Standing] = []
    lot: list[tuple[str, ...]] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and keys[end] == keys[start]:
            end += 1
        group = ordered[start:end]
        tied = len(group) > 1
        if tied:
            lot.append(tuple(s.player for s in group))
        for offset, standing in enumerate(group):
            rows.append(_with_rank(standing, start + offset + 1, tied))
        start = end
    return tuple(rows), tuple(lot)


def _with_rank(standing: Standing, rank: int, by_lot: bool) -> Standing:
    return replace(standing, rank=rank, decided_by_lot=by_lot)
