"""Reading the console's logs: the views the judge, the spectators and the API see.

Before the game is closed, a spectator's view holds nothing that tells a role: no
roles in the header, no shooters or checked seats in the night events, the engine's
public state. The engine's word that the game is over (a last departure, a
`defeat`) is not enough: the roles become public only when the judge closes the
game (`services.log_finish`), so a mistaken defeat can still be undone in secret.
The table judge and the chief judge see everything.

Texts stored before the reader refused what no page can hold (a lone surrogate, a
control or text-direction character) are shown escaped (`printable_json`).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from django.utils import timezone
from django.utils.translation import gettext as _

from mafiatab.console import engine
from mafiatab.console.messages import event_text, phase_text, result_text, winner_text
from mafiatab.console.models import EntryKind, GameLog
from mafiatab.core.names import printable_json
from mafiatab.core.scoring import format_points
from mafiatab.games.conversion import game_data, withheld_form, without_extras
from mafiatab.games.models import Game
from mafiatab.games.selectors import check_protocol, points_by_seat, points_shown
from mafiatab.tournaments.disclosure import disclosure_for
from mafiatab.tournaments.permissions import user_can

#: What a spectator sees of an event before the end.
_HIDDEN_FIELDS = {"shots": ("by",), "don_check": ("seat",), "sheriff_check": ("seat",)}
#: The events a spectator does not learn of at all before the end.
_CHECKS = {"don_check", "sheriff_check"}


def can_run(user: Any, game: Game) -> bool:
    """The table's judge (while the protocol is not confirmed) or the chief judge."""
    return user_can(user, game.tournament, "enter_protocol", game=game)


def live_games(tournament: Any) -> list[Game]:
    """The games of a tournament being played on the console (started, protocol not made)."""
    return list(
        Game.objects.filter(
            tournament=tournament, console_log__isnull=False, console_log__finished_at__isnull=True
        ).order_by("position")
    )


def log_of(game: Game) -> GameLog | None:
    return GameLog.objects.filter(game=game).first()


def live(log: GameLog) -> list[dict[str, Any]]:
    """The events in force, in order: the log that is replayed. An event stored before
    the reader refused its texts (a control or text-direction character, a lone
    surrogate) is given escaped, so that the game it belongs to still replays."""
    events = (
        log.entries.filter(kind=EntryKind.EVENT, undone_by__isnull=True)
        .order_by("number")
        .values_list("event", flat=True)
    )
    return [cast(dict[str, Any], printable_json(event)) for event in events]


def live_numbers(log: GameLog) -> list[int]:
    """The number of each event in force (its entry's, as the judge's history shows it),
    in the order of `live`."""
    entries = log.entries.filter(kind=EntryKind.EVENT, undone_by__isnull=True).order_by("number")
    return list(entries.values_list("number", flat=True))


