"""The one decision of what a viewer sees of a tournament's results, alone."""

from __future__ import annotations

import datetime as dt

from mafiatab.tournaments.disclosure import Disclosure

FROZEN = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
BEFORE = FROZEN - dt.timedelta(minutes=1)
AFTER = FROZEN + dt.timedelta(minutes=1)


def test_the_staff_see_every_games_points_whatever_the_settings():
    for hidden in (False, True):
        staff = Disclosure(staff=True, hidden=hidden, frozen_at=FROZEN)
        assert staff.is_complete and staff.as_of is None
        assert staff.shows_points(confirmed=False, changed_at=AFTER)


def test_hidden_standings_withhold_every_games_points_from_the_public():
    public = Disclosure(staff=False, hidden=True, frozen_at=FROZEN)
    assert public.withholds_all and not public.is_complete
    assert not public.shows_points(confirmed=True, changed_at=BEFORE)


def test_frozen_standings_show_the_public_only_the_games_as_they_were_frozen():
    public = Disclosure(staff=False, hidden=False, frozen_at=FROZEN)
    assert public.as_of == FROZEN and not public.withholds_all
    assert public.shows_points(confirmed=True, changed_at=BEFORE)
    assert public.shows_points(confirmed=True, changed_at=FROZEN)
    assert not public.shows_points(confirmed=True, changed_at=AFTER)
    assert not public.shows_points(confirmed=False, changed_at=BEFORE)


def test_live_standings_withhold_nothing():
    public = Disclosure(staff=False, hidden=False, frozen_at=None)
    assert public.is_complete and public.as_of is None
    assert public.shows_points(confirmed=False, changed_at=None)
