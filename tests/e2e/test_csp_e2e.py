"""Every page, the API docs included, satisfies the
Content-Security-Policy (django-csp) in Chromium: no violation reported, no inline
script — checked anonymously and logged in, at 390 px and 1280 px."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # every page crawled

# Playwright's init scripts are injected by the browser itself, outside the page's CSP.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _pages(world) -> list[str]:
    return [
        "/",
        f"/campaigns/{world.cast.campaign.slug}/",
        "/factions/qatzrin/",
        "/factions/kongeriket-norge/",
        f"/fleets/{world.public_fleet.slug}/",
        f"/ships/{world.damaged_ship.pk}/",
        f"/classes/{world.saar.pk}/",
        f"/battles/{world.battle.pk}/",
        "/login/",
        "/api/docs",
        f"/api/designs/{world.saar.pk}/ssd.svg",
    ]


def _visit_all(page, base: str, paths: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(RECORD_VIOLATIONS)
    for path in paths:
        console.clear()
        response = page.goto(base + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        if path == "/api/docs":
            page.locator(".swagger-ui .opblock").first.wait_for()  # the UI has drawn
        page.wait_for_load_state("networkidle")
        violations = page.evaluate("window.__csp") + console
        if violations:
            found[path] = violations
    return found


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_violates_the_csp_for_the_public(live_server, browser, world, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="fr-FR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        assert _visit_all(page, live_server.url, _pages(world)) == {}
    finally:
        context.close()


def test_no_page_violates_the_csp_for_an_organiser(live_server, browser, world):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + "/login/")
        page.fill("#id_username", "organiser")
        page.fill("#id_password", "pw-12345!")
        page.locator(".login-form button[type=submit]").click()
        page.wait_for_url("**/")
        paths = _pages(world) + ["/account/"]
        assert _visit_all(page, live_server.url, [p for p in paths if p != "/login/"]) == {}
    finally:
        context.close()


def test_a_served_html_report_applies_its_styles_without_a_violation(
    live_server, browser, cast, settings, tmp_path
):
    """The report files are rendered beforehand, without the request's nonce: the app's
    policy blocked their inline styles and the served report came unstyled. The live
    server answers ``/media/`` itself (Django's test handler), so the browser is given
    the app's own answer (headers and body) for that address."""
    from django.test import Client

    from battles.reports.tasks import render_report
    from tests.battles.reports.report_fixtures import make_battle

    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign)
    name = render_report.delay(battle.pk, "html").get()["file"]
    served = Client().get(f"/media/{name}")
    assert served.status_code == 200
    body = b"".join(served.streaming_content)
    headers = dict(served.items())
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.route(
            f"**/media/{name}",
            lambda route: route.fulfill(status=200, headers=headers, body=body),
        )
        assert _visit_all(page, live_server.url, [f"/media/{name}"]) == {}
        # The report's own stylesheet applied (the browser's default is 8 px).
        margin = page.evaluate("getComputedStyle(document.body).margin")
        assert margin != "8px"
    finally:
        context.close()
