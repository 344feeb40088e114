"""Pages of rounds, tables, protocols and protests. Writes go through the services.

The package holds `access` (loading a game with the permission check, the
decorator of the game actions), `schedule` (rounds, tables, the judges' lists),
`pages` (the games, a protocol, its history), `protocol_form` (entering a
protocol) and `decisions` (confirm, return, replay, protests). The URLconf
imports every view from here.
"""

from mafiatab.games.views.calendar import player_calendar, tournament_calendar
from mafiatab.games.views.decisions import (
    confirm,
    protest,
    protest_decide,
    replay,
    return_protocol,
)
from mafiatab.games.views.pages import detail, game_list, history
from mafiatab.games.views.protocol_form import preview, protocol
from mafiatab.games.views.schedule import (
    lateness,
    my_tables,
    queue,
    round_schedule,
    rounds,
    table_add,
    table_judge,
)

__all__ = [
    "confirm",
    "detail",
    "game_list",
    "history",
    "lateness",
    "my_tables",
    "player_calendar",
    "preview",
    "protest",
    "protest_decide",
    "protocol",
    "queue",
    "replay",
    "return_protocol",
    "round_schedule",
    "rounds",
    "table_add",
    "table_judge",
    "tournament_calendar",
]
