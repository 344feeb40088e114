"""What the printed protocols show, filled and blank (the seating sheets: `seating_sheets`).

Every protocol is read through the games app's own readers (`game_data`, then
`check_protocol` and `points_by_seat`, the very functions of the game page), so a
printed point is the point the page shows and no rule of the regulation is decided
here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mafiatab.core.advancing import choosing_order
from mafiatab.core.roles import Role, Stage
from mafiatab.core.scoring import format_points
from mafiatab.core.voting import MAX_VOTING_ROUNDS
from mafiatab.games.conversion import game_data
from mafiatab.games.models import STAGE_CHOICES, Game, GameStatus, Round
from mafiatab.games.selectors import check_protocol, points_by_seat
from mafiatab.messages import date_text, removal_reason_text
from mafiatab.registrations.models import Advancement
from mafiatab.standings.services import tournament_standings
from mafiatab.tournaments.models import StaffRole, Tournament

#: Seats of a table and foul cells of a seat on the official form.
SEATS = 10
FOUL_CELLS = 4
#: Voting blocks of the official form.
VOTING_BLOCKS = MAX_VOTING_ROUNDS


# --- protocols ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One of the ten rows of the protocol."""

    number: int
    """The seat, 1..10."""
    player: str
    """The nickname ('' on a blank form)."""
    letter: str
    """The role letter of 9.4.1 (К, Ш, Ч, Д) or ''."""
    fouls: int
    """Fouls given (the first `fouls` of the four cells are marked)."""
    main: str
    """Points (9.8) as the game page shows them, '' when unknown."""
    extra: str
    """Extra points (9.9) as the game page shows them, '' when none."""

    @property
    def foul_marks(self) -> str:
        """A mark per foul, one for each of the four foul cells (drawn by the stylesheet)."""
        return "×" * min(self.fouls, FOUL_CELLS)


@dataclass(frozen=True, slots=True)
class VoteLine:
    """One voting block of the protocol (9.5)."""

    day: str
    nominees: str
    """The nominated seats, in nomination order."""
    nominated_by: str
    """Who nominated each (when written)."""
    votes: str
    """The votes each nominee got."""
    revote: bool
    lift: str = ""
    """On a revote that tied the same players again: the votes for all of them leaving."""


@dataclass(frozen=True, slots=True)
class Reason:
    """A written reason for the back of the protocol (9.10)."""

    topic: str
    """What it explains: extra points, a penalty, a removal, a protest."""
    seat: str
    player: str
    detail: str
    """Points, rule or outcome."""
    text: str
    """The judge's (or chief judge's) words."""


@dataclass(frozen=True, slots=True)
class ProtocolSheet:
    """One official protocol, filled or blank, as printed."""

    key: str
    """A name unique among the sheets of one document (their anchors)."""
    filename: str
    """The PDF's file name (without directory)."""
    tournament: str
    stage: str
    round: str
    table: str
    game: str
    date: str
    judge: str
    chief_judge: str
    seats: tuple[SeatLine, ...]
    voting: tuple[VoteLine, ...]
    first_killed: str
    best_move: str
    winner: str
    provisional: bool
    """Not confirmed by the chief judge yet."""
    blank: bool
    """A form for a paper table (only the header and the nicknames are printed)."""
    reasons: tuple[Reason, ...] = ()
    """Written reasons: printed on a second page when there are any."""
    choosing: tuple[str, ...] = ()
    """The final's sheet: the order in which the finalists choose their seats (their
    rank order), when the organiser lets them choose."""


def stage_label(stage: str | None) -> str:
    """A stage's name in the active language."""
    return str(dict(STAGE_CHOICES).get(stage or "", stage or ""))


def team_word(winner: str | None) -> str:
    """The winning team as the game page says it."""
    words = {
        "red": pgettext("team", "red"),
        "black": pgettext("team", "black"),
        "draw": pgettext("team", "draw"),
    }
    return words.get(winner or "", "")


def role_letter(role: str | None) -> str:
    """The protocol letter of a role ('' when none is known)."""
    if not role:
        return ""
    try:
        return Role.parse(role).letter
    except ValueError:
        return str(role)


def chief_judge_names(tournament: Tournament) -> str:
    """The tournament's chief judges, as their nicknames."""
    return ", ".join(
        user.nickname or user.username for user in tournament.staff(StaffRole.CHIEF_JUDGE)
    )


def text_of(value: Any) -> str:
    """A value of a protocol as printed: nothing for a missing one."""
    return "" if value is None else str(value)


