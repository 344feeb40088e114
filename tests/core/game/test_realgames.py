"""Real recorded games replay as recorded.

The folder `shared/realgames` beside the repository (or the one `MAFIATAB_REALGAMES`
names) holds games recorded on public platforms and converted to game logs; each
`NAME.json` has a `NAME.meta.json` with the record's own claims. They are data from
elsewhere and are never copied here: this test reads them where they are, and is
skipped when they are not there. Every real game that is a legal FIIM game replays
without a refused event and agrees with its record: finished or not, the winner,
every seat's fouls, the removed seats, who left and how (where the record says),
the first-night kill and its best move. The few that a FIIM replay cannot agree
with are listed below with the reason.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mafiatab.core.game import GameState, parse_log, replay, replay_json

FOLDER = Path(
    os.environ.get("MAFIATAB_REALGAMES")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "realgames"
)
LOGS = (
    sorted(p for p in FOLDER.glob("*.json") if not p.name.endswith(".meta.json"))
    if FOLDER.is_dir()
    else []
)

#: Records a FIIM replay cannot agree with: the claims that differ, and why.
NOT_FIIM: dict[str, tuple[frozenset[str], str]] = {
    "polemica-328635": (
        frozenset({"first_killed"}),
        "night 1: seat 3, a living black, did not shoot; by FIIM that is a miss, "
        "the platform counted seat 10 as killed",
    ),
}
#: How a record's departure is named, by the log's `how` (the records do not tell a
#: lift or a single nominee from a vote).
_HOW = {"vote": "vote", "lift": "vote", "single": "vote", "shot": "shot"}


def _meta(path: Path) -> dict[str, Any]:
    meta: dict[str, Any] = json.loads(
        path.with_name(path.name.removesuffix(".json") + ".meta.json").read_text("utf-8")
    )
    return meta


def _differences(state: GameState, record: dict[str, Any]) -> dict[str, tuple[object, object]]:
    """Each claim of the record the replay does not agree with: (replayed, recorded)."""
    data = replay_json(state)
    found: dict[str, tuple[object, object]] = {}

    def claim(name: str, replayed: object, recorded: object) -> None:
        if replayed != recorded:
            found[name] = (replayed, recorded)

    claim("finished", data["finished"], record["finished"])
    claim("winner", data["winner"], record["winner"])
    claim("fouls", data["fouls"], record["fouls"])
    claim("removed", sorted(r.seat for r in state.removals), sorted(record["removed"]))
    if "deaths" in record:
        left = Counter(
            (d.seat, _HOW.get(d.how.value, d.how.value), d.phase.kind.value, d.phase.number)
            for d in state.left
        )
        claim("deaths", left, Counter(tuple(d) for d in record["deaths"]))
    guess = record.get("first_kill_guess")
    if guess is not None:
        claim("first_killed", state.first_killed, guess["seat"])
        if guess.get("seats") and len(guess["seats"]) == 3:
            claim("best_move", sorted(state.best_move), sorted(guess["seats"]))
    return found


def test_the_real_games_are_there_or_the_replay_says_why_not():
    if not LOGS:
        pytest.skip(f"no real games at {FOLDER} (set MAFIATAB_REALGAMES to their folder)")
    assert len(LOGS) >= 20


@pytest.mark.parametrize("path", LOGS, ids=[p.name.removesuffix(".json") for p in LOGS])
def test_a_real_game_replays_as_recorded(path: Path):
    meta = _meta(path)
    # Every log replays: a refused event fails here, naming it.
    state = replay(parse_log(json.loads(path.read_text("utf-8"))))
    if meta["kind"] != "real":
        return  # a variant the source's authors edited: replayed, not held to a record
    differences = _differences(state, meta["record"])
    expected, why = NOT_FIIM.get(meta["id"], (frozenset(), ""))
    assert set(differences) == expected, (why or "the replay differs from the record", differences)
