"""A tournament day rehearsed in Russian, as the people of the day see it: the organiser
on a laptop creates the tournament, approves and checks in the players in bulk, fines a
late player and replaces another for one round, seats and publishes two rounds; the
table judges run two games on their phones and sign, the chief judge confirms and
decides a protest; the organiser hides the standings, the public sees no point
anywhere, and the organiser downloads the archive.

Every page visited is in Russian (no English word, no raw code) and, on a phone, no
wider than the screen."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils.translation import gettext, override, pgettext

from mafiatab.games.models import Game, GameStatus, Protest, ProtestStatus, Round
from mafiatab.registrations.models import Registration, Status
from mafiatab.registrations.services import registration_apply
from mafiatab.tournaments.models import StaffRole, Tournament
from mafiatab.tournaments.services import staff_assign

from .conftest import WAIT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/tournament-day")

NICKS = [
    "Кэп", "Пилот", "Гроза", "Ведьма", "Вишня", "Кошмар", "Маэстро", "Сова", "Профессор",
    "Граф", "Кактус", "Шахматист", "Алхимик", "Баскервиль", "Лис", "Фантом", "Бармалей",
    "Северянка", "Ласточка", "Тень", "Запасной",
]  # fmt: skip
RESERVE = NICKS[-1]
#: Table 1: blacks at 5 and 9, the don at 7, the sheriff at 3.
ROLES = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]
#: Latin words a Russian page may show: the brand, the language switch, file formats.
#: (UTC: time zones by their offset, "UTC+3", as Russian writes them too.)
LATIN_ALLOWED = {
    "mafiatab",
    "FIIM",
    "RU",
    "EN",
    "CSV",
    "PDF",
    "XLSX",
    "Ci",
    "CI",
    "ZIP",
    "UTC",
    "API",
}
#: Points as the pages write them ("1.00", "-0.50"); not a date ("02.12.2026").
POINTS = re.compile(r"(?<![\d.])-?\d+\.\d\d(?![\d.])")
#: A game's label (the tournament file's id of the game) reads the same in every language.
GAME_LABEL = re.compile(r"\b[A-Z]\d+-T\d+\b")


def ru(text: str) -> str:
    with override("ru"):
        return gettext(text)


class Walk:
    """The browser contexts of the day's people, and what every page must pass."""

    def __init__(self, browser: Any, live_url: str) -> None:
        self.browser = browser
        self.live_url = live_url
        self.contexts: list[Any] = []
        self.shot = 0
        SHOTS.mkdir(exist_ok=True)

    def person(self, username: str | None, viewport: dict[str, int]) -> Any:
        context = self.browser.new_context(
            locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}, viewport=viewport
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        if username:
            self.go(page, "/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", "secret-pass-1")
            page.click("main button[type=submit]")
            page.wait_for_selector("[data-testid=current-user]")
        return page

    def go(self, page: Any, path: str) -> None:
        page.goto(self.live_url + path)

    def look(self, page: Any, name: str) -> str:
        """The page is Russian and fits its screen; its text is returned."""
        self.shot += 1
        page.screenshot(path=str(SHOTS / f"{self.shot:02d}-{name}.png"), full_page=True)
        assert page.locator("html").get_attribute("lang") == "ru", name
        text = page.locator("body").inner_text()
        words = re.findall(r"[A-Za-z][A-Za-z0-9_.]+", GAME_LABEL.sub("", text))
        latin = set(words) - LATIN_ALLOWED
        assert not latin, f"{name}: English words or codes on a Russian page: {sorted(latin)}"
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{name}: the page is {width[0]} px wide on {width[1]} px"
        return text

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def walk(browser: Any, live_server: Any, fast_passwords: None) -> Any:
    day = Walk(browser, live_server.url)
    yield day
    day.close()


@pytest.fixture
def organiser(make_user: Any) -> Any:
    return make_user("Организатор", username="organiser")


@pytest.fixture
def people(organiser: Any, make_user: Any, settings: Any) -> dict[str, Any]:
    settings.MAFIATAB_SEATING_ITERATIONS = 2_000
    return {
        "chief": make_user("Главный Судья", username="chief"),
        "judges": [make_user(f"Судья {n}", username=f"judge{n}") for n in ("Один", "Два")],
        "players": [make_user(nick, username=f"p{i:02d}") for i, nick in enumerate(NICKS, 1)],
    }


