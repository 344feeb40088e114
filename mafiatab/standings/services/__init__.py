"""Standings of stored tournaments: computed by the core once per change, then shared.

Every service that changes what the standings are computed from (protocols, protests,
replays, penalties, imports) calls `tournament.standings_changed()`, which raises the
tournament's `standings_version`. The standings of a version, every player's
explanation and the rendered tables are kept in Django's cache framework under keys
that name that state of the database (`live_state`): whatever process computed them,
every other one reuses them, and none can serve a state older than the one it has
just read (see `mafiatab.standings.cache`). Only when they are missing does the core
compute the standings; the explanations are computed when a player's page first
asks for them, for every player at once.

Official standings count confirmed protocols only; provisional ones count submitted
protocols too. The organiser may hide the standings from the public or freeze them
(the public then sees them as they were when frozen; the staff still see them live).
Frozen standings are no cache: they are stored (`StandingsSnapshot`, with every
player's explanation) when the organiser freezes them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from mafiatab.core.roles import Stage
from mafiatab.core.stages import StagePlan
from mafiatab.core.standings import Standings, compute_standings
from mafiatab.games.models import Game
from mafiatab.notifications.services import notify
from mafiatab.registrations.models import SEATED_STATUSES
from mafiatab.standings import cache
from mafiatab.standings.conversion import (
    AsOf,
    Explanation,
    GameEntry,
    Snapshot,
    as_of,
    explanation_from_data,
    explanation_to_data,
    explanations_of,
    scoring_from_data,
    scoring_input,
    scoring_to_data,
    standings_from_data,
    standings_to_data,
)
from mafiatab.standings.inputs import scoring_settings
from mafiatab.standings.models import PlayerExplanation, StandingsSnapshot
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

__all__ = [
    "AsOf",
    "Explanation",
    "GameEntry",
    "Shown",
    "Snapshot",
    "live_state",
    "player_explanation",
    "standings_freeze",
    "standings_from_data",
    "standings_set_hidden",
    "standings_snapshot",
    "standings_to_data",
    "standings_unfreeze",
    "tournament_standings",
    "viewer_standings",
    "viewer_token",
]

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


# --- the version ---------------------------------------------------------------------


#: The layout of stored snapshots; a new layout makes the old snapshots stale.
SNAPSHOT_FORMAT = 3

#: The tournament's fields that name the state its live standings are computed from.
STATE_FIELDS = (
    "id",
    "created_at",
    "name",
    "standings_version",
    "ruleset",
    "participants",
    "games_before_final",
    "lot_seed",
    "stage_plan",
    "closed_at",
)


def inputs_key(ruleset: str, participants: Any, games_before_final: Any, lot_seed: Any) -> str:
    """The tournament's own scoring settings as text, part of a snapshot's key (an edit
    that bypasses the services, in the admin, still gets new standings)."""
    return f"{SNAPSHOT_FORMAT}|{ruleset}|{participants}|{games_before_final}|{lot_seed}"


def _inputs(tournament: Tournament) -> str:
    return inputs_key(
        tournament.ruleset,
        tournament.participants,
        tournament.games_before_final,
        tournament.lot_seed,
    )


def stamp(value: dt.datetime | str) -> str:
    """A moment as text, the same from every database and query."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        raise ValueError(f"not a timestamp: {value!r}")
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=dt.UTC)
    return f"{moment.timestamp():.6f}"


def live_state(tournament: Tournament) -> str:
    """Names the state of the database the tournament's live standings are computed
    from: the tournament (its id and creation time, so that a reused id is another
    one), its `standings_version` and its scoring settings."""
    inputs = hashlib.blake2b(_inputs(tournament).encode(), digest_size=6).hexdigest()
    created = stamp(tournament.created_at)
    return f"{tournament.pk}-{created}-{tournament.standings_version}-{inputs}"


# --- computing -------------------------------------------------------------------------


def _current(tournament: Tournament) -> Tournament:
    """The tournament's scoring state as the database has it now (the object at hand
    may have been read before the latest change)."""
    return Tournament.objects.only(*STATE_FIELDS).get(pk=tournament.pk)


