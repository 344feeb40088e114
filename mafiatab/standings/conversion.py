"""Computed standings <-> their stored JSON form, and the core calls that fill them.

Snapshots keep the standings with exact numbers (fractions as "n/d" text) and every
player's explanation grouped by game, so that reading them back gives the very objects
the core computed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from mafiatab.core.advancing import public_tournament
from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.core.roles import Stage, Team
from mafiatab.core.scoring import ScoreLine, explain_all
from mafiatab.core.stages import StagePlan
from mafiatab.core.standings import Standing, Standings
from mafiatab.standings.inputs import ScoringSettings, core_tournament
from mafiatab.tournaments.models import Tournament

# --- what a snapshot holds -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AsOf:
    """The latest round with a counted game."""

    stage: Stage
    """Its stage."""
    round: int
    """Its number within the stage."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The standings of a tournament at one version, with what the pages show beside them."""

    key: str
    """What names them in the cache: the database state they were computed from."""
    tournament_id: int
    """The tournament's id."""
    version: int
    """The tournament's `standings_version` they were computed at."""
    provisional: bool
    """True when submitted (unconfirmed) protocols are counted too."""
    computed_at: dt.datetime
    """When the core computed them."""
    standings: Standings
    """The core's standings."""
    as_of: AsOf | None
    """The latest round with a counted game (None: no game has a round)."""
    games: int
    """Counted games."""
    stored: int | None = None
    """The stored `StandingsSnapshot` of frozen standings; None for live ones."""
    full: bool = False
    """True when the judges' extras a stage hides from the public are counted (the
    staff's standings before the tournament is closed)."""
    scoring: ScoringSettings | None = None
    """The scoring settings frozen standings were computed with, as they were then;
    None for live standings (they follow the tournament's settings of now)."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game of a player, with the lines of his points in it."""

    game: str
    """The game's label."""
    game_pk: int | None
    """The stored game's id (None when it is no longer stored)."""
    stage: Stage
    """The game's stage."""
    round: int | None
    """Its round."""
    table: int | None
    """Its table."""
    seat: int
    """The player's seat."""
    role: str
    """The player's role (core value: red, sheriff, black, don)."""
    winner: str
    """The game's result (core value: red, black, draw)."""
    replayed: bool
    """True for a replayed game (it counts for nothing but its removals)."""
    lines: tuple[ScoreLine, ...]
    """The player's points in this game, as the core scores them."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every point of one player: game by game, then the tournament-level penalties."""

    player: str
    """The player's nickname."""
    games: tuple[GameEntry, ...]
    """Every game the player was seated in, in the tournament's order."""
    penalties: tuple[ScoreLine, ...]
    """Tournament-level penalties."""

    def lines(self) -> list[ScoreLine]:
        """Every line, in the order of `mafiatab.core.scoring.explain`."""
        return [line for entry in self.games for line in entry.lines] + list(self.penalties)


# --- exact JSON forms ------------------------------------------------------------------


#: The fields of a standings row, in the JSON's order.
STANDING_FIELDS = (
    "rank",
    "player",
    "total",
    "main",
    "extra",
    "penalties",
    "compensation",
    "wins",
    "wins_as_don_or_sheriff",
    "first_night_deaths",
    "games",
    "decided_by_lot",
)


def _fraction(text: str) -> Fraction:
    return Fraction(text)


def standings_to_data(standings: Standings) -> dict[str, Any]:
    """The standings as JSON with exact numbers (fractions as "n/d" text)."""
    return {
        "tournament": standings.tournament,
        "coefficient_k": str(standings.coefficient_k),
        "heavy_side": standings.heavy_side.value if standings.heavy_side else None,
        "compensation_b": standings.compensation_b,
        "lot": [list(group) for group in standings.lot],
        "lot_seed": standings.lot_seed,
        "stages": standings.plan.to_json() if standings.plan is not None else None,
        "ruleset": standings.ruleset,
        "applies_k": standings.applies_k,
        "rows": [
            [
                r.rank,
                r.player,
                str(r.total),
                str(r.main),
                str(r.extra),
                str(r.penalties),
                str(r.compensation),
                r.wins,
                r.wins_as_don_or_sheriff,
                r.first_night_deaths,
                r.games,
                r.decided_by_lot,
                r.stage.value if r.stage is not None else None,
                [[stage.value, str(points)] for stage, points in r.by_stage],
                [[stage.value, games] for stage, games in r.games_by_stage],
                r.compensated_games,
            ]
            for r in standings.rows
        ],
    }


def _staged(row: list[Any]) -> dict[str, Any]:
    """A row's stage and points per stage (a row stored before stages had neither)."""
    if len(row) <= len(STANDING_FIELDS):
        return {}
    stage, by_stage, games_by_stage, compensated = row[len(STANDING_FIELDS) :]
    return {
        "stage": Stage(stage) if stage else None,
        "by_stage": tuple((Stage(st), _fraction(points)) for st, points in by_stage),
        "games_by_stage": tuple((Stage(st), games) for st, games in games_by_stage),
        "compensated_games": compensated,
    }


