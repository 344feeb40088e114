"""The one identity rule for nicknames and the limits on names.

A nickname identifies a player: two spellings that differ only in case (in any
script) or in Unicode composition, or by whitespace around them, are the same
player ("Кэп" and "кэп" are one). `nickname_key` is the only place that rule
lives; the web app, the API, the CLI and the core compare nicknames by it.

A nickname is refused when it is empty, longer than `MAX_NICKNAME` characters, or
holds control or bidirectional-formatting characters (which could make one name
look like another on screen). A tournament's name is bounded by `MAX_NAME`.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Final

MAX_NICKNAME: Final = 64
"""The longest nickname, in characters (after stripping outer whitespace)."""

MAX_NAME: Final = 200
"""The longest tournament name (and other free-text names), in characters."""

NICKNAME_EMPTY: Final = "nickname.empty"
NICKNAME_TOO_LONG: Final = "nickname.too_long"
NICKNAME_CONTROL: Final = "nickname.control_character"
NICKNAME_BIDI: Final = "nickname.bidi_character"

NAME_EMPTY: Final = "name.empty"
NAME_TOO_LONG: Final = "name.too_long"
NAME_CONTROL: Final = "name.control_character"
NAME_BIDI: Final = "name.bidi_character"

#: Characters that change the direction of text or mark it invisibly: the
#: embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069, the
#: marks U+200E/U+200F and U+061C.
BIDI_CHARACTERS: Final = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)


def normalize_nickname(name: str) -> str:
    """The nickname as stored: NFC-normalised, outer whitespace stripped (case kept)."""
    return unicodedata.normalize("NFC", name).strip()


def nickname_key(name: str) -> str:
    """The identity of a nickname: equal keys mean the same player.

    NFC normalisation, outer whitespace stripped, then `str.casefold` (so "Кэп",
    "кэп" and " КЭП " share a key, as do "Straße" and "STRASSE")."""
    return unicodedata.normalize("NFC", normalize_nickname(name).casefold())


def _is_control(char: str) -> bool:
    # Cc: C0/C1 controls (tab and newline included); Cs/Co/Cn never belong in a name.
    return unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char in "\u2028\u2029"


def _text_problems(text: str, limit: int, codes: tuple[str, str, str, str]) -> list[str]:
    empty, too_long, control, bidi = codes
    value = normalize_nickname(text)
    if not value:
        return [empty]
    problems = []
    if len(value) > limit:
        problems.append(too_long)
    if any(char in BIDI_CHARACTERS for char in value):
        problems.append(bidi)
    if any(_is_control(char) for char in value):
        problems.append(control)
    return problems


def nickname_problems(name: str) -> list[str]:
    """The codes of what is wrong with a nickname (empty list: acceptable).

    Codes: `NICKNAME_EMPTY`, `NICKNAME_TOO_LONG` (more than `MAX_NICKNAME`
    characters), `NICKNAME_CONTROL`, `NICKNAME_BIDI`."""
    return _text_problems(
        name, MAX_NICKNAME, (NICKNAME_EMPTY, NICKNAME_TOO_LONG, NICKNAME_CONTROL, NICKNAME_BIDI)
    )


def name_problems(name: str, limit: int = MAX_NAME) -> list[str]:
    """The codes of what is wrong with a tournament name or similar free text.

    Codes: `NAME_EMPTY`, `NAME_TOO_LONG` (more than `limit` characters),
    `NAME_CONTROL`, `NAME_BIDI`."""
    return _text_problems(name, limit, (NAME_EMPTY, NAME_TOO_LONG, NAME_CONTROL, NAME_BIDI))


#: The longest free text (a reason, a note), in characters.
MAX_TEXT: Final = 2000

TEXT_TOO_LONG: Final = "text.too_long"
TEXT_CONTROL: Final = "text.control_character"
TEXT_BIDI: Final = "text.bidi_character"

#: The control characters a free text may hold: tab and line breaks.
_TEXT_CONTROLS_ALLOWED: Final = frozenset("\t\n\r")


def _is_text_control(char: str) -> bool:
    # Cc: C0/C1 controls (NUL included); Cs: a lone surrogate, which no encoding
    # writes and no database column takes.
    return char not in _TEXT_CONTROLS_ALLOWED and unicodedata.category(char) in ("Cc", "Cs")


def text_problems(text: str, limit: int = MAX_TEXT) -> list[str]:
    """The codes of what is wrong with a free text such as a reason (empty list:
    acceptable; an empty text is acceptable too).

    Codes: `TEXT_TOO_LONG` (more than `limit` characters), `TEXT_CONTROL` (a control
    character other than tab and line breaks, or a lone surrogate), `TEXT_BIDI`."""
    if text.isprintable() and len(text) <= limit:
        return []
    problems = []
    if len(text) > limit:
        problems.append(TEXT_TOO_LONG)
    if any(char in BIDI_CHARACTERS for char in text):
        problems.append(TEXT_BIDI)
    if any(_is_text_control(char) for char in text):
        problems.append(TEXT_CONTROL)
    return problems


def printable(text: str) -> str:
    """`text` as it may be shown and written anywhere: each control character (tab
    and line breaks kept), lone surrogate and bidirectional-formatting character
    written as its escape (`\\u202e`). For texts stored before they were checked."""
    if text.isprintable():
        return text
    return "".join(
        f"\\u{ord(char):04x}"
        if char in BIDI_CHARACTERS or _is_text_control(char) or char in "\u2028\u2029"
        else char
        for char in text
    )


def is_valid_nickname(name: str) -> bool:
    """Whether a nickname may be used as is (after `normalize_nickname`)."""
    return not nickname_problems(name)


def printable_json(value: object) -> object:
    """A decoded JSON value with every text in it (keys included) `printable` and every
    number that is not finite (NaN, ±Infinity) written as its name: what may be shown
    or written of data stored before it was checked."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {printable(str(k)): printable_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [printable_json(v) for v in value]
    return value
