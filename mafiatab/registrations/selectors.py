"""Reading registrations: who may hold a seat, found by nickname in any case.

A nickname is matched by its key (`mafiatab.core.names.nickname_key`, case folded
in Python), never by the database's collation, so "кэп" finds "Кэп" on SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from mafiatab.accounts.services import nickname_refusal
from mafiatab.core.names import nickname_key
from mafiatab.registrations.models import NAMED_STATUSES, SEATED_STATUSES, Registration, Status

if TYPE_CHECKING:
    from mafiatab.tournaments.models import Tournament


def seat_holders(tournament_id: int) -> dict[str, Registration]:
    """Everyone who may hold a seat (participants and reserves), by nickname key."""
    rows = Registration.objects.filter(tournament_id=tournament_id, status__in=SEATED_STATUSES)
    return {r.nickname_key: r for r in rows.order_by("id")}


def seat_choices(tournament_id: int, query: str = "", limit: int | None = None) -> list[str]:
    """The nicknames a seat may hold, those containing `query` (any case), sorted."""
    wanted = nickname_key(query)
    names = sorted((r.nickname for r in seat_holders(tournament_id).values()), key=nickname_key)
    if wanted:
        names = [n for n in names if wanted in nickname_key(n)]
    return names[:limit] if limit is not None else names


def reserves_who_played(tournament: Tournament) -> QuerySet[Registration]:
    """The reserves who replaced a participant, by nickname. The lists of participants
    show them (as reserves); N of 8.7 and the participant limit do not count them."""
    return (
        tournament.registrations.filter(status=Status.RESERVE, replacing__isnull=False)
        .select_related("user")
        .distinct()
        .order_by("nickname")
    )


def listed_participants(tournament: Tournament) -> QuerySet[Registration]:
    """Whom the lists of participants show, by nickname: the approved participants and
    the reserves who replaced one."""
    reserves = reserves_who_played(tournament).values("pk")
    listed = Q(status=Status.APPROVED) | Q(pk__in=reserves)
    return tournament.registrations.filter(listed).order_by("nickname")


def reserve_choices(tournament: Tournament) -> list[str]:
    """Whom a replacement may name as the reserve without adding a new player: the
    waiting list in its order, then the reserves who already played, by nickname."""
    waiting = tournament.registrations.filter(status=Status.WAITING).order_by("waiting_since", "id")
    reserves = tournament.registrations.filter(status=Status.RESERVE).order_by("nickname")
    return [r.nickname for r in waiting] + [r.nickname for r in reserves]


#: The registrations a replacement may name as its reserve without adding a player.
RESERVE_STATUSES = (Status.WAITING, Status.RESERVE)


def reserve_refusal(tournament: Tournament, nickname: str, *, new_player: bool) -> str | None:
    """Why `nickname` cannot be the reserve of a replacement, in the reader's language;
    None when he can. A reserve is one the tournament knows (on its waiting list, or
    a reserve who already played); anybody else only as a new player (`new_player`),
    so that a mistyped nickname never seats a stranger."""
    found = tournament.registrations.filter(
        nickname_key=nickname_key(nickname), status__in=NAMED_STATUSES
    ).first()
    if found is not None and found.status == Status.APPROVED:
        return _("A participant cannot be the reserve.")
    if found is not None and found.status in RESERVE_STATUSES:
        return None
    if new_player:
        return nickname_refusal(nickname)
    choices = reserve_choices(tournament)
    if not choices:
        return _(
            "%(nick)s is not a reserve of this tournament, and it has none (the waiting "
            "list is empty): tick “A new player” to add him as a reserve."
        ) % {"nick": nickname}
    return _(
        "%(nick)s is not a reserve of this tournament. Choose one of the waiting list or "
        "the reserves (%(names)s), or tick “A new player” to add him as a reserve."
    ) % {"nick": nickname, "names": ", ".join(choices)}


def rounds_to_play(tournament: Tournament) -> dict[int, list[int]]:
    """The rounds each registration holds a seat in whose game is not played yet (its
    protocol still a draft: not begun, or being played), by registration id.

    Read through the reverse relation of the games' seats (`table_seats`): the games
    stand above and are not imported; a draft protocol is the games' status "draft"."""
    rows = tournament.registrations.filter(table_seats__table__game__status="draft").values_list(
        "pk", "table_seats__table__round__number"
    )
    found: dict[int, set[int]] = {}
    for pk, number in rows:
        found.setdefault(pk, set()).add(number)
    return {pk: sorted(numbers) for pk, numbers in found.items()}


def rounds_said(numbers: list[int]) -> str:
    """Round numbers for a sentence: runs of consecutive rounds as "3–12"."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
