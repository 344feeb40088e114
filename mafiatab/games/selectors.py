"""Reading games: the chief judge's queue, a judge's tables, a protocol's check.

`check_protocol` is where the web app asks the core about a protocol being typed:
the same reading and validation as the tournament file, the voting rules of
`mafiatab.core.voting`, and the points of the game as `score_game` computes them.
`entry_facts` is what a game knows that a protocol saved for it is read against
(the core's `read_entry`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import BooleanField, Case, Count, F, Max, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.core.protocol import Protocol
from mafiatab.core.records.entry import EntryFacts, spell_seats
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Role
from mafiatab.core.scoring import ScoreLine, score_game
from mafiatab.core.tournament_file import TournamentFileError, protocol_from_dict
from mafiatab.core.validation import Problem
from mafiatab.games.conversion import game_data
from mafiatab.games.models import (
    STAGE_CHOICES,
    Game,
    GameStatus,
    Protest,
    ProtestStatus,
    ProtocolPdf,
    ProtocolVersion,
    Round,
)
from mafiatab.messages import date_text, removal_reason_text
from mafiatab.registrations.selectors import seat_holders
from mafiatab.tournaments.disclosure import Disclosure, disclosure_for
from mafiatab.tournaments.models import Tournament
from mafiatab.tournaments.permissions import user_can

#: The header texts of a protocol that the game's own columns keep.
_COLUMNS = ("date", "judge")


@dataclass(frozen=True)
class ProtocolCheck:
    """What the core says about a protocol: its problems and, when it reads, its points."""

    protocol: Protocol | None
    problems: list[Problem] = field(default_factory=list)
    lines: list[ScoreLine] = field(default_factory=list)

    @property
    def is_valid(self) -> bool:
        return self.protocol is not None and not self.problems


def last_return(game: Game) -> ProtocolVersion | None:
    """The chief judge's return of the protocol to its table judge (who, when, why)
    while the protocol is still the draft it made; None otherwise."""
    if game.status != GameStatus.DRAFT:
        return None
    returned = (
        game.versions.filter(action="returned").select_related("author").order_by("-number").first()
    )
    if (
        returned is None
        or game.versions.filter(number__gt=returned.number)
        .exclude(status=GameStatus.DRAFT)
        .exists()
    ):
        return None
    return returned


def check_protocol(data: dict[str, Any], *, ruleset: str) -> ProtocolCheck:
    """Read `data` (the file form, voting blocks included) with the core's one reader and
    validator, as a tournament file's game is read, collecting every problem."""
    try:
        protocol = protocol_from_dict(data, ruleset=ruleset)
    except TournamentFileError as exc:
        return ProtocolCheck(None, list(exc.problems))
    lines = score_game(protocol, get_regulation(ruleset))
    return ProtocolCheck(protocol, [], lines)


def entry_facts(game: Game, by: Any) -> EntryFacts:
    """What the game knows that a protocol entered for it is read against (the core's
    `read_entry`): its header keys, its stored protocol, who may hold a seat, the
    lengths of the columns that keep its texts, whether `by` may approve extra points."""
    return EntryFacts(
        regulation=game.tournament.regulation,
        header={
            "id": game.label,
            "stage": game.stage,
            "round": game.round,
            "table": game.table,
            "replayed": True if game.replayed else None,
        },
        stored=game_data(game),
        participants={key: r.nickname for key, r in seat_holders(game.tournament_id).items()},
        limits={key: Game._meta.get_field(key).max_length or 0 for key in _COLUMNS},
        may_approve=user_can(by, game.tournament, "confirm_protocol", game=game),
    )


def stranger_problems(data: dict[str, Any], strangers: Iterable[tuple[int, str]]) -> list[Problem]:
    """A problem for each seat held by somebody who is no participant of the tournament
    (a code of the web application's: a tournament file knows no participants)."""
    gid = str(data.get("id") or "game 1")
    return [
        Problem(gid, seat, "player", "player.not_participant", {"nick": nick})
        for seat, nick in strangers
    ]


def seat_participants(
    tournament_id: int, data: dict[str, Any], *, stored: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[Problem]]:
    """`data` with every seat's nickname in its participant's spelling, and a problem for
    each seat held by somebody who is no participant (or reserve) of the tournament; the
    players of the `stored` protocol keep their seats (the core's `spell_seats`)."""
    participants = {key: r.nickname for key, r in seat_holders(tournament_id).items()}
    seated, strangers = spell_seats(data, participants, stored or {})
    return seated, stranger_problems(seated, strangers)


