"""Standings of stored tournaments: computed by the core once per change, then shared.

Every service that changes what the standings are computed from (protocols, protests,
replays, penalties, imports) calls `standings_changed(tournament=...)`, which raises the
tournament's `standings_version`. Reading the standings costs one small query: the
snapshot of the current version, if some process has already computed it, is shared
through the database (`StandingsSnapshot`) and kept decoded in each process's memory.
Only when it is missing does the core compute the standings (and every player's
explanation, in the same pass).

Official standings count confirmed protocols only; provisional ones count submitted
protocols too. The organiser may hide the standings from the public or freeze them
(the public then sees them as they were when frozen; the staff still see them live).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from mafiatab.core.roles import Stage
from mafiatab.core.standings import Standings, compute_standings
from mafiatab.standings.conversion import (
    AsOf,
    Explanation,
    GameEntry,
    Snapshot,
    as_of,
    explanation_from_data,
    explanations_of,
    scoring_input,
    standings_from_data,
    standings_to_data,
)
from mafiatab.standings.models import PlayerExplanation, StandingsSnapshot
from mafiatab.tournaments.models import Tournament

__all__ = [
    "AsOf",
    "Explanation",
    "GameEntry",
    "Shown",
    "Snapshot",
    "player_explanation",
    "public_state",
    "shown_token",
    "standings_changed",
    "standings_freeze",
    "standings_from_data",
    "standings_set_hidden",
    "standings_snapshot",
    "standings_to_data",
    "standings_unfreeze",
    "tournament_standings",
    "viewer_standings",
]

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

#: How many decoded snapshots / explanations one process keeps in memory.
MEMO_SIZE = 64


# --- the version ---------------------------------------------------------------------


def standings_changed(*, tournament: Tournament) -> None:
    """Record that the tournament's scoring inputs changed: the next reading recomputes.

    Call it inside the transaction of the change, so that the new version and the
    changed rows become visible together.
    """
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)
    tournament.refresh_from_db(fields=["standings_version"])


#: The layout of stored snapshots; a new layout makes the old snapshots stale.
SNAPSHOT_FORMAT = 2


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


def _compute(tournament: Tournament, *, provisional: bool) -> StandingsSnapshot:
    """Compute and store the snapshot of the current version (or find the one another
    process stored meanwhile)."""
    from mafiatab.games.models import Game

    version, frozen = Tournament.objects.values_list(
        "standings_version", "standings_frozen_version"
    ).get(pk=tournament.pk)
    core = scoring_input(tournament, provisional=provisional)
    standings = compute_standings(core)
    latest = as_of(core)
    data = standings_to_data(standings) | {
        "as_of": [latest.stage.value, latest.round] if latest else None,
        "games": sum(1 for g in core.games if g.is_counted()),
    }
    game_pks = dict(Game.objects.filter(tournament_id=tournament.pk).values_list("label", "pk"))
    explanations = explanations_of(core, game_pks)
    key = {
        "tournament_id": tournament.pk,
        "version": version,
        "provisional": provisional,
        "inputs": _inputs(tournament),
    }
    try:
        with transaction.atomic():
            snapshot = StandingsSnapshot.objects.create(
                **key, computed_at=timezone.now(), data=data
            )
            PlayerExplanation.objects.bulk_create(
                PlayerExplanation(snapshot=snapshot, player=player, data=explained)
                for player, explained in explanations.items()
            )
            old = StandingsSnapshot.objects.filter(tournament_id=tournament.pk, version__lt=version)
            if frozen is not None:
                old = old.exclude(version=frozen)
            old.delete()
    except IntegrityError:
        snapshot = StandingsSnapshot.objects.get(**key)
    return snapshot


# --- reading ---------------------------------------------------------------------------


class _Memo:
    """A small least-recently-used map, private to the process (safe across threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> Any:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_snapshots = _Memo(MEMO_SIZE)
_explanations = _Memo(MEMO_SIZE * 4)
#: Anything derived from a snapshot that other modules keep per process (rendered tables).
derived = _Memo(MEMO_SIZE * 4)


def clear_memory() -> None:
    """Forget what this process keeps in memory (the database keeps the snapshots)."""
    _snapshots.clear()
    _explanations.clear()
    derived.clear()


def _decoded(pk: int, computed_at: dt.datetime, row: StandingsSnapshot | None = None) -> Snapshot:
    key = (pk, computed_at)
    found = _snapshots.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    row = row or StandingsSnapshot.objects.get(pk=pk)
    data = row.data
    latest = AsOf(Stage(data["as_of"][0]), data["as_of"][1]) if data.get("as_of") else None
    snapshot = Snapshot(
        pk=row.pk,
        version=row.version,
        provisional=row.provisional,
        computed_at=row.computed_at,
        standings=standings_from_data(data),
        as_of=latest,
        games=data.get("games", 0),
    )
    return _snapshots.put(key, snapshot)  # type: ignore[no-any-return]


def _named(snapshot: Snapshot, tournament: Tournament) -> Snapshot:
    """The snapshot under the tournament's current name (a rename changes no point)."""
    if snapshot.standings.tournament == tournament.name:
        return snapshot
    return replace(snapshot, standings=replace(snapshot.standings, tournament=tournament.name))


def standings_snapshot(*, tournament: Tournament, provisional: bool = False) -> Snapshot:
    """The live standings of the tournament with their version, round and time."""
    found = list(
        StandingsSnapshot.objects.filter(
            tournament_id=tournament.pk,
            provisional=provisional,
            inputs=_inputs(tournament),
            version=F("tournament__standings_version"),
        ).values_list("pk", "computed_at")[:1]
    )
    if found:
        return _named(_decoded(*found[0]), tournament)
    row = _compute(tournament, provisional=provisional)
    return _named(_decoded(row.pk, row.computed_at, row), tournament)


def frozen_snapshot(*, tournament: Tournament, provisional: bool = False) -> Snapshot | None:
    """The standings as they were when frozen (None when they are not frozen)."""
    if tournament.standings_frozen_version is None:
        return None
    found = list(
        StandingsSnapshot.objects.filter(
            tournament_id=tournament.pk,
            provisional=provisional,
            version=tournament.standings_frozen_version,
        )
        .order_by("-pk")
        .values_list("pk", "computed_at")[:1]
    )
    return _named(_decoded(*found[0]), tournament) if found else None


def tournament_standings(tournament: Tournament, *, provisional: bool = False) -> Standings:
    """The live standings of a stored tournament, as the core computes them.

    Computed once per change of the scoring inputs (see `standings_changed`) and shared
    by every process. Not filtered by visibility: pages and the public API that show
    them to anyone use `viewer_standings`.
    """
    return standings_snapshot(tournament=tournament, provisional=provisional).standings


def player_explanation(*, snapshot: Snapshot, player: str) -> Explanation | None:
    """Every line of `player`'s points in the snapshot; None for a player who played no game."""
    key = (snapshot.pk, snapshot.computed_at, player)
    found = _explanations.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    data = (
        PlayerExplanation.objects.filter(snapshot_id=snapshot.pk, player=player)
        .values_list("data", flat=True)
        .first()
    )
    if data is None:
        return None
    return _explanations.put(key, explanation_from_data(player, data))  # type: ignore[no-any-return]


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
    live ones; the public sees nothing while they are hidden and the frozen state
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
        return replace(
            shown, snapshot=standings_snapshot(tournament=tournament, provisional=provisional)
        )
    if tournament.standings_hidden:
        return shown
    snapshot = frozen_snapshot(tournament=tournament, provisional=provisional) if frozen else None
    if snapshot is None:
        snapshot = standings_snapshot(tournament=tournament, provisional=provisional)
    return replace(shown, snapshot=snapshot)


def stamp(value: dt.datetime | str) -> str:
    """A snapshot's computing time as text, the same from every database and query."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        raise ValueError(f"not a timestamp: {value!r}")
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=dt.UTC)
    return f"{moment.timestamp():.6f}"


def shown_token(shown: Shown) -> str:
    """Changes whenever what a viewer sees changes (a refresh can then be skipped)."""
    snapshot = shown.snapshot
    seen = f"{snapshot.pk}.{stamp(snapshot.computed_at)}" if snapshot else "none"
    return f"{seen}.{int(shown.hidden)}.{int(shown.frozen)}"


@dataclass(frozen=True, slots=True)
class PublicState:
    """What the public sees of a tournament's standings, read in one query."""

    token: str | None
    """`shown_token` of the public's view; None when it must first be computed."""
    header: tuple[Any, ...]
    """The tournament's fields shown around the table (name, stars, ruleset, slug)."""


_PUBLIC_STATE_SQL = """
SELECT t.id, t.name, t.stars, t.ruleset, t.participants, t.games_before_final, t.lot_seed,
       t.standings_hidden, t.standings_frozen_version,
       s.id, s.computed_at, s.inputs, f.id, f.computed_at
FROM {tournament} t
LEFT JOIN {snapshot} s ON s.tournament_id = t.id AND s.version = t.standings_version
     AND s.provisional = %s
LEFT JOIN {snapshot} f ON f.tournament_id = t.id AND f.version = t.standings_frozen_version
     AND f.provisional = %s
WHERE t.slug = %s
ORDER BY f.id DESC
"""


def public_state(*, slug: str, provisional: bool = False) -> PublicState | None:
    """The public's view of the standings in one plain query, for the pages every
    spectator polls (None: no such tournament)."""
    sql = _PUBLIC_STATE_SQL.format(
        tournament=connection.ops.quote_name(Tournament._meta.db_table),
        snapshot=connection.ops.quote_name(StandingsSnapshot._meta.db_table),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [provisional, provisional, slug])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    _, name, stars, ruleset, participants, before_final, lot_seed, hidden, frozen = first[:9]
    header = (name, stars, ruleset, slug)
    frozen = frozen is not None
    if hidden:
        return PublicState(f"none.1.{int(frozen)}", header)
    if frozen and first[12] is not None:
        return PublicState(f"{first[12]}.{stamp(first[13])}.0.1", header)
    inputs = inputs_key(ruleset, participants, before_final, lot_seed)
    for row in rows:
        if row[9] is not None and row[11] == inputs:
            return PublicState(f"{row[9]}.{stamp(row[10])}.0.{int(frozen)}", header)
    return PublicState(None, header)


# --- the organiser's settings ----------------------------------------------------------


def _settings_state(tournament: Tournament) -> dict[str, Any]:
    return {
        "hidden": tournament.standings_hidden,
        "frozen_version": tournament.standings_frozen_version,
    }


@transaction.atomic
def standings_set_hidden(*, tournament: Tournament, hidden: bool, by: User) -> Tournament:
    """Hide the standings from the public (the staff still see them), or show them again."""
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
    return tournament


def standings_freeze(*, tournament: Tournament, by: User) -> Tournament:
    """Freeze the standings: the public keeps seeing them as they are now (official and
    provisional) until they are unfrozen; the staff still see the live ones."""
    official = standings_snapshot(tournament=tournament)
    standings_snapshot(tournament=tournament, provisional=True)
    with transaction.atomic():
        before = _settings_state(tournament)
        tournament.standings_frozen_version = official.version
        tournament.standings_frozen_at = timezone.now()
        tournament.save(update_fields=["standings_frozen_version", "standings_frozen_at"])
        tournament.log_action(
            "standings.frozen",
            by=by,
            target=tournament.name,
            before=before,
            after=_settings_state(tournament),
        )
    return tournament


@transaction.atomic
def standings_unfreeze(*, tournament: Tournament, by: User) -> Tournament:
    """The public sees the live standings again."""
    before = _settings_state(tournament)
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
