"""What a protocol passes before it is saved: the version it starts from, the game's
own header keys, seats held by participants, texts that fit their columns, approvals
only the chief judge adds (`_accepted` runs them all) and the core's validation
(`_valid`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mafiatab.core.names import TEXT_BIDI, TEXT_CONTROL, text_problems
from mafiatab.games import conversion, log_check
from mafiatab.games.models import Game
from mafiatab.games.selectors import check_protocol, seat_participants
from mafiatab.games.services.versions import ProtocolChanged, ProtocolInvalid
from mafiatab.tournaments.permissions import user_can

if TYPE_CHECKING:
    from mafiatab.accounts.models import User


def _approvals(data: dict[str, Any]) -> set[tuple[Any, Fraction]]:
    return {
        (extra.get("seat"), Fraction(str(extra.get("points"))))
        for extra in data.get("judge_extra") or []
        if extra.get("chief_approved")
    }


def _check_approvals(game: Game, data: dict[str, Any], by: User | None) -> None:
    """Only the chief judge approves extra points (8.4.3): anyone else may keep the
    approvals the protocol already has, never add one (whatever the door: form, API)."""
    if user_can(by, game.tournament, "confirm_protocol", game=game):
        return
    try:
        added = _approvals(data) - _approvals(conversion.game_data(game))
    except (ValueError, ZeroDivisionError):
        return  # unreadable points: the core's validation names them
    if added:
        raise ValidationError(
            {"judge_extra": _("Only the chief judge approves extra points (8.4.3).")}
        )


def _check_base(game: Game, base_version: int | None) -> None:
    if base_version is not None and base_version != game.version:
        raise ProtocolChanged(game, base_version)


def _seated(game: Game, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with every seat's nickname in its participant's spelling; ProtocolInvalid
    naming each seat held by somebody who is no participant of the tournament."""

    seated, problems = seat_participants(
        game.tournament_id, data, stored=conversion.game_data(game)
    )
    if problems:
        raise ProtocolInvalid(problems)
    return seated


def _require_base(base_version: int | None) -> None:
    """A change of the protocol names the version it starts from."""
    if base_version is None:
        raise ValidationError(
            {
                "base_version": _(
                    "Name the version of the protocol the change starts from "
                    "(base_version), so that nobody's entries are overwritten."
                )
            }
        )


def _valid(game: Game, data: dict[str, Any]) -> None:
    check = check_protocol(data, ruleset=game.tournament.ruleset)
    # what the console's log of the game refuses (more votes than its living players)
    refused = log_check.refusals(game, data)
    if not check.is_valid or refused:
        raise ProtocolInvalid([*check.problems, *refused])


def _check_lengths(data: dict[str, Any]) -> None:
    """A draft is saved without the core's validation: its texts must still fit the
    columns that hold them (the date and the judge's name)."""
    errors = {}
    for key in ("date", "judge"):
        limit = Game._meta.get_field(key).max_length or 0
        value = data.get(key)
        if isinstance(value, str) and len(value) > limit:
            errors[key] = _("At most %(n)d characters.") % {"n": limit}
    if errors:
        raise ValidationError(errors)


def _texts(value: Any, path: str = "") -> Any:
    """Every text of a protocol's dictionary with where it is (`disqualified.0.reason`)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts(item, f"{path}.{index}")


def _check_texts(data: dict[str, Any]) -> None:
    """A draft is saved without the core's validation: still, no text of it may hold a
    character that no page, file or database can hold (a control character, a lone
    surrogate) or that disguises it (a text-direction character)."""
    errors: dict[str, list[str]] = {}
    for path, text in _texts(data):
        codes = text_problems(text, limit=len(text))
        if TEXT_CONTROL in codes:
            errors.setdefault(path, []).append(
                _("%(field)s holds a control character") % {"field": path}
            )
        if TEXT_BIDI in codes:
            errors.setdefault(path, []).append(
                _("%(field)s holds a text-direction character") % {"field": path}
            )
    if errors:
        raise ValidationError(errors)


def _fixed_keys(game: Game, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the header keys that belong to the game, not to the form."""
    fixed = dict(data)
    fixed["id"] = game.label
    fixed["stage"] = game.stage
    for key in ("round", "table"):
        value = getattr(game, key)
        if value is None:
            fixed.pop(key, None)
        else:
            fixed[key] = value
    fixed["replayed"] = game.replayed
    if not game.replayed:
        fixed.pop("replayed")
    return fixed


def _accepted(
    game: Game, data: dict[str, Any], *, by: User | None, base_version: int | None
) -> dict[str, Any]:
    """`data` ready to be saved as the game's next version: it names the version it starts
    from and nobody saved since, its header keys are the game's, its seats are held by
    participants, its texts fit and only the chief judge added approvals. The core's
    validation (`_valid`) is the caller's to ask for: a draft is saved without it."""
    _require_base(base_version)
    _check_base(game, base_version)
    _check_texts(data)
    data = _seated(game, _fixed_keys(game, data))
    _check_lengths(data)
    _check_approvals(game, data, by)
    return data