def safe_name(label: str) -> str:
    """A game label fit for a file name."""
    cleaned = "".join(c if c.isalnum() or c in "-_." else "_" for c in label).strip("._")
    return cleaned or "game"


def _seat_lines(data: dict[str, Any], sums: dict[int, dict[str, Any]]) -> tuple[SeatLine, ...]:
    seats = data.get("seats") or []
    lines = []
    for n in range(1, SEATS + 1):
        seat = seats[n - 1] if n <= len(seats) else {}
        points = sums.get(n)
        lines.append(
            SeatLine(
                number=n,
                player=seat.get("player") or "",
                letter=role_letter(seat.get("role")),
                fouls=_count(seat.get("fouls")),
                main=format_points(points["main"]) if points else "",
                extra=format_points(points["extra"], signed=True)
                if points and points["extra"]
                else "",
            )
        )
    return tuple(lines)


def _count(value: Any) -> int:
    """A count as stored, 0 when it is not one (a draft may hold anything)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _signed_points(value: Any) -> str:
    """Extra points as the protocol shows them; a value that is no number as it is."""
    try:
        return format_points(Fraction(str(value)), signed=True)
    except (ValueError, ZeroDivisionError):
        return text_of(value)


def _numbers(values: Iterable[Any]) -> str:
    return ", ".join("—" if v is None else str(v) for v in values)


def _vote_lines(blocks: Any, *, form: bool) -> tuple[VoteLine, ...]:
    """The recorded voting blocks; on a form (`form`), padded with empty rows to the
    official form's seven."""
    lines = [
        VoteLine(
            day=text_of(block.get("day")),
            nominees=_numbers(block.get("nominees") or []),
            nominated_by=_numbers(block.get("nominated_by") or []),
            votes=_numbers(block.get("votes") or []),
            revote=bool(block.get("revote")),
            lift=text_of(block.get("lift")),
        )
        for block in blocks or []
        if isinstance(block, dict)
    ]
    if not form:
        return tuple(lines)
    empty = VoteLine("", "", "", "", False)
    return tuple(lines + [empty] * max(0, VOTING_BLOCKS - len(lines)))


def _player(data: dict[str, Any], seat: Any) -> str:
    seats = data.get("seats") or []
    if isinstance(seat, int) and 1 <= seat <= len(seats):
        return seats[seat - 1].get("player") or ""
    return ""


def _reasons(data: dict[str, Any], protests: Iterable[Any]) -> tuple[Reason, ...]:
    reasons = []
    for e in data.get("judge_extra") or []:
        points = _signed_points(e.get("points"))
        if e.get("chief_approved"):
            points += " (" + _("approved by the chief judge") + ")"
        reasons.append(
            Reason(
                _("Extra points (8.4)"),
                text_of(e.get("seat")),
                _player(data, e.get("seat")),
                points,
                text_of(e.get("reason")),
            )
        )
    for p in data.get("penalties") or []:
        reasons.append(
            Reason(
                _("Penalty (8.5)"),
                text_of(p.get("seat")),
                _player(data, p.get("seat")),
                text_of(p.get("rule")),
                text_of(p.get("reason")),
            )
        )
    for r in data.get("disqualified") or []:
        details = []
        if r.get("online"):
            details.append(_("online addendum violation"))
        if r.get("fined") is False:
            details.append(_("fine waived"))
        reasons.append(
            Reason(
                _("Removal (8.2.4)"),
                text_of(r.get("seat")),
                _player(data, r.get("seat")),
                ", ".join(details),
                removal_reason_text(text_of(r.get("reason"))),
            )
        )
    for protest in protests:
        decision = protest.get_status_display()
        if protest.by_committee:
            decision += ", " + _("appeal committee")
        text = protest.text + (f" — {protest.decision}" if protest.decision else "")
        reasons.append(
            Reason(
                _("Protest (8.9)"),
                text_of(protest.seat),
                _player(data, protest.seat),
                decision,
                text,
            )
        )
    return tuple(reasons)


def _best_move(data: dict[str, Any]) -> tuple[str, str]:
    """The first-killed seat and the best move (9.6): a dash after a miss."""
    killed = data.get("first_killed")
    if not killed:
        return "—", "—"
    return str(killed), _numbers(data.get("best_move") or []) or "—"


