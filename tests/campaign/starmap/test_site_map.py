"""The baked site's map per turn draws the public's star map (``map_view(campaign, None,
turn=…)``): a move carried out at a close shows where the turn left the fleet, no hidden
fleet is drawn, and the SVG has no inline style or script (the site's CSP)."""

import pytest

from campaign.publish.builder import site_build
from campaign.starmap.models import StarSystem
from campaign.starmap.movement import map_move_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet

pytestmark = pytest.mark.usefixtures("english")


def svg_of(html):
    return html[html.index("<svg") : html.index("</svg>")]


def test_site_turn_pages_draw_the_public_map(
    sample, settings, tmp_path, django_capture_on_commit_callbacks
):
    s = sample
    settings.MEDIA_ROOT = tmp_path / "media"
    Fleet.objects.filter(slug="phalon-68th-reprisal-fleet").update(hidden=True)
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    map_move_order(
        campaign=s.campaign,
        fleet=s.fleet,
        destination=StarSystem.objects.get(campaign=s.campaign, slug="new-bergen"),
        user=s.norge_player,
    )
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_close(campaign=s.campaign, user=s.organiser)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    svg = svg_of((out / "en" / "maps" / "sample" / "turn-1.html").read_text())
    assert "<title>Star map at turn 1</title>" in svg
    assert f"<title>{s.fleet.name} (Kongeriket Norge)" in svg
    assert Fleet.objects.get(slug="phalon-68th-reprisal-fleet").name not in svg
    assert "(Phalon)" not in svg
    assert "style" not in svg and "script" not in svg
    assert "<title>New Bergen: Kongeriket Norge</title>" in svg
    # The Norwegian fleet's diamond is beside New Bergen (150, 220), not Trøndelag.
    assert 'points="190,177' in svg
