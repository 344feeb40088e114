"""Game rows <-> core `Protocol`s."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from mafiatab.core.protocol import GamePenalty, JudgeExtra, Protocol, Removal
from mafiatab.core.roles import Role, Stage, Winner
from mafiatab.games import models

#: Points are stored with this many decimal places.
POINT_PLACES = 4


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


def protocol_from_rows(game: models.Game) -> Protocol:
    """The core protocol of a stored game (seats, extras... prefetched or not)."""
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    return Protocol(
        id=game.label,
        stage=Stage(game.stage),
        players=tuple(s.player for s in seats),
        roles=tuple(Role(s.role) for s in seats),
        winner=Winner(game.winner),
        fouls=tuple(s.fouls for s in seats),
        round=game.round,
        table=game.table,
        date=game.date,
        judge=game.judge,
        first_killed=game.first_killed,
        best_move=tuple(game.best_move or ()),
        judge_extra=tuple(
            JudgeExtra(
                seat=e.seat,
                points=decimal_to_fraction(e.points),
                reason=e.reason,
                chief_approved=e.chief_approved,
            )
            for e in sorted(game.extras.all(), key=lambda e: e.position)
        ),
        penalties=tuple(
            GamePenalty(seat=p.seat, rule=p.rule, reason=p.reason)
            for p in sorted(game.penalties.all(), key=lambda p: p.position)
        ),
        disqualified=tuple(
            Removal(seat=r.seat, reason=r.reason, online=r.online, fined=r.fined)
            for r in sorted(game.removals.all(), key=lambda r: r.position)
        ),
        replayed=game.replayed,
    )


def protocols_of(games: Iterable[models.Game]) -> tuple[Protocol, ...]:
    return tuple(protocol_from_rows(g) for g in games)


def game_rows_from_protocol(tournament_id: int, position: int, protocol: Protocol) -> models.Game:
    """Store one protocol as rows; returns the saved game."""
    game = models.Game.objects.create(
        tournament_id=tournament_id,
        position=position,
        label=protocol.id,
        stage=protocol.stage.value,
        round=protocol.round,
        table=protocol.table,
        date=protocol.date,
        judge=protocol.judge,
        winner=protocol.winner.value,
        first_killed=protocol.first_killed,
        best_move=list(protocol.best_move),
        replayed=protocol.replayed,
    )
    models.GameSeat.objects.bulk_create(
        models.GameSeat(
            game=game, number=s.number, player=s.player, role=s.role.value, fouls=s.fouls
        )
        for s in protocol.seats
    )
    models.GameExtra.objects.bulk_create(
        models.GameExtra(
            game=game,
            position=i,
            seat=e.seat,
            points=fraction_to_decimal(e.points, what=f"game {protocol.id!r}, judge_extra"),
            reason=e.reason,
            chief_approved=e.chief_approved,
        )
        for i, e in enumerate(protocol.judge_extra)
    )
    models.GamePenalty.objects.bulk_create(
        models.GamePenalty(game=game, position=i, seat=p.seat, rule=p.rule, reason=p.reason)
        for i, p in enumerate(protocol.penalties)
    )
    models.GameRemoval.objects.bulk_create(
        models.GameRemoval(
            game=game, position=i, seat=r.seat, reason=r.reason, online=r.online, fined=r.fined
        )
        for i, r in enumerate(protocol.disqualified)
    )
    return game


def stored_protocols(tournament_id: int) -> tuple[Protocol, ...]:
    """Every stored protocol of a tournament, in order."""
    games = models.Game.objects.filter(tournament_id=tournament_id).prefetch_related(
        "seats", "extras", "penalties", "removals"
    )
    return protocols_of(games.order_by("position"))
