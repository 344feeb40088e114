"""The time zones a tournament may be in, and how the pages name them."""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

from django.utils.translation import gettext_lazy as _

#: The time zones the edit page offers, by where the players are (any IANA zone a
#: script sets is kept and offered as it is named).
TIME_ZONE_CHOICES = [
    ("Europe/Kaliningrad", _("Kaliningrad")),
    ("Europe/Moscow", _("Moscow, Saint Petersburg")),
    ("Europe/Samara", _("Samara")),
    ("Asia/Yekaterinburg", _("Yekaterinburg")),
    ("Asia/Omsk", _("Omsk")),
    ("Asia/Novosibirsk", _("Novosibirsk")),
    ("Asia/Krasnoyarsk", _("Krasnoyarsk")),
    ("Asia/Irkutsk", _("Irkutsk")),
    ("Asia/Yakutsk", _("Yakutsk")),
    ("Asia/Vladivostok", _("Vladivostok")),
    ("Asia/Magadan", _("Magadan")),
    ("Asia/Kamchatka", _("Petropavlovsk-Kamchatsky")),
    ("Europe/Minsk", _("Minsk")),
    ("Europe/Kyiv", _("Kyiv")),
    ("Europe/Riga", _("Riga, Vilnius, Tallinn")),
    ("Asia/Tbilisi", _("Tbilisi")),
    ("Asia/Yerevan", _("Yerevan")),
    ("Asia/Baku", _("Baku")),
    ("Asia/Almaty", _("Almaty")),
    ("Asia/Tashkent", _("Tashkent")),
    ("Asia/Jerusalem", _("Jerusalem")),
    ("Europe/Berlin", _("Berlin, Paris, Warsaw")),
    ("Europe/London", _("London")),
    ("America/New_York", _("New York")),
    ("UTC", _("Coordinated universal time")),
]


def utc_offset(zone: str) -> str:
    """The zone's offset from UTC now, as "UTC+3" or "UTC+5:30"."""
    offset = dt.datetime.now(zoneinfo.ZoneInfo(zone)).utcoffset() or dt.timedelta()
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zones a tournament may be in."""
    return frozenset(zoneinfo.available_timezones())


def zone_label(zone: str) -> str:
    """A zone as the reader names it, with its offset now: "Yekaterinburg (UTC+5)"; a zone
    the list does not name, by its IANA name."""
    label = dict(TIME_ZONE_CHOICES).get(zone)
    try:
        offset = utc_offset(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return str(label or zone)
    return f"{label or zone} ({offset})"
