"""The turn-by-turn board on a 390 px phone, in headless Chromium: ships deployed side by
side get labels that do not overlap each other (battle-board.js places them greedily)."""

from __future__ import annotations

import pytest

from battles.play.game_turns import turn_play_start
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import draft_skirmish
from tests.e2e.conftest import SCREENSHOT_DIR

pytestmark = pytest.mark.e2e
WIDTH = 390

#: The label boxes as drawn (screen pixels), and how many pairs overlap.
OVERLAPS = """() => {
  const texts = [...document.querySelectorAll(".board-units text")];
  const boxes = texts.map((t) => t.getBoundingClientRect());
  let pairs = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) pairs++;
  }
  return [boxes.length, pairs];
}"""


def test_labels_of_ships_side_by_side_do_not_overlap(live_server, browser, cast):
    battle = draft_skirmish(cast.campaign)
    turn_play_start(user=SYSTEM, battle=battle, seed=7, max_turns=5)
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "pw-12345!")
    page.locator(".login-form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/battles/{battle.pk}/turns/")
    page.locator(".board-units text").first.wait_for()
    labels, overlapping = page.evaluate(OVERLAPS)
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.locator(".board-map").screenshot(path=str(SCREENSHOT_DIR / "board-labels-390.png"))
    assert labels == 8  # 5 Qatzrin ships, 3 Phalon ships (the fighters are based off-board)
    assert overlapping == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
