"""How a protocol changes: as a new `ProtocolVersion` that the game's rows follow.

`_new_version` is the one writer of a protocol; a writer first takes the game's row
(`Game.objects.locked`) and checks his permission on the game (`ensure_can`); a writer
whose change moves the standings' inputs calls `Tournament.standings_changed`.
`ProtocolChanged` and `ProtocolInvalid` are the refusals callers catch.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.games import conversion
from mafiatab.games.models import Game, ProtocolVersion
from mafiatab.messages import problem_line
from mafiatab.registrations.selectors import seat_holders

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


class ProtocolChanged(Exception):
    """Someone saved the protocol after the version the writer started from."""

    def __init__(self, game: Game, base_version: int) -> None:
        self.game = game
        self.base_version = base_version
        self.current_version = game.version
        super().__init__(
            _(
                "The protocol was changed by someone else (version %(current)d, you started "
                "from version %(base)d). Your entries were not saved over it: reload the "
                "protocol and enter them again."
            )
            % {"current": game.version, "base": base_version}
        )


class ProtocolConfirmed(ProtocolChanged, PermissionDenied):
    """The chief judge confirmed the protocol since its table judge opened it: only the
    chief judge changes it now (a refusal of the permission, said with its reason)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.base_version = self.current_version = game.version
        Exception.__init__(
            self,
            _(
                "The chief judge confirmed this protocol meanwhile (version %(version)d): "
                "only he can change it now. Your entries were not saved."
            )
            % {"version": game.version},
        )


class ProtocolInvalid(ValidationError):
    """The protocol breaks rules of the regulation; `problems` lists them all."""

    def __init__(self, problems: list[Any]) -> None:
        self.problems = problems
        super().__init__([problem_line(p) for p in problems])


def _new_version(
    game: Game,
    data: dict[str, Any],
    *,
    status: str,
    action: str,
    by: User | None,
    reason: str,
    now: dt.datetime | None = None,
    reason_code: str = "",
    reason_params: dict[str, Any] | None = None,
) -> ProtocolVersion:
    """Record `data` as the game's next version and make the rows follow it. A reason
    the server writes is `reason_code` with `reason_params` (`messages.STORED_REASONS`),
    said in the reader's language when read."""
    number = game.version + 1
    version = ProtocolVersion.objects.create(
        game=game,
        number=number,
        data=data,
        status=status,
        action=action,
        reason=reason,
        reason_code=reason_code,
        reason_params=reason_params or {},
        author=by if by is not None and by.is_authenticated else None,
        created_at=now or timezone.now(),
    )
    game.version = number
    game.status = status
    try:
        conversion.write_game_data(game, data, holders=seat_holders(game.tournament_id))
    except conversion.UnstorablePoints as exc:
        raise ValidationError(str(exc)) from exc
    return version
