"""Arcs, fire control and sensors (rules §5, §6)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battles.rules.errors import IllegalOrder, NoFireControl, OutOfArc
from battles.rules.movement import step
from battles.rules.sensors import (
    ARCS,
    Contact,
    FireOrder,
    allocate_fire_control,
    blips,
    observe,
    sensor_range,
    target_arcs,
)


@pytest.mark.parametrize(
    ("target", "arcs"),
    [
        ((0, 10), ("F",)),
        ((10, 10), ("FS",)),
        ((10, -3), ("AS",)),
        ((0, -10), ("A",)),
        ((-10, -3), ("AP",)),
        ((-10, 10), ("FP",)),
    ],
)
def test_arcs_of_a_ship_heading_0(target, arcs):
    assert target_arcs((0.0, 0.0), 0, target) == arcs


def test_arcs_turn_with_the_heading():
    # Heading 3 points to -y: a target at -y is in the bow arc, one at +y in the aft arc.
    assert target_arcs((5.0, 5.0), 3, (5.0, -20.0)) == ("F",)
    assert target_arcs((5.0, 5.0), 3, (5.0, 30.0)) == ("A",)
    # Heading 3, a target to +x is abeam to port, on the line between AP and FP.
    assert target_arcs((0.0, 0.0), 3, (10.0, 0.0)) == ("AP", "FP")
    assert target_arcs((0.0, 0.0), 3, (10.0, 1.0)) == ("AP",)


def test_a_target_on_an_arc_line_is_in_both_arcs():
    line = (math.sin(math.radians(30)) * 10, math.cos(math.radians(30)) * 10)
    assert target_arcs((0.0, 0.0), 0, line) == ("F", "FS")
    assert target_arcs((0.0, 0.0), 0, (10.0, 0.0)) == ("FS", "AS")


@given(heading=st.integers(0, 5), arc=st.integers(0, 5), offset=st.floats(5, 55))
def test_each_arc_holds_its_60_degrees(heading, arc, offset):
    angle = math.radians(heading * 60 - 30 + arc * 60 + offset)
    target = (20 * math.sin(angle), 20 * math.cos(angle))
    assert target_arcs((0.0, 0.0), heading, target) == (ARCS[arc],)


def test_bow_arc_follows_movement_heading():
    for heading in range(6):
        ahead = step((1.0, 2.0), heading, 10)
        assert target_arcs((1.0, 2.0), heading, ahead) == ("F",)


def test_sensor_ranges_and_ecm():
    assert sensor_range("standard") == 24
    assert sensor_range("advanced") == 36
    assert sensor_range("light") == 12
    assert sensor_range("standard", target_ecm=1) == 18
    assert sensor_range("standard", target_ecm=3) == 6
    assert sensor_range("standard", target_ecm=5) == 6
    assert sensor_range("advanced", target_ecm=2) == 24
    assert sensor_range("light", target_ecm=1) == 6
    with pytest.raises(ValueError, match="unknown sensor kind"):
        sensor_range("psychic")


@pytest.mark.parametrize(
    ("mass", "count"), [(1, 1), (16, 1), (50, 1), (51, 2), (100, 2), (101, 3), (150, 3)]
)
def test_one_blip_per_started_50_mass(mass, count):
    assert blips(mass) == count


def test_light_units_show_no_blip():
    assert blips(6, light_unit=True) == 0


DESIGN = {
    "format": "admiralty-design/1",
    "name": "Kineret",
    "faction": "qatzrin",
    "type_word": "light carrier",
    "mass": 70,
    "thrust": 4,
    "hull": {"boxes": 20, "rows": [5, 5, 5, 5]},
    "fire_controls": 2,
    "ecm": 0,
    "systems": [
        {"id": "beam-a", "kind": "weapon", "weapon": "beam-1", "arcs": ["F", "FS", "FP"]},
        {"id": "mis-a", "kind": "weapon", "weapon": "missile-heavy", "arcs": ["F"]},
        {"id": "adaf-a", "kind": "adaf"},
        {"id": "bay-a", "kind": "bay", "squadron": {"unit": "interceptor", "size": 6}},
    ],
}


def test_observer_beyond_range_sees_blips_only():
    contact = Contact.from_design(DESIGN, name="Kineret")
    seen = observe(contact, range_mu=30)
    assert seen == {"level": "blip", "blips": 2, "fire_control_detected": True}
    assert observe(contact, range_mu=60)["fire_control_detected"] is False


def test_standard_sensors_reveal_class_only_when_already_encountered():
    contact = Contact.from_design(DESIGN, name="Kineret", hull_left=9)
    seen = observe(contact, range_mu=20)
    assert seen["level"] == "standard"
    assert seen["class"] is None
    assert seen["mass"] == 70 and seen["hull"] == "heavy"
    assert seen["weapon_types"] == ["beam-1", "missile-heavy"]
    assert seen["adaf"] is True and seen["missile_types"] == ["missile-heavy"]
    assert seen["light_unit_types"] == []
    assert "heavy_weapons" not in seen
    known = observe(
        contact,
        range_mu=20,
        encountered_classes={"Kineret"},
        encountered_light_units={"interceptor"},
    )
    assert known["class"] == "Kineret" and known["light_unit_types"] == ["interceptor"]


def test_advanced_sensors_add_weapon_arcs_and_light_units():
    contact = Contact.from_design(DESIGN, name="Kineret")
    seen = observe(contact, range_mu=30, sensors="advanced")
    assert seen["level"] == "advanced"
    assert seen["heavy_weapons"][0] == {"weapon": "beam-1", "arcs": ["F", "FS", "FP"]}
    assert seen["light_units"] == [{"unit": "interceptor", "craft": 6}]


def test_ecm_shortens_the_range_at_which_a_ship_is_seen():
    contact = Contact.from_design({**DESIGN, "ecm": 2}, name="Kineret")
    assert observe(contact, range_mu=13)["level"] == "blip"
    assert observe(contact, range_mu=12)["level"] == "standard"


def fire(system, target, arcs=("F",), target_arcs=("F",), weapon="beam-2", **kw):
    return FireOrder(system, weapon, tuple(arcs), target, tuple(target_arcs), **kw)


def test_one_fire_control_per_target_however_many_weapons():
    plan = allocate_fire_control(
        ship="Barak",
        fire_controls=2,
        orders=[fire("b1", "Phyaa"), fire("b2", "Phyaa"), fire("b3", "Tyaph")],
    )
    assert plan.directs == [("target", "Phyaa"), ("target", "Tyaph")]
    assert plan.system_fc == {"b1": 1, "b2": 1, "b3": 2}


def test_a_third_target_needs_a_third_fire_control():
    orders = [fire("b1", "Phyaa"), fire("b2", "Tyaph"), fire("b3", "Huulth")]
    with pytest.raises(NoFireControl) as error:
        allocate_fire_control(ship="Barak", fire_controls=2, orders=orders)
    message = str(error.value)
    assert "Barak" in message and "b3" in message and "Huulth" in message and "§6" in message


def test_a_lance_takes_a_fire_control_of_its_own():
    orders = [fire("b1", "Phyaa"), fire("l1", "Phyaa", weapon="lance")]
    plan = allocate_fire_control(ship="Sabra", fire_controls=2, orders=orders)
    assert plan.directs == [("target", "Phyaa"), ("lance", "Phyaa")]
    with pytest.raises(NoFireControl):
        allocate_fire_control(ship="Sabra", fire_controls=1, orders=orders)


def test_launches_tie_up_fire_controls():
    with pytest.raises(NoFireControl, match="b1"):
        allocate_fire_control(
            ship="Kineret", fire_controls=1, orders=[fire("b1", "Phyaa")], launches=["bay-a"]
        )


def test_pd_and_point_defence_fire_take_no_fire_control():
    plan = allocate_fire_control(
        ship="Sa'ar",
        fire_controls=0,
        orders=[
            fire("pd-a", "fighters", weapon="pd", arcs=()),
            fire("b1", "fighters", weapon="beam-1", point_defence=True),
        ],
    )
    assert plan.directs == [] and plan.system_fc == {"pd-a": None, "b1": None}


def test_a_target_outside_the_weapon_arcs_is_refused():
    with pytest.raises(OutOfArc) as error:
        allocate_fire_control(
            ship="Ra'am",
            fire_controls=2,
            orders=[fire("b1", "Phuun", arcs=("F", "FS"), target_arcs=("AP",))],
        )
    assert "Ra'am" in str(error.value) and "§6" in str(error.value)
    assert issubclass(OutOfArc, IllegalOrder)


def test_aft_arc_is_blind_to_fire_control_while_thrusting():
    order = fire("b1", "Dinth", arcs=ARCS, target_arcs=("A",))
    assert allocate_fire_control(ship="Sabra", fire_controls=1, orders=[order]).directs
    with pytest.raises(NoFireControl, match="aft arc"):
        allocate_fire_control(ship="Sabra", fire_controls=1, orders=[order], used_thrust=True)
    # On the line between aft and starboard-aft the weapon may use the other arc.
    edge = fire("b1", "Dinth", arcs=ARCS, target_arcs=("AS", "A"))
    assert allocate_fire_control(
        ship="Sabra", fire_controls=1, orders=[edge], used_thrust=True
    ).directs
