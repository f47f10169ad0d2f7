"""Campaign standings never reveal the losses of a fleet the viewer may not see."""

import pytest

from battles.models import Battle, BattleSide, Participant
from battles.standings import campaign_standings
from factions.models import Fleet, Ship, ShipClass


@pytest.fixture
def lost_ship(cast):
    sa_ar = ShipClass.objects.create(
        faction=cast.qatzrin, name="Sa'ar", slug="sa-ar", mass=16, hull_boxes=5
    )
    fleet = Fleet.objects.create(faction=cast.qatzrin, name="5th", slug="q-5th")
    ship = Ship.objects.create(ship_class=sa_ar, fleet=fleet, name="Hanit", status="destroyed")
    battle = Battle.objects.create(
        campaign=cast.campaign,
        name="Miranda",
        slug="miranda",
        status="concluded",
        winner=cast.norge,
    )
    side = BattleSide.objects.create(battle=battle, faction=cast.qatzrin, fleet=fleet)
    BattleSide.objects.create(battle=battle, faction=cast.norge, order=1)
    Participant.objects.create(side=side, ship=ship, fate="destroyed", hull_lost=5)
    return ship


def _ships_lost(cast, user):
    rows = campaign_standings(cast.campaign, user=user)
    return next(r for r in rows if r.pk == cast.qatzrin.pk).ships_lost


def test_public_fleet_losses_count_for_everyone(cast, lost_ship):
    assert _ships_lost(cast, None) == 1
    assert _ships_lost(cast, cast.norge_player) == 1


def test_hidden_fleet_losses_count_only_for_who_may_see_the_fleet(cast, lost_ship):
    Fleet.objects.filter(pk=lost_ship.fleet_id).update(hidden=True)
    assert _ships_lost(cast, None) == 0
    assert _ships_lost(cast, cast.norge_player) == 0
    assert _ships_lost(cast, cast.qatzrin_player) == 1
    assert _ships_lost(cast, cast.organiser) == 1
