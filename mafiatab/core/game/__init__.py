"""The game engine: a judge's log of a game (`mafiatab-game-log/1`) replayed by the
FIIM rules (spec: game-log.md, game-rules.md).

    log = parse_log(json.loads(text))      # GameLogError: the document is malformed
    state = replay(log)                    # GameLogError: the first refused event
    state.to_json()                        # the `mafiatab game replay --json` document
    state.protocol()                       # a finished game's protocol (tournament file)

    game = Game(log)                       # a console: one event at a time
    game.append({"type": "foul", "seat": 3})   # GameLogError: refused, nothing changed
    game.check(event)                      # the problem an event would have, or None
    game.undo()

A `GameState` is frozen: `phase`, `alive`, `left` (how and when), `fouls`,
`lost_speech`, `voting` (nominations with `by`, candidates, revote or lift due,
cancelled), `nights` (shots, kill, checks and answers), `first_killed`,
`best_move`, `best_move_open`, `winner`, `speech_order()`, `defence_order()` and
`expects()`, the event types the rules allow next. `effect_of(before, after)` tells
what one event did (who left, the voting block it decided, the voting it cancelled).
`to_json()` is the document of `mafiatab game replay --json`; `public_json()` adds
the open facts for spectators and never a role or a night secret before the end;
`judge_json()` adds the roles and the nights. Problems are `GameProblem`s: a code
of `MESSAGES`, its parameters, and the event (1-based position and type) or
document field concerned.
"""

from mafiatab.core.game.effects import Effect, effect_of
from mafiatab.core.game.engine import (
    FOUL_REMOVAL_REASON,
    Game,
    expected_types,
    initial_state,
    replay,
    step,
)
from mafiatab.core.game.log import (
    FORMAT,
    Event,
    EventType,
    GameLog,
    load_log,
    loads_log,
    parse_event,
    parse_log,
)
from mafiatab.core.game.problems import MESSAGES, GameLogError, GameProblem
from mafiatab.core.game.settings import (
    FIIM_ONLINE_TABLE,
    FIIM_TABLE,
    OVERRIDABLE,
    TABLE_SETTINGS,
    TableSettings,
    get_table_settings,
)
from mafiatab.core.game.state import (
    GESTURES,
    BlockResult,
    Check,
    Departure,
    GameState,
    How,
    Night,
    Nomination,
    Outcome,
    Phase,
    PhaseKind,
    Removal,
    Speech,
    SpeechKind,
    Voting,
    VotingBlock,
    VotingStatus,
)

__all__ = [
    "FIIM_ONLINE_TABLE",
    "FIIM_TABLE",
    "FORMAT",
    "FOUL_REMOVAL_REASON",
    "GESTURES",
    "MESSAGES",
    "OVERRIDABLE",
    "TABLE_SETTINGS",
    "BlockResult",
    "Check",
    "Departure",
    "Effect",
    "Event",
    "EventType",
    "Game",
    "GameLog",
    "GameLogError",
    "GameProblem",
    "GameState",
    "How",
    "Night",
    "Nomination",
    "Outcome",
    "Phase",
    "PhaseKind",
    "Removal",
    "Speech",
    "SpeechKind",
    "TableSettings",
    "Voting",
    "VotingBlock",
    "VotingStatus",
    "effect_of",
    "expected_types",
    "get_table_settings",
    "initial_state",
    "load_log",
    "loads_log",
    "parse_event",
    "parse_log",
    "replay",
    "step",
]
