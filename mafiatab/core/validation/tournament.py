"""The validation of a whole tournament: its settings, game ids, tournament
penalties (`validate_tournament_settings`) and every protocol
(`validate_tournament`)."""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from mafiatab.core.names import MAX_NAME, name_problems, nickname_key
from mafiatab.core.problems import INT_MAX, SEED_MAX, Problem, cut, problem, quoted
from mafiatab.core.protocol import Tournament
from mafiatab.core.regulations import REGULATIONS
from mafiatab.core.stages import plan_participant_problems, unknown_stage_problem
from mafiatab.core.validation.checker import Checker
from mafiatab.core.validation.protocol import validate_protocol

_ID = attrgetter("id")
_PLAYERS = attrgetter("players")


def validate_tournament(tournament: Tournament) -> list[Problem]:
    """Every problem of a whole tournament: its settings, its penalties, each protocol."""
    regulation = REGULATIONS.get(tournament.ruleset)
    if regulation is None:
        known = ", ".join(sorted(REGULATIONS))
        return [
            problem(
                None,
                None,
                "ruleset",
                "ruleset.unknown",
                known=known,
                value=quoted(tournament.ruleset),
            )
        ]
    checker = Checker(regulation)
    problems: list[Problem] = []
    for protocol in tournament.games:
        problems.extend(validate_protocol(protocol, regulation, checker))
    problems.extend(validate_tournament_settings(tournament, checker))
    return problems


def _ids_twice(tournament: Tournament) -> list[Problem]:
    ids = list(map(_ID, tournament.games))
    if len(set(ids)) == len(ids):
        return []
    problems = []
    seen: set[str] = set()
    for gid in ids:
        if gid in seen:
            problems.append(problem(gid, None, "id", "game.id_twice"))
        seen.add(gid)
    return problems


def validate_tournament_settings(
    tournament: Tournament, checker: Checker | None = None
) -> list[Problem]:
    """The problems of a tournament beyond its single protocols: its name and numbers,
    game ids seen twice, tournament-level penalties (players are matched by
    `nickname_key`; `checker`, the one that validated every game, knows their keys)."""
    problems = [
        problem(None, None, "name", code, limit=MAX_NAME) for code in name_problems(tournament.name)
    ]
    for name in ("participants", "games_before_final"):
        value = getattr(tournament, name)
        if value is None:
            continue
        if value < 0:
            problems.append(problem(None, None, name, "number.negative", value=value))
        elif value > INT_MAX:
            problems.append(
                problem(None, None, name, "number.too_large", value=value, limit=INT_MAX)
            )
    if not -SEED_MAX - 1 <= tournament.lot_seed <= SEED_MAX:
        problems.append(
            problem(
                None,
                None,
                "lot_seed",
                "number.too_large",
                value=tournament.lot_seed,
                limit=SEED_MAX,
            )
        )
    problems.extend(_ids_twice(tournament))
    if tournament.stages is not None:
        problems.extend(plan_participant_problems(tournament.stages, tournament.participants))
        planned = {spec.stage for spec in tournament.stages.stages}
        problems.extend(
            unknown_stage_problem(game.id, game.stage)
            for game in tournament.games
            if game.stage not in planned
        )
    keys: set[str] = set()
    if tournament.penalties and checker is not None:
        keys = set(checker.nicknames.values())
    elif tournament.penalties:
        players = set(chain.from_iterable(map(_PLAYERS, tournament.games)))
        keys = {nickname_key(nick) for nick in players}
    for index, penalty in enumerate(tournament.penalties, start=1):
        field = f"penalties[{index}]"
        if penalty.points > 0:
            problems.append(
                problem(None, None, field, "tournament_penalty.positive", points=penalty.points)
            )
        if nickname_key(penalty.player) not in keys:
            problems.append(
                problem(
                    None,
                    None,
                    field,
                    "tournament_penalty.unknown_player",
                    player=cut(penalty.player),
                )
            )
    return problems
