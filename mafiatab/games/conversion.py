"""Game rows <-> core `Protocol`s."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from django.db.models import F, OuterRef, Subquery

from mafiatab.core.names import nickname_key, printable_json
from mafiatab.core.protocol import Protocol
from mafiatab.core.schedule import ScheduledRound
from mafiatab.core.tournament_file import (
    FORMAT,
    TournamentFileError,
    parse_tournament,
    protocol_to_dict,
)
from mafiatab.games import models

if TYPE_CHECKING:
    from mafiatab.registrations.models import Registration

#: Points are stored with this many decimal places.
POINT_PLACES = 4

logger = logging.getLogger(__name__)


class UnstorablePoints(ValueError):
    """Points that a decimal column of `POINT_PLACES` places cannot hold exactly."""


def fraction_to_decimal(value: Fraction, *, what: str) -> Decimal:
    """`value` as an exact Decimal; UnstorablePoints when that is impossible."""
    scaled = value * 10**POINT_PLACES
    if scaled.denominator != 1:
        raise UnstorablePoints(f"{what}: {value} cannot be stored exactly")
    return Decimal(scaled.numerator).scaleb(-POINT_PLACES).normalize()


def decimal_to_fraction(value: Decimal) -> Fraction:
    """A stored decimal as an exact fraction."""
    return Fraction(value)


#: The keys of a protocol kept only when they hold something (the file form's rule).
_OPTIONAL = {
    "round": lambda v: v is not None,
    "table": lambda v: v is not None,
    "date": lambda v: v is not None,
    "judge": lambda v: v is not None,
    "best_move": bool,
    "judge_extra": bool,
    "penalties": bool,
    "disqualified": bool,
    "replayed": bool,
}
#: The order of a protocol's keys.
_KEYS = (
    "id",
    "stage",
    "round",
    "table",
    "date",
    "judge",
    "seats",
    "winner",
    "first_killed",
    "best_move",
    "judge_extra",
    "penalties",
    "disqualified",
    "replayed",
    "voting",
)


def protocol_data(parts: Mapping[str, Any]) -> dict[str, Any]:
    """The one writer of a protocol's data (a version's JSON, the form `game_data`
    reads), whatever door its parts came by: the protocol form, the console's finished
    game, an imported file, a game just seated (`new_game_data`). The file form's
    keys in its order, an optional key only when it holds something, and the voting
    blocks always (a list); a key it does not know is kept, after them."""
    data: dict[str, Any] = {}
    for key in _KEYS:
        if key not in parts:
            continue
        value = parts[key]
        keep = _OPTIONAL.get(key)
        if keep is None or keep(value):
            data[key] = value
    data["voting"] = list(parts.get("voting") or [])
    data |= {k: v for k, v in parts.items() if k not in _KEYS}
    return data


def game_rows_from_protocol(
    tournament_id: int,
    position: int,
    protocol: Protocol,
    holders: Mapping[str, Registration] | None = None,
) -> models.Game:
    """Store one imported protocol, confirmed at once (spec/tournament-file.md): its
    first version holds the protocol's file form, and the rows follow it as they follow
    every version (`write_game_data`); returns the saved game."""
    data = protocol_data(protocol_to_dict(protocol))
    game = models.Game.objects.create(
        tournament_id=tournament_id,
        position=position,
        label=protocol.id,
        stage=protocol.stage.value,
        status=models.GameStatus.CONFIRMED,
        version=1,
    )
    models.ProtocolVersion.objects.create(
        game=game,
        number=1,
        data=data,
        status=models.GameStatus.CONFIRMED,
        action="imported",
    )
    write_game_data(game, data, holders=holders)
    return game


def stored_protocol_data(
    tournament_id: int, *, provisional: bool = False, as_of: dt.datetime | None = None
) -> list[Any]:
    """The stored file form of the current version of each confirmed protocol (with
    `provisional`, each submitted one too; drafts never), in the tournament's order, as
    the database keeps it: one query. With `as_of`, each protocol as it was then (its
    latest version made no later), if it was confirmed (or submitted) then."""
    statuses = [models.GameStatus.CONFIRMED]
    if provisional:
        statuses.append(models.GameStatus.SUBMITTED)
    if as_of is None:
        versions = models.ProtocolVersion.objects.filter(
            game__tournament_id=tournament_id,
            game__status__in=statuses,
            number=F("game__version"),
        )
    else:
        latest = (
            models.ProtocolVersion.objects.filter(game=OuterRef("game"), created_at__lte=as_of)
            .order_by("-number")
            .values("number")[:1]
        )
        versions = models.ProtocolVersion.objects.filter(
            game__tournament_id=tournament_id,
            status__in=statuses,
            created_at__lte=as_of,
            number=Subquery(latest),
        )
    return list(versions.order_by("game__position").values_list("data", flat=True))


def stored_protocols(
    tournament_id: int,
    *,
    ruleset: str,
    provisional: bool = False,
    as_of: dt.datetime | None = None,
) -> tuple[Protocol, ...]:
    """The confirmed protocols of a tournament, in order; with `provisional`, the
    submitted ones too (drafts never).

    Each is its current version's JSON, the stored truth (`stored_protocol_data`),
    read by the core's reader of tournament files as the games of one document, as
    `mafiatab standings FILE` reads a file.

    A protocol stored under an earlier edition of the rules that the reader now
    refuses (say, four fouls recorded without the removal they now need) is left out
    and named in the log, so that one old protocol cannot take every page down; its
    game page shows the chief judge what to correct.

    With `as_of`, the protocols as they were at that moment (`stored_protocol_data`).
    """
    games = stored_protocol_data(tournament_id, provisional=provisional, as_of=as_of)
    try:
        return parse_tournament(_document(games, ruleset)).games
    except TournamentFileError:
        escaped = (game if _is_readable(game, ruleset) else printable_json(game) for game in games)
        readable = [game for game in escaped if _is_readable(game, ruleset)]
        logger.warning(
            "tournament %s: %d stored protocol(s) no longer pass the rules and are not counted",
            tournament_id,
            len(games) - len(readable),
        )
        return parse_tournament(_document(readable, ruleset)).games


def _document(games: list[Any], ruleset: str) -> dict[str, Any]:
    return {"format": FORMAT, "name": "stored", "ruleset": ruleset, "games": games}


def _is_readable(game: Any, ruleset: str) -> bool:
    try:
        parse_tournament(_document([game], ruleset))
    except TournamentFileError:
        return False
    return True


def game_data(game: models.Game) -> dict[str, Any]:
    """The current protocol of a game in the file form (`protocol_to_dict`'s keys),
    plus its voting blocks under "voting". A draft may have a null winner or roles.

    The current version's JSON is the truth (every game has one: made with its table,
    imported with its file, or, for a game stored before versions, by a migration)."""
    stored = (
        models.ProtocolVersion.objects.filter(game_id=game.pk, number=game.version)
        .values_list("data", flat=True)
        .first()
    )
    return _current_data(game, stored)


def games_data(games: Iterable[models.Game]) -> dict[int, dict[str, Any]]:
    """`game_data` of each of `games` (game id -> its current protocol), read in one
    query."""
    games = list(games)
    wanted = {(game.pk, game.version) for game in games}
    rows = models.ProtocolVersion.objects.filter(
        game_id__in={game_id for game_id, _number in wanted},
        number__in={number for _game_id, number in wanted},
    ).values_list("game_id", "number", "data")
    stored = {game_id: data for game_id, number, data in rows if (game_id, number) in wanted}
    return {game.pk: _current_data(game, stored.get(game.pk)) for game in games}


def _current_data(game: models.Game, stored: Any) -> dict[str, Any]:
    """A game's current version's JSON as `game_data` gives it."""
    if not isinstance(stored, dict):
        raise LookupError(f"the game {game.label} has no version {game.version}")
    # texts stored before the reader refused what no page can hold are escaped
    data = cast(dict[str, Any], printable_json(stored))
    data.setdefault("voting", [])
    return data


def new_game_data(game: models.Game, players: Sequence[str]) -> dict[str, Any]:
    """The first protocol of a game just seated: who sits where, nothing played yet."""
    return protocol_data(
        {
            "id": game.label,
            "stage": game.stage,
            "round": game.round,
            "table": game.table,
            "judge": game.judge,
            "seats": [{"player": nick, "role": None, "fouls": 0} for nick in players],
            "winner": None,
            "first_killed": None,
        }
    )


def write_game_data(
    game: models.Game, data: dict[str, Any], *, holders: Mapping[str, Registration] | None = None
) -> None:
    """Make the game's rows hold `data` (the form of `game_data`): the rows are indexes
    derived from the protocol's JSON, each seat linked to the registration its nickname
    resolves to in `holders` (by nickname key).

    Raises UnstorablePoints for judge extra points a decimal column cannot hold.
    """
    for key in ("round", "table", "date", "judge"):
        setattr(game, key, data.get(key))
    game.winner = data.get("winner") or ""
    game.first_killed = data.get("first_killed")
    game.best_move = list(data.get("best_move") or [])
    game.replayed = bool(data.get("replayed", False))
    game.voting = list(data.get("voting") or [])
    game.save()
    game.seats.all().delete()
    game.extras.all().delete()
    game.penalties.all().delete()
    game.removals.all().delete()
    models.GameSeat.objects.bulk_create(
        models.GameSeat(
            game=game,
            number=number,
            player=seat.get("player") or "",
            registration=(holders or {}).get(nickname_key(seat.get("player") or "")),
            role=seat.get("role") or "",
            fouls=seat.get("fouls") or 0,
        )
        for number, seat in enumerate(data.get("seats") or [], start=1)
    )
    models.GameExtra.objects.bulk_create(
        models.GameExtra(
            game=game,
            position=i,
            seat=e["seat"],
            points=fraction_to_decimal(
                Fraction(str(e["points"])), what=f"game {game.label!r}, judge_extra"
            ),
            reason=e.get("reason", ""),
            chief_approved=bool(e.get("chief_approved", False)),
        )
        for i, e in enumerate(data.get("judge_extra") or [])
    )
    models.GamePenalty.objects.bulk_create(
        models.GamePenalty(
            game=game, position=i, seat=p["seat"], rule=p["rule"], reason=p.get("reason", "")
        )
        for i, p in enumerate(data.get("penalties") or [])
    )
    models.GameRemoval.objects.bulk_create(
        models.GameRemoval(
            game=game,
            position=i,
            seat=r["seat"],
            reason=r.get("reason", ""),
            online=bool(r.get("online", False)),
            fined=bool(r.get("fined", True)),
        )
        for i, r in enumerate(data.get("disqualified") or [])
    )


#: The keys of a protocol the public sees while its points are withheld: who played
#: and which team won (`withheld_form`).
WITHHELD_KEYS = ("id", "stage", "round", "table", "date", "judge", "winner", "replayed")


def without_extras(data: dict[str, Any]) -> dict[str, Any]:
    """`data` without the judges' extra points (a stage that hides them, for the
    public until the tournament is closed); everything else as it is."""
    return {k: v for k, v in data.items() if k != "judge_extra"}


def withheld_form(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as the public sees it while the organiser withholds the points (hidden
    or frozen standings): who played in each seat and which team won; no role, foul,
    best move, extra, penalty, removal or voting, from which points are computed."""
    form = {k: data[k] for k in WITHHELD_KEYS if k in data}
    form["seats"] = [
        {"player": seat.get("player")} if isinstance(seat, dict) else {"player": None}
        for seat in data.get("seats") or []
    ]
    return form


def scheduled_rounds(tournament_id: int) -> tuple[ScheduledRound, ...]:
    """The rounds with a time, a place or a link, as the tournament file's `schedule`."""
    rows = (
        models.Round.objects.filter(tournament_id=tournament_id)
        .exclude(starts_at=None, place="", link="")
        .order_by("created_at", "id")
        .values_list("stage", "number", "starts_at", "place", "link")
    )
    return tuple(ScheduledRound(*row) for row in rows)


def schedule_store(tournament_id: int, schedule: Iterable[ScheduledRound]) -> None:
    """Set the rounds' times and places from a tournament file (a round it names that
    has no game yet is made)."""
    for entry in schedule:
        models.Round.objects.update_or_create(
            tournament_id=tournament_id,
            stage=entry.stage,
            number=entry.round,
            defaults={"starts_at": entry.starts_at, "place": entry.place, "link": entry.link},
        )
