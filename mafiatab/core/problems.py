"""Problems of protocols and tournaments as codes with parameters.

The core says *what* is wrong: a stable `code` (e.g. "judge_extra.needs_approval")
and its `params` (e.g. {"points": "0.6"}); `PROBLEM_TEMPLATES` holds the English
sentence of every code the core can emit, which `Problem.message` and `str()` use
(the command line prints them). The web shell says the same in the reader's
language through its one catalogue (`mafiatab.messages.catalogue.say`), with the
English template as the gettext message id: no copy of it is kept in the shell.

Templates use %-style named parameters, as gettext catalogs expect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from fractions import Fraction
from typing import Final

INT_MAX: Final = 2**31 - 1
"""The largest integer a tournament file may hold (a 32-bit column)."""

SEED_MAX: Final = 2**63 - 1
"""The largest `lot_seed` (a 64-bit column)."""

#: The English sentence of every problem code the core emits.
PROBLEM_TEMPLATES: Final[Mapping[str, str]] = {
    # reading: the file as a whole
    "file.not_json": "not valid JSON: %(error)s",
    "file.unreadable": "cannot read %(path)s: %(reason)s",
    "file.too_deep": "the JSON is nested deeper than %(limit)s levels",
    "format.wrong": "must be %(expected)s, not %(value)s",
    "ruleset.unknown": "must be one of %(known)s, not %(value)s",
    # reading: shapes and types
    "field.missing": "missing",
    "type.invalid": "the types are wrong: %(error)s",
    "type.object": "expected an object",
    "type.list": "expected a list",
    "type.list_of_objects": "expected a list of objects",
    "type.integer": "expected an integer",
    "type.string": "expected a string",
    "type.boolean": "expected true or false",
    "type.number": "must be a finite number, not %(value)s",
    "type.seat_list": "expected a list of seat numbers",
    "type.integer_list": "expected a list of integers",
    "type.nickname": "expected a nickname, not %(value)s",
    "value.choice": "must be one of %(choices)s, not %(value)s",
    "role.unknown": "must be one of red, sheriff, black, don (or К, Ш, Ч, Д), not %(value)s",
    "id.empty": "id must be a non-empty string, not %(value)s",
    "number.too_large": "%(value)s is too large (at most %(limit)s)",
    "number.below_one": "must be 1 or more, not %(value)s",
    "number.negative": "must not be negative, not %(value)s",
    "date.not_iso": "must be an ISO date like 2025-01-18, not %(value)s",
    "datetime.not_iso": (
        "must be an ISO date and time with its offset like 2025-01-18T10:00:00+03:00, not %(value)s"
    ),
    "link.not_web": "must be a web address (http:// or https://), not %(value)s",
    "schedule.round_twice": "round %(value)s of this stage is scheduled twice",
    "schedule.out_of_order": (
        "this round starts at %(value)s, not after schedule[%(before)s], a round played "
        "before it (%(before_value)s): rounds follow each other in order"
    ),
    # names
    "name.empty": "must be a non-empty string",
    "name.too_long": "is longer than %(limit)s characters",
    "name.control_character": "holds a control character",
    "name.bidi_character": "holds a bidirectional-formatting character",
    "text.too_long": "is longer than %(limit)s characters",
    "text.control_character": "holds a control character",
    "text.bidi_character": "holds a bidirectional-formatting character",
    "nickname.empty": "the nickname is empty",
    "nickname.too_long": "the nickname is longer than %(limit)s characters",
    "nickname.control_character": "the nickname holds a control character",
    "nickname.bidi_character": "the nickname holds a bidirectional-formatting character",
    # seats and roles
    "seats.count": "a game has 10 seats, not %(count)s",
    "player.twice": "'%(player)s' is already seated at seat %(other)s",
    "roles.count": (
        "roles must be 6 red, 1 sheriff, 2 black and 1 don; "
        "found %(red)s red, %(sheriff)s sheriff, %(black)s black, %(don)s don"
    ),
    "fouls.range": "fouls must be 0..%(limit)s, not %(value)s",
    "fouls.four_without_removal": (
        "a fourth foul removes the player: record the removal in disqualified"
    ),
    "seat.range": "seat must be 1..10, not %(value)s",
    # result
    "winner.contradicted": (
        "the winner cannot be %(winner)s: every %(team)s-team seat left the game "
        "(first-night kill, vote or removal)"
    ),
    # best move
    "best_move.without_first_killed": "a best move needs the first-killed seat (miss)",
    "best_move.too_many": "at most %(limit)s seats are named, not %(count)s",
    "best_move.repeated": "seat %(seat)s is named twice",
    "best_move.names_killed": "the first-killed player cannot name himself",
    # judge extra points (8.4)
    "judge_extra.in_draw": "no judge extra points in a draw (8.4.6)",
    "judge_extra.seat_twice": "the seat is named twice",
    "judge_extra.too_many_players": (
        "at most %(limit)s players get judge extra points (8.4.1), not %(count)s"
    ),
    "judge_extra.total": "judge extra points total %(total)s, above %(cap)s (8.4.2)",
    "judge_extra.not_positive": "points must be above 0, not %(points)s",
    "judge_extra.above_winner_cap": "%(points)s is above %(cap)s for a winner (8.4.3)",
    "judge_extra.needs_approval": (
        "%(points)s needs the chief judge's approval (chief_approved, 8.4.3)"
    ),
    "judge_extra.above_loser_cap": "%(points)s is above %(cap)s for a loser (8.4.4)",
    # 8.5 penalties
    "penalty.unknown_rule": "rule %(rule)s is not one of %(known)s",
    "penalty.role": "%(clause)s applies to a %(allowed)s player, not a %(role)s",
    "penalty.result": (
        "%(clause)s needs a %(loser)s loss (winner %(needed)s), but the winner is %(winner)s"
    ),
    # removals
    "removal.seat_twice": "the seat is named twice",
    "removal.online_offline": (
        "an online removal (4.1 of the online addendum) needs the fiim-online ruleset, "
        "not %(ruleset)s"
    ),
    # the tournament
    "game.id_twice": "two games have this id",
    "tournament_penalty.player": "player must be a nickname, not %(value)s",
    "tournament_penalty.positive": "points must be 0 or negative, not %(points)s",
    "tournament_penalty.unknown_player": "'%(player)s' plays no game of the tournament",
    # voting (game-rules.md)
    "voting.day_start": "days start at 1, not %(day)s",
    "voting.day_order": "day %(day)s comes after day %(previous)s: blocks go in order",
    "voting.no_nominee": "no seat is nominated",
    "voting.nominated_twice": "the seat is nominated twice",
    "voting.nominee_left": "the player of seat %(seat)s has left the game before day %(day)s",
    "voting.revote_without_vote": "a revote follows a vote of the same day",
    "voting.revote_outsider": (
        "a revote is among the players of the vote before; seat %(seats)s was not one"
    ),
    "voting.votes_count": "%(nominees)s nominees need %(nominees)s vote counts, not %(count)s",
    "voting.votes_negative": "votes must be 0 or more, not %(count)s",
    "voting.too_many_votes": (
        "%(total)s votes, but at most %(alive)s players are alive on day %(day)s"
    ),
    "voting.nominators_count": "give one nominating seat for each nominee, or none",
    "voting.nominator_left": "the player of seat %(seat)s has left and cannot nominate",
    "voting.nominates_twice": (
        "seat %(seat)s already nominated seat %(other)s on day %(day)s: "
        "a player nominates at most one player a day"
    ),
    "voting.lift_without_tie": ("a lift vote follows a revote that tied the same players again"),
    "voting.lift_range": "%(lift)s votes for the lift, but at most %(alive)s players are alive",
    # the stage plan (stages.md)
    "stages.empty": "the stage plan lists no stage",
    "stages.too_many": "the stage plan lists at most %(limit)s stages",
    "stages.twice": "the stage %(stage)s is listed twice",
    "stages.first_not_qualifying": "the first stage must be qualifying",
    "stages.order": "the stage %(stage)s cannot come after %(before)s",
    "stages.first_players": "the qualifying stage takes every participant: no players",
    "stages.qualifying_hidden": "the extras of the qualifying stage cannot be hidden",
    "stages.qualifying_reset": "the qualifying stage has no points to reset",
    "stages.players_tables": (
        "Players advance in whole tables: the number of players must be a multiple of 10, "
        "not %(value)s"
    ),
    "stages.final_players": "the final has 10 players (or 20 at two tables), not %(value)s",
    "stages.players_above_before": (
        "%(value)s players cannot advance from a stage of %(before)s players"
    ),
    "stages.games_not_published": (
        "The published seating of this stage gives each player %(published)s games, "
        "not %(value)s: the plan's games must match it"
    ),
    "stages.game_not_in_plan": "the stage %(stage)s of this game is not in the stage plan",
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a protocol or a tournament."""

    game: str | None
    """The game's id (or its default label "game N"); None for the tournament itself."""
    seat: int | None
    """The seat concerned, 1..10; None where no single seat is."""
    field: str
    """The field concerned, named as in the tournament file (e.g. "judge_extra")."""
    code: str
    """What is wrong, as a stable code (a key of `PROBLEM_TEMPLATES`)."""
    params: Mapping[str, str | int] = dataclass_field(default_factory=dict)
    """The values the code's sentence names (numbers, and texts shown as written)."""

    def __hash__(self) -> int:
        return hash(
            (self.game, self.seat, self.field, self.code, tuple(sorted(self.params.items())))
        )

    @property
    def message(self) -> str:
        """What is wrong, in English (a code without a template is shown as it is)."""
        return render(self.code, self.params)

    def location(self) -> str:
        """Where the problem is, as the command line names it: "game Q3-T2, seat 4, field
        judge_extra"."""
        parts = []
        if self.game is not None:
            parts.append(game_label(self.game))
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        parts.append(f"field {self.field}")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


