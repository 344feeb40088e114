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

from mafiatab.core.seating import DEFAULT_TIME_LIMIT, TABLE_SIZE, SeatingError, plan_seating
from mafiatab.core.seating import Round as CoreRound
from mafiatab.core.seating import Table as CoreTable
from mafiatab.games.models import GameStatus, Round
from mafiatab.games.services import TablePlan, reseat_table, round_create
from mafiatab.registrations.models import Status
from mafiatab.seating.errors import translate_seating_error
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

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


def seating_generate(
    *, tournament: Tournament, inputs: SeatingInputs, by: User | None
) -> SeatingDraft:
    """Plan a seating of the current participants and keep it as a draft.

    Raises ValidationError with the core's reason when the inputs admit no schedule.
    """
    ensure_can(by, tournament, "generate_seating")
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
            _("This seating cannot be made: %(reason)s.") % {"reason": translate_seating_error(exc)}
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
            flags=[flag.to_json() for flag in schedule.flags],
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
    ensure_can(by, draft.tournament, "generate_seating")
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
    ensure_can(by, draft.tournament, "publish_seating")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=draft.tournament_id)
        draft = SeatingDraft.objects.select_for_update().get(pk=draft.pk)
        already = published_draft(tournament, draft.stage)
        if is_reseat(draft):
            published_reseat(draft=draft, by=by)
        elif already is not None:
            raise ValidationError(
                _(
                    "The %(stage)s seating is already published (seed %(seed)d); "
                    "it cannot be published twice."
                )
                % {"stage": already.get_stage_display(), "seed": already.seed}
            )
        if is_reseat(draft):
            chosen = {int(t): None for t in draft.judges}
        else:
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
    ensure_can(by, tournament, "publish_seating", "manage_rounds")
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


# --- re-seating after a replacement ------------------------------------------------------


def _stage_rounds(tournament: Tournament, stage: str) -> list[Round]:
    return list(
        Round.objects.filter(tournament=tournament, stage=stage)
        .prefetch_related("tables__seats__registration", "tables__game")
        .order_by("number")
    )


def _core_round(round_: Round) -> CoreRound:
    return CoreRound(
        round=round_.number,
        tables=tuple(
            CoreTable(table=t.number, seats=tuple(s.player for s in t.seats.all()))
            for t in sorted(round_.tables.all(), key=lambda t: t.number)
        ),
    )


def _is_started(round_: Round) -> bool:
    """A round somebody has written a protocol of (anything past the created draft)."""
    games = [t.game for t in round_.tables.all() if hasattr(t, "game")]
    return any(g.status != GameStatus.DRAFT or g.version > 1 for g in games)


def played_rounds(tournament: Tournament, stage: str, *, at_least: int = 0) -> int:
    """The number of the last round of `stage` that is played or being played: the
    latest with a protocol written, and at least `at_least` (a replacement's round)."""
    started = [r.number for r in _stage_rounds(tournament, stage) if _is_started(r)]
    return max([at_least, *started])


def is_reseat(draft: SeatingDraft) -> bool:
    """A draft that re-seats the rounds not yet played of a published seating."""
    return "reseat_of" in draft.options