def _saved(page: Any) -> None:
    page.locator("[data-testid=sync]", has_text=ru("saved")).wait_for()


def _tap(page: Any, testid: str) -> None:
    page.click(f"[data-testid='{testid}']")
    _saved(page)


def _speaker(page: Any, seat: int) -> None:
    for _step in range(12):
        speaker = page.locator("[data-testid=speaker]").inner_text()
        if speaker.startswith(f"{ru('Speaks')}: {seat} "):
            return
        page.click("[data-action=next-speech]")
    raise AssertionError(f"seat {seat} never speaks")


def _left(page: Any, seat: int) -> None:
    page.locator(f"[data-testid=seat-{seat}] .c-gone", has_text=ru("left")).wait_for()


def _vote(page: Any, counts: dict[int, int]) -> None:
    for seat, n in counts.items():
        for _i in range(n):
            page.click(f"[data-testid=plus-{seat}]")
    _tap(page, "send-vote")


def _start(walk: Walk, page: Any, slug: str, label: str) -> None:
    walk.go(page, reverse("games:my_tables", args=[slug]))
    walk.look(page, f"my-tables-{label}")
    page.click(f"[data-testid='console-{label}']")
    for seat, role in enumerate(ROLES, start=1):
        page.select_option(f"[data-testid=role-{seat}]", role)
    page.click("[data-testid=start-game]")
    page.locator("[data-testid=phase]", has_text=ru("Day") + " 1").wait_for()


def _play_revote_and_lift(walk: Walk, page: Any) -> None:
    """Day 1: 5 and 9 tie twice, the table lifts both; night 1 the don misses;
    day 2 the don is the only nominee and leaves: red wins."""
    _speaker(page, 1)
    _tap(page, "nominate-1-5")
    _speaker(page, 2)
    _tap(page, "nominate-2-9")
    _vote(page, {5: 5, 9: 5})
    page.locator("[data-testid=vote] h3", has_text=ru("Revote among the tied")).wait_for()
    walk.look(page, "console-revote")
    _vote(page, {5: 5, 9: 5})
    page.locator("[data-testid=lift]").wait_for()
    for _i in range(6):
        page.click("[data-testid=lift] [data-d='1']")
    walk.look(page, "console-lift")
    page.click("[data-testid=lift] [data-action=lift]")
    _saved(page)
    for seat in (5, 9):
        _left(page, seat)
    page.click("[data-action=send][data-type=night]")
    _saved(page)
    _tap(page, "aim-7-none")
    _tap(page, "send-shots")
    page.click("[data-action=send][data-type=day]")
    _saved(page)
    _speaker(page, 2)
    _tap(page, "nominate-2-7")
    page.click("[data-action=send][data-type=night]")
    page.locator("[data-testid=result]", has_text=ru("The red team wins.")).wait_for()


def _play_fourth_foul(walk: Walk, page: Any) -> None:
    """Day 1: the black at 5 takes a fourth foul and leaves, so the day has no vote
    (the voting is cancelled after a removal); night 1 the blacks miss; day 2 the black
    at 9 is voted out; night 2 the don misses; day 3 the don is the only nominee and
    leaves: red wins."""
    for _i in range(4):
        _tap(page, "foul-5")
    _left(page, 5)
    assert page.locator("[data-testid=panel] [data-testid^=nominate-]").count() == 0
    walk.look(page, "console-fourth-foul")
    page.click("[data-action=send][data-type=night]")
    _saved(page)
    page.click("[data-testid=aim-7-none]")
    _tap(page, "aim-9-none")
    _tap(page, "send-shots")
    page.click("[data-action=send][data-type=day]")
    _saved(page)
    _speaker(page, 2)
    _tap(page, "nominate-2-9")
    _speaker(page, 3)
    _tap(page, "nominate-3-7")
    _vote(page, {9: 5, 7: 4})
    _left(page, 9)
    page.click("[data-action=send][data-type=night]")
    _saved(page)
    _tap(page, "aim-7-none")
    _tap(page, "send-shots")
    page.click("[data-action=send][data-type=day]")
    _saved(page)
    _speaker(page, 3)
    _tap(page, "nominate-3-7")
    page.click("[data-action=send][data-type=night]")
    page.locator("[data-testid=result]", has_text=ru("The red team wins.")).wait_for()


