"""The tournament file's door in: a whole parsed and validated file stored as a
tournament, beside the scoring input (`mafiatab.standings.inputs`) that the file's
door out (`dumps_tournament` of `core_tournament`) writes.

The import writes every part the file holds (participants, games and their rounds
and seating, penalties, the schedule), so it stands above all of them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from mafiatab.accounts.models import User
from mafiatab.core.names import nickname_key
from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.games.conversion import (
    UnstorablePoints,
    fraction_to_decimal,
    game_rows_from_protocol,
    schedule_store,
)
from mafiatab.games.services import rounds_from_games
from mafiatab.penalties.models import Kind, Penalty
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.selectors import seat_holders
from mafiatab.seating.services import seating_from_rounds
from mafiatab.tournaments.bounds import MAX_INT
from mafiatab.tournaments.models import StaffMember, StaffRole, Tournament
from mafiatab.tournaments.services import (
    TournamentInfo,
    check_info,
    chosen_slug,
    ensure_person,
    unique_slug,
)


def dates_of(core: CoreTournament) -> tuple[dt.date | None, dt.date | None]:
    """The first and last day of the games of a tournament file (None, None: no dates)."""
    dates = []
    for game in core.games:
        if game.date:
            try:
                dates.append(dt.date.fromisoformat(game.date))
            except ValueError:
                continue
    return (min(dates), max(dates)) if dates else (None, None)


def _too_long(value: str | None, limit: int) -> bool:
    return value is not None and len(value) > limit


def storable_problems(core: CoreTournament) -> list[str]:
    """What in a parsed tournament file the database cannot hold (numbers beyond its
    columns, texts longer than its fields), one line each; empty when it all fits."""
    problems: list[str] = []
    if _too_long(core.name, 200):
        problems.append(_("name: at most %(n)d characters.") % {"n": 200})
    for key in ("participants", "games_before_final"):
        value = getattr(core, key)
        if value is not None and not 0 <= value <= MAX_INT:
            problems.append(
                _("%(key)s: a number from 0 to %(max)d.") % {"key": key, "max": MAX_INT}
            )
    if not -(2**63) <= core.lot_seed < 2**63:
        problems.append(_("lot_seed: a number of at most 18 digits."))
    for game in core.games:
        where = _("game %(id)s") % {"id": game.id[:64]}
        if _too_long(game.id, 64):
            problems.append(_("%(where)s: the id has more than 64 characters.") % {"where": where})
        for key in ("round", "table"):
            value = getattr(game, key)
            if value is not None and not 1 <= value <= MAX_INT:
                problems.append(
                    _("%(where)s, %(key)s: a number from 1 to %(max)d.")
                    % {"where": where, "key": key, "max": MAX_INT}
                )
        if _too_long(game.date, 32) or _too_long(game.judge, 64):
            problems.append(_("%(where)s: the date or the judge is too long.") % {"where": where})
        if any(len(player) > 64 for player in game.players):
            problems.append(
                _("%(where)s: a nickname has more than 64 characters.") % {"where": where}
            )
    if any(len(p.player) > 64 for p in core.penalties):
        problems.append(_("penalties: a nickname has more than 64 characters."))
    return problems


@transaction.atomic
def tournament_import(
    *,
    core: CoreTournament,
    by: User | None,
    info: TournamentInfo | None = None,
    slug: str | None = None,
) -> Tournament:
    """Store a whole (already parsed and validated) tournament file: all of it or nothing.

    Every player of its games becomes a participant, linked to the account with the
    same nickname when there is one. Its address is `slug` when given (refused when
    taken), else one made from its name.
    """
    if by is not None:
        ensure_person(by)
    starts_on, ends_on = dates_of(core)
    info = info or TournamentInfo(
        name=core.name,
        ruleset=core.ruleset,
        starts_on=starts_on,
        ends_on=ends_on,
        registration_open=False,
    )
    check_info(info)
    problems = storable_problems(core)
    if problems:
        raise ValidationError(problems)
    tournament = Tournament.objects.create(
        slug=unique_slug(info.name) if slug is None else chosen_slug(slug),
        participants=core.participants,
        games_before_final=core.games_before_final,
        lot_seed=core.lot_seed,
        stage_plan=core.stages.to_json() if core.stages is not None else None,
        **asdict(info),
    )
    if by is not None:
        StaffMember.objects.create(tournament=tournament, user=by, role=StaffRole.ORGANISER)
    names = core.player_names()
    accounts = {
        u.nickname_key: u
        for u in User.objects.filter(nickname_key__in=[nickname_key(n) for n in names])
    }
    linked: set[int] = set()
    keys: set[str] = set()
    rows = []
    for name in names:
        if nickname_key(name) in keys:  # one player, whatever the case of his name
            continue
        keys.add(nickname_key(name))
        account = accounts.get(nickname_key(name))
        if account is not None and account.pk in linked:
            account = None
        if account is not None:
            linked.add(account.pk)
        rows.append(
            Registration(
                tournament=tournament,
                user=account,
                nickname=name,
                nickname_key=nickname_key(name),
                status=Status.APPROVED,
            )
        )
    Registration.objects.bulk_create(rows)
    holders = seat_holders(tournament.pk)
    try:
        for position, protocol in enumerate(core.games, start=1):
            game_rows_from_protocol(tournament.pk, position, protocol, holders)
        Penalty.objects.bulk_create(
            Penalty(
                tournament=tournament,
                player=p.player,
                kind=Kind.OTHER,
                points=fraction_to_decimal(p.points, what=f"penalty of {p.player!r}"),
                reason=p.reason,
            )
            for p in core.penalties
        )
    except UnstorablePoints as exc:
        raise ValidationError(str(exc)) from exc
    # the rounds, tables and published seating its games were played in, as for a
    # tournament run on its pages
    rounds_from_games(tournament=tournament, by=by)
    schedule_store(tournament.pk, core.schedule)
    seating_from_rounds(tournament=tournament, by=by)
    tournament.standings_changed()
    tournament.log_action(
        "tournament.imported",
        by=by,
        target=tournament.name,
        after={
            "games": len(core.games),
            "players": len(names),
            "penalties": len(core.penalties),
            "ruleset": core.ruleset,
        },
    )
    return tournament
