"""Advancing players into the next stage (stages.md): the draft advance list made by
the core from the standings, what blocks it, publishing it and swapping a player who
withdraws for the next in line. Every write is audited and runs under the
tournament's row lock, so a second organiser doing the same is told, never served a
half-made list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from mafiatab.core.advancing import AdvanceEntry, AdvanceList, advance
from mafiatab.core.roles import Stage
from mafiatab.core.standings import Standings
from mafiatab.games.models import STAGE_CHOICES, Game, GameStatus, ProtestStatus, Round
from mafiatab.registrations.models import Advancement, Registration, Status
from mafiatab.seating.models import DraftStatus
from mafiatab.standings.services import standings_snapshot
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can
from mafiatab.tournaments.stages import plan_of

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


#: The remarks of candidates who take no place (the next in line skips them).
SKIPPED = ("advance.withdrawn", "advance.removed")


def stage_name(stage: str) -> str:
    """A stage's name in the active language."""
    return str(dict(STAGE_CHOICES).get(stage, stage))


@dataclass(frozen=True)
class Blocker:
    """A game of the stage before that keeps the advance list from being made."""

    label: str
    """The game's label."""
    reason: str
    """Why, in the active language (not confirmed, under protest)."""


def stage_blockers(tournament: Tournament, stage: str) -> list[Blocker]:
    """The games of `stage` not yet confirmed or under an open protest, named, in
    the order they were played (a game marked replayed is superseded and counts
    through its replay)."""
    games = Game.objects.filter(tournament=tournament, stage=stage, replayed=False)
    found: list[Blocker] = []
    protested = set(games.filter(protests__status=ProtestStatus.OPEN).values_list("pk", flat=True))
    for game in games.order_by("position"):
        if game.status != GameStatus.CONFIRMED:
            found.append(
                Blocker(
                    game.label,
                    _("its protocol is %(status)s") % {"status": game.get_status_display()},
                )
            )
        elif game.pk in protested:
            found.append(Blocker(game.label, _("a protest against it awaits decision")))
    return found


# --- the advance list ------------------------------------------------------------------


@dataclass(frozen=True)
class AdvanceDraft:
    """The advance list of a stage as it stands now (the core's), with what blocks it."""

    list: AdvanceList
    """The core's advance list: every candidate with his rank, total, whether he
    advances and the remarks."""
    blockers: tuple[Blocker, ...]
    """Games of the stage before that keep the list from being published."""

    @property
    def into(self) -> str:
        return self.list.into.value

    @property
    def source(self) -> str:
        return self.list.source.value

    @property
    def places(self) -> int:
        return self.list.places

    @property
    def rows(self) -> tuple[AdvanceEntry, ...]:
        return self.list.entries

    @property
    def advancing(self) -> list[str]:
        return list(self.list.advanced)


def next_stages(tournament: Tournament) -> list[tuple[str, str, int]]:
    """The stages players advance into, by the plan: (from, into, players)."""
    plan = plan_of(tournament)
    if plan is None:
        return []
    found = []
    for spec in plan.stages:
        before = plan.previous_stage(spec.stage)
        if before is not None and spec.players:
            found.append((before.value, spec.stage.value, spec.players))
    return found


def _check_stage(tournament: Tournament, into: str) -> None:
    if into not in {stage for _source, stage, _players in next_stages(tournament)}:
        raise ValidationError(
            _("The stage plan has no %(stage)s that players advance into.")
            % {"stage": stage_name(into)}
        )


def full_standings(tournament: Tournament) -> Standings:
    """The official standings with every point, the judges' extras a stage hides from
    the public included (the shared standings leave them out until the tournament is
    closed): the cut is made on the true points."""
    return standings_snapshot(tournament=tournament, full=True).standings


def advance_draft(tournament: Tournament, into: str) -> AdvanceDraft:
    """The advance list into `into` as the core makes it from the official standings
    now (withdrawn and removed players skipped, with that remark), and the games of
    the stage before that block it."""
    _check_stage(tournament, into)
    statuses = Registration.objects.filter(
        tournament=tournament, status__in=(Status.WITHDRAWN, Status.REMOVED)
    ).values_list("nickname", "status")
    withdrawn = {nick for nick, status in statuses if status == Status.WITHDRAWN}
    removed = {nick for nick, status in statuses if status == Status.REMOVED}
    made = advance(full_standings(tournament), Stage(into), withdrawn=withdrawn, removed=removed)
    return AdvanceDraft(list=made, blockers=tuple(stage_blockers(tournament, made.source.value)))


def published(tournament: Tournament, into: str) -> list[Advancement]:
    """The published advance list into `into` (swapped-out rows included), by place."""
    return list(
        Advancement.objects.filter(tournament=tournament, stage=into)
        .select_related("registration", "replaces__registration")
        .order_by("place", "id")
    )


def _registrations(tournament: Tournament, names: list[str]) -> dict[str, Registration]:
    rows = Registration.objects.filter(
        tournament=tournament, nickname__in=names, status=Status.APPROVED
    )
    return {r.nickname: r for r in rows}


