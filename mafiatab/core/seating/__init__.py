"""Balanced seating (рассадка) of the qualifying stage: who plays whom, where, from which seat.

Public API::

    plan_seating(players, games, *, tables=None, seed=0, time_limit=8.0, iterations=None,
                 avoid=(), fixed_tables=None, fixed_rounds=(), replacements=None,
                 stand_ins=()) -> Schedule

- `players`: the names (N ≥ 10, distinct); `games`: G, games each player plays.
- `tables`: tables in play at once, default N // 10. With N > 10·T players sit out
  in turn, and everybody still plays exactly G games (the last round may use
  fewer tables when N·G/10 is not a multiple of T).
- `seed`: the same seed and the same inputs give the same schedule.
- `iterations`: the search budget (default grows with N·G, see
  `default_iterations`). The search is governed by this count, never by the
  clock, so the result does not depend on the machine's speed. `time_limit`
  (seconds) is only a safety cap: if it stops the search first, the metrics say
  so (`stopped_by_time_limit`) and a flag explains that the schedule then
  depends on the machine.
- `avoid`: groups (pairs, clubs) whose members should meet as little as possible.
- `fixed_tables`: player -> table number (a streamed table); the player sits at
  that table in every round he plays.
- `fixed_rounds`: rounds already played, kept unchanged; the remaining rounds are
  planned so that every listed player reaches G games (after a replacement or a
  no-show). Names in them that are not players any more are allowed.
- `replacements`: newcomer -> the player (gone, named in `fixed_rounds`) he
  replaces; the newcomer plays only the games that player had left.
- `stand_ins`: `StandIn(round, reserve, player)`, a reserve who sat in `player`'s seat
  of one round in `fixed_rounds` while `player` keeps his other games: that seat counts
  as `player`'s game (so he plays one game fewer later) and as nobody else's.

Inputs that admit no schedule raise `SeatingError` (a ValueError) with a one-line
reason. The `Schedule` carries its rounds, `metrics` (a frozen `Metrics`) and
`flags` (one coded `SeatingFlag` per compromise, `str()` its English sentence);
`Schedule.to_json()` is the schedule file of spec/seating.md (format `mafiatab-seating/1`).

How a schedule is made:

1. Who plays in each round: the players with the most games left, ties in a
   seeded order (players sit out in turn).
2. Grouping (`search`): a start, then conflict-directed annealing. The start is
   the better of a greedy placement (each player joins the group he has met least)
   and the lines of an affine plane over Z_q for the primes q around N/10 (two
   players share one line of one slope, so these groups never repeat a meeting;
   a prime number of tables ≥ 11 and G ≤ T give no repeated meeting at all). The
   annealing swaps two players of one round, mostly moving one of a pair that
   shares too many games to the group where he has met the fewest; it minimises
   the sum over pairs of (games shared)² with the pair counts updated
   incrementally, and a final descent punishes pairs above ceil(λ) + 1 hard. With one
   table a round, where no such swap exists, the moves trade two players' rounds instead
   (one plays a round the other sits out, and the other way round in another), keeping
   the sit-outs in turn.
3. Tables: when every planned round has the same players (and none was played
   yet), the rounds are first put in an order where consecutive rounds force few
   players to the same table (a short path for that distance). Then each round's
   groups are mapped to physical tables by an exact assignment (Hungarian
   algorithm), avoiding the same table in consecutive rounds first and balancing
   table visits second (`assign`).
4. Seats: an edge colouring of the bipartite graph games × players (each player's
   games split into chunks of ten) gives each player each seat floor(G/10) or
   ceil(G/10) times, whatever the grouping (`seats`).
"""

from mafiatab.core.seating.final import after_counts, after_metrics, plan_final, williams_square
from mafiatab.core.seating.metrics import pair_counts, seat_counts
from mafiatab.core.seating.model import (
    ERROR_TEMPLATES,
    FLAG_TEMPLATES,
    FORMAT,
    MAX_GAMES,
    MAX_PLAYERS,
    TABLE_SIZE,
    AfterMetrics,
    Metrics,
    Round,
    Schedule,
    SeatingError,
    SeatingFlag,
    StandIn,
    Table,
)
from mafiatab.core.seating.planner import DEFAULT_TIME_LIMIT, default_iterations, plan_seating

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "ERROR_TEMPLATES",
    "FLAG_TEMPLATES",
    "FORMAT",
    "MAX_GAMES",
    "MAX_PLAYERS",
    "TABLE_SIZE",
    "AfterMetrics",
    "Metrics",
    "Round",
    "Schedule",
    "SeatingError",
    "SeatingFlag",
    "StandIn",
    "Table",
    "after_counts",
    "after_metrics",
    "default_iterations",
    "pair_counts",
    "plan_final",
    "plan_seating",
    "seat_counts",
    "williams_square",
]
