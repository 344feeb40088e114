"""The online addendum's ready check (lobby rules, 5) is the regulation's: what the
judge checks of each seat before the first speech, and when every seat is ready."""

from __future__ import annotations

from mafiatab.core.regulations import FIIM, FIIM_ONLINE

ALL = {"microphone": True, "connection": True, "camera": True, "confirmed": True}


def test_the_online_regulation_checks_the_microphone_connection_camera_and_confirmation():
    assert FIIM_ONLINE.ready_checks == ("microphone", "connection", "camera", "confirmed")
    assert FIIM.ready_checks == ()


def test_a_table_is_ready_once_every_seat_passed_every_check():
    assert FIIM_ONLINE.is_ready([ALL] * 10)
    assert not FIIM_ONLINE.is_ready([ALL] * 9 + [ALL | {"camera": False}])
    assert not FIIM_ONLINE.is_ready([ALL] * 9 + [{}])
