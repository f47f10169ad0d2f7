"""Fighters landing on carriers and rearming (rules §2 phase 6, §9)."""

import pytest

from battles.rules import ai
from battles.rules.dice import Dice
from battles.rules.errors import IllegalOrder
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState, Status
from battles.rules.turn import (
    BattleState,
    LightUnit,
    ShipOrders,
    play_turn,
    recovery_rate,
)


def design(name, *, systems=(), fcs=2, thrust=0):
    return {
        "format": "admiralty-design/1",
        "name": name,
        "faction": "test",
        "mass": 60,
        "thrust": thrust,
        "hull": {"boxes": 40, "rows": [10, 10, 10, 10]},
        "armour": {"layers": []},
        "fire_controls": fcs,
        "command": [],
        "systems": list(systems),
    }


def bay(i, unit="interceptor", size=6):
    return {"id": f"bay-{i}", "kind": "bay", "squadron": {"unit": unit, "size": size}}


def tubes(n):
    return [{"id": f"tube-{i}", "kind": "launch-tube"} for i in range(1, n + 1)]


def ship(ship_id, side, d, *, x=0.0, y=0.0):
    s = ShipState.from_design(d, ship_id=ship_id, side=side, name=ship_id.upper())
    s.x, s.y, s.heading, s.speed = x, y, 0, 0
    return s


def carrier(n_bays=2, n_tubes=2, ship_id="a1"):
    c = ship(
        ship_id,
        "a",
        design("Carrier", systems=[*(bay(i) for i in range(1, n_bays + 1)), *tubes(n_tubes)]),
    )
    for i in range(1, n_bays + 1):
        c.systems[f"bay-{i}"].data["launched"] = True  # every squadron is out
    return c


def flying(unit_id, *, y, endurance=30.0, craft=4, origin="a1", bay_id="bay-1", side="a"):
    return LightUnit(
        unit_id,
        side,
        "fighter-interceptor",
        craft,
        endurance,
        0.0,
        y,
        origin=origin,
        bay=bay_id,
    )


def battle(*ships, units=()):
    state = BattleState(
        ships={s.ship_id: s for s in ships}, sides=("a", "b"), dice=Dice(3), options=RuleOptions()
    )
    for u in units:
        state.light_units[u.unit_id] = u
    return state


def enemy():
    return ship("b1", "b", design("Hulk", fcs=0), y=200.0)


@pytest.mark.parametrize(
    ("n_tubes", "destroyed", "up", "down"),
    [
        (4, 0, 2, 2),
        (3, 0, 2, 1),
        (2, 0, 1, 1),
        (1, 0, 1, 0),
        (4, 1, 2, 1),
        (5, 0, 3, 2),
        (2, 2, 0, 0),
    ],
)
def test_a_carrier_recovers_half_its_working_launch_tubes(n_tubes, destroyed, up, down):
    """Seed §9: « il peut en récupérer la moitié à chaque tour ». D-31 (default): rounded
    up, so a one-tube carrier recovers 1 (changed from the earlier round-down);
    option ``carrier_recovery_round_up=False``: rounded down."""
    c = carrier(1, n_tubes)
    for i in range(1, destroyed + 1):
        c.systems[f"tube-{i}"].status = Status.DESTROYED
    assert recovery_rate(c) == up
    assert recovery_rate(c, round_up=False) == down


def test_a_design_without_launch_tubes_recovers_one_squadron_a_turn():
    assert recovery_rate(carrier(2, 0)) == 1


def test_a_called_back_squadron_lands_in_its_own_bay_and_rearms_a_full_turn():
    c = carrier(2, 2)
    state = battle(c, enemy(), units=[flying("u", y=20.0, endurance=30.0)])
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    (land,) = [e for e in events if e.kind == "land"]
    assert land.phase == 6
    assert land.data == {"unit": "u", "ship": "a1", "system": "bay-1", "craft": 4, "ready_turn": 3}
    assert "u" not in state.light_units
    data = c.systems["bay-1"].data
    assert data["squadron"] == {"unit": "interceptor", "size": 4}  # craft left, own kind
    assert (data["launched"], data["ready_turn"]) == (False, 3)
    assert "light-unit-spent" not in [e.kind for e in events]
    # Turn 2 is spent aboard: no launch; turn 3 it flies again with full endurance.
    with pytest.raises(IllegalOrder, match=r"rearms until turn 3.*§9"):
        play_turn(state, {"a1": ShipOrders(launches=[("bay-1", "b1")])})
    play_turn(state, {})
    events = play_turn(state, {"a1": ShipOrders(launches=[("bay-1", "b1")])})
    (launch,) = [e for e in events if e.kind == "launch"]
    assert launch.data["craft"] == 4
    (unit,) = state.light_units.values()
    assert unit.endurance == 5 * 24 - 24 - 12  # full E 5 (×24 mu), less this turn's moves


