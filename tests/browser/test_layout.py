"""No page is wider than a phone: every page each role can open, at 390x844 and in
Russian (the longer strings), fits the screen; a wide table scrolls inside its own
box and says so. The seating draft shows all ten seats on a laptop screen.

The pages are taken from the URL configuration: a named pattern under /t/SLUG/ or
/accounts/ that is neither walked nor listed here as something else than a page
fails the test, so a new page cannot be forgotten."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from web import test_games_fixtures as fx

from mafiatab.console.services import log_start
from mafiatab.games.models import Game
from mafiatab.games.services.protests import protest_file
from mafiatab.games.services.protocols import protocol_confirm, protocol_save
from mafiatab.notifications.services import unsubscribe_token
from mafiatab.penalties.services import penalty_give
from mafiatab.registrations.services import registration_add, registration_apply
from mafiatab.seating.services import SeatingInputs, seating_generate, seating_publish
from mafiatab.tournaments.models import StaffRole
from mafiatab.tournaments.services import (
    TournamentInfo,
    staff_assign,
    tournament_create,
    tournament_stages_update,
)

from .conftest import WAIT_MS, log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        bool(os.environ.get("DATABASE_URL")),
        reason="a page's width does not depend on the database; runs in the SQLite pass",
    ),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
#: Long Russian nicknames, one of them a single unbreakable word.
NICKNAMES = [
    "Непревзойдённыйшерифсевера",
    "Александр Константинопольский",
    "Валентина Преображенская",
    "Святослав Многоуважаемый",
    *(f"Игрок номер {n:02d}" for n in range(5, 21)),
]
ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
WAITING = "Непревзойдённыйзапаснойигроксевернойстолицы"

#: What the walk opens: a named pattern and the arguments of its address, from the
#: seeded tournament. A query string after the name opens another view of the page.
Seed = dict[str, Any]
PAGES: dict[str, Callable[[Seed], list[Any]]] = {
    "tournaments:list": lambda s: [],
    "tournaments:new": lambda s: [],
    "tournaments:detail": lambda s: [s["slug"]],
    "tournaments:edit": lambda s: [s["slug"]],
    "tournaments:staff": lambda s: [s["slug"]],
    "tournaments:history": lambda s: [s["slug"]],
    "accounts:profile": lambda s: [],
    "registrations:manage": lambda s: [s["slug"]],
    "penalties:list": lambda s: [s["slug"]],
    "standings:table": lambda s: [s["slug"]],
    "standings:table?provisional=1": lambda s: [s["slug"]],
    "standings:table?view=projector": lambda s: [s["slug"]],
    "standings:player": lambda s: [s["slug"], s["roles"]["player"].nickname],
    "standings:advance": lambda s: [s["slug"], "final"],
    "games:rounds": lambda s: [s["slug"]],
    "games:my_tables": lambda s: [s["slug"]],
    "games:queue": lambda s: [s["slug"]],
    "games:list": lambda s: [s["slug"]],
    "games:detail": lambda s: [s["slug"], s["confirmed"].pk],
    "games:history": lambda s: [s["slug"], s["confirmed"].pk],
    "games:protocol": lambda s: [s["slug"], s["confirmed"].pk],
    "games:protocol?draft": lambda s: [s["slug"], s["untouched"].pk],
    "games:decide": lambda s: [s["slug"], s["protest"].pk],
    "seating:index": lambda s: [s["slug"]],
    "seating:mine": lambda s: [s["slug"]],
    "seating:drafts": lambda s: [s["slug"]],
    "seating:draft": lambda s: [s["slug"], s["draft"].pk],
    "seating:print": lambda s: [s["slug"], s["published"].pk],
    "console:console": lambda s: [s["slug"], s["running"].pk],
    "console:console?start": lambda s: [s["slug"], s["untouched"].pk],
    "console:spectator": lambda s: [s["slug"], s["running"].pk],
    "console:broadcast": lambda s: [s["slug"]],
    "notifications:inbox": lambda s: [],
    "notifications:preferences": lambda s: [],
    "announcements:messages": lambda s: [s["slug"]],
}
#: The pages of a visitor who has not signed in, walked by the anonymous role only.
SIGN_IN_PAGES: dict[str, Callable[[Seed], list[Any]]] = {
    "accounts:signup": lambda s: [],
    "accounts:login": lambda s: [],
    "accounts:password_reset": lambda s: [],
    "accounts:password_reset_done": lambda s: [],
    "accounts:password_reset_confirm": lambda s: ["MQ", "a-link-gone-stale"],
    "accounts:password_reset_complete": lambda s: [],
    "notifications:unsubscribe": lambda s: [
        unsubscribe_token(s["roles"]["player"].pk, "seating.published")
    ],
}
#: Named patterns that are not pages, and what they are instead.
NOT_PAGES = {
    "tournaments:export": "the tournament file (JSON)",
    "accounts:logout": "an action (POST)",
    "registrations:apply": "an action (POST)",
    "registrations:withdraw_own": "an action (POST)",
    "registrations:online_links": "an action (POST)",
    "registrations:checkin_self": "an action (POST)",
    "registrations:calendar_renew": "an action (POST)",
    "registrations:checkin_open": "an action (POST)",
    "registrations:add": "an action (POST)",
    "registrations:checkin": "an action (POST)",
    "seating:replace": "an action (POST)",
    "games:table_judge": "an action (POST)",
    "registrations:approve": "an action (POST)",
    "registrations:approve_selected": "an action (POST)",
    "registrations:checkin_selected": "an action (POST)",
    "tournaments:staff_remove": "an action (POST)",
    "notifications:badge": "a fragment of the header (the unread count, fetched by HTMX)",
    "notifications:mark_all_read": "an action (POST)",
    "notifications:open": "a redirect to what the message is about",
    "tournaments:close": "an action (POST)",
    "registrations:reject": "an action (POST)",
    "registrations:withdraw": "an action (POST)",
    "penalties:give": "an action (POST)",
    "penalties:cancel": "an action (POST)",
    "standings:manage": "an action (POST)",
    "games:table_add": "an action (POST)",
    "games:round_schedule": "an action (POST)",
    "games:lateness": "an action (POST)",
    "games:calendar": "an iCalendar feed",
    "games:player_calendar": "an iCalendar feed",
    "games:preview": "a part of the protocol page (POST, htmx)",
    "games:confirm": "an action (POST)",
    "games:return": "an action (POST)",
    "games:replay": "an action (POST)",
    "games:protest": "an action (POST)",
    "seating:generate": "an action (POST)",
    "seating:regenerate": "an action (POST)",
    "seating:publish": "an action (POST)",
    "console:finish": "an action (POST)",
    "console:ready": "an action (POST)",
    "console:ready_fine": "an action (POST)",
    "console:report_decide": "an action (POST)",
    "console:side_judge": "an action (POST)",
    "console:side": "the side judge's page: walked at 390x844 in test_console_side_judge",
    "console:board": "a part of the spectators' page (htmx)",
    "console:service_worker": "the console's service worker (JavaScript)",
    "printables:protocol": "a PDF",
    "printables:blank_protocols": "a PDF",
    "printables:seating": "a PDF",
    "printables:judge_copies": "a PDF",
    "printables:standings_pdf": "a PDF",
    "printables:standings_xlsx": "a spreadsheet",
    "printables:archive": "a zip archive",
    "console:board_live": "the spectators' page's live channel (JSON)",
    "console:overlay": "a stream overlay (1920x1080, for a streaming tool)",
    "console:overlay_live": "the stream overlay's live channel (JSON)",
    "console:card": "a result card for the stream (1920x1080)",
    "console:card_live": "the result card's live channel (JSON)",
    "console:director_links": "an action (POST)",
    "console:director": "the stream director's page behind a private link",
    "console:director_overlay": "a stream overlay behind a private link (1920x1080)",
    "console:director_overlay_live": "that overlay's live channel (JSON)",
    "standings:strip": "the standings strip for the stream (1920x1080)",
}


def _is_walked(route: str, namespace: str) -> bool:
    """Under /t/ or /accounts/, or a tournament page (the list of tournaments at /)."""
    return route.startswith(("t/", "accounts/")) or namespace == "tournaments:"


def _named_patterns(resolver: URLResolver, prefix: str = "", namespace: str = "") -> set[str]:
    """`namespace:name` of every named pattern whose address starts with /t/ or /accounts/."""
    names: set[str] = set()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= _named_patterns(entry, route, inner)
        elif isinstance(entry, URLPattern) and entry.name and _is_walked(route, namespace):
            names.add(namespace + entry.name)
    return names


def _address(key: str, seed: Seed) -> str:
    name, _sep, query = key.partition("?")
    address = reverse(name, args=(PAGES | SIGN_IN_PAGES)[key](seed))
    return f"{address}?{query}" if "=" in query else address


@pytest.fixture
def seeded(make_user: Any, settings: Any) -> Seed:
    settings.MAFIATAB_SEATING_ITERATIONS = 300
    return seed_tournament(make_user)


def seed_tournament(make_user: Callable[..., Any]) -> Seed:
    """A tournament in full swing: a published seating of two rounds and another draft,
    a confirmed protocol with a protest, a game running on the console, a penalty,
    a pending application; every nickname long and Russian."""
    organiser = make_user("Организатор турнира", username="organiser")
    info = TournamentInfo(
        name="Кубок Северной столицы по спортивной мафии 2026",
        ruleset="fiim",
        platform="",
        registration_open=True,
        participant_limit=len(NICKNAMES),
    )
    tournament = tournament_create(info=info, by=organiser)
    chief = make_user("Главный судья Иванов", username="chief")
    judges = [make_user(f"Судья за столом {n}", username=f"judge{n}") for n in (1, 2)]
    staff_assign(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE, by=organiser)
    for judge in judges:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)
    players = [
        make_user(nick, username=f"player{n:02d}") for n, nick in enumerate(NICKNAMES, start=1)
    ]
    for player in players:
        registration_add(tournament=tournament, nickname="", user=player, by=organiser)
    registration_apply(tournament=tournament, user=make_user("Новичок с длинным именем"))
    # the places are taken: a single unbreakable word on the waiting list
    registration_add(tournament=tournament, nickname=WAITING, by=organiser)
    published = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="qualifying", games=2, tables=2, seed=7),
        by=organiser,
    )
    published = seating_publish(draft=published, judges={1: judges[0], 2: judges[1]}, by=organiser)
    draft = seating_generate(
        tournament=tournament,
        inputs=SeatingInputs(stage="semifinal", games=2, tables=2, seed=8),
        by=organiser,
    )
    games = list(Game.objects.filter(tournament=tournament).order_by("pk"))
    confirmed, running, untouched = games[0], games[1], games[2]
    confirmed_judge = next(j for j in judges if j.nickname == confirmed.judge)
    protocol_save(
        game=confirmed,
        data=fx.complete_data(confirmed),
        by=confirmed_judge,
        base_version=confirmed.version,
        submit=True,
    )
    protocol_confirm(game=confirmed, by=chief)
    confirmed.refresh_from_db()
    seated = [s.player for s in confirmed.seats.all()]
    player = next(p for p in players if p.nickname in seated)
    protest = protest_file(game=confirmed, by=player, text="Дополнительные баллы без причины")
    running_judge = next(j for j in judges if j.nickname == running.judge)
    log_start(game=running, roles=ROLES, by=running_judge)
    # late for round 1 at the table still playing (his game not played yet)
    late = next(s.player for s in running.seats.order_by("number"))
    penalty_give(
        tournament=tournament,
        player=late,
        kind="lateness",
        minutes_late=12,
        round=1,
        reason="Разговоры во время чужой речи",
        by=chief,
    )
    tournament_stages_update(
        tournament=tournament,
        stages=[
            {"stage": "qualifying", "games": 2},
            {"stage": "final", "players": 10, "games": 10},
        ],
        by=organiser,
    )
    return {
        "slug": tournament.slug,
        "roles": {
            "anonymous": None,
            "player": player,
            "table judge": running_judge,
            "chief judge": chief,
            "organiser": organiser,
        },
        "published": published,
        "draft": draft,
        "confirmed": confirmed,
        "running": running,
        "untouched": untouched,
        "protest": protest,
    }


def _overflow(page: Any) -> dict[str, int]:
    return page.evaluate(
        """() => ({
            inner: window.innerWidth,
            html: document.documentElement.scrollWidth,
            body: document.body.scrollWidth,
        })"""
    )


def test_the_walk_covers_every_page_of_the_tournament_and_accounts():
    keys = {key.partition("?")[0] for key in PAGES | SIGN_IN_PAGES}
    assert keys | set(NOT_PAGES) == _named_patterns(get_resolver())
    assert not keys & set(NOT_PAGES)


def test_no_page_of_any_role_is_wider_than_a_phone_in_russian(browser, live_server, seeded):
    too_wide: list[str] = []
    opened = 0
    for role, user in seeded["roles"].items():
        context = browser.new_context(
            locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
        )
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.live_url = live_server.url
        if user is not None:
            log_in(page, user.username)
        for key in [*PAGES, *(SIGN_IN_PAGES if user is None else ())]:
            response = page.goto(live_server.url + _address(key, seeded))
            assert response is not None and response.status < 500, (role, key)
            if response.status != 200:
                continue  # not a page of this role: it is refused or sent to sign in
            opened += 1
            assert page.get_attribute("html", "lang") == "ru", (role, key)
            sizes = _overflow(page)
            if max(sizes["html"], sizes["body"]) > sizes["inner"]:
                too_wide.append(f"{role} {key}: {sizes}")
        context.close()
    assert too_wide == []
    assert opened > 3 * len(PAGES)  # the roles did open their pages


def test_a_wide_table_scrolls_in_its_own_box_with_a_cue(browser, live_server, seeded):
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("standings:table", args=[seeded["slug"]]))
    box = page.locator(".table-scroll").first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    assert box.evaluate("el => getComputedStyle(el).overflowX") == "auto"
    style = box.evaluate(
        "el => [getComputedStyle(el).backgroundImage, getComputedStyle(el).backgroundAttachment]"
    )
    # the shadows at the edges (fixed to the box) and their covers (scrolling with
    # the table): the shadow shows only at an edge the table goes on past
    assert style[0].count("radial-gradient") == 2 and style[0].count("linear-gradient") == 2
    assert style[1] == "local, local, scroll, scroll"
    assert page.locator(".table-scroll + .table-note").is_visible()  # not cut inside the box
    context.close()


def test_the_seating_draft_shows_all_ten_seats_on_a_laptop(browser, live_server, seeded):
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=LAPTOP
    )
    page = context.new_page()
    page.live_url = live_server.url
    log_in(page, "organiser")
    page.goto(live_server.url + reverse("seating:draft", args=[seeded["slug"], seeded["draft"].pk]))
    row = page.locator("[data-testid=round-1-table-1]")
    cells = row.locator("td")
    assert cells.count() == 10
    for seat in (9, 10):
        cell = cells.nth(seat - 1)
        assert cell.is_visible()
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= LAPTOP["width"]
    context.close()


def test_the_standings_views_stand_apart_on_a_phone_while_hidden(browser, live_server, make_user):
    """The links to the standings' other forms are set apart (their style is the
    page's, not only the table's): while the standings are hidden, with no table, on
    a phone "Предварительные" and "Для проектора" do not run together."""
    from mafiatab.standings.services import standings_set_hidden

    organiser = make_user("Организатор", username="organiser")
    tournament = tournament_create(
        info=TournamentInfo(name="Кубок", ruleset="fiim", platform=""), by=organiser
    )
    standings_set_hidden(tournament=tournament, hidden=True, by=organiser)
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=PHONE
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("standings:table", args=[tournament.slug]))
    assert page.locator("[data-testid=standings-hidden]").is_visible()
    first = page.locator("[data-testid=provisional-link]").bounding_box()
    second = page.locator("[data-testid=projector-link]").bounding_box()
    assert first is not None and second is not None
    same_line = abs(first["y"] - second["y"]) < 2
    gap = second["x"] - (first["x"] + first["width"]) if same_line else second["y"] - first["y"]
    assert gap >= 10, (first, second)
    context.close()


def test_the_participants_table_fits_a_laptop_with_its_notes_and_actions(
    browser, live_server, make_user
):
    """On /registrations/ at 1280x800 in Russian, a participant seated in rounds to play
    says so in a note that wraps, and the withdraw button of one who is not stays inside
    the card: the table is no wider than its box."""
    import datetime as dt

    from mafiatab.games.services import TablePlan, round_create

    organiser = make_user("Организатор", username="organiser")
    tournament = tournament_create(
        info=TournamentInfo(
            name="Кубок",
            ruleset="fiim",
            platform="",
            starts_on=dt.date(2026, 3, 1),
            ends_on=dt.date(2026, 3, 3),
        ),
        by=organiser,
    )
    names = [*NICKNAMES[:13], "Свободный игрок"]
    for name in names:
        registration_add(tournament=tournament, nickname=name, by=organiser)
    for number, seated in ((2, names[:10]), (4, names[2:12])):
        round_create(
            tournament=tournament,
            stage="qualifying",
            number=number,
            tables=[TablePlan(number=1, judge=None, players=tuple(seated))],
            by=organiser,
        )
    context = browser.new_context(
        locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=LAPTOP
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.live_url = live_server.url
    log_in(page, "organiser")
    page.goto(live_server.url + reverse("registrations:manage", args=[tournament.slug]))
    box = page.locator("#participants .table-scroll")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth"), box.evaluate(
        "el => [el.scrollWidth, el.clientWidth]"
    )
    edge = box.bounding_box()
    assert edge is not None and edge["x"] + edge["width"] <= LAPTOP["width"]
    free = page.locator("[data-testid='participant-Свободный игрок'] button", has_text="Отозвать")
    button = free.bounding_box()
    assert button is not None
    assert button["x"] + button["width"] <= edge["x"] + edge["width"]
    note = page.locator(f"[data-testid='participant-{names[2]}'] [data-testid=withdraw-seated]")
    assert "Посажен в турах 2, 4: пока они не сыграны, снять нельзя" in note.inner_text()
    one = page.locator(f"[data-testid='participant-{names[0]}'] [data-testid=withdraw-seated]")
    assert "Посажен в туре 2: пока он не сыгран" in one.inner_text()
    said = note.bounding_box()
    assert said is not None and said["x"] + said["width"] <= edge["x"] + edge["width"]
    context.close()
