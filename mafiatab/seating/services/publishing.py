"""Publishing a draft: every round of the stage with its tables and judges is created
in the games, or none is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.names import nickname_key
from mafiatab.core.roles import Stage
from mafiatab.core.seating import FORMAT
from mafiatab.core.seating import Round as CoreRound
from mafiatab.core.seating import Table as CoreTable
from mafiatab.core.seating.metrics import measure
from mafiatab.core.stages import plan_seating_problems
from mafiatab.games.models import Round
from mafiatab.games.services import TablePlan, is_judge_of, round_seat
from mafiatab.registrations.models import Registration
from mafiatab.registrations.selectors import seat_holders
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services.drafts import _summary
from mafiatab.seating.services.inputs import next_seed, participants, published_draft
from mafiatab.seating.services.notices import reseat_announce, seating_announce
from mafiatab.seating.services.reseating import is_reseat, published_reseat
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can
from mafiatab.tournaments.stages import plan_of

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


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


def judges_seated(draft: SeatingDraft, judges: Sequence[User]) -> dict[int, set[int]]:
    """For each physical table of the draft, the ids of those of `judges` who hold a
    seat at it in one of its rounds: none of them may judge it."""
    holders = seat_holders(draft.tournament_id)
    seated: dict[int, set[int]] = {}
    for rnd in draft.rounds:
        for table in rnd["tables"]:
            for nick in table["seats"]:
                key = nickname_key(nick)
                holder = holders.get(key) or Registration(nickname=nick, nickname_key=key)
                ids = {j.pk for j in judges if is_judge_of(j, holder)}
                if ids:
                    seated.setdefault(int(table["table"]), set()).update(ids)
    return seated


def _check_participants(tournament: Tournament, draft: SeatingDraft) -> None:
    now = {p.nickname for p in participants(tournament, draft.stage)}
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


def _check_plan(tournament: Tournament, draft: SeatingDraft) -> None:
    """A seating of a stage before the final gives each player the games the stage plan
    says (8.6 B counts the plan's): else refused, saying both."""
    plan = plan_of(tournament)
    if plan is None:
        return
    problems = plan_seating_problems(plan, {Stage(draft.stage): draft.games_per_player})
    if problems:
        raise ValidationError(
            _(
                "The stage plan gives each player %(planned)s games of this stage, this "
                "seating %(games)s: change the plan or generate a seating of %(planned)s games."
            )
            % {"planned": problems[0].params["value"], "games": draft.games_per_player}
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
        tournament = Tournament.objects.locked(draft.tournament_id)
        draft = SeatingDraft.objects.select_for_update().get(pk=draft.pk)
        already = published_draft(tournament, draft.stage)
        if is_reseat(draft):
            published_reseat(draft=draft, by=by)
            reseat_announce(tournament=tournament, draft=draft)
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
            _check_plan(tournament, draft)
            chosen = _check_judges(draft, judges)
            create_rounds(tournament=tournament, draft=draft, judges=chosen, by=by)
            seating_announce(tournament=tournament, draft=draft, judges=chosen)
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
    """Create the draft's rounds and tables in the games (inside the caller's
    transaction). A round made before without a table (to set its time first) is seated,
    its time, place and link kept; a round that already holds tables refuses the seating."""
    ensure_can(by, tournament, "publish_seating", "manage_rounds")
    taken = sorted(
        Round.objects.filter(
            tournament=tournament,
            stage=draft.stage,
            number__in=[r["round"] for r in draft.rounds],
            tables__isnull=False,
        )
        .values_list("number", flat=True)
        .distinct()
    )
    if taken:
        raise ValidationError(
            _(
                "Rounds %(numbers)s of this stage already hold tables; the seating cannot "
                "be published into them."
            )
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
            round_seat(
                tournament=tournament, stage=draft.stage, number=rnd["round"], tables=plans, by=by
            )
        except ValidationError as exc:
            raise ValidationError(
                [
                    _("Round %(n)d: %(error)s") % {"n": rnd["round"], "error": message}
                    for message in exc.messages
                ]
            ) from None


def seating_from_rounds(*, tournament: Tournament, by: User | None) -> list[SeatingDraft]:
    """Publish, for each stage that has rounds but no published seating (a tournament
    file's), the seating its tables hold, so the seating pages and the printables show
    the rounds as they were played."""
    ensure_can(by, tournament, "publish_seating", console=True)
    order = {p.nickname: n for n, p in enumerate(participants(tournament))}
    rows = (
        Round.objects.filter(tournament=tournament)
        .prefetch_related("tables__seats__registration")
        .order_by("number")
    )
    stages: dict[str, list[CoreRound]] = {}
    for row in rows:
        tables = tuple(
            CoreTable(table=t.number, seats=tuple(s.player for s in t.seats.all()))
            for t in sorted(row.tables.all(), key=lambda t: t.number)
        )
        stages.setdefault(row.stage, []).append(CoreRound(round=row.number, tables=tables))
    published: list[SeatingDraft] = []
    with transaction.atomic():
        for stage, rounds in stages.items():
            if published_draft(tournament, stage) is not None:
                continue
            played: dict[str, int] = {}
            for rnd in rounds:
                for name in rnd.players():
                    played[name] = played.get(name, 0) + 1
            players = sorted(played, key=lambda name: (order.get(name, len(order)), name))
            games = max(played.values(), default=0)
            tables = max((len(r.tables) for r in rounds), default=0)
            metrics = measure(players, rounds, games=games, tables=tables)
            now = timezone.now()
            draft = SeatingDraft.objects.create(
                tournament=tournament,
                stage=stage,
                games_per_player=games,
                tables=tables,
                seed=next_seed(tournament),
                options={},
                schedule={
                    "format": FORMAT,
                    "players": players,
                    "rounds": [r.to_json() for r in rounds],
                    "metrics": metrics.to_json(),
                    "flags": [],
                },
                metrics=metrics.to_json(),
                status=DraftStatus.PUBLISHED,
                created_by=by,
                published_at=now,
                published_by=by,
            )
            tournament.log_action(
                "seating.published",
                by=by,
                target=draft.get_stage_display(),
                after=_summary(draft) | {"judges": draft.judges},
            )
            published.append(draft)
    return published
