"""Scoring of games and tournaments: section 8 of the regulation.

`game_awards` is the one place that decides who gets which points in a game
(8.2-8.6 and the replay carry-over). Everything else consumes its awards:
`score_game` turns them into explained `ScoreLine`s, and `tally` counts them over
a whole tournament in one pass, so standings of tens of thousands of games are
computed with a handful of exact fraction operations per player.

An award's amount is exact; it is None for the two amounts that depend on the
whole tournament: a win (times K where 8.7 applies) and a compensation (Ci of 8.6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain
from operator import itemgetter

from mafiatab.core.protocol import (
    FOUL_REMOVAL_FOULS,
    Protocol,
    Tournament,
    TournamentPenalty,
    deal_of,
    is_foul_removal,
)
from mafiatab.core.regulations import Regulation, get_regulation
from mafiatab.core.roles import Role, Stage, Team, Winner
from mafiatab.core.validation import game_label

#: Clauses of the awards (a removal for an online violation is item 4.1 of the addendum).
WIN_RED = "8.2.1"
WIN_BLACK = "8.2.2"
REMOVAL = "8.2.4"
ONLINE_REMOVAL = "online 4.1"
BEST_MOVE = "8.3"
JUDGE_EXTRA = "8.4"
COMPENSATION = "8.6"
TOURNAMENT_PENALTY = "discipline"

#: Clauses whose points are main points; every other game clause gives extra points.
MAIN_CLAUSES = frozenset({WIN_RED, WIN_BLACK, COMPENSATION})

_RED_TEAM = (Role.RED, Role.SHERIFF)
_BLACK_TEAM = (Role.BLACK, Role.DON)

#: One award of a game: (seats, clause, exact amount or None, note). Every seat
#: listed gets the amount once; a win is one award for the whole team.
Award = tuple[tuple[int, ...], str, Fraction | None, str]


def blacks_named(protocol: Protocol) -> int:
    """How many of the seats named in the best move hold black or don (8.3)."""
    roles = protocol.roles
    return sum(1 for seat in protocol.best_move if roles[seat - 1] in _BLACK_TEAM)


def game_awards(protocol: Protocol, regulation: Regulation) -> list[Award]:
    """Who gets which points in one game, clause by clause (8.2-8.6, replays)."""
    awards: list[Award] = []
    roles = protocol.roles
    if not protocol.replayed:
        winner = protocol.winner
        if winner is not Winner.DRAW:
            clause = WIN_RED if winner is Winner.RED else WIN_BLACK
            awards.append((deal_of(roles).winners(winner), clause, None, ""))
        killed = protocol.first_killed
        if killed is not None and roles[killed - 1] in _RED_TEAM:
            if winner is Winner.BLACK and protocol.stage is not Stage.FINAL:
                awards.append(((killed,), COMPENSATION, None, ""))
            if protocol.best_move:
                points = regulation.best_move_points(blacks_named(protocol))
                if points:
                    awards.append(((killed,), BEST_MOVE, points, ""))
        if protocol.judge_extra:
            awards += [((e.seat,), JUDGE_EXTRA, e.points, e.reason) for e in protocol.judge_extra]
        if protocol.penalties:
            cost = regulation.negative_action
            awards += [((p.seat,), p.rule, cost, p.reason) for p in protocol.penalties]
    for removal in protocol.disqualified:
        clause = ONLINE_REMOVAL if removal.online else REMOVAL
        points = regulation.removal_points(online=removal.online, fined=removal.fined)
        awards.append(((removal.seat,), clause, points, removal.reason))
    return awards


@dataclass(frozen=True)
class ScoringContext:
    """What the points of one game depend on beyond the game itself (8.6, 8.7)."""

    regulation: Regulation
    """The tournament's regulation."""
    coefficient_k: Fraction = Fraction(1)
    """K of 8.7 (1 where it does not apply)."""
    heavy_side: Team | None = None
    """The side whose wins are multiplied by K; None where 8.7 does not apply."""
    compensation_b: int = 0
    """B of 8.6."""
    first_night_kills: Mapping[str, int] = field(default_factory=dict)
    """i of 8.6 per player."""

    def win_points(self, clause: str) -> Fraction:
        """The points of one win, times K for the heavy side (8.7.3)."""
        team = Team.RED if clause == WIN_RED else Team.BLACK
        points = self.regulation.win_points
        return points * self.coefficient_k if team is self.heavy_side else points

    def compensation(self, player: str) -> Fraction:
        """Ci of 8.6.1 for the player."""
        return self.regulation.compensation(
            self.first_night_kills.get(player, 0), self.compensation_b
        )

    def amount(self, player: str, clause: str, amount: Fraction | None) -> Fraction:
        """The exact points of an award."""
        if amount is not None:
            return amount
        if clause == COMPENSATION:
            return self.compensation(player)
        return self.win_points(clause)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a player's points, with the clause that gives it."""

    player: str
    """The player's nickname."""
    game: str | None
    """The game's id; None for a tournament-level penalty."""
    clause: str
    """The clause of the regulation (or addendum) that gives the points."""
    kind: str
    """"main", "extra" (8.2.4, 8.3, 8.4, 8.5) or "penalty" (tournament-level)."""
    points: Fraction
    """Exact points, negative for a penalty."""
    label: str
    """What the points are for, in plain English words (the CLI's text)."""
    topic: str = ""
    """What the points are for, as a stable code to render in any language: "win",
    "compensation", "best_move", "judge_extra", "negative_action", "removal" or
    "penalty"."""
    note: str = ""
    """The words a judge wrote for it (the reason), verbatim; empty if none."""
    facts: tuple[tuple[str, str | int | bool | Fraction], ...] = ()
    """The numbers and names the label is made of, e.g. (("role", "sheriff"), ("k", K))."""

    def fact(self, name: str, default: object = None) -> object:
        """One of `facts` by name."""
        return dict(self.facts).get(name, default)

    def __str__(self) -> str:
        where = f", {game_label(self.game)}" if self.game is not None else ""
        return f"{self.clause} {self.label}{where}: {format_points(self.points, signed=True)}"


