"""Seat numbers by edge colouring the bipartite graph games × players.

Each game is a vertex of degree 10, each player's games are split in time order
into chunks of at most ten, and a chunk is a vertex of degree at most 10. By
König's theorem this bipartite graph has a proper edge colouring with ten
colours, found here by the alternating-path method; colour k is seat k+1. Every
game gets each seat once, and within a chunk a player never repeats a seat, so
over G games each player sits in each seat floor(G/10) or ceil(G/10) times,
whatever the grouping.

Seats taken in rounds already played are fixed colours on the player's first
chunks. They can block an alternating path; the colouring then falls back to the
least used free seat of the game, and the caller reports that balance is not exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from mafiatab.core.seating.model import TABLE_SIZE

_FREE = -1
_FIXED = -2


class _Graph:
    """Games and player chunks with their colour slots."""

    def __init__(self, n_games: int) -> None:
        self.n_games = n_games
        self.slots: list[list[int]] = [[_FREE] * TABLE_SIZE for _ in range(n_games)]
        self.ends: list[tuple[int, int]] = []
        self.colour: list[int] = []
        self.loose: set[int] = set()

    def add_vertex(self) -> int:
        self.slots.append([_FREE] * TABLE_SIZE)
        return len(self.slots) - 1

    def add_edge(self, game: int, chunk: int) -> int:
        self.ends.append((game, chunk))
        self.colour.append(_FREE)
        return len(self.ends) - 1

    def other(self, edge: int, vertex: int) -> int:
        u, v = self.ends[edge]
        return v if vertex == u else u

    def set_colour(self, edge: int, colour: int) -> None:
        self.colour[edge] = colour
        for vertex in self.ends[edge]:
            self.slots[vertex][colour] = edge

    def alternating_path(self, start: int, a: int, b: int) -> list[int] | None:
        """The a/b path from `start` (first edge coloured a), None if a fixed seat blocks it."""
        path: list[int] = []
        vertex, colour = start, a
        while True:
            slot = self.slots[vertex][colour]
            if slot == _FIXED or slot in self.loose:
                return None
            if slot == _FREE:
                return path
            path.append(slot)
            vertex = self.other(slot, vertex)
            colour = b if colour == a else a

    def flip(self, path: list[int], a: int, b: int) -> None:
        for edge in path:
            for vertex in self.ends[edge]:
                if self.slots[vertex][self.colour[edge]] == edge:
                    self.slots[vertex][self.colour[edge]] = _FREE
        for edge in path:
            self.set_colour(edge, b if self.colour[edge] == a else a)

    def colour_edge(self, edge: int) -> bool:
        """Colour one edge properly if possible; False when it had to repeat a seat."""
        game, chunk = self.ends[edge]
        free_game = [c for c in range(TABLE_SIZE) if self.slots[game][c] == _FREE]
        free_chunk = [c for c in range(TABLE_SIZE) if self.slots[chunk][c] == _FREE]
        common = [c for c in free_game if c in free_chunk]
        if common:
            self.set_colour(edge, common[0])
            return True
        for a in free_game:
            for b in free_chunk:
                path = self.alternating_path(chunk, a, b)
                if path is not None:
                    self.flip(path, a, b)
                    self.set_colour(edge, a)
                    return True
                path = self.alternating_path(game, b, a)
                if path is not None:
                    self.flip(path, a, b)
                    self.set_colour(edge, b)
                    return True
        colour = free_game[0]
        self.colour[edge] = colour
        self.slots[game][colour] = edge
        self.loose.add(edge)
        return False


def assign_seats(
    games: Sequence[Sequence[int]],
    *,
    n_players: int,
    history: Sequence[Sequence[int]] = (),
) -> tuple[list[list[int]], bool]:
    """Order the players of each game by seat; also tell whether no seat had to repeat.

    `games` are in time order, ten players each; `history[p]` lists the 0-based
    seats player p already took, in time order.
    """
    graph = _Graph(len(games))
    used = [len(history[p]) if history else 0 for p in range(n_players)]
    chunks: dict[tuple[int, int], int] = {}

    def chunk_of(player: int, position: int) -> int:
        key = (player, position // TABLE_SIZE)
        if key not in chunks:
            chunks[key] = graph.add_vertex()
        return chunks[key]

    if history:
        for p, seats in enumerate(history):
            for position, seat in enumerate(seats):
                slots = graph.slots[chunk_of(p, position)]
                if slots[seat] == _FREE:
                    slots[seat] = _FIXED
    edges: list[int] = []
    for g, players in enumerate(games):
        for p in players:
            edges.append(graph.add_edge(g, chunk_of(p, used[p])))
            used[p] += 1
    proper = True
    for edge in edges:
        proper = graph.colour_edge(edge) and proper
    chunk_player = {vertex: p for (p, _), vertex in chunks.items()}
    seated = [
        [chunk_player[graph.other(edge, g)] for edge in graph.slots[g]] for g in range(len(games))
    ]
    if not proper:
        proper = _repair(seated, history, n_players)
    return seated, proper


def _repair(seated: list[list[int]], history: Sequence[Sequence[int]], n_players: int) -> bool:
    """Swap seats within games while that lowers the seat imbalance; True once it is exact."""
    total = [len(history[p]) if history else 0 for p in range(n_players)]
    counts = [[0] * TABLE_SIZE for _ in range(n_players)]
    for p in range(n_players):
        for seat in history[p] if history else ():
            counts[p][seat] += 1
    for row in seated:
        for seat, p in enumerate(row):
            counts[p][seat] += 1
            total[p] += 1

    def excess(p: int, seat: int, change: int) -> int:
        c = counts[p][seat] + change
        return max(0, c - -(-total[p] // TABLE_SIZE)) + max(0, total[p] // TABLE_SIZE - c)

    for _ in range(20):
        improved = False
        for row in seated:
            for i in range(TABLE_SIZE):
                for j in range(i + 1, TABLE_SIZE):
                    p, q = row[i], row[j]
                    before = excess(p, i, 0) + excess(p, j, 0) + excess(q, i, 0) + excess(q, j, 0)
                    after = excess(p, i, -1) + excess(p, j, 1) + excess(q, i, 1) + excess(q, j, -1)
                    if after < before:
                        row[i], row[j] = q, p
                        counts[p][i] -= 1
                        counts[p][j] += 1
                        counts[q][i] += 1
                        counts[q][j] -= 1
                        improved = True
        if not improved:
            break
    return all(excess(p, s, 0) == 0 for p in range(n_players) for s in range(TABLE_SIZE))
