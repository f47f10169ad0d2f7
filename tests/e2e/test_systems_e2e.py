"""Other game systems in headless Chromium: a GM runs two rounds of the token tracker on a
phone, and an organiser records a Star Wars Starship Battles battle that appears in the
standings and in the published site."""

import re

import pytest

from campaign.publish import site_build
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def no_sideways_scroll(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def test_gm_runs_two_rounds_of_the_token_tracker_on_a_phone(live_server, phone):
    page = phone
    page.goto(live_server.url + "/rules/starfinder/tracker/")
    page.fill("#id_name", "Corsaire")
    page.select_option("#id_tier", "3")
    page.select_option("#id_pc_tier", "4")
    page.fill("#id_crew", "6")
    page.fill("#id_gunnery", "7")
    with page.expect_navigation():
        page.click("#add-ship")
    ship = page.locator("section.tracker-ship[data-ship='Corsaire']")
    assert "3 / 3" in ship.locator(".token-count").inner_text()  # tier gap -1: 3 tokens
    assert ship.locator(".token-full").count() == 3

    # Round 1: a manoeuvre, then +5 on one check.
    page.select_option("#action-0", "manoeuvre")
    with page.expect_navigation():
        ship.locator(".spend-form button[type=submit]").click()
    with page.expect_navigation():
        ship.locator("button[name=kind][value=one]").click()
    ship = page.locator("section.tracker-ship[data-ship='Corsaire']")
    assert "1 / 3" in ship.locator(".token-count").inner_text()
    assert ship.locator(".token-spent").count() == 2
    assert no_sideways_scroll(page)

    # Round 2: tokens refilled; the engines go malfunctioning, so manoeuvre is refused.
    with page.expect_navigation():
        page.click("#next-round")
    assert "2" in page.locator("#round-no").inner_text()
    ship = page.locator("section.tracker-ship[data-ship='Corsaire']")
    assert "3 / 3" in ship.locator(".token-count").inner_text()
    ship.locator("details.state-editor summary").click()
    page.select_option("#crit-system-0", "engines")
    page.select_option("#crit-state-0", "malfunctioning")
    with page.expect_navigation():
        ship.locator("details.state-editor form button[type=submit]").first.click()
    options = page.locator("#action-0 option").evaluate_all("els => els.map(e => e.value)")
    assert "manoeuvre" not in options and "maintain-integrity" in options
    page.select_option("#action-0", "maintain-integrity")
    with page.expect_navigation():
        page.locator("section.tracker-ship .spend-form button[type=submit]").click()
    ship = page.locator("section.tracker-ship[data-ship='Corsaire']")
    assert "2 / 3" in ship.locator(".token-count").inner_text()
    options = page.locator("#action-0 option").evaluate_all("els => els.map(e => e.value)")
    assert "manoeuvre" in options  # maintained: allowed again, for one token more
    assert no_sideways_scroll(page)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / "token-tracker-390.png"), full_page=True)


def test_organiser_records_a_star_wars_battle_seen_in_standings_and_site(
    live_server, page, cast, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    page.goto(live_server.url + "/login/?next=/campaigns/test-league/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "pw-12345!")
    with page.expect_navigation():
        page.locator(".login-form button[type=submit]").click()
    with page.expect_navigation():
        page.click("#record-other")
    page.fill("#id_name", "Bataille de Yavin")
    page.select_option("#id_game_system", "sw-starship-battles")
    page.select_option("#id_side_a", label="Qatzrin")
    # The units' part is swapped in for the system and sides chosen (htmx).
    with page.expect_response(lambda r: re.search(r"side_b=\d", r.url) is not None):
        page.select_option("#id_side_b", label="Kongeriket Norge")
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    page.select_option("#id_winner", "b")
    page.fill("#id_outcome", "Les rebelles tiennent")
    page.fill("#id_units-0-name", "Destroyer stellaire")
    page.select_option("#id_units-0-side", "a")
    page.select_option("#id_units-0-fate", "destroyed")
    page.fill("#id_units-0-hull_lost", "40")
    page.select_option("#id_units-0-critical_states", ["fire", "bridge-damaged"])
    page.fill("#id_units-1-name", "Faucon")
    page.select_option("#id_units-1-side", "b")
    page.select_option("#id_units-1-fate", "damaged")
    with page.expect_navigation():
        page.click("#record-battle")
    assert page.locator("h1").first.inner_text() == "Bataille de Yavin"
    assert page.get_by_text("Destroyer stellaire").count() >= 1
    assert page.locator(".battle-helpers a").count() >= 1  # the helpers of its system

    page.goto(live_server.url + "/campaigns/test-league/")
    row = page.locator("table.standings tbody tr", has_text="Qatzrin")
    cells = row.locator("td").all_inner_texts()
    assert cells[1:] == ["1", "0", "1", "1", "0"]  # fought, won, lost, ships, light units lost
    assert page.get_by_role("link", name="Bataille de Yavin").count() == 1

    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False)
    page.goto((out / "fr" / "campaigns" / "test-league.html").as_uri())
    assert page.get_by_role("link", name="Bataille de Yavin").count() == 1
    page.get_by_role("link", name="Bataille de Yavin").click()
    assert page.get_by_text("Destroyer stellaire").count() >= 1


def test_helper_pages_fit_a_phone(live_server, phone, cast):
    page = phone
    for url in (
        "/rules/",
        "/rules/starfinder/boarding/?party_size=10&party_tier=4&party_training=competent"
        "&attacker_crew=100&officer_bonus=0&target_crew=100&ship_tier=6&ship_training=none"
        "&antipersonnel_level=0&heavy_antipersonnel_level=0&countermeasures=0&repel_bonus=0"
        "&first_attack=on&roll=1&seed=3",
        "/rules/swsb/attack/?attack=8&defence=14&damage=20&range_squares=10&weapon=turbolaser"
        "&screen=4&modifier=0",
        "/rules/epic/?shields=2&shots=3&to_hit=4&ap=1",
    ):
        page.goto(live_server.url + url)
        assert page.locator("h1").count() == 1
        assert no_sideways_scroll(page), url
    assert page.locator("table.data").count() >= 2  # the shield odds and the abilities
    page.goto(live_server.url + "/login/?next=/campaigns/test-league/battles/record-other/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "pw-12345!")
    with page.expect_navigation():
        page.locator(".login-form button[type=submit]").click()
    assert page.locator("#record-battle").is_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOT_DIR / "record-other-390.png"), full_page=True)
