"""The seating schedule, its quality metrics and the error for impossible inputs.

What the planner says (a compromise flag, a reason no schedule exists) is a code
with parameters, like a protocol's problems: `SeatingFlag` and `SeatingError`
carry `code` and `params` and read (`str()`) as the English sentence of their template
(the command line and the schedule file print it); the web shell says the same in
the reader's language from the code (`mafiatab.messages`).

Parameters: `name`, `old` and `new` are nicknames (quoted in the sentence),
`names` a list of nicknames (quoted and joined), `group` a list of nicknames
joined as they are, `value` a wrong value as the planner quotes it; the others are
numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

#: The `format` field of a schedule file (`mafiatab seating --json`).
FORMAT = "mafiatab-seating/1"

#: Players at one table.
TABLE_SIZE = 10
#: The most players and games each the planner takes: beyond any tournament, a bound for
#: reading (a planner asked for 10**20 players or 1,000 games each would never finish).
MAX_PLAYERS = 1000
MAX_GAMES = 60


#: The English sentence of every flag code (a compromise of a schedule).
FLAG_TEMPLATES: Final[Mapping[str, str]] = {
    "replacement": "%(new)s replaces %(old)s and plays the %(left)s games %(old)s had left",
    "stand_in": "%(new)s stood in for %(old)s in round %(round)s; %(old)s keeps his other games",
    "pin.elsewhere": (
        "planned round %(round)s has only tables 1..%(size)s, so %(name)s "
        "(fixed to table %(table)s) sits elsewhere"
    ),
    "time_limit": (
        "the time limit stopped the search after %(done)s of %(budget)s iterations, "
        "so this schedule depends on the machine's speed"
    ),
    "pairs.above": (
        "%(count)s pairs share more than %(ceiling)s games (the mean is %(mean)s); "
        "the most any pair shares is %(max)s"
    ),
    "seat_balance.played": (
        "seat balance is not exact (spread %(spread)s): "
        "the seats of the rounds already played leave no exact completion"
    ),
    "seat_balance.colouring": (
        "seat balance is not exact (spread %(spread)s): the seat colouring could not be completed"
    ),
    "same_table": ("%(count)s times a player sits at the same table in two consecutive rounds"),
    "kept_apart": "players to keep apart (%(group)s) still share %(shared)s games in pairs",
    "kept_apart.one": "players to keep apart (%(group)s) still share 1 game in pairs",
    "stranger": (
        "%(name)s played in the rounds already played but is not among the players; "
        "meetings with them are left out of the metrics"
    ),
    "pinned_together": (
        "%(names)s are all fixed to table %(table)s, so they meet in every game they all play"
    ),
}

#: The English sentence of every reason a seating cannot be made.
ERROR_TEMPLATES: Final[Mapping[str, str]] = {
    "time_limit.not_positive": "the time limit must be positive, not %(value)s",
    "budget.negative": "the iteration budget must not be negative, not %(value)s",
    "players.one_string": "players must be a list of names, not one string",
    "players.bad_name": "player names must be non-empty text, not %(value)s",
    "players.twice": "player %(name)s is listed more than once",
    "players.too_few": "%(count)s players cannot fill a table of %(size)s",
    "players.too_many": "%(count)s players are more than the planner seats (at most %(limit)s)",
    "games.too_many": "%(games)s games each are more than the planner plans (at most %(limit)s)",
    "games.below_one": "every player must play at least one game, not %(games)s",
    "tables.below_one": "at least one table must be in play, not %(tables)s",
    "tables.too_many": "%(tables)s tables need %(need)s players at once, there are only %(count)s",
    "fixed.not_a_player": "player %(name)s is fixed to a table but is not among the players",
    "fixed.bad_table": "player %(name)s is fixed to table %(table)s, not one of 1..%(tables)s",
    "fixed.table_full": "%(count)s players are fixed to table %(table)s, which seats %(size)s",
    "avoid.not_a_player": "player %(name)s is in a group to keep apart but not a player",
    "avoid.too_small": "a group to keep apart needs two players or more: [%(names)s]",
    "history.bad_tables": (
        "round %(round)s, table %(table)s: tables must be distinct positive numbers"
    ),
    "history.table_size": (
        "round %(round)s, table %(table)s: %(count)s players, a table seats %(size)s"
    ),
    "history.plays_twice": "round %(round)s, table %(table)s: %(name)s plays twice in the round",
    "replacement.not_a_player": "replacement %(name)s is not among the players",
    "replacement.still_playing": "%(old)s is replaced by %(new)s but is still among the players",
    "replacement.never_played": "%(new)s replaces %(old)s, who played none of the rounds given",
    "stand_in.not_seated": (
        "%(new)s stood in for %(old)s in round %(round)s but has no seat in the rounds given"
    ),
    "games.played_too_many": "%(name)s already played %(count)s games, more than %(games)s",
    "seats.not_multiple_remaining": (
        "the remaining games make %(seats)s seats, not a multiple of %(size)s: "
        "the tables cannot all be full"
    ),
    "seats.not_multiple": (
        "%(players)s players × %(games)s games make %(seats)s seats, not a multiple of "
        "%(size)s: the tables cannot all be full"
    ),
    "rounds.too_few": (
        "%(name)s needs %(most)s games but %(tables)s tables at once give only %(rounds)s "
        "rounds; use fewer tables"
    ),
    "rounds.cannot_fill": (
        "the remaining games cannot fill the rounds without someone playing twice in a round"
    ),
}

#: Parameters that hold one nickname, and those that hold a list of them.
NAME_PARAMS: Final = frozenset({"name", "old", "new"})
NAMES_PARAMS: Final = frozenset({"names"})
GROUP_PARAMS: Final = frozenset({"group"})

Params = Mapping[str, "str | int | float | list[str]"]


def render(template: str, params: Params, quote: Any = repr) -> str:
    """`template` with `params`, nicknames quoted by `quote` (Python's quotes by default)."""
    values: dict[str, object] = {}
    for key, value in params.items():
        if key in NAME_PARAMS:
            values[key] = quote(value)
        elif key in NAMES_PARAMS and isinstance(value, Sequence):
            values[key] = ", ".join(quote(v) for v in value)
        elif key in GROUP_PARAMS and isinstance(value, Sequence):
            values[key] = ", ".join(map(str, value))
        else:
            values[key] = value
    return template % values if values else template


class SeatingFlag:
    """One compromise of a schedule: a code of `FLAG_TEMPLATES` and its parameters.

    It is a value, not a text: `str()` is its English sentence (the command line's and
    the schedule file's), the shell says it in the reader's language from its code."""

    __slots__ = ("code", "params")

    code: str
    params: Params

    def __init__(self, code: str, /, **params: str | int | float | list[str]) -> None:
        if code not in FLAG_TEMPLATES:
            raise KeyError(f"unknown seating flag {code!r}")
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return render(FLAG_TEMPLATES[self.code], self.params)

    def __repr__(self) -> str:
        return f"SeatingFlag({self.code!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatingFlag):
            return NotImplemented
        return (self.code, dict(self.params)) == (other.code, dict(other.params))

    __hash__ = None  # type: ignore[assignment]

    def to_json(self) -> dict[str, Any]:
        """The stored form: {"code": ..., "params": {...}}."""
        return {"code": self.code, "params": dict(self.params)}


class SeatingError(ValueError):
    """The inputs admit no schedule (the message says why, in one line).

    Raised with a code of `ERROR_TEMPLATES` and its parameters (a KeyError for any
    other code: a sentence is never a code)."""

    def __init__(self, code: str, /, **params: str | int | float | list[str]) -> None:
        template = ERROR_TEMPLATES[code]
        self.code = code
        self.params: Params = params
        super().__init__(render(template, params))


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
class StandIn:
    """A reserve who played one seat of a round already played for a player who keeps his
    other games (replaced for that round only)."""

    round: int
    """The round, one of the rounds already played."""
    reserve: str
    """Who sat in the seat."""
    player: str
    """Whose game it was: it counts among his G games, and for nobody else."""


@dataclass(frozen=True)
class AfterMetrics:
    """How often each ordered pair (A in the seat right after B's; seats 1..10, seat 1
    not after seat 10) occurs over the games of one table (stages.md)."""

    max: int
    """The largest count over the ordered pairs of players."""
    min: int
    """The smallest count."""
    histogram: tuple[int, ...]
    """histogram[k] is the number of ordered pairs that occur exactly k times."""

    def to_json(self) -> dict[str, Any]:
        """As the schedule file's `metrics.after`."""
        return {"max": self.max, "min": self.min, "histogram": list(self.histogram)}


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
    after: AfterMetrics | None = None
    """The final at one table: how evenly "who sits right after whom" is spread."""

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
        } | ({"after": self.after.to_json()} if self.after is not None else {})


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
    flags: tuple[SeatingFlag, ...]
    """Every compromise the plan makes (each reads as an English sentence)."""

    def to_json(self) -> dict[str, Any]:
        """The schedule file (format `mafiatab-seating/1`, spec/seating.md)."""
        return {
            "format": FORMAT,
            "players": list(self.players),
            "rounds": [r.to_json() for r in self.rounds],
            "metrics": self.metrics.to_json(),
            "flags": [str(flag) for flag in self.flags],
        }

    def sitting_out(self, round_index: int) -> tuple[str, ...]:
        """The players who do not play in the round at this 0-based index."""
        playing = set(self.rounds[round_index].players())
        return tuple(p for p in self.players if p not in playing)
