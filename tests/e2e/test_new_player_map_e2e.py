"""A new player on a 390 px phone, in headless Chromium: the invitation mailed to their
address, an account created from its link, the confirmation mailed there followed, then
the campaign page, their faction's map and fleet, and a move ordered. On every page
nothing is wider than the phone except the map's drawing, which scrolls inside its box,
and no Content-Security-Policy violation is reported."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from campaign.league import invitations
from campaign.league.models import Membership
from campaign.starmap.models import MapMove
from campaign.turns.closing import campaign_turn_open
from tests.e2e.test_csp_e2e import RECORD_VIOLATIONS

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
ADDRESS = "mira@example.org"

#: What would make the phone's page scroll sideways: the elements whose right edge passes
#: the viewport outside a scroll box (``wide``), the document's width, and the scroll boxes
#: whose content is wider than they are (``scrolls``: the map's drawing, a data table the
#: house CSS makes a box of its own on a phone).
OVERFLOW = """() => {
  const scrolling = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}`;
  const wide = [], scrolls = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (scrolling(el) && el.scrollWidth > el.clientWidth) scrolls.push(name(el));
    const box = el.getBoundingClientRect();
    let inside = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (scrolling(up)) { inside = true; break; }
    }
    if (!inside && box.width && box.right > window.innerWidth + 0.5) wide.push(name(el));
  }
  return {wide, scrolls, width: document.documentElement.scrollWidth};
}"""


def _fits(phone, *scrolls: str) -> None:
    """The page reads at 390 px — only the ``scrolls`` boxes scroll sideways, inside
    themselves — and kept to the CSP."""
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate(OVERFLOW) == {
        "wide": [],
        "scrolls": list(scrolls),
        "width": PHONE["width"],
    }, phone.url
    assert phone.evaluate("window.__csp") == [], phone.url


def test_a_new_player_joins_and_orders_a_move_on_a_phone(live_server, browser, sample):
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    invitations.invitation_create(
        campaign=s.campaign,
        role="player",
        faction=s.qatzrin,
        email=ADDRESS,
        by=s.organiser,
        link_base=live_server.url,
    )
    (invited,) = mail.outbox
    assert invited.to == [ADDRESS]
    link = re.search(r"(http://\S+/invitations/\S+/)", invited.body)[1]

    context = browser.new_context(viewport=PHONE, locale="fr-FR")
    context.add_init_script(RECORD_VIOLATIONS)
    phone = context.new_page()
    phone.set_default_timeout(15_000)

    # The link from the mail: a sign-up form for a newcomer.
    phone.goto(link)
    assert "Qatzrin" in phone.locator("main .lead").inner_text()
    _fits(phone)
    phone.fill("#id_username", "mira")
    phone.fill("#id_password", "a-long passphrase 42")
    phone.get_by_role("button", name="Créer mon compte et rejoindre").click()
    phone.wait_for_selector("p[role=status]")
    _fits(phone)
    assert not Membership.objects.filter(user__username="mira").exists()  # not before

    # The confirmation mailed to the invited address, opened on the same phone.
    confirm = mail.outbox[-1]
    assert confirm.to == [ADDRESS] and "mira" in confirm.body
    phone.goto(re.search(r"(http://\S+/confirm/\S+/)", confirm.body)[1])
    _fits(phone)
    phone.get_by_role("button", name="Rejoindre la campagne").click()
    phone.wait_for_url(f"{live_server.url}/campaigns/{s.campaign.slug}/")
    # The standings and battles tables scroll inside themselves (the house's phone CSS).
    _fits(phone, "table.data standings", "table.data")
    assert "Qatzrin" in phone.locator(".messages, [role=status]").first.inner_text()
    member = Membership.objects.get(user__username="mira")
    assert (member.campaign, member.role, member.faction) == (s.campaign, "player", s.qatzrin)

    # Their faction's map and fleet, from the campaign page.
    phone.get_by_role("link", name="Carte stellaire").click()
    phone.wait_for_url(f"{live_server.url}/campaigns/{s.campaign.slug}/map/")
    _fits(phone, "div.starmap-scroll")
    box = phone.locator(".starmap-scroll").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.locator(".starmap-scroll svg").bounding_box()["width"] >= 640  # scrolls
    fleets = phone.locator("#move-fleet option").all_inner_texts()
    assert fleets == ["5th long-range incursion fleet (Qatzrin)"]
    systems = phone.locator(".starmap-list").inner_text().split("\n")
    assert "Flottes\u202f: 5th long-range incursion fleet (Qatzrin, 13 vaisseaux)" in systems

    # The move: one turn of travel to Miranda.
    phone.select_option("#move-destination", label="Miranda")
    phone.get_by_role("button", name="Ordonner le mouvement").click()
    phone.wait_for_selector(".starmap-orders li")
    assert "rejoindre Miranda" in phone.locator(".starmap-orders").inner_text()
    _fits(phone, "div.starmap-scroll")
    move = MapMove.objects.get()
    assert (move.fleet.slug, move.destination.slug, move.status, move.travel_turns) == (
        "qatzrin-5th-long-range-incursion-fleet",
        "miranda",
        "queued",
        1,
    )
    context.close()
