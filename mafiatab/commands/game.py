"""`mafiatab game replay LOG [--json]`: replay a judge's game log (game-log.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "replay a game log (mafiatab-game-log/1) by the FIIM rules"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("game", help=HELP, description=HELP)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    replay = actions.add_parser(
        "replay",
        help="check a log event by event; print the state it reaches",
        description=(
            "Replay a game log. A log that breaks a rule: exit code 2 and one line per "
            "problem on stderr, each naming the event. Otherwise exit code 0."
        ),
    )
    replay.add_argument("log", metavar="LOG", help="the game log (JSON)")
    replay.add_argument("--json", action="store_true", help="print the state as JSON")
    replay.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from mafiatab.core.game import GameLogError, load_log, replay, replay_json

    try:
        state = replay(load_log(args.log))
    except GameLogError as exc:
        for problem in exc.problems:
            print(f"{args.log}: {problem}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(json.dumps(replay_json(state), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_text(state))
    return 0


def render_text(state: Any) -> str:
    """A short readable summary of the state."""
    lines = []
    if state.is_finished():
        lines.append(f"finished: {state.winner.value} wins ({state.end.value}), {state.phase}")
    else:
        expects = ", ".join(t.value for t in state.expects())
        lines.append(f"running: {state.phase}; next: {expects}")
    lines.append("alive: " + " ".join(str(s) for s in state.alive))
    for departure in state.left:
        lines.append(f"left: seat {departure.seat} by {departure.how.value}, {departure.phase}")
    fouls = [f"{seat}:{n}" for seat, n in enumerate(state.fouls, start=1) if n]
    if fouls:
        lines.append("fouls: " + " ".join(fouls))
    return "\n".join(lines) + "\n"
