"""The broadcast: what a table's stream overlay and its result card show, the live
channel's version of a table, and the director's private links.

What a spectator sees is decided in one place, `selectors.table_view` (no role and no
night secret before the end, and after it only for a viewer who may see the game's
points; a game entered without the console shows its confirmed protocol's result);
the overlay is built from that view and adds nothing it does not hold. The
director's view (`director=True`) is the judges' view: the roles while the game runs,
behind a link the chief judge makes and revokes (`director_link_create`,
`director_link_revoke`), each write audited.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.console import selectors
from mafiatab.console.models import DirectorLink, GameLog
from mafiatab.games.models import Game
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User

#: A director's link's secret is this many random bytes (URL-safe base64).
TOKEN_BYTES = 32
#: The longest secret a director's link is looked up by (longer: no such link).
MAX_TOKEN_CHARS = 64


# --- the director's links ----------------------------------------------------------------


@transaction.atomic
def director_link_create(*, tournament: Tournament, by: User) -> DirectorLink:
    """A new private link to the director's view of the tournament's overlays."""
    ensure_can(by, tournament, "manage_broadcast")
    link = DirectorLink.objects.create(
        tournament=tournament, token=secrets.token_urlsafe(TOKEN_BYTES), created_by=by
    )
    tournament.log_action("broadcast.director_link.created", by=by, target=f"#{link.pk}")
    return link


@transaction.atomic
def director_link_revoke(*, link: DirectorLink, by: User) -> DirectorLink:
    """The link stops working at once; revoking it again changes nothing."""
    ensure_can(by, link.tournament, "manage_broadcast")
    locked = DirectorLink.objects.select_for_update().get(pk=link.pk)
    if locked.revoked_at is not None:
        raise ValidationError(_("This link was already revoked."))
    locked.revoked_at = timezone.now()
    locked.revoked_by = by
    locked.save(update_fields=["revoked_at", "revoked_by"])
    link.tournament.log_action("broadcast.director_link.revoked", by=by, target=f"#{locked.pk}")
    return locked


def director_link(tournament: Tournament, token: str) -> DirectorLink | None:
    """The tournament's link with this secret while it is not revoked, else None."""
    if not token or len(token) > MAX_TOKEN_CHARS:
        return None
    return DirectorLink.objects.filter(
        tournament=tournament, token=token, revoked_at__isnull=True
    ).first()


def director_links(tournament: Tournament) -> list[DirectorLink]:
    """The tournament's links still in force, the newest first."""
    return list(
        tournament.director_links.filter(revoked_at__isnull=True).select_related("created_by")
    )


# --- the live channel ----------------------------------------------------------------------


def live_version(game_pk: int) -> str:
    """Changes whenever what a table's board, overlay or card may show changes (an entry,
    the judge's place at the table, the end, the protocol, what the public may see of
    the results, the broadcast's language), read in two small queries: a waiting viewer
    asks it twice a second. The log's row is taken whole (but its header), so whatever
    is kept on it beside the entries counts."""
    row = (
        Game.objects.filter(pk=game_pk)
        .values_list(
            "status",
            "version",
            "tournament__standings_hidden",
            "tournament__standings_frozen_version",
            "tournament__standings_version",
            "tournament__language",
        )
        .first()
    )
    if row is None:
        return "gone"
    log = GameLog.objects.filter(game_id=game_pk).values().first() or {}
    # The header holds the roles: it is left out (it does not change once the game has
    # started), and the rest is keyed by the site's secret, so the version a spectator
    # is sent cannot be tried against guessed deals.
    seen = repr((row, sorted((k, v) for k, v in log.items() if k != "header")))
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, seen.encode(), hashlib.sha256).hexdigest()[:32]


# --- what the overlay shows -------------------------------------------------------------------


def _roles_of(header: dict[str, Any]) -> dict[int, str]:
    """The judges' roles of a log header, seat by seat (red where none is named)."""
    roles = header.get("roles") or {}
    seats: dict[int, str] = {n: "red" for n in range(1, 11)}
    for black in roles.get("black") or []:
        seats[int(black)] = "black"
    for role in ("don", "sheriff"):
        if isinstance(roles.get(role), int):
            seats[roles[role]] = role
    return seats


def _nights(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The nights already announced (those before the current day or night), each with
    its kill or its miss: what the host says in the morning."""
    phase = state.get("phase") or {}
    current = phase.get("day") or phase.get("night") or 0
    last = current if state.get("finished") and phase.get("night") else current - 1
    killed = {d.get("night"): d["seat"] for d in state.get("left") or [] if d.get("how") == "shot"}
    return [{"night": n, "killed": killed.get(n)} for n in range(1, last + 1)]


def _speeches(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in state.get("speeches") or [] if s.get("kind") != "lost"]


def _may_speak(state: dict[str, Any], seat: int) -> bool:
    """Whether `seat` may be speaking as the day stands, whatever place was kept: during a
    revote only the tied seats' defence and the last words; once the vote has begun (the
    lift vote, the result) the last words only: the day's speeches are over."""
    status = (state.get("voting") or {}).get("status")
    last_words = set(state.get("last_word") or [])
    if status == "revote":
        defence = {d.get("seat") for d in state.get("defence") or []}
        return seat in defence or seat in last_words
    if status in ("lift", "over"):
        return seat in last_words
    return True


def _speaker(view: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Who speaks now and his timer, from the judge's place kept beside the log: only
    during the day it was kept for, and not once the game is over. A running timer has
    run `age` seconds since it was kept."""
    place = view.get("place") or {}
    state = view.get("state") or {}
    day = (state.get("phase") or {}).get("day")
    seat = place.get("seat")
    if view.get("finished") or not day or place.get("day") != f"d{day}":
        return None
    if not isinstance(seat, int) or not 1 <= seat <= len(rows):
        return None
    if not _may_speak(state, seat):
        return None
    timer = place.get("timer") or {}
    left = float(timer.get("left") or 0)
    running = bool(timer.get("running"))
    if running:
        left = max(0.0, left - float(place.get("age") or 0))
    seconds = int(left + 0.5)
    return {
        "seat": seat,
        "nick": rows[seat - 1]["nick"],
        "seconds": seconds,
        "clock": f"{seconds // 60}:{seconds % 60:02d}",
        "running": running and seconds > 0,
        "label": str(timer.get("label") or "")[:80],
    }


def overlay(game: Game, *, viewer: Any, director: bool = False) -> dict[str, Any]:
    """What a table's overlay, board and result card show to `viewer` (None: the
    public), or to the director (the judges' view)."""
    view = selectors.table_view(game, viewer=viewer, director=director)
    state = view.get("state") or {}
    board = view.get("board") or {"rows": [], "nominations": [], "blocks": []}
    roles = _roles_of(view.get("header") or {}) if director and view["started"] else {}
    rows = []
    for row in board["rows"]:
        role = row["role"] or roles.get(row["n"], "")
        rows.append(row | {"role": role})
    speeches = _speeches(state)
    speaker = _speaker(view, rows)
    nominated_by = {n.get("seat"): n.get("by") for n in board.get("nominations") or []}
    return {
        "view": view,
        "rows": rows,
        "director": director,
        "nominations": [
            {"seat": n.get("seat"), "by": nominated_by.get(n.get("seat"))}
            for n in board.get("nominations") or []
        ],
        "blocks": board.get("blocks") or [],
        "voting_status": board.get("voting_status"),
        "speeches": speeches,
        "speaker": speaker,
        "nights": _nights(state),
        "first_killed": state.get("first_killed"),
        "best_move": state.get("best_move") or [],
        "roles_shown": any(r["role"] for r in rows),
    }
