"""Re-seating after a replacement: the rounds not yet played are planned again (the
played ones kept), and publishing such a draft seats those rounds again.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mafiatab.core.seating import Round as CoreRound
from mafiatab.core.seating import StandIn
from mafiatab.core.seating import Table as CoreTable
from mafiatab.games.models import GameStatus, Round
from mafiatab.games.services import TablePlan, reseat_table, round_seat
from mafiatab.registrations.models import Replacement, ReplacementScope
from mafiatab.seating.models import DraftStatus, SeatingDraft
from mafiatab.seating.services.drafts import _new_draft, _plan
from mafiatab.seating.services.inputs import next_seed, participants, published_draft
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


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


#: The protocol versions that only seat people (made by the seating, a replacement or
#: a change of judge): a game with only those has not been played yet.
SEATING_VERSIONS = ("created", "replaced", "reseated", "judge")


def _is_played(round_: Round) -> bool:
    """A round somebody has written a protocol of, by his own hand (a reserve seated
    in a round is no game played)."""
    games = [t.game for t in round_.tables.all() if hasattr(t, "game")]
    return any(
        g.status != GameStatus.DRAFT or g.versions.exclude(action__in=SEATING_VERSIONS).exists()
        for g in games
    )


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
    replaced a participant for the rest of the tournament plays the games that
    participant had left (the core's `replacements`); a participant replaced for one
    round keeps his later rounds, that round's game counted as his (the core's
    `stand_ins`). None when the stage has no published seating.

    Raises ValidationError with the core's reason when no seating can be made."""
    ensure_can(by, tournament, "replace_player", "generate_seating")
    published = published_draft(tournament, stage)
    if published is None:
        return None
    last = played_rounds(tournament, stage, at_least=at_least)
    played = max(
        [
            0,
            *(
                r.number
                for r in _stage_rounds(tournament, stage)
                if r.number <= last and _is_played(r)
            ),
        ]
    )
    fixed = [_core_round(r) for r in _stage_rounds(tournament, stage) if r.number <= last]
    made = list(
        Replacement.objects.filter(tournament=tournament, round__lte=last)
        .exclude(reserve=None)
        .select_related("reserve", "absent")
    )
    replaced = {
        r.reserve.nickname: r.absent.nickname for r in made if r.scope == ReplacementScope.REST
    }
    seated = {(rnd.round, name) for rnd in fixed for name in rnd.players()}
    stand_ins = [
        StandIn(round=r.round, reserve=r.reserve.nickname, player=r.absent.nickname)
        for r in made
        if r.scope != ReplacementScope.REST and (r.round, r.reserve.nickname) in seated
    ]
    seated_before = {name for _, name in seated} | {s.player for s in stand_ins}
    # a reserve inherits the games the replaced participant played (the core's
    # `replacements`); one replaced in his first game simply plays on in his place
    inherit = {new: old for new, old in replaced.items() if old in seated_before}
    gone = set(replaced.values())
    names = [p.nickname for p in participants(tournament, stage) if p.nickname not in gone]
    names += [reserve for reserve in replaced if reserve not in names]
    options = published.options
    known = set(names)
    avoid = [frozenset(n for n in g if n in known) for g in options.get("avoid", [])]
    schedule = _plan(
        names,
        published.games_per_player,
        tables=published.tables,
        seed=next_seed(tournament),
        avoid=[g for g in avoid if len(g) > 1],
        fixed_tables={
            str(k): int(v) for k, v in options.get("fixed_tables", {}).items() if k in known
        },
        fixed_rounds=fixed,
        replacements=inherit,
        stand_ins=stand_ins,
    )
    return _new_draft(
        tournament=tournament,
        stage=stage,
        schedule=schedule,
        options=dict(options)
        | {
            "reseat_of": published.pk,
            "fixed_rounds": last,
            # of the kept rounds, those played (the others are kept as seated, with
            # the replacement's reserve: his first round)
            "played_rounds": played,
            "replacements": replaced,
            "stand_ins": [asdict(s) for s in stand_ins],
        },
        by=by,
        action="seating.reseated",
        judges=published.judges,
        noted={"fixed_rounds": last, "played_rounds": played, "replacements": replaced},
    )


def _reseat_rounds(*, tournament: Tournament, draft: SeatingDraft, by: User | None) -> None:
    """Make the rounds after the draft's fixed ones hold its tables (inside the caller's
    transaction): a round not made yet is created (one without tables yet, made to set
    its time, gets them), an existing one is seated again as
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
        if round_ is None or not round_.tables.exists():  # none yet, or made to set its time
            staff = _judges_by_nickname(tournament)
            round_seat(
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
