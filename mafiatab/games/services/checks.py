"""What a protocol passes before it is saved. The version the change starts from is
checked first (`_require_base`, `_check_base`); the protocol itself is read once by the
core's one reader and validator (`mafiatab.core.records.read_entry`, fed the game's
`entry_facts`), and `_refuse` refuses what no version may hold, a draft included: a
text no page, file or database can hold, a seat held by no participant, a text too long
for its column, an approval only the chief judge gives. The regulation's problems
(`Entry.problems`) are the caller's to refuse: a draft is saved with them.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from mafiatab.core.names import TEXT_BIDI, TEXT_CONTROL
from mafiatab.core.records.doors import read_protocol
from mafiatab.core.records.entry import Entry
from mafiatab.core.records.schema import TournamentFileError
from mafiatab.games import log_check
from mafiatab.games.models import Game
from mafiatab.games.selectors import (
    is_played_on_console,
    playing_confirm_notice,
    playing_notice,
    stranger_problems,
)
from mafiatab.games.services.versions import ProtocolChanged, ProtocolInvalid


def _check_base(game: Game, base_version: int | None) -> None:
    if base_version is not None and base_version != game.version:
        raise ProtocolChanged(game, base_version)


def _refuse_while_played(game: Game, *, confirm: bool = False) -> None:
    """Refuse to sign, change a signed protocol or confirm it while its game is still
    played on the judge console: its protocol is made from the log when it is closed."""
    if is_played_on_console(game):
        raise ValidationError(playing_confirm_notice() if confirm else playing_notice())


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


def _refuse(entry: Entry) -> None:
    """Refuse what no version may hold, a draft included (the first kind found)."""
    if entry.texts:
        raise ValidationError(_text_errors(entry.texts))
    if entry.strangers:
        problems = stranger_problems(entry.data, entry.strangers)
        raise ProtocolInvalid(problems)
    if entry.too_long:
        raise ValidationError(
            {key: _("At most %(n)d characters.") % {"n": limit} for key, limit in entry.too_long}
        )
    if entry.approvals_added:
        raise ValidationError(
            {"judge_extra": _("Only the chief judge approves extra points (8.4.3).")}
        )


def _regulation_refusals(game: Game, entry: Entry) -> None:
    """Refuse a version that must be whole (submitted, confirmed): the regulation's
    problems of the core's reading, and what the console's log of the game refuses
    (more votes than its living players)."""
    refused = log_check.refusals(game, entry.data)
    if not entry.is_valid or refused:
        raise ProtocolInvalid([*entry.problems, *refused])


def _text_errors(texts: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """Each text that no page, file or database can hold, said where it is."""
    errors: dict[str, list[str]] = {}
    for path in dict.fromkeys(path for path, _code in texts):
        codes = {code for where, code in texts if where == path}
        if TEXT_CONTROL in codes:
            errors.setdefault(path, []).append(
                _("%(field)s holds a control character") % {"field": path}
            )
        if TEXT_BIDI in codes:
            errors.setdefault(path, []).append(
                _("%(field)s holds a text-direction character") % {"field": path}
            )
    return errors


def _valid(game: Game, data: dict[str, Any]) -> None:
    """The stored protocol `data` read without a problem, nor one its game's console
    log refuses (a confirmation checks it)."""
    try:
        read_protocol(data, 1, game.tournament.regulation)
    except TournamentFileError as exc:
        raise ProtocolInvalid(list(exc.problems)) from None
    refused = log_check.refusals(game, data)
    if refused:
        raise ProtocolInvalid(list(refused))
