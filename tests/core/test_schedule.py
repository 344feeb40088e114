"""Lateness measured from a round's start time."""

from __future__ import annotations

import datetime as dt

from mafiatab.core.schedule import minutes_late

START = dt.datetime(2026, 12, 5, 10, 0, tzinfo=dt.UTC)


def test_a_player_on_time_or_early_is_not_late():
    assert minutes_late(START, START) == 0
    assert minutes_late(START, START - dt.timedelta(minutes=3)) == 0


def test_every_minute_begun_after_the_start_counts():
    assert minutes_late(START, START + dt.timedelta(minutes=5)) == 5
    assert minutes_late(START, START + dt.timedelta(minutes=5, seconds=1)) == 6
    assert minutes_late(START, START + dt.timedelta(minutes=15, seconds=30)) == 16


def test_time_zones_do_not_change_the_minutes():
    moscow = dt.timezone(dt.timedelta(hours=3))
    arrived = dt.datetime(2026, 12, 5, 13, 7, tzinfo=moscow)
    assert minutes_late(START, arrived) == 7