def _sign(walk: Walk, page: Any, label: str) -> None:
    """The protocol opens prefilled from the console; the table judge signs it."""
    page.click("[data-testid=close-game]")
    page.click("[data-testid=open-protocol]")
    page.wait_for_selector("#protocol-form")
    assert page.locator("select[name=role_7]").input_value() == "don"
    assert page.locator("input[name=winner][value=red]").is_checked()
    page.get_by_text(ru("No problems: the protocol can be signed.")).wait_for()
    walk.look(page, f"protocol-{label}")
    page.click("[data-testid=sign]")
    page.wait_for_selector(f"[data-testid=game-status]:has-text('{ru('submitted')}')")
    walk.look(page, f"signed-{label}")


def test_a_tournament_day_in_russian_from_the_applications_to_the_archive(walk, organiser, people):
    chief, judges, players = people["chief"], people["judges"], people["players"]

    # 1. The organiser creates an offline FIIM tournament.
    desk = walk.person(organiser.username, LAPTOP)
    walk.go(desk, reverse("tournaments:new"))
    walk.look(desk, "new-tournament")
    desk.fill("#id_name", "Кубок Весны")
    desk.select_option("#id_ruleset", "fiim")
    desk.fill("#id_place", "Казань, клуб «Мафия»")
    desk.fill("#id_participant_limit", "20")
    desk.fill("#id_chief_judge", chief.nickname)
    desk.click("main form.form button[type=submit]")
    desk.wait_for_selector(".t-header h1:has-text('Кубок Весны')")
    tournament = Tournament.objects.get(name="Кубок Весны")
    slug = tournament.slug
    assert tournament.ruleset == "fiim" and not tournament.is_online
    walk.look(desk, "tournament")
    assert tournament.staff(StaffRole.CHIEF_JUDGE) == [chief]
    for judge in judges:
        staff_assign(tournament=tournament, user=judge, role=StaffRole.TABLE_JUDGE, by=organiser)

    # 2. Twenty-one applications, approved in one action: twenty places, one waits.
    for player in players:
        registration_apply(tournament=tournament, user=player)
    walk.go(desk, reverse("registrations:manage", args=[slug]))
    assert desk.locator("#pending tbody tr").count() == 21
    for box in desk.locator("#pending input[type=checkbox][name=registrations]").all():
        box.check()
    desk.click("#approve-selected button[type=submit]")
    desk.wait_for_selector("#pending .empty")
    walk.look(desk, "approved")
    assert RESERVE in desk.locator("#waiting").inner_text()
    assert Registration.objects.filter(tournament=tournament, status=Status.APPROVED).count() == 20
    # ... and checks them in for the day in one action.
    for box in desk.locator("#participants input[type=checkbox][name=registrations]").all():
        box.check()
    desk.click("#checkin-selected button[type=submit]")
    desk.wait_for_selector("#participants")
    walk.look(desk, "checked-in")
    assert desk.locator("#participants tbody .ok").count() == 20
    check_in = ru("Check in")
    assert desk.locator(f"#participants tbody button:has-text('{check_in}')").count() == 0

    # 4. Two rounds on two tables, seated and published with their judges.
    walk.go(desk, reverse("seating:drafts", args=[slug]))
    assert desk.input_value("#id_tables") == "2"
    desk.fill("#id_games", "2")
    desk.fill("#id_seed", "7")
    desk.click("#generate-form button[type=submit]")
    desk.wait_for_selector("[data-testid=seat-balance]")
    walk.look(desk, "seating-draft")
    desk.select_option("#id_table_1", label=judges[0].nickname)
    desk.select_option("#id_table_2", label=judges[1].nickname)
    desk.click(f"button:has-text('{ru('Publish the seating')}')")
    desk.wait_for_selector("text=" + ru("Seating published: the rounds and tables are created."))
    walk.look(desk, "seating-published")
    assert Round.objects.filter(tournament=tournament).count() == 2
    game1 = Game.objects.get(tournament=tournament, label="Q1-T1")
    game2 = Game.objects.get(tournament=tournament, label="Q1-T2")
    table1 = [s.player for s in game1.seats.order_by("number")]
    table2 = [s.player for s in game2.seats.order_by("number")]
    fined = table1[0]  # seven minutes late: fined, he plays
    late = table2[5]  # twenty minutes late: the reserve takes his seat in round 1

    # 3. The chief judge fines a late player on his phone; the organiser replaces
    # another, later still, for round 1 only.
    boss = walk.person(chief.username, PHONE)
    walk.go(boss, reverse("penalties:list", args=[slug]))
    boss.fill("#id_player", fined)
    boss.select_option("#id_kind", "lateness")
    boss.fill("#id_minutes_late", "7")
    boss.fill("#id_round", "1")
    boss.fill("#id_reason", "опоздал к первому туру")
    boss.click("main form.form button[type=submit]")
    boss.wait_for_selector("text=" + ru("Penalty recorded."))
    text = walk.look(boss, "fine")
    assert fined in text and "-0.50" in text

    walk.go(desk, reverse("registrations:manage", args=[slug]))
    desk.select_option("#id_absent", label=late)
    desk.fill("#id_reserve", RESERVE)
    desk.fill("#id_round", "1")
    desk.fill("#id_minutes_late", "20")
    desk.click("#replace button[type=submit]")
    said = ru("%(reserve)s replaces %(nick)s in round %(round)d.")
    desk.wait_for_selector("text=" + said % {"reserve": RESERVE, "nick": late, "round": 1})
    walk.look(desk, "replaced")
    round1 = [s.player for s in Game.objects.get(pk=game2.pk).seats.order_by("number")]
    assert round1[5] == RESERVE
    round2 = Game.objects.filter(tournament=tournament, label__startswith="Q2-")
    assert any(late in [s.player for s in g.seats.all()] for g in round2)
    assert not any(RESERVE in [s.player for s in g.seats.all()] for g in round2)

    # The late player finds his round 2 table on his phone.
    late_user = next(p for p in players if p.nickname == late)
    phone = walk.person(late_user.username, PHONE)
    walk.go(phone, reverse("seating:mine", args=[slug]))
    walk.look(phone, "late-player-seating")
    replaced = ru("replaced by %(reserve)s") % {"reserve": RESERVE}
    assert phone.locator("[data-testid=my-round-1]").inner_text().split("\t")[1:] == [replaced]
    assert phone.locator("[data-testid=my-round-2] td.strong").count() == 2

    # 5. Round 1 on the judges' phones: a revote and a lift; a fourth foul.
    judge1 = walk.person(judges[0].username, PHONE)
    _start(walk, judge1, slug, "Q1-T1")
    walk.look(judge1, "console-1")
    _play_revote_and_lift(walk, judge1)
    walk.look(judge1, "console-1-over")
    _sign(walk, judge1, "Q1-T1")

    judge2 = walk.person(judges[1].username, PHONE)
    _start(walk, judge2, slug, "Q1-T2")
    _play_fourth_foul(walk, judge2)
    walk.look(judge2, "console-2-over")
    _sign(walk, judge2, "Q1-T2")
    assert ru("4 fouls") in judge2.locator("main").inner_text()  # the removal, in Russian

    stored = Game.objects.get(pk=game1.pk)
    assert stored.status == GameStatus.SUBMITTED and stored.winner == "red"
    removed = Game.objects.get(pk=game2.pk).seats.get(number=5)
    assert removed.fouls == 4

    for label in ("Q1-T1", "Q1-T2"):
        walk.go(boss, reverse("games:queue", args=[slug]))
        walk.look(boss, f"queue-{label}")
        boss.click(f"[data-testid='queue-{label}']")
        boss.click("[data-testid=confirm]")
        boss.wait_for_selector(f"[data-testid=game-status]:has-text('{ru('confirmed')}')")
        walk.look(boss, f"confirmed-{label}")
    assert not Game.objects.filter(tournament=tournament, label__startswith="Q1-").exclude(
        status=GameStatus.CONFIRMED
    )

    # 6. A player of table 1 protests; the chief judge rejects the protest.
    protester = next(p for p in players if p.nickname == table1[1])
    player = walk.person(protester.username, PHONE)
    walk.go(player, reverse("games:detail", args=[slug, game1.pk]))
    walk.look(player, "game-for-the-player")
    player.fill("textarea[name=text]", "Судья не дал мне последнего слова.")
    player.click(f"button:has-text('{ru('File the protest')}')")
    player.wait_for_selector(".protest")
    walk.look(player, "protest-filed")
    protest = Protest.objects.get(game=game1)
    walk.go(boss, reverse("games:decide", args=[slug, protest.pk]))
    walk.look(boss, "protest-decide")
    boss.check("input[name=upheld][value=no]")
    boss.fill("textarea[name=decision]", "Последнее слово было дано, протест отклонён.")
    boss.click("#protocol-form button[type=submit].big")
    boss.wait_for_selector(".protest")
    walk.look(boss, "protest-decided")
    protest.refresh_from_db()
    assert protest.status == ProtestStatus.REJECTED
    with override("ru"):
        rejected = pgettext("protest", "rejected")
    assert rejected in boss.locator(".protest").first.inner_text()

    # The standings: the fined player's total is his main + extra + the fine.
    walk.go(desk, reverse("standings:table", args=[slug]))
    walk.look(desk, "standings")
    row = desk.locator("[data-testid=standings] tbody tr", has_text=fined).first
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    total, main, extra, fine = (Fraction(c.replace("−", "-")) for c in cells[2:6])
    assert fine == Fraction(-1, 2) and total == main + extra + fine
    assert main > 0  # red won at table 1

    # 7. The organiser hides the standings; from outside no point shows anywhere.
    desk.click("button[name=action][value=hide]")
    desk.wait_for_selector("button[name=action][value=show]")
    walk.look(desk, "standings-hidden-staff")
    outsider = walk.person(None, PHONE)
    walk.go(outsider, reverse("standings:table", args=[slug]))
    walk.look(outsider, "standings-hidden-public")
    assert outsider.locator("[data-testid=standings-hidden]").is_visible()
    assert outsider.locator("[data-testid=standings]").count() == 0
    walk.go(outsider, reverse("games:detail", args=[slug, game1.pk]))
    walk.look(outsider, "game-hidden-public")
    assert outsider.locator("[data-testid=points-withheld]").is_visible()
    assert not POINTS.findall(outsider.locator("main").inner_text())
    walk.go(outsider, reverse("standings:player", args=[slug, fined]))
    walk.look(outsider, "player-hidden-public")
    assert not POINTS.findall(outsider.locator("main").inner_text())
    request = outsider.context.request
    exported = request.get(walk.live_url + f"/t/{slug}/tournament.json")
    # the file's protocols give every point: it is the staff's while the standings hide
    assert exported.status == 403
    # answered as every door of hidden standings is: the same page, saying why
    reason = ru(
        "The organiser has hidden the standings of this tournament: the points of its "
        "games are shown to its staff only."
    )
    assert html.escape(reason, quote=False) in exported.text()
    api = request.get(walk.live_url + f"/api/tournaments/{slug}/standings")
    assert api.status == 403
    assert api.json()["detail"] == reason
    game_api = request.get(walk.live_url + f"/api/tournaments/{slug}/games/{game1.pk}")
    assert game_api.ok and not _points_in(game_api.json())

    # The day on the record: the history says every change in Russian.
    walk.go(desk, reverse("tournaments:history", args=[slug]))
    walk.look(desk, "history")

    # 8. The organiser downloads the archive: a ZIP holding the tournament file.
    walk.go(desk, reverse("tournaments:detail", args=[slug]))
    with desk.expect_download() as download:
        desk.click(f"a[href$='{reverse('printables:archive', args=[slug])}']")
    archive = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
    names = archive.namelist()
    tournament_file = next(n for n in names if n.endswith(".json"))
    data = json.loads(archive.read(tournament_file))
    assert [g["id"] for g in data["games"] if g["id"].startswith("Q1-")] == ["Q1-T1", "Q1-T2"]


POINT_KEYS = {"points", "total", "main", "extra", "penalties", "score", "standings"}


def _points_in(document: Any) -> list[str]:
    """The keys of `document` that carry points, wherever they are nested."""
    found: list[str] = []
    if isinstance(document, dict):
        for key, value in document.items():
            if key in POINT_KEYS and value not in (None, [], {}):
                found.append(key)
            found += _points_in(value)
    elif isinstance(document, list):
        for item in document:
            found += _points_in(item)
    return found
