"""The one reading of tournament files and protocols.

Every protocol, whatever its door (a file's text, a decoded document, the web
form's or the API's dictionary), is read here the same way: msgspec decodes or
converts it into the typed records (`schema`), checking every type in C; the
records become core objects (`Protocol`, `Tournament`) in one reading (`reader`);
and the one validator (`mafiatab.core.validation`) checks every rule. A file is
accepted whole or refused whole with `TournamentFileError`, which lists every
problem as a code. The doors themselves are in `doors`; a protocol entered at a
table (the web form's, the API's or the console's dictionary) is read by `entry`, which
also says what even a draft may not hold.

When the types are off, msgspec names only the first wrong value, so the reading
then looks closer with the same records (`explain`): each game, seat and entry is
converted on its own, and each wrong value becomes a problem naming the game, the
seat and the field, while the well-formed games are still checked against the rules.
"""

from mafiatab.core.records.doors import decode_json, read_document, read_protocol, read_text
from mafiatab.core.records.entry import Entry, EntryFacts, read_entry, spell_seats
from mafiatab.core.records.explain import voting_from_data
from mafiatab.core.records.schema import (
    FORMAT,
    MAX_DEPTH,
    ROLES,
    STAGES,
    WINNERS,
    TournamentFileError,
    to_fraction,
)

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "ROLES",
    "STAGES",
    "WINNERS",
    "Entry",
    "EntryFacts",
    "TournamentFileError",
    "decode_json",
    "read_document",
    "read_entry",
    "read_protocol",
    "read_text",
    "spell_seats",
    "to_fraction",
    "voting_from_data",
]
