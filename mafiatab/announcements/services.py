"""The organiser's broadcast: one message to the people of a tournament he chooses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from mafiatab.games.models import STAGE_CHOICES, Table, TableSeat
from mafiatab.notifications.services import notify
from mafiatab.registrations.models import SEATED_STATUSES
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

#: The longest message the organiser may send.
TEXT_LIMIT = 2000
ALL = "all"
STAGE = "stage"
TABLE = "table"


@dataclass(frozen=True)
class Audience:
    """Whom a broadcast goes to: everyone seated in the tournament, a stage's players,
    or one table (its players and judge)."""

    scope: str
    stage: str = ""
    table_id: int | None = None


def recipients_of(tournament: Tournament, audience: Audience) -> list[int]:
    """The accounts an audience holds."""
    if audience.scope == ALL:
        rows = tournament.registrations.filter(status__in=SEATED_STATUSES, user__isnull=False)
        return sorted(set(rows.values_list("user_id", flat=True)))
    if audience.scope == STAGE:
        if audience.stage not in dict(STAGE_CHOICES):
            raise ValidationError({"stage": _("Choose the stage.")})
        seats = TableSeat.objects.filter(
            table__round__tournament=tournament,
            table__round__stage=audience.stage,
            registration__user__isnull=False,
        )
        return sorted(set(seats.values_list("registration__user_id", flat=True)))
    if audience.scope == TABLE:
        table = Table.objects.filter(pk=audience.table_id, round__tournament=tournament).first()
        if table is None:
            raise ValidationError({"table": _("Choose a table of this tournament.")})
        users = {
            uid
            for uid in table.seats.values_list("registration__user_id", flat=True)
            if uid is not None
        }
        if table.judge_id is not None:
            users.add(table.judge_id)
        return sorted(users)
    raise ValidationError({"scope": _("Choose whom the message is for.")})


@transaction.atomic
def broadcast_send(*, tournament: Tournament, audience: Audience, text: str, by: User) -> int:
    """Send the organiser's message to the audience; the number of people it reached."""
    ensure_can(by, tournament, "broadcast")
    text = text.strip()
    if not text:
        raise ValidationError({"text": _("Write the message.")})
    if len(text) > TEXT_LIMIT:
        raise ValidationError(
            {"text": _("A message holds at most %(n)d characters.") % {"n": TEXT_LIMIT}}
        )
    users = recipients_of(tournament, audience)
    if not users:
        raise ValidationError(_("Nobody with an account is there to receive it."))
    sent = notify(
        users,
        "broadcast",
        {"tournament": tournament.name, "text": text},
        link=tournament.get_absolute_url(),
        tournament=tournament,
    )
    tournament.log_action(
        "tournament.broadcast",
        by=by,
        target=audience.scope,
        after={
            "scope": audience.scope,
            "stage": audience.stage,
            "table": audience.table_id,
            "text": text,
            "recipients": sent,
        },
    )
    return sent