def points_by_seat(data: dict[str, Any], check: ProtocolCheck) -> dict[int, dict[str, Any]]:
    """Each seat's main and extra points of the game, summed from the core's score lines
    (`check.lines`): what the game page and the printed protocol show. Empty when the
    protocol cannot be read yet."""
    seats = {
        (seat.get("player") or ""): n for n, seat in enumerate(data.get("seats") or [], start=1)
    }
    sums: dict[int, dict[str, Any]] = {}
    if check.protocol is not None:
        sums = {n: {"main": 0, "extra": 0} for n in seats.values()}
    for line in check.lines:
        n = seats.get(line.player)
        if n is None:
            continue
        entry = sums.setdefault(n, {"main": 0, "extra": 0})
        entry[line.kind if line.kind in ("main", "extra") else "extra"] += line.points
    return sums


def is_confirmed_for_its_judge(user: Any, game: Game) -> bool:
    """True when `user` judged the game's table and the chief judge has confirmed its
    protocol: the judge may no longer change it, only read it (and be told why)."""
    table = game.table_slot
    return (
        game.status == GameStatus.CONFIRMED
        and table is not None
        and getattr(user, "pk", None) is not None
        and table.judge_id == user.pk
    )


def is_played_on_console(game: Game) -> bool:
    """True while the game is played on the judge console: its log begun and not closed
    (the console writes the log; it is read here through the reverse relation)."""
    return Game.objects.filter(
        pk=game.pk, console_log__isnull=False, console_log__finished_at__isnull=True
    ).exists()


def playing_notice() -> str:
    """Why a protocol is not signed while its game is played on the judge console."""
    return _(
        "This game is still being played on the judge console: its protocol is made "
        "from the console's log when the game is closed there. Finish and close the "
        "game in the console, then sign it."
    )


def playing_confirm_notice() -> str:
    """Why a protocol is not confirmed while its game is played on the judge console."""
    return _(
        "This game is still being played on the judge console: its protocol is made "
        "from the console's log when the game is closed there. It can be confirmed once "
        "the game is closed in the console and its protocol signed."
    )


def confirmed_notice() -> str:
    """Why the table's judge may no longer change a confirmed protocol."""
    return _(
        "The protocol is confirmed by the chief judge; only he can change it now. "
        "Here it is as confirmed."
    )


def can_view_game(user: Any, game: Game) -> bool:
    """True when `user` may read the game's protocol: anyone once it is confirmed, the
    staff always, a player of the game once it is submitted (a draft, filled while the
    game is played, names every role: never shown to a player of the table)."""
    tournament = game.tournament
    return (
        game.is_confirmed
        or user_can(user, tournament, "view_protocols")
        or (game.submitted_at is not None and user_can(user, tournament, "file_protest", game=game))
    )


def points_shown(disclosure: Disclosure, game: Game) -> bool:
    """True when the viewer of `disclosure` may see the game's points and what they are
    computed from (`Disclosure.shows_points`, fed the game's status and the time of
    its latest version)."""
    if disclosure.is_complete:
        return True
    changed_at = None
    if not disclosure.hidden:
        changed_at = game.versions.aggregate(latest=Max("created_at"))["latest"]
    return disclosure.shows_points(confirmed=game.is_confirmed, changed_at=changed_at)


def protocol_shown(disclosure: Disclosure, game: Game) -> bool:
    """True when the viewer may see the whole protocol, every version of it and its
    file: its points are shown (`points_shown`) and its stage's judge extras too."""
    return disclosure.shows_extras(game.stage) and points_shown(disclosure, game)


def points_shown_to(user: Any, game: Game) -> bool:
    """`points_shown` for `user` (None or anonymous: the public)."""
    return points_shown(disclosure_for(user, game.tournament), game)


def confirmed_versions(games: Iterable[Game]) -> dict[int, int]:
    """The current version of each confirmed game of `games`: game id -> version id.
    A game without a confirmed current version (being filled or submitted) is left
    out."""
    ids = [game.pk for game in games if game.status == GameStatus.CONFIRMED]
    rows = ProtocolVersion.objects.filter(
        game_id__in=ids,
        number=F("game__version"),
        status=GameStatus.CONFIRMED,
        game__status=GameStatus.CONFIRMED,
    ).values_list("game_id", "id")
    return dict(rows)


def kept_protocol_pdfs(
    keys: Iterable[tuple[int, str]], *, language: str
) -> dict[tuple[int, str], bytes]:
    """The kept PDFs among `keys` (version id, digest) in `language`, by their key."""
    wanted = set(keys)
    rows = ProtocolPdf.objects.filter(
        version_id__in={version for version, _digest in wanted}, language=language
    ).values_list("version_id", "digest", "pdf")
    return {
        (version, digest): bytes(pdf)
        for version, digest, pdf in rows
        if (version, digest) in wanted
    }


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    """Rounds with their tables, judges and games."""
    return (
        Round.objects.filter(tournament=tournament)
        .prefetch_related("tables__judge", "tables__game", "tables__seats__registration")
        .order_by("created_at", "id")
    )


