"""A night in a game's state: the shots, the kill, and the don's and sheriff's
checks with the judge's answers and gestures (section 10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The judge's answer to a check, and the gesture of section 10 that gives it.
GESTURES: dict[str, str] = {
    "sheriff": "nod",
    "not_sheriff": "head shake",
    "red": "head shake and thumb up, together",
    "black": "nod and thumb down, together",
}


@dataclass(frozen=True, slots=True)
class Check:
    """A don's or sheriff's check and the judge's answer."""

    by: int
    """The checking seat."""
    seat: int
    """The checked seat."""
    answer: str
    """"sheriff" or "not_sheriff" for the don; "red" or "black" for the sheriff."""

    @property
    def gesture(self) -> str:
        """The judge's gesture for the answer (section 10), in English."""
        return GESTURES[self.answer]

    def to_json(self) -> dict[str, Any]:
        """`{"by": 5, "seat": 3, "answer": "sheriff"}`."""
        return {"by": self.by, "seat": self.seat, "answer": self.answer}


@dataclass(frozen=True, slots=True)
class Night:
    """What happened in one night."""

    number: int
    """The night."""
    don_may_check: bool
    """The don was in the game when the night began."""
    sheriff_may_check: bool
    """The sheriff was in the game when the night began."""
    shots: tuple[tuple[int, int | None], ...] | None = None
    """Each living black-team seat and the seat it shot (None: no shot); None until logged."""
    killed: int | None = None
    """The seat the shots kill (he leaves at `day`); None for a miss or before the shots."""
    don_check: Check | None = None
    """The don's check."""
    sheriff_check: Check | None = None
    """The sheriff's check."""

    def has_shots(self) -> bool:
        """True once the shots are logged."""
        return self.shots is not None

    def is_miss(self) -> bool:
        """True once the shots are logged and killed nobody."""
        return self.shots is not None and self.killed is None

    def to_json(self) -> dict[str, Any]:
        """The night as JSON (for the judge: it holds the secrets)."""
        return {
            "night": self.number,
            "shots": None if self.shots is None else {str(b): t for b, t in self.shots},
            "killed": self.killed,
            "don_check": self.don_check.to_json() if self.don_check else None,
            "sheriff_check": self.sheriff_check.to_json() if self.sheriff_check else None,
        }
