"""Random legal games for property tests, driven by the engine's `expects()`."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from mafiatab.core.game import EventType, Game, GameState, parse_event, parse_log
from mafiatab.core.roles import Team

SEATS = ["Anna", "Boris", "Clara", "Denis", "Eva", "Fedor", "Gleb", "Hanna", "Igor", "Julia"]
ALL = tuple(range(1, 11))

#: The events that move a game on (the others are drawn now and then).
_PROGRESS = (
    EventType.NOMINATE,
    EventType.VOTE,
    EventType.LIFT,
    EventType.NIGHT,
    EventType.SHOTS,
    EventType.DON_CHECK,
    EventType.SHERIFF_CHECK,
    EventType.DAY,
    EventType.BEST_MOVE,
)


@dataclass
class Played:
    """A random game: its log document and each event with the state before it."""

    log: dict[str, Any]
    steps: list[tuple[GameState, dict[str, Any]]]
    game: Game


@st.composite
def headers(draw: st.DrawFn) -> dict[str, Any]:
    """A log without events: a table, its overrides and a random deal."""
    table = draw(st.sampled_from(["fiim", "fiim-online"]))
    settings = draw(
        st.sampled_from([{}, {}, {"lift_three_at_nine": True}, {"day1_voting": table != "fiim"}])
    )
    order = draw(st.permutations(ALL))
    log: dict[str, Any] = {
        "format": "mafiatab-game-log/1",
        "table": table,
        "seats": SEATS,
        "roles": {"sheriff": order[0], "don": order[1], "black": sorted(order[2:4])},
        "events": [],
    }
    if settings:
        log["settings"] = settings
    if draw(st.booleans()):
        log.update(id="Q1-T1", stage="qualifying", round=1, table_number=1, judge="Judge")
    return log


def _pick(draw: st.DrawFn, seats: object) -> int:
    return draw(st.sampled_from(sorted(seats)))  # type: ignore[call-overload]


def _counts(draw: st.DrawFn, candidates: int, voters: int) -> list[int]:
    mode = draw(st.integers(0, 3))
    if mode == 0 and voters % candidates == 0:
        return [voters // candidates] * candidates  # a tie of everyone
    if mode == 1:  # two tied leaders, at random places
        first, second = sorted(draw(st.permutations(range(candidates)))[:2])
        counts = [0] * candidates
        counts[first] = counts[second] = voters // 2
        rest = voters - 2 * (voters // 2)
        if rest and candidates > 2:
            counts[next(i for i in range(candidates) if i not in (first, second))] = rest
        elif rest:
            counts[first] += rest
        return counts
    cuts = sorted(
        draw(st.lists(st.integers(0, voters), min_size=candidates - 1, max_size=candidates - 1))
    )
    bounds = [0, *cuts, voters]
    return [b - a for a, b in itertools.pairwise(bounds)]


def _shots(draw: st.DrawFn, state: GameState) -> dict[str, Any]:
    shooters = state.team_alive(Team.BLACK)
    if draw(st.integers(0, 3)) > 0:  # mostly agreed shots: a kill
        target = _pick(draw, state.alive)
        return {str(s): target for s in shooters}
    # a shot may name any seat, one that has left included (a miss)
    return {str(s): draw(st.none() | st.sampled_from(ALL)) for s in shooters}


def event_for(draw: st.DrawFn, state: GameState, kind: EventType) -> dict[str, Any]:
    """A legal event of `kind` in `state` (a type `state.expects()`)."""
    alive = set(state.alive)
    present = alive | set(state.last_word)  # a foul or a removal also in the last word
    voting = state.voting
    if kind is EventType.NOMINATE:
        by = _pick(draw, alive - {n.by for n in voting.nominations})
        return {"type": "nominate", "by": by, "seat": _pick(draw, alive - set(voting.nominated()))}
    if kind is EventType.VOTE:
        return {"type": "vote", "counts": _counts(draw, len(voting.candidates), len(alive))}
    if kind is EventType.LIFT:
        return {"type": "lift", "for": draw(st.integers(0, len(alive)))}
    if kind is EventType.SHOTS:
        return {"type": "shots", "by": _shots(draw, state)}
    if kind in (EventType.DON_CHECK, EventType.SHERIFF_CHECK):
        role = "don" if kind is EventType.DON_CHECK else "sheriff"
        checker = [r.value for r in state.roles].index(role) + 1
        # any seat but his own, one that has left included
        return {"type": kind.value, "seat": _pick(draw, set(ALL) - {checker})}
    if kind is EventType.BEST_MOVE:
        seats = draw(
            st.lists(
                st.sampled_from([s for s in ALL if s != state.first_killed]),
                min_size=3,
                max_size=3,
                unique=True,
            )
        )
        return {"type": "best_move", "seats": seats}
    if kind is EventType.FOUL:
        return {"type": "foul", "seat": _pick(draw, present), "id": f"f{state.events}"}
    if kind is EventType.REMOVE:
        online = state.settings.online and draw(st.booleans())
        return {
            "type": "remove",
            "seat": _pick(draw, present),
            "reason": "removed",
            "online": online,
            "fined": draw(st.booleans()),
        }
    if kind is EventType.PAUSE:
        return {"type": "pause", "seat": _pick(draw, alive), "minutes": 4, "reason": "time-out"}
    if kind is EventType.DEFEAT:
        return {
            "type": "defeat",
            "team": draw(st.sampled_from(["red", "black"])),
            "reason": "peeking",
        }
    return {"type": kind.value}


def _choose(draw: st.DrawFn, expected: tuple[EventType, ...]) -> EventType:
    # Rare events sit in the middle of the range: hypothesis favours the bounds.
    roll = draw(st.integers(0, 999))
    for kind, low, high in (
        (EventType.DEFEAT, 500, 503),
        (EventType.REMOVE, 510, 530),
        (EventType.FOUL, 540, 600),
        (EventType.PAUSE, 610, 620),
    ):
        if low <= roll < high and kind in expected:
            return kind
    progress = [k for k in expected if k in _PROGRESS] or list(expected)
    return draw(st.sampled_from(progress))


@st.composite
def played_games(draw: st.DrawFn, max_events: int = 150) -> Played:
    """A random game of legal events, each chosen among `expects()`."""
    log = draw(headers())
    game = Game(parse_log(log))
    steps: list[tuple[GameState, dict[str, Any]]] = []
    for _ in range(max_events):
        state = game.state
        expected = state.expects()
        if not expected:
            break
        event = event_for(draw, state, _choose(draw, expected))
        game.apply(parse_event(event, len(steps) + 1))
        steps.append((state, event))
    log = {**log, "events": [event for _, event in steps]}
    return Played(log, steps, game)
