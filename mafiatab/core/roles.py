"""Roles, teams, game results and stages."""

from __future__ import annotations

from enum import Enum


class Team(Enum):
    """A side of the table."""

    RED = "red"
    BLACK = "black"


#: The official protocol letters (9.4.1), by role.
_LETTERS = {"red": "К", "sheriff": "Ш", "black": "Ч", "don": "Д"}


class Role(Enum):
    """A card dealt to a seat.

    What a role is (its team, its letter) is held by each member as a plain attribute,
    so that the hot loops over tens of thousands of seats read it without looking the
    member up in a table."""

    RED = "red"
    SHERIFF = "sheriff"
    BLACK = "black"
    DON = "don"

    def __init__(self, value: str) -> None:
        is_black = value in ("black", "don")
        self.team: Team = Team.BLACK if is_black else Team.RED
        """The team the role plays for."""
        self.letter: str = _LETTERS[value]
        """The official protocol letter (9.4.1): К, Ш, Ч or Д."""
        self._is_black = is_black

    def is_red_team(self) -> bool:
        """True for red and sheriff."""
        return not self._is_black

    def is_black_team(self) -> bool:
        """True for black and don."""
        return self._is_black

    @classmethod
    def parse(cls, text: str) -> Role:
        """A role from its English name or its protocol letter; ValueError otherwise."""
        role = _BY_TEXT.get(text)
        if role is None:
            raise ValueError(f"unknown role {text!r}")
        return role


_BY_TEXT: dict[str, Role] = {r.value: r for r in Role} | {r.letter: r for r in Role}

#: The cards of one game: 6 red, 1 sheriff, 2 black, 1 don.
ROLE_COUNTS: dict[Role, int] = {Role.RED: 6, Role.SHERIFF: 1, Role.BLACK: 2, Role.DON: 1}


class Winner(Enum):
    """The result of a game."""

    RED = "red"
    BLACK = "black"
    DRAW = "draw"

    def __init__(self, value: str) -> None:
        self.team: Team | None = None if value == "draw" else Team(value)
        """The winning team, None for a draw."""


class Stage(Enum):
    """A stage of the tournament."""

    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"

    def is_before_final(self) -> bool:
        """Qualifying and semifinal: the stages where 8.6 compensation applies."""
        return self is not Stage.FINAL