def _hides_extras(tournament: Tournament) -> bool:
    """Whether the public's standings leave out judges' extras that the staff's count:
    a stage of the plan hides them and the tournament is not closed."""
    if tournament.closed_at is not None or tournament.stage_plan is None:
        return False
    return any(spec.hide_extras for spec in StagePlan.parse(tournament.stage_plan).stages)


def _live_key(tournament: Tournament, provisional: bool, full: bool) -> str:
    return cache.key("live", live_state(tournament), int(provisional), *(("full",) if full else ()))


def _compute(tournament: Tournament, *, provisional: bool, full: bool = False) -> Snapshot:
    """The core's standings of the tournament's state (read before its protocols, so
    that what is computed is never older than the state it is kept under)."""
    core = scoring_input(tournament, provisional=provisional, full=full)
    return Snapshot(
        key=_live_key(tournament, provisional, full),
        tournament_id=tournament.pk,
        version=tournament.standings_version,
        provisional=provisional,
        computed_at=timezone.now(),
        standings=compute_standings(core),
        as_of=as_of(core),
        games=sum(1 for g in core.games if g.is_counted()),
        full=full,
    )


def _named(snapshot: Snapshot, tournament: Tournament) -> Snapshot:
    """The snapshot under the tournament's current name (a rename changes no point)."""
    if snapshot.standings.tournament == tournament.name:
        return snapshot
    return replace(snapshot, standings=replace(snapshot.standings, tournament=tournament.name))


def standings_snapshot(
    *, tournament: Tournament, provisional: bool = False, full: bool = False
) -> Snapshot:
    """The live standings of the tournament with their version, round and time: the
    public's, or with `full` the staff's (every judges' extra counted; the same as the
    public's unless a stage hides them from the public, see `_hides_extras`)."""
    current = _current(tournament)
    full = full and _hides_extras(current)
    name = _live_key(current, provisional, full)
    snapshot = cache.get_or_compute(
        name, lambda: _compute(current, provisional=provisional, full=full)
    )
    return _named(snapshot, tournament)


def tournament_standings(tournament: Tournament, *, provisional: bool = False) -> Standings:
    """The live standings of a stored tournament, as the core computes them.

    Computed once per change of the scoring inputs (see `Tournament.standings_changed`)
    and shared by every process. Not filtered by visibility: pages and the public API
    that show them to anyone use `viewer_standings`.
    """
    return standings_snapshot(tournament=tournament, provisional=provisional).standings


# --- explanations ----------------------------------------------------------------------


def _explain(
    tournament: Tournament, *, provisional: bool, full: bool = False
) -> dict[str, Explanation]:
    core = scoring_input(tournament, provisional=provisional, full=full)
    game_pks = dict(Game.objects.filter(tournament_id=tournament.pk).values_list("label", "pk"))
    return explanations_of(core, game_pks)


def _explained_live(snapshot: Snapshot) -> dict[str, Explanation]:
    """Every player's explanation at the tournament's current state, kept under the
    names of `snapshot`'s state (the same one, or a newer one after a change)."""
    current = Tournament.objects.only(*STATE_FIELDS).get(pk=snapshot.tournament_id)
    explained = _explain(current, provisional=snapshot.provisional, full=snapshot.full)
    cache.put_many({cache.key(snapshot.key, "x", p): e for p, e in explained.items()})
    cache.put(cache.key(snapshot.key, "players"), frozenset(explained))
    return explained


def _stored_explanation(snapshot: Snapshot, player: str) -> Explanation | None:
    data = (
        PlayerExplanation.objects.filter(snapshot_id=snapshot.stored, player=player)
        .values_list("data", flat=True)
        .first()
    )
    return None if data is None else explanation_from_data(player, data)


def player_explanation(*, snapshot: Snapshot, player: str) -> Explanation | None:
    """Every line of `player`'s points in the snapshot; None for a player who played no game."""
    name = cache.key(snapshot.key, "x", player)
    found = cache.get(name)
    if found is not None:
        return found  # type: ignore[no-any-return]
    if snapshot.stored is not None:
        found = _stored_explanation(snapshot, player)
        return None if found is None else cache.put(name, found)  # type: ignore[no-any-return]
    players = cache.get(cache.key(snapshot.key, "players"))
    if players is not None and player not in players:
        return None
    return _explained_live(snapshot).get(player)


