"""Points as JSON numbers: the one way the core writes a `Fraction` into a document
(the tournament file, a protocol's version, the standings and advance lists)."""

from __future__ import annotations

from fractions import Fraction

from mafiatab.core.scoring import scaled_half_up


def json_number(value: Fraction, *, places: int | None = None) -> int | float:
    """`value` as a JSON number. Exact by default: an int when whole, else the float
    (points are written with a few decimals, which a float holds exactly enough to read
    back). With `places`, rounded as the standings show points: that many decimals,
    halves away from zero, always a float (m / 10**places is correctly rounded)."""
    if places is not None:
        scale: int = 10**places
        return scaled_half_up(value, scale) / scale
    return int(value) if value.denominator == 1 else float(value)