def protocol_sheet(
    game: Game,
    *,
    chief_judge: str,
    protests: Iterable[Any] | None = None,
    data: dict[str, Any] | None = None,
) -> ProtocolSheet:
    """The filled protocol of a game, from its latest version (`data`, its `game_data`
    when read already), with its points."""
    data = game_data(game) if data is None else data
    check = check_protocol(data, ruleset=game.tournament.ruleset)
    killed, best = _best_move(data)
    return ProtocolSheet(
        key=f"game-{game.pk}",
        filename=f"protocol-{safe_name(game.label)}.pdf",
        tournament=game.tournament.name,
        stage=stage_label(data.get("stage")),
        round=text_of(data.get("round")),
        table=text_of(data.get("table")),
        game=game.label,
        date=date_text(data.get("date")),
        judge=text_of(data.get("judge")),
        chief_judge=chief_judge,
        seats=_seat_lines(data, points_by_seat(data, check)),
        voting=_vote_lines(data.get("voting"), form=False),
        first_killed=killed,
        best_move=best,
        winner=team_word(data.get("winner")),
        provisional=game.status != GameStatus.CONFIRMED,
        blank=False,
        reasons=_reasons(data, game.protests.all() if protests is None else protests),
    )


def _blank_seats(players: Iterable[str]) -> tuple[SeatLine, ...]:
    names = list(players)[:SEATS]
    names += [""] * (SEATS - len(names))
    return tuple(SeatLine(n, name, "", 0, "", "") for n, name in enumerate(names, start=1))


def blank_sheet(tournament: Tournament, *, chief_judge: str, key: str = "blank") -> ProtocolSheet:
    """A fully blank protocol with only the tournament's name."""
    return ProtocolSheet(
        key=key,
        filename="protocol-blank.pdf",
        tournament=tournament.name,
        stage="",
        round="",
        table="",
        game="",
        date="",
        judge="",
        chief_judge=chief_judge,
        seats=_blank_seats([]),
        voting=_vote_lines([], form=True),
        first_killed="",
        best_move="",
        winner="",
        provisional=False,
        blank=True,
    )


def choosing_order_of(tournament: Tournament, stage: str) -> tuple[str, ...]:
    """The order in which the players of `stage` choose their seats: their rank in the
    standings once they have played in it, before that the advance list's order."""
    if stage != Stage.FINAL.value:
        return ()
    order = choosing_order(tournament_standings(tournament), Stage.FINAL)
    if order:
        return order
    advanced = Advancement.objects.filter(tournament=tournament, stage=stage, active=True).order_by(
        "place", "id"
    )
    return tuple(a.registration.nickname for a in advanced.select_related("registration"))


def table_blank_sheet(
    game: Game, *, chief_judge: str, choosing: tuple[str, ...] = ()
) -> ProtocolSheet:
    """A paper table's protocol: the header and the seated nicknames, nothing else."""
    data = game_data(game)
    return ProtocolSheet(
        key=f"table-{game.pk}",
        filename=f"protocol-{safe_name(game.label)}-blank.pdf",
        tournament=game.tournament.name,
        stage=stage_label(data.get("stage")),
        round=text_of(data.get("round")),
        table=text_of(data.get("table")),
        game=game.label,
        date=date_text(data.get("date")),
        judge=text_of(data.get("judge")),
        chief_judge=chief_judge,
        seats=_blank_seats(s.get("player") or "" for s in data.get("seats") or []),
        voting=_vote_lines([], form=True),
        first_killed="",
        best_move="",
        winner="",
        provisional=False,
        blank=True,
        choosing=choosing,
    )


def find_round(tournament: Tournament, number: int, stage: str | None = None) -> Round | None:
    """Round `number` (of `stage`, or of the stage that created such a round last)."""
    rounds = Round.objects.filter(tournament=tournament, number=number)
    if stage:
        rounds = rounds.filter(stage=stage)
    return rounds.order_by("-created_at", "-id").first()


def round_blank_sheets(round_: Round, *, chief_judge: str) -> list[ProtocolSheet]:
    """One blank protocol per table of the round, its header and nicknames filled."""
    tables = round_.tables.select_related("game__tournament").order_by("number")
    choosing = choosing_order_of(round_.tournament, round_.stage)
    sheets = []
    for table in tables:
        game = getattr(table, "game", None)
        if game is not None:
            sheets.append(table_blank_sheet(game, chief_judge=chief_judge, choosing=choosing))
    return sheets


__all__ = [
    "ProtocolSheet",
    "SeatLine",
    "blank_sheet",
    "chief_judge_names",
    "find_round",
    "protocol_sheet",
    "round_blank_sheets",
]
