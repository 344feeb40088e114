"""Who hears of a protocol's and a protest's changes: the game's own people only
(its table judge, its players, the chief judges), never another table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse

from mafiatab.games.models import Game, Protest, Table
from mafiatab.notifications.services import notify, notify_each
from mafiatab.tournaments.models import StaffRole

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


def _link(game: Game) -> str:
    return reverse("games:detail", kwargs={"slug": game.tournament.slug, "pk": game.pk})


def _players(game: Game) -> list[int]:
    """The accounts seated at the game."""
    return [
        uid
        for uid in game.seats.values_list("registration__user_id", flat=True).order_by("number")
        if uid is not None
    ]


def _chiefs(game: Game) -> list[int]:
    return list(
        game.tournament.staff_members.filter(role=StaffRole.CHIEF_JUDGE).values_list(
            "user_id", flat=True
        )
    )


def _tell(recipients: list[Any], game: Game, kind: str, **params: Any) -> None:
    notify(
        recipients,
        kind,
        {"tournament": game.tournament.name, "game": game.label, **params},
        link=_link(game),
        tournament=game.tournament,
    )


def protocol_submitted(game: Game) -> None:
    _tell(_chiefs(game), game, "protocol.submitted")


def protocol_resubmitted(game: Game, *, version: int, signer: User) -> None:
    """A submitted protocol changed and signed again before its confirmation: the chief
    judges (but the one who changed it) hear of each new version."""
    chiefs = [uid for uid in _chiefs(game) if uid != signer.pk]
    _tell(chiefs, game, "protocol.resubmitted", version=version)


def protocol_returned(game: Game, reason: str) -> None:
    _tell([game.judge_user_id], game, "protocol.returned", reason=reason)


def protocol_confirmed(game: Game) -> None:
    _tell([game.judge_user_id, *_players(game)], game, "protocol.confirmed")


def _who(protest: Protest) -> str:
    return str(protest.filed_by.nickname or protest.filed_by.username)


def protest_filed(protest: Protest) -> None:
    game = protest.game
    _tell(_chiefs(game), game, "protest.filed", player=_who(protest), seat=protest.seat)


def protest_decided(protest: Protest) -> None:
    """To the protester and the game's table (its players and judge)."""
    game = protest.game
    _tell(
        [protest.filed_by_id, *_players(game), game.judge_user_id],
        game,
        "protest.decided",
        player=_who(protest),
        outcome=protest.status,
        decision=protest.decision,
    )


def table_added(table: Table) -> None:
    """A table added to a round by hand: its players hear their seat, its judge the table."""
    tournament = table.round.tournament
    judge = table.judge
    row = {"round": table.round.number, "table": table.number}
    common = {"tournament": tournament.name, "stage": table.round.stage}
    seats = table.seats.values_list("number", "registration__user_id").order_by("number")
    notify_each(
        (
            (
                uid,
                common
                | {"rows": [row | {"seat": number, "judge": judge.nickname if judge else ""}]},
            )
            for number, uid in seats
            if uid is not None
        ),
        "seating.published",
        link=reverse("seating:mine", kwargs={"slug": tournament.slug}),
        tournament=tournament,
    )
    if judge is not None:
        notify(
            [judge],
            "seating.judging",
            common | {"rows": [row]},
            link=reverse("games:my_tables", kwargs={"slug": tournament.slug}),
            tournament=tournament,
        )


def table_judge_changed(table: Table, before: User | None) -> None:
    """A published table given to another judge: the new one hears of the table (as on
    publishing), the one it was taken from hears it is no longer his."""
    tournament = table.round.tournament
    row = {"round": table.round.number, "table": table.number}
    common = {"tournament": tournament.name, "stage": table.round.stage}
    if table.judge is not None:
        notify(
            [table.judge],
            "seating.judging",
            common | {"rows": [row]},
            link=reverse("games:my_tables", kwargs={"slug": tournament.slug}),
            tournament=tournament,
        )
    if before is not None:
        notify(
            [before],
            "seating.judging_ended",
            common | row | {"game": table.game.label},
            link=reverse("games:rounds", kwargs={"slug": tournament.slug}),
            tournament=tournament,
        )
