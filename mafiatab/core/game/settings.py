"""Table settings: the variants of the FIIM game rules a table plays (game-rules.md).

Like the regulations, each set of settings is a registered, never-edited object;
a log names one by its code (`"table"`) and may override a few settings by name
(`"settings"`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

#: Settings a log may override by name, with their type.
OVERRIDABLE: dict[str, type] = {"day1_voting": bool, "lift_three_at_nine": bool}


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The rules of one kind of table."""

    code: str
    """Registry key, as written in a log's `table` ("fiim", "fiim-online")."""
    title: str
    """Human-readable name."""
    online: bool
    """An online table (addendum 3.1): removals may be online ones, time-outs exist."""
    day1_voting: bool
    """Day 1 has a voting (off online: no voting on the zero round)."""
    lift_three_at_nine: bool = False
    """The lift vote is held when three are tied with nine alive."""
    speech_seconds: int = 60
    """A regular speech."""
    short_speech_seconds: int = 30
    """A speech cut by a third foul when 3 or 4 players are alive."""
    defence_seconds: int = 30
    """A tied player's speech before the revote."""
    last_word_seconds: int = 60
    """The last word of a player who leaves by vote or shot."""
    zero_night_seconds: int = 60
    """The black team's meeting of the zero night."""
    timeout_minutes: int | None = None
    """An agreed time-out (online); None where the table has none."""
    long_timeout_minutes: int | None = None
    """A time-out for a power cut or an air-raid alarm (online)."""

    def with_overrides(self, overrides: dict[str, bool]) -> TableSettings:
        """These settings with some of `OVERRIDABLE` replaced."""
        result = self
        if "day1_voting" in overrides:
            result = replace(result, day1_voting=overrides["day1_voting"])
        if "lift_three_at_nine" in overrides:
            result = replace(result, lift_three_at_nine=overrides["lift_three_at_nine"])
        return result

    def to_json(self) -> dict[str, object]:
        """The settings as JSON (for a console or an API)."""
        return {
            "code": self.code,
            "online": self.online,
            "day1_voting": self.day1_voting,
            "lift_three_at_nine": self.lift_three_at_nine,
            "speech_seconds": self.speech_seconds,
            "short_speech_seconds": self.short_speech_seconds,
            "defence_seconds": self.defence_seconds,
            "last_word_seconds": self.last_word_seconds,
            "zero_night_seconds": self.zero_night_seconds,
            "timeout_minutes": self.timeout_minutes,
            "long_timeout_minutes": self.long_timeout_minutes,
        }


FIIM_TABLE = TableSettings(code="fiim", title="FIIM", online=False, day1_voting=True)
FIIM_ONLINE_TABLE = TableSettings(
    code="fiim-online",
    title="FIIM, online addendum",
    online=True,
    day1_voting=False,
    timeout_minutes=4,
    long_timeout_minutes=10,
)

#: Every table setting ever used, by code. Add new entries; never edit a listed one.
TABLE_SETTINGS: dict[str, TableSettings] = {t.code: t for t in (FIIM_TABLE, FIIM_ONLINE_TABLE)}


def get_table_settings(code: str) -> TableSettings:
    """The settings registered under `code`; KeyError naming the known codes otherwise."""
    try:
        return TABLE_SETTINGS[code]
    except KeyError:
        known = ", ".join(sorted(TABLE_SETTINGS))
        raise KeyError(f"unknown table {code!r} (known: {known})") from None
