"""The turn sequence (rules §2) over a BattleState."""

import json

import pytest

from battles.rules.dice import Dice
from battles.rules.errors import IllegalOrder, MagazineDestroyed, NoFireControl, UnknownWeapon
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState, Status
from battles.rules.turn import (
    BattleState,
    FireIntent,
    LightUnit,
    ShipOrders,
    fire_controls,
    play_turn,
    screen_level,
    squadron_weapon,
)


class _ScriptedRandom:
    """Stands in for ``random.Random`` inside ``Dice``: each call gives the value that makes
    the next d6 show the next scripted face (then 3s)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def random(self):
        face = self.faces.pop(0) if self.faces else 3
        return (face - 0.5) / 6


def ScriptedDice(faces):
    """Real ``Dice`` (every roll logged as usual) whose d6 show ``faces`` in order."""
    dice = Dice(0)
    dice._rng = _ScriptedRandom(faces)
    return dice


def design(name, *, mass=20, thrust=4, hull=(2, 2, 2, 2), armour=(), fcs=1, systems=(), **kw):
    return {
        "format": "admiralty-design/1",
        "name": name,
        "faction": "test",
        "mass": mass,
        "thrust": thrust,
        "hull": {"boxes": sum(hull), "rows": list(hull)},
        "armour": {"layers": list(armour)},
        "screens": kw.pop("screens", 0),
        "fire_controls": fcs,
        "command": kw.pop("command", []),
        "systems": list(systems),
        **kw,
    }


BEAM1 = {"id": "beam-a", "kind": "weapon", "weapon": "beam-1", "arcs": ["F", "FS", "FP"]}


def ship(ship_id, side, d, *, x=0.0, y=0.0, heading=0, speed=0):
    s = ShipState.from_design(d, ship_id=ship_id, side=side, name=ship_id.upper())
    s.x, s.y, s.heading, s.speed = x, y, heading, speed
    return s


def battle(*ships, dice=None, options=None):
    return BattleState(
        ships={s.ship_id: s for s in ships},
        sides=("a", "b"),
        dice=dice or Dice(7),
        options=options or RuleOptions(),
    )


def kinds(events, phase=None):
    return [e.kind for e in events if phase is None or e.phase == phase]


def test_phases_run_in_order_and_events_are_json():
    a = ship("a1", "a", design("A", systems=[BEAM1]), y=0)
    b = ship("b1", "b", design("B", systems=[BEAM1]), y=20, heading=3)
    state = battle(a, b)
    events = play_turn(
        state,
        {"a1": ShipOrders("+2", fire=[FireIntent("beam-a", "b1")]), "b1": ShipOrders("+2")},
    )
    phases = [e.phase for e in events]
    assert phases == sorted(phases)
    assert {1, 2, 5, 9} <= set(phases)
    assert state.turn == 1 and all(e.turn == 1 for e in events)
    payload = json.dumps([e.as_dict() for e in events])
    assert '"kind": "initiative"' in payload


def test_initiative_reroll_ties():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B"), y=50)
    # a: 3+4, b: 5+2 (tie) then a: 1+1, b: 6+6
    state = battle(a, b, dice=ScriptedDice([3, 4, 5, 2, 1, 1, 6, 6]))
    events = play_turn(state, {})
    assert kinds(events, 2).count("initiative-roll") == 2
    assert state.initiative == "b"
    assert [r.purpose for r in state.dice.log[:4]] == [
        "initiative a, roll 1, die 1",
        "initiative a, roll 1, die 2",
        "initiative b, roll 1, die 1",
        "initiative b, roll 1, die 2",
    ]


def test_initiative_tie_option_keeps_previous_first_player():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B"), y=50)
    state = battle(
        a, b, dice=ScriptedDice([3, 4, 5, 2]), options=RuleOptions(initiative_reroll_ties=False)
    )
    state.initiative = "b"
    play_turn(state, {})
    assert state.initiative == "b"


def test_illegal_movement_order_raises_before_any_die():
    a = ship("a1", "a", design("A", thrust=2), speed=5)
    b = ship("b1", "b", design("B"), y=50)
    state = battle(a, b)
    with pytest.raises(IllegalOrder, match="A1.*§3"):
        play_turn(state, {"a1": ShipOrders("+1, 2T")})
    assert state.dice.log == [] and state.events == [] and state.turn == 0


def test_orders_for_unknown_ship_or_system_are_refused():
    a = ship("a1", "a", design("A", systems=[BEAM1]))
    b = ship("b1", "b", design("B"), y=50)
    with pytest.raises(IllegalOrder, match="unknown ship"):
        play_turn(battle(a, b), {"zz": ShipOrders()})
    with pytest.raises(IllegalOrder, match="no weapon system 'torp'"):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("torp", "b1")])})


def test_movement_phase_moves_ships_and_records_thrust():
    a = ship("a1", "a", design("A", thrust=6), speed=15)
    b = ship("b1", "b", design("B"), y=100)
    state = battle(a, b)
    play_turn(state, {"a1": ShipOrders("+3, 1B, 2T, 18")})
    assert (round(a.x, 9), round(a.y, 9), a.heading, a.speed) == (0.0, 9.0, 1, 18)
    assert a.thrust_used
    assert b.y == 100 and not b.thrust_used


def test_ship_fire_is_simultaneous():
    # Two one-box ships 5 mu apart, each firing a beam-1 (3 dice at 0–12 mu): both hit
    # and both are destroyed, though one fires first.
    one_box = {"hull": (1,), "systems": [BEAM1]}
    a = ship("a1", "a", design("A", **one_box), y=0)
    b = ship("b1", "b", design("B", **one_box), y=5, heading=3)
    faces = [6, 1, 3, 1]  # initiative a 7, b 4
    faces += [5, 1, 1] + [5, 1, 1]  # each beam: one hit
    state = battle(a, b, dice=ScriptedDice(faces))
    events = play_turn(
        state,
        {
            "a1": ShipOrders(fire=[FireIntent("beam-a", "b1")]),
            "b1": ShipOrders(fire=[FireIntent("beam-a", "a1")]),
        },
    )
    assert kinds(events, 9).count("fire") == 2
    assert a.destroyed and b.destroyed
    fire_at = max(i for i, e in enumerate(events) if e.kind == "fire")
    first_damage = min(i for i, e in enumerate(events) if e.kind.startswith("damage-"))
    assert first_damage > fire_at


def test_fire_beyond_fire_controls_or_arc_is_refused_and_logged():
    d = design(
        "A",
        fcs=1,
        systems=[BEAM1, {"id": "beam-b", "kind": "weapon", "weapon": "beam-1", "arcs": ["F"]}],
    )
    a = ship("a1", "a", d)
    b1 = ship("b1", "b", design("B"), y=10)
    b2 = ship("b2", "b", design("B"), x=3, y=10)
    b3 = ship("b3", "b", design("B"), y=-10)
    state = battle(a, b1, b2, b3)
    # Two targets for one FC: known from the orders, refused in phase 1.
    with pytest.raises(NoFireControl, match=r"^A1: no free fire control for beam-b .*§6"):
        play_turn(
            state,
            {
                "a1": ShipOrders(
                    fire=[FireIntent("beam-a", "b1"), FireIntent("beam-b", "b2")],
                )
            },
        )
    assert state.turn == 0 and state.events == []
    # The arc is known only after movement: logged in phase 9.
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "b3")])})
    refused = [e for e in events if e.kind == "fire-refused"]
    assert len(refused) == 1 and "§6" in refused[0].data["reason"]
    assert refused[0].data["error"] == "OutOfArc" and refused[0].data["ship"] == "a1"


def test_aft_arc_is_blind_while_thrusting():
    all_round = {**BEAM1, "arcs": ["F", "FS", "AS", "A", "AP", "FP"]}
    a = ship("a1", "a", design("A", systems=[all_round]), speed=4)
    b = ship("b1", "b", design("B"), y=-20)
    state = battle(a, b)
    events = play_turn(state, {"a1": ShipOrders("+1", fire=[FireIntent("beam-a", "b1")])})
    assert "aft arc" in next(e for e in events if e.kind == "fire-refused").summary
    events = play_turn(state, {"a1": ShipOrders("", fire=[FireIntent("beam-a", "b1")])})
    assert "fire" in kinds(events, 9)


def test_out_of_range_fire_is_refused():
    a = ship("a1", "a", design("A", systems=[BEAM1]))
    b = ship("b1", "b", design("B"), y=40)
    events = play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("beam-a", "b1")])})
    assert "beyond its last band" in next(e for e in events if e.kind == "fire-refused").summary


def test_torpedo_needs_its_magazine():
    torp = {
        "id": "torp-a",
        "kind": "weapon",
        "weapon": "plasma-torpedo",
        "arcs": ["F"],
        "magazine": "mag-a",
    }
    mag = {"id": "mag-a", "kind": "magazine", "capacity": 1}
    a = ship("a1", "a", design("A", fcs=2, systems=[torp, mag]))
    b = ship("b1", "b", design("B", hull=(5, 5, 5, 5)), y=10)
    state = battle(a, b)
    order = {"a1": ShipOrders(fire=[FireIntent("torp-a", "b1")])}
    events = play_turn(state, order)
    assert "fire" in kinds(events, 9)
    assert a.systems["mag-a"].ammo == 0
    with pytest.raises(MagazineDestroyed, match=r"^A1: torp-a \(plasma-torpedo\).*'mag-a'.*§8"):
        play_turn(state, order)


def test_missile_launch_from_a_destroyed_magazine_raises():
    launcher = {
        "id": "mis-a",
        "kind": "weapon",
        "weapon": "missile-heavy",
        "arcs": ["F"],
        "magazine": "mag-a",
    }
    mag = {"id": "mag-a", "kind": "magazine", "capacity": 2}
    a = ship("a1", "a", design("A", systems=[launcher, mag]))
    a.systems["mag-a"].status = Status.DESTROYED
    b = ship("b1", "b", design("B"), y=30)
    with pytest.raises(MagazineDestroyed, match="A1.*§8"):
        play_turn(battle(a, b), {"a1": ShipOrders(launches=[("mis-a", "b1")])})


def test_launched_fighters_attach_attack_and_meet_point_defence():
    bay = {"id": "bay-a", "kind": "bay", "squadron": {"unit": "interceptor", "size": 6}}
    carrier = ship("a1", "a", design("Carrier", fcs=1, systems=[bay]))
    target = ship(
        "b1",
        "b",
        design("Target", hull=(9, 9, 9, 9), systems=[{"id": "pd-a", "kind": "pd"}]),
        y=20,
    )
    state = battle(carrier, target)
    events = play_turn(state, {"a1": ShipOrders(launches=[("bay-a", "b1")])})
    (unit,) = state.light_units.values()
    assert unit.attached_to == "b1" and unit.position == (0.0, 20.0)
    assert carrier.systems["bay-a"].data["launched"]
    order = kinds(events)
    assert order.index("launch") < order.index("point-defence") < order.index("attack")
    attack = next(e for e in events if e.kind == "attack")
    assert attack.phase == 10 and attack.data["sub_phase"] == "b"
    with pytest.raises(IllegalOrder, match="no squadron aboard"):
        play_turn(state, {"a1": ShipOrders(launches=[("bay-a", "b1")])})


def test_launch_needs_a_free_fire_control():
    bay = {"id": "bay-a", "kind": "bay", "squadron": {"unit": "interceptor", "size": 6}}
    carrier = ship("a1", "a", design("Carrier", fcs=0, systems=[bay]))
    b = ship("b1", "b", design("B"), y=20)
    with pytest.raises(IllegalOrder, match="§6"):
        play_turn(battle(carrier, b), {"a1": ShipOrders(launches=[("bay-a", "b1")])})


def test_missiles_do_not_strike_a_ship_destroyed_in_an_earlier_sub_phase():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B", hull=(1,)), y=30)
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1] + [5] * 6))
    state.light_units["f"] = LightUnit(
        "f", "a", "fighter-interceptor", 6, 100.0, 0, 28, target="b1"
    )
    state.light_units["m"] = LightUnit("m", "a", "missile-heavy", 1, 24.0, 0, 25, target="b1")
    events = play_turn(state, {})
    assert b.destroyed
    assert "attack" in kinds(events, 10) and "missile-strike" not in kinds(events)


def test_vapour_veil_screens_and_blinds():
    d = design("Phyaa", systems=[BEAM1, {"id": "veil", "kind": "vapour-veil"}])
    a = ship("a1", "a", d)
    b = ship("b1", "b", design("B"), y=10)
    state = battle(a, b)
    events = play_turn(state, {"a1": ShipOrders(veil=True, fire=[FireIntent("beam-a", "b1")])})
    assert "veil" in kinds(events, 2)
    assert screen_level(state, a) == 2 and fire_controls(state, a) == 0
    assert "no free fire control" in next(e for e in events if e.kind == "fire-refused").summary
    play_turn(state, {"a1": ShipOrders(veil=False)})
    assert screen_level(state, a) == 0 and fire_controls(state, a) == 1


def test_damage_control_repairs_in_phase_11():
    a = ship("a1", "a", design("A", mass=60, systems=[BEAM1]))
    a.systems["beam-a"].status = Status.DAMAGED
    b = ship("b1", "b", design("B"), y=80)
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, 4]))
    events = play_turn(state, {}, crew_plan=lambda _s, ship: {"beam-a": 3} if ship is a else {})
    assert "damage-control" in kinds(events, 11) and "damage-repair" in kinds(events, 11)
    assert a.systems["beam-a"].working


def test_withdrawal_takes_the_ship_out_at_the_end_of_the_turn():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B"), y=80)
    state = battle(a, b)
    events = play_turn(state, {"a1": ShipOrders(withdraw=True)})
    assert a.withdrawn and events[-1].kind == "withdraw"
    assert state.in_action("a") == []


def test_same_seed_same_turn_log():
    def run(seed):
        a = ship("a1", "a", design("A", systems=[BEAM1]))
        b = ship("b1", "b", design("B", systems=[BEAM1]), y=10, heading=3)
        state = battle(a, b, dice=Dice(seed))
        for _ in range(3):
            orders = {
                s.ship_id: ShipOrders(fire=[FireIntent("beam-a", other)])
                for s, other in ((a, "b1"), (b, "a1"))
                if s.systems["beam-a"].working and s.fire_controls and not s.out_of_action
            }
            play_turn(state, orders)
        return json.dumps([e.as_dict() for e in state.events]), state.dice.transcript()

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_sensors_phase_reports_contacts_with_what_is_learnt():
    a = ship("a1", "a", design("A", systems=[BEAM1]))
    b = ship("b1", "b", design("Bravo", mass=60, systems=[BEAM1]), y=30)
    state = battle(a, b)
    state.known_classes = {"b": {"A"}}
    events = play_turn(state, {})
    assert "contact" not in kinds(events)  # 30 mu: beyond standard sensors, blips only
    events = play_turn(state, {"a1": ShipOrders("+4")})  # now 26 mu... still out
    events += play_turn(state, {"a1": ShipOrders("+4")})
    contacts = [e for e in events if e.kind == "contact"]
    by_side = {e.data["side"]: e.data["report"] for e in contacts}
    assert by_side["a"]["class"] is None and by_side["a"]["mass"] == 60
    assert by_side["b"]["class"] == "A"
    assert by_side["a"]["weapon_types"] == ["beam-1"]
    # Seen again next turn: no new event.
    assert "contact" not in kinds(play_turn(state, {}))


def test_transport_gunboats_land_boarders_fought_in_phase_11():
    a = ship("a1", "a", design("A"))
    b = ship("b1", "b", design("B", mass=60, hull=(5, 5, 5, 5)), y=40)
    state = battle(a, b)
    state.light_units["g"] = LightUnit(
        "g", "a", "gunboat-transport", 6, 90.0, 0, 38, target="b1", attached_to="b1"
    )
    events = play_turn(state, {})
    assert "damage-boarding" in kinds(events, 10)
    assert any(e.kind == "damage-boarding" and e.phase == 11 for e in events)


def test_pulser_modes_are_checked_and_used():
    pulser = {"id": "p", "kind": "weapon", "weapon": "pulser", "arcs": ["F"]}
    a = ship("a1", "a", design("A", systems=[pulser]))
    b = ship("b1", "b", design("B", hull=(9, 9, 9, 9)), y=10)
    with pytest.raises(IllegalOrder, match="no fire mode 'beam-1'"):
        play_turn(battle(a, b), {"a1": ShipOrders(fire=[FireIntent("p", "b1", mode="beam-1")])})
    state = battle(a, b)
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("p", "b1", mode="pulser-long")])})
    fired = next(e for e in events if e.kind == "fire")
    assert fired.data["weapon"] == "pulser-long" and fired.data["dice"] == 1
    # D-34 (default): the mode is chosen in phase 1; a pulser ordered without one is refused.
    with pytest.raises(IllegalOrder, match=r"^A1: p \(pulser\) ordered to fire with no mode"):
        play_turn(state, {"a1": ShipOrders(fire=[FireIntent("p", "b1")])})
    # D-34 option: chosen at fire, the best mode at the measured range.
    state = battle(a, b, options=RuleOptions(settings_in_orders=False))
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("p", "b1")])})
    assert next(e for e in events if e.kind == "fire").data["weapon"] == "pulser-short"


def test_friendly_targets_are_refused():
    a = ship("a1", "a", design("A", systems=[BEAM1]))
    a2 = ship("a2", "a", design("A"), y=5)
    b = ship("b1", "b", design("B"), y=80)
    with pytest.raises(IllegalOrder, match=r"^A1: beam-a \(beam-1\) at a2: a friendly.*§6"):
        play_turn(battle(a, a2, b), {"a1": ShipOrders(fire=[FireIntent("beam-a", "a2")])})


def test_class_1_weapons_fire_as_point_defence_without_fire_control():
    a = ship("a1", "a", design("A", fcs=0, hull=(9, 9, 9, 9), systems=[BEAM1]))
    b = ship("b1", "b", design("B"), y=60)
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, 5]))
    state.light_units["f"] = LightUnit(
        "f", "b", "fighter-interceptor", 6, 100.0, 0, 0, target="a1", attached_to="a1"
    )
    events = play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "f")])})
    fired = next(e for e in events if e.kind == "fire")
    assert fired.data["dice"] == 1 and fired.data["value"] == 1  # one die, 5+ kills one
    assert state.light_units["f"].craft == 5


def test_heavy_weapons_need_a_fire_control_for_a_light_unit_not_attached():
    a = ship("a1", "a", design("A", fcs=0, systems=[BEAM1]))
    b = ship("b1", "b", design("B"), y=60)
    state = battle(a, b)
    state.light_units["g"] = LightUnit("g", "b", "gunboat-assault", 6, 0.0, 0, 10)  # cannot fly
    with pytest.raises(NoFireControl, match="A1: no free fire control for beam-a"):
        play_turn(state, {"a1": ShipOrders(fire=[FireIntent("beam-a", "g")])})


@pytest.mark.parametrize(
    ("squadron", "weapon"),
    [
        ({"unit": "long-range-fighter"}, "fighter-long-range"),
        ({"unit": "interceptor"}, "fighter-interceptor"),
        ({"unit": "gunboat", "variant": "heavy-transport"}, "gunboat-heavy-transport"),
        ({"unit": "gunboat", "variant": "emp"}, "gunboat-emp"),
    ],
)
def test_squadron_unit_words_map_to_catalogue_ids(squadron, weapon):
    assert squadron_weapon(squadron) == weapon


@pytest.mark.parametrize("squadron", [{"unit": "battery"}, {"unit": "beam-1"}, {"unit": ""}])
def test_unlaunchable_squadrons_are_refused_in_phase_1(squadron):
    with pytest.raises(UnknownWeapon, match="bay-a"):
        squadron_weapon(squadron, where="A1: launch from 'bay-a'")
    bay = {"id": "bay-a", "kind": "bay", "squadron": squadron}
    a = ship("a1", "a", design("A", systems=[bay]))
    b = ship("b1", "b", design("B"), y=20)
    state = battle(a, b)
    with pytest.raises(UnknownWeapon):
        play_turn(state, {"a1": ShipOrders(launches=[("bay-a", "b1")])})
    assert state.turn == 0 and state.dice.log == []


def test_ships_fire_alternately_initiative_side_first():
    big = {"hull": (9, 9, 9, 9), "systems": [BEAM1]}
    a1 = ship("a1", "a", design("A", **big), x=0)
    a2 = ship("a2", "a", design("A", **big), x=5)
    b1 = ship("b1", "b", design("B", **big), x=0, y=10, heading=3)
    b2 = ship("b2", "b", design("B", **big), x=5, y=10, heading=3)
    state = battle(a1, a2, b1, b2, dice=ScriptedDice([1, 1, 6, 6]))  # b wins initiative
    orders = {
        s.ship_id: ShipOrders(fire=[FireIntent("beam-a", t)])
        for s, t in ((a1, "b1"), (a2, "b2"), (b1, "a1"), (b2, "a2"))
    }
    events = play_turn(state, orders)
    assert [e.data["ship"] for e in events if e.kind == "fire"] == ["b1", "a1", "b2", "a2"]


def _escorted(*threats, escort_weapon="gunboat-pd", escort_craft=3, faces=()):
    """A1 at the origin escorted by a gunboat squadron; B1 far away; ``threats`` are enemy
    light units. Initiative 6+6 against 1+1, then ``faces``."""
    a = ship("a1", "a", design("A", hull=(9, 9, 9, 9)))
    b = ship("b1", "b", design("B"), y=100)
    state = battle(a, b, dice=ScriptedDice([6, 6, 1, 1, *faces]))
    state.light_units["g"] = LightUnit(
        "g", "a", escort_weapon, escort_craft, 36.0, 0, 0, attached_to="a1"
    )
    for unit in threats:
        state.light_units[unit.unit_id] = unit
    return state


def test_escorting_pd_platforms_give_area_defence_with_their_own_dice():
    # An interceptor squadron closes on A1 and attaches (range 0): 3 PD platforms roll
    # 2 dice each (gunboat-pd within 6 mu), read on the PD table: 6→2, 5→1, 4→1, 1–3→0.
    fighters = LightUnit("f", "b", "fighter-interceptor", 6, 100.0, 0, 4, target="a1")
    state = _escorted(fighters, faces=[6, 5, 4, 3, 2, 1])
    events = play_turn(state, {})
    (escort,) = [e for e in events if e.kind == "point-defence"]
    assert escort.phase == 9
    assert escort.data == {"ship": "a1", "system": "g", "unit": "f", "kills": 4, "escort": True}
    purposes = [r.purpose for r in state.dice.log[4:10]]
    assert purposes == [f"adaf vs f (escort g), die {i}" for i in range(1, 7)]
    losses = next(e for e in events if e.kind == "light-unit-losses")
    assert (losses.phase, losses.data["lost"], losses.data["craft"]) == (9, 4, 2)


def test_escort_area_defence_is_at_minus_2_against_gunboats_and_reaches_only_6_mu():
    near = LightUnit("gb", "b", "gunboat-assault", 4, 0.0, 0, 5, target="a1")  # cannot fly
    far = LightUnit("f", "b", "fighter-interceptor", 6, 0.0, 0, 6.5, target="a1")
    state = _escorted(near, far, escort_craft=1, faces=[6, 5])
    events = play_turn(state, {})
    (escort,) = [e for e in events if e.kind == "point-defence"]
    # 6−2 = 4 → 1 kill, 5−2 = 3 → none; the six fighters 6.5 mu out (more craft) are not
    # engaged.
    assert (escort.data["unit"], escort.data["kills"]) == ("gb", 1)


def test_only_pd_platforms_escorting_the_ship_give_it_area_defence():
    fighters = LightUnit("f", "b", "fighter-interceptor", 6, 0.0, 0, 2, target="a1")
    state = _escorted(fighters, escort_weapon="gunboat-assault")
    assert "point-defence" not in kinds(play_turn(state, {}))
    fighters = LightUnit("f", "b", "fighter-interceptor", 6, 0.0, 0, 2, target="a1")
    state = _escorted(fighters)
    state.light_units["g"].attached_to = None  # flying free, not escorting
    assert "point-defence" not in kinds(play_turn(state, {}))


def test_a_pd_platform_squadron_launched_at_a_friendly_ship_escorts_it():
    pd_bay = {"id": "bay-p", "kind": "bay", "squadron": {"unit": "gunboat", "variant": "pd"}}
    # Fighters may escort too; other gunboats may not (seed: only « La
    # Plateforme SD reste positionnée en Escorte d’un vaisseau »).
    assault_bay = {
        "id": "bay-f",
        "kind": "bay",
        "squadron": {"unit": "gunboat", "variant": "assault"},
    }
    carrier = ship("a1", "a", design("Carrier", fcs=2, systems=[pd_bay, assault_bay]))
    friend = ship("a2", "a", design("Friend"), x=2)
    b = ship("b1", "b", design("B"), y=100)
    state = battle(carrier, friend, b)
    with pytest.raises(IllegalOrder, match=r"'a2' is not an enemy ship.*PD-platform.*§9"):
        play_turn(state, {"a1": ShipOrders(launches=[("bay-f", "a2")])})
    play_turn(state, {"a1": ShipOrders(launches=[("bay-p", "a2")])})
    (unit,) = state.light_units.values()
    assert (unit.weapon, unit.attached_to, unit.position) == ("gunboat-pd", "a2", (2.0, 0.0))
