"""The API of game protocols and protests (django-ninja Router).

Reading a confirmed protocol is open to everyone; a protocol not yet confirmed is
shown to the tournament's staff and the players of its table. Writing needs the
same permission as on the pages: `user_can(user, tournament, action, game=game)`
(the judge of that table, or the chief judge). Every write goes through
`mafiatab.games.services`; a save names the version it started from and is
refused with 409 when someone saved in between.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Router, Schema
from ninja import Status as HttpStatus
from ninja.errors import HttpError

from mafiatab.api.auth import caller
from mafiatab.api.errors import (
    AUTH_ERRORS,
    BAD_INPUT,
    MAX_ID,
    NOT_FOUND,
    Error,
    NotFound,
    tournament_or_404,
)
from mafiatab.api.schemas import DateText, Nickname, Points, Text
from mafiatab.core.protocol import SEATS
from mafiatab.games import services
from mafiatab.games.conversion import game_data
from mafiatab.games.forms import MAX_FOULS
from mafiatab.games.models import Game, GameStatus, Protest, ProtocolVersion
from mafiatab.games.selectors import check_protocol
from mafiatab.registrations.models import SEATED_STATUSES, Registration
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

router = Router(tags=["games"])

GameId = Path(..., ge=1, le=MAX_ID, description="The game's id.")
ProtestId = Path(..., ge=1, le=MAX_ID, description="The protest's id.")
WRITE = {**AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT, 409: Error}
SeatNo = Annotated[int, Field(ge=SEATS[0], le=SEATS[-1])]
RoleName = Literal["red", "sheriff", "black", "don"]
StatusName = Literal["draft", "submitted", "confirmed"]


# --- schemas --------------------------------------------------------------------------


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


# --- helpers --------------------------------------------------------------------------


def _game(tournament: Tournament, game_id: int) -> Game:
    game = (
        Game.objects.filter(tournament=tournament, pk=game_id).select_related("tournament").first()
    )
    if game is None:
        raise NotFound(_("There is no game %(id)d in this tournament.") % {"id": game_id})
    return game


def _visible(request: HttpRequest, game: Game) -> Game:
    user = caller(request)
    tournament = game.tournament
    if (
        game.is_confirmed
        or user_can(user, tournament, "view_protocols")
        or user_can(user, tournament, "file_protest", game=game)
    ):
        return game
    raise NotFound(_("There is no game %(id)d in this tournament.") % {"id": game.pk})


def _require(user: Any, game: Game, action: str) -> None:
    if not user_can(user, game.tournament, action, game=game):
        raise HttpError(
            403, _("You may not do this with this game (%(action)s).") % {"action": action}
        )


def _detail(game: Game) -> dict[str, Any]:
    data = game_data(game)
    problems = (
        check_protocol(data, ruleset=game.tournament.ruleset).problems
        if game.status != GameStatus.DRAFT
        else []
    )
    holders = dict(game.seats.values_list("number", "registration_id"))
    return {
        **{f: getattr(game, f) for f in GameOut.model_fields if f != "id"},
        "id": game.pk,
        "participants": [holders.get(n) for n in range(1, len(data.get("seats") or []) + 1)],
        "protocol": data,
        "problems": [
            {"seat": p.seat, "field": p.field, "message": p.message, "code": p.code}
            for p in problems
        ],
    }


def _participant(tournament: Tournament, registration_id: int) -> str:
    holder = Registration.objects.filter(
        tournament=tournament, pk=registration_id, status__in=SEATED_STATUSES
    ).first()
    if holder is None:
        raise HttpError(
            422,
            _("There is no participant %(id)d in this tournament.") % {"id": registration_id},
        )
    return holder.nickname


def _data(protocol: ProtocolIn, tournament: Tournament) -> dict[str, Any]:
    data = protocol.model_dump()
    for seat in data["seats"]:
        registration_id = seat.pop("participant")
        if registration_id is not None:
            seat["player"] = _participant(tournament, registration_id)
        elif seat["player"] is None:
            seat["player"] = ""
    for extra in data["judge_extra"]:
        points = extra["points"]
        extra["points"] = int(points) if points == points.to_integral_value() else float(points)
    for block in data["voting"]:
        for key in ("votes", "nominated_by"):
            if not block[key]:
                del block[key]
        if not block["revote"]:
            del block["revote"]
    for key in ("judge_extra", "penalties", "disqualified", "best_move"):
        if not data[key]:
            del data[key]
    return data


def _run(write: Any) -> Any:
    try:
        return write()
    except services.ProtocolChanged as exc:
        raise HttpError(409, str(exc)) from exc
    except PermissionDenied as exc:
        raise HttpError(403, _("You may not do this with this game.")) from exc


def _protest_out(protest: Protest) -> dict[str, Any]:
    return {
        "id": protest.pk,
        "game_id": protest.game_id,
        "seat": protest.seat,
        "text": protest.text,
        "filed_at": protest.filed_at,
        "status": protest.status,
        "decision": protest.decision,
        "by_committee": protest.by_committee,
        "decided_at": protest.decided_at,
        "version": protest.version.number if protest.version else None,
    }


# --- reading ----------------------------------------------------------------------------


@router.get(
    "/tournaments/{slug}/games",
    response={200: list[GameOut], **NOT_FOUND},
    auth=None,
    summary="Games",
)
def list_games(request: HttpRequest, slug: str):
    """The tournament's games in order: confirmed ones for everyone, all for the staff."""
    tournament = tournament_or_404(slug)
    games = Game.objects.filter(tournament=tournament).order_by("position")
    if not user_can(caller(request), tournament, "view_protocols"):
        games = games.filter(status=GameStatus.CONFIRMED)
    return games


