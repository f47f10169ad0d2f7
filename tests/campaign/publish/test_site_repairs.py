"""The site's fleet pages show their own ships' open repair orders (read in one query)."""

from __future__ import annotations

import pytest

from campaign.publish import site_build
from campaign.publish.pages import repairs_by_fleet
from campaign.turns.models import RepairOrder
from campaign.turns.repairs import fleet_repairs
from factions.access import visible_fleets
from factions.models import Territory
from tests.battles.reports.report_fixtures import make_battle
from tests.campaign.publish.test_publish import make_league


@pytest.mark.django_db
def test_each_fleet_page_shows_its_own_repairs_as_fleet_repairs_gives_them(
    settings, tmp_path, django_assert_num_queries
):
    settings.MEDIA_ROOT = tmp_path / "media"
    campaign = make_league()
    make_battle(campaign)
    fleets = [f for f in visible_fleets(None).order_by("pk") if f.ships.exists()]
    assert len(fleets) >= 2
    for n, fleet in enumerate(fleets):
        yard = Territory.objects.create(
            faction=fleet.faction, name=f"Yard {n}", slug=f"yard-{n}", shipyard_capacity=4
        )
        for ship in fleet.ships.order_by("-pk"):
            RepairOrder.objects.create(campaign=campaign, ship=ship, yard=yard, hull=1)

    with django_assert_num_queries(1):
        by_fleet = repairs_by_fleet(fleets)
    assert {pk: [o.pk for o in orders] for pk, orders in by_fleet.items()} == {
        f.pk: [o.pk for o in fleet_repairs(f)] for f in fleets
    }

    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    for n, fleet in enumerate(fleets):
        page = (out / "en" / "fleets" / f"{fleet.slug.lower()}.html").read_text(encoding="utf-8")
        assert f"Yard {n}" in page
        assert all(f"Yard {m}" not in page for m in range(len(fleets)) if m != n)
