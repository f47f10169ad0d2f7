"""The baked site's replay and map per turn in headless Chromium: the site
served over HTTP by a plain static server sending a strict Content-Security-Policy (no
inline script), at 390 px and 1280 px: the replay loads its JSON from a relative URL and
plays, no console error, no CSP violation, no horizontal scroll; opened from disk it
shows its note instead; a recorded battle says it has no replay. A ship page's SSD and the
standings chart are styled under ``style-src 'self'``."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from battles.models import Battle
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.publish import site_build
from campaign.turns.models import CampaignTurn
from factions.models import Fleet, Territory
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.report_fixtures import make_battle
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = [pytest.mark.e2e, pytest.mark.django_db]
expect = pytest.importorskip("playwright.sync_api").expect

# Scripts as strict as the app's, and styles too: the baked pages, SSDs and charts carry
# no <style> element nor style="" attribute (a static host cannot give them a nonce).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self';"
    " img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none';"
    " base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


class _Handler(SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture
def served(cast, settings, tmp_path):
    """A site with an auto-resolved battle (turn 2, closed), a recorded one (turn 1),
    served at ``base`` over HTTP."""
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    make_battle(cast.campaign)
    yard = Territory.objects.create(
        faction=cast.qatzrin, name="Qatzrin Prime orbital yards and anchorage", slug="prime",
        kind="station", has_shipyard=True,
    )  # fmt: skip
    fleet = Fleet.objects.get(slug="qatzrin-skirmish")
    fleet.territory = yard
    fleet.save()  # recorded in the fleet's history, which the map reads
    Battle.objects.filter(pk=battle.pk).update(territory=yard)
    now = timezone.now()
    for number in (1, 2):
        CampaignTurn.objects.create(
            campaign=cast.campaign, number=number, status="closed", closed_at=now
        )
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=out))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield out, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def _watch(page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(f"{page.url}: {m.text}") if m.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)
    page.add_init_script(RECORD_VIOLATIONS)
    return errors


@pytest.mark.parametrize("width", [390, 1280])
def test_the_replay_plays_on_the_served_site_under_a_strict_csp(browser, served, width):
    out, base = served
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = _watch(page)
    try:
        page.goto(f"{base}/fr/battles/test-league/skirmish.html")
        response = page.request.get(f"{base}/fr/replays/test-league/skirmish.json")
        assert response.ok and response.json()["board"]["moments"]
        section = page.locator("section.site-replay")
        section.locator(".board-map svg .marker").first.wait_for()
        assert section.locator(".board-note").is_hidden()
        slider = section.locator(".board-slider input")
        last = int(slider.get_attribute("max"))
        assert last > 10 and slider.input_value() == str(last)
        section.locator(".board-prev").click()
        assert slider.input_value() == str(last - 1)
        moment = section.locator(".board-moment").inner_text()
        assert moment.startswith("Tour ")  # the page's language
        slider.fill("0")
        assert section.locator(".board-moment").inner_text() == "Tour 0 · mise en place"
        assert section.locator(".board-log li:visible").first.inner_text() == "flottes déployées"
        section.locator(".board-play").click()
        expect(slider).not_to_have_value("0", timeout=5_000)  # it plays
        section.locator(".board-play").click()  # pause
        page.wait_for_load_state("networkidle")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{scroll} px wide at {width}"
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        section.screenshot(path=str(SCREENSHOT_DIR / f"site-replay-{width}.png"))

        for path in (
            "/fr/maps/test-league/turn-2.html",
            "/fr/maps/test-league/index.html",
            "/en/battles/test-league/colonisation-compromise.html",
        ):
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"{path}: {scroll} px wide at {width}"
        assert "this battle has no replay" in page.locator(".site-main").inner_text()
        page.goto(f"{base}/fr/maps/test-league/turn-2.html")
        page.screenshot(path=str(SCREENSHOT_DIR / f"site-map-{width}.png"), full_page=True)
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        context.close()


def test_opened_from_disk_the_replay_shows_its_note_and_no_error(page, served):
    out, _base = served
    errors = _watch(page)
    page.goto((out / "en" / "battles" / "test-league" / "skirmish.html").as_uri())
    page.wait_for_load_state("load")
    section = page.locator("section.site-replay")
    assert section.locator(".board-note").is_visible()
    assert section.locator(".board-wrap").is_hidden()
    assert errors == []


def test_the_ssd_and_the_charts_are_styled_under_style_src_self(page, served):
    out, base = served
    errors = _watch(page)
    page.goto(f"{base}/fr/ships/test-ganesha/vishnu-second.html")
    page.wait_for_load_state("networkidle")
    ssd = page.locator("svg.ssd")
    # Rules from the linked css/ssd.css; the fitted title size from its SVG attribute.
    styles = ssd.evaluate(
        """svg => {
          const s = (sel, prop) => getComputedStyle(svg.querySelector(sel))[prop];
          const size = svg.querySelector(".title").getAttribute("font-size");
          return [s(".title", "fontWeight"), s(".title", "fontSize") === `${size}px`,
                  s(".hull-box", "strokeWidth"), s(".cross", "stroke"),
                  s(".section-label", "textTransform")];
        }"""
    )
    assert styles == ["700", True, "1.5px", "rgb(187, 0, 0)", "uppercase"]
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    ssd.screenshot(path=str(SCREENSHOT_DIR / "site-ssd-strict-csp.png"))
    page.goto(f"{base}/fr/campaigns/test-league.html")
    chart = page.locator("figure.chart svg").first  # battles won and lost (VP by turn follows)
    assert chart.locator("rect").count() >= 2
    chart.screenshot(path=str(SCREENSHOT_DIR / "site-standings-chart.png"))
    assert page.evaluate("window.__csp") == []
    assert errors == []
