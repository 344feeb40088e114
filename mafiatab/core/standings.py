"""Tournament standings: totals and the tie-break chain of 8.8.

Ranking is computed here, in Python, over core data, so it is the same whatever
database the web app runs on. Ties left after 8.8.4 are broken by a lot (8.8.5)
that is reproducible from the tournament's `lot_seed` and reported.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from mafiatab.core.protocol import Tournament
from mafiatab.core.regulations import get_regulation
from mafiatab.core.roles import Team
from mafiatab.core.scoring import (
    COMPENSATION,
    MAIN_CLAUSES,
    PlayerTally,
    ScoringContext,
    context_of,
    scaled_half_up,
    tally,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    """1-based position (the lot gives tied players distinct ranks)."""
    player: str
    """The player's nickname."""
    total: Fraction
    """main + extra + penalties."""
    main: Fraction
    """Win points (times K where applied) and compensation."""
    extra: Fraction
    """8.2.4, 8.3, 8.4 and 8.5 points: the 8.8.1 tie-break value."""
    penalties: Fraction
    """Tournament-level penalties (lateness, lobby)."""
    compensation: Fraction
    """The 8.6 points (Ci times the compensated games); part of `main`."""
    wins: int
    """Games won (8.8.2)."""
    wins_as_don_or_sheriff: int
    """Games won as don or sheriff (8.8.3)."""
    first_night_deaths: int
    """First-night deaths in any role (8.8.4)."""
    games: int
    """Games played that were not replayed."""
    decided_by_lot: bool
    """True when the lot (8.8.5) set this player's order against a tied neighbour."""

    def sort_key(self) -> tuple[Fraction, Fraction, int, int, int]:
        """The 8.8 chain, higher first: total, extra, wins, don/sheriff wins, deaths."""
        return (
            self.total,
            self.extra,
            self.wins,
            self.wins_as_don_or_sheriff,
            self.first_night_deaths,
        )


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with what they were computed from."""

    tournament: str
    """The tournament's name."""
    coefficient_k: Fraction
    """K of 8.7 (1 where it does not apply)."""
    heavy_side: Team | None
    """The side whose wins were multiplied by K."""
    compensation_b: int
    """B of 8.6."""
    rows: tuple[Standing, ...]
    """Every player seated in any game, best first."""
    lot: tuple[tuple[str, ...], ...]
    """The tied groups that the lot ordered, each in its drawn order."""
    lot_seed: int = 0
    """The seed the lot was drawn with."""

    def row(self, player: str) -> Standing:
        """The line of `player`; KeyError if he played no game."""
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        """The JSON document of `mafiatab standings FILE --json` (numbers to 2 decimals)."""
        return {
            "tournament": self.tournament,
            "coefficient_k": _number(self.coefficient_k),
            "heavy_side": self.heavy_side.value if self.heavy_side else None,
            "compensation_b": self.compensation_b,
            "standings": [
                {
                    "rank": r.rank,
                    "player": r.player,
                    "total": _number(r.total),
                    "main": _number(r.main),
                    "extra": _number(r.extra),
                    "penalties": _number(r.penalties),
                    "compensation": _number(r.compensation),
                    "wins": r.wins,
                    "wins_as_don_or_sheriff": r.wins_as_don_or_sheriff,
                    "first_night_deaths": r.first_night_deaths,
                    "games": r.games,
                    "decided_by_lot": r.decided_by_lot,
                }
                for r in self.rows
            ],
        }


def _number(value: Fraction) -> float:
    """2 decimals, halves up, as the nearest float (m / 100 is correctly rounded)."""
    return scaled_half_up(value, 100) / 100


def lot_order(seed: int, player: str) -> bytes:
    """The lot's draw for a player: a digest of the seed and the nickname, so the
    order never depends on the order of games in the file."""
    return hashlib.sha256(f"{seed}\x00{player}".encode()).digest()


def _points(player: str, entry: PlayerTally, context: ScoringContext) -> tuple[Fraction, ...]:
    """(main, extra, compensation) of one player, exactly, from his award counts.

    Amounts with the same denominator are added as integers; one fraction per
    denominator is built at the end.
    """
    main: dict[int, int] = {}
    extra: dict[int, int] = {}
    compensation = Fraction(0)
    for (clause, amount), count in entry.awards.items():
        points = context.amount(player, clause, amount)
        if clause == COMPENSATION:
            compensation += points * count
        sums = main if clause in MAIN_CLAUSES else extra
        denominator = points.denominator
        sums[denominator] = sums.get(denominator, 0) + points.numerator * count
    return _sum(main), _sum(extra), compensation


def _sum(by_denominator: dict[int, int]) -> Fraction:
    parts = [Fraction(n, d) for d, n in by_denominator.items()]
    return sum(parts[1:], parts[0]) if parts else Fraction(0)


def compute_standings(tournament: Tournament) -> Standings:
    """The standings of a valid tournament (see `validation.validate_tournament`)."""
    regulation = get_regulation(tournament.ruleset)
    counted = tally(tournament, regulation)
    context = context_of(tournament, counted)
    penalties: dict[str, Fraction] = {}
    for penalty in tournament.penalties:
        penalties[penalty.player] = penalties.get(penalty.player, Fraction(0)) + penalty.points
    unranked = []
    for player, entry in counted.players.items():
        main, extra, compensation = _points(player, entry, context)
        fined = penalties.get(player, Fraction(0))
        unranked.append(
            Standing(
                rank=0,
                player=player,
                total=main + extra + fined if fined else main + extra,
                main=main,
                extra=extra,
                penalties=fined,
                compensation=compensation,
                wins=entry.wins,
                wins_as_don_or_sheriff=entry.wins_as_don_or_sheriff,
                first_night_deaths=entry.first_night_deaths,
                games=entry.games,
                decided_by_lot=False,
            )
        )
    rows, lot = _rank(unranked, tournament.lot_seed)
    return Standings(
        tournament=tournament.name,
        coefficient_k=context.coefficient_k,
        heavy_side=context.heavy_side,
        compensation_b=context.compensation_b,
        rows=rows,
        lot=lot,
        lot_seed=tournament.lot_seed,
    )


def _rank(
    unranked: list[Standing], seed: int
) -> tuple[tuple[Standing, ...], tuple[tuple[str, ...], ...]]:
    # Exact integer keys: total and extra over their common denominator.
    scale = math.lcm(
        *(s.total.denominator for s in unranked), *(s.extra.denominator for s in unranked)
    )

    def chain_key(s: Standing) -> tuple[int, ...]:
        total, extra = s.total, s.extra
        return (
            -total.numerator * (scale // total.denominator),
            -extra.numerator * (scale // extra.denominator),
            -s.wins,
            -s.wins_as_don_or_sheriff,
            -s.first_night_deaths,
        )

    keyed = sorted((chain_key(s), lot_order(seed, s.player), s) for s in unranked)
    ordered = [s for _, _, s in keyed]
    keys = [k for k, _, _ in keyed]
    rows: list[Standing] = []
    lot: list[tuple[str, ...]] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and keys[end] == keys[start]:
            end += 1
        group = ordered[start:end]
        tied = len(group) > 1
        if tied:
            lot.append(tuple(s.player for s in group))
        for offset, standing in enumerate(group):
            rows.append(_with_rank(standing, start + offset + 1, tied))
        start = end
    return tuple(rows), tuple(lot)


def _with_rank(standing: Standing, rank: int, by_lot: bool) -> Standing:
    return replace(standing, rank=rank, decided_by_lot=by_lot)
