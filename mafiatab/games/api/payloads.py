"""Between the API's schemas and the protocol's data: a `ProtocolIn` becomes the
tournament file's dictionary form; a game and a protest become the answers.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from ninja.errors import HttpError

from mafiatab.core.names import nickname_key
from mafiatab.games.api.schemas import GameOut, ProtocolIn
from mafiatab.games.conversion import game_data, protocol_data, withheld_form, without_extras
from mafiatab.games.models import Game, GameStatus, Protest
from mafiatab.games.selectors import check_protocol
from mafiatab.messages import is_core_problem, problem_text
from mafiatab.registrations.models import SEATED_STATUSES, Registration
from mafiatab.tournaments.models import Tournament


def _detail(game: Game, *, withheld: bool = False, extras: bool = True) -> dict[str, Any]:
    """The game as the API answers it; `withheld`: without its protocol's points
    (`withheld_form`, no problems); `extras` off: without the judges' extra points
    (a stage that hides them from the caller)."""
    data = game_data(game)
    if not extras:
        data = without_extras(data)
    problems = (
        check_protocol(data, ruleset=game.tournament.ruleset).problems
        if game.status != GameStatus.DRAFT and not withheld
        else []
    )
    if withheld:
        data = withheld_form(data)
    holders = dict(game.seats.values_list("number", "registration_id"))
    return {
        **{f: getattr(game, f) for f in GameOut.model_fields if f != "id"},
        "id": game.pk,
        "participants": [holders.get(n) for n in range(1, len(data.get("seats") or []) + 1)],
        "protocol": data,
        "points_withheld": withheld,
        "problems": [
            {
                "seat": p.seat,
                "field": p.field,
                "message": problem_text(p),
                "code": p.code if is_core_problem(p) else None,
            }
            for p in problems
        ],
    }


def _participant(tournament: Tournament, registration_id: int) -> str:
    holder = Registration.objects.filter(
        tournament=tournament, pk=registration_id, status__in=SEATED_STATUSES
    ).first()
    if holder is None:
        raise HttpError(
            422,
            _("There is no participant %(id)d in this tournament.") % {"id": registration_id},
        )
    return holder.nickname


def _data(protocol: ProtocolIn, tournament: Tournament) -> dict[str, Any]:
    data = protocol.model_dump()
    for number, seat in enumerate(data["seats"], start=1):
        registration_id = seat.pop("participant")
        if registration_id is not None:
            nickname = _participant(tournament, registration_id)
            named = seat["player"]
            if named is not None and nickname_key(named) != nickname_key(nickname):
                raise HttpError(
                    422,
                    _(
                        "Seat %(seat)d names the player %(player)s but the participant "
                        "%(id)d (%(nickname)s): give one."
                    )
                    % {
                        "seat": number,
                        "player": named,
                        "id": registration_id,
                        "nickname": nickname,
                    },
                )
            seat["player"] = nickname
        elif seat["player"] is None:
            seat["player"] = ""
    for extra in data["judge_extra"]:
        points = extra["points"]
        extra["points"] = int(points) if points == points.to_integral_value() else float(points)
    data["voting"] = [_block(block) for block in data["voting"]]
    return protocol_data(data)


def _block(block: dict[str, Any]) -> dict[str, Any]:
    """A voting block in the file's form: the parts not given left out (`lift` 0 kept)."""
    kept = dict(block)
    for key in ("votes", "nominated_by"):
        if not kept[key]:
            del kept[key]
    if kept["revote"] is False:
        del kept["revote"]
    if kept["lift"] is None:
        del kept["lift"]
    return kept


def _protest_out(protest: Protest) -> dict[str, Any]:
    return {
        "id": protest.pk,
        "game_id": protest.game_id,
        "seat": protest.seat,
        "text": protest.text,
        "filed_at": protest.filed_at,
        "status": protest.status,
        "decision": protest.decision,
        "by_committee": protest.by_committee,
        "decided_at": protest.decided_at,
        "version": protest.version.number if protest.version else None,
    }
