"""The bundled demo tournament, "ONLINE WINTER CUP 2025".

Thirty players, ten qualifying rounds of three tables and a final, played under
`fiim-online`. The file is written by `scripts/make_demo_tournament.py` and shows
every case the scoring rules care about: a replayed game whose removal carries
over, ordinary and online removals (one with the fine waived), 8.5 penalties, judge
extra points with their reasons (one approved by the chief judge), first-night
misses, and lateness and lobby penalties. `TABLE_IN_PLAY` is the game the demo shows
being played on the judge console.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from mafiatab.core.roles import Stage
from mafiatab.core.seating.final import plan_final
from mafiatab.core.tournament_file import parse_tournament

if TYPE_CHECKING:
    from mafiatab.core.protocol import Tournament

#: The demo's file name inside the `mafiatab.core.data` package.
DEMO_FILE = "online_winter_cup_2025.json"


def demo_tournament_dict() -> dict[str, Any]:
    """The demo as a decoded `mafiatab-tournament/1` document (a fresh copy each call)."""
    text = resources.files("mafiatab.core.data").joinpath(DEMO_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def demo_tournament() -> Tournament:
    """The demo parsed into a `Tournament`."""

    return parse_tournament(demo_tournament_dict())


@dataclass(frozen=True)
class TableInPlay:
    """The game the demo shows being played on the judge console: a round of its own
    with one table, the roles the judge dealt and the events he has logged so far."""

    stage: Stage
    """The stage of the round."""
    round: int
    """The round's number in its stage (after the file's rounds of that stage)."""
    roles: dict[str, Any]
    """The roles as the console starts a game with them (`sheriff`, `don`, `black`)."""
    events: tuple[dict[str, Any], ...]
    """The console's log so far: the first day's speeches (online, without a vote),
    the night, and the second day's nominations and vote."""

    def seats(self, tournament: Tournament, round_number: int | None = None) -> tuple[str, ...]:
        """The ten players, seat 1 first, as the final's seating by a Williams square
        seats them in this round (or in `round_number` of the stage): the square's
        players named as they sat in the stage's first game (the file's), so that every
        player moves to another seat and sits right after another player than in any
        game before."""
        number = self.round if round_number is None else round_number
        first = next(g for g in tournament.games if g.stage is self.stage)
        plan = plan_final(first.players, number)
        opening = plan.rounds[0].tables[0].seats
        named = dict(zip(opening, first.players, strict=True))
        return tuple(named[player] for player in plan.rounds[number - 1].tables[0].seats)


#: The demo's game in progress: the final's second game, on day 2.
TABLE_IN_PLAY = TableInPlay(
    stage=Stage.FINAL,
    round=2,
    roles={"sheriff": 4, "don": 8, "black": [2, 6]},
    events=(
        {"type": "foul", "seat": 3},
        {"type": "night"},
        {"type": "shots", "by": {"2": 1, "6": 1, "8": 1}},
        {"type": "don_check", "seat": 4},
        {"type": "sheriff_check", "seat": 8},
        {"type": "day"},
        {"type": "best_move", "seats": [2, 6, 8]},
        {"type": "nominate", "by": 3, "seat": 8},
        {"type": "foul", "seat": 7},
        {"type": "nominate", "by": 4, "seat": 6},
        {"type": "vote", "counts": [5, 4]},
    ),
)