def place_view(log: GameLog, *, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """The kept place with its revision and its age in seconds (a running timer has
    run that long since; the reader's clock is not trusted to agree with the server's)."""
    if not log.place or log.place_at is None:
        return None
    age = max(0.0, ((now or timezone.now()) - log.place_at).total_seconds())
    return {**log.place, "revision": log.place_revision, "age": round(age, 1)}


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    hidden = _HIDDEN_FIELDS.get(str(event.get("type")), ())
    return {k: v for k, v in event.items() if k not in hidden}


@dataclass(frozen=True, slots=True)
class _Entry:
    """An entry of a log as the view reads it."""

    number: int
    """Its place in the log, 1 first (undos included)."""
    kind: str
    """An event or an undo (`EntryKind`)."""
    event: Any
    """The event as stored (an undo has none)."""
    client_id: uuid.UUID
    """The id the writer gave it."""
    undoes: int | None
    """The number of the entry an undo takes back."""


def _entries(log: GameLog) -> list[_Entry]:
    """Every entry of the log, in order (read as rows: a long log is read on every
    request of the console and of the board)."""
    rows = log.entries.order_by("number").values_list(
        "number", "kind", "event", "client_id", "undoes__number"
    )
    return [_Entry(*row) for row in rows]


def _without_checks(entries: list[_Entry]) -> list[_Entry]:
    """The entries a spectator may know of before the end: no check, no undo of one,
    numbered as if there had been none. How many checks a night had would tell whether
    the don or the sheriff is still in the game (the engine's public state leaves them
    out of its count of events for the same reason)."""
    checks = {
        e.number
        for e in entries
        if e.kind == EntryKind.EVENT and str(e.event.get("type")) in _CHECKS
    }
    return [
        e
        for e in entries
        if e.number not in checks and (e.undoes is None or e.undoes not in checks)
    ]


def log_view(game: Game, *, full: bool, disclose: bool, only: int | None = None) -> dict[str, Any]:
    """The game's log and state; `full` for its judges, otherwise what spectators see:
    once the judge closed the game, everything when `disclose` (the viewer may see the
    game's points, `points_shown_to`), else still no role and no night secret, only
    the winner. `only`: the entries are that entry alone (the answer to a write)."""
    log = log_of(game)
    view: dict[str, Any] = {
        "game_id": game.pk,
        "label": game.label,
        "started": log is not None,
        "closed": bool(log and log.is_closed),
        "full": full,
        "number": 0,
        "finished": False,
        "winner": None,
        "phase_text": "",
        "winner_text": "",
        "header": None,
        "entries": [],
        "state": None,
        "problems": [],
        "board": None,
        "place": None,
        "first_speaker": None,
    }
    if log is None:
        return view
    view["place"] = place_view(log)
    entries = _entries(log)
    undone = {e.undoes for e in entries if e.undoes is not None}
    in_force = [e for e in entries if e.kind == EntryKind.EVENT and e.number not in undone]
    # escaped: an event stored before the reader refused its texts still replays
    live = [printable_json(e.event) for e in in_force]
    # A problem names its event by the number this view gives it (a log that does not
    # replay has no end, so its view is the judges' exactly when `full`).
    numbers: list[int | None] = [e.number for e in in_force]
    if not full:
        public = {e.number: n for n, e in enumerate(_without_checks(entries), start=1)}
        numbers = [public.get(e.number) for e in in_force]
    replayed = engine.replay(log.header, live, numbers)
    state = replayed.state
    finished = state is not None and engine.is_finished(state)
    reveal = disclose and log.is_closed
    shown = full or (finished and reveal)
    header = printable_json(log.header)
    assert isinstance(header, dict)
    if not shown:
        header.pop("roles", None)
    view.update(
        number=log.last_number,
        finished=finished,
        full=shown,
        header=header,
        problems=[p.message for p in replayed.problems],
    )
    if state is not None:
        state_json = printable_json(engine.state_json(state, public=not shown, reveal=reveal))
        assert isinstance(state_json, dict)
        view["state"] = state_json
        view["winner"] = state_json.get("winner")
        view["phase_text"] = phase_text(state_json.get("phase"))
        view["winner_text"] = winner_text(state_json.get("winner"))
        view["first_speaker"] = state.first_speaker
    # the position of each event in force in the replayed log
    position = {e.number: n for n, e in enumerate(in_force, start=1)}
    # an undone event is told as it stood: after the events then in force, when they
    # are still the first in force (`_undone_after`)
    before_undone = _undone_after(entries, [e.number for e in in_force])
    if not shown:
        entries = _without_checks(entries)
        view["number"] = len(entries)
    numbering = {entry.number: n for n, entry in enumerate(entries, start=1)}
    if shown:
        numbering = {number: number for number in numbering}
    teller = _Teller(
        {e.number: e for e in entries}, numbering, position, before_undone, replayed, shown
    )
    for entry in entries:
        if only is not None and entry.number != only:
            continue
        view["entries"].append(
            {
                "number": numbering[entry.number],
                "id": str(entry.client_id),
                "kind": entry.kind,
                "event": (
                    _shown_event(entry.event, shown) if entry.kind == EntryKind.EVENT else None
                ),
                "undone": entry.number in undone,
                "undoes": numbering.get(entry.undoes) if entry.undoes is not None else None,
                "text": teller.told(entry),
            }
        )
    view["board"] = board(view)
    return view


@dataclass(frozen=True)
class _Teller:
    """Tells the entries of a log view as the history reads them."""

    entries: dict[int, _Entry]
    """The entries shown, by their number in the log."""
    numbering: dict[int, int]
    """The number the view gives each entry."""
    position: dict[int, int]
    """The position of each event in force in the replayed log."""
    before_undone: dict[int, int]
    """How many events in force came before each undone event (`_undone_after`)."""
    replayed: engine.Replayed
    shown: bool
    """Whether the view shows the secrets (the roles, the night)."""

    def told(self, entry: _Entry) -> str:
        """The entry as a sentence; an undo, by what it took back."""
        if entry.kind != EntryKind.EVENT:
            undone = self.entries.get(entry.undoes) if entry.undoes is not None else None
            if undone is None:
                return ""
            return _("Undone (event %(n)s): %(event)s") % {
                "n": self.numbering[undone.number],
                "event": self.told(undone),
            }
        event = _shown_event(entry.event, self.shown)
        if entry.number in self.position:
            return _entry_text(event, self.replayed, self.position[entry.number])
        count = self.before_undone.get(entry.number)
        if count is None:
            return event_text(event)
        seats, effect = self.replayed.aside(count, printable_json(entry.event))
        return event_text(event, seats, effect.to_json() if effect is not None else None)


def _shown_event(event: Any, shown: bool) -> Any:
    """An event as the view shows it (escaped; a spectator's without its secrets)."""
    if not isinstance(event, dict):
        return event
    return cast(dict[str, Any], printable_json(event if shown else _public_event(event)))


def _undone_after(entries: list[_Entry], in_force: list[int]) -> dict[int, int]:
    """For each undone event, how many events were in force before it, when those are
    still the first events in force (so the replayed log knows the state it came
    after); an undone event after which the log went other ways is left out."""
    stack: list[int] = []
    found: dict[int, int] = {}
    for entry in entries:
        if entry.kind == EntryKind.EVENT:
            stack.append(entry.number)
        elif stack and stack[-1] == entry.undoes:  # an undo takes back the last in force
            stack.pop()
            if in_force[: len(stack)] == stack:
                found[entry.undoes] = len(stack)
    return found


def table_view(game: Game, *, viewer: Any, director: bool = False) -> dict[str, Any]:
    """What a table's board, overlay and result card show to `viewer` (None: the public),
    or to the director (the judges' view): the console log's view; for a game never run
    on the console whose protocol is confirmed, its result read from the protocol."""
    if director:
        view = log_view(game, full=True, disclose=True)
    else:
        disclosure = disclosure_for(viewer, game.tournament)
        view = log_view(game, full=False, disclose=points_shown(disclosure, game))
    if not view["started"] and game.is_confirmed:
        return protocol_view(game, viewer=viewer, director=director)
    return view


def protocol_view(game: Game, *, viewer: Any, director: bool = False) -> dict[str, Any]:
    """A confirmed game's result as its board, overlay and card show it, read from its
    protocol (the game was not run on the console, so there is no log): the winner and
    who played; the roles, fouls, best move and each player's points only when the
    viewer may see the game's points (as the game page shows them), the judges' extras
    only where the stage shows them. Same keys as `log_view`."""
    disclosure = disclosure_for(viewer, game.tournament)
    shown = director or points_shown(disclosure, game)
    data = game_data(game)
    if not director and not disclosure.shows_extras(game.stage):
        data = without_extras(data)
    sums: dict[int, dict[str, Any]] = {}
    if shown:
        sums = points_by_seat(data, check_protocol(data, ruleset=game.tournament.ruleset))
    else:
        data = withheld_form(data)
    rows = []
    for n, seat in enumerate(data.get("seats") or [], start=1):
        seat = seat if isinstance(seat, dict) else {}
        fouls = seat.get("fouls") or 0
        fouls = len(fouls) if isinstance(fouls, list) else int(fouls)
        points = sums.get(n)
        rows.append(
            {
                "n": n,
                "nick": seat.get("player") or "",
                "fouls": fouls,
                "foul_dots": [i <= fouls for i in range(1, 5)],
                "left": None,
                "nominated": False,
                "role": str(seat.get("role") or "") if shown else "",
                "points": format_points(points["main"] + points["extra"]) if points else "",
            }
        )
    winner = data.get("winner")
    state = (
        {"first_killed": data.get("first_killed"), "best_move": data.get("best_move") or []}
        if shown
        else {}
    )
    return {
        "game_id": game.pk,
        "label": game.label,
        "started": True,
        "closed": True,
        "full": shown,
        "number": 0,
        "finished": True,
        "winner": winner,
        "phase_text": _("The game is over."),
        "winner_text": winner_text(winner),
        "header": None,
        "entries": [],
        "state": state,
        "problems": [],
        "board": {"rows": rows, "nominations": [], "blocks": [], "voting_status": None},
        "place": None,
        "first_speaker": None,
    }


def _entry_text(event: dict[str, Any] | None, replayed: engine.Replayed, position: int) -> str:
    """An event told as the game: its candidates and what it did are read from the
    replayed states around it (`position`: its place in the log in force, 0 for none)."""
    if event is None:
        return ""
    effect = replayed.effect(position)
    return event_text(
        event, replayed.candidates(position), effect.to_json() if effect is not None else None
    )


def board(view: dict[str, Any]) -> dict[str, Any]:
    """The spectators' board from a (public) log view: seats, today's voting, the result."""
    state = view.get("state") or {}
    seats = state.get("seats") or (view.get("header") or {}).get("seats") or []
    fouls = state.get("fouls") or {}
    left = {d["seat"]: d for d in state.get("left") or []}
    roles: dict[int, str] = {}
    if view.get("finished") and view.get("full"):
        protocol_seats = (state.get("protocol") or {}).get("seats") or []
        roles = {n: s.get("role") or "" for n, s in enumerate(protocol_seats, start=1)}
    voting = state.get("voting") or {}
    phase = state.get("phase") or {}
    today = phase.get("day") or phase.get("night")
    nominated = [n["seat"] for n in voting.get("nominations") or []]
    rows = [
        {
            "n": n,
            "nick": nick,
            "fouls": fouls.get(str(n), 0),
            "foul_dots": [i <= fouls.get(str(n), 0) for i in range(1, 5)],
            "left": left.get(n),
            "nominated": n in nominated,
            "role": roles.get(n, ""),
        }
        for n, nick in enumerate(seats, start=1)
    ]
    blocks = [
        {
            "revote": block.get("revote"),
            "lift": block.get("lift"),
            "pairs": list(zip(block.get("nominees") or [], block.get("votes") or [], strict=False)),
            "nominees": block.get("nominees") or [],
            "single": not block.get("votes"),
            "result_text": result_text(block.get("result"), single=not block.get("votes")),
        }
        for block in state.get("blocks") or []
        if block.get("day") == today
    ]
    return {
        "rows": rows,
        "nominations": voting.get("nominations") or [],
        "blocks": blocks,
        "voting_status": voting.get("status"),
        "day": voting.get("day"),
    }


def logs_for_tournament(tournament: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every console log of a tournament as a `mafiatab-game-log/1` document (the events
    in force), named after its game: what the tournament archive stores under `logs/`
    and what `mafiatab game replay` reads. A text stored before the reader refused
    what no file can hold (a lone surrogate, a control character) is escaped."""
    logs = (
        GameLog.objects.filter(game__tournament=tournament)
        .select_related("game")
        .order_by("game__position")
    )
    for log in logs:
        # texts stored before the reader refused them are written escaped
        yield f"{log.game.label}.json", printable_json(engine.document(log.header, live(log)))


def signed_notice() -> str:
    """Why the console takes no more entries once the game's protocol is signed."""
    return _("The protocol of this game is already signed: the console takes no more events.")