def test_landing_is_limited_by_the_recovery_rate_per_turn():
    c = carrier(2, 2)  # two tubes: one squadron a turn
    units = [flying("u1", y=2.0), flying("u2", y=-2.0, bay_id="bay-2")]
    state = battle(c, enemy(), units=units)
    first = play_turn(state, {"a1": ShipOrders(recover=["u1", "u2"])})
    assert [e.data["unit"] for e in first if e.kind == "land"] == ["u1"]
    assert state.light_units["u2"].home == "a1"  # still flying home, next turn's turn
    second = play_turn(state, {})
    assert [e.data["unit"] for e in second if e.kind == "land"] == ["u2"]
    assert c.systems["bay-2"].data["ready_turn"] == 4


def test_one_tube_recovers_one_squadron_by_default_d31():
    """D-31 default: « la moitié » of one tube rounded up is 1, so the squadron lands."""
    c = carrier(1, 1)
    state = battle(c, enemy(), units=[flying("u", y=1.0, endurance=0.0)])
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    assert [e.kind for e in events].count("land") == 1
    assert "u" not in state.light_units


def test_one_tube_recovers_nothing_under_the_round_down_option_and_a_spent_squadron_leaves():
    c = carrier(1, 1)
    state = battle(c, enemy(), units=[flying("u", y=1.0, endurance=0.0)])
    state.options = RuleOptions(carrier_recovery_round_up=False)
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    assert "land" not in [e.kind for e in events]
    assert "light-unit-spent" in [e.kind for e in events]


def test_no_landing_beyond_3_mu_or_without_a_free_bay():
    far = carrier(1, 2)
    state = battle(far, enemy(), units=[flying("u", y=40.0, endurance=100.0)])
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    assert "land" not in [e.kind for e in events]
    unit = state.light_units["u"]
    assert unit.position == pytest.approx((0.0, 40.0 - 24.0 - 12.0))  # flew home 36 mu
    assert unit.target is None and unit.home == "a1"

    full = carrier(1, 2)
    full.systems["bay-1"].data["launched"] = False  # its own squadron is aboard
    state = battle(full, enemy(), units=[flying("u", y=1.0, origin="a9")])
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    assert "land" not in [e.kind for e in events] and "u" in state.light_units


def test_a_squadron_lands_in_another_free_bay_when_its_own_is_gone():
    c = carrier(2, 2)
    c.systems["bay-1"].status = Status.DESTROYED
    c.systems["bay-2"].data = {}  # an empty bay
    state = battle(c, enemy(), units=[flying("u", y=1.0, craft=3)])
    events = play_turn(state, {"a1": ShipOrders(recover=["u"])})
    (land,) = [e for e in events if e.kind == "land"]
    assert land.data["system"] == "bay-2"
    assert c.systems["bay-2"].data["squadron"] == {"unit": "fighter-interceptor", "size": 3}


def test_bad_recovery_orders_are_refused_before_any_die():
    c = carrier(1, 2)
    foe = flying("f", y=5.0, side="b", origin="b1")
    missile = LightUnit("m", "a", "missile-heavy", 1, 24.0, 0.0, 5.0, origin="a1")
    state = battle(c, enemy(), units=[foe, missile])
    for unit_id, message in (
        ("nobody", "no such light unit"),
        ("f", "only friendly fighter"),
        ("m", "only friendly fighter"),
    ):
        with pytest.raises(IllegalOrder, match=rf"A1: recover '{unit_id}'.*{message}.*§2"):
            play_turn(state, {"a1": ShipOrders(recover=[unit_id])})
    assert state.turn == 0 and not state.dice.log
    plain = ship("a2", "a", design("Frigate"))
    state = battle(plain, enemy(), units=[flying("u", y=1.0, origin="a2")])
    with pytest.raises(IllegalOrder, match="A2: no working bay.*§9"):
        play_turn(state, {"a2": ShipOrders(recover=["u"])})


def test_the_ai_calls_back_its_low_endurance_squadrons_within_reach():
    c = carrier(2, 2)
    # 17 mu to fly home (20 mu away, landing within 3): 17 + 24 mu for one more attack.
    low = flying("low", y=20.0, endurance=40.9)  # 23.9 mu spare: one attack would strand it
    fresh = flying("fresh", y=20.0, endurance=41.0, bay_id="bay-2")  # 24 spare: fights on
    stranded = flying("far", y=60.0, endurance=56.9)  # 57 mu to fly: cannot make it back
    other = flying("other", y=5.0, endurance=0.0, origin="a9")  # not this carrier's
    state = battle(c, enemy(), units=[low, fresh, stranded, other])
    assert ai.ship_orders(state, c).recover == ["low"]
    state.light_units["low"].home = "a1"  # already flying home: not called again
    assert ai.ship_orders(state, c).recover == []


def test_an_ai_squadron_with_no_endurance_next_to_its_carrier_lands_instead_of_leaving():
    c = carrier(2, 2)
    state = battle(c, enemy(), units=[flying("u", y=2.0, endurance=0.0)])
    orders = {s.ship_id: ai.ship_orders(state, s) for s in state.in_action()}
    assert orders["a1"].recover == ["u"]
    events = play_turn(state, orders, ship_fire=ai.ship_fire, crew_plan=ai.crew_plan)
    kinds = [e.kind for e in events]
    assert "land" in kinds and "light-unit-spent" not in kinds
    assert c.systems["bay-1"].data["squadron"]["size"] == 4
