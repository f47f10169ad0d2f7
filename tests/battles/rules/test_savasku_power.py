"""Sa'vasku power points and biomass (§8, §10, §14): needle nodules buy dice
with PP ordered in phase 1, launcher nodules and spicules cost 1 biomass + 3 PP per shot,
all from the ship's per-turn PP."""

import pytest

from battles.rules.ai import resolve_battle, ship_fire
from battles.rules.errors import IllegalOrder
from battles.rules.options import RuleOptions
from battles.rules.turn import FireIntent, ShipOrders, play_turn
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship

ALL = ["F", "FS", "AS", "A", "AP", "FP"]


def nodule(sid, weapon="needle-nodule"):
    return {"id": sid, "kind": "weapon", "weapon": weapon, "arcs": ALL}


def savasku(systems, power_points, biomass=0):
    d = design("A", systems=systems, power={"power_points": power_points, "biomass": biomass})
    return ship("a1", "a", d, y=0)


def target():
    return ship("b1", "b", design("B", hull=(20, 20, 20, 20)), y=10, heading=3)


def test_needle_power_beyond_the_ship_s_power_points_is_refused_in_phase_1():
    a, b = savasku([nodule("nn-a")], 6), target()
    state = battle(a, b)
    with pytest.raises(
        IllegalOrder,
        match=r"^A1: nn-a \(needle-nodule\): 64 power points ordered, the ship has 6 "
        r"\(rules §8, §14\)$",
    ):
        play_turn(state, {"a1": ShipOrders(fire=[FireIntent("nn-a", "b1", power_points=64)])})
    assert state.turn == 0 and state.events == []


def test_power_ordered_across_nodules_adds_up():
    a, b = savasku([nodule("nn-a"), nodule("nn-b")], 6), target()
    fire = [FireIntent("nn-a", "b1", power_points=4), FireIntent("nn-b", "b1", power_points=3)]
    with pytest.raises(IllegalOrder, match=r"^A1: nn-b \(needle-nodule\): 7 power points"):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=fire)})


def test_a_needle_nodule_without_power_points_is_an_illegal_order():
    a, b = savasku([nodule("nn-a")], 6), target()
    with pytest.raises(
        IllegalOrder,
        match=r"^A1: nn-a \(needle-nodule\) needs a number of power points ≥ 0 ordered in "
        r"phase 1, got None \(rules §8\)$",
    ):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("nn-a", "b1")])})


def test_a_launcher_nodule_needs_biomass():
    a, b = savasku([nodule("pen-a", "penetrator")], 6, biomass=0), target()
    with pytest.raises(
        IllegalOrder,
        match=r"^A1: pen-a \(penetrator\): 1 biomass per shot, the ship has 0 for 1 shot\(s\) "
        r"\(rules §8\)$",
    ):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("pen-a", "b1")])})


def test_a_spicule_needs_biomass_too():
    a, b = savasku([nodule("sp-a", "spicule")], 6, biomass=0), target()
    with pytest.raises(IllegalOrder, match=r"^A1: sp-a \(spicule\): .*\(rules §10\)$"):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("sp-a", "b1")])})


def test_launcher_nodules_share_the_power_points_with_the_needle_nodules():
    a, b = savasku([nodule("pen-a", "penetrator"), nodule("nn-a")], 3, biomass=1), target()
    fire = [FireIntent("pen-a", "b1"), FireIntent("nn-a", "b1", power_points=1)]
    with pytest.raises(IllegalOrder, match=r"^A1: nn-a \(needle-nodule\): 4 power points"):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=fire)})


def test_a_penetrator_shot_spends_1_biomass_and_3_power_points():
    a, b = savasku([nodule("pen-a", "penetrator")], 3, biomass=1), target()
    # initiative a 6+6, b 1+1; to-hit at 10 mu (4+): 4; damage 1d6: 3
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, 4, 3, 6, 6, 1, 1]))
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("pen-a", "b1")])})
    (fire,) = [e for e in events if e.kind == "fire"]
    assert fire.data["value"] == 3 and b.hull_lost == 3
    assert (fire.data["power_points"], fire.data["power_left"], fire.data["biomass"]) == (3, 0, 0)
    assert a.biomass == 0
    with pytest.raises(IllegalOrder, match=r"the ship has 0 for 1 shot\(s\) \(rules §8\)"):
        play_turn(state, {"a1": ShipOrders(fire=[FireIntent("pen-a", "b1")])})


def test_phase_9_refuses_shots_the_ship_cannot_pay_for():
    systems = [nodule("pen-a", "penetrator"), nodule("pen-b", "penetrator"), nodule("nn-a")]
    a, b = savasku(systems, 3, biomass=2), target()
    # Power chosen at fire (the D-34 option): under the default it is set in phase 1.
    options = RuleOptions(settings_in_orders=False)
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, 4, 3]), options=options)
    orders = [
        FireIntent("pen-a", "b1"),
        FireIntent("pen-b", "b1"),
        FireIntent("nn-a", "b1", power_points=2),
    ]
    events = play_turn(state, {}, ship_fire=lambda st, s: orders if s is a else [])
    assert [e.data["system"] for e in events if e.kind == "fire"] == ["pen-a"]
    assert [e.summary for e in events if e.kind == "fire-refused"] == [
        "A1 pen-b at b1: penetrator needs 3 power points per shot, 0 left this turn "
        "(rules §8, §14)",
        "A1 nn-a at b1: 2 power points ordered, 0 left this turn (rules §8, §14)",
    ]
    assert a.biomass == 1


def test_the_ai_gives_its_needle_nodule_the_ship_s_power_points():
    a, b = savasku([nodule("nn-a")], 6), target()
    result = resolve_battle([a], [b], seed=1, max_turns=1, deployed=True)
    events = [e for e in result.events if e.kind in ("fire", "fire-refused")]
    assert [(e.kind, e.data["weapon"], e.data["dice"]) for e in events] == [
        ("fire", "needle-nodule", 6)
    ]
    assert events[0].data["power_points"] == 6


def test_the_ai_splits_the_power_left_after_launcher_shots_over_its_needle_nodules():
    systems = [
        nodule("nn-a"),
        nodule("pen-a", "penetrator"),
        nodule("sp-a", "spicule"),
        nodule("nn-b"),
        nodule("nn-c"),
    ]
    a, b = savasku(systems, 11, biomass=1), target()
    intents = ship_fire(battle(a, b), a)
    assert [(i.system, i.power_points) for i in intents] == [
        ("nn-a", 4),
        ("pen-a", None),
        ("nn-b", 2),
        ("nn-c", 2),
    ]
    a.biomass = 0  # no biomass: no launcher shot, all 11 PP to the needles
    intents = ship_fire(battle(a, b), a)
    assert [(i.system, i.power_points) for i in intents] == [
        ("nn-a", 5),
        ("nn-b", 3),
        ("nn-c", 3),
    ]
