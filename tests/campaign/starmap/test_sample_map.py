"""The sample's star map (``campaign/sample/starmap.json``): placed as the seed says,
fleets in their systems with ``territory`` derived, battles in Miranda, a reload idempotent."""

from battles.models import Battle
from campaign.sample.loader import sample_load
from campaign.starmap.models import FleetPosition, StarLink, StarSystem
from campaign.starmap.view import map_view
from factions.models import Fleet


def test_sample_map(db):
    campaign = sample_load().campaign
    view = map_view(campaign, None)
    assert [(s.name, s.holder_name, [t.name for t in s.territories]) for s in view.systems] == [
        ("Arendal", "Kongeriket Norge", ["Arendal"]),
        ("Kristiansand", "Kongeriket Norge", ["Kristiansand"]),
        ("Miranda", "", ["Miranda colony A", "Miranda colony B", "Petra IV"]),
        ("New Bergen", "Kongeriket Norge", ["Barn Kalmar Station", "New Bergen Station"]),
        ("Outer Belt", "", []),
        ("Trøndelag", "Kongeriket Norge", ["Trøndelag"]),
    ]
    assert StarLink.objects.filter(campaign=campaign).count() == 7
    placed = {
        p.fleet.slug: (p.system.slug, p.fleet.territory.slug if p.fleet.territory else None)
        for p in FleetPosition.objects.filter(campaign=campaign).select_related(
            "system", "fleet__territory"
        )
    }
    assert placed == {
        "norge-steffen-konalson-deep-incursion-fleet": ("trondelag", "trondelag"),
        "phalon-68th-reprisal-fleet": ("miranda", "petra-iv"),
        "g-plus-ganesha-long-range-force": ("miranda", "miranda-colony-a"),
        "qatzrin-5th-long-range-incursion-fleet": ("miranda", None),
    }
    assert set(Battle.objects.filter(campaign=campaign).values_list("system__slug", flat=True)) == {
        "miranda"
    }


def test_sample_map_reload_changes_nothing_and_keeps_a_moved_fleet(db):
    campaign = sample_load().campaign
    norge = Fleet.objects.get(slug="norge-steffen-konalson-deep-incursion-fleet")
    FleetPosition.objects.filter(fleet=norge).update(
        system=StarSystem.objects.get(campaign=campaign, slug="outer-belt")
    )
    sample_load()
    norge.refresh_from_db()
    assert (norge.position.system.slug, norge.territory) == ("outer-belt", None)
    assert StarSystem.objects.filter(campaign=campaign).count() == 6
