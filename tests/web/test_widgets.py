"""Date, time and number inputs carry their values in the HTML format in every language."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django import forms
from django.utils import translation

from mafiatab.widgets import HtmlForm


class _Everything(HtmlForm):
    day = forms.DateField()
    time = forms.TimeField()
    moment = forms.DateTimeField()
    points = forms.DecimalField(max_digits=5, decimal_places=2)
    share = forms.FloatField()
    count = forms.IntegerField()

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["added"] = forms.DecimalField(max_digits=5, decimal_places=2)


INITIAL = {
    "day": dt.date(2026, 12, 5),
    "time": dt.time(18, 30),
    "moment": dt.datetime(2026, 12, 5, 18, 30),
    "points": Decimal("0.5"),
    "share": 0.25,
    "count": 12345,
    "added": Decimal("-0.8"),
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_inputs_show_their_values_in_the_html_format_in_every_language(language):
    with translation.override(language):
        page = str(_Everything(initial=INITIAL))
    assert 'type="date" name="day" value="2026-12-05"' in page
    assert 'type="time" name="time" value="18:30"' in page
    assert 'type="datetime-local" name="moment" value="2026-12-05T18:30"' in page
    assert 'type="number" name="points" value="0.5"' in page
    assert 'type="number" name="share" value="0.25"' in page
    assert 'type="number" name="count" value="12345"' in page
    assert 'type="number" name="added" value="-0.8"' in page


@pytest.mark.parametrize("language", ["en", "ru"])
def test_what_the_inputs_show_is_read_back_unchanged(language):
    with translation.override(language):
        form = _Everything(initial=INITIAL)
        data = {name: form[name].value() for name in form.fields}
        shown = {name: form[name].field.widget.format_value(value) for name, value in data.items()}
        posted = _Everything(data=shown)
        assert posted.is_valid(), posted.errors
    assert posted.cleaned_data["day"] == INITIAL["day"]
    assert posted.cleaned_data["time"] == INITIAL["time"]
    assert posted.cleaned_data["points"] == INITIAL["points"]
    assert posted.cleaned_data["added"] == INITIAL["added"]
    assert posted.cleaned_data["count"] == INITIAL["count"]
