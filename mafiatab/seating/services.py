"""Generating seating drafts and publishing one as the rounds and tables of a stage.

The schedule itself is made by the core (`mafiatab.core.seating.plan_seating`);
these services feed it the tournament's participants and store what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.seating import DEFAULT_TIME_LIMIT, SeatingError, plan_seating
from mafiatab.games.models import Round
from mafiatab.games.services import TablePlan, round_create
from mafiatab.registrations.models import Status
from mafiatab.seating.errors import translate_seating_error
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.tournaments.models import Tournament

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

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


def participants(tournament: Tournament) -> list[Participant]:
    """The approved participants in the order they were registered."""
    registrations = tournament.registrations.filter(status=Status.APPROVED).select_related("user")
    return [
        Participant(nickname=r.nickname, club=(r.user.club.strip() if r.user else ""))
        for r in registrations.order_by("created_at", "id")
    ]


def club_groups(people: Sequence[Participant]) -> list[tuple[str, ...]]:
    """Clubs with two members or more among `people` (club names compared ignoring case)."""
    clubs: dict[str, list[str]] = {}
    for person in people:
        if person.club:
            clubs.setdefault(person.club.casefold(), []).append(person.nickname)
    return [tuple(members) for members in clubs.values() if len(members) > 1]


def default_tables(count: int) -> int:
    """Tables in play at once when none is given: one per ten participants."""
    return max(1, count // 10)


def next_seed(tournament: Tournament) -> int:
    """A seed no draft of the tournament used yet (one above the largest)."""
    largest = tournament.seating_drafts.aggregate(m=Max("seed"))["m"]
    return 1 if largest is None else largest + 1


def seating_generate(
    *, tournament: Tournament, inputs: SeatingInputs, by: User | None
) -> SeatingDraft:
    """Plan a seating of the current participants and keep it as a draft.

    Raises ValidationError with the core's reason when the inputs admit no schedule.
    """
    people = participants(tournament)
    names = [p.nickname for p in people]
    groups = [frozenset(g) for g in inputs.avoid]
    if inputs.keep_clubs_apart:
        groups += [frozenset(g) for g in club_groups(people)]
    try:
        schedule = plan_seating(
            names,
            inputs.games,
            tables=inputs.tables,
            seed=inputs.seed,
            time_limit=getattr(settings, TIME_LIMIT_SETTING, DEFAULT_TIME_LIMIT),
            iterations=getattr(settings, ITERATIONS_SETTING, None),
            avoid=groups,
            fixed_tables=dict(inputs.fixed_tables),
        )
    except SeatingError as exc:
        raise ValidationError(
            _("This seating cannot be made: %(reason)s.")
            % {"reason": translate_seating_error(str(exc))}
        ) from None
    with transaction.atomic():
        draft = SeatingDraft.objects.create(
            tournament=tournament,
            stage=inputs.stage,
            games_per_player=schedule.games,
            tables=schedule.tables,
            seed=schedule.seed,
            options=inputs.to_json(),
            schedule=schedule.to_json(),
            metrics=schedule.metrics.to_json(),
            flags=list(schedule.flags),
            created_by=by,
        )
        tournament.log_action(
            "seating.generated",
            by=by,
            target=draft.get_stage_display(),
            after=_summary(draft),
        )
    return draft


def seating_regenerate(*, draft: SeatingDraft, by: User | None) -> SeatingDraft:
    """The same request as `draft` with a seed not used yet; the earlier draft stays."""
    options = draft.options
    inputs = SeatingInputs(
        stage=draft.stage,
        games=draft.games_per_player,
        tables=draft.tables,
        seed=next_seed(draft.tournament),
        avoid=tuple(tuple(g) for g in options.get("avoid", [])),
        keep_clubs_apart=bool(options.get("keep_clubs_apart", False)),
        fixed_tables={str(k): int(v) for k, v in options.get("fixed_tables", {}).items()},
    )
    return seating_generate(tournament=draft.tournament, inputs=inputs, by=by)


def _summary(draft: SeatingDraft) -> dict[str, Any]:
    metrics = draft.metrics
    return {
        "draft": draft.pk,
        "stage": draft.stage,
        "players": len(draft.players),
        "games": draft.games_per_player,
        "tables": draft.tables,
        "seed": draft.seed,
        "rounds": len(draft.rounds),
        "max_meetings": metrics.get("max_meetings"),
        "variance": metrics.get("variance"),
        "seat_balance_exact": metrics.get("seat_balance_exact"),
    }


def published_draft(tournament: Tournament, stage: str) -> SeatingDraft | None:
    """The published seating of a stage, if any."""
    return tournament.seating_drafts.filter(stage=stage, status=DraftStatus.PUBLISHED).first()


def _check_judges(draft: SeatingDraft, judges: Mapping[int, User | None]) -> dict[int, User | None]:
    numbers = sorted({int(t["table"]) for r in draft.rounds for t in r["tables"]})
    chosen = {n: judges.get(n) for n in numbers}
    seen: dict[int, int] = {}
    for number, judge in chosen.items():
        if judge is None:
            continue
        if judge.pk in seen:
            raise ValidationError(
                _("%(judge)s cannot judge tables %(a)d and %(b)d at the same time.")
                % {"judge": judge, "a": seen[judge.pk], "b": number}
            )
        seen[judge.pk] = number
    return chosen


def _check_participants(tournament: Tournament, draft: SeatingDraft) -> None:
    now = {p.nickname for p in participants(tournament)}
    planned = set(draft.players)
    if now == planned:
        return
    gone = sorted(planned - now)
    new = sorted(now - planned)
    parts = []
    if gone:
        parts.append(_("no longer participants: %(names)s") % {"names": ", ".join(gone)})
    if new:
        parts.append(_("not in this draft: %(names)s") % {"names": ", ".join(new)})
    raise ValidationError(
        _("The participants changed since this draft was generated (%(changes)s); generate again.")
        % {"changes": "; ".join(parts)}
    )


def seating_publish(
    *, draft: SeatingDraft, judges: Mapping[int, User | None], by: User | None
) -> SeatingDraft:
    """Publish a draft: every round with its tables and judges is created, or none is.

    `judges` maps a physical table number to its judge (None: none yet). Refused
    when a seating of the same stage is already published.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=draft.tournament_id)
        draft = SeatingDraft.objects.select_for_update().get(pk=draft.pk)
        already = published_draft(tournament, draft.stage)
        if already is not None:
            raise ValidationError(
                _(
                    "The %(stage)s seating is already published (seed %(seed)d); "
                    "it cannot be published twice."
                )
                % {"stage": already.get_stage_display(), "seed": already.seed}
            )
        _check_participants(tournament, draft)
        chosen = _check_judges(draft, judges)
        create_rounds(tournament=tournament, draft=draft, judges=chosen, by=by)
        draft.judges = {str(n): (j.nickname if j else "") for n, j in chosen.items()}
        draft.status = DraftStatus.PUBLISHED
        draft.published_at = timezone.now()
        draft.published_by = by
        draft.save()
        tournament.log_action(
            "seating.published",
            by=by,
            target=draft.get_stage_display(),
            after=_summary(draft) | {"judges": draft.judges},
        )
    return draft


def create_rounds(
    *,
    tournament: Tournament,
    draft: SeatingDraft,
    judges: Mapping[int, User | None],
    by: User | None,
) -> None:
    """Create the draft's rounds and tables in the games (inside the caller's transaction)."""
    taken = sorted(
        Round.objects.filter(
            tournament=tournament, stage=draft.stage, number__in=[r["round"] for r in draft.rounds]
        ).values_list("number", flat=True)
    )
    if taken:
        raise ValidationError(
            _("Rounds %(numbers)s of this stage already exist; the seating cannot create them.")
            % {"numbers": ", ".join(str(n) for n in taken)}
        )
    for rnd in draft.rounds:
        plans = [
            TablePlan(
                number=int(t["table"]),
                judge=judges.get(int(t["table"])),
                players=tuple(t["seats"]),
            )
            for t in rnd["tables"]
        ]
        try:
            round_create(
                tournament=tournament, stage=draft.stage, number=rnd["round"], tables=plans, by=by
            )
        except ValidationError as exc:
            raise ValidationError(
                [
                    _("Round %(n)d: %(error)s") % {"n": rnd["round"], "error": message}
                    for message in exc.messages
                ]
            ) from None
