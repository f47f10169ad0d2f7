"""The published site's victory points and charts (the public's view: no player's line, no
hidden fleet's tonnage or strength) and the charts' SVG values."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.utils import translation

from battles.models import BattleSide
from battles.scoring.charts import line_chart
from campaign.publish import site_build
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet
from tests.battles.scoring.scoring_fixtures import (
    record_qatzrin_victory,
    scored_battle,
    territories,
)
from tests.conftest import client_for


def test_line_chart_values():
    with translation.override("en"):
        svg = line_chart("VP", [1, 2, 3], [("Qatzrin", [0, 8, 10]), ("Phalon <&>", [1, 1, 4])])
    assert svg.startswith("<svg") and "<script" not in svg and "style" not in svg
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    phalon = "Phalon &lt;&amp;&gt;"  # escaped by ElementTree
    assert titles == [
        "VP", "Qatzrin", "Qatzrin, turn 1: 0", "Qatzrin, turn 2: 8", "Qatzrin, turn 3: 10",
        phalon, f"{phalon}, turn 1: 1", f"{phalon}, turn 2: 1", f"{phalon}, turn 3: 4",
    ]  # fmt: skip
    # The y axis runs 0–10 by 2: the value 10 is at the top of the plot (y = 44).
    assert re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)[:3] == ["250.0", "85.2", "44.0"]
    assert line_chart("VP", [], []) is None


@pytest.fixture
def closed(cast, rival, django_user_model):
    """The skirmish recorded (Qatzrin win), the Qatzrin fleet hidden, turn 1 closed with
    two Qatzrin territories and one Phalon."""
    battle = record_qatzrin_victory(scored_battle(cast, django_user_model), cast.organiser)
    side = BattleSide.objects.get(battle=battle, faction=cast.qatzrin)
    Fleet.objects.filter(pk=side.fleet_id).update(hidden=True)
    territories(cast)
    cast.campaign.current_turn = 1
    cast.campaign.save()
    campaign_turn_open(campaign=cast.campaign, user=cast.organiser)
    campaign_turn_close(campaign=cast.campaign, user=cast.organiser)
    return battle


def test_site_shows_public_victory_points_and_strength(closed, cast, tmp_path):
    with override_settings(MEDIA_ROOT=tmp_path / "media"):
        site_build(out_dir=tmp_path / "site", languages=["en"], pdfs=False, search_index=False)
    html = (tmp_path / "site" / "en" / "campaigns" / "test-league.html").read_text()
    table = html.split('class="standings vp-factions"')[1].split("</table>")[0]
    rows = {
        m[0]: re.findall(r"<td>(?:<strong>)?(\d+)", m[1])
        for m in re.findall(r"<tr><td>([^<]+)</td>(.*?)</tr>", table)
    }
    # Qatzrin: victory 3 + 501 points destroyed 5 + 2 territories at the close of turn 1
    # = 10 VP; its fleet is hidden: its 17 mass lost and the 17 the Phalon destroyed are
    # not counted for the public, nor the captured Huulth (70), which joined that fleet
    # (a unit's visibility follows its fleet now, as battles.standings counts).
    assert rows["Qatzrin"] == ["10", "3", "0", "5", "2", "58", "0"]
    assert rows["Phalon"] == ["1", "0", "0", "0", "1", "0", "58"]
    assert "qatzrin_player" not in html  # no player's line on the site
    # Strength at the close of turn 1: the Phalon's public Silith (124 points, mass 34);
    # the hidden Qatzrin fleet counts 0.
    assert "Phalon, turn 1: 124" in html and "Phalon, turn 1: 34" in html
    assert "Qatzrin, turn 1: 0" in html and "Qatzrin, turn 1: 392" not in html
    # Cumulative VP: the holdings of turn 1, then the battle of turn 2.
    assert "Qatzrin, turn 1: 2" in html and "Qatzrin, turn 2: 10" in html


def test_own_player_sees_the_hidden_strength_on_the_page(closed, cast, rival):
    html = (
        client_for(cast, rival, "qatzrin_player", HTTP_ACCEPT_LANGUAGE="en")
        .get(f"/campaigns/{cast.campaign.slug}/standings/")
        .content.decode()
    )
    assert "Qatzrin, turn 1: 392" in html  # 57 + 95 × 2 + 145
    html = (
        client_for(cast, rival, "norge_player", HTTP_ACCEPT_LANGUAGE="en")
        .get(f"/campaigns/{cast.campaign.slug}/standings/")
        .content.decode()
    )
    assert "Qatzrin, turn 1: 392" not in html
