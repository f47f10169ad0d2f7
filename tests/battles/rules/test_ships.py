"""ShipState from the agreed design document (§4, D-5, D-6, D-25)."""

import pytest

from battles.rules.ships import (
    DesignError,
    ShipState,
    Status,
    SystemState,
    crew_factors,
    split_hull_rows,
)

SAAR = {
    "format": "admiralty-design/1",
    "name": "Sa'ar",
    "faction": "qatzrin",
    "type_word": "corvette",
    "mass": 16,
    "thrust": 6,
    "ftl": True,
    "hull": {"boxes": 5, "rows": [2, 1, 1, 1]},
    "armour": {"layers": [2]},
    "screens": 1,
    "fire_controls": 1,
    "sensors": "standard",
    "ecm": 0,
    "command": ["bridge", "life-support", "core"],
    "systems": [
        {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["F", "FS", "FP"]},
        {
            "id": "torp-a",
            "kind": "weapon",
            "weapon": "plasma-torpedo",
            "arcs": ["F"],
            "magazine": "mag-a",
        },
        {"id": "mag-a", "kind": "magazine", "capacity": 4},
        {"id": "pd-a", "kind": "pd"},
        {
            "id": "bay-a",
            "kind": "bay",
            "squadron": {"name": "Najna", "unit": "long-range-fighter", "size": 6},
        },
        {"id": "marines-a", "kind": "marines", "squads": 1},
    ],
    "power": {"power_points": 0, "biomass": 0},
    "points": 56,
}


def test_from_design_reads_every_part():
    ship = ShipState.from_design(SAAR, ship_id="q1", side="qatzrin")
    assert ship.name == "Sa'ar" and ship.mass == 16
    assert ship.hull_rows == [2, 1, 1, 1] and ship.hull_max == 5
    assert ship.armour == [2] and ship.crew_max == 1 == ship.crew_left
    assert ship.systems["mag-a"].ammo == 4
    assert ship.systems["torp-a"].magazine == "mag-a"
    assert ship.systems["beam-a"].arcs == ("F", "FS", "FP")
    assert ship.systems["marines-a"].squads == 1
    assert ship.systems["bay-a"].data["squadron"]["name"] == "Najna"
    # synthesised systems reached by threshold checks
    for sid in ("fc-1", "screen-1", "drive", "bridge", "life-support", "core"):
        assert sid in ship.systems
    assert ship.fire_controls == 1 and ship.screen_level == 1 and ship.thrust == 6


def test_carried_damage_crosses_off_first_rows_and_outer_armour():
    ship = ShipState.from_design(
        SAAR,
        ship_id="q1",
        side="qatzrin",
        name="Hanit",
        hull_lost=3,
        armour_lost=1,
        systems_lost=["beam-a", "fc-1"],
    )
    assert ship.name == "Hanit"
    assert ship.hull_rows == [0, 0, 1, 1] and ship.hull_lost == 3
    assert ship.armour == [1] and ship.armour_lost == 1
    assert ship.systems["beam-a"].status is Status.DESTROYED
    assert ship.fire_controls == 0
    assert ship.systems_lost == ["beam-a", "fc-1"]


def test_unknown_system_lost_is_named():
    with pytest.raises(DesignError, match="nope"):
        ShipState.from_design(SAAR, ship_id="q1", side="q", systems_lost=["nope"])


def test_rows_must_add_up():
    bad = dict(SAAR, hull={"boxes": 6, "rows": [2, 1, 1, 1]})
    with pytest.raises(DesignError, match="hull.rows"):
        ShipState.from_design(bad, ship_id="q1", side="q")


def test_d6_split_when_only_a_count_is_given():
    assert split_hull_rows(10) == [3, 3, 2, 2]
    assert split_hull_rows(5) == [2, 1, 1, 1]
    assert split_hull_rows(3) == [1, 1, 1]
    ship = ShipState.from_design(dict(SAAR, hull={"boxes": 10}), ship_id="q", side="q")
    assert ship.hull_rows == [3, 3, 2, 2]


def test_crew_factors_round_up():
    assert [crew_factors(m) for m in (10, 20, 21, 40, 41, 120)] == [1, 1, 2, 2, 3, 6]


def test_armour_layers_outer_first():
    ship = ShipState.from_design(dict(SAAR, armour={"layers": [2, 3]}), ship_id="p", side="p")
    assert ship.cross_off_armour(3) == 3
    assert ship.armour == [0, 2]
    assert ship.cross_off_armour(9) == 2 and ship.armour == [0, 0]


def test_notation_and_repr():
    ship = ShipState.from_design(SAAR, ship_id="q1", side="qatzrin", hull_lost=2)
    ship.systems["torp-a"].status = Status.DAMAGED
    text = ship.notation()
    assert text.startswith('q1 "Sa\'ar" qatzrin M16 H0/1/1/1 A2 C1/1 T6 S1')
    assert "torp-a*" in text
    rebuilt = eval(  # noqa: S307
        repr(ship),
        {
            "ShipState": ShipState,
            "SystemState": SystemState,  # noqa: S307
            "Status": Status,
        },
    )
    assert rebuilt == ship


def test_copy_is_independent():
    ship = ShipState.from_design(SAAR, ship_id="q1", side="qatzrin")
    twin = ship.copy()
    assert twin == ship
    twin.hull_rows[0] = 0
    twin.armour[0] = 0
    twin.systems["beam-a"].status = Status.DESTROYED
    twin.countdowns["core"] = 2
    twin.boarders.append("marines")
    assert ship.hull_rows[0] == 2 and ship.armour == [2] and ship.systems["beam-a"].working
    assert ship.countdowns == {} and ship.boarders == []
