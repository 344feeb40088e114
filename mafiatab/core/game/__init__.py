"""The game engine: a judge's log of a game (`mafiatab-game-log/1`) replayed by the
FIIM rules (spec: game-log.md, game-rules.md).

    log = parse_log(json.loads(text))      # GameLogError: the document is malformed
    state = replay(log)                    # GameLogError: the first refused event
    state.to_json()                        # the `mafiatab game replay --json` document
    state.protocol()                       # a finished game's protocol (tournament file)

    game = Game(log)                       # a console: one event at a time
    game.apply(parse_event({"type": "foul", "seat": 3}, len(game.log.events) + 1))
"""

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
    Check,
    Departure,
    GameState,
    How,
    Night,
    Nomination,
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
    "Check",
    "Departure",
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
    "Phase",
    "PhaseKind",
    "Removal",
    "Speech",
    "SpeechKind",
    "TableSettings",
    "Voting",
    "VotingBlock",
    "VotingStatus",
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
