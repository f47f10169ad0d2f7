"""End-to-end fixtures: Debian's Chromium driven by Playwright's sync API against
pytest-django's ``live_server``.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``
(``.ci/run`` installs it); every test here skips cleanly when it is absent.
"""

import os
from pathlib import Path

import pytest
from django.db import connections

from tests.conftest import ROOT

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# tests (fixtures, assertions) would otherwise be refused as "async-unsafe".
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCREENSHOT_DIR = ROOT / "media" / "e2e"


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, whose request threads leave alone the in-memory SQLite
    connection they share with the tests. Django's server closes every connection at the
    end of each request thread; closing an in-memory SQLite database does nothing, but the
    call first checks the thread may use it, and in a run of all of tests/e2e request
    threads ending during test_ux_e2e raised "DatabaseWrapper objects created in a thread
    can only be used in that same thread" there: warnings that would have hidden a real
    server-thread error (pyproject.toml now makes any such exception fail the test). Other
    connections are closed as before."""
    server = live_server.thread.httpd
    shared = set(map(id, live_server.thread.connections_override.values()))

    def close_connections() -> None:
        for conn in connections.all(initialized_only=True):
            if id(conn) not in shared:
                conn.close()

    server._close_connections = close_connections  # Django's hook for this ("for mocking")
    return live_server


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
