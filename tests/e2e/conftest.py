"""End-to-end fixtures: Debian's Chromium driven by Playwright's sync API against
pytest-django's ``live_server``.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``
(``.ci/run`` installs it); every test here skips cleanly when it is absent.
"""

import os
from pathlib import Path

import pytest

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
