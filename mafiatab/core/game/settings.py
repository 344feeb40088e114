"""Table settings: the variants of the FIIM game rules a table plays (game-rules.md).

A table plays by a regulation (`mafiatab.core.regulations.REGULATIONS`, the one
registry of editions): its settings are derived from the regulation, so a log's
`"table"` is a regulation's code and the table and the scoring can never disagree.
A log may override a few settings by name (`"settings"`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mafiatab.core.regulations import REGULATIONS, Regulation

#: Settings a log may override by name, with their type.
OVERRIDABLE: dict[str, type] = {"day1_voting": bool, "lift_three_at_nine": bool}


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The rules of one kind of table: those of its regulation, and the overrides."""

    regulation: Regulation = field(hash=False)
    """The edition of the rules the table plays by (its fouls, its best move, its score)."""
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

    @property
    def code(self) -> str:
        """The code, as written in a log's `table`: the regulation's ("fiim", "fiim-online")."""
        return self.regulation.code

    @property
    def title(self) -> str:
        """Human-readable name: the regulation's."""
        return self.regulation.title

    @property
    def online(self) -> bool:
        """An online table (addendum 3.1): removals may be online ones, time-outs exist."""
        return self.regulation.online

    @property
    def max_fouls(self) -> int:
        """The fouls a player may get; the last of them removes him (the regulation's)."""
        return self.regulation.max_fouls

    @property
    def best_move_seats(self) -> int:
        """The seats a best move names (the regulation's)."""
        return self.regulation.best_move_seats

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


def table_of(regulation: Regulation) -> TableSettings:
    """The table settings of a regulation. The online addendum (3.1) has no voting on
    day 1 and gives the agreed time-outs; the other settings are the FIIM rules'."""
    if regulation.online:
        return TableSettings(
            regulation, day1_voting=False, timeout_minutes=4, long_timeout_minutes=10
        )
    return TableSettings(regulation, day1_voting=True)


#: The table settings of every regulation, by its code (what a log's `table` names):
#: derived from `REGULATIONS`, never registered apart from it.
TABLE_SETTINGS: dict[str, TableSettings] = {
    code: table_of(regulation) for code, regulation in REGULATIONS.items()
}
FIIM_TABLE = TABLE_SETTINGS["fiim"]
FIIM_ONLINE_TABLE = TABLE_SETTINGS["fiim-online"]


def get_table_settings(code: str) -> TableSettings:
    """The settings of the regulation `code`; KeyError naming the known codes otherwise."""
    try:
        return TABLE_SETTINGS[code]
    except KeyError:
        known = ", ".join(sorted(TABLE_SETTINGS))
        raise KeyError(f"unknown table {code!r} (known: {known})") from None