def round_half_up(value: Fraction, places: int = 2) -> Fraction:
    """`value` rounded to `places` decimals, halves away from zero."""
    scale = 10**places
    return Fraction(scaled_half_up(value, scale), scale)


def scaled_half_up(value: Fraction, scale: int) -> int:
    """`value * scale` rounded to an integer, halves away from zero (integer arithmetic)."""
    numerator, denominator = value.numerator, value.denominator
    magnitude = (2 * abs(numerator) * scale + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def format_points(value: Fraction, *, signed: bool = False) -> str:
    """Points for display: two decimals, halves up (`+0.40` when signed)."""
    cents = scaled_half_up(value, 100)
    text = f"{abs(cents) // 100}.{abs(cents) % 100:02d}"
    if cents < 0:
        return f"-{text}"
    return f"+{text}" if signed else text


Facts = tuple[tuple[str, str | int | bool | Fraction], ...]


def _describe(
    protocol: Protocol,
    award: tuple[int, str, Fraction | None, str],
    context: ScoringContext,
    player: str,
) -> tuple[str, Facts]:
    """The topic and facts of one award to one player."""
    seat, clause, amount, _ = award
    if clause in (WIN_RED, WIN_BLACK):
        facts: Facts = (
            ("team", "red" if clause == WIN_RED else "black"),
            ("role", protocol.roles[seat - 1].value),
        )
        if context.win_points(clause) != context.regulation.win_points:
            facts += (("k", context.coefficient_k),)
        return "win", facts
    if clause == COMPENSATION:
        i = context.first_night_kills.get(player, 0)
        return "compensation", (("i", i), ("b", context.compensation_b))
    if clause == BEST_MOVE:
        return "best_move", (("blacks", blacks_named(protocol)),)
    if clause == JUDGE_EXTRA:
        return "judge_extra", ()
    if clause in (REMOVAL, ONLINE_REMOVAL):
        facts = (
            ("online", clause == ONLINE_REMOVAL),
            ("waived", amount == 0),
            ("carried_over", protocol.replayed),
        )
        if is_foul_removal(award[3]):
            # the engine's fourth-foul reason is a code: its number, not English words
            facts += (("fouls", FOUL_REMOVAL_FOULS),)
        return "removal", facts
    return "negative_action", (("rule", clause),)


def _label(topic: str, facts: Facts, note: str) -> str:
    """The English words of a line (the CLI's text)."""
    known = dict(facts)
    if topic == "win":
        text = f"win of the {known['team']} team as {known['role']}"
        if "k" in known:
            text += f", times K {format_points(Fraction(known['k']))} (8.7)"
        return text
    if topic == "compensation":
        return (
            f"compensation for the first-night kill, red team lost (i {known['i']}, B {known['b']})"
        )
    if topic == "removal":
        text = "removal for an online violation" if known["online"] else "removal"
        if known["carried_over"]:
            text = "removal carried over from the replayed game"
        if known["waived"]:
            text += ", fine waived"
        if "fouls" in known:
            note = f"{known['fouls']} fouls"  # the command line's words, as before
    elif topic == "best_move":
        text = f"best move: {known['blacks']} blacks named"
    else:
        text = {"judge_extra": "judge extra points"}.get(
            topic, f"negative action ({known.get('rule')})"
        )
    return f"{text}: {note}" if note else text


def score_game(
    protocol: Protocol, regulation: Regulation, context: ScoringContext | None = None
) -> list[ScoreLine]:
    """Every line of the points of one game.

    Without a context the game is scored on its own, as its protocol shows it: K = 1,
    and no 8.6 compensation, which depends on the player's other games and B (the
    standings give it, game by game).
    """
    ctx = context or ScoringContext(regulation)
    lines = []
    for seats, clause, amount, note in game_awards(protocol, regulation):
        if context is None and clause == COMPENSATION:
            continue
        kind = "main" if clause in MAIN_CLAUSES else "extra"
        for seat in seats:
            player = protocol.players[seat - 1]
            points = ctx.amount(player, clause, amount)
            topic, facts = _describe(protocol, (seat, clause, amount, note), ctx, player)
            if "fouls" in dict(facts):
                note = ""  # a code said by its facts, not the judge's words
            label = _label(topic, facts, note)
            lines.append(
                ScoreLine(player, protocol.id, clause, kind, points, label, topic, note, facts)
            )
    return lines


@dataclass
class PlayerTally:
    """What one pass over the games counts for one player."""

    games: int = 0
    """Counted games (replayed ones excluded)."""
    games_before_final: int = 0
    """Counted qualifying and semifinal games."""
    wins: int = 0
    """Games won."""
    wins_as_don_or_sheriff: int = 0
    """Games won as don or sheriff (8.8.3)."""
    first_night_deaths: int = 0
    """Counted games in which the player was killed in the first night, any role (8.8.4)."""
    first_night_kills: int = 0
    """i of 8.6: qualifying/semifinal first-night kills as red or sheriff."""
    awards: list[tuple[tuple[str, Fraction | None], int]] = field(default_factory=list)
    """How many times the player got each (clause, amount): each (clause, amount) once."""


@dataclass
class Tally:
    """One pass over a tournament's games: the counts every point is made of."""

    players: dict[str, PlayerTally]
    """Per player, in order of first appearance."""
    games: int = 0
    """N of 8.7: counted games, all stages, draws included."""
    red_wins: int = 0
    """Counted games won by the red team."""
    black_wins: int = 0
    """Counted games won by the black team."""


def tally(tournament: Tournament, regulation: Regulation) -> Tally:
    """Count every award and statistic of the tournament in one pass over its games
    (of a valid tournament: one sheriff and one don in every game).

    The pass only collects names into lists; `Counter` then counts them at C speed.
    """
    seated: list[tuple[str, ...]] = []
    counted: list[tuple[str, ...]] = []
    final: list[tuple[str, ...]] = []
    key_wins: list[str] = []
    deaths: list[str] = []
    kills: list[str] = []
    # The players of every award, by clause and exact amount (see `_group`).
    buckets: dict[tuple[str, int, int], list[str]] = {}
    awarded: dict[tuple[str, int, int], tuple[str, Fraction | None]] = {}
    red_wins = black_wins = 0
    for protocol in tournament.games:
        players = protocol.players
        seated.append(players)
        if not protocol.replayed:
            counted.append(players)
            winner = protocol.winner
            is_before_final = protocol.stage is not Stage.FINAL
            if not is_before_final:
                final.append(players)
            if winner is Winner.RED:
                red_wins += 1
                key_wins.append(players[protocol.roles.index(Role.SHERIFF)])
            elif winner is Winner.BLACK:
                black_wins += 1
                key_wins.append(players[protocol.roles.index(Role.DON)])
            killed = protocol.first_killed
            if killed is not None:
                deaths.append(players[killed - 1])
                if is_before_final and protocol.roles[killed - 1] in _RED_TEAM:
                    kills.append(players[killed - 1])
        _group(game_awards(protocol, regulation), players, buckets, awarded)
    games = Counter(chain.from_iterable(counted))
    games_before_final = games - Counter(chain.from_iterable(final))
    key_win_counts, death_counts, kill_counts = Counter(key_wins), Counter(deaths), Counter(kills)
    result = Tally(
        players={
            nick: PlayerTally(
                games=games[nick],
                games_before_final=games_before_final[nick],
                wins_as_don_or_sheriff=key_win_counts[nick],
                first_night_deaths=death_counts[nick],
                first_night_kills=kill_counts[nick],
            )
            for nick in dict.fromkeys(chain.from_iterable(seated))
        },
        games=len(counted),
        red_wins=red_wins,
        black_wins=black_wins,
    )
    for key, picked in buckets.items():
        award = awarded[key]
        is_win = award[0] in (WIN_RED, WIN_BLACK)
        for nick, count in Counter(picked).items():
            entry = result.players[nick]
            entry.awards.append((award, count))
            if is_win:
                entry.wins += count
    return result


def _group(
    awards: list[Award],
    players: tuple[str, ...],
    buckets: dict[tuple[str, int, int], list[str]],
    awarded: dict[tuple[str, int, int], tuple[str, Fraction | None]],
) -> None:
    """Add the players of one game's awards to `buckets`, one list of nicknames per
    clause and exact amount (keyed by its numerator and denominator: integers hash at
    C speed, a Fraction does not); `awarded` keeps each key's (clause, amount)."""
    for seats, clause, amount, _ in awards:
        key = (clause, 0, 0) if amount is None else (clause, amount.numerator, amount.denominator)
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = []
            awarded[key] = (clause, amount)
        if len(seats) == 1:
            bucket.append(players[seats[0] - 1])
        else:
            bucket.extend(_pick(seats)(players))


_PICKERS: dict[tuple[int, ...], Callable[[tuple[str, ...]], tuple[str, ...]]] = {}


def _pick(seats: tuple[int, ...]) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
    """A function giving the players of `seats` (cached: seat sets repeat endlessly)."""
    picker = _PICKERS.get(seats)
    if picker is None:
        if len(seats) == 1:
            index = seats[0] - 1
            picker = lambda players: (players[index],)  # noqa: E731
        else:
            picker = itemgetter(*(seat - 1 for seat in seats))
        _PICKERS[seats] = picker
    return picker


def context_of(tournament: Tournament, counted: Tally) -> ScoringContext:
    """K, the heavy side, B and every player's i, from a tally of the tournament."""
    regulation = get_regulation(tournament.ruleset)
    k = Fraction(1)
    heavy: Team | None = None
    participants = tournament.participants
    if participants is None:
        participants = len(counted.players)
    if regulation.applies_k(participants) and counted.red_wins != counted.black_wins:
        heavy = Team.RED if counted.red_wins < counted.black_wins else Team.BLACK
        n = min(counted.red_wins, counted.black_wins)
        k = regulation.coefficient_k(counted.games, n)
    before_final = tournament.games_before_final
    if before_final is None and tournament.stages is not None:
        before_final = tournament.stages.games_before_final()
    if before_final is None:
        before_final = max((p.games_before_final for p in counted.players.values()), default=0)
    return ScoringContext(
        regulation=regulation,
        coefficient_k=k,
        heavy_side=heavy,
        compensation_b=regulation.compensation_b(before_final),
        first_night_kills={n: p.first_night_kills for n, p in counted.players.items()},
    )


def tournament_context(tournament: Tournament) -> ScoringContext:
    """The scoring context of a tournament (one pass over its games)."""
    return context_of(tournament, tally(tournament, get_regulation(tournament.ruleset)))


def explain(tournament: Tournament, player: str) -> list[ScoreLine]:
    """Every line of the player's points, game by game, then his tournament penalties."""
    return explain_all(tournament).get(player, [])


def explain_all(tournament: Tournament) -> dict[str, list[ScoreLine]]:
    """Every player's lines in one pass: game by game, then tournament penalties.

    Every player seated in any game is a key, a player with no points too.
    """
    context = tournament_context(tournament)
    lines: dict[str, list[ScoreLine]] = {nick: [] for nick in tournament.player_names()}
    for protocol in tournament.games:
        for line in score_game(protocol, context.regulation, context):
            lines[line.player].append(line)
    for penalty in tournament.penalties:
        lines.setdefault(penalty.player, []).append(penalty_line(penalty))
    return lines


def penalty_line(penalty: TournamentPenalty) -> ScoreLine:
    """The line of a tournament-level penalty (lateness, lobby)."""
    reason = penalty.reason or "penalty"
    return ScoreLine(
        penalty.player,
        None,
        TOURNAMENT_PENALTY,
        "penalty",
        penalty.points,
        reason,
        topic="penalty",
        note=penalty.reason,
    )
