"""Roles, teams, game results and stages."""

from __future__ import annotations

from enum import Enum


class Team(Enum):
    """A side of the table."""

    RED = "red"
    BLACK = "black"


class Role(Enum):
    """A card dealt to a seat."""

    RED = "red"
    SHERIFF = "sheriff"
    BLACK = "black"
    DON = "don"

    @property
    def team(self) -> Team:
        """The team the role plays for."""
        return _ROLE_TEAMS[self]

    @property
    def letter(self) -> str:
        """The official protocol letter (9.4.1): К, Ш, Ч or Д."""
        return _LETTERS[self]

    def is_red_team(self) -> bool:
        """True for red and sheriff."""
        return self in (Role.RED, Role.SHERIFF)

    def is_black_team(self) -> bool:
        """True for black and don."""
        return self in (Role.BLACK, Role.DON)

    @classmethod
    def parse(cls, text: str) -> Role:
        """A role from its English name or its protocol letter; ValueError otherwise."""
        role = _BY_TEXT.get(text)
        if role is None:
            raise ValueError(f"unknown role {text!r}")
        return role


_LETTERS = {Role.RED: "К", Role.SHERIFF: "Ш", Role.BLACK: "Ч", Role.DON: "Д"}
_BY_TEXT: dict[str, Role] = {r.value: r for r in Role} | {v: k for k, v in _LETTERS.items()}

_ROLE_TEAMS = {
    Role.RED: Team.RED,
    Role.SHERIFF: Team.RED,
    Role.BLACK: Team.BLACK,
    Role.DON: Team.BLACK,
}

#: The cards of one game: 6 red, 1 sheriff, 2 black, 1 don.
ROLE_COUNTS: dict[Role, int] = {Role.RED: 6, Role.SHERIFF: 1, Role.BLACK: 2, Role.DON: 1}


class Winner(Enum):
    """The result of a game."""

    RED = "red"
    BLACK = "black"
    DRAW = "draw"

    @property
    def team(self) -> Team | None:
        """The winning team, None for a draw."""
        return _WINNER_TEAMS[self]


class Stage(Enum):
    """A stage of the tournament."""

    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"

    def is_before_final(self) -> bool:
        """Qualifying and semifinal: the stages where 8.6 compensation applies."""
        return self is not Stage.FINAL


_WINNER_TEAMS = {Winner.RED: Team.RED, Winner.BLACK: Team.BLACK, Winner.DRAW: None}
