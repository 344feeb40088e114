"""Replacements: a reserve plays instead of a late participant (`replacement_record`)
and takes his seat (`seat_replace`), and a table of a round not begun is seated again
(`reseat_table`); an unconfirmed protocol follows as a new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.names import nickname_key, normalize_nickname
from mafiatab.games import conversion
from mafiatab.games.models import Game, GameStatus, Round, Table, TableSeat
from mafiatab.games.services.rounds import TablePlan, _check_plans, is_judge_of, judge_seat_refusal
from mafiatab.games.services.schedule import round_minutes_late
from mafiatab.games.services.versions import _new_version
from mafiatab.registrations.models import (
    NAMED_STATUSES,
    Registration,
    Replacement,
    ReplacementScope,
    Status,
)
from mafiatab.registrations.selectors import reserve_refusal
from mafiatab.registrations.services import reserve_take
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


def _is_untouched(game: Game) -> bool:
    """A protocol nobody has written in yet (only its first, created version)."""
    return game.status == GameStatus.DRAFT and game.version <= 1


def _own_table_refusal(seat: TableSeat, reserve: Registration) -> str | None:
    """Why `reserve` cannot take `seat`: he judges its table (a judge holds no seat at
    the table he judges). None when he may."""
    judge = seat.table.judge
    if judge is None or not is_judge_of(judge, reserve):
        return None
    return _(
        "%(reserve)s judges table %(n)s of round %(round)s, where %(absent)s sits: the "
        "judge of a table cannot take a seat at it. Name another reserve or give the "
        "table another judge first."
    ) % {
        "reserve": judge.nickname or judge.username,
        "n": seat.table.number,
        "round": seat.table.round.number,
        "absent": seat.registration.nickname,
    }


def _reserve_judges_refusal(
    tournament: Tournament, stage: str, number: int, absent: Registration, reserve_nickname: str
) -> str | None:
    """Why the reserve named `reserve_nickname` cannot take `absent`'s seat in round
    `number`: he judges that table. None when he may (or there is no such seat)."""
    seat = (
        TableSeat.objects.filter(
            table__round__tournament=tournament,
            table__round__stage=stage,
            table__round__number=number,
            registration=absent,
        )
        .select_related("table__judge", "table__round", "registration")
        .first()
    )
    if seat is None:
        return None
    key = nickname_key(reserve_nickname)
    reserve = tournament.registrations.filter(
        nickname_key=key, status__in=NAMED_STATUSES
    ).first() or Registration(nickname=reserve_nickname, nickname_key=key)
    return _own_table_refusal(seat, reserve)


@transaction.atomic
def seat_replace(
    *,
    tournament: Tournament,
    stage: str,
    round_number: int,
    absent: Registration,
    reserve: Registration,
    by: User | None,
) -> Game | None:
    """The reserve takes the absent participant's seat in the round's table and in its
    protocol (a new version). None when the absent participant has no seat in that
    round (the round is not made yet, or he sits out). Refused when that protocol is
    confirmed: the seat would say another player than the confirmed protocol."""
    ensure_can(by, tournament, "replace_player")
    seat = (
        TableSeat.objects.select_for_update(of=("self",))
        .filter(
            table__round__tournament=tournament,
            table__round__stage=stage,
            table__round__number=round_number,
            registration=absent,
        )
        .select_related("table__judge", "table__round", "registration")
        .first()
    )
    if seat is None:
        return None
    game = Game.objects.locked(Game.objects.get(table_slot=seat.table))
    if game.is_confirmed:
        # its protocol says who played and stays as confirmed: the seat would contradict it
        raise ValidationError(
            {
                "round": _(
                    "The protocol of %(game)s, where %(nick)s sits in this round, is "
                    "confirmed: return it to its judge before recording the replacement."
                )
                % {"game": game.label, "nick": absent.nickname}
            }
        )
    if (refusal := _own_table_refusal(seat, reserve)) is not None:
        raise ValidationError({"reserve_nickname": refusal})
    seat.registration = reserve
    seat.save(update_fields=["registration"])
    data = conversion.game_data(game)
    seats = [dict(s) for s in data.get("seats") or []]
    if len(seats) >= seat.number:
        seats[seat.number - 1]["player"] = reserve.nickname
    _new_version(
        game,
        data | {"seats": seats},
        status=game.status,
        action="replaced",
        by=by,
        reason="",
        reason_code="seat.replaced",
        reason_params={"reserve": reserve.nickname, "absent": absent.nickname},
    )
    if game.status != GameStatus.DRAFT:
        tournament.standings_changed()
    tournament.log_action(
        "game.seat.replaced",
        by=by,
        target=game.label,
        after={
            "seat": seat.number,
            "absent": absent.nickname,
            "reserve": reserve.nickname,
            "protocol_changed": True,
        },
    )
    return game


@transaction.atomic
def reseat_table(*, table: Table, players: Sequence[str], by: User | None) -> Table:
    """Seat other participants at a table of a round not begun (a new seating after a
    replacement): its seats and its untouched protocol (a new version) follow."""
    ensure_can(by, table.round.tournament, "publish_seating", "manage_rounds")
    tournament = table.round.tournament
    game = Game.objects.locked(Game.objects.get(table_slot=table))
    if not _is_untouched(game):
        raise ValidationError(
            _("%(game)s has a protocol already; its table cannot be seated again.")
            % {"game": game.label}
        )
    plan = TablePlan(number=table.number, judge=None, players=tuple(players))
    # the other tables of the round are seated again in the same call: checked alone
    seats = _check_plans(tournament, [plan])[table.number]
    where = _("Table %(n)s of round %(round)s") % {"n": table.number, "round": table.round.number}
    held = list(enumerate(seats, start=1))
    if refusal := judge_seat_refusal(where=where, judge=table.judge, seats=held):
        raise ValidationError(refusal)
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, number=n, registration=holder)
        for n, holder in enumerate(seats, start=1)
    )
    data = conversion.game_data(game) | {
        "seats": [{"player": holder.nickname, "role": None, "fouls": 0} for holder in seats]
    }
    _new_version(game, data, status=GameStatus.DRAFT, action="reseated", by=by, reason="")
    return table


def _minutes_since_start(tournament: Tournament, stage: str, number: int) -> int | None:
    """The minutes since round `number` of `stage` started, by its start time (None:
    the round has none)."""
    found = Round.objects.filter(tournament=tournament, stage=stage, number=number).first()
    if found is None or found.starts_at is None:
        return None
    return round_minutes_late(found, timezone.now())


def _round_refusal(tournament: Tournament, stage: str, number: int) -> str | None:
    """Why round `number` of `stage` cannot have a replacement (it is not made: no
    table holds a seat for the reserve to take), or None."""
    if number < 1:
        return _("Rounds are numbered from 1.")
    numbers = sorted(
        Round.objects.filter(tournament=tournament, stage=stage).values_list("number", flat=True)
    )
    if number in numbers:
        return None
    if not numbers:
        return _(
            "No round of this stage is made yet: a reserve takes the participant's seat "
            "at his table of a round (publish the seating or make the round first)."
        )
    return _("There is no round %(round)d: the rounds of this stage are %(rounds)s.") % {
        "round": number,
        "rounds": ", ".join(str(n) for n in numbers),
    }


def _plays_in_refusal(
    tournament: Tournament, stage: str, number: int, absent: Registration
) -> str | None:
    """Why `absent` cannot be replaced in round `number` (he has no seat in it: he sits
    out, there is no seat for the reserve to take), or None."""
    if TableSeat.objects.filter(
        table__round__tournament=tournament,
        table__round__stage=stage,
        table__round__number=number,
        registration=absent,
    ).exists():
        return None
    return _("%(nick)s does not play in round %(round)d: there is no seat to take.") % {
        "nick": absent.nickname,
        "round": number,
    }


@transaction.atomic
def replacement_record(
    *,
    tournament: Tournament,
    absent: Registration,
    reserve_nickname: str,
    round: int,
    minutes_late: int | None,
    by: User,
    stage: str = "qualifying",
    scope: str = ReplacementScope.ROUND,
    new_player: bool = False,
) -> Replacement:
    """A reserve plays instead of a participant too late for `round` of `stage`: late
    by `minutes_late`, or when it is None by the minutes since the round's start time
    (refused, naming the field, when the round has none). Refused, on `round`, when
    that round is not made or the participant sits out in it: nothing is stored.
    Every refusal is said at once, each by its field.

    The reserve is one the tournament knows (its waiting list, or a reserve who
    played already); with `new_player` anybody else, added now (`reserve_refusal`).
    He becomes a registration of the tournament (status reserve: he may hold
    a seat and is listed with the participants, he is not counted among the
    participants of 8.7) and takes the absent participant's seat in that round's
    table and, unless it is confirmed, in its protocol. With `scope` "round" (the
    default) the participant keeps his later rounds; with "rest" the reserve plays
    them, once `seating_reseat` has seated the rounds not yet played again."""
    ensure_can(by, tournament, "replace_player")
    tournament = Tournament.objects.locked(tournament)
    reserve_nickname = normalize_nickname(" ".join(reserve_nickname.split()))
    errors: dict[str, str] = {}  # every refusal at once, each beside its field
    if absent.tournament_id != tournament.pk or absent.status != Status.APPROVED:
        errors["absent"] = _("Only a participant of this tournament can be replaced.")
    if (refusal := _round_refusal(tournament, stage, round)) is not None:
        errors["round"] = refusal
    else:
        if "absent" not in errors and (
            refusal := _plays_in_refusal(tournament, stage, round, absent)
        ):
            errors["round"] = refusal
        if minutes_late is None:
            minutes_late = _minutes_since_start(tournament, stage, round)
            if minutes_late is None:
                errors["minutes_late"] = _(
                    "Round %(round)d has no start time: give the minutes the player is late."
                ) % {"round": round}
    if minutes_late is not None and not tournament.regulation.may_replace(minutes_late):
        errors["minutes_late"] = _(
            "Only a player more than %(minutes)d minutes late can be replaced."
        ) % {"minutes": tournament.regulation.replacement_after_minutes}
    if scope not in ReplacementScope.values:
        errors["scope"] = _(
            "Choose whether the reserve plays this round only or the rest of the tournament."
        )
    if not reserve_nickname:
        errors["reserve_nickname"] = _("Name the reserve player.")
    elif (
        refusal := reserve_refusal(tournament, reserve_nickname, new_player=new_player)
        or _reserve_judges_refusal(tournament, stage, round, absent, reserve_nickname)
    ) is not None:
        errors["reserve_nickname"] = refusal
    if errors:
        raise ValidationError(errors)
    if Replacement.objects.filter(absent=absent, round=round).exists():
        raise ValidationError(
            _("%(nick)s is already replaced in round %(round)d.")
            % {"nick": absent.nickname, "round": round}
        )
    reserve = reserve_take(
        tournament=tournament, nickname=reserve_nickname, by=by, new_player=new_player
    )
    replacement = Replacement.objects.create(
        tournament=tournament,
        absent=absent,
        reserve_nickname=reserve.nickname,
        reserve=reserve,
        round=round,
        minutes_late=minutes_late,
        scope=scope,
        by=by,
    )
    tournament.log_action(
        "registration.replaced",
        by=by,
        target=absent.nickname,
        after={
            "absent": absent.nickname,
            "reserve": reserve.nickname,
            "round": round,
            "minutes_late": minutes_late,
            "scope": str(scope),
        },
    )
    seat_replace(
        tournament=tournament,
        stage=stage,
        round_number=round,
        absent=absent,
        reserve=reserve,
        by=by,
    )
    return replacement
