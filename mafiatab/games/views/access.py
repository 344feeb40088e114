"""Loading a game with the one permission check (`_load`), the refusals, and
`game_action`: the decorator of the POST views that run one service on a game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from mafiatab.games import selectors, services
from mafiatab.games.models import Game
from mafiatab.tournaments.bounds import MAX_INT, parse_int
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can


def _refuse(request: HttpRequest, found: bool) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not found:
        raise Http404(_("No such game."))
    raise PermissionDenied


def _load(
    request: HttpRequest, slug: str, pk: int, action: str, *, confirmed_judge: bool = False
) -> Game | HttpResponse:
    """The game `pk` when the user may do `action` on it ("view" for reading). With
    `confirmed_judge` the table's own judge of a confirmed protocol is let in with a
    post too (a form he kept open): the view tells him why nothing is saved."""
    tournament = get_object_or_404(Tournament, slug=slug)
    game = (
        Game.objects.filter(tournament=tournament, pk=pk)
        .select_related("tournament", "table_slot__judge", "replay", "confirmed_by")
        .first()
    )
    if game is None:
        return _refuse(request, False)
    allowed = (
        selectors.can_view_game(request.user, game)
        if action == "view"
        else user_can(request.user, tournament, action, game=game)
    )
    if (
        not allowed
        and request.method == "GET"
        and selectors.is_confirmed_for_its_judge(request.user, game)
    ):
        # the table's own judge after the confirmation: the protocol to read, and why
        messages.info(request, selectors.confirmed_notice())
        return redirect("games:detail", slug=tournament.slug, pk=game.pk)
    if not allowed and confirmed_judge and selectors.is_confirmed_for_its_judge(request.user, game):
        return game
    if not allowed:
        return _refuse(request, True)
    return game


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


_NO_BASE_VERSION = _lazy(
    "The form does not say which version of the protocol it was started from, so it "
    "could overwrite someone else's entries: reload the protocol and enter them again."
)


def _base_version(request: HttpRequest) -> int | None:
    """The `base_version` the form was started from; None when missing or not a version."""
    return parse_int(request.POST.get("base_version", ""), low=0, high=MAX_INT)


def with_game(
    action: str, *, confirmed_judge: bool = False
) -> Callable[[Callable[[HttpRequest, Game], HttpResponse]], Callable[..., HttpResponse]]:
    """A view on the game `pk` of the tournament `slug` for people who may do `action`
    on it ("view" for reading): the decorated function is given the game. With
    `confirmed_judge` a post of the table's own judge of a confirmed protocol reaches
    the view as well (`_load`)."""

    def decorate(view: Callable[[HttpRequest, Game], HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def load(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
            game = _load(request, slug, pk, action, confirmed_judge=confirmed_judge)
            if isinstance(game, HttpResponse):
                return game
            return view(request, game)

        return load

    return decorate


def game_action(
    action: str,
) -> Callable[[Callable[[HttpRequest, Game], str]], Callable[..., HttpResponse]]:
    """A POST view on the game `pk` for people who may do `action` on it: the decorated
    function runs a service and returns the message of its success; the view tells the
    user how it went (a refusal of the service as an error) and goes back to the game."""

    def decorate(run: Callable[[HttpRequest, Game], str]) -> Callable[..., HttpResponse]:
        @require_POST
        @with_game(action)
        @functools.wraps(run)
        def view(request: HttpRequest, game: Game) -> HttpResponse:
            try:
                success = run(request, game)
            except services.ProtocolChanged as exc:
                messages.error(request, str(exc))
            except ValidationError as exc:
                messages.error(request, _error_text(exc))
            else:
                messages.success(request, success)
            return redirect("games:detail", slug=game.tournament.slug, pk=game.pk)

        return view

    return decorate
