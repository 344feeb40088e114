"""The bundled demo tournament, "ONLINE WINTER CUP 2025".

Thirty players, ten qualifying rounds of three tables and a final, played under
`fiim-online`. The file is written by `scripts/make_demo_tournament.py` and shows
every case the scoring rules care about: a replayed game whose removal carries
over, ordinary and online removals (one with the fine waived), 8.5 penalties, judge
extra points with their reasons (one approved by the chief judge), first-night
misses, and lateness and lobby penalties.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any

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
    from mafiatab.core.tournament_file import parse_tournament

    return parse_tournament(demo_tournament_dict())