@transaction.atomic
def advance_publish(*, tournament: Tournament, into: str, by: User) -> list[Advancement]:
    """Publish the advance list into `into`: the advancing players are recorded (the
    only participants the stage's seating draws) and the list is on the record.
    Refused while a game of the stage before is unconfirmed or under protest (named),
    and when the list is already published (a second organiser is told)."""
    ensure_can(by, tournament, "advance_players")
    tournament = Tournament.objects.locked(tournament)
    if Advancement.objects.filter(tournament=tournament, stage=into).exists():
        raise ValidationError(
            _("The advance list of the %(stage)s is already published.")
            % {"stage": stage_name(into)}
        )
    draft = advance_draft(tournament, into)
    if draft.blockers:
        raise ValidationError(blocker_messages(draft))
    if not draft.rows:
        raise ValidationError(
            _("Nobody has played the %(stage)s yet.") % {"stage": stage_name(draft.source)}
        )
    names = draft.advancing
    registrations = _registrations(tournament, names)
    rows = [
        Advancement.objects.create(
            tournament=tournament,
            stage=into,
            registration=registrations[name],
            place=place,
            by=by,
        )
        for place, name in enumerate(names, start=1)
        if name in registrations
    ]
    tournament.log_action(
        "stages.advance.published",
        by=by,
        target=stage_name(into),
        after={"stage": into, "advanced": names},
    )
    tournament.standings_changed()
    return rows


def is_seated(tournament: Tournament, stage: str) -> bool:
    """Whether `stage` has rounds or a published seating: its players are drawn."""
    return (
        Round.objects.filter(tournament=tournament, stage=stage).exists()
        or tournament.seating_drafts.filter(stage=stage, status=DraftStatus.PUBLISHED).exists()
    )


@transaction.atomic
def advance_withdraw(*, tournament: Tournament, into: str, by: User) -> None:
    """Take back the published advance list into `into` (published by mistake, or
    before a protocol changed): it is a draft again, to publish anew. Audited with the
    players it named; refused once a round of the stage exists (its tables are drawn
    from the list), and when nothing is published (a second organiser is told)."""
    ensure_can(by, tournament, "advance_players")
    tournament = Tournament.objects.locked(tournament)
    rows = Advancement.objects.filter(tournament=tournament, stage=into)
    names = list(rows.filter(active=True).values_list("registration__nickname", flat=True))
    if not rows.exists():
        raise ValidationError(
            _("The advance list of the %(stage)s is not published.") % {"stage": stage_name(into)}
        )
    if is_seated(tournament, into):
        raise ValidationError(
            _(
                "The %(stage)s is seated already: its advance list can no longer be taken "
                "back (replace a player by the next in line instead)."
            )
            % {"stage": stage_name(into)}
        )
    rows.update(replaces=None)  # a swap points at the row it replaced
    rows.delete()
    tournament.log_action(
        "stages.advance.withdrawn",
        by=by,
        target=stage_name(into),
        before={"stage": into, "advanced": names},
    )
    tournament.standings_changed()


def blocker_messages(draft: AdvanceDraft) -> list[str]:
    """Why the list cannot be published yet, one line per game."""
    head = _("Every game of the %(stage)s must be confirmed first.") % {
        "stage": stage_name(draft.source)
    }
    return [head] + [f"{b.label}: {b.reason}" for b in draft.blockers]


@transaction.atomic
def advance_swap(*, tournament: Tournament, into: str, player: str, by: User) -> Advancement:
    """Replace `player`, who advanced into `into`, by the next in line of the advance
    list (the best candidate not advanced who still takes part). Audited; refused once
    a game of the stage is confirmed, and when `player` is no longer advanced (a
    second organiser who swapped him already is told)."""
    ensure_can(by, tournament, "advance_players")
    tournament = Tournament.objects.locked(tournament)
    out = (
        Advancement.objects.filter(
            tournament=tournament, stage=into, active=True, registration__nickname=player
        )
        .select_related("registration")
        .first()
    )
    if out is None:
        raise ValidationError(
            _("%(player)s is not among the players advanced into the %(stage)s.")
            % {"player": player, "stage": stage_name(into)}
        )
    if Game.objects.filter(tournament=tournament, stage=into, status=GameStatus.CONFIRMED).exists():
        raise ValidationError(
            _("A game of the %(stage)s is already confirmed: its players can no longer change.")
            % {"stage": stage_name(into)}
        )
    listed = set(
        Advancement.objects.filter(tournament=tournament, stage=into).values_list(
            "registration__nickname", flat=True
        )
    )
    draft = advance_draft(tournament, into)
    waiting = [
        e.player
        for e in draft.rows
        if e.player not in listed and not any(r.code in SKIPPED for r in e.remarks)
    ]
    registrations = _registrations(tournament, waiting)
    following = next((name for name in waiting if name in registrations), None)
    if following is None:
        raise ValidationError(_("Nobody is left in line to take his place."))
    out.active = False
    out.save(update_fields=["active"])
    place = max(a.place for a in Advancement.objects.filter(tournament=tournament, stage=into))
    row = Advancement.objects.create(
        tournament=tournament,
        stage=into,
        registration=registrations[following],
        place=place + 1,
        replaces=out,
        by=by,
    )
    tournament.log_action(
        "stages.advance.swapped",
        by=by,
        target=stage_name(into),
        before={"out": player},
        after={"in": following, "stage": into},
    )
    tournament.standings_changed()
    return row
