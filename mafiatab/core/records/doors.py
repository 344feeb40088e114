"""The doors of the reading: a file's text (`read_text`), a decoded document
(`read_document`) and one protocol's dictionary (`read_protocol`), with the JSON
decoding they share (`decode_json`). Well-typed input goes straight through the
records; input whose types are off is read by `mafiatab.core.records.explain`,
which also holds the door of voting blocks (`voting_from_data`)."""

from __future__ import annotations

import codecs
import json

import msgspec

from mafiatab.core.problems import problem
from mafiatab.core.protocol import Protocol, Tournament
from mafiatab.core.records.explain import _game_explained, _read_explained
from mafiatab.core.records.reader import _read_file, _Reader
from mafiatab.core.records.schema import _FILE_DECODER, MAX_DEPTH, TournamentFileError, _File, _Game
from mafiatab.core.regulations import Regulation


def _strip_bom(text: str | bytes) -> str | bytes:
    if isinstance(text, bytes) and text.startswith(codecs.BOM_UTF8):
        return text[len(codecs.BOM_UTF8) :]
    if isinstance(text, str) and text.startswith("\ufeff"):
        return text[1:]
    return text


def decode_json(text: str | bytes) -> object:
    """Decoded JSON with the standard library's meaning, at msgspec's speed.

    msgspec decodes strict JSON about twice as fast as `json`; whatever it declines
    (NaN, numbers beyond a double, lone surrogates) is read by `json`, which accepts
    or refuses it as always. ValueError if it is not JSON; RecursionError if it is
    nested too deep."""
    text = _strip_bom(text)
    try:
        return msgspec.json.decode(text)
    except msgspec.MsgspecError:
        return json.loads(text)


def read_text(text: str | bytes) -> Tournament:
    """The tournament of a file's text; TournamentFileError listing every problem."""
    text = _strip_bom(text)
    try:
        record = _FILE_DECODER.decode(text)
    except (msgspec.MsgspecError, RecursionError):
        pass
    else:
        return _read_file(record)
    try:
        data = decode_json(text)
    except RecursionError:
        raise TournamentFileError(
            [problem(None, None, "file", "file.too_deep", limit=MAX_DEPTH)]
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise TournamentFileError(
            [problem(None, None, "file", "file.not_json", error=str(exc)[:200])]
        ) from None
    return read_document(data)


def read_document(data: object) -> Tournament:
    """The tournament of a decoded document; TournamentFileError listing every problem."""
    try:
        record = msgspec.convert(data, _File)
    except (msgspec.ValidationError, RecursionError) as exc:
        if _too_deep(data):
            raise TournamentFileError(
                [problem(None, None, "file", "file.too_deep", limit=MAX_DEPTH)]
            ) from None
        return _read_explained(data, str(exc))
    return _read_file(record)


def read_protocol(data: object, position: int, regulation: Regulation) -> Protocol:
    """One protocol from its dictionary form, validated under `regulation`;
    TournamentFileError listing every problem."""
    reader = _Reader(regulation)
    try:
        record = msgspec.convert(data, _Game)
    except (msgspec.ValidationError, RecursionError):
        if _too_deep(data):
            raise TournamentFileError(
                [problem(f"game {position}", None, "game", "file.too_deep", limit=MAX_DEPTH)]
            ) from None
        protocol = _game_explained(reader, data, position)
    else:
        protocol = reader.protocol(record, position)
    if protocol is None or reader.problems:
        raise TournamentFileError(reader.problems)
    return protocol


def _too_deep(data: object, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return True
    if isinstance(data, dict):
        return any(_too_deep(v, depth + 1) for v in data.values() if isinstance(v, dict | list))
    if isinstance(data, list):
        return any(_too_deep(v, depth + 1) for v in data if isinstance(v, dict | list))
    return False
