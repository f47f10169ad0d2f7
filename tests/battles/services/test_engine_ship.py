"""One function turns a ship row into the engine's ``ShipState``: auto-resolve's fielding
and the record's checks build the same state from the same ship."""

from __future__ import annotations

from battles.services import field_battle, ship_system_ids
from battles.services.common import battle_sides, engine_ship
from tests.battles.battle_fixtures import draft_skirmish


def test_fielding_and_record_build_the_ship_engine_ship_builds(cast):
    battle = draft_skirmish(cast.campaign)
    side = battle.sides.get(faction__slug="qatzrin")
    ship = side.participants.filter(ship__isnull=False).order_by("pk").last().ship
    ship.hull_lost, ship.armour_lost, ship.crew_lost = 2, 0, 1
    ship.systems_lost = ["fc-1"]
    ship.save()

    fleets = field_battle(battle, battle_sides(battle))
    fielded = {f.start.ship_id: f.start for fleet in fleets for f in fleet}
    state = engine_ship(ship, side="qatzrin", name="Tzayad 1")
    assert state.ship_id == f"ship-{ship.pk}"
    assert (state.side, state.name, state.hull_lost) == ("qatzrin", "Tzayad 1", 2)
    # ShipState's repr rebuilds the state: equal reprs, equal ships (the engine names a
    # class's only ship "Tzayad 1").
    assert repr(fielded[state.ship_id]) == repr(state)
    assert ship_system_ids(ship) == list(engine_ship(ship, side="table").systems)
    assert "fc-1" in ship_system_ids(ship)
