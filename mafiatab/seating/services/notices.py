"""The messages of a published seating: each player his tables and seats, each judge
the tables he judges."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.urls import reverse

from mafiatab.games.models import Round
from mafiatab.notifications.services import notify_each
from mafiatab.registrations.models import SEATED_STATUSES
from mafiatab.seating.models import SeatingDraft
from mafiatab.tournaments.models import Tournament

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


def seating_announce(
    *,
    tournament: Tournament,
    draft: SeatingDraft,
    judges: Mapping[int, User | None],
    after_round: int = 0,
) -> None:
    """Tell every seated player with an account his round, table, seat and judge, and
    every judge his tables (inside the publishing transaction, in bulk): the rounds
    after `after_round` (a re-seating keeps the ones before)."""
    accounts = dict(
        tournament.registrations.filter(status__in=SEATED_STATUSES, user__isnull=False).values_list(
            "nickname", "user_id"
        )
    )
    # when and where each round is played, where the organiser has said it already
    when: dict[int, dict[str, str]] = {}
    for number, starts_at, place, link in Round.objects.filter(
        tournament=tournament, stage=draft.stage
    ).values_list("number", "starts_at", "place", "link"):
        said = {"starts_at": starts_at.isoformat()} if starts_at is not None else {}
        if starts_at is not None and tournament.time_zone:
            said["zone"] = tournament.time_zone  # said in the tournament's time zone
        if place or link:
            said["place"] = place or link
        when[number] = said
    seats: dict[int, list[dict[str, Any]]] = {}
    judged: dict[int, list[dict[str, Any]]] = {}
    for rnd in draft.rounds:
        if int(rnd["round"]) <= after_round:
            continue
        for table in rnd["tables"]:
            number = int(table["table"])
            judge = judges.get(number)
            for seat, nickname in enumerate(table["seats"], start=1):
                if nickname in accounts:
                    seats.setdefault(accounts[nickname], []).append(
                        {
                            "round": rnd["round"],
                            "table": number,
                            "seat": seat,
                            "judge": judge.nickname if judge is not None else "",
                        }
                        | when.get(int(rnd["round"]), {})
                    )
            if judge is not None:
                judged.setdefault(judge.pk, []).append(
                    {"round": rnd["round"], "table": number} | when.get(int(rnd["round"]), {})
                )
    if not seats and not judged:
        return
    common = {"tournament": tournament.name, "stage": draft.stage}
    notify_each(
        ((user_id, common | {"rows": rows}) for user_id, rows in seats.items()),
        "seating.published",
        link=reverse("seating:mine", kwargs={"slug": tournament.slug}),
        tournament=tournament,
    )
    notify_each(
        ((user_id, common | {"rows": rows}) for user_id, rows in judged.items()),
        "seating.judging",
        link=reverse("games:my_tables", kwargs={"slug": tournament.slug}),
        tournament=tournament,
    )


def reseat_announce(*, tournament: Tournament, draft: SeatingDraft) -> None:
    """A re-seating published: the rounds it seats again, with their judges."""
    staff = {
        m.user.nickname: m.user
        for m in tournament.staff_members.select_related("user")
        if m.user.nickname
    }
    judges = {int(t): staff.get(nick) for t, nick in draft.judges.items()}
    seating_announce(
        tournament=tournament,
        draft=draft,
        judges=judges,
        after_round=int(draft.options.get("fixed_rounds", 0)),
    )
