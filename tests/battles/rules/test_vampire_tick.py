"""§8 vampire: 2 damage when it lands, then +2 at each later end of turn until neutralised
(project reading of §8)."""

from battles.rules.damage import attach_vampire, tick_vampires
from battles.rules.dice import Dice
from battles.rules.turn import FireIntent, ShipOrders, play_turn
from tests.battles.rules.test_turn import ScriptedDice, battle, design, ship

VAMPIRE = {"id": "nod-a", "kind": "weapon", "weapon": "vampire", "arcs": ["F"]}
TURN = [6, 6, 1, 1]  # initiative: a 6+6, b 1+1
SHOOT = {"a1": ShipOrders(fire=[FireIntent("nod-a", "b1")])}


def _pair(faces, *, mass=20):
    power = {"power_points": 3, "biomass": 5}  # one shot a turn: 1 biomass + 3 PP (§8)
    a = ship("a1", "a", design("A", systems=[VAMPIRE], power=power), y=0)
    b = ship("b1", "b", design("B", mass=mass, hull=(9, 9, 9, 9)), y=5, heading=3)
    return a, b, battle(a, b, dice=ScriptedDice(faces))


def test_a_vampire_deals_2_when_it_lands_and_2_at_each_later_end_of_turn():
    # turn 1: to-hit 6 (3+ at 0-6 mu); turns 2 and 3: no fire
    _, b, state = _pair([*TURN, 6, *TURN, *TURN])
    events = play_turn(state, SHOOT)
    assert b.hull_lost == 2 and b.vampires == 1
    assert [e.phase for e in events if e.kind == "damage-hull"] == [9]
    events = play_turn(state, {})
    assert b.hull_lost == 4
    assert [(e.phase, e.summary) for e in events if e.kind == "damage-hull"] == [
        (11, "B1 hull: 1 vampire(s): -2 hull")
    ]
    play_turn(state, {})
    assert b.hull_lost == 6


def test_a_second_vampire_does_not_tick_the_turn_it_lands():
    _, b, state = _pair([*TURN, 6, *TURN, 6])
    play_turn(state, SHOOT)
    play_turn(state, SHOOT)
    # turn 2: 2 (second vampire lands) + 2 (the first one ticks)
    assert b.vampires == 2 and b.hull_lost == 6


def test_damage_control_neutralises_the_vampire_that_would_tick_first():
    # mass 60: 3 crew; turn 2 phase 11: 3 crew on a vampire, 4+ -> 6 neutralises one
    _, b, state = _pair([*TURN, 6, *TURN, 6, 6], mass=60)
    play_turn(state, SHOOT)
    events = play_turn(state, SHOOT, crew_plan=lambda st, s: {"vampire": 3} if s is b else {})
    assert [e.summary for e in events if e.kind == "damage-repair"] == [
        "B1 repair: vampire neutralised (§12)"
    ]
    # the vampire left landed this turn: it does not tick until the end of turn 3
    assert b.vampires == 1 and b.hull_lost == 4
    assert [e.phase for e in events if e.kind == "damage-hull"] == [9]


def test_tick_vampires_skips_the_fresh_ones():
    s = ship("s", "a", design("S", hull=(9, 9, 9, 9)))
    attach_vampire(s, Dice(0))
    attach_vampire(s, Dice(0))
    assert s.hull_lost == 4
    assert tick_vampires(s, Dice(0), fresh=2) == []
    tick_vampires(s, Dice(0), fresh=1)
    assert s.hull_lost == 6
    tick_vampires(s, Dice(0))
    assert s.hull_lost == 10
