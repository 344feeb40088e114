"""Regulations as versioned objects.

A regulation that scored a past tournament is never edited: a new edition is a
new entry in `REGULATIONS`. Every constant of section 8 is an attribute here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from mafiatab.core.roles import Role, Winner


@dataclass(frozen=True)
class NegativeActionRule:
    """The conditions of one 8.5 clause."""

    clause: str
    """"8.5.1" .. "8.5.4"."""
    roles: frozenset[Role]
    """Roles the penalised player may hold."""
    winner: Winner | None
    """The result the clause requires (a red loss is `Winner.BLACK`), None for any."""
    summary: str
    """A short English description of the clause."""


_ZERO = Fraction(0)

#: The kinds of a tournament penalty (one that belongs to no game): lateness to a round
#: (tournament discipline) and the online addendum's lobby violations.
PENALTY_LATENESS = "lateness"
PENALTY_LOBBY_WARNING = "lobby_warning"
PENALTY_LOBBY_FINE = "lobby_fine"
PENALTY_LOBBY_REMOVAL = "lobby_removal"
_RED_TEAM = frozenset({Role.RED, Role.SHERIFF})
_BLACK_TEAM = frozenset({Role.BLACK, Role.DON})


@dataclass(frozen=True)
class Regulation:
    """The constants and small formulas of one edition of the scoring rules."""

    code: str
    """Registry key, as written in tournament files ("fiim", "fiim-online")."""
    title: str
    """Human-readable name of the edition."""
    online: bool = False
    """True when the online addendum applies (online removals, -0.8)."""
    max_stars: int | None = None
    """The highest status a tournament under this regulation may have (addendum 2.1)."""

    win_points: Fraction = Fraction(1)
    """8.2.1/8.2.2: points for a win."""
    best_move_three: Fraction = Fraction(2, 5)
    """8.3.1: three blacks named."""
    best_move_two: Fraction = Fraction(1, 4)
    """8.3.1: two blacks named."""
    best_move_seats: int = 3
    """8.3.1: the first-killed player names at most this many seats."""
    max_fouls: int = 4
    """The fouls a player may get; the last of them removes him from the table."""
    removal: Fraction = Fraction(-1, 2)
    """8.2.4: removal from the table."""
    online_removal: Fraction | None = None
    """Online addendum 4.1: removal for an online violation (None where not allowed)."""
    judge_max_players: int = 3
    """8.4.1: judge extra points go to at most this many players."""
    judge_total_cap: Fraction = Fraction(1)
    """8.4.2: judge extra points of one game in total."""
    judge_winner_cap: Fraction = Fraction(7, 10)
    """8.4.3: at most, for a player of the winning team."""
    judge_unapproved_cap: Fraction = Fraction(1, 2)
    """8.4.3: above this the chief judge must approve."""
    judge_loser_cap: Fraction = Fraction(2, 5)
    """8.4.4: at most, for a player of the losing team."""
    negative_action: Fraction = Fraction(-2, 5)
    """8.5: each recorded negative action."""
    negative_action_rules: dict[str, NegativeActionRule] = field(
        default_factory=lambda: {
            r.clause: r
            for r in (
                NegativeActionRule(
                    "8.5.1", _RED_TEAM, Winner.BLACK, "broke on a red player at ten, red lost"
                ),
                NegativeActionRule(
                    "8.5.2",
                    frozenset({Role.RED}),
                    None,
                    "broke on a red player at four when a lift guaranteed the red win",
                ),
                NegativeActionRule(
                    "8.5.3", _RED_TEAM, Winner.BLACK, "opened with a false check, red lost"
                ),
                NegativeActionRule(
                    "8.5.4",
                    _BLACK_TEAM,
                    Winner.RED,
                    "claimed sheriff with a red check on the real sheriff, black lost",
                ),
            )
        }
    )
    """8.5.1-8.5.4 and what each requires."""
    compensation_cap: Fraction = Fraction(2, 5)
    """8.6.1: Ci at most (and Ci when i > B)."""
    compensation_share: Fraction = Fraction(2, 5)
    """8.6.1: B is this share of the games played before the final."""
    k_threshold: int = 20
    """8.7: K applies to tournaments of at most this many participants."""
    protest_window_minutes: int = 10
    """8.9.1: a protest is written at most this many minutes after the game."""
    lateness_fine: Fraction = Fraction(-1, 2)
    """Tournament discipline: the fine for being late to a round."""
    lateness_grace_minutes: int = 5
    """Lateness is fined when a player is more than this many minutes late."""
    replacement_after_minutes: int = 15
    """A player later than this may be replaced by a reserve for a qualifying round."""
    lobby_fine: Fraction = Fraction(-1, 2)
    """Online addendum, lobby rules: the disciplinary fine (besides a warning or removal)."""
    ready_checks: tuple[str, ...] = ()
    """Online addendum, lobby rules 5: what the judge checks of each seat before the
    first speech (its microphone, connection and camera), then the player's confirmation
    that he is ready (`confirmed`); none where there are no lobby rules."""

    @property
    def has_lobby_rules(self) -> bool:
        """True when the online addendum's lobby rules apply: a lobby violation is
        penalised (a warning, a fine, removal from the tournament) only online."""
        return self.online

    @property
    def has_replays(self) -> bool:
        """True when the online addendum lets the chief judge annul a game that is
        replayed (a broken connection, a lost stream); an offline game is never replayed."""
        return self.online

    def is_ready(self, seats: Iterable[Mapping[str, object]]) -> bool:
        """Every seat (the marks of each, by check) passed every check of `ready_checks`
        and confirmed: the judge may begin the game."""
        return all(all(marks.get(name) for name in self.ready_checks) for marks in seats)

    def compensation_b(self, games_before_final: int) -> int:
        """B of 8.6.1: 40% of the games before the final, rounded half up."""
        share = self.compensation_share * games_before_final
        return int(share + Fraction(1, 2)) if share >= 0 else 0

    def compensation(self, first_night_kills: int, b: int) -> Fraction:
        """Ci of 8.6.1 for a player killed `first_night_kills` times (i) as red or sheriff."""
        if first_night_kills > b or b == 0:
            return self.compensation_cap
        return self.compensation_cap * first_night_kills / b

    def game_bound(self) -> Fraction:
        """The most one game still to play can bring one player (stages.md): a win, the
        judge's cap for a winner and a best move of three blacks."""
        return self.win_points + self.judge_winner_cap + self.best_move_three

    def applies_k(self, participants: int) -> bool:
        """True when 8.7 applies."""
        return participants <= self.k_threshold

    def coefficient_k(self, games: int, heavy_games: int) -> Fraction:
        """K = 1 + (N/2 - n) / (N/2) of 8.7.2; 1 for N = 0."""
        if games == 0:
            return Fraction(1)
        half = Fraction(games, 2)
        return 1 + (half - heavy_games) / half

    def lateness_points(self, minutes_late: int) -> Fraction | None:
        """The fine for arriving `minutes_late` minutes late, None within the grace time."""
        return self.lateness_fine if minutes_late > self.lateness_grace_minutes else None

    def tournament_penalties(self) -> dict[str, Fraction]:
        """The kinds of tournament penalty the chief judge gives under this regulation,
        in order, with their points: lateness costs its fine; a lobby violation (only
        where the lobby rules apply) is a warning, a fine or removal from the tournament,
        the warning and the removal costing no points."""
        kinds = {PENALTY_LATENESS: self.lateness_fine}
        if self.has_lobby_rules:
            kinds |= {
                PENALTY_LOBBY_WARNING: _ZERO,
                PENALTY_LOBBY_FINE: self.lobby_fine,
                PENALTY_LOBBY_REMOVAL: _ZERO,
            }
        return kinds

    def may_replace(self, minutes_late: int) -> bool:
        """True when a player this late may be replaced by a reserve for the round."""
        return minutes_late > self.replacement_after_minutes

    def best_move_points(self, blacks_named: int) -> Fraction:
        """8.3.1: points for naming `blacks_named` black players."""
        if blacks_named >= 3:
            return self.best_move_three
        if blacks_named == 2:
            return self.best_move_two
        return _ZERO

    def removal_points(self, *, online: bool, fined: bool) -> Fraction:
        """8.2.4 / addendum 4.1: the points of one removal."""
        if not fined:
            return _ZERO
        if online and self.online_removal is not None:
            return self.online_removal
        return self.removal


FIIM = Regulation(code="fiim", title="FIIM tournament regulation, section 8")
FIIM_ONLINE = Regulation(
    code="fiim-online",
    title="FIIM tournament regulation, section 8, with the addendum for online tournaments",
    online=True,
    max_stars=2,
    online_removal=Fraction(-4, 5),
    ready_checks=("microphone", "connection", "camera", "confirmed"),
)

#: Every edition ever used, by code. Add new editions; never edit a listed one.
REGULATIONS: dict[str, Regulation] = {r.code: r for r in (FIIM, FIIM_ONLINE)}


def get_regulation(code: str) -> Regulation:
    """The regulation registered under `code`; KeyError naming the known codes otherwise."""
    try:
        return REGULATIONS[code]
    except KeyError:
        known = ", ".join(sorted(REGULATIONS))
        raise KeyError(f"unknown ruleset {code!r} (known: {known})") from None
