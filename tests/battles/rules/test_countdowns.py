"""§4 command countdowns start ticking at the end of the turn after the hit: one
of N set during turn t takes effect at the end of turn t+N."""

import pytest

from battles.rules.damage import tick_countdowns
from battles.rules.dice import Dice
from battles.rules.errors import IllegalOrder
from battles.rules.ships import Status
from battles.rules.turn import FireIntent, ShipOrders, fire_controls, play_turn
from tests.battles.rules.test_turn import BEAM1, ScriptedDice, battle, design, ship

# Turn 1: initiative a 6+6, b 1+1; A's beam-1 at 5 mu rolls 4, 1, 1 (one hit) and crosses
# off B's first hull row; row-1 threshold checks (6) on fc-1, drive, then the command
# system: 1, 1, 6; the countdown rolls ``turns``. Later turns: initiative a 6+6, b 1+1.
TURN = [6, 6, 1, 1]


def _hit_command_system(command, turns, later_turns=3):
    a = ship("a1", "a", design("A", systems=[BEAM1]), y=0)
    b = ship("b1", "b", design("B", hull=(1, 1, 1, 1), command=[command]), y=5, heading=3)
    faces = [*TURN, 4, 1, 1, 1, 1, 6, turns] + TURN * later_turns
    state = battle(a, b, dice=ScriptedDice(faces))
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    countdown = [e for e in events if e.kind == "damage-countdown"]
    assert [e.data["amount"] for e in countdown] == [turns]
    return state, b


def test_a_bridge_countdown_of_1_keeps_the_bridge_out_for_the_whole_next_turn():
    state, b = _hit_command_system("bridge", 1)
    assert b.systems["bridge"].status is Status.DAMAGED
    assert b.countdowns == {"bridge": 1}
    seen = []

    def record(st, s):
        if s is b:
            seen.append(fire_controls(st, s))
        return []

    with pytest.raises(IllegalOrder):  # §4: no manoeuvres while the bridge is out
        play_turn(state, {"b1": ShipOrders("1T")})
    events = play_turn(state, {}, ship_fire=record)
    assert seen == [0]
    assert [(e.turn, e.phase, e.summary) for e in events if e.kind == "damage-repair"] == [
        (2, 11, "B1 repair: bridge back in service (§4)")
    ]
    assert b.systems["bridge"].status is Status.WORKING and b.countdowns == {}
    play_turn(state, {"b1": ShipOrders("1T")})
    assert b.heading == 4


def test_a_countdown_of_n_set_in_turn_t_acts_at_the_end_of_turn_t_plus_n():
    state, b = _hit_command_system("life-support", 2)
    assert b.countdowns == {"life-support": 2} and not b.derelict
    play_turn(state, {})
    assert b.countdowns == {"life-support": 1} and not b.derelict
    events = play_turn(state, {})
    assert b.derelict and b.crew_left == 0 and b.countdowns == {}
    assert [(e.turn, e.phase) for e in events if e.kind == "damage-derelict"] == [(3, 11)]


def test_damage_control_the_turn_of_the_hit_ends_the_countdown():
    # Phase 11 of turn 1: 3 crew on the bridge, 4+ repairs it (the roll after the countdown).
    a = ship("a1", "a", design("A", systems=[BEAM1]), y=0)
    b = ship("b1", "b", design("B", mass=60, hull=(1, 1, 1, 1), command=["bridge"]), y=5, heading=3)
    state = battle(a, b, dice=ScriptedDice([*TURN, 4, 1, 1, 1, 1, 6, 3, 4]))
    events = play_turn(
        state,
        {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])},
        crew_plan=lambda st, s: {"bridge": 3} if s is b else {},
    )
    assert [e.summary for e in events if e.kind == "damage-repair"] == [
        "B1 repair: bridge repaired (§12)"
    ]
    assert b.systems["bridge"].status is Status.WORKING and b.countdowns == {}


def test_tick_countdowns_leaves_the_skipped_ones():
    s = ship("s", "a", design("S", command=["bridge", "life-support"]))
    s.systems["bridge"].status = Status.DAMAGED
    s.countdowns = {"bridge": 1, "life-support": 1}
    events = tick_countdowns(s, Dice(0), skip=["bridge"])
    assert [e.kind for e in events] == ["derelict"]
    assert s.countdowns == {"bridge": 1}
    assert s.systems["bridge"].status is Status.DAMAGED
