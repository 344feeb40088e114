"""What a seating is made of: the organiser's request (`SeatingInputs`), the
participants as the seating sees them, the search budget's settings, the next seed
and the published draft of a stage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max

from mafiatab.core.seating import TABLE_SIZE
from mafiatab.registrations.models import Advancement, Status
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.tournaments.models import Tournament

#: Safety cap on one search, in seconds (the search budget is counted in iterations);
#: the core's own default unless the setting MAFIATAB_SEATING_TIME_LIMIT says otherwise.
TIME_LIMIT_SETTING = "MAFIATAB_SEATING_TIME_LIMIT"
#: Search budget override (MAFIATAB_SEATING_ITERATIONS); None: the core's default.
ITERATIONS_SETTING = "MAFIATAB_SEATING_ITERATIONS"


@dataclass(frozen=True)
class Participant:
    """A participant as the seating sees him: the nickname and the club of his account."""

    nickname: str
    club: str


@dataclass(frozen=True)
class SeatingInputs:
    """What the organiser asks of a seating."""

    stage: str
    """The stage (`qualifying`, `semifinal`, `final`)."""
    games: int
    """Games each player plays (G)."""
    tables: int | None = None
    """Tables in play at once; None: participants // 10."""
    seed: int = 0
    """The same seed and the same inputs give the same schedule."""
    avoid: tuple[tuple[str, ...], ...] = ()
    """Groups of nicknames (pairs, teams) to keep apart as much as possible."""
    keep_clubs_apart: bool = False
    """Also keep apart the members of each club (the accounts' `club` field)."""
    fixed_tables: Mapping[str, int] = field(default_factory=dict)
    """Nickname -> the table he sits at in every round he plays (a streamed table)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "avoid": [list(g) for g in self.avoid],
            "keep_clubs_apart": self.keep_clubs_apart,
            "fixed_tables": dict(self.fixed_tables),
        }


def participants(tournament: Tournament, stage: str = "qualifying") -> list[Participant]:
    """The participants a seating of `stage` draws: for a stage players advance into
    (semifinal, final) once its advance list is published, the advanced players still
    taking part, in the list's order; otherwise the approved participants in the order
    they were registered."""
    if stage != "qualifying" and is_advanced_into(tournament, stage):
        advanced = (
            Advancement.objects.filter(
                tournament=tournament,
                stage=stage,
                active=True,
                registration__status=Status.APPROVED,
            )
            .select_related("registration__user")
            .order_by("place", "id")
        )
        return [_participant(a.registration) for a in advanced]
    registrations = tournament.registrations.filter(status=Status.APPROVED).select_related("user")
    return [_participant(r) for r in registrations.order_by("created_at", "id")]


def _participant(registration: Any) -> Participant:
    user = registration.user
    return Participant(nickname=registration.nickname, club=(user.club.strip() if user else ""))


def is_advanced_into(tournament: Tournament, stage: str) -> bool:
    """True when the advance list into `stage` is published."""
    return Advancement.objects.filter(tournament=tournament, stage=stage).exists()


def planned_stage_without_list(tournament: Tournament, stage: str) -> bool:
    """True when the stage plan has players advance into `stage` and its advance list
    is not yet published (its seating has nobody to draw)."""
    plan = tournament.stage_plan or []
    planned = any(s.get("stage") == stage and s.get("players") for s in plan)
    return planned and not is_advanced_into(tournament, stage)


def not_checked_in(tournament: Tournament, day: int = 1) -> list[str]:
    """The participants who have not checked in for `day` (round 1 is played on day 1)."""
    registrations = tournament.registrations.filter(status=Status.APPROVED).exclude(
        checkins__day=day
    )
    return [r.nickname for r in registrations.order_by("created_at", "id")]


def club_groups(people: Sequence[Participant]) -> list[tuple[str, ...]]:
    """Clubs with two members or more among `people` (club names compared ignoring case)."""
    clubs: dict[str, list[str]] = {}
    for person in people:
        if person.club:
            clubs.setdefault(person.club.casefold(), []).append(person.nickname)
    return [tuple(members) for members in clubs.values() if len(members) > 1]


def default_tables(count: int) -> int:
    """Tables in play at once when none is given: one per full table of participants."""
    return max(1, count // TABLE_SIZE)


def next_seed(tournament: Tournament) -> int:
    """A seed no draft of the tournament used yet (one above the largest)."""
    largest = tournament.seating_drafts.aggregate(m=Max("seed"))["m"]
    return 1 if largest is None else largest + 1


def published_draft(tournament: Tournament, stage: str) -> SeatingDraft | None:
    """The published seating of a stage, if any."""
    return tournament.seating_drafts.filter(stage=stage, status=DraftStatus.PUBLISHED).first()
