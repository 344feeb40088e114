"""The tournament archive: one ZIP file with everything printed about a tournament.

    <slug>.json                  the tournament file (confirmed protocols, penalties)
    standings.pdf, standings.xlsx
    seating.pdf, seating-judges.pdf    (as kept while they print the same)
    protocols/protocol-<game>.pdf   every game's protocol (unconfirmed ones marked;
                                    a confirmed one as kept with its version)
    logs/...                     the judge console's game logs, when there are any

The archive is the staff's view of the tournament (live official standings, every
game) and is written as a stream: a file is added as soon as it is rendered.

Game logs come from the judge console (`mafiatab.console.selectors.logs_for_tournament`):
each item it yields, `(file name, content)` with content as bytes, text or a JSON-able
value, is stored under `logs/`; a tournament without console logs has no `logs/`.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from typing import IO

from mafiatab.console.selectors import logs_for_tournament
from mafiatab.core.protocol import Tournament as CoreTournament
from mafiatab.core.tournament_file import dumps_tournament
from mafiatab.printables import documents
from mafiatab.printables.pdf import Renderer
from mafiatab.printables.seating_sheets import seating_rounds
from mafiatab.printables.sheets import safe_name
from mafiatab.standings.inputs import core_tournament
from mafiatab.standings.services import viewer_standings
from mafiatab.tournaments.models import Tournament


def console_logs(tournament: Tournament) -> Iterator[tuple[str, bytes]]:
    """The judge console's game logs of the tournament, as (file name, bytes)."""
    for name, content in logs_for_tournament(tournament):
        if isinstance(content, bytes):
            data = content
        elif isinstance(content, str):
            data = content.encode("utf-8")
        else:
            data = json.dumps(content, ensure_ascii=False, indent=1).encode("utf-8")
        stem, dot, ext = str(name).rpartition(".")
        yield (f"{safe_name(stem)}.{safe_name(ext)}" if dot else safe_name(str(name))), data


class _Names:
    """File names of the archive, each used once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, name: str) -> str:
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        candidate, n = name, 1
        while candidate.casefold() in self.used:
            n += 1
            candidate = f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"
        self.used.add(candidate.casefold())
        return candidate


#: One file of the archive: its name, its content, and whether it is stored as it is
#: (PDF and XLSX are compressed already).
Entry = tuple[str, bytes | str, bool]


def archive_entries(
    tournament: Tournament, renderer: Renderer, *, core: CoreTournament | None = None
) -> Iterator[Entry]:
    """The archive's files, each rendered when it is asked for; the tournament file
    from `core`, the tournament's `core_tournament` when read already."""
    core = core_tournament(tournament) if core is None else core
    yield f"{tournament.slug}.json", dumps_tournament(core), False
    shown = viewer_standings(tournament=tournament, staff=True)
    yield (
        "standings.pdf",
        documents.standings_pdf(renderer, tournament, shown, provisional=False),
        True,
    )
    yield "standings.xlsx", documents.standings_xlsx(shown), True
    rounds = seating_rounds(tournament, staff=True)
    seating = documents.seating_pdf(renderer, tournament, staff=True, rounds=rounds)
    yield "seating.pdf", seating, True
    judges = documents.judge_copies_pdf(renderer, tournament, staff=True, rounds=rounds)
    if judges is not None:
        yield "seating-judges.pdf", judges, True
    games = documents.games_for_print(tournament)
    for name, pdf in documents.protocol_pdfs(tournament, games, renderer=renderer):
        yield f"protocols/{name}", pdf, True
    for name, data in console_logs(tournament):
        yield f"logs/{name}", data, False


class ChunkStream:
    """A write-only, unseekable stream whose bytes are taken out as chunks."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        return None

    def take(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


def archive_stream(
    tournament: Tournament,
    *,
    renderer: Renderer | None = None,
    core: CoreTournament | None = None,
) -> Iterator[bytes]:
    """The archive as chunks of bytes, one per file, as soon as each file is rendered
    (`core`: as for `archive_entries`)."""
    renderer = renderer or Renderer()
    stream = ChunkStream()
    names = _Names()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data, packed in archive_entries(tournament, renderer, core=core):
            kind = zipfile.ZIP_STORED if packed else zipfile.ZIP_DEFLATED
            archive.writestr(names(name), data, compress_type=kind)
            yield stream.take()
    yield stream.take()


def write_archive(
    tournament: Tournament,
    out: IO[bytes],
    *,
    renderer: Renderer | None = None,
    core: CoreTournament | None = None,
) -> int:
    """Write the tournament's archive to `out`; returns its size in bytes (`core`: as
    for `archive_entries`)."""
    size = 0
    for chunk in archive_stream(tournament, renderer=renderer, core=core):
        out.write(chunk)
        size += len(chunk)
    return size