# --- frozen standings ------------------------------------------------------------------


def _frozen_state(tournament: Tournament) -> str:
    frozen_at = tournament.standings_frozen_at
    moment = stamp(frozen_at) if frozen_at is not None else "0"
    created = stamp(tournament.created_at)
    return f"{tournament.pk}-{created}-{tournament.standings_frozen_version}-{moment}"


def _stored(tournament: Tournament, provisional: bool) -> Snapshot | None:
    row = (
        StandingsSnapshot.objects.filter(
            tournament_id=tournament.pk,
            provisional=provisional,
            version=tournament.standings_frozen_version,
        )
        .order_by("-pk")
        .first()
    )
    if row is None:
        return None
    data = row.data
    latest = AsOf(Stage(data["as_of"][0]), data["as_of"][1]) if data.get("as_of") else None
    return Snapshot(
        key=cache.key("frozen", row.pk, stamp(row.computed_at)),
        tournament_id=tournament.pk,
        version=row.version,
        provisional=row.provisional,
        computed_at=row.computed_at,
        standings=standings_from_data(data),
        as_of=latest,
        games=data.get("games", 0),
        stored=row.pk,
        scoring=scoring_from_data(data.get("scoring")),
    )


def frozen_snapshot(*, tournament: Tournament, provisional: bool = False) -> Snapshot | None:
    """The standings as they were when frozen (None when they are not frozen)."""
    if tournament.standings_frozen_version is None:
        return None
    name = cache.key("frozen", _frozen_state(tournament), int(provisional))
    snapshot = cache.get(name)
    if snapshot is None:
        snapshot = _stored(tournament, provisional)
        if snapshot is None:
            return None
        cache.put(name, snapshot)
    return _named(snapshot, tournament)


def _store_frozen(tournament: Tournament, provisional: bool, now: dt.datetime) -> int:
    """Store the standings of the tournament's current state with every player's
    explanation, for the public to see while they are frozen; returns the version."""
    current = _current(tournament)
    core = scoring_input(current, provisional=provisional)
    standings = compute_standings(core)
    latest = as_of(core)
    data = standings_to_data(standings) | {
        "as_of": [latest.stage.value, latest.round] if latest else None,
        "games": sum(1 for g in core.games if g.is_counted()),
        "scoring": scoring_to_data(scoring_settings(current)),
    }

    game_pks = dict(Game.objects.filter(tournament_id=current.pk).values_list("label", "pk"))
    explained = explanations_of(core, game_pks)
    row = StandingsSnapshot.objects.create(
        tournament_id=current.pk,
        version=current.standings_version,
        provisional=provisional,
        inputs=_inputs(current),
        computed_at=now,
        data=data,
    )
    PlayerExplanation.objects.bulk_create(
        PlayerExplanation(snapshot=row, player=player, data=explanation_to_data(explanation))
        for player, explanation in explained.items()
    )
    return current.standings_version


# --- visibility ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """What one viewer sees of a tournament's standings."""

    snapshot: Snapshot | None
    """The standings shown; None when they are hidden from this viewer."""
    hidden: bool
    """The organiser hid the standings from the public."""
    frozen: bool
    """The standings are frozen (the public sees them as they were then)."""
    frozen_at: dt.datetime | None
    """When they were frozen."""
    staff: bool
    """The viewer is staff: he sees the live standings whatever the settings."""

    @property
    def is_live(self) -> bool:
        """True when the viewer sees the live standings (not the frozen ones)."""
        return self.snapshot is not None and not (self.frozen and not self.staff)


