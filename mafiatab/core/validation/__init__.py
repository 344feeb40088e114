"""Validation of protocols and tournaments against the regulation.

Validation never stops at the first problem: it returns every problem it finds,
each naming the game, the seat and the field with a code and its parameters
(`mafiatab.core.problems`), so that a judge sees all of them at once next to their
fields, and a refused file lists everything to fix.

This is the one validator: the tournament file, a single protocol from the web
form or the API, and the tables of the web app all pass `validate_protocol`.
A `Checker` carries what one run has already found right (nicknames, deals,
amounts of points) so that a file of tens of thousands of games is checked fast.

The package holds `checker` (the `Checker`), `protocol` (one protocol's rules),
`judge_extra` (the caps of 8.4) and `tournament` (a whole tournament).
"""

from mafiatab.core.problems import Problem, game_label
from mafiatab.core.validation.checker import Checker
from mafiatab.core.validation.checker import is_iso_date as is_iso_date
from mafiatab.core.validation.protocol import validate_protocol
from mafiatab.core.validation.tournament import validate_tournament, validate_tournament_settings

__all__ = [
    "Checker",
    "Problem",
    "game_label",
    "validate_protocol",
    "validate_tournament",
    "validate_tournament_settings",
]
