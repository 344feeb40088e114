"""The seating schedule, its quality metrics and the error for impossible inputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The `format` field of a schedule file (`mafiatab seating --json`).
FORMAT = "mafiatab-seating/1"

#: Players at one table.
TABLE_SIZE = 10


class SeatingError(ValueError):
    """The inputs admit no schedule (the message says why, in one line)."""


@dataclass(frozen=True)
class Table:
    """One game of a round: a physical table and its players."""

    table: int
    """The physical table number, 1-based (a table usually means a judge)."""
    seats: tuple[str, ...]
    """The ten players, seat 1 first."""

    def to_json(self) -> dict[str, Any]:
        """The table as in the schedule file."""
        return {"table": self.table, "seats": list(self.seats)}


@dataclass(frozen=True)
class Round:
    """The games played at the same time."""

    round: int
    """The round number, 1-based."""
    tables: tuple[Table, ...]
    """The games of the round, by table number."""

    def players(self) -> tuple[str, ...]:
        """Everybody who plays in this round, table by table, seat 1 first."""
        return tuple(name for table in self.tables for name in table.seats)

    def to_json(self) -> dict[str, Any]:
        """The round as in the schedule file."""
        return {"round": self.round, "tables": [t.to_json() for t in self.tables]}


@dataclass(frozen=True)
class Metrics:
    """How good a schedule is, in the order of importance of spec/seating.md."""

    players: int
    """Number of players."""
    games: int
    """Games each player plays."""
    tables: int
    """Tables in play at once (at most)."""
    rounds: int
    """Number of rounds, those already played included."""
    mean_meetings: float
    """λ = 9G/(N−1), the mean number of games a pair of players shares."""
    max_meetings: int
    """The most games any pair of players shares."""
    histogram: tuple[int, ...]
    """histogram[k] is the number of pairs of players who share exactly k games."""
    repeated_pairs: int
    """Pairs who share two games or more."""
    pairs_above_ceiling: int
    """Pairs who share more than ceil(λ) games."""
    variance: float
    """Population variance of the pair counts over all N(N−1)/2 pairs."""
    seat_balance_exact: bool
    """Every player sits in every seat floor(g/10) or ceil(g/10) times (g: his games)."""
    seat_spread: int
    """The largest difference, over players, between a player's most and least used seat."""
    consecutive_same_table: int
    """Times a player (not fixed to a table) sits at the same table in consecutive rounds."""
    table_spread: int
    """The largest difference, over players not fixed to a table, between a player's most and
    least visited table (1 at best when a player plays fewer games than there are tables)."""
    avoided_meetings: int
    """Games shared by pairs that should meet as little as possible (the `avoid` groups)."""
    iterations: int
    """Search steps actually made."""
    stopped_by_time_limit: bool
    """True if the time limit cut the search short (the result then depends on the machine)."""

    def to_json(self) -> dict[str, Any]:
        """The metrics as in the schedule file."""
        return {
            "players": self.players,
            "games": self.games,
            "tables": self.tables,
            "rounds": self.rounds,
            "mean_meetings": round(self.mean_meetings, 4),
            "max_meetings": self.max_meetings,
            "histogram": list(self.histogram),
            "repeated_pairs": self.repeated_pairs,
            "pairs_above_ceiling": self.pairs_above_ceiling,
            "variance": round(self.variance, 4),
            "seat_balance_exact": self.seat_balance_exact,
            "seat_spread": self.seat_spread,
            "consecutive_same_table": self.consecutive_same_table,
            "table_spread": self.table_spread,
            "avoided_meetings": self.avoided_meetings,
            "iterations": self.iterations,
            "stopped_by_time_limit": self.stopped_by_time_limit,
        }


@dataclass(frozen=True)
class Schedule:
    """A seating plan of the qualifying stage, with its metrics and compromises."""

    players: tuple[str, ...]
    """The players, in the order given."""
    games: int
    """Games each player plays."""
    tables: int
    """Tables in play at once (at most)."""
    seed: int
    """The seed the plan was made with."""
    rounds: tuple[Round, ...]
    """Every round, the rounds already played (kept unchanged) first."""
    fixed_rounds: int
    """How many leading rounds were given as already played."""
    metrics: Metrics
    """The quality of the plan."""
    flags: tuple[str, ...]
    """Human-readable explanations of every compromise the plan makes."""

    def to_json(self) -> dict[str, Any]:
        """The schedule file (format `mafiatab-seating/1`, spec/seating.md)."""
        return {
            "format": FORMAT,
            "players": list(self.players),
            "rounds": [r.to_json() for r in self.rounds],
            "metrics": self.metrics.to_json(),
            "flags": list(self.flags),
        }

    def sitting_out(self, round_index: int) -> tuple[str, ...]:
        """The players who do not play in the round at this 0-based index."""
        playing = set(self.rounds[round_index].players())
        return tuple(p for p in self.players if p not in playing)
