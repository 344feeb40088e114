"""Protests (8.9): a player files one within the regulation's window after the
protocol's submission; the chief judge or the appeal committee decides it, possibly
changing the protocol.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.records.entry import read_entry
from mafiatab.games.models import Game, Protest, ProtestStatus
from mafiatab.games.selectors import entry_facts, has_protested
from mafiatab.games.services import notices
from mafiatab.games.services.checks import (
    _check_base,
    _refuse,
    _refuse_while_played,
    _regulation_refusals,
    _require_base,
)
from mafiatab.games.services.versions import _new_version
from mafiatab.tournaments.permissions import ensure_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


@transaction.atomic
def protest_file(*, game: Game, by: User, text: str, now: dt.datetime | None = None) -> Protest:
    """A player of the game protests its result, within the regulation's window after the protocol's
    submission (8.9.1)."""
    game = Game.objects.locked(game)
    now = now or timezone.now()
    ensure_can(by, game.tournament, "file_protest", game=game)
    seat = game.seat_of_user(by)
    if seat is None:
        raise PermissionDenied("file_protest")
    if not text.strip():
        raise ValidationError({"text": _("Write what the protest is about.")})
    if game.submitted_at is None:
        raise ValidationError(_("The protocol has not been submitted yet."))
    minutes = game.tournament.regulation.protest_window_minutes
    deadline = game.protest_deadline()
    if deadline is not None and now > deadline:
        raise ValidationError(
            _(
                "A protest is written within %(minutes)d minutes after the game (8.9.1); "
                "it is too late."
            )
            % {"minutes": minutes}
        )
    if has_protested(game, by):
        raise ValidationError(_("You have already protested this game."))
    protest = Protest.objects.create(
        game=game, filed_by=by, seat=seat, text=text.strip(), filed_at=now
    )
    game.tournament.log_action(
        "game.protest.filed", by=by, target=game.label, after={"seat": seat, "text": text.strip()}
    )
    notices.protest_filed(protest)
    return protest


@transaction.atomic
def protest_decide(
    *,
    protest: Protest,
    by: User,
    upheld: bool,
    decision: str,
    by_committee: bool = False,
    data: dict[str, Any] | None = None,
    base_version: int | None = None,
    now: dt.datetime | None = None,
) -> Protest:
    """The chief judge (or the appeal committee) decides a protest, with reasons; final
    within the tournament (8.9.4). With `data` the decision changes the protocol: a new
    version, and the standings follow."""
    protest = Protest.objects.select_for_update().get(pk=protest.pk)
    game = Game.objects.locked(protest.game)
    ensure_can(by, game.tournament, "decide_protest", game=game)
    if not protest.is_open:
        raise ValidationError(_("The protest has been decided; the decision is final (8.9.4)."))
    if not decision.strip():
        raise ValidationError({"decision": _("Give the reasons of the decision.")})
    now = now or timezone.now()
    if data is not None:
        _require_base(base_version)
        _check_base(game, base_version)
        _refuse_while_played(game)
        entry = read_entry(data, entry_facts(game, by))
        _refuse(entry)
        _regulation_refusals(game, entry)
        protest.version = _new_version(
            game,
            entry.data,
            status=game.status,
            action="protest",
            by=by,
            reason=decision.strip(),
            now=now,
        )
    protest.status = ProtestStatus.UPHELD if upheld else ProtestStatus.REJECTED
    protest.decision = decision.strip()
    protest.by_committee = by_committee
    protest.decided_by = by
    protest.decided_at = now
    protest.save()
    game.tournament.log_action(
        "game.protest.decided",
        by=by,
        target=game.label,
        after={
            "upheld": upheld,
            "decision": protest.decision,
            "version": protest.version.number if protest.version else None,
        },
    )
    if protest.version is not None:
        game.tournament.standings_changed()
    notices.protest_decided(protest)
    return protest
