"""The fog of war applied by ``map_view``: who sees which fleet named, which as an
unnamed contact, and the last-known positions recorded at each turn close."""

import pytest

from campaign.fog.knowledge import blips, contact_label
from campaign.fog.models import Sighting
from campaign.starmap.models import FleetPosition
from campaign.starmap.movement import map_move_order
from campaign.starmap.view import map_view
from campaign.turns.access import turn_summary_for
from campaign.turns.closing import campaign_turn_close, campaign_turn_open, campaign_turn_reopen
from factions.models import Fleet, Ship, ShipClass


def named(view):
    return sorted(f.name for f in view.fleets)


def contacts(view, m):
    """``[(label, blips, where, how)]`` with ``where`` a system or link name."""
    out = []
    for c in view.contacts:
        where = view.system(c.system_id).name if c.system_id else str(m.link_names[c.link_id])
        out.append((c.label, c.blips, where, c.how))
    return out


@pytest.fixture
def m(starmap):
    starmap.shadow_label = contact_label(starmap.campaign.pk, starmap.shadow.pk)
    starmap.link_names = {
        lk.pk: f"{lk.a.name}–{lk.b.name}"
        for lk in [starmap.sol_vega, starmap.vega_rigel, starmap.sol_deneb, starmap.deneb_rigel]
    }
    return starmap


