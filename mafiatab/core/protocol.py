"""The game protocol (section 9) and the tournament it belongs to.

A protocol keeps its ten seats column by column (`players`, `roles`, `fouls`,
seat 1 first) so that a tournament of tens of thousands of games loads fast;
`Protocol.seat(n)` gives one seat as a `Seat`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from mafiatab.core.roles import Role, Stage, Team, Winner
from mafiatab.core.schedule import ScheduledRound
from mafiatab.core.stages import StagePlan

#: Seats are numbered 1..10.
SEATS = range(1, 11)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a protocol."""

    number: int
    """Seat number, 1..10."""
    player: str
    """The player's nickname, exactly as written in the protocol."""
    role: Role
    """The card dealt to the seat."""
    fouls: int = 0
    """Fouls given to the player, 0..4."""


class JudgeExtra(NamedTuple):
    """Extra points a table judge gave one player (8.4), with the written reason (9.10)."""

    seat: int
    """The seat that gets the points."""
    points: Fraction
    """Positive points, exact."""
    reason: str = ""
    """Why, as written on the back of the protocol."""
    chief_approved: bool = False
    """The chief judge approved 0.6 or 0.7 (8.4.3)."""


class GamePenalty(NamedTuple):
    """A -0.4 penalty for an action that harmed the game (8.5.1-8.5.4)."""

    seat: int
    """The penalised seat."""
    rule: str
    """The clause: "8.5.1", "8.5.2", "8.5.3" or "8.5.4"."""
    reason: str = ""
    """The judge's explanation."""


#: The reason a removal by a fourth foul records (the game engine's own, game-log.md):
#: the tournament file and the log carry it as this text, and every reader takes it as
#: a code (`is_foul_removal`), said in the reader's language with `FOUL_REMOVAL_FOULS`.
FOUL_REMOVAL_REASON = "4 fouls"
#: The number of fouls that removes a player (the parameter of the fourth foul's reason).
FOUL_REMOVAL_FOULS = 4


def is_foul_removal(reason: str | None) -> bool:
    """Whether a removal's recorded reason is the engine's fourth-foul code (as stored,
    whatever the spaces and the case), not a judge's words."""
    return " ".join((reason or "").split()).casefold() == FOUL_REMOVAL_REASON


class Removal(NamedTuple):
    """A removal (disqualification from the table, 8.2.4)."""

    seat: int
    """The removed seat."""
    reason: str = ""
    """Why the player was removed."""
    online: bool = False
    """Removed for a violation of the online addendum (item 4.1): -0.8 instead of -0.5."""
    fined: bool = True
    """False when the judge waived the fine (online addendum, time-out item 7)."""