def seating_reseat(
    *, tournament: Tournament, stage: str = "qualifying", by: User | None, at_least: int = 0
) -> SeatingDraft | None:
    """Plan again every round of `stage` not yet played, the played rounds kept as they
    were (with their replacements), and keep it as a draft to publish. Each reserve who
    replaced a participant plays the games that participant had left (the core's
    `replacements`). None when the stage has no published seating.

    Raises ValidationError with the core's reason when no seating can be made."""
    ensure_can(by, tournament, "replace_player", "generate_seating")
    from mafiatab.registrations.models import Replacement

    published = published_draft(tournament, stage)
    if published is None:
        return None
    last = played_rounds(tournament, stage, at_least=at_least)
    fixed = [_core_round(r) for r in _stage_rounds(tournament, stage) if r.number <= last]
    replaced = {
        r.reserve.nickname: r.absent.nickname
        for r in Replacement.objects.filter(tournament=tournament, round__lte=last)
        .exclude(reserve=None)
        .select_related("reserve", "absent")
    }
    seated_before = {name for rnd in fixed for name in rnd.players()}
    # a reserve inherits the games the replaced participant played (the core's
    # `replacements`); one replaced in his first game simply plays on in his place
    inherit = {new: old for new, old in replaced.items() if old in seated_before}
    gone = set(replaced.values())
    names = [p.nickname for p in participants(tournament) if p.nickname not in gone]
    names += [reserve for reserve in replaced if reserve not in names]
    options = published.options
    known = set(names)
    avoid = [frozenset(n for n in g if n in known) for g in options.get("avoid", [])]
    try:
        schedule = plan_seating(
            names,
            published.games_per_player,
            tables=published.tables,
            seed=next_seed(tournament),
            time_limit=getattr(settings, TIME_LIMIT_SETTING, DEFAULT_TIME_LIMIT),
            iterations=getattr(settings, ITERATIONS_SETTING, None),
            avoid=[g for g in avoid if len(g) > 1],
            fixed_tables={
                str(k): int(v) for k, v in options.get("fixed_tables", {}).items() if k in known
            },
            fixed_rounds=fixed,
            replacements=inherit,
        )
    except SeatingError as exc:
        raise ValidationError(
            _("This seating cannot be made: %(reason)s.") % {"reason": translate_seating_error(exc)}
        ) from None
    with transaction.atomic():
        draft = SeatingDraft.objects.create(
            tournament=tournament,
            stage=stage,
            games_per_player=schedule.games,
            tables=schedule.tables,
            seed=schedule.seed,
            options=dict(options)
            | {"reseat_of": published.pk, "fixed_rounds": last, "replacements": replaced},
            schedule=schedule.to_json(),
            metrics=schedule.metrics.to_json(),
            flags=[flag.to_json() for flag in schedule.flags],
            judges=dict(published.judges),
            created_by=by,
        )
        tournament.log_action(
            "seating.reseated",
            by=by,
            target=draft.get_stage_display(),
            after=_summary(draft) | {"fixed_rounds": last, "replacements": replaced},
        )
    return draft


def _reseat_rounds(*, tournament: Tournament, draft: SeatingDraft, by: User | None) -> None:
    """Make the rounds after the draft's fixed ones hold its tables (inside the caller's
    transaction): a round not made yet is created, an existing one is seated again as
    long as nobody has written a protocol in it."""
    fixed = int(draft.options["fixed_rounds"])
    existing = {r.number: r for r in _stage_rounds(tournament, draft.stage)}
    judges = {int(t): j for t, j in draft.judges.items()}
    for rnd in draft.rounds:
        number = int(rnd["round"])
        if number <= fixed:
            continue
        plans = {int(t["table"]): tuple(t["seats"]) for t in rnd["tables"]}
        round_ = existing.get(number)
        if round_ is None:
            staff = _judges_by_nickname(tournament)
            round_create(
                tournament=tournament,
                stage=draft.stage,
                number=number,
                tables=[
                    TablePlan(number=t, judge=staff.get(judges.get(t, "")), players=seats)
                    for t, seats in sorted(plans.items())
                ],
                by=by,
            )
            continue
        if _is_started(round_):
            raise ValidationError(
                _("Round %(n)d has begun; publish a seating made after it.") % {"n": number}
            )
        tables = {t.number: t for t in round_.tables.all()}
        if set(tables) != set(plans):
            raise ValidationError(
                _("Round %(n)d has other tables than this seating; it cannot be seated again.")
                % {"n": number}
            )
        for table_number, seats in plans.items():
            reseat_table(table=tables[table_number], players=seats, by=by)


def _judges_by_nickname(tournament: Tournament) -> dict[str, User]:
    return {
        m.user.nickname: m.user
        for m in tournament.staff_members.select_related("user")
        if m.user.nickname
    }


def published_reseat(*, draft: SeatingDraft, by: User | None) -> SeatingDraft:
    """Publish a re-seating (inside the caller's transaction): the rounds not yet played
    follow it and it takes the place of the seating it re-seats (which goes back to
    the drafts, keeping its publication date)."""
    ensure_can(by, draft.tournament, "publish_seating")
    current = published_draft(draft.tournament, draft.stage)
    if current is None or current.pk != draft.options.get("reseat_of"):
        raise ValidationError(
            _("The published seating changed since this re-seating was made; make it again.")
        )
    _reseat_rounds(tournament=draft.tournament, draft=draft, by=by)
    current.status = DraftStatus.DRAFT
    current.save(update_fields=["status"])
    return current
