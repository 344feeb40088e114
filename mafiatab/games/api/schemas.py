"""What the games' API reads and answers: the protocol as the judge writes it, the
requests of the writes, and the games, versions and protests it shows.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from ninja import Field, Path, Schema

from mafiatab.api.errors import MAX_ID
from mafiatab.api.schemas import DateText, Nickname, Points, Text
from mafiatab.core.protocol import SEATS
from mafiatab.games.forms import MAX_FOULS

ProtestId = Path(..., ge=1, le=MAX_ID, description="The protest's id.")
SeatNo = Annotated[int, Field(ge=SEATS[0], le=SEATS[-1])]
RoleName = Literal["red", "sheriff", "black", "don"]
StatusName = Literal["draft", "submitted", "confirmed"]


class SeatIn(Schema):
    player: Nickname | None = Field(
        None,
        description="A participant's nickname, in any case; stored as the participant spells it.",
    )
    participant: int | None = Field(
        None, ge=1, le=MAX_ID, description="Or the participant's id (his registration's id)."
    )
    role: RoleName | None = Field(None, description="Empty in a draft.")
    fouls: int = Field(0, ge=0, le=MAX_FOULS)


class ExtraIn(Schema):
    seat: SeatNo
    points: Points
    reason: Text = ""
    chief_approved: bool = Field(False, description="8.4.3; only the chief judge sets it.")


class GamePenaltyIn(Schema):
    """A penalty within a game (8.5), given by the table judge."""

    seat: SeatNo
    rule: str = Field(
        max_length=16, description="The clause, 8.5.1 .. 8.5.4; the core checks it fits."
    )
    reason: Text = ""


class RemovalIn(Schema):
    seat: SeatNo
    reason: Text = ""
    online: bool = False
    fined: bool = True


class VotingIn(Schema):
    day: int = Field(ge=1, le=50)
    nominees: list[SeatNo] = Field(max_length=10)
    votes: list[Annotated[int, Field(ge=0, le=10)]] = Field(default_factory=list, max_length=10)
    nominated_by: list[SeatNo | None] = Field(default_factory=list, max_length=10)
    revote: bool = False
    lift: int | None = Field(
        None,
        ge=0,
        le=10,
        description="On a revote that tied the same seats again: the votes for all of them "
        "leaving.",
    )


class ProtocolIn(Schema):
    """The protocol's content as the judge writes it (the tournament file's keys)."""

    date: DateText | None = None
    judge: Nickname | None = None
    seats: list[SeatIn] = Field(min_length=10, max_length=10)
    winner: Literal["red", "black", "draw"] | None = None
    first_killed: SeatNo | None = None
    best_move: list[SeatNo] = Field(default_factory=list, max_length=10)
    judge_extra: list[ExtraIn] = Field(default_factory=list, max_length=10)
    penalties: list[GamePenaltyIn] = Field(default_factory=list, max_length=10)
    disqualified: list[RemovalIn] = Field(default_factory=list, max_length=10)
    voting: list[VotingIn] = Field(default_factory=list, max_length=20)


class SaveIn(Schema):
    protocol: ProtocolIn
    base_version: int = Field(
        ge=0, le=MAX_ID, description="The version the change starts from (optimistic locking)."
    )
    submit: bool = Field(False, description="Sign and submit (9.11): needs a valid protocol.")
    reason: Text = Field("", description="Why; required to change a confirmed protocol.")


class ConfirmIn(Schema):
    base_version: int | None = Field(None, ge=0, le=MAX_ID)


class ProtestIn(Schema):
    text: Text


class DecisionIn(Schema):
    upheld: bool
    decision: Text
    by_committee: bool = False
    protocol: ProtocolIn | None = Field(
        None, description="The protocol as the decision changes it."
    )
    base_version: int | None = Field(None, ge=0, le=MAX_ID)


class ReplayIn(Schema):
    reason: Text
    replay_game_id: int | None = Field(None, ge=1, le=MAX_ID)


class ProblemOut(Schema):
    seat: int | None
    field: str
    message: str


class GameOut(Schema):
    id: int
    label: str
    stage: str
    round: int | None
    table: int | None
    status: StatusName
    version: int
    replayed: bool
    submitted_at: dt.datetime | None
    confirmed_at: dt.datetime | None


class GameDetailOut(GameOut):
    protocol: dict[str, Any] = Field(description="The tournament file's form plus 'voting'.")
    points_withheld: bool = Field(
        False,
        description="True while the organiser withholds the game's points from the caller "
        "(hidden standings, or a game confirmed or changed since they were frozen): the "
        "protocol then holds only its header, each seat's player and the winner.",
    )
    problems: list[ProblemOut]
    participants: list[int | None] = Field(
        default_factory=list,
        description="Seat 1 first: the id of the participant (registration) in each seat.",
    )


class VersionOut(Schema):
    number: int
    status: StatusName
    action: str
    reason: str
    author: str | None
    created_at: dt.datetime
    protocol: dict[str, Any]


class ProtestOut(Schema):
    id: int
    game_id: int
    seat: int
    text: str
    filed_at: dt.datetime
    status: Literal["open", "upheld", "rejected"]
    decision: str
    by_committee: bool
    decided_at: dt.datetime | None
    version: int | None