def games_of_judge(tournament: Tournament, user: Any) -> QuerySet[Game]:
    """The protocols of the tables `user` judges in the tournament, each with `playing`:
    a draft whose game runs on the judge console now (its log begun, not closed)."""
    playing = When(
        status=GameStatus.DRAFT,
        console_log__isnull=False,
        console_log__finished_at__isnull=True,
        then=Value(True),
    )
    return (
        Game.objects.filter(tournament=tournament, table_slot__judge=user)
        .select_related("table_slot")
        .annotate(playing=Case(playing, default=Value(False), output_field=BooleanField()))
        .order_by("position")
    )


def submitted_games(tournament: Tournament) -> QuerySet[Game]:
    """Protocols signed by their table judges and waiting for the chief judge, in the
    order of their first signature (the protest window runs from it), each with its
    latest signature (`signed_at`, its version `signed_version`) and how many versions
    were signed (`signings`: more than one when it was changed and signed again)."""
    signed = Q(versions__action="submitted")
    return (
        Game.objects.filter(tournament=tournament, status=GameStatus.SUBMITTED)
        .annotate(
            signed_at=Max("versions__created_at", filter=signed),
            signed_version=Max("versions__number", filter=signed),
            signings=Count("versions", filter=signed),
        )
        .order_by("submitted_at", "position")
    )


def has_protested(game: Game, user: Any) -> bool:
    """True when `user` has filed his protest of `game`: one per player and game (8.9
    gives a player the right to a protest of the result, decided once and for all,
    8.9.4), so he is offered no other."""
    return bool(getattr(user, "is_authenticated", False)) and (
        Protest.objects.filter(game=game, filed_by=user).exists()
    )


def may_file_protest(user: Any, game: Game, now: dt.datetime | None = None) -> bool:
    """True when the game page offers `user` the protest form: a player of the game
    whose protocol is submitted, within the protest window, who has not protested it
    yet."""
    deadline = game.protest_deadline()
    return (
        deadline is not None
        and (now or timezone.now()) <= deadline
        and user_can(user, game.tournament, "file_protest", game=game)
        and not has_protested(game, user)
    )


def protest_window_closed(user: Any, game: Game, now: dt.datetime | None = None) -> bool:
    """True when `user` played the game and could have protested it, but its protest
    window has closed: the page says until when protests were accepted."""
    deadline = game.protest_deadline()
    return (
        deadline is not None
        and (now or timezone.now()) > deadline
        and user_can(user, game.tournament, "file_protest", game=game)
        and not has_protested(game, user)
    )


def open_protests(tournament: Tournament) -> QuerySet[Protest]:
    """Protests waiting for a decision."""
    return (
        Protest.objects.filter(game__tournament=tournament, status=ProtestStatus.OPEN)
        .select_related("game", "filed_by")
        .order_by("filed_at")
    )


@dataclass(frozen=True)
class RoundGames:
    """The games of one round of a stage, in the order of their tables."""

    stage: str
    stage_label: str
    round: int | None
    games: list[Game]


def games_by_round(
    tournament: Tournament, *, with_unconfirmed: bool, besides: Iterable[str] = ()
) -> list[RoundGames]:
    """The tournament's games by stage and round; only confirmed ones unless asked;
    none of the stages `besides`."""
    games = (
        Game.objects.filter(tournament=tournament)
        .select_related("replay")
        .prefetch_related("seats")
        .order_by("position")
    )
    if not with_unconfirmed:
        games = games.filter(status=GameStatus.CONFIRMED)
    besides = set(besides)
    if besides:
        games = games.exclude(stage__in=besides)
    stages = [code for code, _label in STAGE_CHOICES]
    labels = dict(STAGE_CHOICES)

    def key(game: Game) -> tuple[int, int, int, int]:
        stage = stages.index(game.stage) if game.stage in stages else len(stages)
        return (stage, game.round or 0, game.table or 0, game.position)

    groups: list[RoundGames] = []
    for game in sorted(games, key=key):
        last = groups[-1] if groups else None
        if last is None or (last.stage, last.round) != (game.stage, game.round):
            label = str(labels.get(game.stage, game.stage))
            last = RoundGames(game.stage, label, game.round, [])
            groups.append(last)
        last.games.append(game)
    return groups


@dataclass(frozen=True)
class Change:
    """One field that differs between two versions of a protocol."""

    field: str
    before: str
    after: str


def _role_text(value: Any) -> str:
    try:
        return Role.parse(value).letter if value else "—"
    except ValueError:
        return str(value)


def _entry_word(key: str, value: Any) -> str:
    """One value of an entry as the history shows it; a yes/no flag by its meaning."""
    if isinstance(value, bool):
        approved = key == "chief_approved" and value
        return "(" + _("approved by the chief judge") + ")" if approved else ""
    return str(value)


