"""Form inputs that carry their value in the HTML format, whatever the reader's language.

A browser reads the value of `<input type="date">` only as `YYYY-MM-DD`, of
`type="time"` as `HH:MM`, of `type="datetime-local"` as `YYYY-MM-DDTHH:MM` and of
`type="number"` with a dot and no thousands separator; anything else (`05.12.2026`,
`0,5`, as Django's localized formats write them in Russian) it drops, and the form
is then submitted empty, erasing what was stored. Every form of the site is an
`HtmlForm` (or mixes in `HtmlFormats`), which gives its date, time and number fields
these widgets; what a person reads elsewhere on the page stays localized, and what
is typed is still read in either format.
"""

from __future__ import annotations

from typing import Any

from django import forms

#: The formats the HTML inputs read and write (the HTML standard's, not a language's).
HTML_DATE = "%Y-%m-%d"
HTML_TIME = "%H:%M"
HTML_DATETIME = "%Y-%m-%dT%H:%M"


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=HTML_DATE)


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=HTML_TIME)


class DateTimeInput(forms.DateTimeInput):
    """A local date and time (`datetime-local`), in the site's time zone."""

    input_type = "datetime-local"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format=HTML_DATETIME)


class NumberInput(forms.NumberInput):
    """A number input that is never localized: `0.5`, never Russian `0,5`."""

    def format_value(self, value: Any) -> str | None:
        if value == "" or value is None:
            return None
        return str(value)


def _html_widget(widget: forms.Widget) -> forms.Widget | None:
    """The HTML-format widget to use instead of `widget`, if it needs one."""
    # DateTimeInput before DateInput: neither is a subclass of the other, but keep
    # the most specific first.
    for django_widget, html_widget in (
        (forms.DateTimeInput, DateTimeInput),
        (forms.DateInput, DateInput),
        (forms.TimeInput, TimeInput),
        (forms.NumberInput, NumberInput),
    ):
        if isinstance(widget, django_widget):
            if isinstance(widget, html_widget):
                return None
            replacement = html_widget(attrs=widget.attrs)
            replacement.is_required = widget.is_required
            return replacement
    return None


class HtmlFormats:
    """Mixed into a form: its date, time and number inputs show their values in the
    HTML format. Django's own widgets of those fields are replaced when a field is
    first bound, so the fields a form adds in its `__init__` are covered too."""

    fields: dict[str, forms.Field]

    def __getitem__(self, name: str) -> forms.BoundField:
        field = self.fields.get(name)
        if field is not None and (replacement := _html_widget(field.widget)) is not None:
            field.widget = replacement
        return super().__getitem__(name)  # type: ignore[misc, no-any-return]


class HtmlForm(HtmlFormats, forms.Form):
    """The site's form: `forms.Form` with its inputs in the HTML format."""