def viewer_standings(*, tournament: Tournament, staff: bool, provisional: bool = False) -> Shown:
    """The standings a viewer may see: the staff (`view_live_standings`) always see the
    live ones with every point (the judges' extras a stage hides from the public
    included); the public sees nothing while they are hidden and the frozen state
    while they are frozen."""
    frozen = tournament.standings_frozen_version is not None
    shown = Shown(
        snapshot=None,
        hidden=tournament.standings_hidden,
        frozen=frozen,
        frozen_at=tournament.standings_frozen_at,
        staff=staff,
    )
    if staff:
        snapshot = standings_snapshot(tournament=tournament, provisional=provisional, full=True)
        return replace(shown, snapshot=snapshot)
    if tournament.standings_hidden:
        return shown
    snapshot = frozen_snapshot(tournament=tournament, provisional=provisional) if frozen else None
    if snapshot is None:
        snapshot = standings_snapshot(tournament=tournament, provisional=provisional)
    return replace(shown, snapshot=snapshot)


def viewer_token(tournament: Tournament, *, staff: bool) -> str:
    """Changes whenever what a viewer (the staff or the public) sees of the standings
    changes, read from the tournament's row alone: a page can be found in the cache,
    or a refresh skipped, before anything is computed."""
    settings = f"{int(tournament.standings_hidden)}-{_frozen_state(tournament)}"
    if staff:
        return f"live.{live_state(tournament)}.{settings}"
    if tournament.standings_hidden:
        return "hidden"
    if tournament.standings_frozen_version is not None:
        return f"frozen.{_frozen_state(tournament)}"
    return f"live.{live_state(tournament)}.{settings}"


# --- the organiser's settings ----------------------------------------------------------


def _settings_state(tournament: Tournament) -> dict[str, Any]:
    return {
        "hidden": tournament.standings_hidden,
        "frozen_version": tournament.standings_frozen_version,
    }


@transaction.atomic
def standings_set_hidden(*, tournament: Tournament, hidden: bool, by: User) -> Tournament:
    """Hide the standings from the public (the staff still see them), or show them again."""
    ensure_can(by, tournament, "manage_standings")
    before = _settings_state(tournament)
    tournament.standings_hidden = hidden
    tournament.save(update_fields=["standings_hidden"])
    tournament.log_action(
        "standings.hidden" if hidden else "standings.shown",
        by=by,
        target=tournament.name,
        before=before,
        after=_settings_state(tournament),
    )
    if before["hidden"] and not hidden:
        _tell_participants(tournament, "standings.shown")
    return tournament


def _tell_participants(tournament: Tournament, kind: str) -> None:
    notify(
        tournament.registrations.filter(status__in=SEATED_STATUSES, user__isnull=False).values_list(
            "user_id", flat=True
        ),
        kind,
        {"tournament": tournament.name},
        link=reverse("standings:table", kwargs={"slug": tournament.slug}),
        tournament=tournament,
    )


def standings_freeze(*, tournament: Tournament, by: User) -> Tournament:
    """Freeze the standings: the public keeps seeing them as they are now (official and
    provisional) until they are unfrozen; the staff still see the live ones."""
    ensure_can(by, tournament, "manage_standings")
    with transaction.atomic():
        before = _settings_state(tournament)
        now = timezone.now()
        StandingsSnapshot.objects.filter(tournament_id=tournament.pk).delete()
        version = _store_frozen(tournament, False, now)
        _store_frozen(tournament, True, now)
        tournament.standings_frozen_version = version
        tournament.standings_frozen_at = now
        tournament.save(update_fields=["standings_frozen_version", "standings_frozen_at"])
        tournament.log_action(
            "standings.frozen",
            by=by,
            target=tournament.name,
            before=before,
            after=_settings_state(tournament),
        )
        if not tournament.standings_hidden:
            _tell_participants(tournament, "standings.frozen")
    return tournament


@transaction.atomic
def standings_unfreeze(*, tournament: Tournament, by: User) -> Tournament:
    """The public sees the live standings again."""
    ensure_can(by, tournament, "manage_standings")
    before = _settings_state(tournament)
    StandingsSnapshot.objects.filter(tournament_id=tournament.pk).delete()
    tournament.standings_frozen_version = None
    tournament.standings_frozen_at = None
    tournament.save(update_fields=["standings_frozen_version", "standings_frozen_at"])
    tournament.log_action(
        "standings.unfrozen",
        by=by,
        target=tournament.name,
        before=before,
        after=_settings_state(tournament),
    )
    return tournament