def test_blips_one_per_started_fifty_mass():
    assert [blips(m) for m in (0, 1, 24, 50, 51, 100, 101, 150)] == [0, 1, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize(
    ("who", "fleets", "n_contacts", "scope"),
    [
        ("organiser", ["Home Fleet", "Raiders", "Shadow"], 0, "all"),
        ("norge_player", ["Home Fleet", "Raiders"], 1, "factions"),
        ("qatzrin_player", ["Home Fleet", "Raiders", "Shadow"], 0, "factions"),
        ("chronicler", ["Home Fleet", "Raiders"], 0, "public"),
        ("outsider", ["Home Fleet", "Raiders"], 0, "public"),
        (None, ["Home Fleet", "Raiders"], 0, "public"),
    ],
)
def test_matrix(m, who, fleets, n_contacts, scope):
    view = map_view(m.campaign, getattr(m, who) if who else None)
    assert (named(view), len(view.contacts), view.fog) == (fleets, n_contacts, scope)


def test_station_sees_the_hidden_fleet_one_link_away_as_a_contact(m):
    view = map_view(m.campaign, m.norge_player)
    assert contacts(view, m) == [(m.shadow_label, 1, "Deneb", "sensors")]
    assert view.contacts_in(m.deneb.pk)[0].label == m.shadow_label
    assert "Shadow" not in repr(view) and "shadow" not in repr(view)
    assert m.shadow_label.startswith("C-") and len(m.shadow_label) == 8


def test_no_station_no_reach_beyond_its_own_system(m):
    m.oslo.kind = "planet"
    m.oslo.save()
    assert map_view(m.campaign, m.norge_player).contacts == []


def test_advanced_sensors_see_one_link_further(m):
    m.oslo.kind = "planet"
    m.oslo.save()
    cls = m.home.ships.get().ship_class
    ShipClass.objects.filter(pk=cls.pk).update(design={"sensors": "advanced"})
    assert contacts(map_view(m.campaign, m.norge_player), m) == [
        (m.shadow_label, 1, "Deneb", "sensors")
    ]
    # Destroyed, the sensors see nothing more: the fleet has no ship afloat.
    Ship.objects.filter(fleet=m.home).update(status=Ship.Status.DESTROYED)
    assert map_view(m.campaign, m.norge_player).contacts == []


def test_a_fleet_on_a_lane_out_of_a_watched_system_is_seen(m):
    m.oslo.kind = "planet"
    m.oslo.save()
    FleetPosition.objects.filter(fleet=m.shadow).update(
        system=None, link=m.sol_deneb, heading=m.sol, departed_turn=1, arrival_turn=2
    )
    assert contacts(map_view(m.campaign, m.norge_player), m) == [
        (m.shadow_label, 1, "Sol–Deneb", "sensors")
    ]


def test_the_size_counts_ships_afloat_only(m):
    cls = ShipClass.objects.create(
        faction=m.qatzrin, name="Cruiser", slug="cruiser", mass=120, hull_boxes=30
    )
    Ship.objects.create(fleet=m.shadow, ship_class=cls, name="Big")
    Ship.objects.create(fleet=m.shadow, ship_class=cls, name="Wreck", status="destroyed")
    assert map_view(m.campaign, m.norge_player).contacts[0].blips == 1 + 3


def test_public_enemy_fleets_are_named_everywhere_hidden_ones_never(m):
    # Raiders (public, Rigel) are out of Norge's reach and still named: they are published.
    view = map_view(m.campaign, m.norge_player)
    assert "Raiders" in named(view) and m.rigel.pk not in {c.system_id for c in view.contacts}


def close(m):
    return campaign_turn_close(campaign=m.campaign, user=m.organiser)


def test_sightings_at_the_close_and_the_last_known_position(m):
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    turn = close(m).number
    rows = list(
        Sighting.objects.filter(campaign=m.campaign).values_list(
            "observer__name", "fleet__name", "turn", "system__name", "link", "blips", "how"
        )
    )
    assert rows == [("Kongeriket Norge", "Shadow", turn, "Deneb", None, 1, "sensors")]
    # The Shadow slips away to Far: out of reach, its last-known position stays.
    FleetPosition.objects.filter(fleet=m.shadow).update(system=m.far)
    view = map_view(m.campaign, m.norge_player)
    assert view.contacts == []
    assert [
        (s.label, s.blips, view.system(s.system_id).name, s.turn, s.how) for s in view.sightings
    ] == [(m.shadow_label, 1, "Deneb", turn, "sensors")]
    # Nobody else reads that sighting: not the public, not the hidden fleet's own side.
    for who in (None, m.chronicler, m.outsider, m.qatzrin_player):
        assert map_view(m.campaign, who).sightings == []
    # The closed turn's map shows the contact where it was seen at that close.
    past = map_view(m.campaign, m.norge_player, turn=turn)
    assert [(c.label, past.system(c.system_id).name) for c in past.contacts] == [
        (m.shadow_label, "Deneb")
    ]


def test_reopening_the_turn_forgets_its_sightings(m):
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    turn = close(m).number
    assert Sighting.objects.filter(campaign=m.campaign).count() == 1
    campaign_turn_reopen(campaign=m.campaign, user=m.organiser, turn=turn)
    assert Sighting.objects.filter(campaign=m.campaign).count() == 0


def test_a_hidden_fleet_made_public_is_named_not_a_last_known_contact(m):
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    close(m)
    FleetPosition.objects.filter(fleet=m.shadow).update(system=m.far)
    Fleet.objects.filter(pk=m.shadow.pk).update(hidden=False)
    view = map_view(m.campaign, m.norge_player)
    assert "Shadow" in named(view) and view.sightings == [] and view.contacts == []


def test_query_count_flat_as_fleets_grow(m, django_assert_max_num_queries):
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    close(m)
    with django_assert_max_num_queries(12) as small:
        map_view(m.campaign, m.norge_player)
    cls = m.shadow.ships.get().ship_class
    for i in range(30):
        fleet = Fleet.objects.create(
            faction=m.qatzrin, name=f"Ghost {i}", slug=f"ghost-{i}", hidden=True
        )
        Ship.objects.create(fleet=fleet, ship_class=cls, name=f"G{i}")
        FleetPosition.objects.create(
            campaign=m.campaign, fleet=fleet, system=[m.deneb, m.vega, m.far][i % 3]
        )
        Sighting.objects.create(
            campaign=m.campaign, observer=m.norge, fleet=fleet, turn=1, system=m.far, how="sensors"
        )
    with django_assert_max_num_queries(len(small.captured_queries)):
        view = map_view(m.campaign, m.norge_player)
    # Deneb and Vega are in reach (the station), Far is not: 20 contacts + the Shadow.
    assert len(view.contacts) == 21 and len(view.sightings) == 10


def test_the_turn_summary_keeps_a_hidden_fleets_map_move_to_its_faction(m):
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    map_move_order(campaign=m.campaign, fleet=m.shadow, destination=m.rigel, user=m.qatzrin_player)
    map_move_order(campaign=m.campaign, fleet=m.home, destination=m.vega, user=m.norge_player)
    summary = close(m).summary
    assert sorted(line["fleet"] for line in summary["map_moves"]) == sorted(
        [m.home.pk, m.shadow.pk]
    )

    def movers(user):
        scoped = turn_summary_for(user, summary, campaign=m.campaign)
        return sorted(line["fleet"] for line in scoped["map_moves"])

    assert movers(m.organiser) == movers(m.qatzrin_player) == sorted([m.home.pk, m.shadow.pk])
    assert movers(m.norge_player) == movers(m.chronicler) == movers(None) == [m.home.pk]


def test_the_latest_sighting_is_the_last_known_position(m):
    FleetPosition.objects.filter(fleet=m.shadow).update(system=m.far)  # out of reach now
    for turn, system in [(1, m.deneb), (3, m.vega), (2, m.sol)]:
        Sighting.objects.create(
            campaign=m.campaign, observer=m.norge, fleet=m.shadow, turn=turn, system=system,
            blips=turn, how="sensors",
        )  # fmt: skip
    view = map_view(m.campaign, m.norge_player)
    assert [(view.system(s.system_id).name, s.turn, s.blips) for s in view.sightings] == [
        ("Vega", 3, 3)
    ]