class TournamentFileError(ValueError):
    """A refused tournament file, protocol or stage plan, with every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def render(code: str, params: Mapping[str, str | int]) -> str:
    """The English sentence of a code with its parameters."""
    template = PROBLEM_TEMPLATES.get(code)
    if template is None:
        return code
    return template % params if params else template


def problem(
    game: str | None, seat: int | None, field: str, code: str, /, **params: object
) -> Problem:
    """A problem with a known code. Points (fractions) become text like 0.6 and texts
    are kept as given: quote a value the user wrote with `quoted`."""
    if code not in PROBLEM_TEMPLATES:
        raise KeyError(f"unknown problem code {code!r}")
    return Problem(game, seat, field, code, {k: _param(v) for k, v in params.items()})


def _param(value: object) -> str | int:
    return value if isinstance(value, str) else quoted(value)


def game_label(game_id: str) -> str:
    """How a game is named in messages: "game 3" for a default id, else "game Q3-T2"."""
    return game_id if game_id.startswith("game ") else f"game {game_id}"


#: The longest text of a value quoted in a problem.
_SHOWN_TEXT = 40


def quoted(value: object) -> str | int:
    """A value as a problem of a tournament file or protocol quotes it: small integers
    as they are, texts quoted (and cut short), points with up to 2 decimals, anything
    else by its JSON-like name ("a list", "an object"). Never converts a huge integer
    to text. A file's value may be anything of any size, and the problem's field says
    where it is, so a container is named, not written out; a game log's event, small
    and typed by the console, is quoted as its JSON text instead
    (`mafiatab.core.game.problems.json_quoted`)."""
    if type(value) is int:
        return value if -(2**63) <= value < 2**63 else "a huge number"
    if isinstance(value, Fraction):
        return points_text(value)
    if isinstance(value, str):
        text = value if len(value) <= _SHOWN_TEXT else value[:_SHOWN_TEXT] + "…"
        return repr(text)
    if value is None:
        return "None"
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def cut(text: str) -> str:
    """A text as a problem quotes it: cut short after 40 characters."""
    return text if len(text) <= _SHOWN_TEXT else text[:_SHOWN_TEXT] + "…"


def points_text(value: Fraction) -> str:
    """Points as a problem shows them: 0.6, 1, -0.5."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))
