"""Every form of the site, posted back exactly as a browser shows it, stores nothing new.

The organiser, a table judge and a player of the demo tournament each walk every page
they can reach from the tournament and their profile, in English and in Russian. Each
`<form method="post">` is read the way a browser submits it (an input's value that
its type cannot hold, like `05.12.2026` in `<input type="date">`, is dropped, exactly
as the browser drops it) and posted back unchanged with its first submit button. The
forms that edit something must leave every stored row as it was; the forms that
create something may add rows but change none; the one-click buttons (approve,
confirm, sign out...) do what they say and are not posted.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.apps import apps
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from mafiatab.accounts.models import User
from mafiatab.commands.demo_tournament import demo_load

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru")
PEOPLE = ("organiser", "judge1", "player01")

#: Forms that edit what is stored and show it: posted back, they must change nothing.
EDITS = {
    "tournaments:edit",
    "accounts:profile",
    "games:protocol",
    "notifications:preferences",
    "games:round_schedule",
    "registrations:online_links",
    "games:table_judge",
}
#: Forms that make something new from what is typed (shown empty or with defaults):
#: posted back, they may add rows (or refuse what is missing) but change no stored one.
CREATES = {
    "tournaments:new",
    "tournaments:staff",
    "registrations:add",
    "registrations:apply",
    "seating:replace",
    "penalties:give",
    "games:rounds",
    "games:table_add",
    "games:lateness",
    "games:protest",
    "seating:generate",
    "console:console",
    "announcements:messages",
}
#: One-click buttons: each does what it says (approve, confirm, sign out...); posting
#: them back would do it. They show no stored value to lose.
ACTIONS = {
    "set_language",
    "accounts:logout",
    "registrations:approve",
    "registrations:reject",
    "registrations:withdraw",
    "registrations:withdraw_own",
    "registrations:checkin",
    "registrations:checkin_self",
    "registrations:calendar_renew",
    "registrations:checkin_open",
    "penalties:cancel",
    "games:confirm",
    "games:return",
    "games:replay",
    "games:decide",
    "standings:manage",
    "seating:publish",
    "seating:regenerate",
    "console:finish",
    "console:director_links",
    "tournaments:staff_remove",
    "tournaments:close",
    "standings:advance",
    "registrations:approve_selected",
    "registrations:checkin_selected",
    "notifications:mark_all_read",
    "notifications:unsubscribe",
}

#: Rows that are not what the forms store: sessions, caches, login records, the log.
SKIPPED_MODELS = {
    "sessions.session",
    "admin.logentry",
    "axes.accessattempt",
    "axes.accessfailurelog",
    "axes.accessattemptexpiration",
    "axes.accesslog",
    "audit.auditentry",
    "standings.standingssnapshot",
    "standings.playerexplanation",
    "contenttypes.contenttype",
    "auth.permission",
}
SKIPPED_FIELDS = {"last_login"}
#: Pages whose links are not followed (files, other sites' forms, the admin).
NOT_PAGES = re.compile(r"\.(pdf|xlsx|zip|json|csv|svg|css|js|ics)$|^/(admin|api|static|i18n)/")
#: How many pages of one kind (one URL pattern) are read.
PAGES_PER_KIND = 1


# --- a browser's reading of a form -----------------------------------------------------

_DATE = r"\d{4,}-\d\d-\d\d"
_TIME = r"\d\d:\d\d(:\d\d(\.\d{1,3})?)?"
_NUMBER = re.compile(r"-?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?")


def _valid_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return bool(re.fullmatch(_DATE, text))


def _sanitized(kind: str, value: str) -> str:
    """The value an input of `kind` holds (HTML's value sanitization algorithm): a
    date, time or number it cannot read is dropped."""
    if kind == "date":
        return value if _valid_date(value) else ""
    if kind == "time":
        return value if re.fullmatch(_TIME, value) else ""
    if kind == "datetime-local":
        date, _sep, time = value.replace(" ", "T").partition("T")
        ok = _valid_date(date) and re.fullmatch(_TIME, time)
        return value.replace(" ", "T") if ok else ""
    if kind == "number":
        return value if _NUMBER.fullmatch(value) else ""
    if kind in ("text", "search", "tel", "password", "url", "email"):
        value = value.replace("\r", "").replace("\n", "")
        return value.strip() if kind in ("url", "email") else value
    return value


@dataclass
class Form:
    page: str
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    submitter: tuple[str, str] | None = None
    submitter_action: str | None = None
    kinds: set[str] = field(default_factory=set)
    #: The inputs whose value the browser drops: (name, type, value shown).
    dropped: list[tuple[str, str, str]] = field(default_factory=list)

    def data(self) -> dict[str, list[str]]:
        pairs = [*self.fields, *([self.submitter] if self.submitter and self.submitter[0] else [])]
        data: dict[str, list[str]] = {}
        for name, value in pairs:
            data.setdefault(name, []).append(value)
        return data

    def target(self) -> str:
        return urljoin(self.page, self.submitter_action or self.action or self.page)


class _Page(HTMLParser):
    """The links and the post forms of a page, as a browser reads them."""

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._option: list[Any] | None = None
        self._textarea: list[str] | None = None
        self._textarea_name = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(urljoin(self.url, a["href"]))
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._form = Form(page=self.url, action=a.get("action", ""))
        form = self._form
        if form is None or "disabled" in a:
            return
        if tag == "input":
            self._input(form, a)
        elif tag == "button":
            self._button(form, a)
        elif tag == "select" and a.get("name"):
            self._select = (a["name"], [])
            form.kinds.add("select")
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea" and a.get("name"):
            self._textarea, self._textarea_name = [], a["name"]
            form.kinds.add("textarea")

    def _input(self, form: Form, a: dict[str, str]) -> None:
        kind = a.get("type", "text").lower()
        name = a.get("name", "")
        if kind in ("submit", "image"):
            self._submit(form, a)
            return
        if not name or kind in ("button", "reset", "file"):
            return
        form.kinds.add(kind)
        if kind in ("checkbox", "radio"):
            if "checked" in a:
                form.fields.append((name, a.get("value", "on")))
            return
        shown = a.get("value", "")
        value = _sanitized(kind, shown)
        if kind in ("date", "time", "datetime-local", "number") and value != shown:
            form.dropped.append((name, kind, shown))
        form.fields.append((name, value))

    def _button(self, form: Form, a: dict[str, str]) -> None:
        if a.get("type", "submit").lower() == "submit":
            self._submit(form, a)

    def _submit(self, form: Form, a: dict[str, str]) -> None:
        if form.submitter is None and form.submitter_action is None:
            form.submitter = (a.get("name", ""), a.get("value", ""))
            form.submitter_action = a.get("formaction") or None

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option[2] += data
        if self._textarea is not None:
            self._textarea.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None and self._select is not None:
            value, selected, text = self._option
            self._select[1].append((text.strip() if value is None else value, selected))
            self._option = None
        elif tag == "select" and self._select is not None and self._form is not None:
            name, options = self._select
            chosen = [v for v, selected in options if selected] or [v for v, _ in options[:1]]
            self._form.fields.extend((name, v) for v in chosen[-1:])
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            text = "".join(self._textarea).removeprefix("\n")
            # a browser sends a textarea's lines ended by CR LF
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
            self._form.fields.append((self._textarea_name, text))
            self._textarea = None
        elif tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None


# --- what is stored ----------------------------------------------------------------------


def _value(value: Any) -> Any:
    return str(value) if not isinstance(value, int | str | bool | type(None)) else value


def _snapshot() -> dict[str, dict[Any, dict[str, Any]]]:
    """Every stored row of what the forms keep, by table and primary key."""
    rows: dict[str, dict[Any, dict[str, Any]]] = {}
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if label in SKIPPED_MODELS or label.split("_")[0] in SKIPPED_MODELS:
            continue
        names = [f.attname for f in model._meta.concrete_fields if f.name not in SKIPPED_FIELDS]
        pk = model._meta.pk.attname
        rows[label] = {
            row[pk]: {k: _value(v) for k, v in row.items()} for row in model.objects.values(*names)
        }
    return rows


def _changes(before: dict[str, Any], after: dict[str, Any], *, added_ok: bool) -> list[str]:
    changes = []
    for label, rows in before.items():
        now = after.get(label, {})
        for pk, row in rows.items():
            if pk not in now:
                changes.append(f"{label} {pk} deleted")
            elif now[pk] != row:
                diff = {k: (v, now[pk].get(k)) for k, v in row.items() if now[pk].get(k) != v}
                changes.append(f"{label} {pk} changed: {diff}")
        if not added_ok:
            changes += [f"{label} {pk} added" for pk in now.keys() - rows.keys()]
    return changes


# --- the walk ----------------------------------------------------------------------------


def _kind(path: str) -> str | None:
    """The view a site address belongs to (None for an address that is no page)."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name


def _walk(client: Client, starts: list[str]) -> list[Form]:
    """The post forms of every page reachable from `starts` (a few pages of each kind)."""
    seen: set[str] = set()
    per_kind: dict[str, int] = {}
    queue = deque(starts)
    forms: list[Form] = []
    while queue:
        url = queue.popleft()
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver") or url in seen:
            continue
        seen.add(url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        kind = _kind(parts.path)
        if kind is None or kind in ACTIONS or NOT_PAGES.search(parts.path):
            continue
        per_kind[kind] = per_kind.get(kind, 0) + 1
        if per_kind[kind] > PAGES_PER_KIND:
            continue
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        page = _Page(path)
        page.feed(response.content.decode())
        forms += page.forms
        queue.extend(link.split("#")[0] for link in page.links)
    return forms


@pytest.fixture
def demo(fast_passwords: None) -> Any:
    tournament, _logins = demo_load()
    yield tournament


def _post_back(client: Client, form: Form) -> tuple[str, list[str]]:
    target = form.target()
    kind = _kind(target)
    assert kind is not None, f"the form of {form.page} posts to {target}, which is no page"
    assert kind in EDITS | CREATES | ACTIONS, (
        f"the form of {form.page} posting to {target} ({kind}) is not known to this test: "
        "add it to EDITS, CREATES or ACTIONS"
    )
    dropped = [f"{form.page}: {t} input {name} shows {v!r}" for name, t, v in form.dropped]
    if kind in ACTIONS:
        return kind, dropped
    before = _snapshot()
    response = client.post(target, form.data())
    assert response.status_code < 500, f"{target}: {response.status_code}"
    changes = _changes(before, _snapshot(), added_ok=kind in CREATES)
    return kind, dropped + [f"{form.page} -> {target}: {c}" for c in changes]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_posted_back_as_shown_changes_nothing_stored(demo, language):
    posted: set[str] = set()
    changes: list[str] = []
    for username in PEOPLE:
        client = Client(headers={"accept-language": language})
        client.force_login(User.objects.get(username=username))
        starts = [demo.get_absolute_url(), reverse("accounts:profile"), reverse("tournaments:list")]
        for form in _walk(client, starts):
            kind, found = _post_back(client, form)
            posted.add(kind)
            changes += found
    assert not changes, "\n".join(changes)
    assert {"tournaments:edit", "accounts:profile", "games:protocol"} <= posted
