"""The sample campaign played through three turns."""

from __future__ import annotations

import pytest

from campaign.turns.building import construction_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.models import LedgerEntry, RepairOrder
from campaign.turns.repairs import repair_order
from campaign.turns.treasury import treasury_adjust, treasury_balance
from factions.fleet_totals import fleet_totals
from factions.models import LightUnitGroup, Ship
from factions.web.timeline import ship_state_before_battle, ship_timeline
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.django_db


def _points(fleet):
    ships = list(fleet.ships.select_related("ship_class"))
    return fleet_totals(ships, list(LightUnitGroup.objects.filter(fleet=fleet)))


def test_three_turns_of_the_sample(sample):
    s = sample
    steffen = s.fleet.ships.get(name="Steffen Konalson")
    tord_a, tord_b = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk")
    start = _points(s.fleet)
    # 708 + 320 + 320 ships, the Steffen Konalson's gunboats 72 + 54 in its bays.
    assert (start.ship_points, start.squadron_points, start.lost) == (1348, 126, 0)

    turn1 = campaign_turn_open(campaign=s.campaign, user=s.organiser)
    assert turn1.number == 1
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=600,
        technology=1,
        reason="war chest",
        user=s.organiser,
    )
    battle = norway_battle(
        s.campaign,
        s.fleet,
        {
            tord_a: {
                "fate": "damaged",
                "hull_lost": 8,
                "armour_lost": 2,
                "systems_lost": ["beam-a", "fc-1"],
            },
            tord_b: {"fate": "destroyed"},
            steffen: {"fate": "damaged", "hull_lost": 5},
        },
    )
    tord_a.refresh_from_db()
    steffen.refresh_from_db()
    assert (tord_a.hull_lost, tord_a.armour_lost, tord_a.crew_lost) == (8, 2, 1)  # crew D-9
    assert (steffen.hull_lost, steffen.crew_lost) == (5, 1)
    hit = _points(s.fleet)
    assert (hit.ship_points, hit.lost, hit.lost_points, hit.damaged) == (1028, 1, 320, 2)
    # damaged share: 320 × 8/23 = 111.3 → 111; 708 × 5/39 = 90.8 → 91
    assert hit.damaged_points == 111 + 91

    order_a = repair_order(
        campaign=s.campaign,
        ship=tord_a,
        user=s.norge_player,
        hull=8,
        armour=2,
        crew=1,
        systems=["beam-a", "fc-1"],
    )
    order_s = repair_order(campaign=s.campaign, ship=steffen, user=s.organiser, hull=5, crew=1)
    # Tordenskjold: hull box 1, armour box 1, crew 1, beam-a 9, fc-1 2 (half Fleet Book points)
    assert (order_a.cost, order_s.cost) == (22, 6)
    # 15 + 6 units at a yard of 12 a turn: both end at the second turn end (turn 2)
    assert (order_a.eta_turn, order_s.eta_turn) == (2, 2)
    build = construction_order(
        campaign=s.campaign,
        user=s.norge_player,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        light_kind="gunboat",
        light_variant="heavy-transport",
        name="Kristorensen 2nd heavy transports",
    )
    assert (build.cost, build.tech_cost, build.turns_total) == (72, 1, 1)

    campaign_turn_close(campaign=s.campaign, user=s.organiser)  # end of turn 1
    tord_a.refresh_from_db()
    steffen.refresh_from_db()
    # 12 units: Tordenskjold hull 8, armour 2, crew 1 (11); the next system needs 2 → Steffen 1 hull
    assert (tord_a.hull_lost, tord_a.armour_lost, tord_a.crew_lost, tord_a.systems_lost) == (
        0,
        0,
        0,
        ["beam-a", "fc-1"],
    )
    assert (steffen.hull_lost, steffen.crew_lost) == (4, 1)
    gunboats = LightUnitGroup.objects.get(name="Kristorensen 2nd heavy transports")
    assert (gunboats.fleet, gunboats.kind, gunboats.strength, gunboats.territory) == (
        s.fleet,
        "gunboat",
        6,
        s.yard,
    )

    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)  # end of turn 2
    tord_a.refresh_from_db()
    steffen.refresh_from_db()
    assert (tord_a.status, tord_a.systems_lost, tord_a.hull_lost) == (Ship.Status.ACTIVE, [], 0)
    assert (steffen.status, steffen.hull_lost, steffen.crew_lost) == (Ship.Status.ACTIVE, 0, 0)
    order_a.refresh_from_db()
    order_s.refresh_from_db()
    assert order_a.status == order_s.status == RepairOrder.Status.DONE

    turn3 = campaign_turn_open(campaign=s.campaign, user=s.organiser)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    assert turn3.number == 3

    # the ledger balances to the unit: 600 − 22 − 6 − 72 + 3 × (5 × 100 + 50)
    balance = treasury_balance(campaign=s.campaign, faction=s.norge)
    assert balance.resources == 600 - 22 - 6 - 72 + 3 * 550 == 2150
    assert balance.technology == 1 - 1 + 3
    kinds = list(
        LedgerEntry.objects.filter(campaign=s.campaign, faction=s.norge).values_list(
            "kind", "resources"
        )
    )
    assert kinds == [
        ("adjustment", 600),
        ("repair", -22),
        ("repair", -6),
        ("construction", -72),
        ("income", 550),
        ("income", 550),
        ("income", 550),
    ]
    end = _points(s.fleet)
    assert (end.ship_points, end.damaged, end.damaged_points, end.lost_points) == (1028, 0, 0, 320)
    assert end.squadron_points == 126 + 72

    timeline = ship_timeline(tord_a)
    assert [e.kind for e in timeline] == ["built", "battle", "repair", "repair"]
    assert timeline[1].before["hull_lost"] == 0 and timeline[1].after["hull_lost"] == 8
    assert timeline[2].after["hull_lost"] == 0 and timeline[2].after["systems_lost"] == [
        "beam-a",
        "fc-1",
    ]
    assert timeline[3].after == {
        "status": "active",
        "hull_lost": 0,
        "armour_lost": 0,
        "crew_lost": 0,
        "systems_lost": [],
    }
    assert ship_state_before_battle(ship=tord_a, battle=battle)["status"] == "active"
    assert [e.kind for e in ship_timeline(tord_b)] == ["built", "battle"]
    assert ship_timeline(tord_b)[1].after["status"] == "destroyed"