def _entries(items: Any, keys: tuple[str, ...]) -> str:
    """Entries of a list in words (a judge's extra points, penalties)."""
    parts = []
    for item in items or []:
        words = (_entry_word(k, item.get(k)) for k in keys if item.get(k) not in (None, ""))
        parts.append(" ".join(word for word in words if word))
    return "; ".join(parts) or "—"


def _removals_text(removals: Any) -> str:
    """The removals in words, each by its seat: "seat 4 (4 fouls)", its reason in the
    reader's language, an online addendum violation and a waived fine said too."""
    parts = []
    for removal in removals or []:
        if not isinstance(removal, dict):
            continue
        what = [removal_reason_text(str(removal.get("reason") or ""))]
        if removal.get("online"):
            what.append(_("online addendum violation"))
        if removal.get("fined") is False:
            what.append(_("fine waived"))
        seat = _("seat %(s)s") % {"s": removal.get("seat")}
        said = ", ".join(w for w in what if w)
        parts.append(f"{seat} ({said})" if said else seat)
    return "; ".join(parts) or "—"


def _seat_numbers(values: Any) -> str:
    return ", ".join("—" if v is None else str(v) for v in values or [])


def _block_text(block: dict[str, Any]) -> str:
    """One voting block in words: every field of it, so that any change shows."""
    text = _("day %(day)s: %(seats)s") % {
        "day": block.get("day"),
        "seats": _seat_numbers(block.get("nominees")),
    }
    if block.get("nominated_by"):
        text += " " + _("(nominated by %(seats)s)") % {
            "seats": _seat_numbers(block["nominated_by"])
        }
    if block.get("votes"):
        text += ", " + _("votes %(votes)s") % {"votes": _seat_numbers(block["votes"])}
    if block.get("revote"):
        text += ", " + _("revote")
    if block.get("lift") is not None:
        text += ", " + _("%(n)s for all of them leaving") % {"n": block["lift"]}
    return text


def _blocks_text(blocks: Any) -> str:
    parts = [_block_text(block) for block in blocks or [] if isinstance(block, dict)]
    return "; ".join(parts) or "—"


def version_changes(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Field by field, what changed from one version's data to the next."""
    from django.utils.translation import pgettext

    changes: list[Change] = []

    def add(label: str, old: Any, new: Any) -> None:
        old_text = "—" if old in (None, "", []) else str(old)
        new_text = "—" if new in (None, "", []) else str(new)
        if old_text != new_text:
            changes.append(Change(label, old_text, new_text))

    # a date in the language's format, as every page shows it (stored as ISO text)
    add(_("date"), date_text(before.get("date")), date_text(after.get("date")))
    add(_("judge"), before.get("judge"), after.get("judge"))
    old_seats, new_seats = before.get("seats") or [], after.get("seats") or []
    for n in range(1, max(len(old_seats), len(new_seats)) + 1):
        old = old_seats[n - 1] if n <= len(old_seats) else {}
        new = new_seats[n - 1] if n <= len(new_seats) else {}
        add(_("seat %(n)d player") % {"n": n}, old.get("player"), new.get("player"))
        add(
            _("seat %(n)d role") % {"n": n},
            _role_text(old.get("role")),
            _role_text(new.get("role")),
        )
        add(_("seat %(n)d fouls") % {"n": n}, old.get("fouls", 0), new.get("fouls", 0))
    winners = {
        "red": pgettext("team", "red"),
        "black": pgettext("team", "black"),
        "draw": pgettext("team", "draw"),
    }
    add(
        _("winner"),
        winners.get(before.get("winner"), before.get("winner")),
        winners.get(after.get("winner"), after.get("winner")),
    )
    add(_("killed first night"), before.get("first_killed"), after.get("first_killed"))
    add(
        _("best move"),
        " ".join(map(str, before.get("best_move") or [])),
        " ".join(map(str, after.get("best_move") or [])),
    )
    extra_keys = ("seat", "points", "reason", "chief_approved")
    add(
        _("judge extra points"),
        _entries(before.get("judge_extra"), extra_keys),
        _entries(after.get("judge_extra"), extra_keys),
    )
    add(
        _("penalties (8.5)"),
        _entries(before.get("penalties"), ("seat", "rule", "reason")),
        _entries(after.get("penalties"), ("seat", "rule", "reason")),
    )
    add(
        _("removals"),
        _removals_text(before.get("disqualified")),
        _removals_text(after.get("disqualified")),
    )
    add(_("voting"), _blocks_text(before.get("voting")), _blocks_text(after.get("voting")))
    add(
        _("replayed"),
        _("yes") if before.get("replayed") else _("no"),
        _("yes") if after.get("replayed") else _("no"),
    )
    return changes