def standings_from_data(data: dict[str, Any]) -> Standings:
    """The inverse of `standings_to_data`."""
    stages = data.get("stages")
    return Standings(
        tournament=data["tournament"],
        coefficient_k=_fraction(data["coefficient_k"]),
        heavy_side=Team(data["heavy_side"]) if data["heavy_side"] else None,
        compensation_b=data["compensation_b"],
        rows=tuple(
            Standing(
                rank=rank,
                player=player,
                total=_fraction(total),
                main=_fraction(main),
                extra=_fraction(extra),
                penalties=_fraction(penalties),
                compensation=_fraction(compensation),
                wins=wins,
                wins_as_don_or_sheriff=wins_ds,
                first_night_deaths=deaths,
                games=games,
                decided_by_lot=by_lot,
                **_staged(row),
            )
            for row in data["rows"]
            for (
                rank,
                player,
                total,
                main,
                extra,
                penalties,
                compensation,
                wins,
                wins_ds,
                deaths,
                games,
                by_lot,
            ) in [row[: len(STANDING_FIELDS)]]
        ),
        lot=tuple(tuple(group) for group in data["lot"]),
        lot_seed=data["lot_seed"],
        plan=StagePlan.parse(stages) if stages is not None else None,
        ruleset=data.get("ruleset", "fiim"),
        applies_k=data.get("applies_k", False),
    )


def _line_data(line: ScoreLine) -> list[Any]:
    facts = [
        [name, "fraction", str(value)] if isinstance(value, Fraction) else [name, "plain", value]
        for name, value in line.facts
    ]
    return [line.clause, line.kind, str(line.points), line.label, line.topic, line.note, facts]


def _line(player: str, game: str | None, data: list[Any]) -> ScoreLine:
    clause, kind, points, label, topic, note, facts = data
    return ScoreLine(
        player,
        game,
        clause,
        kind,
        _fraction(points),
        label,
        topic,
        note,
        tuple(
            (name, _fraction(value) if form == "fraction" else value) for name, form, value in facts
        ),
    )


def explanation_to_data(explanation: Explanation) -> dict[str, Any]:
    """An explanation in its exact JSON form (kept for frozen standings)."""
    return {
        "games": [
            {
                "game": g.game,
                "pk": g.game_pk,
                "stage": g.stage.value,
                "round": g.round,
                "table": g.table,
                "seat": g.seat,
                "role": g.role,
                "winner": g.winner,
                "replayed": g.replayed,
                "lines": [_line_data(line) for line in g.lines],
            }
            for g in explanation.games
        ],
        "penalties": [_line_data(line) for line in explanation.penalties],
    }


def explanation_from_data(player: str, data: dict[str, Any]) -> Explanation:
    """The inverse of `explanation_to_data`."""
    return Explanation(
        player=player,
        games=tuple(
            GameEntry(
                game=g["game"],
                game_pk=g["pk"],
                stage=Stage(g["stage"]),
                round=g["round"],
                table=g["table"],
                seat=g["seat"],
                role=g["role"],
                winner=g["winner"],
                replayed=g["replayed"],
                lines=tuple(_line(player, g["game"], line) for line in g["lines"]),
            )
            for g in data["games"]
        ),
        penalties=tuple(_line(player, None, line) for line in data["penalties"]),
    )


def scoring_to_data(settings: ScoringSettings) -> dict[str, Any]:
    """The scoring settings as stored beside frozen standings."""
    return asdict(settings)


def scoring_from_data(data: Any) -> ScoringSettings | None:
    """The stored scoring settings (None when the snapshot kept none, or an older
    layout of them)."""
    if not isinstance(data, dict):
        return None
    try:
        return ScoringSettings(**data)
    except TypeError:
        return None


# --- computing -------------------------------------------------------------------------


def scoring_input(
    tournament: Tournament, *, provisional: bool, full: bool = False
) -> CoreTournament:
    """What the core scores: confirmed protocols, or with `provisional` submitted ones
    too; the judges' extras of a stage whose plan hides them left out until the
    organiser closes the tournament (the public's standings), unless `full` (the
    staff's)."""
    core = core_tournament(tournament, provisional=provisional)
    if full:
        return core
    return public_tournament(core, closed=tournament.closed_at is not None)


def as_of(core: CoreTournament) -> AsOf | None:
    """The latest round (by stage, then number) with a counted game."""
    order = list(Stage)
    latest: tuple[int, int] | None = None
    for game in core.games:
        if game.is_counted() and game.round is not None:
            key = (order.index(game.stage), game.round)
            latest = key if latest is None or key > latest else latest
    return AsOf(order[latest[0]], latest[1]) if latest else None


def explanations_of(core: CoreTournament, game_pks: dict[str, int]) -> dict[str, Explanation]:
    """Every player's explanation in one pass over the games.

    The lines are the core's (`explain_all`), in the order
    of `mafiatab.core.scoring.explain`, grouped by game.
    """
    explained = explain_all(core)
    by_game: dict[tuple[str, str | None], list[ScoreLine]] = {}
    for player, player_lines in explained.items():
        for line in player_lines:
            by_game.setdefault((player, line.game), []).append(line)
    games: dict[str, list[GameEntry]] = {name: [] for name in explained}
    for protocol in core.games:
        for seat, player in enumerate(protocol.players, start=1):
            games[player].append(
                GameEntry(
                    game=protocol.id,
                    game_pk=game_pks.get(protocol.id),
                    stage=protocol.stage,
                    round=protocol.round,
                    table=protocol.table,
                    seat=seat,
                    role=protocol.roles[seat - 1].value,
                    winner=protocol.winner.value,
                    replayed=protocol.replayed,
                    lines=tuple(by_game.get((player, protocol.id), ())),
                )
            )
    return {
        player: Explanation(
            player=player,
            games=tuple(games[player]),
            penalties=tuple(by_game.get((player, None), ())),
        )
        for player in explained
    }
