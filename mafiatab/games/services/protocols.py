"""The life of a protocol: saved as a draft or submitted by the table judge, confirmed
or returned by the chief judge, changed after confirmation with a reason, and a game
marked replayed (online addendum).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.records.entry import read_entry
from mafiatab.games import conversion
from mafiatab.games.models import Game, GameStatus, ProtocolVersion
from mafiatab.games.selectors import entry_facts, is_confirmed_for_its_judge
from mafiatab.games.services import notices
from mafiatab.games.services.checks import (
    _check_base,
    _refuse,
    _refuse_while_played,
    _regulation_refusals,
    _require_base,
    _valid,
)
from mafiatab.games.services.versions import ProtocolConfirmed, _new_version
from mafiatab.tournaments.permissions import ensure_can, user_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


@transaction.atomic
def protocol_save(
    *,
    game: Game,
    data: dict[str, Any],
    by: User,
    base_version: int,
    submit: bool = False,
    reason: str = "",
    now: dt.datetime | None = None,
    reason_code: str = "",
    reason_params: dict[str, Any] | None = None,
) -> ProtocolVersion:
    """Save the protocol as a new version (none when `data` is the stored version's own).
    `reason_code` is a reason the server writes (the console's log that made it), with
    what it knows in `reason_params`.

    A draft may be saved incomplete; submitting (the table judge's signature, 9.11)
    needs a protocol without problems. A submitted protocol stays submitted when
    saved again (it must stay valid); a confirmed one can only be changed by the
    chief judge, stays confirmed and the standings follow (the table's judge is told so).
    While the game is played on the judge console only a draft is saved: its protocol
    is made from the console's log when the game is closed there.
    """
    game = Game.objects.locked(game)
    if is_confirmed_for_its_judge(by, game) and not user_can(
        by, game.tournament, "enter_protocol", game=game
    ):
        raise ProtocolConfirmed(game)
    ensure_can(by, game.tournament, "enter_protocol", game=game)
    newly_submitted = False
    _require_base(base_version)
    _check_base(game, base_version)
    if submit or game.status != GameStatus.DRAFT:
        _refuse_while_played(game)
    entry = read_entry(data, entry_facts(game, by))
    _refuse(entry)
    now = now or timezone.now()
    status = game.status
    if entry.unchanged and (not submit or status != GameStatus.DRAFT):
        # nothing changed: a save of what is stored stores nothing
        return ProtocolVersion.objects.get(game=game, number=game.version)
    if submit or status != GameStatus.DRAFT:
        _regulation_refusals(game, entry)
    if status == GameStatus.CONFIRMED:
        if not reason.strip():
            raise ValidationError({"reason": _("Say why the confirmed protocol is changed.")})
        action = "changed"
    elif submit or status == GameStatus.SUBMITTED:
        newly_submitted = status == GameStatus.DRAFT
        action, status = "submitted", GameStatus.SUBMITTED
        if game.submitted_at is None:
            game.submitted_at = now
    else:
        action = "saved"
    version = _new_version(
        game,
        entry.data,
        status=status,
        action=action,
        by=by,
        reason=reason,
        now=now,
        reason_code=reason_code,
        reason_params=reason_params,
    )
    game.tournament.log_action(
        f"game.protocol.{action}",
        by=by,
        target=game.label,
        after={"version": version.number, "reason": reason}
        if reason
        else {"version": version.number},
    )
    if status != GameStatus.DRAFT:  # provisional standings count submitted protocols
        game.tournament.standings_changed()
    if action == "submitted" and newly_submitted:
        notices.protocol_submitted(game)
    elif action == "submitted":  # a new version of a protocol waiting for the chief judge
        notices.protocol_resubmitted(game, version=version.number, signer=by)
    return version


@transaction.atomic
def protocol_confirm(
    *, game: Game, by: User, base_version: int | None = None, now: dt.datetime | None = None
) -> ProtocolVersion:
    """The chief judge confirms a submitted protocol: from now on it counts (not while
    its game is still played on the judge console)."""
    game = Game.objects.locked(game)
    ensure_can(by, game.tournament, "confirm_protocol", game=game)
    _check_base(game, base_version)
    if game.status != GameStatus.SUBMITTED:
        raise ValidationError(_("Only a submitted protocol can be confirmed."))
    _refuse_while_played(game, confirm=True)
    data = conversion.game_data(game)
    _valid(game, data)
    now = now or timezone.now()
    game.confirmed_at = now
    game.confirmed_by = by
    version = _new_version(
        game, data, status=GameStatus.CONFIRMED, action="confirmed", by=by, reason="", now=now
    )
    game.tournament.log_action(
        "game.protocol.confirmed", by=by, target=game.label, after={"version": version.number}
    )
    game.tournament.standings_changed()
    notices.protocol_confirmed(game)
    return version


@transaction.atomic
def protocol_return(*, game: Game, by: User, reason: str) -> ProtocolVersion:
    """The chief judge sends a submitted protocol back to its table judge (a draft again)."""
    game = Game.objects.locked(game)
    ensure_can(by, game.tournament, "confirm_protocol", game=game)
    if game.status != GameStatus.SUBMITTED:
        raise ValidationError(_("Only a submitted protocol can be returned."))
    if not reason.strip():
        raise ValidationError({"reason": _("Say what the table judge should fix.")})
    version = _new_version(
        game,
        conversion.game_data(game),
        status=GameStatus.DRAFT,
        action="returned",
        by=by,
        reason=reason.strip(),
    )
    game.tournament.log_action(
        "game.protocol.returned", by=by, target=game.label, after={"reason": reason.strip()}
    )
    game.tournament.standings_changed()
    notices.protocol_returned(game, reason.strip())
    return version


@transaction.atomic
def game_mark_replayed(
    *, game: Game, by: User, replay: Game | None, reason: str, now: dt.datetime | None = None
) -> ProtocolVersion:
    """The chief judge annuls a game that is replayed (online addendum): it counts for
    nothing but its removal penalties (the core's `replayed`); `replay` is the new game."""
    game = Game.objects.locked(game)
    ensure_can(by, game.tournament, "confirm_protocol", game=game)
    if not game.tournament.regulation.has_replays:
        raise ValidationError(
            _("Only a game of an online tournament is replayed (online addendum).")
        )
    if game.replayed:
        raise ValidationError(_("The game is already marked replayed."))
    if not reason.strip():
        raise ValidationError({"reason": _("Say why the game is replayed.")})
    if replay is not None and (replay.pk == game.pk or replay.tournament_id != game.tournament_id):
        raise ValidationError({"replay": _("The replay must be another game of the tournament.")})
    game.replayed = True
    game.replay = replay
    data = conversion.game_data(game) | {"replayed": True}
    version = _new_version(
        game, data, status=game.status, action="replayed", by=by, reason=reason.strip(), now=now
    )
    game.tournament.log_action(
        "game.replayed",
        by=by,
        target=game.label,
        after={"replay": replay.label if replay else None, "reason": reason.strip()},
    )
    game.tournament.standings_changed()
    return version
