"""§6: an FC tied by a phase-3 launch is free again in phase 9 (seed "libérés
après lancement")."""

import pytest

from battles.rules.ai import ship_fire
from battles.rules.errors import IllegalOrder
from battles.rules.turn import FireIntent, LightUnit, ShipOrders, play_turn
from tests.battles.rules.test_turn import BEAM1, ScriptedDice, battle, design, ship

LAUNCHER = {
    "id": "mis-a",
    "kind": "weapon",
    "weapon": "missile-standard",
    "arcs": ["F"],
    "magazine": "mag-a",
}
MAGAZINE = {"id": "mag-a", "kind": "magazine", "capacity": 2}


def _pair(dice=None):
    a = ship("a1", "a", design("A", fcs=1, systems=[BEAM1, LAUNCHER, MAGAZINE]), y=0)
    b = ship("b1", "b", design("B", hull=(5, 5, 5, 5)), y=10, heading=3)
    return a, b, battle(a, b, dice=dice)


def test_a_launch_frees_its_fire_control_for_phase_9():
    # initiative a 6+6, b 1+1; beam-1 at 10 mu rolls 3 dice: 4, 4, 4 -> 3 hits
    a, b, state = _pair(ScriptedDice([6, 6, 1, 1, 4, 4, 4] + [1] * 20))
    events = play_turn(
        state,
        {"a1": ShipOrders(launches=[("mis-a", "b1")], fire=[FireIntent("beam-a", "b1")])},
    )
    assert [e.kind for e in events if e.phase == 3] == ["launch", "light-unit-move"]
    assert [e.kind for e in events if e.phase == 9 and e.kind.startswith("fire")] == ["fire"]
    (fire,) = [e for e in events if e.kind == "fire"]
    assert fire.data["system"] == "beam-a"
    assert fire.data["dice"] == 3
    assert fire.data["value"] == 3
    assert a.systems["mag-a"].ammo == 1


def test_a_launch_still_needs_a_free_fire_control_in_phase_1():
    a, b, state = _pair()
    a.systems["fc-1"].status = a.systems["fc-1"].status.DAMAGED
    with pytest.raises(IllegalOrder, match=r"A1: 1 launches but 0 working .*§6"):
        play_turn(state, {"a1": ShipOrders(launches=[("mis-a", "b1")])})


def test_the_ai_fires_its_guns_with_the_fire_control_a_launch_used():
    a, b, state = _pair()
    state.turn = 1
    state.light_units["m"] = LightUnit(
        unit_id="m",
        side="a",
        weapon="missile-standard",
        craft=1,
        endurance=24.0,
        x=0.0,
        y=5.0,
        origin="a1",
        target="b1",
        launched_turn=1,
    )
    assert [(i.system, i.target) for i in ship_fire(state, a)] == [("beam-a", "b1")]
