"""Giving and cancelling tournament-level penalties (chief judge).

The points of each kind are the regulation's (`Regulation.tournament_penalties`):
-0.5 for being more than 5 minutes late to a round; a lobby violation is punished
by a warning, a -0.5 fine or removal from the tournament (addendum, lobby rules).
They reach the standings as core `TournamentPenalty` entries.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from mafiatab.core.regulations import Regulation
from mafiatab.core.scoring import format_points
from mafiatab.notifications.services import notify
from mafiatab.penalties.models import Kind, Penalty
from mafiatab.registrations.models import SEATED_STATUSES, Status
from mafiatab.registrations.services import registration_remove
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


#: The kinds of a lobby violation (online addendum, lobby rules).
LOBBY_KINDS = frozenset({Kind.LOBBY_WARNING, Kind.LOBBY_FINE, Kind.LOBBY_REMOVAL})


def givable_kinds(regulation: Regulation) -> list[Kind]:
    """The kinds of penalty the chief judge may give under `regulation`, in order: a
    lobby violation only where the online addendum's lobby rules apply."""
    given = regulation.tournament_penalties()
    return [kind for kind in Kind if kind.value in given]


def points_of(tournament: Tournament, kind: str) -> Decimal | None:
    """The points of a kind of penalty the chief judge gives, under the tournament's
    regulation; None for a kind that is not given there."""
    fine = tournament.regulation.tournament_penalties().get(kind)
    if fine is None:
        return None
    return Decimal(fine.numerator) / Decimal(fine.denominator)


def _state(penalty: Penalty) -> dict[str, str | int | None]:
    return {
        "player": penalty.player,
        "kind": penalty.kind,
        "points": str(penalty.points),
        "reason": penalty.reason,
        "minutes_late": penalty.minutes_late,
        "round": penalty.round,
        "stage": penalty.stage,
        "cancelled": penalty.is_cancelled,
    }


def _is_player(tournament: Tournament, player: str) -> bool:
    return (
        tournament.registrations.filter(
            nickname=player, status__in=(Status.APPROVED, Status.REMOVED)
        ).exists()
        or tournament.games.filter(seats__player=player).exists()
    )


def _round_refusal(tournament: Tournament, round: int) -> str | None:
    """Why a penalty cannot name round `round` (the tournament has no such round), or None."""
    rounds = set(tournament.rounds.values_list("number", flat=True))
    if not rounds:  # no seating published yet: no round has been played
        return _("This tournament has no round %(n)d: none of its rounds is made yet.") % {
            "n": round
        }
    if round not in rounds:  # the rounds are known: name one of them
        return _("This tournament has no round %(n)d: its rounds are %(first)d to %(last)d.") % {
            "n": round,
            "first": min(rounds),
            "last": max(rounds),
        }
    return None


def _lateness_refusal(
    tournament: Tournament, player: str, round: int, stage: str = ""
) -> tuple[str | None, str]:
    """Why `player` cannot be fined for lateness to round `round` (of `stage`, or of any
    stage when blank), or None; and the stage the fine is for. Each stage numbers its rounds
    from 1, so round 4 may be played in the qualifying and again in the final: the fine is
    for the stage where his game of that round is still to be played. It is refused when he
    has no seat in that round (he sits it out), when every game of his in that round is
    played already (its protocol is no longer a draft), or when he is fined for lateness in
    that round of that stage already (a penalty not cancelled; one given without a stage
    counts for every stage).

    The games stand above and are not imported: their seats are read through the
    reverse relation (`tournament.games`), and a protocol being played or not begun
    has the games' status "draft"."""
    games = tournament.games.filter(round=round)
    if stage:
        games = games.filter(stage=stage)
    his = list(
        games.filter(Q(seats__player=player) | Q(seats__registration__nickname=player))
        .distinct()
        .order_by("position")
    )
    waiting = [game for game in his if game.status == "draft"]
    if waiting:
        stage = waiting[0].stage
    fined = tournament.penalties.filter(
        player=player, kind=Kind.LATENESS, round=round, cancelled_at__isnull=True
    )
    if stage:
        fined = fined.filter(Q(stage=stage) | Q(stage=""))
    previous = fined.order_by("created_at").first()
    if previous is not None:
        return _(
            "%(nick)s is already fined for lateness in round %(round)d: %(points)s "
            "(%(minutes)s minutes late), given %(when)s. Cancel that penalty first to "
            "give another."
        ) % {
            "nick": player,
            "round": round,
            "points": format_points(Fraction(previous.points), signed=True),
            "minutes": previous.minutes_late if previous.minutes_late is not None else "—",
            "when": formats.date_format(
                timezone.localtime(previous.created_at, tournament.zone()),
                "SHORT_DATETIME_FORMAT",
            ),
        }, stage
    if not his:
        return _(
            "%(nick)s does not play in round %(round)d: he has no seat in it, so he "
            "cannot be late for it."
        ) % {"nick": player, "round": round}, stage
    if not waiting:
        return _(
            "The protocol of %(game)s, where %(nick)s plays in round %(round)d, is no "
            "longer a draft: the game was played with him, lateness to it is not fined."
        ) % {"game": his[0].label, "nick": player, "round": round}, stage
    return None, stage


