"""The game engine: a judge's log of a game (`mafiatab-game-log/1`) replayed by the
FIIM rules (spec: game-log.md, game-rules.md).

    log = parse_log(json.loads(text))      # GameLogError: the document is malformed
    state = replay(log)                    # GameLogError: the first refused event
    replay_json(state)                     # the `mafiatab game replay --json` document
    protocol(state)                        # a finished game's protocol (tournament file)

    game = Game(log)                       # a console: one event at a time, one step each
    game.append({"type": "foul", "seat": 3})   # GameLogError: refused, nothing changed
    game.check(event)                      # the problem an event would have, or None
    game.undo()                            # the state before the last event, kept
    game.state_at(n), game.effect(n)       # the state after n events; what event n did

An `Event` is one of a closed union of frozen records (`Nominate`, `Vote`, `Lift`,
`Foul`, `Remove`, `Pause`, `NightFalls`, `Shots`, `DonCheck`, `SheriffCheck`,
`DayBreaks`, `BestMove`, `Defeat`), its `to_json()` the log form. A `GameState`
is frozen: `phase`, `alive`, `left` (how and when), `fouls`, `lost_speech`,
`voting` (nominations with `by`, candidates, revote or lift due, cancelled),
`nights` (shots, kill, checks and answers), `first_killed`, `best_move`,
`best_move_open`, `outcome` (a `GameOutcome`: `winner` and `end`, an `End`),
`speech_order()`, `defence_order()` and `expects()`, the event types the rules
allow next. `effect_of(before, after)` tells what one event did (who left, the
voting block it decided, the voting it cancelled).
Its documents are in `documents`: `replay_json` is the document of
`mafiatab game replay --json`; `public_json` adds the open facts for spectators and
never a role or a night secret before the end; `judge_json` adds the roles and the
nights; `protocol` is a finished game's protocol. A table's settings are derived
from its regulation (`TableSettings.regulation`), whose code the log names.
Problems are `GameProblem`s: a code of `MESSAGES`, its parameters, and the event
(1-based position and type) or document field concerned.
"""

from mafiatab.core.game.documents import judge_json, protocol, public_json, replay_json
from mafiatab.core.game.effects import Effect, effect_of
from mafiatab.core.game.engine import (
    FOUL_REMOVAL_REASON,
    Game,
    expected_types,
    initial_state,
    replay,
    step,
)
from mafiatab.core.game.event_records import (
    BestMove,
    DayBreaks,
    Defeat,
    DonCheck,
    Event,
    EventType,
    Foul,
    Lift,
    NightFalls,
    Nominate,
    Pause,
    Remove,
    SheriffCheck,
    Shots,
    Vote,
)
from mafiatab.core.game.events import parse_event
from mafiatab.core.game.log import FORMAT, GameLog, load_log, loads_log, parse_log
from mafiatab.core.game.problems import MESSAGES, GameLogError, GameProblem
from mafiatab.core.game.settings import (
    FIIM_ONLINE_TABLE,
    FIIM_TABLE,
    OVERRIDABLE,
    TABLE_SETTINGS,
    TableSettings,
    get_table_settings,
    table_of,
)
from mafiatab.core.game.state import (
    GESTURES,
    BlockResult,
    Check,
    Departure,
    End,
    GameOutcome,
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
    "BestMove",
    "BlockResult",
    "Check",
    "DayBreaks",
    "Defeat",
    "Departure",
    "DonCheck",
    "Effect",
    "End",
    "Event",
    "EventType",
    "Foul",
    "Game",
    "GameLog",
    "GameLogError",
    "GameOutcome",
    "GameProblem",
    "GameState",
    "How",
    "Lift",
    "Night",
    "NightFalls",
    "Nominate",
    "Nomination",
    "Outcome",
    "Pause",
    "Phase",
    "PhaseKind",
    "Removal",
    "Remove",
    "SheriffCheck",
    "Shots",
    "Speech",
    "SpeechKind",
    "TableSettings",
    "Vote",
    "Voting",
    "VotingBlock",
    "VotingStatus",
    "effect_of",
    "expected_types",
    "get_table_settings",
    "initial_state",
    "judge_json",
    "load_log",
    "loads_log",
    "parse_event",
    "parse_log",
    "protocol",
    "public_json",
    "replay",
    "replay_json",
    "step",
    "table_of",
]