@router.get(
    "/tournaments/{slug}/games/{game_id}",
    response={200: GameDetailOut, **NOT_FOUND},
    auth=None,
    summary="A game's protocol",
)
def get_game(request: HttpRequest, slug: str, game_id: int = GameId):
    """The current version of the protocol, and its problems (the core's validation)."""
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    return _detail(game)


@router.get(
    "/tournaments/{slug}/games/{game_id}/versions",
    response={200: list[VersionOut], **NOT_FOUND},
    auth=None,
    summary="Versions of a protocol",
)
def list_versions(request: HttpRequest, slug: str, game_id: int = GameId):
    """Every saved version, oldest first: who, when, why, and the protocol then."""
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    versions: list[ProtocolVersion] = list(game.versions.select_related("author"))
    return [
        {
            "number": v.number,
            "status": v.status,
            "action": v.action,
            "reason": v.reason,
            "author": (v.author.nickname or v.author.username) if v.author else None,
            "created_at": v.created_at,
            "protocol": v.data,
        }
        for v in versions
    ]


@router.get(
    "/tournaments/{slug}/games/{game_id}/protests",
    response={200: list[ProtestOut], **NOT_FOUND},
    auth=None,
    summary="Protests on a game",
)
def list_protests(request: HttpRequest, slug: str, game_id: int = GameId):
    game = _visible(request, _game(tournament_or_404(slug), game_id))
    return [_protest_out(p) for p in game.protests.select_related("version")]


# --- writing ------------------------------------------------------------------------------


@router.put(
    "/tournaments/{slug}/games/{game_id}/protocol",
    response={200: GameDetailOut, **WRITE},
    summary="Save (or sign and submit) a protocol",
)
def save_protocol(request: HttpRequest, slug: str, data: SaveIn, game_id: int = GameId):
    """A new version of the protocol. The judge of the table (before confirmation) or
    the chief judge. 409 when the protocol changed since `base_version`."""
    game = _game(tournament_or_404(slug), game_id)
    _require(request.auth, game, "enter_protocol")
    _run(
        lambda: services.protocol_save(
            game=game,
            data=_data(data.protocol, game.tournament),
            by=request.auth,
            base_version=data.base_version,
            submit=data.submit,
            reason=data.reason,
        )
    )
    return _detail(_game(game.tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/confirm",
    response={200: GameDetailOut, **WRITE},
    summary="Confirm a submitted protocol",
)
def confirm_protocol(
    request: HttpRequest, slug: str, data: ConfirmIn | None = None, game_id: int = GameId
):
    """The chief judge confirms: the protocol counts in the official standings."""
    game = _game(tournament_or_404(slug), game_id)
    _require(request.auth, game, "confirm_protocol")
    base = data.base_version if data is not None else None
    _run(lambda: services.protocol_confirm(game=game, by=request.auth, base_version=base))
    return _detail(_game(game.tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/replay",
    response={200: GameDetailOut, **WRITE},
    summary="Mark a game replayed",
)
def mark_replayed(request: HttpRequest, slug: str, data: ReplayIn, game_id: int = GameId):
    """Online addendum: the game counts for nothing but its removal penalties."""
    tournament = tournament_or_404(slug)
    game = _game(tournament, game_id)
    _require(request.auth, game, "confirm_protocol")
    replay = _game(tournament, data.replay_game_id) if data.replay_game_id else None
    _run(
        lambda: services.game_mark_replayed(
            game=game, by=request.auth, replay=replay, reason=data.reason
        )
    )
    return _detail(_game(tournament, game.pk))


@router.post(
    "/tournaments/{slug}/games/{game_id}/protests",
    response={201: ProtestOut, **WRITE},
    summary="Protest a game's result",
)
def file_protest(request: HttpRequest, slug: str, data: ProtestIn, game_id: int = GameId):
    """A player of the table, within the regulation's window after the protocol was
    submitted (8.9.1)."""
    game = _game(tournament_or_404(slug), game_id)
    _require(request.auth, game, "file_protest")
    protest = _run(lambda: services.protest_file(game=game, by=request.auth, text=data.text))
    return HttpStatus(201, _protest_out(protest))


@router.post(
    "/tournaments/{slug}/protests/{protest_id}/decide",
    response={200: ProtestOut, **WRITE},
    summary="Decide a protest",
)
def decide_protest(request: HttpRequest, slug: str, data: DecisionIn, protest_id: int = ProtestId):
    """The chief judge (or the appeal committee) decides, with reasons; the decision is
    final within the tournament. With `protocol` the protocol changes (a new version)."""
    tournament = tournament_or_404(slug)
    protest = Protest.objects.filter(game__tournament=tournament, pk=protest_id).first()
    if protest is None:
        raise NotFound(_("There is no protest %(id)d in this tournament.") % {"id": protest_id})
    if not user_can(request.auth, tournament, "decide_protest"):
        raise HttpError(403, _("You may not do this in this tournament (decide_protest)."))
    decided = _run(
        lambda: services.protest_decide(
            protest=protest,
            by=request.auth,
            upheld=data.upheld,
            decision=data.decision,
            by_committee=data.by_committee,
            data=_data(data.protocol, tournament) if data.protocol is not None else None,
            base_version=data.base_version,
        )
    )
    return _protest_out(decided)