@transaction.atomic
def _tell(tournament: Tournament, penalty: Penalty, kind: str = "penalty.given") -> None:
    """Tell the penalised player (when he has an account) of the penalty or, `kind`
    "penalty.cancelled", of its cancellation (its reason then)."""
    cancelled = kind == "penalty.cancelled"
    notify(
        tournament.registrations.filter(
            nickname=penalty.player, status__in=SEATED_STATUSES, user__isnull=False
        ).values_list("user_id", flat=True),
        kind,
        {
            "tournament": tournament.name,
            "player": penalty.player,
            "points": format_points(Fraction(penalty.points), signed=True),
            "reason": penalty.cancel_reason if cancelled else penalty.reason,
        },
        link=reverse("penalties:list", kwargs={"slug": tournament.slug}),
        tournament=tournament,
    )


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    player: str,
    kind: str,
    reason: str,
    by: User,
    minutes_late: int | None = None,
    round: int | None = None,
    stage: str = "",
) -> Penalty:
    """The chief judge penalises a player of the tournament. Lateness to a round (of
    `stage`; when blank, of the stage where his game of that round is still to be played)
    is refused when he does not play in it, when his game of it is played already, or when
    he is fined for lateness in it already (`_lateness_refusal`): nothing is stored."""
    ensure_can(by, tournament, "give_penalty")
    tournament = Tournament.objects.locked(tournament)  # two judges at once: one fine

    reason = reason.strip()
    errors: dict[str, str] = {}
    regulation = tournament.regulation
    points = points_of(tournament, kind)
    if points is None and kind in LOBBY_KINDS:
        errors["kind"] = _(
            "A lobby violation is penalised only in an online tournament (online addendum)."
        )
    elif points is None:
        errors["kind"] = _("Choose the kind of penalty.")
    if not reason:
        errors["reason"] = _("Give the reason for the penalty.")
    if not _is_player(tournament, player):
        errors["player"] = _("%(nick)s is not a player of this tournament.") % {"nick": player}
    if kind == Kind.LATENESS and (
        minutes_late is None or regulation.lateness_points(minutes_late) is None
    ):
        errors["minutes_late"] = _(
            "Lateness is fined only when a player is more than %(minutes)d minutes late."
        ) % {"minutes": regulation.lateness_grace_minutes}
    if round is not None and (refusal := _round_refusal(tournament, round)) is not None:
        errors["round"] = refusal
    if kind == Kind.LATENESS and round is not None and not errors.keys() & {"player", "round"}:
        refusal, stage = _lateness_refusal(tournament, player, round, stage)
        if refusal is not None:
            errors["round"] = refusal
    if errors:
        raise ValidationError(errors)
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=player,
        kind=kind,
        points=points,
        reason=reason,
        minutes_late=minutes_late if kind == Kind.LATENESS else None,
        round=round,
        stage=stage if round is not None else "",
        given_by=by,
    )
    tournament.log_action("penalty.given", by=by, target=player, after=_state(penalty))
    tournament.standings_changed()
    _tell(tournament, penalty)
    if kind == Kind.LOBBY_REMOVAL:
        registration = tournament.registrations.filter(
            nickname=player, status=Status.APPROVED
        ).first()
        if registration is not None:
            registration_remove(registration=registration, by=by, reason=reason)
    return penalty


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, by: User, reason: str) -> Penalty:
    """Cancel a penalty. It stays in the history, marked as cancelled."""
    ensure_can(by, penalty.tournament, "give_penalty")
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.is_cancelled:
        raise ValidationError(_("This penalty is already cancelled."))
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason for the cancellation.")})
    before = _state(penalty)
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = by
    penalty.cancel_reason = reason
    penalty.save()
    after = _state(penalty) | {"cancel_reason": reason}
    penalty.tournament.log_action(
        "penalty.cancelled", by=by, target=penalty.player, before=before, after=after
    )
    penalty.tournament.standings_changed()
    _tell(penalty.tournament, penalty, "penalty.cancelled")
    return penalty
