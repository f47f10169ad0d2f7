"""The sample's star map (``campaign/sample/starmap.json``): placed as the seed says,
fleets in their systems with ``territory`` derived, battles in Miranda, a reload idempotent."""

from battles.models import Battle
from campaign.sample.loader import sample_load
from campaign.starmap.models import FleetPosition, StarLink, StarSystem
from campaign.starmap.view import map_view
from campaign.turns.demo import sample_second_turn_demo, sample_turn_demo
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
        ("Qatzrin", "Qatzrin", ["Qatzrin"]),
        ("Trøndelag", "Kongeriket Norge", ["Trøndelag"]),
    ]
    assert StarLink.objects.filter(campaign=campaign).count() == 9
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
        # Mustered at its home port on turn 1 (README *The sample's yards*).
        "qatzrin-5th-long-range-incursion-fleet": ("qatzrin", "qatzrin"),
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
    assert StarSystem.objects.filter(campaign=campaign).count() == 7


def test_demo_turns_move_two_fleets_that_meet_at_the_outer_belt(
    db, django_capture_on_commit_callbacks
):
    campaign = sample_load().campaign
    # The demo resolves the Skirmish at Mieska first: its Qatzrin ships are then free.
    Battle.objects.filter(slug="skirmish-at-mieska").delete()
    first = sample_turn_demo(campaign=campaign)
    assert first[-3:] == [
        "Ganesha long-range force ordered from Miranda to Outer Belt: 2 turns",
        "5th long-range incursion fleet ordered from Qatzrin to Outer Belt: 2 turns",
        "turn 1 closed",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        second = sample_second_turn_demo(campaign=campaign)
    assert second[-1] == "turn 2 closed"
    battle = Battle.objects.get(campaign=campaign, campaign_turn=2, status="draft")
    assert (battle.name, battle.system.slug, battle.location) == (
        "Outer Belt, tour 2",  # named in the campaign's language (French)
        "outer-belt",
        "Outer Belt",
    )
    assert sorted(side.faction.slug for side in battle.sides.all()) == [
        "collectif-g-plus",
        "qatzrin",
    ]
    assert sample_second_turn_demo(campaign=campaign) == []