@dataclass(frozen=True, slots=True)
class VotingRound:
    """One voting block of the protocol (9.5): a day's vote or a revote."""

    day: int
    """The game day, 1 first."""
    nominees: tuple[int, ...]
    """Nominated seats, in nomination order (for a revote: the tied seats)."""
    votes: tuple[int, ...] = ()
    """Votes for each nominee, in the same order; empty when no vote was held."""
    nominated_by: tuple[int | None, ...] = ()
    """The seat that nominated each nominee (None where not written); empty if unknown."""
    revote: bool = False
    """A revote among the players tied in the block before, on the same day."""
    lift: int | None = None
    """On a revote that tied the same players again: the votes for all of them leaving."""

    def leaver(self) -> int | None:
        """The seat that left by this vote: the single nominee with the most votes
        (nobody on day 1 with a single nominee, where no vote is held)."""
        if not self.votes or len(self.votes) != len(self.nominees):
            return None
        if self.day == 1 and len(self.nominees) == 1:
            return None
        top = max(self.votes)
        leaders = [seat for seat, n in zip(self.nominees, self.votes, strict=True) if n == top]
        return leaders[0] if len(leaders) == 1 else None

    def is_tied_again(self) -> bool:
        """A revote whose votes tie every nominee again (the case for a lift vote)."""
        return (
            self.revote
            and len(self.nominees) > 1
            and len(self.votes) == len(self.nominees)
            and len(set(self.votes)) == 1
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the block."""
        data: dict[str, Any] = {"day": self.day, "nominees": list(self.nominees)}
        if self.votes:
            data["votes"] = list(self.votes)
        if self.nominated_by:
            data["nominated_by"] = list(self.nominated_by)
        if self.revote:
            data["revote"] = True
        if self.lift is not None:
            data["lift"] = self.lift
        return data


@dataclass(frozen=True, slots=True)
class Deal:
    """Where the cards of one game are: the seats of each team and key role."""

    red_team: tuple[int, ...]
    """Seats of red and sheriff."""
    black_team: tuple[int, ...]
    """Seats of black and don."""
    sheriff: int
    """The sheriff's seat (0 if none)."""
    don: int
    """The don's seat (0 if none)."""

    def winners(self, winner: Winner) -> tuple[int, ...]:
        """The seats of the winning team (none in a draw)."""
        if winner is Winner.RED:
            return self.red_team
        return self.black_team if winner is Winner.BLACK else ()


_DEALS: dict[tuple[Role, ...], Deal] = {}


def deal_of(roles: tuple[Role, ...]) -> Deal:
    """The deal of a role assignment (cached: a valid one is one of 2,520); a missing
    sheriff or don is seat 0."""
    deal = _DEALS.get(roles)
    if deal is None:
        numbered = list(enumerate(roles, start=1))
        deal = Deal(
            red_team=tuple(n for n, r in numbered if r.is_red_team()),
            black_team=tuple(n for n, r in numbered if r.is_black_team()),
            sheriff=roles.index(Role.SHERIFF) + 1 if Role.SHERIFF in roles else 0,
            don=roles.index(Role.DON) + 1 if Role.DON in roles else 0,
        )
        if len(_DEALS) < 4096:
            _DEALS[roles] = deal
    return deal


class Protocol(NamedTuple):
    """One game protocol: the official form of section 9 as data.

    Immutable like the other core records; a named tuple rather than a frozen
    dataclass because a tournament file holds tens of thousands of protocols and
    a named tuple is built several times faster.
    """

    id: str
    """Unique label of the game within the tournament, e.g. "Q3-T2"."""
    stage: Stage
    """Qualifying, semifinal or final."""
    players: tuple[str, ...]
    """Nicknames, seat 1 first (10 of them)."""
    roles: tuple[Role, ...]
    """Roles, seat 1 first."""
    winner: Winner
    """The winning team, or a draw."""
    fouls: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    """Fouls, seat 1 first."""
    round: int | None = None
    """Round (tour) number within the stage."""
    table: int | None = None
    """Table number."""
    date: str | None = None
    """ISO date of the game."""
    judge: str | None = None
    """The table judge."""
    first_killed: int | None = None
    """Seat killed in the first night; None for a miss."""
    best_move: tuple[int, ...] = ()
    """Seats the first-killed player named as black (up to 3)."""
    judge_extra: tuple[JudgeExtra, ...] = ()
    """Judge extra points (8.4)."""
    penalties: tuple[GamePenalty, ...] = ()
    """8.5 penalties."""
    disqualified: tuple[Removal, ...] = ()
    """Removals (8.2.4)."""
    replayed: bool = False
    """The game was annulled and replayed (online addendum): it counts for nothing
    but its removal penalties."""
    voting: tuple[VotingRound, ...] = ()
    """The day votes, in order (9.5); empty where the protocol does not record them."""

    def seat(self, number: int) -> Seat:
        """Seat `number` (1..10) as a `Seat`."""
        i = number - 1
        return Seat(number, self.players[i], self.roles[i], self.fouls[i])

    @property
    def seats(self) -> tuple[Seat, ...]:
        """All ten seats, seat 1 first."""
        return tuple(self.seat(n) for n in range(1, len(self.players) + 1))

    def is_counted(self) -> bool:
        """False for a replayed game."""
        return not self.replayed

    def team_of(self, seat: int) -> Team:
        """The team of the player in `seat`."""
        return self.roles[seat - 1].team

    @property
    def deal(self) -> Deal:
        """Where the cards are: the seats of each team, the sheriff and the don."""
        return deal_of(self.roles)

    def is_winner(self, seat: int) -> bool:
        """True when the seat's team won the game."""
        return seat in deal_of(self.roles).winners(self.winner)


@dataclass(frozen=True, slots=True)
class TournamentPenalty:
    """A disciplinary penalty that belongs to no single game (lateness, lobby)."""

    player: str
    """The penalised player's nickname."""
    points: Fraction
    """Zero or negative points, exact."""
    reason: str = ""
    """Why, e.g. "late 7 minutes to round 2"."""


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything needed to score a tournament: settings, penalties, protocols."""

    name: str
    """The tournament's name."""
    ruleset: str
    """The code of its regulation: "fiim" or "fiim-online"."""
    games: tuple[Protocol, ...] = ()
    """Confirmed game protocols."""
    participants: int | None = None
    """Registered participants (8.7); None: the distinct players of `games`."""
    games_before_final: int | None = None
    """Games one player is scheduled to play before the final (8.6 B); None: derived."""
    lot_seed: int = 0
    """Seed of the lot that breaks the ties left after 8.8.4."""
    penalties: tuple[TournamentPenalty, ...] = field(default=())
    """Tournament-level penalties."""
    stages: StagePlan | None = None
    """The stage plan (stages.md); None: no plan, every player ranked by 8.8 alone."""
    schedule: tuple[ScheduledRound, ...] = field(default=())
    """When and where the rounds are played (not used in scoring)."""

    def player_names(self) -> list[str]:
        """Every player seated in any game, replayed games included, in order of appearance."""
        seen: dict[str, None] = {}
        for game in self.games:
            for nick in game.players:
                seen[nick] = None
        return list(seen)

    def participant_count(self) -> int:
        """`participants`, or the number of distinct players seated in any game."""
        if self.participants is not None:
            return self.participants
        return len(self.player_names())
