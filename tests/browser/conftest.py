"""The browser fixture: Debian's Chromium driven by Playwright against `live_server`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: How long a browser test waits for what a person waits for (a page, a swap): generous,
#: since the suite runs beside other workers on a loaded machine; never a measure of speed.
WAIT_MS = 30_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run scripts/system-deps.sh (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the test thread; the database
    # calls the tests make around it are synchronous and safe.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser: Any, live_server: Any, fast_passwords: None) -> Iterator[Any]:
    """A fresh English-speaking browser tab; `page.url_for(path)` gives a live URL."""
    context = browser.new_context(locale="en-US", extra_http_headers={"Accept-Language": "en"})
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.live_url = live_server.url
    yield tab
    context.close()


def log_in(page: Any, username: str, password: str = "secret-pass-1") -> None:
    page.goto(f"{page.live_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=current-user]")


def log_out(page: Any) -> None:
    page.click("header form[action$='/logout/'] button")
    page.wait_for_selector("text=Sign up")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    """A failed browser test reports where its tab was and what it showed."""
    outcome = yield
    report = outcome.get_result()
    tab = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or tab is None:
        return
    try:
        shown = tab.locator("body").inner_text(timeout=2_000)
        where = f"{tab.url}\n{tab.title()}\n\n{shown[:3_000]}"
    except Exception as exc:  # the tab itself may be what broke
        where = f"{tab.url}\n(the page could not be read: {exc})"
    report.sections.append(("the tab when the test failed", where))
