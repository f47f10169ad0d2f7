"""Real flows in headless Chromium: browse to a ship's SSD, log in as a player, switch
language, and a screenshot of a fleet page (written to media/e2e/fleet.png)."""

import pytest

from campaign.league.models import Campaign
from campaign.sample.loader import sample_load
from factions.models import Ship
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e


def test_browse_home_faction_fleet_ship_and_see_the_ssd(live_server, page, world):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Qatzrin").first.click()
    page.wait_for_url("**/factions/qatzrin/")
    assert page.locator("h1").inner_text() == "Qatzrin"
    page.get_by_role("link", name="5e flotte d'incursion").click()
    page.wait_for_url("**/fleets/qatzrin-5th/")
    page.get_by_role("link", name="Nimrod", exact=True).click()
    page.wait_for_url(f"**/ships/{world.damaged_ship.pk}/")
    svg = page.locator("figure.ssd svg")
    svg.wait_for(state="visible")
    box = svg.bounding_box()
    assert box["width"] > 200 and box["height"] > 100
    lost = world.damaged_ship.systems_lost[0]
    assert page.locator(f'figure.ssd [data-system="{lost}"]').count() >= 1


def test_player_sees_own_hidden_fleet_but_not_the_rivals(live_server, page, world):
    page.goto(live_server.url + "/factions/kongeriket-norge/")
    assert page.get_by_text("Skyggeflåten").count() == 0
    page.locator("a.login").click()
    page.fill("#id_username", "norge_player")
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url("**/factions/kongeriket-norge/")
    assert page.locator(".who").inner_text() == "norge_player"
    page.get_by_role("link", name="Skyggeflåten").click()
    page.wait_for_url("**/fleets/norge-shadow/")
    assert page.get_by_text("Fenrir").count() >= 1

    page.goto(live_server.url + "/factions/qatzrin/")
    assert page.get_by_text("Flotte de l'ombre").count() == 0
    response = page.goto(live_server.url + "/fleets/qatzrin-shadow/")
    assert response.status == 404


def test_switch_language_to_english_and_back(live_server, page, world):
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.get_by_role("heading", name="Batailles récentes").count() == 1
    with page.expect_navigation():
        page.select_option("#lang-select", "en")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", name="Recent battles").count() == 1
    with page.expect_navigation():
        page.select_option("#lang-select", "fr")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.get_by_role("heading", name="Campagnes").count() == 1


def test_screenshot_of_a_fleet_page(live_server, page, world):
    page.goto(live_server.url + "/fleets/qatzrin-5th/")
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / "fleet.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    # Nothing overflows the viewport horizontally, on a desktop or on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.set_viewport_size({"width": 400, "height": 800})
    for url in ("/fleets/qatzrin-5th/", f"/battles/{world.battle.pk}/", "/factions/qatzrin/"):
        page.goto(live_server.url + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 400, url


def test_sample_campaign_from_home_to_the_battle_and_a_damaged_ships_ssd(
    live_server, page, transactional_db
):
    """The seed's campaign as ``load_sample`` builds it, browsed as the public."""
    sample_load()
    campaign = Campaign.objects.get(slug="sample")
    ship = (
        Ship.objects.filter(status=Ship.Status.DAMAGED, participations__isnull=False)
        .exclude(systems_lost=[])
        .order_by("pk")
        .first()
    )
    assert ship is not None

    page.goto(live_server.url + "/")
    page.get_by_role("link", name=campaign.name).click()
    page.wait_for_url("**/campaigns/sample/")
    page.get_by_role("link", name="Colonisation compromise").first.click()
    page.wait_for_url("**/battles/*/")
    assert "Phalon" in page.locator(".report-winner").inner_text()
    page.locator(f'a[href="{ship.get_absolute_url()}"]').first.click()
    page.wait_for_url(f"**{ship.get_absolute_url()}")
    page.locator("figure.ssd svg").wait_for(state="visible")
    # The diagram crosses exactly the boxes and systems the ship lost.
    assert page.locator("figure.ssd .hull-box.lost").count() == ship.hull_lost
    assert page.locator("figure.ssd .system.destroyed").count() == len(set(ship.systems_lost))


@pytest.mark.parametrize("width", [390, 1280])
def test_rules_in_force_from_the_campaign_page(live_server, page, world, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/campaigns/test-league/")
    page.get_by_role("link", name="Règles en vigueur").click()
    page.wait_for_url("**/campaigns/test-league/rules/")
    assert page.locator("h1").inner_text() == "Règles en vigueur"
    assert page.locator("ol.readings > li").count() == 34
    assert "aucun autre système d’armes" in page.locator("#D-12").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_ships_diagram_stays_readable_on_a_phone(live_server, page, world):
    """At 390 px the diagram keeps labels of about 8 px and slides inside its own box;
    the page does not scroll sideways. At 1280 px it fits its box, with no hint."""
    url = live_server.url + world.damaged_ship.get_absolute_url()
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(url)
    label = page.locator("figure.ssd svg text.label").first.bounding_box()
    assert label["height"] >= 7.5
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.evaluate(
        "(() => { const f = document.querySelector('figure.ssd');"
        " return [f.scrollWidth, f.clientWidth]; })()"
    )
    assert box[0] > box[1]  # the diagram slides inside the figure
    assert page.locator(".ssd-hint").is_visible()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    assert not page.locator(".ssd-hint").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
