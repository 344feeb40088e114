"""The one permission check of the application.

`user_can(user, tournament, action)` answers every "may this person do that here?"
question; views use it through `tournament_permission(action)` (function views)
or `TournamentPermissionMixin` (class views).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from mafiatab.tournaments.models import StaffMember, StaffRole, Tournament

ORGANISER = StaffRole.ORGANISER.value
CHIEF_JUDGE = StaffRole.CHIEF_JUDGE.value
TABLE_JUDGE = StaffRole.TABLE_JUDGE.value
PLAYER = "player"
#: The stored status of an approved registration (`registrations.Status.APPROVED`).
APPROVED = "approved"
#: The stored statuses of those who play: the approved and the reserves who replaced
#: one of them (`registrations.SEATED_STATUSES`).
SEATED = (APPROVED, "reserve")
#: Any signed-in person (e.g. to apply).
MEMBER = "member"

#: Who may do what in a tournament. Actions not listed here are refused.
ACTIONS: dict[str, frozenset[str]] = {
    "edit_tournament": frozenset({ORGANISER}),
    "manage_staff": frozenset({ORGANISER}),
    "view_registrations": frozenset({ORGANISER, CHIEF_JUDGE, TABLE_JUDGE}),
    "approve_application": frozenset({ORGANISER, CHIEF_JUDGE}),
    "add_participant": frozenset({ORGANISER}),
    "withdraw_participant": frozenset({ORGANISER}),
    "check_in_player": frozenset({ORGANISER, CHIEF_JUDGE, TABLE_JUDGE}),
    "check_in_self": frozenset({PLAYER}),
    "open_checkin": frozenset({ORGANISER, CHIEF_JUDGE}),
    "replace_player": frozenset({ORGANISER, CHIEF_JUDGE}),
    "give_penalty": frozenset({CHIEF_JUDGE}),
    "view_history": frozenset({ORGANISER, CHIEF_JUDGE}),
    "generate_seating": frozenset({ORGANISER, CHIEF_JUDGE}),
    "publish_seating": frozenset({ORGANISER, CHIEF_JUDGE}),
    "apply": frozenset({MEMBER}),
    "manage_rounds": frozenset({ORGANISER, CHIEF_JUDGE}),
    "view_protocols": frozenset({ORGANISER, CHIEF_JUDGE, TABLE_JUDGE}),
    "enter_protocol": frozenset({CHIEF_JUDGE, TABLE_JUDGE}),
    "confirm_protocol": frozenset({CHIEF_JUDGE}),
    "manage_broadcast": frozenset({CHIEF_JUDGE}),
    "file_protest": frozenset({PLAYER}),
    "decide_protest": frozenset({CHIEF_JUDGE}),
    "view_live_standings": frozenset({ORGANISER, CHIEF_JUDGE, TABLE_JUDGE}),
    "manage_standings": frozenset({ORGANISER}),
    "broadcast": frozenset({ORGANISER}),
    "advance_players": frozenset({ORGANISER}),
}


@dataclass(frozen=True)
class Viewer:
    """Who somebody is in a tournament: his roles, and the nicknames he plays under
    there (those of his approved registrations)."""

    roles: frozenset[str]
    nicknames: tuple[str, ...] = ()


NOBODY = Viewer(roles=frozenset())


def viewer_in(user: Any, tournament: Tournament) -> Viewer:
    """Who `user` is in `tournament` (nobody for anonymous visitors): his staff roles,
    and "player" with the nicknames of his registrations that play (approved, or a
    reserve who replaced a participant)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return NOBODY
    roles = set(
        StaffMember.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
    )
    # The registrations stand above this floor: they are reached through the
    # tournament's reverse relation, by the stored value of an approved one.
    nicknames = sorted(
        tournament.registrations.filter(user=user, status__in=SEATED).values_list(
            "nickname", flat=True
        )
    )
    if nicknames:
        roles.add(PLAYER)
    return Viewer(roles=frozenset({MEMBER, *roles}), nicknames=tuple(nicknames))


def roles_of(user: Any, tournament: Tournament) -> frozenset[str]:
    """The roles `user` holds in `tournament` (empty for anonymous visitors): his staff
    roles, and "player" with an approved registration."""
    return viewer_in(user, tournament).roles


def _allowed(action: str) -> frozenset[str]:
    try:
        return ACTIONS[action]
    except KeyError:
        raise ValueError(f"unknown action {action!r}") from None


def user_can(user: Any, tournament: Tournament, action: str, *, game: Any = None) -> bool:
    """True when `user` may perform `action` in `tournament` (on `game`, when given:
    a table judge only on his own table's protocol and not once it is confirmed, a
    player only on a game he sat in; the chief judge and the organiser on any)."""
    roles = roles_of(user, tournament) & _allowed(action)
    if not roles or game is None:
        return bool(roles)
    if roles & {ORGANISER, CHIEF_JUDGE}:
        return True
    if TABLE_JUDGE in roles and game.judge_user_id == user.pk and not game.is_confirmed:
        return True
    return PLAYER in roles and game.seat_of_user(user) is not None


def ensure_can(
    by: Any, tournament: Tournament, *actions: str, game: Any = None, console: bool = False
) -> None:
    """For services, which never trust that their caller checked: raise PermissionDenied
    unless `by` may perform one of `actions` in `tournament` (on `game`).

    `by=None` is the operator at the console (a command, never a page or the API);
    it is allowed only by the services that say so with `console=True`."""
    if by is None:
        if console:
            return
        raise PermissionDenied(actions[0])
    if not any(user_can(by, tournament, action, game=game) for action in actions):
        raise PermissionDenied(actions[0])


def permissions_for(user: Any, tournament: Tournament) -> dict[str, bool]:
    """Every action with its answer, for templates (`can.approve_application`)."""
    return permissions_of(roles_of(user, tournament))


def permissions_of(roles: frozenset[str]) -> dict[str, bool]:
    """Every action with its answer for somebody holding `roles`."""
    return {action: bool(roles & allowed) for action, allowed in ACTIONS.items()}


def _check(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse | None:
    if user_can(request.user, tournament, action):
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(action)


def tournament_permission(action: str) -> Callable[..., Any]:
    """Decorate a view taking `slug`: loads the tournament and checks `action`.

    Anonymous visitors are sent to the login page, others without the right get 403.
    The view receives the tournament instead of the slug.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            tournament = get_object_or_404(Tournament, slug=slug)
            refused = _check(request, tournament, action)
            if refused is not None:
                return refused
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorator


class TournamentPermissionMixin:
    """For class-based views: set `permission = "action"`; `self.tournament` is loaded."""

    permission: str = ""
    tournament: Tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        refused = _check(request, self.tournament, self.permission)
        if refused is not None:
            return refused
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
