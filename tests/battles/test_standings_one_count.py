"""The campaign page and the baked site count standings the same way (one count,
``battles.standings.tally``): a station's light units and a carrier's fighters lost count
as light units lost on both, a hidden fleet's losses on neither."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models import Battle, BattleSide, Participant
from battles.standings import StandingRows, tally
from campaign.publish.builder import site_build
from factions.models import Fleet, LightUnitGroup, Ship, ShipClass, Territory


@pytest.fixture
def light_losses(cast):
    """A concluded Norge victory where the Qatzrin lose a ship and a fighter group of
    their public fleet, the fighters of their station, and a ship of a hidden fleet."""
    q, n = cast.qatzrin, cast.norge
    saar = ShipClass.objects.create(faction=q, name="Sa'ar", slug="saar", mass=16, hull_boxes=5)
    draug = ShipClass.objects.create(faction=n, name="Draug", slug="draug", mass=20, hull_boxes=6)
    public = Fleet.objects.create(faction=q, name="5th", slug="q-5th")
    hidden = Fleet.objects.create(faction=q, name="Shadow", slug="q-shadow", hidden=True)
    home = Fleet.objects.create(faction=n, name="Home", slug="n-home")
    station = Territory.objects.create(faction=q, name="Tel Hai", slug="tel-hai", kind="station")
    battle = Battle.objects.create(
        campaign=cast.campaign, name="Tel Hai", slug="tel-hai", status="concluded", winner=n
    )
    q_side = BattleSide.objects.create(battle=battle, faction=q, fleet=public)
    n_side = BattleSide.objects.create(battle=battle, faction=n, fleet=home, order=1)
    lost = [
        Participant(side=q_side, ship=Ship.objects.create(ship_class=saar, fleet=public)),
        Participant(side=q_side, ship=Ship.objects.create(ship_class=saar, fleet=hidden)),
        Participant(
            side=q_side,
            light_units=LightUnitGroup.objects.create(
                name="Station wing", kind="fighter", faction=q, territory=station
            ),
        ),
        Participant(
            side=q_side,
            light_units=LightUnitGroup.objects.create(
                name="Fleet wing", kind="fighter", faction=q, fleet=public
            ),
        ),
    ]
    for p in lost:
        p.fate = "destroyed"
        p.save()
    Participant.objects.create(
        side=n_side, ship=Ship.objects.create(ship_class=draug, fleet=home), fate="damaged"
    )
    return battle


def _table(html: str, css_class: str) -> dict[str, list[str]]:
    """Per faction name, the numbers of a standings table's row."""
    body = re.search(rf'<table class="{css_class}">(.*?)</table>', html, re.S).group(1)
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1], re.S):
        tds = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in tds]
        rows[cells[0]] = cells[1:]
    return rows


@pytest.mark.django_db
def test_the_campaign_page_and_the_site_give_the_same_numbers(client, cast, light_losses, tmp_path):
    page = client.get(reverse("campaign-detail", kwargs={"slug": cast.campaign.slug}))
    # Battles, won, lost, ships lost, light units lost.
    expected = {"Kongeriket Norge": ["1", "1", "0", "0", "0"], "Qatzrin": ["1", "0", "1", "1", "2"]}
    assert _table(page.content.decode(), "data standings") == expected
    site_build(out_dir=tmp_path, languages=["en"], pdfs=False, search_index=False)
    site = (tmp_path / "en/campaigns/test-league.html").read_text()
    assert _table(site, "standings") == expected


def test_tally_counts_each_kind_in_its_column_and_skips_unseen_fleets():
    rows = StandingRows(
        battles=[(1, 10), (2, None)],
        sides={1: [(11, 10), (12, 20)], 2: [(21, 10), (22, 20)]},
        losses={
            12: [("ship", "destroyed", 5), ("light_units", "captured", None)],
            21: [("light_units", "destroyed", 7), ("system", "destroyed", None)],
            22: [("ship", "damaged", 5), ("ship", "fled", 5)],
        },
    )
    table = {k: vars(v) for k, v in tally(rows, seen_fleets={5}).items()}
    assert table == {
        10: {"faction_id": 10, "fought": 2, "won": 1, "lost": 0, "ships_lost": 1,
             "light_units_lost": 0},
        20: {"faction_id": 20, "fought": 2, "won": 0, "lost": 1, "ships_lost": 1,
             "light_units_lost": 1},
    }  # fmt: skip
